"""The 28 double-six tiles, their names ``"a|b"`` and the connection points of a layout."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from .errors import UNKNOWN_SLOT, UNKNOWN_TILE, UNKNOWN_TILE_NAME, Malformed, UnknownTile


class Tile(NamedTuple):
    """A domino tile ``[low|high]`` with ``low <= high``; compares and sorts like its name."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}|{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}|{self.high})"

    @property
    def is_double(self) -> bool:
        """True for ``[d|d]``."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """The tile's pip total."""
        return self.low + self.high

    @classmethod
    def parse(cls, text: str | Tile) -> Tile:
        """The canonical tile named ``text``, or ``text`` itself if it is one of the 28 tiles.

        The grammar of a name, halves in either order::

            name   = [spaces] ( "[" body "]" | body ) [spaces]
            body   = [spaces] digit [spaces] "|" [spaces] digit [spaces]
            digit  = "0" | "1" | "2" | "3" | "4" | "5" | "6"
            spaces = one or more " " (U+0020)

        so ``"1|4"``, ``"4|1"``, ``"4 | 1"``, ``"[1|4]"``, ``" [ 4|1 ] "`` all name ``[1|4]``. Anything
        else (another character, a missing or unbalanced bracket, a number above 6) raises
        UnknownTile, as does a ``Tile`` that is not one of the 28 (such as ``Tile(4, 1)``).
        """
        if isinstance(text, Tile):
            if text in TILE_INDEX:
                return text
            raise UnknownTile(UNKNOWN_TILE, tile=text)
        if not isinstance(text, str):
            raise UnknownTile(UNKNOWN_TILE_NAME, name=text)
        tile_ = _BY_NAME.get(text)
        if tile_ is None:
            found = _NAME.fullmatch(text)
            if found is None:
                raise UnknownTile(UNKNOWN_TILE_NAME, name=text)
            a, b = found.group(1, 2) if found.group(1) is not None else found.group(3, 4)
            tile_ = _BY_NAME[f"{a}|{b}"]
        return tile_


ALL_TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
"""All 28 tiles in name order, [0|0] first."""

_BY_NAME: dict[str, Tile] = {f"{a}|{b}": t for t in ALL_TILES for a, b in ((t.low, t.high), (t.high, t.low))}
"""The compact names ``"a|b"`` in both orders (the common case, looked up before the grammar)."""
_NAME = re.compile(r" *(?:\[ *([0-6]) *\| *([0-6]) *\]|([0-6]) *\| *([0-6])) *")
"""The grammar of ``Tile.parse`` (matched whole)."""


def tile(a: int, b: int) -> Tile:
    """The canonical tile with halves ``a`` and ``b`` in either order."""
    return Tile.parse(f"{a}|{b}")


class Slot(StrEnum):
    """Where on a placed tile another tile may connect."""

    LOW = "low"
    HIGH = "high"
    LINE_A = "lineA"
    LINE_B = "lineB"
    BRANCH_A = "branchA"
    BRANCH_B = "branchB"

    __hash__ = str.__hash__


class Point(NamedTuple):
    """A connection point: a placed tile and one of its slots."""

    tile: Tile
    slot: Slot

    def __str__(self) -> str:
        return f"{self.tile} {self.slot.value}"

    @classmethod
    def parse(cls, tile_name: str | Tile, slot_name: str) -> Point:
        """The point named by a tile (see ``Tile.parse``) and a slot name; raises UnknownTile or Malformed."""
        try:
            slot = Slot(slot_name)
        except (ValueError, TypeError):
            raise Malformed(UNKNOWN_SLOT, slot=slot_name, slots=", ".join(s.value for s in Slot)) from None
        return cls(Tile.parse(tile_name), slot)



# -- index tables for the engine's fast paths ------------------------------------------
# A tile's index is its position in ALL_TILES (name order); a point's index is
# tile index * 6 + slot index, with slots in name order, so sorting point indices sorts
# points by tile name and then slot name.

SLOTS_BY_NAME: tuple[Slot, ...] = tuple(sorted(Slot, key=lambda s: s.value))
"""branchA, branchB, high, lineA, lineB, low."""
SLOT_INDEX: dict[Slot, int] = {s: i for i, s in enumerate(SLOTS_BY_NAME)}
S_BRANCH_A, S_BRANCH_B, S_HIGH, S_LINE_A, S_LINE_B, S_LOW = (SLOT_INDEX[s] for s in (
    Slot.BRANCH_A, Slot.BRANCH_B, Slot.HIGH, Slot.LINE_A, Slot.LINE_B, Slot.LOW))

TILE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(ALL_TILES)}
TILE_HALVES: tuple[tuple[int, int], ...] = tuple((t.low, t.high) for t in ALL_TILES)
TILE_PIPS: tuple[int, ...] = tuple(t.low + t.high for t in ALL_TILES)
TILE_MASK: tuple[int, ...] = tuple((1 << t.low) | (1 << t.high) for t in ALL_TILES)
"""Bit ``v`` set for each value ``v`` on the tile."""

POINTS: tuple[Point, ...] = tuple(Point(t, s) for t in ALL_TILES for s in SLOTS_BY_NAME)
POINT_INDEX: dict[Point, int] = {p: i for i, p in enumerate(POINTS)}
POINT_VALUE: tuple[int, ...] = tuple(p.tile.high if p.slot is Slot.HIGH else p.tile.low for p in POINTS)
"""The value a tile must match to connect at the point."""
POINT_IS_BRANCH: tuple[bool, ...] = tuple(p.slot in (Slot.BRANCH_A, Slot.BRANCH_B) for p in POINTS)
POINT_ON_DOUBLE: tuple[bool, ...] = tuple(p.tile.is_double for p in POINTS)
POINT_SCORE: tuple[int, ...] = tuple(
    0 if branch else (2 * v if double else v)
    for v, branch, double in zip(POINT_VALUE, POINT_IS_BRANCH, POINT_ON_DOUBLE)
)
"""What an open point adds to the end count (the spinner's two open lines count once: see Layout)."""
POINT_BIT: tuple[int, ...] = tuple(1 << v for v in POINT_VALUE)
