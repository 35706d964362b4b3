"""A tiny sd_notify client: tells systemd the kiosk is ready, alive or stopping.

No dependency beyond the standard library. Under systemd (``Type=notify``) the
service manager passes ``NOTIFY_SOCKET`` (a unix datagram socket path, or an
abstract socket name starting with ``@``) and, with ``WatchdogSec=``,
``WATCHDOG_USEC`` (and ``WATCHDOG_PID``). Outside systemd every call is a
no-op that returns False, so the kiosk runs the same on a laptop.

The kiosk sends ``READY=1`` after its first frame, and calls
:meth:`WatchdogPinger.tick` once per frame: it sends ``WATCHDOG=1`` at most
every half watchdog period, so a frozen frame loop stops the pings and systemd
restarts the service::

    notifier = Notifier.from_environment()
    pinger = WatchdogPinger(notifier)
    ...  # first frame drawn
    notifier.ready("showing the home screen")
    while running:
        ...  # one frame
        pinger.tick()
    notifier.stopping()

Sending never raises: a notification that cannot be delivered is dropped
(systemd then sees no ping and acts), and the kiosk keeps running.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping

__all__ = [
    "Notifier",
    "WatchdogPinger",
    "socket_address",
    "watchdog_interval",
    "watchdog_usec",
]


def socket_address(value: str | None) -> str | bytes | None:
    """The address to send to for a ``NOTIFY_SOCKET`` value, or None if unusable.

    ``/path`` is a filesystem socket; ``@name`` an abstract one (the ``@``
    becomes a leading NUL byte). Anything else (empty, relative, ``vsock:``)
    is not supported here and gives None.
    """
    if not value:
        return None
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    return None


def watchdog_usec(environ: Mapping[str, str] | None = None, pid: int | None = None) -> int | None:
    """The watchdog period in microseconds systemd expects pings within, or None if none.

    Follows sd_watchdog_enabled(3): ``WATCHDOG_USEC`` must be a positive
    integer, and when ``WATCHDOG_PID`` is set it must be this process's pid
    (``pid``, default ``os.getpid()``), otherwise the watchdog is for another process.
    """
    env = os.environ if environ is None else environ
    raw = env.get("WATCHDOG_USEC", "").strip()
    if not raw.isdigit() or int(raw) <= 0:
        return None
    owner = env.get("WATCHDOG_PID", "").strip()
    if owner and (not owner.isdigit() or int(owner) != (os.getpid() if pid is None else pid)):
        return None
    return int(raw)


def watchdog_interval(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """Seconds between ``WATCHDOG=1`` pings: half the watchdog period (as systemd advises), or None."""
    usec = watchdog_usec(environ, pid)
    return None if usec is None else usec / 2_000_000


class Notifier:
    """Sends notifications to one ``NOTIFY_SOCKET``; every method is a no-op without one."""

    def __init__(self, notify_socket: str | None, watchdog_usec: int | None = None) -> None:
        """``notify_socket`` as systemd spells it (``/path`` or ``@abstract``); ``watchdog_usec`` or None."""
        self.address = socket_address(notify_socket)
        self.watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None, unset: bool = False) -> Notifier:
        """A notifier for this process's ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``.

        ``unset=True`` removes those variables from ``os.environ`` afterwards, so
        child processes do not talk to systemd in the kiosk's name.
        """
        env = os.environ if environ is None else environ
        notifier = cls(env.get("NOTIFY_SOCKET"), watchdog_usec(env))
        if unset:
            for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
                os.environ.pop(name, None)
        return notifier

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a usable notification socket."""
        return self.address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog pings (half the period), or None without a watchdog."""
        if not self.enabled or self.watchdog_usec is None:
            return None
        return self.watchdog_usec / 2_000_000

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; True if systemd got it, False otherwise."""
        if self.address is None or not assignments:
            return False
        message = "\n".join(assignments).encode("utf-8", "replace")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message, self.address)
        except OSError:
            self.close()
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is done (the first frame is on screen)."""
        return self.notify("READY=1", *self._status(status))

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: the service is alive."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """``STATUS=...``: a one-line state shown by ``systemctl status``."""
        return self.notify(*self._status(text))

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: the service is shutting down on purpose."""
        return self.notify("STOPPING=1", *self._status(status))

    def extend_timeout(self, seconds: float) -> bool:
        """``EXTEND_TIMEOUT_USEC``: ask for ``seconds`` more before start-up (or stop) times out."""
        return self.notify(f"EXTEND_TIMEOUT_USEC={max(0, round(seconds * 1_000_000))}")

    def close(self) -> None:
        """Close the socket (a later notification opens a new one)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    @staticmethod
    def _status(text: str | None) -> tuple[str, ...]:
        if text is None:
            return ()
        return ("STATUS=" + " ".join(text.split()),)


class WatchdogPinger:
    """Rate-limits ``WATCHDOG=1`` so the frame loop can call :meth:`tick` every frame."""

    def __init__(self, notifier: Notifier, clock: Callable[[], float] = time.monotonic,
                 interval: float | None = None) -> None:
        """``interval`` overrides the notifier's (half the watchdog period); ``clock`` is for tests."""
        self.notifier = notifier
        self.clock = clock
        self.interval = notifier.watchdog_interval if interval is None else interval
        self._last: float | None = None

    @property
    def enabled(self) -> bool:
        """True when there is a watchdog to ping."""
        return self.notifier.enabled and self.interval is not None

    def tick(self) -> bool:
        """Ping if the interval has passed since the last ping; True when a ping was sent."""
        interval = self.interval
        if interval is None or not self.notifier.enabled:
            return False
        now = self.clock()
        if self._last is not None and now - self._last < interval:
            return False
        self._last = now
        return self.notifier.watchdog()
