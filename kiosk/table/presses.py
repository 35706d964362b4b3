"""When an input means what the screen shows: stale inputs and repeats (no pygame here).

An input that arrived before the screen showed what inputs mean now was meant for an earlier
screen; the same button again within ``REPEAT_NS`` of its previous press, across a screen change
that press made, is a bounce or a double press. The controller asks ``PressTiming`` about both.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from hardware.events import Button, InputEvent

REPEAT_NS = 300 * 1_000_000
"""A press of the same button this soon after its previous one, across a screen change, is a repeat."""


@dataclass(frozen=True, slots=True)
class Hold:
    """A press being held (the admin exit)."""

    since_ns: int
    source: Hashable


@dataclass(frozen=True, slots=True)
class Tap:
    """A touch as it was taken in: where, when, and the kind of intent under it then (None: nothing)."""

    pos: tuple[int, int]
    arrival_ns: int
    kind: type | None
    rect: tuple[int, int, int, int] | None = None
    """The button it hit (x, y, width, height; None: none)."""
    shown: int = 0
    """How many meanings had been shown when it was taken in (``PressTiming.shown_count``)."""


class PressTiming:
    """What inputs meant on the newest frame on screen, since when, and each button's last press."""

    def __init__(self) -> None:
        self.shown_meaning: tuple[object, ...] | None = None
        """What inputs meant on the newest frame on screen (None: no frame yet)."""
        self.shown_since = 0
        """When a frame first showed that meaning."""
        self._last_press: dict[tuple[int | None, Button], int] = {}
        self.shown_count = 0
        """How many times a frame showed a new meaning (a tap notes it, to see a change since)."""
        self._last_tap: Tap | None = None

    def presented(self, meaning: tuple[object, ...], now: int) -> None:
        """A frame showing ``meaning`` went on screen at ``now``."""
        if meaning != self.shown_meaning:
            self.shown_meaning, self.shown_since = meaning, now
            self.shown_count += 1

    def stale(self, meaning: tuple[object, ...], arrival_ns: int) -> bool:
        """Whether an input that arrived at ``arrival_ns``, when inputs mean ``meaning``, came before
        the screen showed that meaning."""
        if self.shown_meaning is None:
            return False
        return meaning != self.shown_meaning or arrival_ns < self.shown_since

    def repeat(self, item: InputEvent) -> bool:
        """The same button again less than ``REPEAT_NS`` after its previous press, with a screen change
        in between (the earlier press made it): a bounce or a double press, not a new decision."""
        key = (item.player, item.button)
        before = self._last_press.get(key)
        self._last_press[key] = item.arrival_ns
        return before is not None and before < self.shown_since <= item.arrival_ns < before + REPEAT_NS

    @property
    def last_tap(self) -> Tap | None:
        """The newest tap taken in (None: none yet)."""
        return self._last_tap

    def tap_repeat(self, tap: Tap, near: int) -> bool:
        """A double tap, not a new decision: a tap less than ``REPEAT_NS`` after the previous one where
        the screen changed in between (a frame showing a new meaning went up after the earlier tap) and
        the finger is within ``near`` pixels of it, or where the button the earlier tap hit now holds
        another kind of thing (Draw became Hint). The same kind again on an unchanged screen (+5 +5, a
        page on, a tile picked up then placed), or another button beside it, is a new tap."""
        before, self._last_tap = self._last_tap, tap
        if before is None or tap.arrival_ns >= before.arrival_ns + REPEAT_NS:
            return False
        dx, dy = tap.pos[0] - before.pos[0], tap.pos[1] - before.pos[1]
        if before.shown != tap.shown and dx * dx + dy * dy <= near * near:
            return True
        if before.rect is None or tap.kind is before.kind:
            return False
        x, y, w, h = before.rect
        return x <= tap.pos[0] < x + w and y <= tap.pos[1] < y + h
