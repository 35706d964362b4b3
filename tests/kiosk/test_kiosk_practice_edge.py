"""A practice match faces the person's edge (issue 20): started from Player 2's half of the home screen,
the person plays seat 1 at the top edge and the computer seat 0; a restart seats them the same way.
Through the real app (real pygame surfaces, a real SQLite journal, a fake clock)."""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import intents_on_screen, kiosk_app, playing, spot_for, tap

import kiosk.ui.board.table as board_table
import kiosk.ui.scenes.table as table_scene
from club.verify import verify
from club.wire import MatchUpload
from engine import NS_PER_S, Decline, Phase, Play, Tile
from kiosk.app import App
from kiosk.club.outbox import match_upload
from kiosk.store.journal import COMPUTER_SEAT_KEY, Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock
from kiosk.ui import layout

S = NS_PER_S
PERSON, COMPUTER = 1, 0


def make_app(journal: Journal | None = None, clock: FakeClock | None = None, balances: int = 150
             ) -> tuple[App, FakeClock]:
    """The kiosk in table orientation with hand-overs on (a practice match has none), its computer
    thinking on the test's thread."""
    return kiosk_app(orientation="table", match={"balances": balances}, clock=clock or FakeClock(10 * S), seed=7,
                     bots=12, step=True, journal=journal, boot_id="boot-1", simulator=True)


def frame(app: App, clock: FakeClock, seconds: float = 0.25) -> None:
    clock.advance(seconds)
    app.step(wait=False)


def key(app: App, name: str) -> None:
    code = pygame.key.key_code(name)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=name, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode=name, scancode=0))
    app.step(wait=False)


def start_from_the_top(app: App, level: int = 2) -> None:
    tap(app, do.OpenPractice(1))
    assert app.ui.screen == Screen.PRACTICE and app.ui.facing == 1
    assert set(intents_on_screen(app, do.PlayComputer)) == {do.PlayComputer(n, 1) for n in (1, 2, 3, 4)}
    tap(app, do.PlayComputer(level, 1))
    computer = app.controller.computer
    assert computer is not None and computer.seat == COMPUTER and computer.person == PERSON


def person_turn(app: App, clock: FakeClock) -> None:
    """The person (seat 1) acts by tapping: Start/Continue, decline or accept, the first tile that fits, else Draw."""
    m = playing(app).match
    clock.advance(0.3)
    if m.phase is Phase.READY:
        tap(app, do.Start(PERSON))
        return
    legal = m.legal_actions()
    if m.phase is Phase.AUCTION:
        tap(app, do.Decline(PERSON) if Decline(PERSON) in legal else do.Accept(PERSON))
        return
    play = next((a for a in legal if isinstance(a, Play)), None)
    if play is None:
        tap(app, do.DrawTile)
        return
    tap(app, do.TapTile(PERSON, play.tile))
    if playing(app).selected == play.tile and play.at is not None:
        tap(app, do.TapPoint(play.at))


def recorded(app: App, clock: FakeClock) -> list[layout.TextRecord]:
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        app.draw(clock.now(), full=True)
    return recorder.texts


@pytest.fixture
def drawn_hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Tile, ...]]]:
    """Every hand the table draws face up, in order (the real drawing still happens)."""
    drawn: list[tuple[Tile, ...]] = []
    real = board_table.draw_hand

    def spy(surface: pygame.Surface, area: pygame.Rect, hand: Sequence[Tile], *args: Any) -> Any:
        drawn.append(tuple(hand))
        return real(surface, area, hand, *args)

    monkeypatch.setattr(table_scene, "draw_hand", spy)
    yield drawn


def test_started_from_player_2s_half_the_person_plays_at_the_top_edge(drawn_hands: list[tuple[Tile, ...]]) -> None:
    app, clock = make_app()
    try:
        start_from_the_top(app)
        s = playing(app)
        assert spot_for(app, do.Start(PERSON)) is not None and spot_for(app, do.Start(COMPUTER)) is None
        key(app, "a")  # Player 1's ACCEPT: the computer's edge, nobody's button
        assert s.match.round == 0
        key(app, "j")  # Player 2's ACCEPT starts the match for the person
        assert s.match.round == 1
        told = moved = 0
        for _ in range(600):
            m = s.match
            if m.is_over or (told >= 3 and moved >= 3 and m.round >= 2):
                break
            drawn_hands.clear()
            texts = recorded(app, clock)
            if m.phase is Phase.PLAY:  # the person's hand face up at their edge, the computer's never
                assert m.hand(PERSON) in drawn_hands and not any(set(h) & set(m.hand(COMPUTER)) for h in drawn_hands)
            computers = [x for x in texts if x.role == "computer"]
            assert all(x.facing == PERSON and x.rect[1] + x.rect[3] / 2 < 240 for x in computers)
            assert not any(x.role == "thinking" for x in texts)  # nothing said to the empty bottom edge
            told += bool(computers)
            if m.to_act == COMPUTER and m.phase in (Phase.AUCTION, Phase.PLAY):
                moves = app.controller.computer.moves if app.controller.computer else 0
                frame(app, clock)
                moved += (app.controller.computer.moves if app.controller.computer else 0) > moves
                continue
            person_turn(app, clock)
        assert told >= 3 and moved >= 3
        tap(app, do.Resign(PERSON))
        tap(app, do.ConfirmResign(PERSON))
        assert s.match.is_over and s.match.outcome.winner == COMPUTER
        tap(app, do.Rematch())  # the same way round again
        assert app.controller.computer is not None and app.controller.computer.seat == COMPUTER
    finally:
        app.close()


def test_the_home_screens_bottom_half_still_seats_the_person_at_the_bottom() -> None:
    app, _ = make_app()
    try:
        tap(app, do.OpenPractice(None))
        assert set(intents_on_screen(app, do.PlayComputer)) == {do.PlayComputer(n, 0) for n in (1, 2, 3, 4)}
        tap(app, do.PlayComputer(3, 0))
        assert app.controller.computer is not None and app.controller.computer.seat == 1
    finally:
        app.close()


def test_a_restart_seats_the_person_at_the_same_edge_and_the_upload_keeps_the_hubs_configuration(
        tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    bo = Players(journal).create("Bo")
    app, clock = make_app(journal)
    start_from_the_top(app, 4)
    tap(app, do.OpenPicker(PERSON))
    tap(app, do.PickPlayer(PERSON, bo.id))
    assert spot_for(app, do.OpenPicker(COMPUTER)) is None  # nobody picks a name for the computer
    s = playing(app)
    while s.match.round < 1 or s.match.to_act != PERSON or s.match.phase is not Phase.PLAY:
        if s.match.to_act == COMPUTER:
            frame(app, clock)
        else:
            person_turn(app, clock)
    before = s.match.to_dict()
    (record,) = journal.matches()
    assert record.players == (None, bo.id)
    killed = tmp_path / "killed"  # the files as a kill would leave them
    killed.mkdir()
    for part in tmp_path.glob("journal.sqlite3*"):
        shutil.copy(part, killed / part.name)
    app.close()
    journal.close()
    clock.advance(1)
    journal = Journal.open(killed / "journal.sqlite3")
    again, _ = make_app(journal, clock)
    try:
        computer = again.controller.computer
        assert computer is not None and computer.level == 4 and computer.seat == COMPUTER
        m = playing(again).match
        assert m.to_dict()["hands"] == before["hands"] and m.to_act == PERSON
        assert again.controller.player_name(PERSON) == "Bo"
        for _ in range(200):  # the person plays on at the top edge; the computer answers
            if computer.moves:
                break
            if m.to_act == COMPUTER:
                frame(again, clock)
            else:
                person_turn(again, clock)
        assert computer.moves >= 1
        tap(again, do.Resign(PERSON))
        tap(again, do.ConfirmResign(PERSON))
        frame(again, clock)
        (record,) = journal.matches()
        assert record.finished and not record.rated and record.players == (None, bo.id)
        assert record.config[COMPUTER_SEAT_KEY] == COMPUTER
        with journal.database.read() as conn:
            upload = match_upload(conn, record.id)
        assert COMPUTER_SEAT_KEY not in upload["header"]["config"]  # the hub takes the engine's keys only
        verdict = verify(MatchUpload.model_validate_json(json.dumps(upload)))  # as the hub reads and replays it
        assert verdict.rejection is None and verdict.winner == COMPUTER and not verdict.rated
        assert Players(journal).get(bo.id).games == 0
        (row,) = Players(journal).history(bo.id)  # Bo's history: a loss against the computer, unrated
        assert row.result == "loss" and not row.rated and journal.computer_levels([record.id]) == {record.id: 4}
    finally:
        again.close()
        journal.close()


def test_a_whole_practice_match_from_the_top_edge_covers_no_text_tile_or_card() -> None:
    """Every frame of whole matches from the top edge passes ``layout.covered`` (a message bar, the
    computer's recap line, over a card, a tile, a lit point or a text), played until one ends on the
    computer's move (the recap line was drawn over the result card)."""
    from kiosk.devtools.screenshots import layout_record

    app, clock = make_app(balances=40)
    try:
        ended_by_computer = False
        for game in range(6):
            rng = random.Random(game)
            if game:
                tap(app, do.Rematch())
            else:
                start_from_the_top(app, 1)
            s = playing(app)
            for _ in range(3000):
                m = s.match
                recorder = layout.LayoutRecorder()
                with app.stage.context.recorded(layout=recorder):
                    app.draw(clock.now(), full=True)
                record = layout_record(app, recorder, "practice-top", "table", "en")
                assert layout.covered(record) == [], (game, m.round, layout.covered(record))
                if m.is_over:
                    break
                if m.to_act == COMPUTER and m.phase in (Phase.AUCTION, Phase.PLAY):
                    frame(app, clock)
                    ended_by_computer = s.match.is_over
                    continue
                clock.advance(0.3)
                plays = [a for a in m.legal_actions() if isinstance(a, Play)] if m.phase is Phase.PLAY else []
                if plays:
                    play = rng.choice(plays)
                    tap(app, do.TapTile(PERSON, play.tile))
                    if s.selected == play.tile and play.at is not None:
                        tap(app, do.TapPoint(play.at))
                else:
                    person_turn(app, clock)
            assert s.match.is_over, (s.match.phase, s.match.to_act, s.match.round, s.selected, app.ui.screen)
            if ended_by_computer:
                break
        assert ended_by_computer
    finally:
        app.close()
