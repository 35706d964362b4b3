"""The layout of one round: placed tiles, open connection points, the spinner and the end count."""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalPlay
from .tiles import Point, Slot, Tile

LOW, HIGH, LINE_A, LINE_B, BRANCH_A, BRANCH_B = (
    Slot.LOW,
    Slot.HIGH,
    Slot.LINE_A,
    Slot.LINE_B,
    Slot.BRANCH_A,
    Slot.BRANCH_B,
)


class Placement(NamedTuple):
    """One placed tile: where it was attached (None for the opening tile) and by which of its slots."""

    tile: Tile
    at: Point | None
    joined: Slot | None


class Layout:
    """The tiles on the table, in the order they were placed (RULES.md §4)."""

    __slots__ = ("_placements", "_open", "_spinner", "_end_count", "_by_value")

    def __init__(self) -> None:
        self._placements: list[Placement] = []
        self._open: dict[Point, int] = {}
        self._spinner: Tile | None = None
        self._end_count = 0
        self._by_value: list[list[Point]] | None = None

    # -- reading -----------------------------------------------------------------

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Every placed tile in placing order."""
        return tuple(self._placements)

    @property
    def spinner(self) -> Tile | None:
        """The first double of the round, once one is placed."""
        return self._spinner

    @property
    def end_count(self) -> int:
        """The sum of the scoring ends (0 before the opening)."""
        return self._end_count

    @property
    def is_empty(self) -> bool:
        """True before the opening tile."""
        return not self._placements

    def __len__(self) -> int:
        return len(self._placements)

    def tiles(self) -> list[Tile]:
        """The placed tiles in placing order."""
        return [p.tile for p in self._placements]

    def open_points(self) -> list[tuple[Point, int]]:
        """Available connection points with their values, sorted by tile name then slot name."""
        return sorted(self._open.items())

    def value_at(self, point: Point) -> int | None:
        """The value a tile must match at ``point``, or None if the point is not available."""
        return self._open.get(point)

    def scoring_ends(self) -> list[tuple[Point, int]]:
        """The ends that count towards the end count, each with what it adds, sorted by point."""
        return sorted(self._scoring_ends())

    def _scoring_ends(self) -> list[tuple[Point, int]]:
        ends: list[tuple[Point, int]] = []
        spinner = self._spinner
        spinner_counted = False
        for point, value in self._open.items():
            t = point.tile
            if t[0] != t[1]:
                ends.append((point, value))
            elif t != spinner:
                ends.append((point, 2 * value))
            elif not spinner_counted and (point.slot == LINE_A or point.slot == LINE_B):
                spinner_counted = True
                ends.append((point, 2 * value))
        return ends

    def _points_by_value(self) -> list[list[Point]]:
        by_value = self._by_value
        if by_value is None:
            by_value = [[] for _ in range(7)]
            for point, value in sorted(self._open.items()):
                by_value[value].append(point)
            self._by_value = by_value
        return by_value

    def points_for(self, tile: Tile) -> list[Point]:
        """The available points where ``tile`` can be placed (sorted); empty before the opening."""
        by_value = self._points_by_value()
        low, high = tile
        if low == high:
            return by_value[low]
        a, b = by_value[low], by_value[high]
        if not a:
            return b
        if not b:
            return a
        return sorted(a + b)

    def can_place(self, tile: Tile) -> bool:
        """True if ``tile`` matches some available point (always True before the opening)."""
        if not self._placements:
            return True
        by_value = self._points_by_value()
        return bool(by_value[tile[0]] or by_value[tile[1]])

    # -- changing ----------------------------------------------------------------

    def check(self, tile: Tile, at: Point | None) -> None:
        """Raise IllegalPlay with the reason if ``tile`` cannot be placed at ``at``."""
        if not self._placements:
            if at is not None:
                raise IllegalPlay(f"[{tile}] opens the layout: it is not placed on another tile")
            return
        if at is None:
            raise IllegalPlay(f"say where [{tile}] goes: the layout is already open")
        value = self._open.get(at)
        if value is None:
            raise IllegalPlay(f"{at} is not an open connection point")
        if value != tile[0] and value != tile[1]:
            raise IllegalPlay(f"[{tile}] does not match the {value} at {at}")

    def place(self, tile: Tile, at: Point | None) -> int:
        """Place ``tile`` at ``at`` (None to open) and return the new end count."""
        self.check(tile, at)
        low, high = tile
        is_double = low == high
        opened = self._open
        if at is None:
            if is_double:
                self._spinner = tile
                opened[Point(tile, LINE_A)] = low
                opened[Point(tile, LINE_B)] = low
            else:
                opened[Point(tile, LOW)] = low
                opened[Point(tile, HIGH)] = high
            self._placements.append(Placement(tile, None, None))
        else:
            value = opened.pop(at)
            if is_double:
                if self._spinner is None:
                    self._spinner = tile
                joined = LINE_A
                opened[Point(tile, LINE_B)] = low
            elif value == low:
                joined = LOW
                opened[Point(tile, HIGH)] = high
            else:
                joined = HIGH
                opened[Point(tile, LOW)] = low
            self._placements.append(Placement(tile, at, joined))
            spinner = self._spinner
            if at.tile == spinner and at.slot in (LINE_A, LINE_B):
                other = LINE_B if at.slot == LINE_A else LINE_A
                if Point(spinner, other) not in opened:
                    opened[Point(spinner, BRANCH_A)] = spinner[0]
                    opened[Point(spinner, BRANCH_B)] = spinner[0]
        self._by_value = None
        self._end_count = self._count()
        return self._end_count

    def _count(self) -> int:
        return sum(value for _, value in self._scoring_ends())

    # -- plain data ----------------------------------------------------------------

    def to_list(self) -> list[list[object]]:
        """The placements as plain data: ``[tile, [at_tile, slot] | None]`` each."""
        return [
            [str(p.tile), None if p.at is None else [str(p.at.tile), p.at.slot.value]]
            for p in self._placements
        ]

    @classmethod
    def from_list(cls, data: list[list[object]]) -> Layout:
        """Rebuild a layout by placing the recorded tiles again in order."""
        layout = cls()
        for tile_name, at in data:
            at_point = None if at is None else Point.parse(at[0], at[1])  # type: ignore[index]
            layout.place(Tile.parse(tile_name), at_point)  # type: ignore[arg-type]
        return layout

    def copy(self) -> Layout:
        """An independent copy."""
        other = Layout.__new__(Layout)
        other._placements = list(self._placements)
        other._open = dict(self._open)
        other._spinner = self._spinner
        other._end_count = self._end_count
        other._by_value = None
        return other
