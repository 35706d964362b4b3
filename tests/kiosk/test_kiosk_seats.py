"""Issue 20, whole matches at 800 x 480 in table orientation, through the real app headless: each
seat reads its own texts in its own language (the ready card), the computer's side given to the
person in a practice match (its name everywhere, its moves in words on the person's half), the
boneyard on both halves, whose balance is whose, the auction's facts at 20 px or more, the last
move's outline apart from the spinner's, the two seats' turn cues told apart by more than pitch."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import kiosk_app, playing, tap

from engine import NS_PER_S, Decline, Match, MatchConfig, Phase, Play
from kiosk.app import App
from kiosk.i18n import LANGUAGES, translator
from kiosk.table import intents as do
from kiosk.table.cues import CueKind
from kiosk.timesource import FakeClock
from kiosk.ui import layout
from kiosk.ui.board import render
from kiosk.ui.scenes.auction import auction_lines
from kiosk.ui.scenes.fitted import IMPORTANT
from kiosk.ui.sound import MELODIES

S = NS_PER_S


def make_app(language: str = "en", **match: object) -> tuple[App, FakeClock]:
    return kiosk_app(orientation="table", language=language, match={"handover": False, **match}, seed=5,
                     boot_id="boot-1", bots=12, step=True)


def recorded(app: App, clock: FakeClock) -> list[layout.TextRecord]:
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        recorder.clear(app.screen)
        app.draw(clock.now(), full=True)
    return recorder.texts


def on_own_half(x: layout.TextRecord, seat: int) -> bool:
    centre = x.rect[1] + x.rect[3] / 2
    return x.facing == seat and ((centre > 240) if seat == 0 else (centre < 240))


def test_player_2s_ready_card_follows_the_language_they_pick() -> None:
    app, clock = make_app()
    tap(app, do.NewMatch())
    tap(app, do.PlayerLanguage(1))
    ko = translator(app.ui.player_language(1))
    assert ko.language != "en"
    stopped_ko = ko._("Clocks are stopped. Either player presses Start.")
    texts = recorded(app, clock)
    theirs = " ".join(x.text for x in texts if x.facing == 1)
    assert stopped_ko.split()[0] in theirs
    assert "Clocks are stopped" not in theirs  # nothing of the card left in the host language
    assert "Clocks are stopped" in " ".join(x.text for x in texts if x.facing == 0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_auctions_facts_are_never_under_20_px(language: str) -> None:
    app, clock = make_app(language, balances=60)
    tap(app, do.NewMatch())
    playing(app).adopt(Match(MatchConfig(balances=(60, 60), jockey=0)))
    app.step(wait=False)  # the adopted match on screen before the next tap (a tap means what was shown)
    tap(app, do.Start(0))
    s = playing(app)
    t = translator(language)
    for _ in range(2):  # player 2 bids first (the jockey's credit, the cost), then player 1 answers
        player = s.match.to_act
        auction = s.match.auction()
        tap(app, do.MaxBid())  # the most that stays in the match, then up to the whole balance: the all-in warning
        for _ in range(20):
            if len([x for x in auction_lines(t, auction, player, s.bid_draft, s.match.balances[player])
                    if x.floor >= IMPORTANT]) == 3:
                break
            tap(app, do.StepBid(+1))
        texts = [x for x in recorded(app, clock) if x.seat == player and x.role == "other"]
        lines = auction_lines(t, auction, player, s.bid_draft, s.match.balances[player])
        important = [line.value for line in lines if line.floor >= IMPORTANT]
        assert len(important) == 3  # the credit or the standing bid's cost, my bid's cost, the all-in warning
        facts = [x for x in texts if any(x.text in value for value in important)]
        drawn = " ".join(x.text for x in facts)
        for value in important:  # each drawn whole (wrapped), none left out
            assert value.replace(" ", "") in drawn.replace(" ", "")
        assert all(x.px >= IMPORTANT for x in facts), [(x.px, x.text) for x in facts]
        if auction.bid is None:
            while s.bid_draft > 15:
                tap(app, do.StepBid(-1))
            tap(app, do.PlaceBid(player))
    assert s.match.to_act == 0


def test_the_boneyard_shows_on_both_halves_and_the_balances_say_whose_is_whose() -> None:
    app, clock = make_app(balances=300)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    yard = [x for x in recorded(app, clock) if x.role == "boneyard"]
    assert {x.facing for x in yard} == {0, 1}
    assert all(f"{s.match.boneyard_count}" in x.text and on_own_half(x, x.facing) for x in yard)
    for _ in range(600):  # to the round's end
        m = s.match
        if m.phase is Phase.READY:
            break
        clock.advance(1)
        play = next((a for a in m.legal_actions() if isinstance(a, Play)), None)
        s.command(play or m.legal_actions()[0], clock.now())
        app.step(wait=False)
    assert s.match.phase is Phase.READY and s.match.round == 1
    first, second = s.match.balances
    said = [x for x in recorded(app, clock) if f"Player 1 {first}, Player 2 {second}" in x.text]
    assert {x.facing for x in said} == {0, 1}


def test_the_last_moves_outline_is_not_the_spinners() -> None:
    a, b = render.LAST_OUTLINE, render.SPINNER_ORANGE
    assert sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5 > 150  # another colour, not a shade
    assert layout.contrast("#{:02x}{:02x}{:02x}".format(*render.BADGE_TEXT),
                           "#{:02x}{:02x}{:02x}".format(*render.LAST_OUTLINE)) >= 4.5  # the badge's "+10"


def test_the_two_seats_turn_cues_differ_in_notes_and_rhythm() -> None:
    first, second = MELODIES[(CueKind.YOUR_TURN, 0)], MELODIES[(CueKind.YOUR_TURN, 1)]
    assert len(first) != len(second)
    lengths = [sorted({round(n[1], 2) for n in melody}) for melody in (first, second)]
    assert lengths[0] != lengths[1]


def practice(app: App, clock: FakeClock, level: int = 2) -> None:
    tap(app, do.OpenPractice())
    tap(app, do.PlayComputer(level))
    assert app.controller.computer is not None


def person(app: App, clock: FakeClock) -> None:
    m = playing(app).match
    clock.advance(0.3)
    if m.phase is Phase.READY:
        tap(app, do.Start(0))
        return
    legal = m.legal_actions()
    if m.phase is Phase.AUCTION:
        tap(app, do.Decline(0) if Decline(0) in legal else do.Accept(0))
        return
    play = next((a for a in legal if isinstance(a, Play)), None)
    if play is None:
        tap(app, do.DrawTile)
        return
    tap(app, do.TapTile(0, play.tile))
    if playing(app).selected == play.tile and play.at is not None:
        tap(app, do.TapPoint(play.at))


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_practice_match_gives_the_computers_side_to_the_person(language: str) -> None:
    app, clock = make_app(language)
    practice(app, clock)
    s = playing(app)
    t = translator(language)
    seat_label = t._("Player {number}", number=2)
    name = t._("Computer ({level})", level=t._("Casual"))
    seen_thinking = seen_moves = 0
    for _ in range(400):
        m = s.match
        if m.is_over or (seen_thinking and seen_moves >= 3):
            break
        texts = recorded(app, clock)
        assert not any(seat_label in x.text for x in texts), [x.text for x in texts if seat_label in x.text]
        computers = [x for x in texts if x.role == "computer"]
        assert all(on_own_half(x, 0) for x in computers)  # the person's half, facing them
        assert not any(x.role == "thinking" for x in texts)  # nothing said to the empty edge
        if m.to_act == 1 and m.phase in (Phase.AUCTION, Phase.PLAY):
            assert any(x.text == t._("{name} is thinking…", name=name) for x in computers)
            seen_thinking += 1
            clock.advance(0.5)
            app.step(wait=False)
            continue
        if m.to_act == 0 and m.phase is Phase.PLAY and s.recap.for_player(0):
            line = " ".join(x.text for x in computers if name in x.text)
            last = s.recap.for_player(0)[-1]
            assert line and (last.tile is None or str(last.tile) in line)
            seen_moves += 1
        person(app, clock)
    assert seen_thinking and seen_moves >= 3


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_helps_numbers_are_the_kiosks_settings(language: str) -> None:
    app, clock = make_app(language, balances=60, bank_seconds=90, delay_seconds=5)
    tap(app, do.OpenHelp())
    said: list[str] = []
    for page in range(app.stage.help_pages()):
        if page:
            tap(app, do.HelpPage(page))
        said += [x.text for x in recorded(app, clock)]
    words = " ".join(said)
    assert "150" not in words and "300" not in words and "165" not in words
    for number in ("60", "90", "120", "45"):  # balance, bank, together (2 x 60), 60 - 15
        assert number in words, number


def test_the_home_screen_offers_everything_to_both_edges_and_a_screen_faces_the_seat_that_opened_it() -> None:
    app, clock = make_app()
    texts = recorded(app, clock)
    titles = [x for x in texts if x.text == "Spectacular Bid"]
    assert {x.facing for x in titles} == {0, 1} and all(on_own_half(x, x.facing) for x in titles)
    for kind in (do.NewMatch, do.OpenPractice, do.OpenSettings, do.OpenHelp, do.HostLanguage):
        halves = {0 if spot.rect.centery > 240 else 1 for spot in app.hotspots if isinstance(spot.intent, kind)}
        assert halves == {0, 1}, kind
    top = [spot.intent for spot in app.hotspots if spot.rect.centery < 240]
    assert do.OpenSettings(1) in top and do.OpenPractice(1) in top and do.OpenHelp(1) in top
    admin = app.stage.regions.admin_area
    for opened, back in ((do.OpenSettings(1), do.GoHome()), (do.OpenPractice(1), do.GoHome())):
        tap(app, opened)
        texts = recorded(app, clock)
        assert texts and all(x.facing == 1 for x in texts), [(x.facing, x.text) for x in texts if x.facing != 1]
        assert not any(spot.rect.colliderect(admin) for spot in app.hotspots)  # the owner's corner stays clear
        if isinstance(opened, do.OpenSettings):  # the owner's keypad from there faces the same seat
            tap(app, do.EditSettings())
            assert app.ui.owner.keypad is not None and app.ui.owner.facing == 1
            assert all(x.facing == 1 for x in recorded(app, clock))
            tap(app, do.PinCancel())
        tap(app, back)
    tap(app, do.OpenSettings())  # from Player 1's half: upright, toward their edge
    assert all(x.facing == 0 for x in recorded(app, clock))


def test_the_last_placements_score_badge_reads_from_both_edges() -> None:
    app, clock = make_app(balances=300)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    for _ in range(600):
        last = s.last_placement
        if last is not None and last.score > 0 and s.match.phase is Phase.PLAY:
            break
        m = s.match
        clock.advance(1)
        play = next((a for a in m.legal_actions() if isinstance(a, Play)), None)
        s.command(play or m.legal_actions()[0], clock.now())
        app.step(wait=False)
    assert s.last_placement is not None and s.last_placement.score > 0
    badge = [x for x in recorded(app, clock) if x.text == f"+{s.last_placement.score}" and x.role == "score"]
    assert sorted(x.facing for x in badge) == [0, 1]
    assert all(x.px >= 16 for x in badge)
