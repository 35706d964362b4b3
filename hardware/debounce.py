"""Debouncing from arrival timestamps, independent of any pin library.

gpiozero's MockPin ignores ``bounce_time`` and real pins bounce, so the
hardware layer debounces in software from the same timestamps the events
carry: a press edge that comes within ``window_ns`` of the previous edge of
the same input is chatter and is ignored; a press while already down (a held
button) is not a new press.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

from .errors import InvalidValue


class Debouncer:
    """Decides, per input, which raw press edges are real presses."""

    def __init__(self, window_ns: int) -> None:
        if window_ns < 0:
            raise InvalidValue("debounce window must not be negative")
        self.window_ns = window_ns
        self._last_edge: dict[Hashable, int] = {}
        self._down: dict[Hashable, bool] = {}
        self._lock = threading.Lock()
        self.ignored = 0

    def edge(self, key: Hashable, pressed: bool, now_ns: int) -> bool:
        """Record a raw edge of input ``key`` at ``now_ns``; True if it is a new press."""
        with self._lock:
            last = self._last_edge.get(key)
            was_down = self._down.get(key, False)
            self._last_edge[key] = now_ns
            self._down[key] = pressed
            if not pressed:
                return False
            if was_down or (last is not None and now_ns - last < self.window_ns):
                self.ignored += 1
                return False
            return True
