"""Where the tiles of a round and its open connection points go on the screen.

Pure arithmetic, no pygame: ``layout_board(layout, area)`` returns a ``BoardGeometry`` with a
rectangle, an orientation and the drawn pip values for every placed tile, and one tap target per
open connection point. See docs/board-layout.md for the drawing conventions and the algorithm.

Internally everything lives on a grid of *units*: a quarter of the tile's long side. A tile is
4 x 2 units, so a line's centre and a crosswise double (2 x 4 units, centred on the line) both
fall on whole units and collisions are exact cell checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import Layout, Placement, Point, Slot, Tile

Rect = tuple[int, int, int, int]
"""x, y, width, height in screen pixels."""
Dir = tuple[int, int]
"""A unit step on the screen: (1, 0) right, (0, 1) down, (-1, 0) left, (0, -1) up."""
Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in grid units, half open."""

RIGHT: Dir = (1, 0)
DOWN: Dir = (0, 1)
LEFT: Dir = (-1, 0)
UP: Dir = (0, -1)

MAX_TILE_LONG = 140
"""The largest tile long side in pixels (early in a round on a big screen)."""
MIN_TILE_LONG = 8
"""The smallest tile the search tries before giving up on connections (never reached in tests)."""
_LADDER_RATIO = 0.95
"""Successive tile sizes the search tries differ by about 5 %."""


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One tile on the board: its rectangle, orientation and the pips drawn on each half.

    ``first_value`` is drawn on the top half (vertical tiles) or the left half (horizontal
    tiles), ``second_value`` on the other; a half that touches another tile shows the value it
    connects with.
    """

    tile: Tile
    rect: Rect
    vertical: bool
    first_value: int
    second_value: int
    is_spinner: bool
    index: int
    """Position in placing order (0 for the opening tile)."""


@dataclass(frozen=True, slots=True)
class OpenTarget:
    """Where the next tile at an open connection point would go: highlight and tap area."""

    point: Point
    value: int
    rect: Rect
    anchor: tuple[int, int]
    """The pixel on the placed tile's edge where the next tile would connect."""
    direction: Dir
    """The way the next tile would grow from ``anchor``."""


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """The whole board laid out in ``area``: tiles, tap targets and the tile size used."""

    area: Rect
    tile_long: int
    """The tile's long side in pixels (rectangles may differ by a pixel from rounding)."""
    tile_short: int
    tiles: tuple[PlacedTile, ...]
    targets: tuple[OpenTarget, ...]

    @property
    def spinner(self) -> PlacedTile | None:
        """The spinner's tile, if one is placed."""
        return next((t for t in self.tiles if t.is_spinner), None)

    def target_for(self, point: Point) -> OpenTarget | None:
        """The tap target of an open point, or None if ``point`` is not open."""
        return next((t for t in self.targets if t.point == point), None)

    def target_at(self, x: int, y: int) -> Point | None:
        """The open point whose tap target contains the pixel (x, y), or None."""
        for target in self.targets:
            tx, ty, tw, th = target.rect
            if tx <= x < tx + tw and ty <= y < ty + th:
                return target.point
        return None


# -- public entry ------------------------------------------------------------------------


def layout_board(layout: Layout, area: Rect) -> BoardGeometry:
    """Lay out ``layout`` inside ``area`` (x, y, w, h): the largest tile size that fits.

    Deterministic; the result for the same placements and area is cached.
    """
    return _layout_cached(layout.placements, layout.spinner, tuple(int(v) for v in area))


@lru_cache(maxsize=64)
def _layout_cached(placements: tuple[Placement, ...], spinner: Tile | None, area: Rect) -> BoardGeometry:
    return layout_placements(placements, spinner, area)


def layout_placements(
    placements: tuple[Placement, ...], spinner: Tile | None, area: Rect
) -> BoardGeometry:
    """``layout_board`` for plain placements, uncached.

    Tries tile sizes on a geometric ladder (about 5 % apart): the largest first, then a
    bisection for the largest size whose layout succeeds.
    """
    x, y, w, h = area
    rungs = _ladder(w, h)
    tried: dict[int, _Attempt | None] = {}

    def fits(i: int) -> bool:
        if i not in tried:
            tried[i] = _attempt(placements, spinner, _Grid(w, h, rungs[i]))
        return tried[i] is not None

    if not fits(0):
        last = len(rungs) - 1
        if not fits(last):
            raise ValueError(f"the board area {area} is too small for {len(placements)} tiles")
        lo, hi = 0, last  # rung lo fails, rung hi fits
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid):
                hi = mid
            else:
                lo = mid
        found = tried[hi]
    else:
        found = tried[0]
    assert found is not None
    return _to_pixels(area, found)


def _ladder(w: int, h: int) -> list[int]:
    """Tile long sides to try, largest first, each about 5 % below the one before."""
    top = max(MIN_TILE_LONG, min(MAX_TILE_LONG, int(h * 0.32), int(w * 0.12)))
    rungs: list[int] = []
    size = float(top)
    while size >= MIN_TILE_LONG:
        if not rungs or int(size) != rungs[-1]:
            rungs.append(int(size))
        size *= _LADDER_RATIO
    return rungs
