"""Shared helpers for the hardware tests (fake clock, pin access)."""

from __future__ import annotations

import threading

MS = 1_000_000


class FakeClock:
    """A hand-driven monotonic nanosecond clock; thread-safe."""

    def __init__(self, start_ns: int = 1_000 * MS) -> None:
        self._now = start_ns
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._now

    def advance_ms(self, ms: float) -> int:
        """Move the clock forward and return the new reading."""
        with self._lock:
            self._now += int(ms * MS)
            return self._now
