"""A pseudo-terminal that plays the serial board: the kiosk opens one end, we hold the other.

Used by the panel emulator and by the tests. The board's side collects the
lines the kiosk writes, can answer HELLO by itself, and can be unplugged
(the pty disappears, as a USB device does) and plugged in again at the same
path: the kiosk is pointed at a symlink that :meth:`PtyBoard.plug` re-points
at each new pty.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from collections.abc import Callable
from pathlib import Path

from .errors import PortUnavailable, ProtocolError
from .protocol import PROTOCOL_VERSION, Hello, decode, encode


class PtyBoard:
    """The board end of a pty pair, reachable at :attr:`device` and through ``link``.

    ``link``, if given, is a symlink kept pointing at the current pty, so the
    kiosk can be configured with one path that survives unplugging.
    """

    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        auto_hello: bool = True,
        version: int = PROTOCOL_VERSION,
        name: str = "PTY",
        on_line: Callable[[bytes], None] | None = None,
    ) -> None:
        self.link: Path | None = None if link is None else Path(link)
        self.auto_hello = auto_hello
        self.version = version
        self.name = name
        self.on_line = on_line
        self.lines: list[bytes] = []
        self._cond = threading.Condition()
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.device: str | None = None

    @property
    def plugged(self) -> bool:
        """True while a pty exists behind :attr:`link`."""
        return self._master is not None

    def plug(self) -> str:
        """Create a fresh pty, point :attr:`link` at it and start listening; returns its path."""
        if self._master is not None:
            raise RuntimeError("already plugged in")
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(self.device)
            tmp.replace(self.link)
        self._stop.clear()
        self._thread = threading.Thread(target=self._read_loop, name="pty-board", daemon=True)
        self._thread.start()
        return self.device

    def unplug(self) -> None:
        """Close the pty (the kiosk's next read fails) and remove :attr:`link`."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()

    close = unplug

    def __enter__(self) -> PtyBoard:
        if not self.plugged:
            self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    def send(self, data: bytes) -> None:
        """Write raw bytes towards the kiosk (all of them)."""
        if self._master is None:
            raise PortUnavailable("board is unplugged")
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [self._master], [], 5)
            if not ready:
                raise TimeoutError("the kiosk side is not reading")
            written = os.write(self._master, view)
            view = view[written:]

    def send_line(self, text: str) -> None:
        """Write one protocol line (the ``\\n`` is added)."""
        self.send(text.encode("ascii") + b"\n")

    def wait_for(self, predicate: Callable[[list[bytes]], bool], timeout: float = 5.0) -> bool:
        """Block until ``predicate(lines received so far)`` holds; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.lines), timeout)

    def take_lines(self) -> list[bytes]:
        """Remove and return the lines received so far."""
        with self._cond:
            lines, self.lines = self.lines, []
            return lines

    def _read_loop(self) -> None:
        master = self._master
        assert master is not None
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            pending += data
            *complete, pending = pending.split(b"\n")
            for line in complete:
                self._received(line)

    def _received(self, line: bytes) -> None:
        with self._cond:
            self.lines.append(line)
            self._cond.notify_all()
        if self.on_line is not None:
            self.on_line(line)
        if self.auto_hello:
            try:
                message = decode(line)
            except ProtocolError:
                return
            if isinstance(message, Hello):
                with contextlib.suppress(OSError):
                    self.send(encode(Hello(self.version, self.name)))
