"""When an input means what the screen shows: stale inputs and repeats (no pygame here).

An input that arrived before the screen showed what inputs mean now was meant for an earlier
screen; the same button again within ``REPEAT_NS`` of its previous press, across a screen change
that press made, is a bounce or a double press. The controller asks ``PressTiming`` about both.
"""

from __future__ import annotations

from hardware.events import Button, InputEvent

REPEAT_NS = 300 * 1_000_000
"""A press of the same button this soon after its previous one, across a screen change, is a repeat."""


class PressTiming:
    """What inputs meant on the newest frame on screen, since when, and each button's last press."""

    def __init__(self) -> None:
        self.shown_meaning: tuple[object, ...] | None = None
        """What inputs meant on the newest frame on screen (None: no frame yet)."""
        self.shown_since = 0
        """When a frame first showed that meaning."""
        self._last_press: dict[tuple[int | None, Button], int] = {}

    def presented(self, meaning: tuple[object, ...], now: int) -> None:
        """A frame showing ``meaning`` went on screen at ``now``."""
        if meaning != self.shown_meaning:
            self.shown_meaning, self.shown_since = meaning, now

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
