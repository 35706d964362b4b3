"""A practice match played through the real app headless at 800 x 480 in table orientation, as found
by playing whole matches (issue 20): the computer's empty half carries no text, a hint is gone once
the move it was for is made, and a message bar that finds no clear place is not drawn over a card."""

from __future__ import annotations

import os
from collections.abc import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from kiosk_support import kiosk_app, spot_for, tap

from engine import NS_PER_S, Decline, Match, MatchConfig, Phase, Play
from kiosk.app import App
from kiosk.table import intents as do
from kiosk.timesource import FakeClock
from kiosk.ui import layout

S = NS_PER_S


def make_app(seed: int = 5) -> tuple[App, FakeClock]:
    return kiosk_app(orientation="table", match={"handover": False}, seed=seed, boot_id="boot-1", bots=8, step=True)


def recorded(app: App, clock: FakeClock) -> layout.LayoutRecorder:
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        recorder.clear(app.screen)
        app.draw(clock.now(), full=True)
    return recorder


def computers_half(app: App) -> pygame.Rect:
    board = app.stage.regions.board
    return pygame.Rect(board.x, board.y, board.width, board.height // 2)  # the computer sits at Player 2's edge


def person_moves(app: App, clock: FakeClock, hint: bool) -> None:
    """The person's decision: with ``hint``, ask first and follow it (or the first legal move)."""
    s = app.session
    assert s is not None
    m = s.match
    clock.advance(0.5)
    if m.phase is Phase.READY:
        tap(app, do.Start(0))
        return
    c = app.controller.computer
    assert c is not None
    if hint and spot_for(app, do.Hint(0)) is not None:
        tap(app, do.Hint(0))
        clock.advance(0.1)
        app.step(wait=False)
    advice = c.hint_for(m)
    legal = m.legal_actions()
    if m.phase is Phase.AUCTION:
        tap(app, do.Decline(0) if Decline(0) in legal else do.Accept(0))
        return
    plays = [a for a in legal if isinstance(a, Play)]
    play = advice if isinstance(advice, Play) else (plays[0] if plays else None)
    if play is None:
        tap(app, do.DrawTile)
        return
    if s.selected != play.tile or play.at is None:
        tap(app, do.TapTile(0, play.tile))
    if s.selected == play.tile and play.at is not None:
        tap(app, do.TapPoint(play.at))


def play_practice(app: App, clock: FakeClock, turns: int, hint: bool = True) -> Iterator[layout.LayoutRecorder]:
    """Each frame of a practice match at Expert, as the person sees it (the recorder of each)."""
    tap(app, do.OpenPractice())
    tap(app, do.PlayComputer(4))
    c = app.controller.computer
    assert c is not None
    for _ in range(turns):
        s = app.session
        assert s is not None
        if s.match.is_over:
            return
        yield recorded(app, clock)
        if s.match.to_act == c.seat and s.match.phase in (Phase.AUCTION, Phase.PLAY):
            clock.advance(0.4)
            app.step(wait=False)
            continue
        person_moves(app, clock, hint)


def test_nothing_is_written_on_the_computers_empty_half() -> None:
    app, clock = make_app()
    seen = 0
    for frame in play_practice(app, clock, 160):
        top = computers_half(app)
        badges = [pygame.Rect(rect).inflate(2, 2) for what, rect in frame.board if what == "badge"]
        words = [x for x in frame.texts if top.contains(pygame.Rect(x.rect))
                 and not any(b.contains(pygame.Rect(x.rect)) for b in badges)]  # the last tile's badge reads both ways
        assert not words, [(x.text, x.role) for x in words]
        seen += 1
    assert seen > 50


def test_a_hint_is_gone_once_the_move_it_was_for_is_made() -> None:
    app, clock = make_app(seed=9)
    asked = 0
    for _ in play_practice(app, clock, 300, hint=False):
        s = app.session
        assert s is not None
        if s.match.to_act != 0 or s.match.phase not in (Phase.AUCTION, Phase.PLAY) or not spot_for(app, do.Hint(0)):
            continue
        tap(app, do.Hint(0))
        clock.advance(0.1)
        app.step(wait=False)
        c = app.controller.computer
        assert c is not None
        advice = c.hint_for(s.match)
        said = any("Hint:" in x.text for x in recorded(app, clock).texts)
        assert said or (isinstance(advice, Play) and s.selected == advice.tile)  # no room: its tile is picked up
        person_moves(app, clock, hint=False)  # within the message's 4 seconds
        asked += said
        assert not [x.text for x in recorded(app, clock).texts if "Hint:" in x.text]
        if asked >= 6:
            break
    assert asked >= 6


def test_message_bars_never_cover_a_card_or_each_other() -> None:
    app, clock = make_app(seed=7)
    found: list[str] = []
    for frame in play_practice(app, clock, 200):
        record: dict[str, object] = {"texts": [{"rect": list(x.rect), "text": x.text} for x in frame.texts],
                  "board": [{"rect": list(rect), "what": what} for what, rect in frame.board]}
        found += layout.covered(record)
    assert not found, found[:5]


def test_the_balances_after_a_round_and_at_the_end_say_whose_is_whose_by_name() -> None:
    app, clock = make_app(seed=3)
    settled = ""
    for frame in play_practice(app, clock, 400, hint=False):
        s = app.session
        assert s is not None
        if s.match.phase is Phase.READY and s.match.round >= 1:
            b = s.match.balances
            settled = f"Balances: Player 1 {b[0]}, Computer (Expert) {b[1]}. Press Continue."
            assert settled in [x.text for x in frame.texts]
            break
    assert settled
    tap(app, do.Start(0))
    tap(app, do.Resign(0))
    tap(app, do.ConfirmResign(0))
    s = app.session
    assert s is not None and s.match.is_over
    b = s.match.balances
    texts = [x.text for x in recorded(app, clock).texts]
    assert f"Final balances: Player 1 {b[0]}, Computer (Expert) {b[1]}" in texts, " | ".join(texts)


def test_the_ready_card_of_a_practice_match_asks_only_the_person_to_start() -> None:
    app, clock = make_app()
    tap(app, do.OpenPractice())
    tap(app, do.PlayComputer(2))
    texts = [x.text for x in recorded(app, clock).texts]
    assert "Clocks are stopped. Press Start when you are ready." in texts
    assert not any("Either player" in x for x in texts)


def test_a_losing_all_in_with_no_smaller_bid_allowed_does_not_offer_to_bid_less() -> None:
    app, clock = make_app()
    tap(app, do.NewMatch())
    s = app.session
    assert s is not None
    s.adopt(Match(MatchConfig(balances=(15, 15), jockey=0, handover=False)))  # 15 is both the minimum and all
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    assert s.match.phase is Phase.AUCTION and s.match.to_act == 1
    clock.advance(1)
    tap(app, do.PlaceBid(1))
    assert s.all_in == 15
    texts = [x.text for x in recorded(app, clock).texts]
    assert "No" in texts and "No, bid less" not in texts
    tap(app, do.CancelAllIn(1))
    assert s.all_in is None and s.match.auction().bid is None
