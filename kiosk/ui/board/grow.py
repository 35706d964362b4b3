"""A board that keeps its tiles: the next placement added to the board before it (``kiosk.ui.board.lay``).

Every tile already laid keeps its place and direction. The new tile takes the first way its arm
prefers that leaves every open end room for what may come next there (a plain tile; the double
of that value, across, with room beyond it; the spinner's branches; first, where it can, room for
every end's next tile to leave the same, a look ahead of one more tile), and that does not turn its
arm into a pocket (back towards its own rows, or onto a row with no room to run). When no way does, the board
is *rescaled*: the same arrangement on a grid of smaller units (more of them fit the area), moved
as a whole so that it sits in the middle of the larger grid or leans away from the end that needs
room. See docs/board-layout.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from engine import Placement, Point, Tile
from kiosk.ui.board.grid import ARMS, Box, Grid, ccw, cw, overlap, unit_box
from kiosk.ui.board.lay import (
    _STRAIGHT,
    Attempt,
    Choice,
    TargetBox,
    TileBox,
    _choices,
    _End,
    _lay,
    _open_points,
    _place_targets,
    _plans_for,
    _shape,
    double_boxes,
    point_value,
)

TRIES = ((3, "here"), (3, "pan"), (2, "here"), (2, "pan"), (1, "here"), (1, "pan"), (3, "rescale"),
         (0, "here"), (0, "pan"), (2, "rescale"), (1, "rescale"), (0, "rescale"),
         (-1, "here"), (-1, "pan"), (-1, "rescale"), (-2, "here"), (-2, "pan"), (-2, "rescale"))
"""The order of tries: the level of room (``_room``) the new tile must leave, and where the board
is: where it was, moved as a whole at its size (a pan), or rescaled. Levels 2, 1 and 0 ask it of
every open end; level 3 is level 2 and a look ahead: every open end can then take its next tile
(a plain one, and the double of its value while that is to come) so that every end keeps room
for a plain tile (``_next_fits``); -1 keeps level 0 for the ends there were and asks nothing of
the new tile's own; -2 asks nothing (only the tap targets must fit)."""

SHORT = 3
"""Room given up in a row (``Attempt.short``: the placements since the last at level 3, each
counting 3 less its level) after which the board tries ``AFTER_SHORT``."""
AFTER_SHORT = ((3, "here"), (3, "pan"), (3, "rescale"), *(t for t in TRIES if t[0] < 3))
"""The order of tries once ``SHORT`` is reached: the look ahead rescaled comes before levels 2 and
1 where the board is, so that a board does not go on giving up room (placements that did so two or
three times in a row walled ends in a few tiles later)."""

INNER = 1
"""The level the look ahead's next tile must leave every end (``_next_fits``): room for a plain
tile and for the double of its value (at 0, the double was left without room a tile later)."""
MARGIN = 4
"""At most this many units on every side that the look ahead counts on from a rescale to come."""

_PLAIN = tuple(tuple(Tile(min(v, o), max(v, o)) for o in range(7) if o != v) for v in range(7))
"""For each value, the plain tiles that carry it: the look ahead's plain tile is one still to come
(every plain tile lies the same way)."""


def _plain_room(grid: Grid, end: _End, straight: bool) -> bool:
    """True if a plain tile can lie at ``end`` (only straight on if ``straight``) with room for the
    half square of the next target beyond it."""
    free = grid.free
    for kind, t, _, _ in _plans_for(end.d, end.drift, end.then, grid.wide, False, False):
        if straight and kind != _STRAIGHT:
            continue
        box, _, _, nx, ny, nd = _shape(end, kind, t, False)
        if free(box, None) and free(unit_box(nx, ny, nd, 2, 1), None):
            return True
    return False


def _room(grid: Grid, point: Point, end: _End, placed: frozenset[Tile], spinner: Tile | None, level: int) -> bool:
    """True if the open end ``end`` (of ``point``) has room for what may be played on it next.

    Level 0: a plain tile (straight on from the spinner, else straight or turned). Level 1: also
    the double of its value, if that double is still to come, across the line. Level 2: also a
    plain tile's room after that double, and when it would be the spinner, on both its branches.
    """
    if level < 0:
        return True
    free = grid.free
    x, y, d = end.x, end.y, end.d
    if not _plain_room(grid, end, point.tile == spinner):
        return False
    value = point_value(point)
    if level < 1 or Tile(value, value) in placed:
        return True
    dx, dy = d
    plans = _plans_for(d, end.drift, end.then, grid.wide, False, False)
    for double, shift in zip(double_boxes(x, y, d), (0, 1, -1), strict=True):
        after = _End(x + 2 * dx, y + 2 * dy, d, end.drift, end.then, end.owner, True, shift)
        if not free(double, None) or not free(unit_box(x + 2 * dx, y + 2 * dy, d, 2, 1), None):
            continue
        if level < 2:
            return True
        if not any(free(box, None) and not overlap(box, double)
                   for box in (_shape(after, kind, t, False)[0] for kind, t, _, _ in plans)):
            continue
        if spinner is not None:
            return True
        mx, my = (double[0] + double[2]) // 2, (double[1] + double[3]) // 2
        if all(free(unit_box(mx + 2 * b[0], my + 2 * b[1], b, 4, 1), None) for b in (ccw(d), cw(d))):
            return True
    return False


def _room_among(grid: Grid, point: Point, ends: dict[Point, _End], placed: frozenset[Tile],
                spinner: Tile | None, level: int) -> bool:
    """``_room`` of ``point`` with the half square in front of every other open end taken (their
    targets need it: two ends may not count on the same room)."""
    if level < 0:
        return True
    state = grid.snapshot()
    fill_half_squares(grid, (end for other, end in ends.items() if other != point))
    found = _room(grid, point, ends[point], placed, spinner, level)
    grid.restore(state)
    return found


def fill_half_squares(grid: Grid, ends: Iterable[_End]) -> None:
    """Mark the half square in front of each of ``ends`` solid on ``grid`` (where it lies on the grid):
    the least room each end's tap target needs."""
    for end in ends:
        x0, y0, x1, y1 = unit_box(end.x, end.y, end.d, 2, 1)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, grid.wu), min(y1, grid.hu)
        if x0 < x1 and y0 < y1:
            grid.fill((x0, y0, x1, y1))


def _padded(grid: Grid, margin: int) -> Grid:
    """``grid``'s tiles and corridors on a grid ``margin`` units larger on every side (what a rescale may give)."""
    big = Grid(0, 0, grid.long_side)
    big.wu, big.hu, big.wide = grid.wu + 2 * margin, grid.hu + 2 * margin, grid.wide
    big.solid = [0] * big.hu
    big.corridors = [[0] * big.hu for _ in range(ARMS)]
    for x0, y0, x1, y1 in grid.boxes:
        big.fill((x0 + margin, y0 + margin, x1 + margin, y1 + margin))
    for hx, hy, d, owner in grid.reserved:
        big.reserve(hx + margin, hy + margin, d, owner)
    return big


def _next_fits(grid: Grid, ends: dict[Point, _End], placed: frozenset[Tile], spinner: Tile | None,
               margin: int) -> bool:
    """True if every open end can take its next tile, leaving every end room for a plain tile and its
    double after it (``_add`` at level ``INNER``): a plain tile still to come, and the double of its
    value while that is to come; where the board is, or with ``margin`` units more on every side (a
    rescale to come)."""
    big: tuple[Grid, dict[Point, _End]] | None = None
    for point in _open_points(ends, spinner):
        value = point_value(point)
        plain = next((t for t in _PLAIN[value] if t not in placed), None)
        for tile in (plain, Tile(value, value)):
            if tile is None or tile in placed:
                continue
            would_spin = spinner or (tile if tile.is_double else None)
            state = grid.snapshot()
            fits = _add(grid, [], ends, Placement(tile, point, None), 0, would_spin, placed, INNER) is not None
            grid.restore(state)
            if fits:
                continue
            if margin <= 0:
                return False
            if big is None:
                big = _padded(grid, margin), {p: _shifted(e, margin, margin) for p, e in ends.items()}
            state = big[0].snapshot()
            fits = _add(big[0], [], big[1], Placement(tile, point, None), 0, would_spin, placed, INNER) is not None
            big[0].restore(state)
            if not fits:
                return False
    return True


def _moved(found: Attempt, grid: Grid, dx: int, dy: int) -> tuple[list[TileBox], dict[Point, _End]] | None:
    """``found``'s tiles and ends moved by (dx, dy) onto ``grid`` (filled, corridors laid again);
    None if a tile would leave the grid."""
    tiles: list[TileBox] = []
    for index, tile, (x0, y0, x1, y1), vertical, first, second, spinner in found.tiles:
        box: Box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        if not grid.free(box, None):
            return None
        grid.fill(box)
        tiles.append((index, tile, box, vertical, first, second, spinner))
    for hx, hy, d, owner in found.grid.reserved:
        grid.reserve(hx + dx, hy + dy, d, owner)
    ends = {p: _shifted(e, dx, dy) for p, e in found.ends.items()}
    return tiles, ends


def _shifted(end: _End, dx: int, dy: int) -> _End:
    """``end`` (and its link) moved by (dx, dy)."""
    link = None if end.link is None else (end.link[0] + dx, end.link[1] + dy)
    return replace(end, x=end.x + dx, y=end.y + dy, link=link)


def links_after(found: Attempt, dx: int, dy: int, end: _End | None = None, index: int = 0
                 ) -> dict[int, tuple[int, int, int, int]]:
    """``found``'s links moved by (dx, dy), and the link of tile ``index`` when it was laid at ``end``
    (already moved) and that end was moved away from its arm."""
    links = {i: (a + dx, b + dy, c + dx, d + dy) for i, (a, b, c, d) in found.links.items()}
    if end is not None and end.link is not None:
        links[index] = (*end.link, end.x, end.y)
    return links


def _offsets(found: Attempt, grid: Grid, toward: tuple[int, int]) -> Iterator[tuple[int, int]]:
    """Where to move ``found`` on the larger ``grid``: centred, then leaning away from ``toward``
    (the way the end that needs room grows), half and then all of the spare room."""
    boxes = [t[2] for t in found.tiles]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    spare_x, spare_y = grid.wu - (x1 - x0), grid.hu - (y1 - y0)
    if spare_x < 0 or spare_y < 0:
        return
    seen: set[tuple[int, int]] = set()
    for share in (0.5, 0.25, 0.0):
        fx = 0.5 if toward[0] == 0 else (share if toward[0] > 0 else 1 - share)
        fy = 0.5 if toward[1] == 0 else (share if toward[1] > 0 else 1 - share)
        offset = (round(spare_x * fx) - x0, round(spare_y * fy) - y0)
        if offset not in seen:
            seen.add(offset)
            yield offset


RETURN = 8
"""Units a turn-back's second corner needs free straight on past the turned tile (two tiles' length)."""
SPINNER_GAP = 5
"""Units a turn-back's second corner needs free between its far half and the row before while no
double is down: room for the branch of a spinner laid on the new row (a tile and a target's half)."""


def _into_pocket(grid: Grid, end: _End, choice: Choice, no_double: bool) -> bool:
    """True if ``choice`` turns an arm into a pocket: against its drift once it has turned back onto a
    row (back between its own rows), or onto a row (a turn-back's second corner) with less than
    ``RETURN`` units free straight on, or, while no double is down (``no_double``), less than
    ``SPINNER_GAP`` units from the row before."""
    _, _, _, nx, ny, nd = choice[0]
    drift, then = end.drift, end.then
    if drift is None:
        return False
    back = (-drift[0], -drift[1])
    if nd != end.d and nd == back and end.returned:
        return True
    if nd != then:
        return False
    if not grid.free(unit_box(nx, ny, nd, RETURN, 1), None):
        return True
    return no_double and not grid.free(unit_box(nx - nd[0] + back[0], ny - nd[1] + back[1], back, SPINNER_GAP, 1), None)


def _add(grid: Grid, tiles: list[TileBox], ends: dict[Point, _End], placement: Placement, index: int,
         spinner: Tile | None, placed: frozenset[Tile], level: int, margin: int = 0
         ) -> tuple[list[TileBox], list[TargetBox], dict[Point, _End]] | None:
    """Lay ``placement`` on ``grid`` (which holds ``tiles``) keeping every other end's room at
    ``level`` (``_room``) and giving the new ends that room, at level 0 and above never into a pocket
    (``_into_pocket``); None if no way of laying it does."""
    at = placement.at
    assert at is not None
    end = ends.get(at)
    if end is None:
        raise ValueError(f"{at} is not an open end of the layout")
    tile = placement.tile
    is_spinner = tile == spinner
    spinner_before = spinner if spinner in placed else None
    kept_level = max(level, 0) if level > -2 else -1
    kept = [p for p in ends if p != at and _room_among(grid, p, ends, placed, spinner_before, kept_level)]
    after = placed | {tile}
    value = point_value(at)
    for choice in _choices(grid, end, tile.is_double, is_spinner, False):
        if level >= 0 and _into_pocket(grid, end, choice, spinner is None):
            continue
        state = grid.snapshot()
        new_ends = dict(ends)
        del new_ends[at]
        laid = _lay(grid, tile, value, end, choice, is_spinner, new_ends)
        fresh = [p for p in new_ends if p not in ends]
        if all(_room_among(grid, p, new_ends, after, spinner, kept_level) for p in kept) and all(
                _room_among(grid, p, new_ends, after, spinner, level) for p in fresh) and (
                level < 3 or _next_fits(grid, new_ends, after, spinner, margin)):
            targets = _place_targets(grid, new_ends, _open_points(new_ends, spinner), spinner)
            if not isinstance(targets, Point):
                return [*tiles, (index, tile, *laid, is_spinner)], targets, new_ends
        grid.restore(state)
    return None


def grow(before: Attempt, placements: tuple[Placement, ...], spinner: Tile | None, w: int, h: int,
         sizes: Sequence[int]) -> Attempt | None:
    """The board of ``placements`` made from ``before`` (the board of all of them but the last), its
    tiles kept: at ``before``'s size where it was, else at each of ``sizes`` (smaller, largest first)
    with the arrangement moved as a whole. None if the last tile fits at none of them."""
    placement = placements[-1]
    placed = frozenset(p.tile for p in placements[:-1])
    at = placement.at
    if at is None or at not in before.ends:
        return None
    toward = before.ends[at].d
    here = before.grid.long_side
    least = Grid(w, h, min(sizes)).hu if sizes else 0

    def margin(size: int) -> int:  # the room a later rescale may still give, in units on every side
        return max(0, min(MARGIN, (least - Grid(w, h, size).hu) // 2))

    for level, way in TRIES if before.short < SHORT else AFTER_SHORT:
        for size in (here,) if way != "rescale" else sizes:
            offsets = [(0, 0)] if way == "here" else [
                o for o in _offsets(before, Grid(w, h, size), toward) if way == "rescale" or o != (0, 0)]
            for dx, dy in offsets:
                grid = Grid(w, h, size)
                moved = _moved(before, grid, dx, dy)
                if moved is None:
                    continue
                tiles, ends = moved
                added = _add(grid, tiles, ends, placement, len(placements) - 1, spinner, placed, level, margin(size))
                if added is not None:
                    ox, oy = before.origin
                    return Attempt(grid, added[0], added[1], (ox + dx, oy + dy), added[2],
                                   links=links_after(before, dx, dy, ends[at], len(placements) - 1),
                                   short=0 if level >= 3 else before.short + 3 - level)
    return None


def centred(found: Attempt) -> Attempt:
    """``found`` moved as a whole (by whole units) so that its tiles and targets sit in the middle of its grid."""
    boxes = [t[2] for t in found.tiles] + [t[2] for t in found.targets]
    if not boxes:
        return found
    old = found.grid
    dx = (old.wu - max(b[2] for b in boxes) - min(b[0] for b in boxes)) // 2
    dy = (old.hu - max(b[3] for b in boxes) - min(b[1] for b in boxes)) // 2
    if dx == dy == 0:
        return found
    grid = old.blank()
    moved = _moved(found, grid, dx, dy)
    assert moved is not None
    tiles, ends = moved
    targets: list[TargetBox] = []
    for point, value, (x0, y0, x1, y1), (ax, ay), d in found.targets:
        box: Box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        grid.fill(box)
        targets.append((point, value, box, (ax + dx, ay + dy), d))
    ox, oy = found.origin
    return Attempt(grid, tiles, targets, (ox + dx, oy + dy), ends, links=links_after(found, dx, dy), short=found.short)
