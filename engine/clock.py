"""The match clock (RULES.md §7): a bank per player, a fresh delay per decision, one clock at a time.

The clock stores timestamps, never a ticking counter: each bank as it stood when the running decision
began, and the decision's start time. Every reading takes the current time as an argument.
"""

from __future__ import annotations

from typing import Any

NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000
LOW_BANK_NS = 20 * NS_PER_S
"""Below this a running player's bank counts as low: the LEDs blink, the clock turns red, a cue sounds."""


class MatchClock:
    """Two banks and the one running decision.

    The match changes it only through ``start``, ``switch``, ``stop`` and ``drop``, and reads
    ``deadline`` (a plain attribute, for the speed of the check that every command makes).
    """

    __slots__ = ("_banks", "_delay_end", "_running", "deadline", "delay_ns")

    def __init__(self, banks_ns: tuple[int, int], delay_ns: int) -> None:
        self._banks = [int(banks_ns[0]), int(banks_ns[1])]
        self.delay_ns = int(delay_ns)
        self._running: int | None = None
        self._delay_end = 0
        """When the running decision's delay ends: its start plus the delay (meaningless while none runs)."""
        self.deadline: int | None = None
        """The instant the running player loses on time, or None when no clock runs (read only)."""

    @property
    def running(self) -> int | None:
        """The player whose clock runs, or None when all clocks are stopped."""
        return self._running

    @property
    def started_ns(self) -> int | None:
        """When the running decision began (its fresh delay started), or None."""
        return None if self._running is None else self._delay_end - self.delay_ns

    def start(self, player: int, now_ns: int) -> None:
        """Begin a new decision for ``player`` at ``now_ns`` with a fresh delay (none may be running)."""
        self._running = player
        end = self._delay_end = now_ns + self.delay_ns
        self.deadline = end + self._banks[player]

    def switch(self, player: int, now_ns: int) -> int:
        """``stop`` the running decision (if any) at ``now_ns``, then ``start`` one for ``player``.

        Returns what the stopped decision was charged.
        """
        used = 0
        running = self._running
        if running is not None and now_ns > self._delay_end:  # else within the delay: no charge
            used = now_ns - self._delay_end
            banks = self._banks
            if used > banks[running]:
                used = banks[running]
            banks[running] -= used
        self._running = player
        end = self._delay_end = now_ns + self.delay_ns
        self.deadline = end + self._banks[player]
        return used

    def used_ns(self, now_ns: int) -> int:
        """Bank time the running decision has used by ``now_ns`` (0 within the delay)."""
        if self._running is None:
            return 0
        over = now_ns - self._delay_end
        if over <= 0:
            return 0
        bank = self._banks[self._running]
        return over if over < bank else bank

    def stop(self, now_ns: int) -> int:
        """End the running decision at ``now_ns``, charge its bank and return what was charged."""
        player = self._running
        if player is None:
            return 0
        used = now_ns - self._delay_end
        if used <= 0:
            used = 0
        elif used > self._banks[player]:
            used = self._banks[player]
        self._banks[player] -= used
        self._running = None
        self.deadline = None
        return used

    def copy(self) -> MatchClock:
        """An independent copy."""
        other = MatchClock.__new__(MatchClock)
        other._banks = list(self._banks)
        other.delay_ns = self.delay_ns
        other._running = self._running
        other._delay_end = self._delay_end
        other.deadline = self.deadline
        return other

    def drop(self) -> None:
        """Stop without charging anything (the decision's time cannot be proven)."""
        self._running = None
        self.deadline = None

    def deadline_ns(self) -> int | None:
        """The instant the running player loses on time, or None when no clock runs."""
        return self.deadline

    def bank_ns(self, player: int, now_ns: int) -> int:
        """What is left of ``player``'s bank at ``now_ns``."""
        bank = self._banks[player]
        if player == self._running:
            bank -= self.used_ns(now_ns)
        return bank

    def delay_left_ns(self, now_ns: int) -> int:
        """What is left of the running decision's delay at ``now_ns`` (0 when none runs)."""
        if self._running is None:
            return 0
        left = self._delay_end - now_ns
        if left <= 0:
            return 0
        return left if left < self.delay_ns else self.delay_ns

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saving."""
        return {
            "bank_ns": list(self._banks),
            "delay_ns": self.delay_ns,
            "running": self._running,
            "started_ns": self.started_ns,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchClock:
        """The clock saved by ``to_dict``."""
        clock = cls((data["bank_ns"][0], data["bank_ns"][1]), data["delay_ns"])
        if data["running"] is not None:
            clock.start(int(data["running"]), int(data["started_ns"]))
        return clock
