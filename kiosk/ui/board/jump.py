"""An end that the board's own tiles wall in (``kiosk.ui.board.grow`` finds no way that keeps room):
its next tile, or its tap target, goes into the nearest free room, and a link is drawn from where the
arm ends to there. No tile that is down moves. See docs/board-layout.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from engine import Placement, Point, Tile
from kiosk.ui.board.grid import Grid, ccw, cw, neg, unit_box
from kiosk.ui.board.grow import SHORT, _add, _moved, _offsets, fill_half_squares, links_after
from kiosk.ui.board.lay import (
    Attempt,
    TargetBox,
    TileBox,
    _choices,
    _End,
    _lay,
    _open_points,
    _place_targets,
    _target_boxes,
    point_value,
)

JUMP_LEVELS = (1, 0, -1, -2)
"""The levels of room (``_room``) a tile laid at a moved end tries, the most first."""
JUMP_ROOM = ((8, 2), (6, 1), (2, 1))
"""The free room straight on that a moved end asks for, the most first: (units along, half width)."""
JUMP_TRIES = 12
"""Places a walled-in end tries (``_moved_ends``), nearest first."""
JUMP_APART = 3
"""Units (across and down) between the places a walled-in end tries."""
JUMP_DEPTH = 2
"""How many walled-in ends one placement may move."""
JUMP_BUDGET = 600
"""Placements tried (``_add`` at one level) for one walled-in board, at all sizes together: about
half a second on a Pi at most, once in hundreds of rounds."""


def _link_clear(grid: Grid, x0: int, y0: int, x1: int, y1: int) -> bool:
    """True if the straight link from (x0, y0) to (x1, y1) crosses no tile (beyond half a unit from its ends)."""
    length = max(abs(x1 - x0), abs(y1 - y0))
    steps = 4 * length
    solid = grid.solid
    for k in range(2, steps - 1):
        px, py = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        for cx in {int(px - 0.01), int(px + 0.01)}:
            for cy in {int(py - 0.01), int(py + 0.01)}:
                if 0 <= cy < grid.hu and 0 <= cx < grid.wu and solid[cy] >> cx & 1:
                    return False
    return True


def _moved_ends(grid: Grid, end: _End, others: Iterable[_End], tile: Tile | None, is_spinner: bool
                ) -> Iterator[_End]:
    """Ends for the arm of ``end`` in free room, nearest first, linked back to ``end`` (whose arm the
    board's own tiles walled in): a link that crosses no tile first, then room straight on
    (``JUMP_ROOM``) clear of the half square in front of each of the ``others``; for ``tile``, only
    where it has a way to lie. Each at least ``JUMP_APART`` units from those before it."""
    origin = end.link or (end.x, end.y)
    spots = sorted(
        ((x - origin[0]) ** 2 + (y - origin[1]) ** 2, d != end.d, x, y, d)
        for y in range(1, grid.hu) for x in range(1, grid.wu) for d in (end.d, cw(end.d), ccw(end.d), neg(end.d))
        if (x, y) != origin)
    room = grid.blank()
    room.solid = list(grid.solid)
    fill_half_squares(room, others)
    tried: list[tuple[int, int]] = []
    for clear in (True, False):
        for along, half in JUMP_ROOM:
            for _, _, x, y, d in spots:
                if any(abs(x - tx) < JUMP_APART and abs(y - ty) < JUMP_APART for tx, ty in tried):
                    continue
                if not room.free(unit_box(x, y, d, along, half), None):
                    continue
                if clear and not _link_clear(grid, *origin, x, y):
                    continue
                moved = _End(x, y, d, None, None, end.owner, link=origin)
                if tile is None or _choices(grid, moved, tile.is_double, is_spinner, False):
                    tried.append((x, y))
                    yield moved


def _walled(grid: Grid, ends: dict[Point, _End], placement: Placement, spinner: Tile | None) -> list[Point]:
    """The open ends that wall the board in for ``placement``, the likeliest first: the end it is
    played on when the tile has no way to lie there; else, with the tile laid, an end that has no room
    for its tap target, or each end without which every other end's target fits (the end played on
    for the tile's own new ends)."""
    at = placement.at
    assert at is not None
    tile = placement.tile
    choices = _choices(grid, ends[at], tile.is_double, tile == spinner, False)
    if not choices:
        return [at]
    state = grid.snapshot()
    new_ends = dict(ends)
    del new_ends[at]
    _lay(grid, tile, point_value(at), ends[at], choices[0], tile == spinner, new_ends)
    points = _open_points(new_ends, spinner)
    found: list[Point] = []
    for point in points:
        if not any(grid.free(box, None) for box in _target_boxes(grid, new_ends[point], point.tile == spinner)):
            found.append(point)
    if not found:
        for point in points:
            before = grid.snapshot()
            if not isinstance(_place_targets(grid, new_ends, [p for p in points if p != point], spinner), Point):
                found.append(point)
            grid.restore(before)
    grid.restore(state)
    walled = [p for p in found if p in ends] + [at] * any(p not in ends for p in found)
    return list(dict.fromkeys(walled))


def _with_moved_ends(grid: Grid, tiles: list[TileBox], ends: dict[Point, _End], placement: Placement,
                     index: int, spinner: Tile | None, placed: frozenset[Tile], moved: frozenset[Point],
                     left: list[int]
                     ) -> tuple[tuple[list[TileBox], list[TargetBox], dict[Point, _End]], dict[Point, _End]] | None:
    """``placement`` added (``_add`` at the first of ``JUMP_LEVELS`` that fits) with the ends that wall
    it in moved into free room (``_moved_ends``), each at most once; the result and the ends it used."""
    for level in JUMP_LEVELS:
        left[0] -= 1
        if left[0] < 0:
            return None
        added = _add(grid, tiles, ends, placement, index, spinner, placed, level)
        if added is not None:
            return added, ends
    if len(moved) >= JUMP_DEPTH:
        return None
    for walled in _walled(grid, ends, placement, spinner):
        if walled in moved:
            continue
        tile = placement.tile if walled == placement.at else None
        others = [e for p, e in ends.items() if p != walled]
        for tries, new_end in enumerate(_moved_ends(grid, ends[walled], others, tile, placement.tile == spinner)):
            if tries == JUMP_TRIES:
                break
            found = _with_moved_ends(grid, tiles, {**ends, walled: new_end}, placement, index, spinner, placed,
                                     moved | {walled}, left)
            if found is not None:
                return found
    return None


def jump(before: Attempt, placements: tuple[Placement, ...], spinner: Tile | None, w: int, h: int,
         sizes: Sequence[int]) -> Attempt | None:
    """The board of ``placements`` when its tiles wall in an end (no way of ``grow`` finds room): the
    walled-in ends moved into the nearest free room, linked back to where their arms end, every tile
    kept; at ``before``'s size, else rescaled. None if even that finds no room."""
    placement = placements[-1]
    placed = frozenset(p.tile for p in placements[:-1])
    at = placement.at
    if at is None or at not in before.ends:
        return None
    index = len(placements) - 1
    here = before.grid.long_side
    left = [JUMP_BUDGET]
    for size in (here, *sizes):
        offsets = [(0, 0)] if size == here else list(_offsets(before, Grid(w, h, size), before.ends[at].d))
        for dx, dy in offsets:
            grid = Grid(w, h, size)
            moved = _moved(before, grid, dx, dy)
            if moved is None:
                continue
            found = _with_moved_ends(grid, *moved, placement, index, spinner, placed, frozenset(), left)
            if found is not None:
                (tiles, targets, ends), used = found
                ox, oy = before.origin
                return Attempt(grid, tiles, targets, (ox + dx, oy + dy), ends,
                               links=links_after(before, dx, dy, used[at], index), short=SHORT)
    return None
