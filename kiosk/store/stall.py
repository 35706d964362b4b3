"""Stall detection (RULES.md §7): a frame loop that could not take commands while a clock ran.

Pure: the kiosk passes every reading of the monotonic clock in. The frame loop calls ``beat`` once
per wake-up, before it takes the frame's input; a reason back means the match's running time
cannot be proven and the kiosk aborts it (``match.abort(now_ns, reason)``).
"""

from __future__ import annotations

from kiosk.i18n import T, Text, duration

NS_PER_S = 1_000_000_000


class StallDetector:
    """Remembers the loop's last heartbeat and reports a stall or a clock that went backwards."""

    def __init__(self, limit_ns: int) -> None:
        if limit_ns <= 0:
            raise ValueError(f"the stall limit must be positive, not {limit_ns!r} ns")
        self.limit_ns = int(limit_ns)
        self._last_ns: int | None = None
        self._running = False
        self.longest_gap_ns = 0
        """The longest gap between two heartbeats seen while a clock ran (for logs and benches)."""

    @classmethod
    def from_seconds(cls, seconds: float) -> StallDetector:
        """A detector for the configuration's ``kiosk.stall_limit_seconds``."""
        return cls(int(seconds * NS_PER_S))

    def reset(self, now_ns: int | None = None) -> None:
        """Forget the last heartbeat (after a restore, or a pause where no clock can run)."""
        self._last_ns = now_ns
        self._running = False

    def beat(self, now_ns: int, clock_running: bool) -> Text | None:
        """Note a heartbeat at ``now_ns``; ``clock_running``: a match clock runs now.

        Returns why the running clock's time cannot be proven (a message value), or None. The gap since the last
        heartbeat counts as a clock's time when a clock ran at either end of it. A monotonic
        reading earlier than the last one is a failure only while a clock runs (RULES.md §7: with
        no clock running nothing is lost); the baseline moves to the new reading either way.
        """
        last = self._last_ns
        was_running = self._running
        self._last_ns = now_ns
        self._running = clock_running
        if last is None:
            return None
        gap = now_ns - last
        timed = clock_running or was_running
        if gap < 0:
            if timed:
                return T("the monotonic clock went backwards by {gap}", gap=_seconds(-gap))
            return None
        if timed:
            if gap > self.longest_gap_ns:
                self.longest_gap_ns = gap
            if gap > self.limit_ns:
                return T("the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})",
                         gap=_seconds(gap), limit=_seconds(self.limit_ns))
        return None


def _seconds(ns: int) -> Text:
    """A gap as the reasons write it ("2.0 s", "12 s"), in each reader's language (``kiosk.i18n.duration``)."""
    return duration(ns)
