"""The layout of one round: placed tiles, open connection points, the spinner and the end count.

RULES.md §4. Internally tiles and points are small integers (see the index tables in
``tiles``), so that the match can list and check placements quickly; the public methods speak
``Tile`` and ``Point``.
"""

from __future__ import annotations

from bisect import insort
from typing import NamedTuple

from .errors import NO_MATCH, NOT_OPEN_POINT, OPENS_LAYOUT, SAY_WHERE, UNKNOWN_TILE, IllegalPlay, UnknownTile
from .tiles import (
    ALL_TILES,
    POINT_BIT,
    POINT_INDEX,
    POINT_IS_BRANCH,
    POINT_SCORE,
    POINT_VALUE,
    POINTS,
    S_BRANCH_A,
    S_BRANCH_B,
    S_HIGH,
    S_LINE_A,
    S_LINE_B,
    S_LOW,
    SLOTS_BY_NAME,
    TILE_HALVES,
    TILE_INDEX,
    Point,
    Slot,
    Tile,
)

NO_POINT = -1
"""Point index meaning "no point": the opening tile."""


_Placed = tuple[int, int, int, int, int]
"""A placement: (tile index, point index or NO_POINT, joined slot index or -1, the point index it
opens (-1 for the opening), what that point adds to the end count); shared, never built per placement."""


def _join(t: int, p: int) -> _Placed | None:
    """Placing tile index ``t`` at point index ``p``, or None when the tile does not match the point."""
    low, high = TILE_HALVES[t]
    value = POINT_VALUE[p]
    if value != low and value != high:
        return None
    if low == high:
        joined, opens = S_LINE_A, S_LINE_B
    elif value == low:
        joined, opens = S_LOW, S_HIGH
    else:
        joined, opens = S_HIGH, S_LOW
    return t, p, joined, t * 6 + opens, POINT_SCORE[t * 6 + opens]


_JOIN: tuple[tuple[_Placed | None, ...], ...] = tuple(
    tuple(_join(t, p) for p in range(len(POINTS))) for t in range(len(ALL_TILES))
)
"""``_join`` by tile index, then point index."""
_OPENING: tuple[_Placed, ...] = tuple((t, NO_POINT, -1, -1, 0) for t in range(len(ALL_TILES)))
"""Each tile index's placement as the opening tile."""
_LINE_PARTNER: tuple[int, ...] = tuple(
    p + 1 if p % 6 == S_LINE_A else p - 1 if p % 6 == S_LINE_B else -1 for p in range(len(POINTS))
)
"""For a line point (lineA / lineB, which only doubles have), the index of the same tile's other line; else -1."""


class Placement(NamedTuple):
    """One placed tile: where it was attached (None for the opening tile) and by which of its slots."""

    tile: Tile
    at: Point | None
    joined: Slot | None


class Layout:
    """The tiles on the table, in the order they were placed."""

    __slots__ = ("_end_count", "_placed", "_spinner", "open_indices", "open_values_mask")

    def __init__(self) -> None:
        self._placed: list[_Placed] = []
        """The placements in placing order."""
        self.open_indices: list[int] = []
        """The available points' indices in POINTS, ascending (the order of ``open_points``).

        Read only: the match's fast paths read it (an attribute, not a property, for their speed);
        only the layout's own methods change it, in place. Empty exactly before the opening: every
        placement closes one point and opens at least one, and the opening tile opens two.
        """
        self.open_values_mask = 0
        """A bit mask with bit ``v`` set when some available point has value ``v`` (read only, as above)."""
        self._spinner = -1
        self._end_count = 0

    # -- reading -----------------------------------------------------------------

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Every placed tile in placing order."""
        return tuple(
            Placement(
                ALL_TILES[t],
                None if p == NO_POINT else POINTS[p],
                None if s < 0 else SLOTS_BY_NAME[s],
            )
            for t, p, s, _, _ in self._placed
        )

    @property
    def spinner(self) -> Tile | None:
        """The first double of the round, once one is placed."""
        return None if self._spinner < 0 else ALL_TILES[self._spinner]

    @property
    def end_count(self) -> int:
        """The sum of the scoring ends (0 before the opening)."""
        return self._end_count

    @property
    def is_empty(self) -> bool:
        """True before the opening tile."""
        return not self._placed

    def __len__(self) -> int:
        return len(self._placed)

    def tiles(self) -> list[Tile]:
        """The placed tiles in placing order."""
        return [ALL_TILES[placed[0]] for placed in self._placed]

    def open_points(self) -> list[tuple[Point, int]]:
        """Available connection points with their values, sorted by tile name then slot name."""
        return [(POINTS[p], POINT_VALUE[p]) for p in self.open_indices]

    def value_at(self, point: Point) -> int | None:
        """The value a tile must match at ``point``, or None if the point is not available."""
        p = POINT_INDEX.get(point)
        return None if p is None or p not in self.open_indices else POINT_VALUE[p]

    def scoring_ends(self) -> list[tuple[Point, int]]:
        """The ends that count towards the end count, each with what it adds, sorted by point."""
        return [(POINTS[p], v) for p, v in self._scoring()]

    def _scoring(self) -> list[tuple[int, int]]:
        """Each counting open point with what it adds (POINT_SCORE); the spinner's lines once."""
        spinner_base = self._spinner * 6
        ends: list[tuple[int, int]] = []
        spinner_counted = False
        for p in self.open_indices:
            if POINT_IS_BRANCH[p]:
                continue
            if p - p % 6 == spinner_base:
                if spinner_counted:
                    continue
                spinner_counted = True
            ends.append((p, POINT_SCORE[p]))
        return ends

    def points_for(self, tile: Tile) -> list[Point]:
        """The available points where ``tile`` can be placed (sorted); empty before the opening."""
        low, high = tile
        return [POINTS[p] for p in self.open_indices if POINT_VALUE[p] == low or POINT_VALUE[p] == high]

    def can_place(self, tile: Tile) -> bool:
        """True if ``tile`` matches some available point (always True before the opening)."""
        if not self._placed:
            return True
        mask = self.open_values_mask
        return bool((mask >> tile[0]) & 1 or (mask >> tile[1]) & 1)

    def count_after_index(self, t: int, p: int) -> int:
        """The end count that placing tile index ``t`` at point index ``p`` (NO_POINT: opening) would give.

        For a placement ``check_index`` accepts; changes nothing.
        """
        low, high = TILE_HALVES[t]
        if p == NO_POINT:
            return 2 * low if low == high else low + high
        total = self._end_count
        spinner_base = self._spinner * 6
        if p == spinner_base + S_LINE_A:
            if spinner_base + S_LINE_B not in self.open_indices:
                total -= POINT_SCORE[p]  # the spinner's last open line closes
        elif p == spinner_base + S_LINE_B:
            if spinner_base + S_LINE_A not in self.open_indices:
                total -= POINT_SCORE[p]
        else:
            total -= POINT_SCORE[p]
        if low == high:
            return total + 2 * low
        return total + (high if POINT_VALUE[p] == low else low)

    # -- changing ----------------------------------------------------------------

    def check(self, tile: Tile, at: Point | None) -> None:
        """Raise IllegalPlay with the reason if ``tile`` cannot be placed at ``at`` (UnknownTile: not one of the 28)."""
        t = TILE_INDEX.get(tile)
        if t is None:
            raise UnknownTile(UNKNOWN_TILE, tile=tile)
        self.check_index(t, NO_POINT if at is None else POINT_INDEX.get(at, -2))

    def check_index(self, t: int, p: int) -> None:
        """``check`` for a tile index and a point index (NO_POINT to open, -2 for no such point)."""
        if not self._placed:
            if p != NO_POINT:
                raise IllegalPlay(OPENS_LAYOUT, tile=ALL_TILES[t])
            return
        if p == NO_POINT:
            raise IllegalPlay(SAY_WHERE, tile=ALL_TILES[t])
        if p not in self.open_indices:
            raise IllegalPlay(NOT_OPEN_POINT)
        value = POINT_VALUE[p]
        low, high = TILE_HALVES[t]
        if value != low and value != high:
            raise IllegalPlay(NO_MATCH, tile=ALL_TILES[t], value=value, point=POINTS[p])

    def place(self, tile: Tile, at: Point | None) -> int:
        """Place ``tile`` at ``at`` (None to open) and return the new end count."""
        self.check(tile, at)
        return self.place_index(TILE_INDEX[tile], NO_POINT if at is None else POINT_INDEX[at])

    def place_index(self, t: int, p: int) -> int:
        """``place`` by indices, for a placement that ``check_index`` has accepted."""
        if p == NO_POINT:
            return self._open_with(t)
        ordered = self.open_indices
        ordered.remove(p)
        placed = _JOIN[t][p]
        _, _, _, new, total = placed  # type: ignore[misc]  # a matching point: never None
        insort(ordered, new)
        spinner = self._spinner
        if _LINE_PARTNER[p] >= 0 and p // 6 == spinner:  # one of the spinner's lines closes
            if _LINE_PARTNER[p] in ordered:
                total += POINT_SCORE[p]  # the other line is still open: the spinner still counts
            else:
                insort(ordered, p - p % 6 + S_BRANCH_A)  # both lines are taken now: the branches open
                insort(ordered, p - p % 6 + S_BRANCH_B)
        elif spinner < 0 and new % 6 == S_LINE_B:
            self._spinner = t  # the first double
        self._placed.append(placed)  # type: ignore[arg-type]  # never None, as above
        mask = 0
        for q in ordered:
            mask |= POINT_BIT[q]
        self.open_values_mask = mask
        total += self._end_count - POINT_SCORE[p]
        self._end_count = total
        return total

    def _open_with(self, t: int) -> int:
        """Place the opening tile ``t``; returns the end count."""
        low, high = TILE_HALVES[t]
        base = t * 6
        if low == high:
            self._spinner = t
            self.open_indices.extend((base + S_LINE_A, base + S_LINE_B))
            total = 2 * low  # an open spinner counts its halves once
        else:
            self.open_indices.extend((base + S_HIGH, base + S_LOW))  # in slot name order
            total = low + high
        self._placed.append(_OPENING[t])
        self.open_values_mask = (1 << low) | (1 << high)
        self._end_count = total
        return total

    # -- plain data ----------------------------------------------------------------

    def to_list(self) -> list[list[object]]:
        """The placements as plain data: ``[tile, [at_tile, slot] | None]`` each."""
        return [
            [str(ALL_TILES[t]), None if p == NO_POINT else [str(POINTS[p].tile), POINTS[p].slot.value]]
            for t, p, _, _, _ in self._placed
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
        other._placed = list(self._placed)
        other.open_indices = list(self.open_indices)
        other.open_values_mask = self.open_values_mask
        other._spinner = self._spinner
        other._end_count = self._end_count
        return other
