"""Tap zones: the whole board split among its open connection points, each taking the part nearest to it.

Pure arithmetic, no pygame. A point's distance is measured to its tap target (where the next tile
would go, ``OpenTarget.rect``), so a target always lies inside its own zone. The board is cut into
cells of a few pixels (plus every target edge, so targets are exact), each cell goes to the target
nearest its centre, and the cells are merged back into rectangles. A zone is then one or more
disjoint rectangles: ``TapZone.rects``, the first of which (``core``) is the largest rectangle grown
from the target's joining half square, the size a finger can count on.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from engine import Point
from kiosk.ui.board.geometry import BoardGeometry, OpenTarget, Rect

CELLS_ACROSS = 30
"""The board's short side is cut into about this many cells (at least 6 px each)."""


@dataclass(frozen=True, slots=True)
class TapZone:
    """The part of the board nearest to one open point."""

    point: Point
    rects: tuple[Rect, ...]
    """Disjoint rectangles covering the zone; ``rects[0]`` is the core."""

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
    for k, target in enumerate(targets):
        core = _grow(owner, k, _cell_span(xs, ys, _join_square(target)))
        rects = [_span_rect(xs, ys, core), *_merge(owner, k, xs, ys, core)]
        zones.append(TapZone(target.point, tuple(rects)))
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


def _grow(owner: list[list[int]], k: int, span: Span) -> Span:
    """Grow ``span`` one row or column at a time while every new cell belongs to ``k``.

    The shorter side grows first, so the result is as square as the zone allows.
    """
    rows, cols = len(owner), len(owner[0])
    c0, r0, c1, r1 = span
    while True:
        tall = r1 - r0 >= c1 - c0
        moves = ((-1, 0), (1, 0), (0, -1), (0, 1)) if tall else ((0, -1), (0, 1), (-1, 0), (1, 0))
        for dc, dr in moves:
            if dc < 0 and c0 > 0 and all(owner[r][c0 - 1] == k for r in range(r0, r1)):
                c0 -= 1
            elif dc > 0 and c1 < cols and all(owner[r][c1] == k for r in range(r0, r1)):
                c1 += 1
            elif dr < 0 and r0 > 0 and all(v == k for v in owner[r0 - 1][c0:c1]):
                r0 -= 1
            elif dr > 0 and r1 < rows and all(v == k for v in owner[r1][c0:c1]):
                r1 += 1
            else:
                continue
            break
        else:
            return c0, r0, c1, r1


def _merge(owner: list[list[int]], k: int, xs: list[int], ys: list[int], core: Span) -> list[Rect]:
    """The cells of zone ``k`` outside ``core`` as few rectangles: runs along each row, stacked
    where consecutive rows have the same run."""
    c0, r0, c1, r1 = core
    open_runs: dict[tuple[int, int], int] = {}
    done: list[tuple[int, int, int, int]] = []
    for r, row in enumerate(owner):
        runs: list[tuple[int, int]] = []
        c = 0
        while c < len(row):
            if row[c] == k and not (r0 <= r < r1 and c0 <= c < c1):
                start = c
                while c < len(row) and row[c] == k and not (r0 <= r < r1 and c0 <= c < c1):
                    c += 1
                runs.append((start, c))
            else:
                c += 1
        for run in list(open_runs):
            if run not in runs:
                done.append((run[0], open_runs.pop(run), run[1], r))
        for run in runs:
            open_runs.setdefault(run, r)
    done += [(a, top, b, len(owner)) for (a, b), top in open_runs.items()]
    return [_span_rect(xs, ys, s) for s in done]
