"""The kiosk's one reading of time: the monotonic clock in nanoseconds, and a fake one for tests."""

from __future__ import annotations

import time


class MonotonicClock:
    """The real clock. ``now()`` is the only place the kiosk reads time."""

    def now(self) -> int:
        """Monotonic nanoseconds (carries across a process restart within one boot)."""
        return time.monotonic_ns()

    __call__ = now


class FakeClock:
    """A clock that moves only when told to (tests, screenshots, benchmarks)."""

    def __init__(self, start_ns: int = 1_000_000_000) -> None:
        self.t = start_ns

    def now(self) -> int:
        """The fake time."""
        return self.t

    __call__ = now

    def advance(self, seconds: float = 0.0, *, ns: int = 0) -> int:
        """Move time forward and return the new reading."""
        self.t += int(seconds * 1_000_000_000) + ns
        return self.t


Clock = MonotonicClock | FakeClock
