"""Where the tiles of a round and its open connection points go on the screen.

Pure arithmetic, no pygame: ``layout_board(layout, area)`` returns a ``BoardGeometry`` with a
rectangle, an orientation and the drawn pip values for every placed tile, and one tap target per
open connection point. See docs/board-layout.md for the drawing conventions and the algorithm.

Internally everything lives on a grid of *units* (``kiosk.ui.board.grid``): a quarter of the
tile's long side. A tile is 4 x 2 units, so a line's centre and a crosswise double (2 x 4 units,
centred on the line) both fall on whole units and collisions are exact cell checks. Laying
the tiles at one size is ``kiosk.ui.board.lay``; this module picks the size and the opening
tile's place, and converts to pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from engine import Layout, Placement, Point, Slot, Tile
from kiosk.ui.board.grid import Box, Dir, Grid
from kiosk.ui.board.grow import centred, grow
from kiosk.ui.board.jump import jump
from kiosk.ui.board.lay import Attempt, attempt

Rect = tuple[int, int, int, int]
"""x, y, width, height in screen pixels."""

MAX_TILE_LONG = 140
"""The largest tile long side in pixels (early in a round on a big screen)."""
READABLE_LONG = 44
"""The tile long side guaranteed on a 676 x 232 board (an 800 x 480 screen): see ``min_readable_long``."""
READABLE_AREA = (676, 232)
MIN_TILE_LONG = 8
"""The smallest tile the search tries before giving up on connections (never reached in tests)."""
_LADDER_RATIO = 0.95
"""Successive tile sizes the search tries differ by about 5 %."""
_BUDGET = (240, 120)
"""Tries (one way to lay one tile) the search may spend at one size: for the first place of the
opening tile, and for each other place."""
_TOTAL_BUDGET = 800
"""Tries for the whole search over sizes; once spent, each size gets only a few tries per tile."""
PLAN_RATIO = 0.8
"""The plan size (``_plan_size``) over the largest tile size of the area."""
VIEW_MARGIN = (4, 2)
"""Room in units left around the board when its view changes, so the next tiles need no other."""
_SPREAD = 2.4
"""Area per tile over the tile's long side squared in a typical laid-out round."""


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
    link: tuple[tuple[int, int], tuple[int, int]] | None = None
    """When the board's own tiles walled its arm in and it was laid in free room instead: the link
    drawn from where the arm ends to where this tile joins it (pixels)."""


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
    link: tuple[int, int] | None = None
    """When the board's own tiles walled this end in and it was moved into free room: where its arm
    really ends (pixels); a link is drawn from there to ``anchor``."""


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


def min_readable_long(area: Rect) -> int:
    """The smallest tile long side ``layout_board`` gives in ``area`` for any round (tested).

    44 px on a 676 x 232 board, scaled with the area's narrower proportion to that board, and
    never more than the largest size the area uses at all.
    """
    _, _, w, h = area
    return min(int(READABLE_LONG * min(w / READABLE_AREA[0], h / READABLE_AREA[1])), _ladder(w, h)[0])


def layout_board(layout: Layout, area: Rect) -> BoardGeometry:
    """Lay out ``layout`` inside ``area`` (x, y, w, h), centred, with tiles as large as fit.

    The board before the last placement is kept as it was when the new tile fits in (see
    ``_layout_units``). Deterministic; the result for the same placements and area is cached.
    """
    return _layout_cached(layout.placements, layout.spinner, tuple(int(v) for v in area))


def layout_board_if_it_fits(layout: Layout, area: Rect, *, anew: bool = False) -> BoardGeometry | None:
    """``layout_board`` (or ``layout_board_anew``), or None when ``area`` is too small to draw the
    board at all (a screen smaller than the configuration allows): the screen is drawn without it."""
    _, _, w, h = (int(v) for v in area)
    if min(w, h) < MIN_BOARD_SIDE:
        return None
    try:
        return layout_board_anew(layout, area) if anew else layout_board(layout, area)
    except ValueError:  # no tile size fits
        return None


MIN_BOARD_SIDE = 8
"""A board area narrower or lower than this is not drawn."""


def layout_board_anew(layout: Layout, area: Rect) -> BoardGeometry:
    """``layout`` laid out on its own in ``area`` at the largest size found, not grown from the board
    before (a board that is only looked at, such as the one under a round's result)."""
    return _anew_cached(layout.placements, layout.spinner, tuple(int(v) for v in area))


@lru_cache(maxsize=16)
def _anew_cached(placements: tuple[Placement, ...], spinner: Tile | None, area: Rect) -> BoardGeometry:
    _, _, w, h = area
    rungs = _ladder(w, h)
    if not placements:
        return _to_pixels(area, _with_view(Attempt(Grid(w, h, rungs[0]), [], [], (0, 0)), area))
    return _to_pixels(area, _with_view(centred(_search_sizes(placements, spinner, w, h, rungs, area)), area))


@lru_cache(maxsize=64)
def _layout_cached(placements: tuple[Placement, ...], spinner: Tile | None, area: Rect) -> BoardGeometry:
    return layout_placements(placements, spinner, area)


def layout_placements(
    placements: tuple[Placement, ...], spinner: Tile | None, area: Rect
) -> BoardGeometry:
    """``layout_board`` for plain placements (the pixels are worked out anew; the layouts in
    units are cached)."""
    return _to_pixels(area, _layout_units(placements, spinner, area))


def _first_double(placements: tuple[Placement, ...]) -> Tile | None:
    """The spinner of a round that has had ``placements``."""
    return next((p.tile for p in placements if p.tile.is_double), None)


@lru_cache(maxsize=128)
def _layout_units(placements: tuple[Placement, ...], spinner: Tile | None, area: Rect) -> Attempt:
    """The layout of ``placements`` in units: the board before the last placement, kept as it was
    with the new tile added if that fits at the same size, else a new search over sizes.

    Tries tile sizes on a geometric ladder (about 5 % apart), starting from an estimate for the
    number of tiles, galloping up or down from it and bisecting to the largest size that fits.
    The result depends only on the placements (and the area): the board before is itself laid
    out this way.
    """
    _, _, w, h = area
    rungs = _ladder(w, h)
    found: Attempt | None = None
    keep: bool | None = None
    if len(placements) >= 2:
        before = placements[:-1]
        previous = _layout_units(before, _first_double(before), area)
        least = min_readable_long(area)
        smaller = [r for r in rungs if least <= r < previous.grid.long_side]
        if least < previous.grid.long_side and least not in smaller:  # the readable minimum itself
            smaller.append(least)
        found = grow(previous, placements, spinner, w, h, smaller) or jump(previous, placements, spinner, w, h, smaller)
        keep = next((t[3] for t in previous.tiles if t[6]), None)  # the spinner keeps its direction
        if found is None:  # no way keeps every tile (docs/board-layout.md): a few tiles move
            below = [r for r in rungs if r <= previous.grid.long_side]  # a board never grows its tiles
            found = _repair(previous, placements, spinner, w, h, [r for r in below if r >= least], keep) \
                or centred(_search_sizes(placements, spinner, w, h, below, area, keep))
            if found.grid.long_side < least:  # the last resort: anew, the spinner either way
                found = max(found, centred(_search_sizes(placements, spinner, w, h, rungs, area)),
                            key=lambda a: a.grid.long_side)
    elif placements:
        plan = _plan_size(rungs, min_readable_long(area))
        grid = Grid(w, h, plan)
        found, _ = attempt(placements, spinner, grid, (grid.wu // 2, grid.hu // 2), _BUDGET[0])
    if found is None:
        found = centred(_search_sizes(placements, spinner, w, h, rungs, area, keep))
    return _with_view(found, area)


def _repair(previous: Attempt, placements: tuple[Placement, ...], spinner: Tile | None, w: int, h: int,
            sizes: list[int], keep: bool | None) -> Attempt | None:
    """``placements`` laid out by the search with every earlier tile tried first where it was in
    ``previous`` (a backjump moves the few that must make room), at ``previous``'s size or smaller
    ones of ``sizes``, the arrangement centred on the larger grid; None if none fits."""
    old = previous.grid
    for size in sizes:
        if size > old.long_side:
            continue
        grid = Grid(w, h, size)
        dx, dy = (grid.wu - old.wu) // 2, (grid.hu - old.hu) // 2
        boxes = [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for _, _, b, *_ in previous.tiles]
        ox, oy = previous.origin
        found, _ = attempt(placements, spinner, grid, (ox + dx, oy + dy), _BUDGET[0], boxes, keep)
        if found is not None:
            return found
    return None


def _plan_size(rungs: list[int], least: int) -> int:
    """The tile size a round starts at (``PLAN_RATIO`` of the largest, at least ``least``): the arms
    run on to the edges of the area at this size before they turn."""
    plan = next((r for r in rungs if r <= rungs[0] * PLAN_RATIO), rungs[-1])
    return plan if plan >= least else min((r for r in rungs if r >= least), default=rungs[0])


def _with_view(found: Attempt, area: Rect) -> Attempt:
    """``found`` with the view it is drawn in: its grid centred in ``area`` at the grid's tile size.

    The view changes only when the grid does (a rescale, or a board laid out anew), so a tile
    keeps its pixels from one placement to the next.
    """
    x, y, w, h = area
    grid = found.grid
    unit = grid.unit
    return replace(found, view=(grid.long_side, x + (w - grid.wu * unit) / 2, y + (h - grid.hu * unit) / 2))


def _search_sizes(placements: tuple[Placement, ...], spinner: Tile | None, w: int, h: int, rungs: list[int],
                  area: Rect, spinner_vertical: bool | None = None) -> Attempt:
    """The layout of ``placements`` laid out anew at a large size that fits (the spinner lying as
    ``spinner_vertical`` says, if not None; else, and if that finds nothing, either way)."""
    tried: dict[int, Attempt | None] = {}
    left = [_TOTAL_BUDGET]

    def fits(i: int) -> bool:
        if i not in tried:
            tried[i] = _attempt_anywhere(placements, spinner, w, h, rungs[i], left, spinner_vertical)
        return tried[i] is not None

    best = _search(fits, _first_rung(rungs, w * h, len(placements)), len(rungs))
    if best is None and spinner_vertical is not None:
        return _search_sizes(placements, spinner, w, h, rungs, area)
    if best is None:
        raise ValueError(f"the board area {area} is too small for {len(placements)} tiles")
    found = tried[best]
    assert found is not None
    return found


def _first_rung(rungs: list[int], area_px: int, count: int) -> int:
    """The rung to try first: the size at which tiles usually cover about 1/2.4 of the area."""
    if count == 0:
        return 0
    estimate = (area_px / (count * _SPREAD)) ** 0.5
    return next((i for i, size in enumerate(rungs) if size <= estimate), len(rungs) - 1)


def _search(fits: Callable[[int], bool], start: int, count: int) -> int | None:
    """The smallest index (largest tile) in ``range(count)`` that fits, searching from ``start``.

    Gallops away from ``start`` (1, 2, 4 ... rungs) to bracket the boundary, bisects, then
    looks two rungs above the boundary: feasibility is nearly, not exactly, monotone (a greedy
    layout can fail at one size and fit at a larger one). Whatever it returns does fit; it is
    a large fitting size, not always the largest.
    """
    if fits(start):
        good, step, bad = start, 1, -1
        while good > 0:
            probe = max(good - step, 0)
            if not fits(probe):
                bad = probe
                break
            good, step = probe, step * 2
    else:
        bad, step, good = start, 1, None
        while good is None:
            if bad == count - 1:
                return None
            probe = min(bad + step, count - 1)
            if fits(probe):
                good = probe
            else:
                bad, step = probe, step * 2
    assert good is not None
    while True:
        while good - bad > 1:
            mid = (good + bad) // 2
            if fits(mid):
                good = mid
            else:
                bad = mid
        better = next((i for i in (bad - 1,) if i >= 0 and fits(i)), None)
        if better is None:
            return good
        good = better
        while good > 0 and fits(good - 1):
            good -= 1
        bad = good - 1


def _ladder(w: int, h: int) -> list[int]:
    """Tile long sides to try, largest first, each about 5 % below the one before."""
    top = max(MIN_TILE_LONG, min(MAX_TILE_LONG, int(h * 0.5), int(w * 0.12)))
    rungs: list[int] = []
    size = float(top)
    while size >= MIN_TILE_LONG:
        if not rungs or int(size) != rungs[-1]:
            rungs.append(int(size))
        size *= _LADDER_RATIO
    return rungs


# -- pixels ------------------------------------------------------------------------------------


def _attempt_anywhere(placements: tuple[Placement, ...], spinner: Tile | None, w: int, h: int,
                      long_side: int, left: list[int], spinner_vertical: bool | None = None) -> Attempt | None:
    """A layout at tile size ``long_side``, trying a few places for the opening tile.

    ``left`` holds the tries left for the whole search and is updated.
    """
    if not placements:
        return Attempt(Grid(w, h, long_side), [], [], (0, 0))
    probe = Grid(w, h, long_side)
    floor = 2 * len(placements)
    for k, origin in enumerate(_origins(placements, spinner, probe.wu, probe.hu)):
        budget = max(floor, min(_BUDGET[min(k, 1)], left[0]))
        found, used = attempt(placements, spinner, Grid(w, h, long_side), origin, budget,
                              spinner_vertical=spinner_vertical)
        left[0] -= used
        if found is not None:
            return found
    return None


def _origins(placements: tuple[Placement, ...], spinner: Tile | None, wu: int, hu: int) -> list[tuple[int, int]]:
    """Where to try the opening tile, best first: off centre towards the side with fewer tiles.

    Each side of the opening gets room in proportion to the tiles that grow from it (the
    spinner's branches likewise up and down), then the centre, then half way between.
    """
    opening = placements[0].tile
    weight = _subtree_weights(placements)
    left = sum(weight.get(Point(opening, s), 0) for s in (Slot.LOW, Slot.LINE_A))
    right = sum(weight.get(Point(opening, s), 0) for s in (Slot.HIGH, Slot.LINE_B))
    up = weight.get(Point(opening, Slot.BRANCH_A), 0)
    down = weight.get(Point(opening, Slot.BRANCH_B), 0)
    fx = min(max((left + 1) / (left + right + 2), 0.2), 0.8)
    fy = min(max((up + 1) / (up + down + 2), 0.3), 0.7)
    found: list[tuple[int, int]] = []
    for kx, ky in ((fx, fy), (0.5, 0.5), ((fx + 0.5) / 2, (fy + 0.5) / 2), (fx, 0.5)):
        at = (round(kx * wu), round(ky * hu))
        if at not in found:
            found.append(at)
    return found


def _subtree_weights(placements: tuple[Placement, ...]) -> dict[Point, int]:
    """For each point that has a tile on it, how many tiles grow from there (that tile included)."""
    size: dict[Tile, int] = {p.tile: 1 for p in placements}
    for p in reversed(placements):
        if p.at is not None:
            size[p.at.tile] += size[p.tile]
    return {p.at: size[p.tile] for p in placements if p.at is not None}


def _to_pixels(area: Rect, found: Attempt) -> BoardGeometry:
    """Convert a unit layout to screen rectangles in its view (``_with_view``).

    Edges are rounded one by one, so boxes that touch or are apart stay so in pixels.
    """
    size, ox, oy = found.view
    unit = size / 4

    def px(i: int) -> int:
        return int(ox + i * unit + 0.5) if ox + i * unit >= 0 else -int(-(ox + i * unit) + 0.5)

    def py(j: int) -> int:
        return int(oy + j * unit + 0.5) if oy + j * unit >= 0 else -int(-(oy + j * unit) + 0.5)

    def rect(box: Box) -> Rect:
        x0, y0 = px(box[0]), py(box[1])
        return (x0, y0, px(box[2]) - x0, py(box[3]) - y0)

    def link(x0: int, y0: int, x1: int, y1: int) -> tuple[tuple[int, int], tuple[int, int]]:
        return (px(x0), py(y0)), (px(x1), py(y1))

    links = {index: link(*units) for index, units in found.links.items()}
    tiles = tuple(
        PlacedTile(tile, rect(box), vertical, first, second, spinner, index, links.get(index))
        for index, tile, box, vertical, first, second, spinner in found.tiles
    )

    def moved_from(point: Point) -> tuple[int, int] | None:
        end = found.ends.get(point)
        return None if end is None or end.link is None else (px(end.link[0]), py(end.link[1]))

    targets = tuple(
        OpenTarget(point, value, rect(box), (px(ax), py(ay)), d, moved_from(point))
        for point, value, box, (ax, ay), d in found.targets
    )
    return BoardGeometry(area, size, size // 2, tiles, targets)
