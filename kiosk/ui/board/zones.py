"""Tap zones: the whole board split among its open connection points, each taking the part nearest to it.

Pure arithmetic, no pygame. A point's distance is measured to its tap target (where the next tile
would go, ``OpenTarget.rect``), so a target always lies inside its own zone. The board is cut into
cells of a few pixels (plus every target edge, so targets are exact), each cell goes to the target
nearest its centre, and the cells are merged back into rectangles. A zone is then one or more
disjoint rectangles: ``TapZone.rects``, the first of which (``core``) is the largest rectangle grown
from the target's joining half square, the size a finger can count on.

Hotspots want rectangles a finger can hit, not the thin steps along a slanting border between
two zones: ``TapZone.hotspots`` covers the zone with rectangles at least ``MIN_SIDE`` px on their
short side (they may overlap each other, never another zone), plus the core whatever its size.
Only the parts of a zone thinner than that are left out.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby, pairwise

from engine import Point
from kiosk.ui.board.geometry import BoardGeometry, OpenTarget, Rect

CELLS_ACROSS = 30
"""The board's short side is cut into about this many cells (at least 6 px each)."""
MIN_SIDE = 48
"""The short side of a hotspot rectangle other than the core, in pixels (a fingertip)."""


@dataclass(frozen=True, slots=True)
class TapZone:
    """The part of the board nearest to one open point."""

    point: Point
    rects: tuple[Rect, ...]
    """Disjoint rectangles covering the zone; ``rects[0]`` is the core."""
    hotspots: tuple[Rect, ...]
    """Rectangles inside the zone for taps: the core, then rectangles at least ``MIN_SIDE`` px
    on their short side that cover the rest of the zone wherever it is that wide (they may overlap)."""

    @property
    def core(self) -> Rect:
        """The largest rectangle grown from the target's joining half square inside the zone."""
        return self.rects[0]

    def contains(self, x: int, y: int) -> bool:
        """True if the pixel (x, y) is in the zone."""
        return any(rx <= x < rx + rw and ry <= y < ry + rh for rx, ry, rw, rh in self.rects)


def zone_at(zones: tuple[TapZone, ...], x: int, y: int) -> Point | None:
    """The open point whose zone holds the pixel (x, y), or None (outside the board)."""
    return next((z.point for z in zones if z.contains(x, y)), None)


@lru_cache(maxsize=16)
def tap_zones(geometry: BoardGeometry) -> tuple[TapZone, ...]:
    """Every open point's zone, in ``geometry.targets`` order (cached per geometry)."""
    targets = geometry.targets
    if not targets:
        return ()
    xs, ys = _cuts(geometry.area, targets)
    owner = _owners(targets, xs, ys)
    zones = []
    bounds = _bounds(owner, len(targets))
    for k, target in enumerate(targets):
        runs = _runs(owner, k, bounds[k])
        core = _grow(runs, xs, ys, _cell_span(xs, ys, _join_square(target)))
        rects = [_span_rect(xs, ys, core), *_merge(owner, k, xs, ys, core, bounds[k])]
        spots = [_span_rect(xs, ys, s) for s in _finger_spans(owner, k, runs, xs, ys, core, bounds[k])]
        zones.append(TapZone(target.point, tuple(rects), tuple(spots)))
    return tuple(zones)


Span = tuple[int, int, int, int]
"""Cell indices: first column, first row, column past the end, row past the end."""


def _cuts(area: Rect, targets: tuple[OpenTarget, ...]) -> tuple[list[int], list[int]]:
    """The cell edges across and down: a regular step plus every target's edges."""
    x, y, w, h = area
    step = max(6, min(w, h) // CELLS_ACROSS)
    xs = set(range(x, x + w, step)) | {x + w}
    ys = set(range(y, y + h, step)) | {y + h}
    for tx, ty, tw, th in (t.rect for t in targets):
        xs |= {min(max(tx, x), x + w), min(max(tx + tw, x), x + w)}
        ys |= {min(max(ty, y), y + h), min(max(ty + th, y), y + h)}
    return sorted(xs), sorted(ys)


def _owners(targets: tuple[OpenTarget, ...], xs: list[int], ys: list[int]) -> list[list[int]]:
    """For each cell (row by row), the index of the target nearest its centre (the first on a tie).

    The distance is to the target's rectangle, so a target's own cells are at distance 0.
    """
    across = [[_gap(a + (b - a) / 2, t.rect[0], t.rect[2]) for a, b in pairwise(xs)] for t in targets]
    down = [[_gap(a + (b - a) / 2, t.rect[1], t.rect[3]) for a, b in pairwise(ys)] for t in targets]
    owner: list[list[int]] = []
    for r in range(len(ys) - 1):
        best = [d + down[0][r] for d in across[0]]
        row = [0] * len(best)
        for k in range(1, len(targets)):
            dy = down[k][r]
            for c, d in enumerate(across[k]):
                if d + dy < best[c]:
                    best[c] = d + dy
                    row[c] = k
        owner.append(row)
    return owner


def _gap(v: float, start: int, length: int) -> float:
    """The squared distance from ``v`` to the interval [start, start + length]."""
    d = max(start - v, 0.0, v - start - length)
    return d * d


def _join_square(target: OpenTarget) -> Rect:
    """The half square of the target that touches the open end."""
    tx, ty, tw, th = target.rect
    side = min(tw, th)
    dx, dy = target.direction
    if dx > 0:
        return (tx, ty, side, th)
    if dx < 0:
        return (tx + tw - side, ty, side, th)
    if dy > 0:
        return (tx, ty, tw, side)
    return (tx, ty + th - side, tw, side)


def _cell_span(xs: list[int], ys: list[int], rect: Rect) -> Span:
    """The cells covering ``rect`` (whose edges are cuts, or inside the board)."""
    x, y, w, h = rect
    c0 = min(max(bisect_right(xs, x) - 1, 0), len(xs) - 2)
    r0 = min(max(bisect_right(ys, y) - 1, 0), len(ys) - 2)
    c1 = min(bisect_left(xs, x + w), len(xs) - 1)
    r1 = min(bisect_left(ys, y + h), len(ys) - 1)
    return c0, r0, max(c1, c0 + 1), max(r1, r0 + 1)


def _span_rect(xs: list[int], ys: list[int], span: Span) -> Rect:
    c0, r0, c1, r1 = span
    return (xs[c0], ys[r0], xs[c1] - xs[c0], ys[r1] - ys[r0])


Runs = tuple[list[list[int]], list[list[int]]]
"""For one zone, per cell: how many of its cells run rightwards from there, and downwards."""


def _runs(owner: list[list[int]], k: int, bounds: Span) -> Runs:
    """The zone ``k``'s runs of cells to the right and downwards from every cell (0 outside it)."""
    rows, cols = len(owner), len(owner[0])
    right = [[0] * (cols + 1) for _ in range(rows)]
    down = [[0] * cols for _ in range(rows + 1)]
    b0, top, b1, bottom = bounds
    for r in range(bottom - 1, top - 1, -1):
        row, here, below = owner[r], right[r], down[r + 1]
        mine = down[r]
        for c in range(b1 - 1, b0 - 1, -1):
            if row[c] == k:
                here[c] = here[c + 1] + 1
                mine[c] = below[c] + 1
    return right, down


def _grow(runs: Runs, xs: list[int], ys: list[int], span: Span) -> Span:
    """Grow ``span`` one row or column at a time while every new cell is in the zone of ``runs``.

    The shorter side grows first, so the result is as square as the zone allows.
    """
    right, down = runs
    rows, cols = len(right), len(down[0])
    c0, r0, c1, r1 = span
    while True:
        tall = ys[r1] - ys[r0] >= xs[c1] - xs[c0]
        if tall and c0 > 0 and down[r0][c0 - 1] >= r1 - r0:
            c0 -= 1
        elif tall and c1 < cols and down[r0][c1] >= r1 - r0:
            c1 += 1
        elif r0 > 0 and right[r0 - 1][c0] >= c1 - c0:
            r0 -= 1
        elif r1 < rows and right[r1][c0] >= c1 - c0:
            r1 += 1
        elif c0 > 0 and down[r0][c0 - 1] >= r1 - r0:
            c0 -= 1
        elif c1 < cols and down[r0][c1] >= r1 - r0:
            c1 += 1
        else:
            return c0, r0, c1, r1


def _bounds(owner: list[list[int]], count: int) -> list[Span]:
    """Each zone's bounding span of cells (zones are never empty: each holds its target)."""
    spans = [[len(owner[0]), len(owner), 0, 0] for _ in range(count)]
    for r, row in enumerate(owner):
        for k in set(row):
            span = spans[k]
            first, last = row.index(k), len(row) - row[::-1].index(k)
            span[0], span[1] = min(span[0], first), min(span[1], r)
            span[2], span[3] = max(span[2], last), r + 1
    return [(a, b, c, d) for a, b, c, d in spans]


def _finger_spans(owner: list[list[int]], k: int, runs: Runs, xs: list[int], ys: list[int], core: Span,
                  bounds: Span) -> list[Span]:
    """The core, then rectangles of zone ``k`` at least ``MIN_SIDE`` px a side grown from each cell
    not yet seen (in reading order). A rectangle that comes out thinner is dropped, and its cells
    are not tried again as seeds (they are covered only if a wide rectangle reaches them)."""
    spans = [core]
    seen = [[False] * len(row) for row in owner]
    _cover(seen, core)
    b0, top, b1, bottom = bounds
    for r in range(top, bottom):
        row, done = owner[r], seen[r]
        for c in range(b0, b1):
            if row[c] != k or done[c]:
                continue
            span = _grow(runs, xs, ys, (c, r, c + 1, r + 1))
            c0, r0, c1, r1 = span
            if min(xs[c1] - xs[c0], ys[r1] - ys[r0]) >= MIN_SIDE:
                spans.append(span)
            _cover(seen, span)
    return spans


def _cover(covered: list[list[bool]], span: Span) -> None:
    c0, r0, c1, r1 = span
    for r in range(r0, r1):
        covered[r][c0:c1] = [True] * (c1 - c0)


def _merge(owner: list[list[int]], k: int, xs: list[int], ys: list[int], core: Span, bounds: Span) -> list[Rect]:
    """The cells of zone ``k`` outside ``core`` as few rectangles: runs along each row, stacked
    where consecutive rows have the same run."""
    c0, r0, c1, r1 = core
    b0, top, b1, bottom = bounds
    open_runs: dict[tuple[int, int], int] = {}
    done: list[Span] = []
    for r in range(top, bottom):
        mask = [v == k for v in owner[r][b0:b1]]
        if r0 <= r < r1:
            mask[c0 - b0:c1 - b0] = [False] * (c1 - c0)
        runs: list[tuple[int, int]] = []
        c = b0
        for inside, group in groupby(mask):
            n = len(list(group))
            if inside:
                runs.append((c, c + n))
            c += n
        for run in [run for run in open_runs if run not in runs]:
            done.append((run[0], open_runs.pop(run), run[1], r))
        for run in runs:
            open_runs.setdefault(run, r)
    done += [(a, start, b, bottom) for (a, b), start in open_runs.items()]
    return [_span_rect(xs, ys, s) for s in done]
