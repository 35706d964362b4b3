"""Playing the computer through the real app (real pygame surfaces, real SQLite journal, a fake clock):
whole matches at each level, the natural minimum before each move, answers for a match that moved on
dropped, a worker thread that never holds up the frame, no hand-over, the computer's tiles never
drawn, the hint, the journal (level kept, never rated, resumed with the computer at its level)."""

from __future__ import annotations

import os
import random
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import Closing, draw_recorded, kiosk_app, playing, spot_for, tap

import engine.bots
import kiosk.ui.scenes.table as table_scene
from engine import NS_PER_S, Accept, Action, Decline, Match, Phase, Play, PlayerView, Tile
from kiosk.app import App
from kiosk.config import KioskConfig
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.computer import MIN_MOVE_NS, ComputerPlayer, InlineExecutor
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock
from kiosk.ui.board.table import draw_hand
from kiosk.ui.scenes.handover import Handover

S = NS_PER_S


class QueuedExecutor(Executor):
    """Holds each job until the test runs it (the worker thread's answer arriving later)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, lambda: fn(*args, **kwargs)))
        return future

    def run_all(self) -> None:
        for future, job in self.jobs:
            if not future.cancelled():
                future.set_result(job())
        self.jobs.clear()


def the_computer(app: App) -> ComputerPlayer:
    """The computer player of the practice match at the table (there must be one)."""
    computer = app.controller.computer
    assert computer is not None, "no practice match"
    return computer


def make_app(journal: Journal | None = None, *, executor: Executor | None = None, boot_id: str = "boot-1",
             clock: FakeClock | None = None, config: KioskConfig | None = None) -> tuple[App, FakeClock]:
    # config: the kiosk's default (hand-overs on; practice matches have none); level 4 thinks a fixed
    # amount (the fake clock never moves by itself)
    app, clock = kiosk_app(config, clock=clock, journal=journal, boot_id=boot_id, simulator=True, bots=12)
    if executor is not None:
        app.controller.bot_executor = executor
    return app, clock


def frame(app: App, clock: FakeClock, seconds: float = 0.05) -> None:
    clock.advance(seconds)
    app.step(wait=False)


def start_practice(app: App, clock: FakeClock, level: int) -> None:
    frame(app, clock)
    tap(app, do.OpenPractice())
    assert app.ui.screen == Screen.PRACTICE
    tap(app, do.PlayComputer(level))
    assert app.session is not None and app.controller.computer is not None
    assert the_computer(app).level == level and the_computer(app).seat == 1


def person_turn(app: App, clock: FakeClock) -> None:
    """The person (seat 0) acts by tapping: Start/Continue, decline or accept in the auction, the first
    tile that fits, else Draw."""
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


@pytest.fixture
def drawn_hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Tile, ...]]]:
    """Every hand the table draws face up, in order (the real drawing still happens)."""
    drawn: list[tuple[Tile, ...]] = []
    real = draw_hand  # the table scene's (it imports it from the board's drawing)

    def spy(surface: pygame.Surface, area: pygame.Rect, hand: Sequence[Tile], *args: Any) -> Any:
        drawn.append(tuple(hand))
        return real(surface, area, hand, *args)

    monkeypatch.setattr(table_scene, "draw_hand", spy)
    yield drawn


def play_whole_match(app: App, clock: FakeClock, drawn: list[tuple[Tile, ...]], limit: int = 4000) -> None:
    """Play to the end: the person taps, the computer answers; after each frame, what was drawn is checked."""
    s = playing(app)
    for _ in range(limit):
        if s.match.is_over:
            return
        m = s.match
        assert m.phase is not Phase.HANDOVER
        assert not any(isinstance(scene, Handover) for scene in app.stage.stack())
        drawn.clear()
        if m.to_act == 1:
            frame(app, clock, 0.25)
        else:
            person_turn(app, clock)
        hidden = set(s.match.hand(1))
        assert all(not hidden & set(hand) for hand in drawn), "the computer's tiles were drawn face up"
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("level", [1, *(pytest.param(level, marks=pytest.mark.slow) for level in (2, 3, 4))])
def test_a_whole_match_against_each_level_ends_with_legal_moves_no_handover_and_hidden_tiles(closing: Closing,
        level: int, tmp_path: Path, drawn_hands: list[tuple[Tile, ...]]) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    short = replace(KioskConfig(), match=replace(KioskConfig().match, balances=60))  # no bot bids its points away
    app, clock = make_app(journal, config=short)
    closing.later(journal.close)
    start_practice(app, clock, level)
    play_whole_match(app, clock, drawn_hands)
    frame(app, clock)
    computer = app.controller.computer
    assert computer is not None and computer.moves > 10 and computer.dropped == 0
    assert not [m for m in playing(app).messages if m.kind == "refused" and m.player == 1]
    outcome = playing(app).match.outcome
    assert outcome is not None and outcome.winner in (0, 1)
    (record,) = journal.matches()
    assert record.finished and record.players[1] is None and not record.rated
    assert journal.computer_levels([record.id]) == {record.id: level}
    states = list(journal.replay_states(record.id))  # every stored step is legal when played again
    assert states[-1].match.outcome == outcome


def computers_play_turn_began(app: App, clock: FakeClock) -> int:
    """Play on (the person's turns, the computer's auction) until the computer must play a tile; when that began."""
    s = playing(app)
    while s.match.to_act != 1 or s.match.phase is not Phase.PLAY:
        if s.match.to_act == 1:
            frame(app, clock, 0.25)
        else:
            person_turn(app, clock)
    began = s.match.decision_started_ns()
    assert began is not None
    return began


def test_the_computer_moves_a_natural_minimum_after_its_turn_began() -> None:
    app, clock = make_app()
    start_practice(app, clock, 2)
    s = playing(app)
    began = computers_play_turn_began(app, clock)
    moves = the_computer(app).moves
    while clock.now() + 100_000_000 < began + MIN_MOVE_NS:
        frame(app, clock, 0.1)
        assert s.match.to_act == 1 and the_computer(app).moves == moves  # still thinking
        assert "Computer (Casual) is thinking…" in [fit.text for fit in draw_recorded(app, clock)]  # on the person's half
    assert app.controller.next_due_ns(clock.now()) <= began + MIN_MOVE_NS  # the loop wakes for it
    clock.t = began + MIN_MOVE_NS
    app.step(wait=False)
    assert the_computer(app).moves == moves + 1
    assert s.match.last_command_ns == began + MIN_MOVE_NS  # applied at the frame's time, a second on


def test_an_answer_for_a_match_that_moved_on_is_dropped() -> None:
    executor = QueuedExecutor()
    app, clock = make_app(executor=executor)
    start_practice(app, clock, 3)
    s = playing(app)
    while s.match.to_act != 1:
        person_turn(app, clock)
    frame(app, clock)
    assert executor.jobs  # asked, not answered yet
    tap(app, do.Resign(0))
    tap(app, do.ConfirmResign(0))  # the person resigned while the computer was thinking
    executor.run_all()
    frame(app, clock, 2)
    m = s.match
    assert m.is_over and m.outcome is not None and m.outcome.winner == 1
    assert the_computer(app).dropped == 1 and the_computer(app).moves == 0


def test_the_worker_thread_never_holds_up_the_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = engine.bots.choose

    def slow(*args: Any, **kwargs: Any) -> Any:
        assert gate.wait(30)  # the worker waits for the test, the frames go on
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.bots, "choose", slow)
    app, clock = make_app()
    app.controller.bot_executor = None  # the kiosk's own worker thread
    try:
        start_practice(app, clock, 2)
        s = playing(app)
        while s.match.to_act != 1:
            person_turn(app, clock)
        for _ in range(30):  # three seconds of frames while the worker is busy
            frame(app, clock, 0.1)
        question = the_computer(app).question
        assert s.match.to_act == 1 and question is not None
        gate.set()
        question.future.result(timeout=30)
        frame(app, clock)
        assert the_computer(app).moves == 1
    finally:
        gate.set()  # the worker thread finishes before the app closes


def test_the_hint_picks_up_what_level_4_would_play_and_rings_its_point() -> None:
    app, clock = make_app()
    start_practice(app, clock, 1)
    s = playing(app)
    for _ in range(400):
        m = s.match
        if m.phase is Phase.PLAY and m.to_act == 0 and len({a.tile for a in m.legal_actions()
                                                               if isinstance(a, Play)}) >= 2:
            break
        if m.to_act == 1:
            frame(app, clock, 0.25)
        else:
            person_turn(app, clock)
    m = s.match
    assert m.to_act == 0 and s.selected is None
    view = PlayerView.of(m, 0, clock.now() + 10_000_000)
    tap(app, do.Hint(0))
    hint = the_computer(app).hint_for(m)
    assert isinstance(hint, Play) and m.is_legal(hint)
    assert s.selected == hint.tile  # raised in the hand, its points lit
    assert any(message.text == f"Hint: play [{hint.tile}]" and message.player == 0 for message in s.messages)
    assert engine.bots.choose(view, 4, random.Random(1), samples=12) in m.legal_actions()
    if hint.at is not None:
        assert spot_for(app, do.TapPoint(hint.at)) is not None
        tap(app, do.TapPoint(hint.at))
        assert m.layout.placements[-1].tile == hint.tile


def test_no_hint_in_a_match_between_people() -> None:
    app, clock = make_app(config=replace(KioskConfig(), match=replace(KioskConfig().match, handover=False)))
    frame(app, clock)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    frame(app, clock)
    assert app.controller.computer is None
    assert spot_for(app, do.Hint) is None
    app.do(do.Hint(playing(app).match.to_act or 0), clock.now())
    assert playing(app).selected is None and not any("Hint" in m.text for m in playing(app).messages)


def test_a_practice_match_is_never_rated_and_shows_in_the_history_per_level(closing: Closing, tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    anna = Players(journal).create("Anna")
    app, clock = make_app(journal)
    closing.later(journal.close)
    start_practice(app, clock, 3)
    tap(app, do.OpenPicker(0))
    tap(app, do.PickPlayer(0, anna.id))
    assert spot_for(app, do.OpenPicker(1)) is None  # nobody picks a name for the computer
    tap(app, do.Start(0))
    frame(app, clock)
    tap(app, do.Resign(0))
    tap(app, do.ConfirmResign(0))
    frame(app, clock)
    (record,) = journal.matches()
    assert record.finished and record.players == (anna.id, None) and not record.rated
    assert Players(journal).get(anna.id).games == 0 and Players(journal).get(anna.id).rating == anna.rating
    tap(app, do.Rematch())  # the same opponent again
    assert app.controller.computer is not None and the_computer(app).level == 3
    tap(app, do.GoHome())
    assert app.controller.computer is None
    app.controller.handle(do.OpenHistory(anna.id), clock.now())
    texts = [fit.text for fit in draw_recorded(app, clock)]
    assert "Computer (Club)" in texts and "Loss" in texts
    assert "Against the computer (wins–losses): Club 0–1" in texts  # the results per level


def test_a_resumed_practice_match_goes_on_with_the_computer_at_its_level(closing: Closing, tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    app, clock = make_app(journal)
    start_practice(app, clock, 4)
    s = playing(app)
    while s.match.round < 1 or s.match.to_act != 0 or s.match.phase is not Phase.PLAY:
        if s.match.to_act == 1:
            frame(app, clock, 0.25)
        else:
            person_turn(app, clock)
    before = s.match.to_dict()
    killed = tmp_path / "killed"  # the files as a kill would leave them: what is on disk now
    killed.mkdir()
    for part in tmp_path.glob("journal.sqlite3*"):
        shutil.copy(part, killed / part.name)
    app.close()
    journal.close()
    clock.advance(1)  # it comes back a second later in the same boot
    journal = Journal.open(killed / "journal.sqlite3")
    again, _ = make_app(journal, clock=clock)
    closing.later(journal.close)
    frame(again, clock)
    computer = again.controller.computer
    assert computer is not None and computer.level == 4 and again.ui.screen == Screen.MATCH
    m = playing(again).match
    assert m.to_dict()["hands"] == before["hands"] and m.to_act == 0
    assert not [spot for spot in again.hotspots if isinstance(spot.intent, do.OpenPicker)]
    for _ in range(200):  # the person plays on; the computer answers
        if computer.moves:
            break
        if m.to_act == 1:
            frame(again, clock, 0.25)
        else:
            person_turn(again, clock)
    assert computer.moves >= 1


def test_the_persons_buttons_work_and_the_computers_do_nothing_and_stay_dark(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.events import Button
    from hardware.layout import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS
    from kiosk.table.session import match_config

    app, clock = make_app()
    start_practice(app, clock, 2)
    s = playing(app)
    s.adopt(Match(replace(match_config(s.settings), jockey=1), boot_id=""))  # round 1 opens with an auction
    frame(app, clock)
    tap(app, do.Start(0))
    factory = app.ports.pin_factory
    assert factory is not None

    def press(player: int, button: Button) -> None:
        clock.advance(0.5)
        pin = factory.pin(DEFAULT_BUTTON_PINS[player][button])
        pin.drive_low()
        pin.drive_high()
        frame(app, clock, 0.01)

    m = s.match
    assert m.phase is Phase.AUCTION and m.to_act == 0  # the jockey's opponent bids first
    frame(app, clock)
    assert factory.pin(DEFAULT_LED_PINS[0][Button.RAISE]).state  # the person's RAISE is lit
    assert not any(factory.pin(p).state for p in DEFAULT_LED_PINS[1].values())  # the computer's are dark
    press(1, Button.RAISE)  # someone at the computer's edge: nothing happens
    assert m.auction() is not None and m.auction().bid is None and m.to_act == 0
    press(0, Button.RAISE)  # the person bids 15 with the button
    auction = m.auction()
    assert auction is not None and auction.bid == 15 and auction.bidder == 0
    for _ in range(40):
        if m.to_act != 1:
            break
        frame(app, clock, 0.25)
    assert m.to_act != 1 or m.phase is not Phase.AUCTION
    assert app.controller.panel_state(clock.now()).players[1].active == frozenset()
    if m.phase is Phase.AUCTION and m.to_act == 0:  # the computer raised: the person accepts by button
        press(0, Button.ACCEPT)
        assert m.phase is not Phase.AUCTION or Accept(0) not in m.legal_actions()


def test_the_serial_panel_shows_the_practice_match_and_its_buttons_play_for_the_person(closing: Closing,
                                                                                       tmp_path: Path) -> None:
    from hardware.config import HardwareConfig, SerialConfig
    from hardware.ptyboard import PtyBoard
    from kiosk.table.session import match_config

    board = PtyBoard(tmp_path / "panel", name="TESTBOARD")
    serial = SerialConfig(enabled=True, url=str(tmp_path / "panel"), reconnect_max_s=0.05)
    app, clock = make_app(config=replace(KioskConfig(), hardware=replace(HardwareConfig(), serial=serial)))
    closing.later(board.unplug)
    board.plug()
    start_practice(app, clock, 3)
    s = playing(app)
    s.adopt(Match(replace(match_config(s.settings), jockey=1), boot_id=""))  # round 1 opens with an auction
    frame(app, clock)
    tap(app, do.Start(0))
    frame(app, clock)
    m = s.match
    assert m.phase is Phase.AUCTION and m.to_act == 0
    assert board.wait_for(lambda lines: b"STATE AUCTION" in lines and b"LIT 1 --- 0" in lines
                          and any(line.startswith(b"LIT 0 -R") for line in lines), 5.0), board.lines
    board.take_lines()
    clock.advance(0.5)
    board.send_line("BTN 1 RAISE")  # the computer's edge of the panel: nothing happens
    board.send_line("BTN 0 RAISE")  # the person bids 15 on the panel
    assert app.ports.queue.wait(2, timeout=5.0)  # both presses reached the kiosk's queue
    frame(app, clock, 0.01)
    auction = m.auction()
    assert auction is not None and auction.bid == 15 and auction.bidder == 0 and m.to_act == 1
    assert board.wait_for(lambda lines: b"TURN 1" in lines and b"LIT 0 --- 0" in lines, 5.0), board.lines
    assert not [line for line in board.lines if line.startswith(b"LIT 1 ") and line != b"LIT 1 --- 0"]


class RecordingExecutor(InlineExecutor):
    """Runs each job at once, as the inline executor does, and keeps the keyword arguments it was given."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls.append(kwargs)
        return super().submit(fn, *args, **kwargs)


class TickingClock(FakeClock):
    """A fake clock that moves on by ``tick_ns`` at every reading (the search reads it before each iteration)."""

    def __init__(self, start_ns: int, tick_ns: int) -> None:
        super().__init__(start_ns)
        self.tick_ns = tick_ns
        self.readings = 0

    def now(self) -> int:
        self.t += self.tick_ns
        self.readings += 1
        return self.t

    __call__ = now


def test_think_seconds_is_a_checked_key_of_the_computer_table() -> None:
    from kiosk.config import DEFAULT_CONFIG_TOML, ComputerSettings, parse_config_text

    assert KioskConfig().computer == ComputerSettings(think_seconds=1.0)
    assert parse_config_text(DEFAULT_CONFIG_TOML).config.computer.think_seconds == 1.0
    loaded = parse_config_text("[computer]\nthink_seconds = 2.5\n")
    assert loaded.warnings == () and loaded.config.computer.think_seconds == 2.5
    for wrong in ("0.1", "11", '"fast"', "true"):
        bad = parse_config_text(f"[sound]\nvolume = 40\n[computer]\nthink_seconds = {wrong}\n")
        [warning] = bad.warnings
        assert (warning.key, warning.line) == ("computer.think_seconds", 4)
        assert "a number of seconds from 0.2 to 10" in str(warning) and "using 1.0" in str(warning)
        assert bad.config.computer.think_seconds == 1.0 and bad.config.sound.volume == 40  # the rest is kept


def test_level_4_searches_for_what_is_left_of_the_pause_on_the_clock_it_is_given() -> None:
    from engine import shuffle_deal
    from engine.actions import Start
    from kiosk.table.computer import ANSWER_MARGIN_NS, MIN_BUDGET_NS, ComputerPlayer

    match = Match()
    match.apply(Start(None, shuffle_deal(random.Random(5))), 10 * S)
    while match.to_act != 1 or len(match.legal_actions()) < 2:  # the computer's turn, with a choice
        player = match.to_act
        assert player is not None
        match.apply(engine.bots.choose(PlayerView.of(match, player, 10 * S), 2, random.Random(1)), 10 * S)
    began = match.decision_started_ns()
    assert began is not None
    clock = TickingClock(began + S // 4, tick_ns=S // 200)  # asked 250 ms into the turn; 5 ms per reading
    executor = RecordingExecutor()
    computer = ComputerPlayer(4, clock.now, executor, random.Random(2), min_move_ns=5 * S // 2)
    assert computer.budget_for(began, began + S // 4) == 5 * S // 2 - S // 4 - ANSWER_MARGIN_NS
    assert computer.budget_for(began, began + 3 * S) == MIN_BUDGET_NS  # the pause is over: a short search
    applied: list[Action] = []

    def take(action: Action, at: int) -> bool:
        applied.append(action)
        return True

    now = clock.t
    assert not computer.update(match, now, take)
    [call] = executor.calls
    assert call["samples"] is None and call["budget_ns"] == began + 5 * S // 2 - ANSWER_MARGIN_NS - now
    readings = clock.readings
    assert readings >= 2  # it searched on the clock, not a fixed number of iterations
    assert clock.t <= began + 5 * S // 2 + S // 100  # and stopped within a reading of the pause's end
    assert computer.update(match, began + 5 * S // 2, take)
    assert len(applied) == 1 and applied[0] in match.legal_actions()
    fixed = ComputerPlayer(4, clock.now, executor, random.Random(2), budget_ns=S // 10)
    assert fixed.budget_for(began, began) == S // 10  # a fixed budget stays fixed


def test_the_configured_pause_holds_every_level_s_move() -> None:
    from kiosk.config import ComputerSettings

    app, clock = make_app(config=replace(KioskConfig(), computer=ComputerSettings(think_seconds=2.5)))
    start_practice(app, clock, 2)
    s = playing(app)
    began = computers_play_turn_began(app, clock)
    moves = the_computer(app).moves
    while clock.now() + 100_000_000 < began + 5 * S // 2:
        frame(app, clock, 0.1)
        assert s.match.to_act == 1 and the_computer(app).moves == moves  # still its pause
    clock.t = began + 5 * S // 2
    app.step(wait=False)
    assert the_computer(app).moves == moves + 1
    assert s.match.last_command_ns == began + 5 * S // 2
