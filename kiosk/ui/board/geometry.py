"""Where the tiles of a round and its open connection points go on the screen.

Pure arithmetic, no pygame: ``layout_board(layout, area)`` returns a ``BoardGeometry`` with a
rectangle, an orientation and the drawn pip values for every placed tile, and one tap target per
open connection point. See docs/board-layout.md for the drawing conventions and the algorithm.

Internally everything lives on a grid of *units* (``kiosk.ui.board.grid``): a quarter of the
tile's long side. A tile is 4 x 2 units, so a line's centre and a crosswise double (2 x 4 units,
centred on the line) both fall on whole units and collisions are exact cell checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from engine import Layout, Placement, Point, Slot, Tile
from kiosk.ui.board.grid import LEFT, RIGHT, Box, Dir, Grid, ccw, cw, neg, unit_box

Rect = tuple[int, int, int, int]
"""x, y, width, height in screen pixels."""

MAX_TILE_LONG = 140
"""The largest tile long side in pixels (early in a round on a big screen)."""
READABLE_LONG = 24
"""The tile long side guaranteed on a 760 x 260 board (an 800 x 480 screen): see ``min_readable_long``."""
READABLE_AREA = (760, 260)
MIN_TILE_LONG = 8
"""The smallest tile the search tries before giving up on connections (never reached in tests)."""
_LADDER_RATIO = 0.95
"""Successive tile sizes the search tries differ by about 5 %."""
_SPINNER_LOOKBACK = 8
"""How many tiles before a late spinner keep turn-backs wide (about a row's worth)."""
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


def min_readable_long(area: Rect) -> int:
    """The smallest tile long side ``layout_board`` gives in ``area`` for any round (tested).

    24 px on a 760 x 260 board, scaled with the area's narrower proportion to that board.
    """
    _, _, w, h = area
    return int(READABLE_LONG * min(w / READABLE_AREA[0], h / READABLE_AREA[1]))


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

    Tries tile sizes on a geometric ladder (about 5 % apart), starting from an estimate for the
    number of tiles, galloping up or down from it and bisecting to the largest size that fits.
    """
    _, _, w, h = area
    rungs = _ladder(w, h)
    tried: dict[int, _Attempt | None] = {}

    def fits(i: int) -> bool:
        if i not in tried:
            tried[i] = _attempt(placements, spinner, Grid(w, h, rungs[i]))
        return tried[i] is not None

    best = _search(fits, _first_rung(rungs, w * h, len(placements)), len(rungs))
    if best is None:
        raise ValueError(f"the board area {area} is too small for {len(placements)} tiles")
    found = tried[best]
    assert found is not None
    return _to_pixels(area, found)


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
    top = max(MIN_TILE_LONG, min(MAX_TILE_LONG, int(h * 0.32), int(w * 0.12)))
    rungs: list[int] = []
    size = float(top)
    while size >= MIN_TILE_LONG:
        if not rungs or int(size) != rungs[-1]:
            rungs.append(int(size))
        size *= _LADDER_RATIO
    return rungs


# -- laying tiles on the unit grid (kiosk.ui.board.grid) ---------------------------------------

_STRAIGHT = 0
_TURN = 1
_INLINE = 2
"""A double laid lengthwise along its arm: only when neither crosswise nor a turn fits."""


@dataclass(slots=True)
class _End:
    """An open end during layout: where the next tile starts and how its arm is turning.

    (x, y) is on the arm's centre line at the edge of the last tile; ``d`` the way the arm
    grows; ``drift`` the side it moves to when it turns back (a snake); ``then`` the direction
    of the second corner of a turn-back in progress; ``owner`` the arm, for corridors.
    """

    x: int
    y: int
    d: Dir
    drift: Dir | None
    then: Dir | None
    owner: int


@dataclass(slots=True)
class _Attempt:
    """A successful layout in grid units."""

    grid: Grid
    tiles: list[tuple[int, Tile, Box, bool, int, int, bool]]
    """(index, tile, box, vertical, first value, second value, is spinner) each."""
    targets: list[tuple[Point, int, Box, tuple[int, int], Dir]]
    """(point, value, box, anchor, direction) each."""


Plan = tuple[int, Dir | None, Dir | None, Dir | None]
"""(straight or turn, turn direction, drift after, pending corner after)."""


def _plans(end: _End, wide: bool, double: bool, delay: bool = False) -> tuple[Plan, ...]:
    """The ways to lay the next tile at ``end``, preferred first (see ``_plans_for``)."""
    return _plans_for(end.d, end.drift, end.then, wide, double, delay)


@cache
def _plans_for(
    d: Dir, drift: Dir | None, then: Dir | None, wide: bool, double: bool, delay: bool
) -> tuple[Plan, ...]:
    """The ways to lay the next tile at an end going ``d``, preferred first.

    A double, or a tile with ``delay`` (the spinner follows soon on this arm), postpones the
    second corner of a turn-back by going on straight once, so that the next row keeps a
    tile's length of room from the last one (for a crosswise double, or the spinner's branch).

    Straight on; when that is blocked, turn back as a snake: an arm along the area's long side
    turns clockwise and then back the opposite way (two corners, the next row), an arm along
    the short side turns clockwise once and keeps running. Any other quarter turn comes last.
    """
    plans: list[Plan] = []
    if then is not None:
        turn: Plan = (_TURN, then, drift, None)
        on: Plan = (_STRAIGHT, None, drift, then)
        plans += [on, turn] if double or delay else [turn, on]
    else:
        plans.append((_STRAIGHT, None, drift, None))
        c = cw(d)
        if drift is None:
            if (d[0] != 0) == wide:
                plans.append((_TURN, c, c, neg(d)))
            else:
                plans.append((_TURN, c, neg(d), None))
        elif drift[0] * d[0] + drift[1] * d[1] == 0:
            plans.append((_TURN, drift, drift, neg(d)))
    for t in (cw(d), ccw(d)):
        if not any(p[0] == _TURN and p[1] == t for p in plans):
            plans.append((_TURN, t, drift, None))
    if double:
        plans.append((_INLINE, None, drift, then))
    return tuple(plans)


def _shape(end: _End, kind: int, t: Dir | None, double: bool) -> tuple[Box, bool, Dir, int, int, Dir]:
    """A tile laid at ``end`` straight on or turning to ``t``.

    Returns (box, vertical, axis from the joined half to the other half, new end x, y, new end
    direction). A straight double lies crosswise, an inline one (a last resort) lengthwise; a
    turning tile, double or not, puts its joined half just past the end and its other half
    towards ``t``, and the arm goes on from its far end.
    """
    hx, hy, d = end.x, end.y, end.d
    dx, dy = d
    if kind == _STRAIGHT:
        if double:
            return unit_box(hx, hy, d, 2, 2), dx != 0, d, hx + 2 * dx, hy + 2 * dy, d
        return unit_box(hx, hy, d, 4, 1), dx == 0, d, hx + 4 * dx, hy + 4 * dy, d
    if kind == _INLINE:
        return unit_box(hx, hy, d, 4, 1), dx == 0, d, hx + 4 * dx, hy + 4 * dy, d
    assert t is not None
    tx, ty = t
    mx, my = hx + dx, hy + dy
    return unit_box(mx - tx, my - ty, t, 4, 1), tx == 0, t, mx + 3 * tx, my + 3 * ty, t


def _point_value(point: Point) -> int:
    """The value a tile must match at ``point``."""
    return point.tile.high if point.slot is Slot.HIGH else point.tile.low


def _open_branches(grid: Grid, tile: Tile, mx: int, my: int, d: Dir, ends: dict[Point, _End]) -> None:
    """Give the spinner centred at (mx, my), with its line along ``d``, its two branch ends."""
    for slot, b, owner in ((Slot.BRANCH_A, ccw(d), 2), (Slot.BRANCH_B, cw(d), 3)):
        bx, by = mx + 2 * b[0], my + 2 * b[1]
        ends[Point(tile, slot)] = _End(bx, by, b, None, None, owner)
        grid.reserve(bx, by, b, owner)


def _place_opening(grid: Grid, tile: Tile, ends: dict[Point, _End]) -> tuple[Box, bool, int, int]:
    """Lay the opening tile at the centre: a double crosswise (it is the spinner), else lengthwise."""
    cx, cy = grid.wu // 2, grid.hu // 2
    if tile.is_double:
        box = (cx - 1, cy - 2, cx + 1, cy + 2)
        grid.fill(box)
        ends[Point(tile, Slot.LINE_A)] = _End(cx - 1, cy, LEFT, None, None, 0)
        ends[Point(tile, Slot.LINE_B)] = _End(cx + 1, cy, RIGHT, None, None, 1)
        grid.reserve(cx - 1, cy, LEFT, 0)
        grid.reserve(cx + 1, cy, RIGHT, 1)
        _open_branches(grid, tile, cx, cy, RIGHT, ends)
        return box, True, tile.low, tile.high
    box = (cx - 2, cy - 1, cx + 2, cy + 1)
    grid.fill(box)
    ends[Point(tile, Slot.LOW)] = _End(cx - 2, cy, LEFT, None, None, 0)
    ends[Point(tile, Slot.HIGH)] = _End(cx + 2, cy, RIGHT, None, None, 1)
    grid.reserve(cx - 2, cy, LEFT, 0)
    grid.reserve(cx + 2, cy, RIGHT, 1)
    return box, False, tile.low, tile.high


def _place_on(
    grid: Grid, tile: Tile, value: int, end: _End, is_spinner: bool, ends: dict[Point, _End],
    delay: bool = False,
) -> tuple[Box, bool, int, int] | None:
    """Lay ``tile`` joined by its ``value`` half at ``end``; None if no way fits.

    Tries the arm's preferred ways keeping out of other arms' corridors, then the same ways
    ignoring the corridors (an arm that has filled its own part of the board spills over).
    Returns (box, vertical, first value, second value) and records the tile's new open end(s).
    """
    double = tile[0] == tile[1]
    plans = _plans(end, grid.wide, double, delay)
    for owner in (end.owner, None):
        for kind, t, drift, then in plans:
            if is_spinner and kind != _STRAIGHT:
                continue  # the spinner lies crosswise on its line so that its branches are free
            if not double and kind == _INLINE:
                continue
            shape = _shape(end, kind, t, double)
            box = shape[0]
            if not grid.free(box, owner):
                continue
            if kind != _TURN and not grid.free(_lookahead(shape), owner):
                continue
            if is_spinner and not _branch_room(grid, end):
                return None
            grid.fill(box)
            _record_end(tile, value, end, shape, drift, then, ends)
            if is_spinner:
                _open_branches(grid, tile, end.x + end.d[0], end.y + end.d[1], end.d, ends)
            other = tile[1] if value == tile[0] else tile[0]
            axis = shape[2]
            first, second = (value, other) if axis[0] + axis[1] > 0 else (other, value)
            return box, shape[1], first, second
    return None


def _branch_room(grid: Grid, end: _End) -> bool:
    """True if a spinner laid at ``end`` leaves room to start both of its branches."""
    mx, my = end.x + end.d[0], end.y + end.d[1]
    return all(grid.free(unit_box(mx + 2 * b[0], my + 2 * b[1], b, 2, 1), None) for b in (ccw(end.d), cw(end.d)))


def _lookahead(shape: tuple[Box, bool, Dir, int, int, Dir]) -> Box:
    """The room a straight tile must leave ahead of its new end: enough to turn there.

    Three units along the arm (a corner needs two, and a crosswise double on the row after the
    corner one more), as wide as a plain tile.
    """
    _, _, _, nx, ny, nd = shape
    return unit_box(nx, ny, nd, 3, 1)


def _record_end(
    tile: Tile, value: int, end: _End, shape: tuple[Box, bool, Dir, int, int, Dir],
    drift: Dir | None, then: Dir | None, ends: dict[Point, _End],
) -> None:
    """Record the open end a newly laid tile leaves: lineB for a double, the other half otherwise."""
    if tile.is_double:
        open_slot = Slot.LINE_B
    else:
        open_slot = Slot.HIGH if value == tile.low else Slot.LOW
    _, _, _, nx, ny, nd = shape
    ends[Point(tile, open_slot)] = _End(nx, ny, nd, drift, then, end.owner)


def _open_points(ends: dict[Point, _End], spinner: Tile | None) -> list[Point]:
    """The ends that are open connection points, sorted like ``Layout.open_points``.

    The spinner's branches only open once both its lines are taken.
    """
    closed: set[Slot] = set()
    if spinner is not None and (Point(spinner, Slot.LINE_A) in ends or Point(spinner, Slot.LINE_B) in ends):
        closed = {Slot.BRANCH_A, Slot.BRANCH_B}
    points = [p for p in ends if not (p.tile == spinner and p.slot in closed)]
    return sorted(points, key=lambda p: (p.tile, p.slot.value))


def _place_targets(
    grid: Grid, ends: dict[Point, _End], points: list[Point]
) -> list[tuple[Point, int, Box, tuple[int, int], Dir]] | None:
    """A tap target per open point: where a plain tile would go next, or at least a half square."""
    targets: list[tuple[Point, int, Box, tuple[int, int], Dir]] = []
    for point in points:
        end = ends[point]
        chosen: Box | None = None
        for kind, t, _, _ in _plans(end, grid.wide, False):
            box = _shape(end, kind, t, False)[0]
            if grid.free(box, None):
                chosen = box
                break
        if chosen is None:
            box = unit_box(end.x, end.y, end.d, 2, 1)
            if not grid.free(box, None):
                return None
            chosen = box
        grid.fill(chosen)
        targets.append((point, _point_value(point), chosen, (end.x, end.y), end.d))
    return targets


def _leading_to_spinner(placements: tuple[Placement, ...], spinner: Tile | None) -> frozenset[Tile]:
    """The few tiles just before the spinner on its arm, when the spinner is not the opening."""
    parent = {p.tile: p.at.tile for p in placements if p.at is not None}
    chain: list[Tile] = []
    current = parent.get(spinner) if spinner is not None else None
    while current is not None and len(chain) < _SPINNER_LOOKBACK:
        chain.append(current)
        current = parent.get(current)
    return frozenset(chain)


def _attempt(placements: tuple[Placement, ...], spinner: Tile | None, grid: Grid) -> _Attempt | None:
    """Lay out every placement in order at the grid's tile size; None if something does not fit."""
    if grid.wu < 6 or grid.hu < 6:
        return None
    ends: dict[Point, _End] = {}
    tiles: list[tuple[int, Tile, Box, bool, int, int, bool]] = []
    before_spinner = _leading_to_spinner(placements, spinner)
    for index, (tile, at, _joined) in enumerate(placements):
        placed: tuple[Box, bool, int, int] | None
        if at is None:
            placed = _place_opening(grid, tile, ends)
        else:
            end = ends.pop(at, None)
            if end is None:
                raise ValueError(f"{at} is not an open end of the layout")
            placed = _place_on(grid, tile, _point_value(at), end, tile == spinner, ends,
                               delay=tile in before_spinner)
            if placed is None:
                return None
        tiles.append((index, tile, *placed, tile == spinner))
    targets = _place_targets(grid, ends, _open_points(ends, spinner))
    if targets is None:
        return None
    return _Attempt(grid, tiles, targets)


# -- pixels ------------------------------------------------------------------------------------


def _to_pixels(area: Rect, found: _Attempt) -> BoardGeometry:
    """Convert a unit layout to screen rectangles, the unit grid centred in ``area``.

    Edges are rounded one by one, so boxes that touch or are apart stay so in pixels.
    """
    x, y, w, h = area
    grid = found.grid
    unit = grid.unit
    ox = x + (w - grid.wu * unit) / 2
    oy = y + (h - grid.hu * unit) / 2

    def px(i: int) -> int:
        return int(ox + i * unit + 0.5) if ox + i * unit >= 0 else -int(-(ox + i * unit) + 0.5)

    def py(j: int) -> int:
        return int(oy + j * unit + 0.5) if oy + j * unit >= 0 else -int(-(oy + j * unit) + 0.5)

    def rect(box: Box) -> Rect:
        x0, y0 = px(box[0]), py(box[1])
        return (x0, y0, px(box[2]) - x0, py(box[3]) - y0)

    tiles = tuple(
        PlacedTile(tile, rect(box), vertical, first, second, spinner, index)
        for index, tile, box, vertical, first, second, spinner in found.tiles
    )
    targets = tuple(
        OpenTarget(point, value, rect(box), (px(ax), py(ay)), d)
        for point, value, box, (ax, ay), d in found.targets
    )
    return BoardGeometry(area, grid.long_side, grid.long_side // 2, tiles, targets)
