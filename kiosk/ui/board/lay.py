"""Laying a round's tiles on the unit grid of one tile size (``kiosk.ui.board.grid``).

``attempt`` places the tiles in playing order, each at the open end it was played on, with a
depth-first search: every tile tries the ways its arm prefers (straight on, the snake's turn,
other turns) and the search backs out of a choice when a later tile, or a tap target, finds no
room. A budget of tries bounds the work; running out counts as "does not fit at this size".
See docs/board-layout.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from engine import Placement, Point, Slot, Tile
from kiosk.ui.board.grid import LEFT, RIGHT, Box, Dir, Grid, ccw, cw, neg, unit_box

_SPINNER_LOOKBACK = 8
"""How many tiles before a late spinner keep turn-backs wide (about a row's worth)."""

_STRAIGHT = 0
_TURN = 1
_SHIFTED = 2
"""A double across its line, a quarter tile to one side: its side still covers the end it joins."""

TileBox = tuple[int, Tile, Box, bool, int, int, bool]
"""(index, tile, box, vertical, first value, second value, is spinner) in grid units."""
TargetBox = tuple[Point, int, Box, tuple[int, int], Dir]
"""(point, value, box, anchor, direction) in grid units."""


@dataclass(slots=True)
class _End:
    """An open end during layout: where the next tile starts and how its arm is turning.

    (x, y) is on the arm's centre line at the edge of the last tile; ``d`` the way the arm
    grows; ``drift`` the side it moves to when it turns back (a snake); ``then`` the direction
    of the second corner of a turn-back in progress; ``owner`` the arm, for corridors; ``on_double``
    True on a double's end: a tile turned there lies with its joined half against the double's
    half of that value (half a tile off the double, not a quarter).
    """

    x: int
    y: int
    d: Dir
    drift: Dir | None
    then: Dir | None
    owner: int
    on_double: bool = False
    shift: int = 0
    """On a double that lies a quarter tile to a side: that side (1 clockwise from ``d``, -1 the other)."""
    returned: bool = False
    """True once the arm has turned back onto a new row (a turn-back's second corner)."""
    link: tuple[int, int] | None = None
    """Where the arm really ends, when this end was moved away from there into free room because the
    board's own tiles walled it in (``kiosk.ui.board.grow``): a link is drawn between the two."""


@dataclass(slots=True)
class Attempt:
    """A successful layout in grid units."""

    grid: Grid
    tiles: list[TileBox]
    targets: list[TargetBox]
    origin: tuple[int, int]
    """Where the opening tile's centre is, in units."""
    ends: dict[Point, _End] = field(default_factory=dict)
    """Every end that has no tile on it yet (the spinner's unopened branches too), for growing the board."""
    view: tuple[int, float, float] = (0, 0.0, 0.0)
    """How it is drawn: the tile's long side in pixels and where unit (0, 0) is on the screen."""
    links: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    """For each tile laid at a moved end (``_End.link``), by placing index: the link from where its arm
    really ended to where the tile joins it (x0, y0, x1, y1 in units)."""
    short: int = 0
    """The room given up by the placements in a row, up to the last, that found no way with the look
    ahead: the sum of 3 less each one's level (``kiosk.ui.board.grow.TRIES``); 0 for a board laid
    out by the search."""


Plan = tuple[int, Dir | None, Dir | None, Dir | None]
"""(straight or turn, turn direction, drift after, pending corner after)."""
Shape = tuple[Box, bool, Dir, int, int, Dir]
"""(box, vertical, axis from the joined half to the other, new end x, new end y, new end direction)."""


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
    After that single turn the arm drifts (turns back later) away from where it came from in a wide
    area, so that a spinner's branch does not snake back around the line's ends; in a tall one,
    back towards it.
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
                plans.append((_TURN, c, d if wide else neg(d), None))
        elif drift[0] * d[0] + drift[1] * d[1] == 0:
            plans.append((_TURN, drift, drift, neg(d)))
    for t in (cw(d), ccw(d)):
        if not any(p[0] == _TURN and p[1] == t for p in plans):
            plans.append((_TURN, t, drift, None))
    return tuple(plans)


def _shape(end: _End, kind: int, t: Dir | None, double: bool) -> Shape:
    """A tile laid at ``end`` straight on or turning to ``t``.

    A straight double lies crosswise (a double never turns); a turning tile puts its joined half
    just past the end and its other half towards ``t``, and the arm goes on from its far end. On
    a double's end the turning tile's joined half lies against the double's half on the ``t``
    side, its other half past the double (a quarter tile further than elsewhere).
    """
    hx, hy, d = end.x, end.y, end.d
    dx, dy = d
    if kind == _STRAIGHT:
        if double:
            return unit_box(hx, hy, d, 2, 2), dx != 0, d, hx + 2 * dx, hy + 2 * dy, d
        return unit_box(hx, hy, d, 4, 1), dx == 0, d, hx + 4 * dx, hy + 4 * dy, d
    assert t is not None
    tx, ty = t
    mx, my = hx + dx, hy + dy
    back = 0 if end.on_double else 1
    if end.shift:  # from the double's middle, not the line's
        sx, sy = cw(d)
        mx, my = mx + end.shift * sx, my + end.shift * sy
    return unit_box(mx - back * tx, my - back * ty, t, 4, 1), tx == 0, t, mx + (4 - back) * tx, my + (4 - back) * ty, t


def point_value(point: Point) -> int:
    """The value a tile must match at ``point``."""
    return point.tile.high if point.slot is Slot.HIGH else point.tile.low


def _lookahead(shape: Shape) -> Box:
    """The room a straight tile should leave ahead of its new end: enough to turn there.

    Three units along the arm (a corner needs two, and a crosswise double on the row after the
    corner one more), as wide as a plain tile.
    """
    _, _, _, nx, ny, nd = shape
    return unit_box(nx, ny, nd, 3, 1)


def _open_branches(grid: Grid, tile: Tile, mx: int, my: int, d: Dir, ends: dict[Point, _End]) -> None:
    """Give the spinner centred at (mx, my), with its line along ``d``, its two branch ends."""
    for slot, b, owner in ((Slot.BRANCH_A, ccw(d), 2), (Slot.BRANCH_B, cw(d), 3)):
        bx, by = mx + 2 * b[0], my + 2 * b[1]
        ends[Point(tile, slot)] = _End(bx, by, b, None, None, owner)
        grid.reserve(bx, by, b, owner)


def _place_opening(grid: Grid, tile: Tile, at: tuple[int, int], ends: dict[Point, _End]) -> tuple[Box, bool, int, int]:
    """Lay the opening tile centred at ``at``: a double crosswise (it is the spinner), else lengthwise."""
    cx, cy = at
    if tile.is_double:
        box = (cx - 1, cy - 2, cx + 1, cy + 2)
        grid.fill(box)
        ends[Point(tile, Slot.LINE_A)] = _End(cx - 1, cy, LEFT, None, None, 0, True)
        ends[Point(tile, Slot.LINE_B)] = _End(cx + 1, cy, RIGHT, None, None, 1, True)
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


Choice = tuple[Shape, Dir | None, Dir | None]
"""A way to lay a tile: its shape, and the arm's drift and pending corner after it."""


Template = tuple[int, Box, bool, Dir, int, int, Dir, Dir | None, Dir | None, Box | None]
"""A way to lay a tile relative to its end at (0, 0): kind, box, vertical, axis, new end x and y,
new end direction, drift and pending corner after, and the room ahead it should leave (None for a
turn)."""


@cache
def _templates(d: Dir, drift: Dir | None, then: Dir | None, wide: bool, double: bool, delay: bool,
               straight: bool, on_double: bool, shift: int = 0) -> tuple[Template, ...]:
    """The ways of ``_plans_for`` as shapes relative to the end, without repeats; only straight on
    when ``straight`` (a double: doubles always lie across their line, they never turn)."""
    origin = _End(0, 0, d, drift, then, 0, on_double, shift)
    found: list[Template] = []
    seen: set[tuple[Box, Dir | None, Dir | None]] = set()
    for kind, t, after, corner in _plans_for(d, drift, then, wide, double, delay):
        if straight and kind != _STRAIGHT:
            continue
        shape = _shape(origin, kind, t, double)
        if (shape[0], after, corner) in seen:
            continue
        seen.add((shape[0], after, corner))
        ahead = None if kind == _TURN else _lookahead(shape)
        found.append((kind, *shape, after, corner, ahead))
    if double:
        _, _, axis, nx, ny, nd = _shape(origin, _STRAIGHT, None, True)
        _, _, after, corner = next(p for p in _plans_for(d, drift, then, wide, double, delay) if p[0] == _STRAIGHT)
        for px, py in (cw(d), ccw(d)):
            box = unit_box(px, py, d, 2, 2)
            shape = (box, d[0] != 0, axis, nx, ny, nd)
            found.append((_SHIFTED, *shape, after, corner, _lookahead(shape)))
    return tuple(found)


def double_boxes(x: int, y: int, d: Dir) -> tuple[Box, Box, Box]:
    """Where a double joining the end at (x, y) going ``d`` may lie across: centred on the line,
    then a quarter tile to either side."""
    (ax, ay), (bx, by) = cw(d), ccw(d)
    return unit_box(x, y, d, 2, 2), unit_box(x + ax, y + ay, d, 2, 2), unit_box(x + bx, y + by, d, 2, 2)


def _box_branch_room(grid: Grid, box: Box, d: Dir) -> bool:
    """True if a spinner lying in ``box`` across a line going ``d`` leaves room to start both branches."""
    mx, my = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    return all(grid.free(unit_box(mx + 2 * b[0], my + 2 * b[1], b, 2, 1), None) for b in (ccw(d), cw(d)))


def _choices(grid: Grid, end: _End, double: bool, is_spinner: bool, delay: bool) -> list[Choice]:
    """Every way the tile can lie at ``end``, best first.

    First the arm's preferred ways that keep out of other arms' corridors and leave room to
    turn ahead; then without the room ahead; then the same ignoring corridors (an arm that has
    filled its own part of the board spills over). A double only lies crosswise, straight on
    (centred on the line, else a quarter tile to a side); a spinner only lies where both its
    branches have room to start.
    """
    ex, ey, owner = end.x, end.y, end.owner
    free = grid.free
    ranked: list[tuple[int, Choice]] = []
    for kind, b, vertical, axis, nx, ny, nd, drift, then, ahead in _templates(
            end.d, end.drift, end.then, grid.wide, double, delay, double, end.on_double, end.shift):
        box = (b[0] + ex, b[1] + ey, b[2] + ex, b[3] + ey)
        if not free(box, None) or (is_spinner and not _box_branch_room(grid, box, end.d)):
            continue
        own = free(box, owner)
        if ahead is None:
            rank = 0 if own else 2
        else:
            room = (ahead[0] + ex, ahead[1] + ey, ahead[2] + ex, ahead[3] + ey)
            room_own = own and free(room, owner)
            rank = 0 if room_own else 1 if own else 2 if free(room, None) else 3
        if kind == _SHIFTED:
            rank += 4
        ranked.append((rank, ((box, vertical, axis, nx + ex, ny + ey, nd), drift, then)))
    ranked.sort(key=lambda r: r[0])
    return [choice for _, choice in ranked]


def _lay(grid: Grid, tile: Tile, value: int, end: _End, choice: Choice, is_spinner: bool,
         ends: dict[Point, _End]) -> tuple[Box, bool, int, int]:
    """Lay ``tile`` joined by its ``value`` half at ``end`` the way ``choice`` says.

    Records the tile's new open end(s); returns (box, vertical, first value, second value).
    """
    shape, drift, then = choice
    grid.fill(shape[0])
    open_slot = Slot.LINE_B if tile.is_double else (Slot.HIGH if value == tile.low else Slot.LOW)
    _, _, _, nx, ny, nd = shape
    shift = 0
    if tile.is_double:
        box = shape[0]
        sx, sy = cw(nd)
        shift = ((box[0] + box[2]) // 2 - nx) * sx + ((box[1] + box[3]) // 2 - ny) * sy
    returned = end.returned or (end.then is not None and then is None and nd == end.then)
    ends[Point(tile, open_slot)] = _End(nx, ny, nd, drift, then, end.owner, tile.is_double, shift, returned)
    if is_spinner:
        box = shape[0]
        _open_branches(grid, tile, (box[0] + box[2]) // 2, (box[1] + box[3]) // 2, end.d, ends)
    other = tile[1] if value == tile[0] else tile[0]
    axis = shape[2]
    first, second = (value, other) if axis[0] + axis[1] > 0 else (other, value)
    return shape[0], shape[1], first, second


def _open_points(ends: dict[Point, _End], spinner: Tile | None) -> list[Point]:
    """The ends that are open connection points, sorted like ``Layout.open_points``.

    The spinner's branches only open once both its lines are taken.
    """
    closed: set[Slot] = set()
    if spinner is not None and (Point(spinner, Slot.LINE_A) in ends or Point(spinner, Slot.LINE_B) in ends):
        closed = {Slot.BRANCH_A, Slot.BRANCH_B}
    points = [p for p in ends if not (p.tile == spinner and p.slot in closed)]
    return sorted(points, key=lambda p: (p.tile, p.slot.value))


def _target_boxes(grid: Grid, end: _End, on_spinner: bool) -> list[Box]:
    """Where the target of ``end`` may go, best first: each way a plain tile could lie there next
    (straight on only on the spinner), then the half square next to the end."""
    boxes = [_shape(end, kind, t, False)[0] for kind, t, _, _ in _plans_for(end.d, end.drift, end.then, grid.wide,
                                                                             False, False)
             if kind == _STRAIGHT or not on_spinner]
    return [*boxes, unit_box(end.x, end.y, end.d, 2, 1)]


def _place_targets(grid: Grid, ends: dict[Point, _End], points: list[Point], spinner: Tile | None
                   ) -> list[TargetBox] | Point:
    """A tap target per open point: where a plain tile would go next, or at least a half square.

    Each point takes its first box that is free; when that leaves a later point without room,
    the boxes are searched (a target may give way to its neighbour's). When a point has room for
    none of its boxes (or the search finds no way for all), that point."""
    options = [(point, _target_boxes(grid, ends[point], point.tile == spinner)) for point in points]
    for point, boxes in options:
        if not any(grid.free(box, None) for box in boxes):
            return point
    state = grid.snapshot()
    chosen: list[Box] = []

    def place(i: int) -> bool:
        if i == len(options):
            return True
        for box in options[i][1]:
            if grid.free(box, None):
                before = grid.snapshot()
                grid.fill(box)
                chosen.append(box)
                if place(i + 1):
                    return True
                chosen.pop()
                grid.restore(before)
        return False

    if not place(0):
        grid.restore(state)
        return options[-1][0]
    return [(point, point_value(point), box, (ends[point].x, ends[point].y), ends[point].d)
            for (point, _), box in zip(options, chosen)]


def _leading_to_spinner(placements: tuple[Placement, ...], spinner: Tile | None) -> frozenset[Tile]:
    """The few tiles just before the spinner on its arm, when the spinner is not the opening."""
    parent = {p.tile: p.at.tile for p in placements if p.at is not None}
    chain: list[Tile] = []
    current = parent.get(spinner) if spinner is not None else None
    while current is not None and len(chain) < _SPINNER_LOOKBACK:
        chain.append(current)
        current = parent.get(current)
    return frozenset(chain)


_OPENED = (Slot.LOW, Slot.HIGH, Slot.LINE_B, Slot.BRANCH_A, Slot.BRANCH_B)
"""The slots a newly laid tile may open (all but the joined one), to take back when the search backs out."""


@cache
def _opened_points(tile: Tile) -> tuple[Point, ...]:
    """The points of ``tile`` that laying it may open."""
    return tuple(Point(tile, slot) for slot in _OPENED)


class _OutOfTries(Exception):
    """The search used its budget without finding a layout."""


_NEAR = 5
"""How far (in units) around a blocked end the tiles that may have blocked it are looked for."""


class _Search:
    """One depth-first search for a layout of ``placements`` on ``grid``, with conflict-directed backjumping.

    A tile that finds no room blames its parent (which fixed where its end is) and the tiles
    laid near its end; the search backs up straight to the latest of those, skipping the
    choices in between that cannot have helped.
    """

    def __init__(self, placements: tuple[Placement, ...], spinner: Tile | None, grid: Grid, budget: int,
                 prefer: Sequence[Box], spinner_vertical: bool | None = None) -> None:
        self.placements = placements
        self.spinner_vertical = spinner_vertical
        self.prefer = prefer
        self.spinner = spinner
        self.grid = grid
        self.tries = budget
        self.ends: dict[Point, _End] = {}
        self.tiles: list[TileBox] = []
        self.targets: list[TargetBox] = []
        self.before_spinner = _leading_to_spinner(placements, spinner)
        self.order = {p.tile: i for i, p in enumerate(placements)}
        self.boxes: list[Box] = []
        """The laid tiles' boxes, by placing index."""
        self.steps = [
            (p.tile, p.at, p.tile == spinner, p.tile.is_double, p.tile in self.before_spinner,
             point_value(p.at) if p.at is not None else -1, _opened_points(p.tile))
            for p in placements
        ]
        """For each placement: tile, point, is spinner, is double, delay, joined value, points it may open."""

    def _blame(self, end: _End, owner: Tile) -> set[int]:
        """The laid placements that may be why ``end`` (on ``owner``) lacks room."""
        x0, y0, x1, y1 = end.x - _NEAR, end.y - _NEAR, end.x + _NEAR, end.y + _NEAR
        found = {self.order[owner]}
        for index, box in enumerate(self.boxes):
            if box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]:
                found.add(index)
        return found

    def run(self, index: int) -> set[int] | None:
        """Lay placements ``index`` onwards and the targets: None when everything fits, else the
        placements to blame."""
        grid = self.grid
        if index == len(self.placements):
            return self._targets()
        tile, at, is_spinner, double, delay, value, opened = self.steps[index]
        assert at is not None
        end = self.ends.get(at)
        if end is None:
            raise ValueError(f"{at} is not an open end of the layout")
        conflict: set[int] = set()
        ends = self.ends
        choices = _choices(grid, end, double, is_spinner, delay)
        if is_spinner and self.spinner_vertical is not None:
            choices = [c for c in choices if c[0][1] == self.spinner_vertical]
        if index < len(self.prefer):
            wanted = self.prefer[index]
            choices.sort(key=lambda choice: choice[0][0] != wanted)
        for choice in choices:
            self.tries -= 1
            if self.tries < 0:
                raise _OutOfTries
            state = grid.snapshot()
            del ends[at]
            placed = _lay(grid, tile, value, end, choice, is_spinner, ends)
            self.tiles.append((index, tile, *placed, is_spinner))
            self.boxes.append(placed[0])
            failed = self.run(index + 1)
            if failed is None:
                return None
            self.tiles.pop()
            self.boxes.pop()
            grid.restore(state)
            for point in opened:
                ends.pop(point, None)
            ends[at] = end
            if index not in failed:
                return failed
            conflict |= failed - {index}
        return conflict | self._blame(end, at.tile)

    def _targets(self) -> set[int] | None:
        """Place the tap targets; None when they fit, else the placements to blame."""
        grid = self.grid
        state = grid.snapshot()
        points = _open_points(self.ends, self.spinner)
        targets = _place_targets(grid, self.ends, points, self.spinner)
        if not isinstance(targets, Point):
            self.targets = targets
            return None
        grid.restore(state)
        return self._blame(self.ends[targets], targets.tile)


def attempt(placements: tuple[Placement, ...], spinner: Tile | None, grid: Grid, opening_at: tuple[int, int],
            budget: int, prefer: Sequence[Box] = (), spinner_vertical: bool | None = None) -> tuple[Attempt | None, int]:
    """Lay out every placement at the grid's tile size, the opening tile centred at ``opening_at``.

    ``prefer`` gives boxes to try first for the first placements (where an earlier layout of
    the same round put them), so that a board keeps its arrangement as it grows; ``spinner_vertical``
    the spinner's direction when it must keep the one it had. Returns the
    layout, None if nothing was found within ``budget`` tries (one try: one way to lay one
    tile), and the tries used.
    """
    if grid.wu < 6 or grid.hu < 6 or not placements:
        return None, 0
    cx, cy = opening_at
    if not (3 <= cx <= grid.wu - 3 and 3 <= cy <= grid.hu - 3):
        return None, 0
    search = _Search(placements, spinner, grid, budget, prefer, spinner_vertical)
    tile = placements[0].tile
    opening = _place_opening(grid, tile, opening_at, search.ends)
    search.tiles.append((0, tile, *opening, tile == spinner))
    search.boxes.append(opening[0])
    try:
        failed = search.run(1)
    except _OutOfTries:
        return None, budget
    used = budget - search.tries
    if failed is not None:
        return None, used
    return Attempt(grid, search.tiles, search.targets, opening_at, dict(search.ends)), used
