"""The post-match review's screens for ``python -m kiosk.devtools.screenshots``: the result card
offering Review, the review at work, and each player's costliest decisions (two players, each in a
language of their own, and a practice match).

The matches are played by the bots (so the decisions are a player's, not random ones) through the
app with its journal, and reviewed in this process with few worlds (``SAMPLES``), each match once
per process (the same pictures every run).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import Match, PlayerView, Start, shuffle_deal
from engine.bots import choose
from kiosk.app import App
from kiosk.i18n import next_language
from kiosk.table import intents as do
from kiosk.table.computer import InlineExecutor
from kiosk.table.review_job import InlineReviewJob
from kiosk.table.session import GameSession
from kiosk.timesource import FakeClock

BALANCE = 80
"""Each player's starting points in these matches (a few rounds)."""
SAMPLES = 16
"""Worlds per decision for the screenshots' reviews (the kiosk's: ``review_job.REVIEW_SAMPLES``)."""
_REVIEWS: dict[str, InlineReviewJob] = {}


class ShownJob(InlineReviewJob):
    """A review made once per match and process; ``at``: a job still at work at that share (0 to 1)."""

    def __init__(self, scenario: dict[str, Any], seats: tuple[int, ...], at: float | None = None) -> None:
        key = json.dumps([scenario, seats], sort_keys=True)
        if key not in _REVIEWS:
            _REVIEWS[key] = InlineReviewJob(scenario, samples=SAMPLES, seats=seats)
        made = _REVIEWS[key]
        self.seats, self.error, self.cancelled = seats, None, False
        self._reviews = {} if at is not None else dict(made._reviews)
        self.total_steps = made.total_steps
        self.done_steps = made.total_steps if at is None else int(at * made.total_steps)


def play_bots(app: App, s: GameSession, clock: FakeClock, levels: tuple[int, int], seed: int) -> None:
    """The match at the table played to its end by bots of ``levels``, entered in the journal by a
    Start through the screen (as a person's), every decision 2 s after the previous."""
    rng = random.Random(seed)
    s.adopt(Match(replace(s.match.config, handover=False, balances=(BALANCE, BALANCE)), boot_id=app.controller.boot_id))
    app.do(do.Start(0), clock.advance(1))
    m = s.match
    for _ in range(5000):
        if m.is_over:
            break
        if m.to_act is None:
            s.command(Start(None, shuffle_deal(rng)), clock.advance(2))
            continue
        seat = m.to_act
        now = clock.advance(2)
        s.command(choose(PlayerView.of(m, seat, now), levels[seat], rng), now)
    app.controller.touched(clock.now())


def review_scenes(app: App, clock: FakeClock) -> dict[str, Callable[[], None]]:
    """The review's scenes, by name (``screenshots.scenes`` adds them to its own)."""
    desk = app.controller.review

    def two_players(seed: int = 3) -> Match:
        app.controller.go_home()
        app.controller.new_match()
        s = app.session
        assert s is not None
        play_bots(app, s, clock, (2, 3), seed)
        app.controller.update(clock.now())
        return s.match

    def over_review() -> None:  # the result card offers Review on each half
        two_players()

    def opened(at: float | None) -> None:
        desk.start = lambda scenario, seats, samples: ShownJob(scenario, seats, at)
        app.do(do.OpenReview(0), clock.advance(1))
        app.controller.update(clock.now())

    def review_progress() -> None:  # the review at work
        two_players()
        opened(0.42)

    def review() -> None:  # done: each half its player's costliest decisions
        two_players()
        opened(None)
        app.do(do.ReviewPick(1, 1), clock.now())  # Player 2 looks at their second

    def review_languages() -> None:  # each player in a language of their own (neither the host's)
        review()
        language = app.ui.language
        app.ui.player_languages = [next_language(language), next_language(next_language(language))]
        app.controller.changed()

    def review_practice() -> None:  # a practice match: the person's decisions only, the whole screen
        app.controller.go_home()
        app.controller.bot_executor = InlineExecutor()
        app.do(do.OpenPractice(), clock.now())
        app.do(do.PlayComputer(3), clock.now())
        s = app.session
        assert s is not None
        play_bots(app, s, clock, (2, 3), 5)
        app.controller.update(clock.now())
        opened(None)

    def over_review_progress() -> None:  # left the review while it runs: its progress on the card's button
        review_progress()
        app.do(do.CloseReview(), clock.advance(1))

    return {"over-review": over_review, "over-review-progress": over_review_progress,
            "review-progress": review_progress, "review": review, "review-languages": review_languages,
            "review-practice": review_practice}

