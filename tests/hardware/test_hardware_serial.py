"""The serial panel over real pyserial: loop://, a pty pair and socket://.

Unplugging is simulated two ways: a pty board that really disappears (its
master is closed and the symlink the kiosk opens is removed, then a new pty
is put behind the same symlink), and a port wrapper that makes reads raise a
bare OSError while ``is_open`` stays true, as pyserial does on a USB unplug.
"""

from __future__ import annotations

import errno
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from hardware.backoff import Backoff
from hardware.errors import InvalidValue
from hardware.events import Button, EventQueue
from hardware.protocol import checksum, decode
from hardware.ptyboard import PtyBoard
from hardware.serial_panel import PanelStatus, Port, SerialPanel, url_opener
from hardware.state import PanelState, Phase, PlayerPanel
from kiosk.timesource import FakeClock

WAIT = 5.0
STATE = PanelState(
    (
        PlayerPanel(frozenset({Button.ACCEPT, Button.RAISE, Button.DECLINE}), True, 83_400, 150),
        PlayerPanel(frozenset(), False, 90_000, 140),
    ),
    turn=0,
    standing_bid=20,
    bidder=1,
    phase=Phase.AUCTION,
)
FULL_STATE_LINES = {
    b"STATE AUCTION", b"LIT 0 ARD 1", b"CLK 0 01:23.4", b"BAL 0 150", b"LIT 1 --- 0",
    b"CLK 1 01:30.0", b"BAL 1 140", b"TURN 0", b"BID 20 1",
}


def fast_panel(opener: Callable[[], Any], queue: EventQueue, **kwargs: Any) -> SerialPanel:
    """A panel whose retries come quickly, so the tests do not wait long."""
    kwargs.setdefault("backoff", Backoff(0.005, 2.0, 0.05))
    kwargs.setdefault("hello_interval", 0.05)
    return SerialPanel(opener, queue, **kwargs).start()


def connected(panel: SerialPanel) -> bool:
    return panel.status is PanelStatus.CONNECTED


def loop_port() -> serial.SerialBase:
    return serial.serial_for_url("loop://", baudrate=115200, timeout=0.01, write_timeout=1.0)


# -- loop:// ---------------------------------------------------------------


@pytest.fixture
def queue(clock: FakeClock) -> EventQueue:
    return EventQueue(clock)


@pytest.fixture
def looped(queue: EventQueue) -> Iterator[tuple[SerialPanel, serial.SerialBase]]:
    """A panel on loop://: it handshakes with its own echo; the test writes board lines into the loop."""
    port = loop_port()
    panel = fast_panel(lambda: port, queue)
    assert panel.wait_until(connected, WAIT)
    yield panel, port
    panel.close()


def test_loop_handshake(looped: tuple[SerialPanel, serial.SerialBase]) -> None:
    panel, _ = looped
    assert panel.stats.connects == 1
    assert panel.board_name == "KIOSK"  # its own HELLO came back


def test_loop_every_button_line_becomes_an_event(
    looped: tuple[SerialPanel, serial.SerialBase], queue: EventQueue, clock: FakeClock
) -> None:
    _, port = looped
    lines = [f"BTN {p} {b.value}" for p in (0, 1) for b in (Button.ACCEPT, Button.RAISE, Button.DECLINE)]
    lines += ["BTN - START_CONTINUE", "BTN - REVEAL", "BTN - HELP"]
    port.write("".join(line + "\n" for line in lines).encode())
    assert queue.wait(len(lines), WAIT)
    events = queue.drain()
    assert [f"BTN {'-' if e.player is None else e.player} {e.button.value}" for e in events] == lines
    assert {e.source for e in events} == {"serial"}
    assert {e.arrival_ns for e in events} == {clock()}


def test_loop_every_display_line_is_written(looped: tuple[SerialPanel, serial.SerialBase]) -> None:
    panel, _ = looped
    panel.show(STATE)
    # loop:// echoes the display lines back; the panel counts them as not meant for the host
    assert panel.wait_until(lambda p: p.stats.unexpected >= 9, WAIT)
    assert panel.stats.lines_out == 1 + 9  # HELLO + full state
    panel.show(PanelState(STATE.players, turn=1, standing_bid=20, bidder=1, phase=Phase.AUCTION))
    assert panel.wait_until(lambda p: p.stats.unexpected >= 10, WAIT)
    assert panel.stats.lines_out == 11  # only TURN changed


def test_loop_random_bytes_are_counted_not_fatal(
    looped: tuple[SerialPanel, serial.SerialBase], queue: EventQueue
) -> None:
    panel, port = looped
    noise = random_bytes(64 * 1024)  # loop:// moves one byte at a time; the MB runs over the pty
    for start in range(0, len(noise), 1024):
        port.write(noise[start : start + 1024])
    port.write(b"\nBTN 1 DECLINE\n")
    assert queue.wait(1, 30)
    assert [(e.player, e.button) for e in queue.drain()] == [(1, Button.DECLINE)]
    stats = panel.stats
    assert stats.bad_lines > 0 and stats.malformed > 0 and stats.too_long > 0
    assert connected(panel)


def random_bytes(size: int, seed: int = 3) -> bytes:
    import random

    return random.Random(seed).randbytes(size)


def test_button_before_handshake_is_ignored(queue: EventQueue) -> None:
    port = loop_port()
    port.write(b"BTN 0 ACCEPT\n")
    # the panel's own HELLO is queued behind the button line, so the press comes first
    panel = fast_panel(lambda: port, queue)
    try:
        assert panel.wait_until(connected, WAIT)
        assert panel.stats.unexpected == 1
        assert len(queue) == 0
    finally:
        panel.close()


class FlakyPort:
    """A loop:// port that can be 'unplugged': reads raise a bare OSError, is_open stays true."""

    def __init__(self, unplugged: threading.Event) -> None:
        self._port = loop_port()
        self._unplugged = unplugged
        self.written: list[bytes] = []
        self.is_open = True

    @property
    def in_waiting(self) -> int:
        return self._port.in_waiting

    def read(self, size: int = 1) -> bytes:
        if self._unplugged.is_set():
            raise OSError(errno.EIO, "Input/output error")
        return self._port.read(size)

    def write(self, data: bytes) -> int:
        self.written.append(data)
        return self._port.write(data)

    def close(self) -> None:
        self._port.close()


def test_bare_oserror_unplug_drops_writes_with_a_count_and_resends_everything(queue: EventQueue) -> None:
    unplugged = threading.Event()
    ports: list[FlakyPort] = []

    def opener() -> FlakyPort:
        if unplugged.is_set():
            raise serial.SerialException("could not open port: No such file or directory")
        ports.append(FlakyPort(unplugged))
        return ports[-1]

    errors_before_each_retry: list[str] = []
    pause = threading.Event()  # never set: each back-off delay passes in full

    def wait(seconds: float) -> None:
        errors_before_each_retry.append(panel.stats.last_error)
        pause.wait(seconds)

    panel = fast_panel(opener, queue, wait=wait)
    try:
        assert panel.wait_until(connected, WAIT)
        panel.show(PanelState(turn=1))
        assert panel.wait_until(lambda p: p.stats.lines_out == 10, WAIT)

        unplugged.set()
        assert panel.wait_until(lambda p: p.status is PanelStatus.DISCONNECTED, WAIT)
        assert panel.wait_until(lambda p: p.stats.open_failures >= 2, WAIT)  # backing off, retrying
        panel.show(STATE)  # the game goes on while unplugged
        dropped = panel.stats.writes_dropped
        assert dropped == 8  # every line that differs from the last state shown

        unplugged.clear()
        assert panel.wait_until(lambda p: connected(p) and p.stats.lines_out >= 20, WAIT)
        stats = panel.stats
        assert (stats.disconnects, stats.connects) == (1, 2)
        # the read's bare OSError was the disconnect; then every reopen was refused until the replug
        refused = "SerialException: could not open port: No such file or directory"
        assert errors_before_each_retry[0] == "OSError: [Errno 5] Input/output error"
        assert errors_before_each_retry[1:] == [refused] * stats.open_failures
        assert stats.last_error == refused
        resent = b"".join(ports[-1].written).split(b"\n")
        assert set(resent) >= FULL_STATE_LINES
    finally:
        panel.close()


def test_open_failures_back_off_exponentially(queue: EventQueue) -> None:
    delays: list[float] = []
    attempts = iter([False, False, False, False, True])

    def opener() -> Port:
        if not next(attempts):
            raise serial.SerialException("no such port")
        return loop_port()

    panel = SerialPanel(opener, queue, backoff=Backoff(0.1, 2.0, 0.5), wait=delays.append).start()
    try:
        assert panel.wait_until(connected, WAIT)
        assert delays == [0.1, 0.2, 0.4, 0.5]
        assert panel.stats.open_failures == 4
    finally:
        panel.close()


def test_backoff_doubles_up_to_its_cap_and_starts_again_after_reset() -> None:
    backoff = Backoff(0.1, 2.0, 0.5)
    assert [backoff.next() for _ in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    backoff.reset()
    assert backoff.next() == 0.1
    for bad in ((0, 2.0, 1.0), (0.1, 0.5, 1.0), (1.0, 2.0, 0.5)):
        with pytest.raises(InvalidValue):
            Backoff(*bad)


def test_unknown_url_scheme_is_an_open_failure_not_a_crash(queue: EventQueue) -> None:
    panel = fast_panel(url_opener("nosuchscheme://x"), queue)
    try:
        assert panel.wait_until(lambda p: p.stats.open_failures >= 2, WAIT)
        assert panel.status is PanelStatus.DISCONNECTED
    finally:
        panel.close()


# -- pty ---------------------------------------------------------------------


@pytest.fixture
def board(tmp_path: Path) -> Iterator[PtyBoard]:
    board = PtyBoard(tmp_path / "panel", name="TESTBOARD")
    board.plug()
    yield board
    board.unplug()


@pytest.fixture
def pty_panel(board: PtyBoard, queue: EventQueue) -> Iterator[SerialPanel]:
    panel = fast_panel(url_opener(str(board.link)), queue)
    assert panel.wait_until(connected, WAIT)
    yield panel
    panel.close()


def lines_of(board: PtyBoard) -> set[bytes]:
    return set(board.lines)


def test_pty_handshake_and_display(board: PtyBoard, pty_panel: SerialPanel) -> None:
    assert pty_panel.board_name == "TESTBOARD"
    assert board.lines[0] == b"HELLO SB 1 KIOSK"
    pty_panel.show(STATE)
    assert board.wait_for(lambda lines: set(lines) >= FULL_STATE_LINES, WAIT)


def test_pty_buttons(board: PtyBoard, pty_panel: SerialPanel, queue: EventQueue) -> None:
    board.send(b"BTN 0 RAISE\r\nBTN 1 ACCEPT\nBTN - HELP\n")
    assert queue.wait(3, WAIT)
    assert [(e.player, e.button) for e in queue.drain()] == [
        (0, Button.RAISE), (1, Button.ACCEPT), (None, Button.HELP)
    ]


def test_pty_a_megabyte_of_noise(board: PtyBoard, pty_panel: SerialPanel, queue: EventQueue) -> None:
    board.send(random_bytes(1 << 20, seed=11))
    board.send(b"\nBTN 0 ACCEPT\n")
    assert queue.wait(1, 30)
    assert [(e.player, e.button) for e in queue.drain()] == [(0, Button.ACCEPT)]
    stats = pty_panel.stats
    assert stats.too_long > 1000 and stats.malformed > 100
    # every complete line is counted once: the board's HELLO, the noise, the press (too-long lines never complete)
    assert stats.presses == 1 and stats.lines_in == 1 + stats.malformed + stats.unexpected + stats.presses
    assert connected(pty_panel)


def test_pty_long_line_is_dropped(board: PtyBoard, pty_panel: SerialPanel, queue: EventQueue) -> None:
    board.send(b"BTN 0 ACCEPT" + b" " * 200 + b"\nBTN 1 RAISE\n")
    assert queue.wait(1, WAIT)
    assert [(e.player, e.button) for e in queue.drain()] == [(1, Button.RAISE)]
    assert pty_panel.stats.too_long == 1


def test_pty_unplug_and_replug_at_the_same_path(board: PtyBoard, pty_panel: SerialPanel, queue: EventQueue) -> None:
    pty_panel.show(PanelState(turn=1))
    assert board.wait_for(lambda lines: b"TURN 1" in lines, WAIT)
    first_device = board.device

    board.unplug()
    assert pty_panel.wait_until(lambda p: p.status is PanelStatus.DISCONNECTED, WAIT)
    pty_panel.show(STATE)
    assert pty_panel.stats.writes_dropped > 0

    board.take_lines()
    board.plug()  # a new pty, behind the same path
    assert pty_panel.wait_until(connected, WAIT)
    assert board.wait_for(lambda lines: set(lines) >= FULL_STATE_LINES, WAIT)
    assert first_device is not None and board.device is not None and board.link is not None
    assert os.readlink(board.link) == board.device  # the kiosk's one path leads to the new pty
    board.send(b"BTN 1 DECLINE\n")
    assert queue.wait(1, WAIT)
    assert queue.drain()[0].button is Button.DECLINE
    assert pty_panel.stats.disconnects == 1


def test_pty_checksummed_lines(board: PtyBoard, queue: EventQueue) -> None:
    panel = fast_panel(url_opener(str(board.link)), queue, with_checksum=True)
    try:
        assert panel.wait_until(connected, WAIT)
        panel.show(STATE)
        assert board.wait_for(lambda lines: any(line.startswith(b"BID") for line in lines), WAIT)
        for line in board.lines:
            body, _, given = line.rpartition(b"*")
            assert given.decode() == checksum(body)
            decode(line)
        board.send(b"BTN 0 ACCEPT*" + checksum(b"BTN 0 ACCEPT").encode() + b"\nBTN 0 RAISE*00\n")
        assert panel.wait_until(lambda p: p.stats.malformed >= 1, WAIT)
        assert [e.button for e in queue.drain()] == [Button.ACCEPT]
    finally:
        panel.close()


def test_incompatible_board_is_reported_and_ignored(tmp_path: Path, queue: EventQueue) -> None:
    with PtyBoard(tmp_path / "future", version=2, name="future") as board:
        panel = fast_panel(url_opener(str(board.link)), queue)
        try:
            assert panel.wait_until(lambda p: p.status is PanelStatus.INCOMPATIBLE, WAIT)
            board.send(b"BTN 0 ACCEPT\n")
            assert panel.wait_until(lambda p: p.stats.unexpected >= 1, WAIT)
            assert len(queue) == 0
            assert panel.board_name == "future"
        finally:
            panel.close()


def test_board_that_never_answers_stays_handshaking(tmp_path: Path, queue: EventQueue) -> None:
    with PtyBoard(tmp_path / "mute", auto_hello=False) as board:
        panel = fast_panel(url_opener(str(board.link)), queue)
        try:
            assert board.wait_for(lambda lines: lines.count(b"HELLO SB 1 KIOSK") >= 3, WAIT)
            assert panel.status is PanelStatus.HANDSHAKING
            panel.show(STATE)
            assert panel.stats.writes_dropped == 9
        finally:
            panel.close()


# -- socket:// -----------------------------------------------------------------


def test_socket_url_and_server_restart(queue: EventQueue) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port_number = server.getsockname()[1]
    panel = fast_panel(url_opener(f"socket://127.0.0.1:{port_number}"), queue)
    try:
        for round_ in range(2):
            server.settimeout(WAIT)
            conn, _ = server.accept()
            conn.settimeout(WAIT)
            hello = conn.recv(64)
            assert hello.startswith(b"HELLO SB 1")
            conn.sendall(b"HELLO SB 1 net\nBTN 1 RAISE\n")
            assert queue.wait(1, WAIT)
            assert [(e.player, e.button) for e in queue.drain()] == [(1, Button.RAISE)]
            conn.close()  # the board goes away; the panel reconnects to the server
            done = round_

            def reconnected(p: SerialPanel, done: int = done) -> bool:
                return p.stats.disconnects > done

            assert panel.wait_until(reconnected, WAIT)
    finally:
        panel.close()
        server.close()


def test_an_unexpected_error_does_not_end_the_worker(queue: EventQueue) -> None:
    calls = {"n": 0}

    class BrokenOnce:
        """A loop port whose first read raises something pyserial never would."""

        def __init__(self) -> None:
            self._port = loop_port()
            calls["n"] += 1
            self._broken = calls["n"] == 1
            self.in_waiting = 0

        def read(self, size: int = 1) -> bytes:
            if self._broken:
                raise RuntimeError("driver bug")
            return self._port.read(size)

        def write(self, data: bytes) -> int:
            return self._port.write(data)

        def close(self) -> None:
            self._port.close()

    panel = fast_panel(BrokenOnce, queue)
    try:
        assert panel.wait_until(connected, WAIT)
        assert panel.stats.disconnects == 1 and panel.stats.last_error == "RuntimeError: driver bug"
    finally:
        panel.close()
