"""Exponential back-off delays: for reopening a lost port, and the kiosk's journal retries."""

from __future__ import annotations

from .errors import InvalidValue


class Backoff:
    """Delays ``initial``, ``initial*factor``, ... capped at ``maximum`` seconds.

    ``delay(failures)`` is the wait after that many failed attempts in a row (no state);
    ``next()`` / ``reset()`` count the failures themselves.
    """

    def __init__(self, initial: float = 0.1, factor: float = 2.0, maximum: float = 5.0) -> None:
        if initial <= 0 or factor < 1 or maximum < initial:
            raise InvalidValue("need 0 < initial <= maximum and factor >= 1")
        self.initial, self.factor, self.maximum = initial, factor, maximum
        self._failures = 0

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failed attempts in a row: ``initial`` after one (or none), times
        ``factor`` for each further one, at most ``maximum``."""
        delay = self.initial
        if self.factor == 1:
            return delay
        for _ in range(failures - 1):
            delay *= self.factor
            if delay >= self.maximum:
                return self.maximum
        return delay

    def next(self) -> float:
        """The delay to wait now; each call lengthens the following one."""
        self._failures += 1
        return self.delay(self._failures)

    def reset(self) -> None:
        """Start again from ``initial`` (after a successful connection)."""
        self._failures = 0
