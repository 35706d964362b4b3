"""Exponential back-off delays for reopening a lost port."""

from __future__ import annotations

from .errors import InvalidValue


class Backoff:
    """Delays ``initial``, ``initial*factor``, ... capped at ``maximum`` seconds."""

    def __init__(self, initial: float = 0.1, factor: float = 2.0, maximum: float = 5.0) -> None:
        if initial <= 0 or factor < 1 or maximum < initial:
            raise InvalidValue("need 0 < initial <= maximum and factor >= 1")
        self.initial, self.factor, self.maximum = initial, factor, maximum
        self._next = initial

    def next(self) -> float:
        """The delay to wait now; each call lengthens the following one."""
        delay = self._next
        self._next = min(self._next * self.factor, self.maximum)
        return delay

    def reset(self) -> None:
        """Start again from ``initial`` (after a successful connection)."""
        self._next = self.initial
