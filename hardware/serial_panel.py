"""The external serial panel: handshake, button lines in, display lines out, reconnect.

One worker thread owns the port. It opens the port (any pyserial URL: a device
path, ``loop://``, ``socket://host:port``, a pty), says HELLO, turns button
lines into events, writes the display lines for the latest
:class:`~hardware.state.PanelState`, and on an unplug (pyserial raising
``SerialException`` or a bare ``OSError`` while ``is_open`` stays true) closes
the port and reopens it with back-off until the device returns. The kiosk
thread only calls :meth:`SerialPanel.show` and reads :attr:`SerialPanel.status`.
"""

from __future__ import annotations

import contextlib
import enum
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import serial

from .backoff import Backoff
from .errors import ProtocolError
from .events import EventQueue
from .lines import LineSplitter
from .notices import N_, Notice
from .protocol import (
    PROTOCOL_VERSION,
    ButtonPress,
    Hello,
    changed_lines,
    decode,
    encode,
)
from .state import PanelState

SOURCE = "serial"
HOST_NAME = "KIOSK"


class PanelStatus(enum.Enum):
    """The panel connection as the kiosk shows it."""

    DISCONNECTED = "disconnected"
    HANDSHAKING = "handshaking"
    CONNECTED = "connected"
    INCOMPATIBLE = "incompatible"

    @property
    def notice(self) -> Notice:
        """The state as a message for the screen (``str()``: the value, e.g. ``"connected"``)."""
        return _STATUS_NOTICES[self]


_STATUS_NOTICES: dict[PanelStatus, Notice] = {
    PanelStatus.DISCONNECTED: Notice(N_("disconnected")),
    PanelStatus.HANDSHAKING: Notice(N_("handshaking")),
    PanelStatus.CONNECTED: Notice(N_("connected")),
    PanelStatus.INCOMPATIBLE: Notice(N_("incompatible")),
}


@dataclass(frozen=True, slots=True)
class PanelStats:
    """Counters since the panel object was made."""

    lines_in: int = 0
    presses: int = 0
    malformed: int = 0
    too_long: int = 0
    unexpected: int = 0
    lines_out: int = 0
    writes_dropped: int = 0
    connects: int = 0
    disconnects: int = 0
    open_failures: int = 0
    last_error: str = ""

    @property
    def bad_lines(self) -> int:
        """Lines received and ignored: malformed, too long, or not for the host."""
        return self.malformed + self.too_long + self.unexpected


class Port(Protocol):
    """The part of a pyserial port object the panel uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


PORT_ERRORS = (serial.SerialException, OSError)
"""What pyserial raises when a device goes away (SerialException is an OSError too)."""


def url_opener(
    url: str | Callable[[], str],
    baudrate: int = 115200,
    read_timeout: float = 0.02,
    write_timeout: float = 1.0,
) -> Callable[[], Port]:
    """A port factory for a pyserial URL, or for a callable giving the URL at each open."""

    def open_port() -> Port:
        target = url() if callable(url) else url
        port: Port = serial.serial_for_url(
            target, baudrate=baudrate, timeout=read_timeout, write_timeout=write_timeout
        )
        return port

    return open_port


class SerialPanel:
    """A serial panel feeding button presses into ``queue`` and showing the panel state.

    ``opener`` makes a fresh open port each time it is called (see
    :func:`url_opener`). ``monotonic`` (seconds) paces the HELLO retries and
    ``wait(seconds)`` spends the back-off delays; both are injectable. Call
    :meth:`start` to begin and :meth:`close` to stop.
    """

    def __init__(
        self,
        opener: Callable[[], Port],
        queue: EventQueue,
        *,
        with_checksum: bool = False,
        hello_interval: float = 1.0,
        backoff: Backoff | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        wait: Callable[[float], object] | None = None,
    ) -> None:
        self._open = opener
        self._queue = queue
        self._checksum = with_checksum
        self._hello_interval = hello_interval
        self._backoff = backoff or Backoff()
        self._monotonic = monotonic
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._cond = threading.Condition()
        self._status = PanelStatus.DISCONNECTED
        self._stats = PanelStats()
        self._desired: PanelState | None = None
        self._shown: PanelState | None = None
        self._splitter = LineSplitter()
        self._port: Port | None = None
        self._thread: threading.Thread | None = None
        self._hello_due = 0.0
        self.board_name: str | None = None

    # -- kiosk side ---------------------------------------------------------

    @property
    def status(self) -> PanelStatus:
        """The connection state right now."""
        with self._cond:
            return self._status

    @property
    def stats(self) -> PanelStats:
        """A snapshot of the counters."""
        with self._cond:
            return self._stats

    def show(self, state: PanelState) -> None:
        """Ask the board to show ``state``; lines that cannot be sent now are counted as dropped.

        While the panel is not connected the changed lines are dropped (and
        counted in ``writes_dropped``); on the next connection the board gets
        the whole state anyway.
        """
        with self._cond:
            if self._status is not PanelStatus.CONNECTED:
                previous = self._desired
                lost = len(changed_lines(previous, state))
                self._count(writes_dropped=lost)
            self._desired = state

    def wait_until(self, predicate: Callable[[SerialPanel], bool], timeout: float) -> bool:
        """Block until ``predicate(self)`` holds (re-checked on every change); False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    def start(self) -> SerialPanel:
        """Start the worker thread; returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="serial-panel", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the worker and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._drop_port()

    def __enter__(self) -> SerialPanel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- worker side --------------------------------------------------------

    def _count(self, **deltas: int) -> None:
        """Add to counters; caller holds ``_cond``."""
        self._stats = replace(
            self._stats, **{k: getattr(self._stats, k) + v for k, v in deltas.items()}
        )
        self._cond.notify_all()

    def _set_status(self, status: PanelStatus, **deltas: int) -> None:
        with self._cond:
            self._status = status
            if status is PanelStatus.CONNECTED:
                self._shown = None  # the board gets the full state
            self._count(**deltas)

    def _note_error(self, error: BaseException, **deltas: int) -> None:
        with self._cond:
            self._stats = replace(self._stats, last_error=f"{type(error).__name__}: {error}")
            self._count(**deltas)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._port is None and not self._connect():
                self._wait(self._backoff.next())
                continue
            try:
                self._serve_once()
            except Exception as error:
                # PORT_ERRORS are the unplug; anything else is treated the same
                # way (close, report, retry) rather than ending the thread.
                self._lose_connection(error)
                self._wait(self._backoff.next())

    def _lose_connection(self, error: BaseException) -> None:
        """Close the port after an I/O error, counting display lines that never went out."""
        self._drop_port()
        with self._cond:
            unsent = 0
            if self._status is PanelStatus.CONNECTED and self._desired is not None:
                unsent = len(changed_lines(self._shown, self._desired)) if self._desired != self._shown else 0
            self._stats = replace(self._stats, last_error=f"{type(error).__name__}: {error}")
            self._status = PanelStatus.DISCONNECTED
            self._count(disconnects=1, writes_dropped=unsent)

    def _connect(self) -> bool:
        try:
            port = self._open()
        except (*PORT_ERRORS, ValueError) as error:
            self._note_error(error, open_failures=1)
            self._set_status(PanelStatus.DISCONNECTED)
            return False
        self._port = port
        self._splitter.reset()
        self._set_status(PanelStatus.HANDSHAKING)
        try:
            self._say_hello()
        except PORT_ERRORS as error:
            self._lose_connection(error)
            return False
        return True

    def _say_hello(self) -> None:
        self._write([encode(Hello(PROTOCOL_VERSION, HOST_NAME), with_checksum=self._checksum)])
        self._hello_due = self._monotonic() + self._hello_interval

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(*PORT_ERRORS):
                port.close()

    def _write(self, lines: list[bytes]) -> None:
        assert self._port is not None
        if lines:
            self._port.write(b"".join(lines))
            with self._cond:
                self._count(lines_out=len(lines))

    def _serve_once(self) -> None:
        """Read what has arrived, answer it, and send any display change."""
        port = self._port
        assert port is not None
        data = port.read(port.in_waiting or 1)
        if data:
            arrival = self._queue.now()
            too_long = self._splitter.too_long
            for line in self._splitter.feed(data):
                self._handle(line, arrival)
            if self._splitter.too_long != too_long:
                with self._cond:
                    self._count(too_long=self._splitter.too_long - too_long)
        with self._cond:
            status, desired, shown = self._status, self._desired, self._shown
        if status is PanelStatus.CONNECTED:
            if desired is not None and desired != shown:
                self._write(changed_lines(shown, desired, with_checksum=self._checksum))
                with self._cond:
                    self._shown = desired
        elif self._monotonic() >= self._hello_due:
            self._say_hello()

    def _handle(self, line: bytes, arrival_ns: int) -> None:
        try:
            message = decode(line)
        except ProtocolError:
            with self._cond:
                self._count(lines_in=1, malformed=1)
            return
        if isinstance(message, Hello):
            self.board_name = message.name
            if message.version == PROTOCOL_VERSION:
                self._backoff.reset()
                self._set_status(PanelStatus.CONNECTED, lines_in=1, connects=1)
            else:
                self._set_status(PanelStatus.INCOMPATIBLE, lines_in=1)
        elif isinstance(message, ButtonPress) and self.status is PanelStatus.CONNECTED:
            self._queue.put_event(message.player, message.button, arrival_ns, SOURCE)
            with self._cond:
                self._count(lines_in=1, presses=1)
        else:
            with self._cond:
                self._count(lines_in=1, unexpected=1)
