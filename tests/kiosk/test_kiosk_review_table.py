"""The post-match review at the table (issue 24 #4), through the real app headless at 800 x 480 with
a real journal: Review on the result card (and RAISE), the job started only once the match is over
and cancelled by a new match, leaving and coming back, the progress, and each seat's three costliest
decisions on their own half, facing them (a practice match: the person's only)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from kiosk_support import kiosk_app, playing, spot_for, tap

from engine import NS_PER_S, Phase, Start, shuffle_deal
from engine.review import review_scenario
from engine.scenario import parse_scenario
from hardware.events import Button, InputEvent
from kiosk.app import App
from kiosk.i18n import translator
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.table.review_desk import REVIEW_POLL_NS
from kiosk.table.review_job import InlineReviewJob, ReviewJob, costliest
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock
from kiosk.ui import layout
from kiosk.ui.scenes.review import move_text

S = NS_PER_S
SAMPLES = 4
"""Worlds per decision in these tests (the kiosk's: 100)."""


def make_app(journal: Journal | None, orientation: str = "table") -> tuple[App, FakeClock]:
    """The kiosk without hand-overs at 40 points a side, its computer thinking on the test's thread and
    its reviews at ``SAMPLES`` worlds."""
    app, clock = kiosk_app(orientation=orientation, match={"handover": False, "balances": 40}, bots=8,
                           journal=journal, boot_id="boot-1")
    app.controller.review.samples = SAMPLES
    return app, clock


def in_place(app: App) -> None:
    """Reviews made at once in the test's process (the kiosk's run in a process of their own)."""
    app.controller.review.start = lambda scenario, seats, samples: InlineReviewJob(scenario, samples=samples,
                                                                                     seats=seats)


def play_to_the_end(app: App, clock: FakeClock, seed: int = 2, level: int | None = None) -> None:
    """A new match (``level``: against the computer), started by a tap and played to its end by random
    legal commands 1 s apart (the computer's own, in a practice match, as it would)."""
    if level is None:
        app.controller.new_match()
    else:
        app.controller.new_match(level)
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    s = playing(app)
    rng = random.Random(seed)
    while not s.match.is_over:
        assert s.match.clock_running is not None or s.match.phase is Phase.READY
        assert app.controller.review.job is None  # never while a clock runs
        action = rng.choice(s.match.legal_actions())
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        s.command(action, clock.advance(1))
        app.controller.touched(clock.now())
    clock.advance(1)
    app.step(wait=False)


def recorded(app: App, clock: FakeClock) -> layout.LayoutRecorder:
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        app.draw(clock.now(), full=True)
    return recorder


def texts_for(recorder: layout.LayoutRecorder, seat: int) -> list[str]:
    return [t.text for t in recorder.texts if t.seat == seat]


def press(app: App, clock: FakeClock, player: int, button: Button) -> None:
    app.controller.press(InputEvent(player, button, clock.advance(0.5), "test"))
    app.step(wait=False)


def scenario_of(app: App) -> dict[str, Any]:
    found = app.controller.review.scenario(app.controller)
    assert found is not None
    return found


def test_the_result_card_offers_review_on_each_half_facing_its_player(journal: Journal) -> None:
    app, clock = make_app(journal)
    play_to_the_end(app, clock)
    mine, theirs = spot_for(app, do.OpenReview(0)), spot_for(app, do.OpenReview(1))
    assert mine is not None and theirs is not None
    assert mine.rect.centery > 240 > theirs.rect.centery  # Player 2's at the top, on their half
    assert min(mine.rect.size) >= layout.MIN_TARGET and min(theirs.rect.size) >= layout.MIN_TARGET
    texts = recorded(app, clock).texts
    assert any(t.text == "Review" and t.seat == 1 and t.facing == 1 for t in texts)
    assert app.stage.regions.turned[1]

    upright, clock2 = make_app(journal, "upright")
    play_to_the_end(upright, clock2, seed=3)
    assert spot_for(upright, do.OpenReview(None)) is not None  # one card, both players read it
    assert spot_for(upright, do.OpenReview(0)) is None


def test_no_journal_no_review_and_raise_is_unlit(tmp_path: Any) -> None:
    app, clock = make_app(None)
    play_to_the_end(app, clock)
    assert spot_for(app, do.OpenReview) is None
    assert Button.RAISE not in app.controller.panel_state(clock.now()).players[0].active
    press(app, clock, 0, Button.RAISE)
    assert app.ui.screen == Screen.MATCH and app.controller.review.job is None


def test_the_job_starts_only_after_the_match_in_its_own_process_and_its_review_is_shown(journal: Journal) -> None:
    app, clock = make_app(journal)
    app.controller.new_match()
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    s = playing(app)
    assert s.match.clock_running is not None
    app.controller.handle(do.OpenReview(0), clock.advance(1))  # no Review while the match runs
    press(app, clock, 0, Button.RAISE)
    app.step(wait=False)
    assert app.ui.screen == Screen.MATCH and app.controller.review.job is None
    play_to_the_end_from_here(app, clock, s)
    tap(app, do.OpenReview(0))
    desk = app.controller.review
    assert app.ui.screen == Screen.REVIEW
    job = desk.job
    assert isinstance(job, ReviewJob) and s.match.is_over and s.match.clock_running is None  # started by the frame
    assert job.seats == (0, 1)
    assert job.wait(timeout=300.0), job.error
    clock.advance(1)
    app.step(wait=False)
    assert not job.running
    scenario = scenario_of(app)
    for seat in (0, 1):
        expected = costliest(review_scenario(parse_scenario(scenario), seat, samples=SAMPLES))
        assert job.costliest(seat) == expected
        texts = texts_for(recorded(app, clock), seat)
        assert any(text.startswith("Luck of the deals and draws: ") for text in texts)
        if expected:
            assert f"You: {move_text(translator('en'), expected[0].chosen)}" in texts


def play_to_the_end_from_here(app: App, clock: FakeClock, s: Any, seed: int = 2) -> None:
    rng = random.Random(seed)
    while not s.match.is_over:
        action = rng.choice(s.match.legal_actions())
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        s.command(action, clock.advance(1))
        app.controller.touched(clock.now())
    clock.advance(1)
    app.step(wait=False)


def test_leaving_keeps_the_review_running_and_a_new_match_cancels_it_before_any_clock(journal: Journal) -> None:
    app, clock = make_app(journal)
    app.controller.review.samples = 2000  # long enough to be left while it runs
    play_to_the_end(app, clock)
    tap(app, do.OpenReview(1))
    job = app.controller.review.job
    assert job is not None and job.running
    assert app.controller.next_due_ns(clock.now()) <= clock.now() + REVIEW_POLL_NS  # the loop wakes for its progress
    clock.advance(1)
    tap(app, do.CloseReview())
    assert app.ui.screen == Screen.MATCH and job.running  # back on the result card, the review goes on
    tap(app, do.OpenReview(0))  # and comes back to the same review
    assert app.ui.screen == Screen.REVIEW and app.controller.review.job is job
    tap(app, do.CloseReview())
    tap(app, do.Rematch())
    assert not job.running and app.controller.review.job is None  # ended in the frame of the Rematch
    s = playing(app)
    assert s.match.phase is Phase.READY and s.match.clock_running is None

    play_to_the_end(app, clock, seed=4)
    tap(app, do.OpenReview(0))
    second = app.controller.review.job
    assert second is not None and second is not job and second.running
    tap(app, do.CloseReview())
    tap(app, do.GoHome())
    assert not second.running and app.controller.review.job is None


def test_the_review_shows_each_seats_costliest_three_on_their_half(journal: Journal) -> None:
    app, clock = make_app(journal)
    in_place(app)
    play_to_the_end(app, clock, seed=6)  # a match where each seat lost points at three decisions or more
    app.ui.player_languages = ["en", "uk"]
    tap(app, do.OpenReview(0))
    app.step(wait=False)
    scenario = scenario_of(app)
    uk = translator("uk")
    for seat in (0, 1):
        expected = costliest(review_scenario(parse_scenario(scenario), seat, samples=SAMPLES))
        assert len(expected) == 3
        picks = [spot_for(app, do.ReviewPick(seat, i)) for i in range(3)]
        assert all(p is not None and min(p.rect.size) >= layout.MIN_TARGET for p in picks)
        assert all((p.rect.centery > 240) == (seat == 0) for p in picks if p is not None)  # on their own half
        for i, decision in enumerate(expected):
            tap(app, do.ReviewPick(seat, i))
            texts = texts_for(recorded(app, clock), seat)
            t = translator("en") if seat == 0 else uk
            assert t._("You: {move}", move=move_text(t, decision.chosen)) in texts
            assert t._("Better: {move}", move=move_text(t, decision.best)) in texts
            n = max(1, round(decision.loss))
            assert t.n_("Cost: about {n} point", "Cost: about {n} points", n) in texts
    assert any(t.seat == 1 and t.facing == 1 for t in recorded(app, clock).texts)  # Player 2's half turned to them
    tap(app, do.CloseReview())
    assert app.ui.screen == Screen.MATCH


def test_raise_opens_the_review_and_then_shows_the_players_next_decision(journal: Journal) -> None:
    app, clock = make_app(journal)
    in_place(app)
    play_to_the_end(app, clock, seed=6)
    assert Button.RAISE in app.controller.panel_state(clock.now()).players[1].active  # lit: it would be taken
    press(app, clock, 1, Button.RAISE)
    assert app.ui.screen == Screen.REVIEW
    app.step(wait=False)
    assert app.controller.review.picked == [0, 0]
    press(app, clock, 1, Button.RAISE)
    assert app.controller.review.picked == [0, 1]
    press(app, clock, 1, Button.RAISE)
    press(app, clock, 1, Button.RAISE)
    assert app.controller.review.picked == [0, 0]  # round again to the costliest


class Halfway(InlineReviewJob):
    """A review still at work, 42 % done."""

    def __init__(self, scenario: dict[str, Any], seats: tuple[int, ...]) -> None:
        self.seats, self.error, self.cancelled, self._reviews = seats, None, False, {}
        self.done_steps, self.total_steps = 42, 100


def review_opened_with(job: Callable[[dict[str, Any], tuple[int, ...]], Any], journal: Journal
                       ) -> tuple[App, FakeClock, layout.LayoutRecorder]:
    """A match played to its end, its review made by ``job`` and opened by Player 1; the screen then."""
    app, clock = make_app(journal)
    app.controller.review.start = lambda scenario, seats, samples: job(scenario, seats)
    play_to_the_end(app, clock)
    tap(app, do.OpenReview(0))
    app.step(wait=False)
    return app, clock, recorded(app, clock)


def test_the_progress_is_on_both_halves_and_on_the_cards_button(journal: Journal) -> None:
    app, clock, recorder = review_opened_with(Halfway, journal)
    for seat in (0, 1):
        assert "Reviewing the match: 42%" in texts_for(recorder, seat)
    tap(app, do.CloseReview())
    assert "Reviewing… 42%" in [t.text for t in recorded(app, clock).texts]


def test_a_practice_match_reviews_the_person_only(journal: Journal) -> None:
    app, clock = make_app(journal)
    in_place(app)
    play_to_the_end(app, clock, seed=6, level=2)
    assert spot_for(app, do.OpenReview(0)) is not None and spot_for(app, do.OpenReview(1)) is None
    app.controller.handle(do.OpenReview(1), clock.advance(1))  # the computer's seat: nothing
    assert app.ui.screen == Screen.MATCH
    tap(app, do.OpenReview(0))
    app.step(wait=False)
    job = app.controller.review.job
    assert job is not None and job.seats == (0,)
    assert all(getattr(i, "player", 0) == 0 for i in (s.intent for s in app.hotspots))
    recorder = recorded(app, clock)  # the person's review is the whole screen, facing them
    assert recorder.texts and all(t.facing == 0 and t.seat != 1 for t in recorder.texts)
    assert any(t.text.startswith("You: ") for t in recorder.texts)
    surface = app.screen
    assert isinstance(surface, pygame.Surface) and surface.get_size() == (800, 480)


def test_the_idle_return_goes_home_and_ends_the_review(journal: Journal) -> None:
    app, clock = make_app(journal)
    app.controller.review.samples = 2000
    play_to_the_end(app, clock)
    tap(app, do.OpenReview(0))
    job = app.controller.review.job
    assert job is not None and job.running
    clock.advance(app.config.kiosk.idle_return_seconds + 1)
    app.step(wait=False)
    assert app.ui.screen == Screen.HOME and app.session is None
    app.step(wait=False)
    assert not job.running and app.controller.review.job is None


class Failed(Halfway):
    """A review whose process reported an error."""

    def __init__(self, scenario: dict[str, Any], seats: tuple[int, ...]) -> None:
        super().__init__(scenario, seats)
        self.error = "ScenarioError(...)"


def test_a_review_that_failed_says_so_and_can_be_left(journal: Journal) -> None:
    app, _clock, recorder = review_opened_with(Failed, journal)
    for seat in (0, 1):
        assert "The review could not be made." in texts_for(recorder, seat)
    assert not app.controller.review.running  # the loop need not wake for it
    tap(app, do.CloseReview())
    assert app.ui.screen == Screen.MATCH
