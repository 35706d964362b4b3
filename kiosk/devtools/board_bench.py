"""``python -m kiosk.devtools.board_bench``: how large the board's tiles and tap zones are at the end of rounds.

Plays whole matches of uniformly random legal actions with the engine, keeps the final layout of
each round, lays it out in the board rectangle of the kiosk's screen (``kiosk.ui.regions``) and
prints the 5th percentile, median and smallest tile long side and tap-zone core short side
(``kiosk.ui.board.zones``), how much of the board the layout spans, and the time one layout and
its tap zones take (uncached).
Figures, not tests: docs/board-layout.md quotes them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import Layout, Match, Start, shuffle_deal
from kiosk.ui.board.geometry import BoardGeometry, Rect, layout_board_anew, layout_placements
from kiosk.ui.board.zones import tap_zones

LARGE = 18
"""Boards of at least this many tiles are also reported on their own."""


def end_of_round_boards(count: int, seed: int) -> list[Layout]:
    """The final layouts of ``count`` rounds from whole matches of uniformly random legal actions."""
    rng = random.Random(seed)
    boards: list[Layout] = []
    while len(boards) < count:
        match = Match()
        seen: dict[int, Layout] = {}
        while not match.is_over:
            action = rng.choice(match.legal_actions())
            if isinstance(action, Start):
                action = Start(None, shuffle_deal(rng))
            match.apply(action, 0)
            if len(match.layout):
                seen[id(match.layout)] = match.layout
        boards.extend(seen.values())
    return boards[:count]


@dataclass(frozen=True, slots=True)
class BoardFigures:
    """What one laid-out board measures."""

    tiles: int
    tile_long: int
    zone_shorts: tuple[int, ...]
    """The short side of each open point's tap-zone core."""
    span: tuple[float, float]
    """The width and height of the tiles' and targets' bounding box over the board's."""
    seconds: float
    zone_seconds: float


def measure(layout: Layout, area: Rect) -> tuple[BoardGeometry, BoardFigures]:
    """Lay ``layout`` out in ``area`` and measure it.

    The time is that of the last placement's step, as in play: the board before it is laid out
    first (each board grows from the one before, ``kiosk.ui.board.geometry``).
    """
    before = layout.placements[:-1]
    layout_placements(before, next((p.tile for p in before if p.tile.is_double), None), area)
    start = time.perf_counter()
    geometry = layout_placements(layout.placements, layout.spinner, area)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    zones = tap_zones.__wrapped__(geometry)
    zone_seconds = time.perf_counter() - start
    rects = [t.rect for t in geometry.tiles] + [t.rect for t in geometry.targets]
    left = min(r[0] for r in rects)
    top = min(r[1] for r in rects)
    right = max(r[0] + r[2] for r in rects)
    bottom = max(r[1] + r[3] for r in rects)
    span = ((right - left) / area[2], (bottom - top) / area[3])
    shorts = tuple(min(z.core[2], z.core[3]) for z in zones)
    return geometry, BoardFigures(len(layout), geometry.tile_long, shorts, span, seconds, zone_seconds)


def percentiles(values: Sequence[float]) -> tuple[float, float, float]:
    """(5th percentile, median, smallest) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    n = len(ordered)
    return ordered[max(0, -(-5 * n // 100) - 1)], ordered[(n - 1) // 2], ordered[0]


def report(figures: list[BoardFigures], label: str) -> list[str]:
    """Lines of text for ``figures``."""
    if not figures:
        return [f"{label}: no boards"]
    p5, median, least = percentiles([f.tile_long for f in figures])
    zones = [s for f in figures for s in f.zone_shorts]
    z5, zmedian, zleast = percentiles(zones)
    wide = sorted(f.span[0] for f in figures)[len(figures) // 2]
    high = sorted(f.span[1] for f in figures)[len(figures) // 2]
    times = sorted(f.seconds for f in figures)
    zone_times = sorted(f.zone_seconds for f in figures)
    return [
        f"{label}: {len(figures)} boards",
        f"  tile long side px: p5 {p5:.0f}, median {median:.0f}, min {least:.0f}",
        f"  tap-zone core short side px ({len(zones)} open points): p5 {z5:.0f}, median {zmedian:.0f}, min {zleast:.0f}",
        f"  layout spans (median) {wide:.0%} of the board's width, {high:.0%} of its height",
        f"  layout time ms: median {times[(len(times) - 1) // 2] * 1000:.1f}, "
        f"p95 {times[int(len(times) * 0.95) - 1 if len(times) >= 20 else -1] * 1000:.1f}, max {times[-1] * 1000:.1f}",
        f"  tap zones time ms: median {zone_times[(len(zone_times) - 1) // 2] * 1000:.1f}, max {zone_times[-1] * 1000:.1f}",
    ]


@dataclass(frozen=True, slots=True)
class Stability:
    """How the board changed from one placement to the next over many rounds."""

    placements: int
    """Placements after the opening tile."""
    moved: int
    """Earlier tiles that moved or turned relative to the opening tile (counted once per placement)."""
    moved_placements: int
    """Placements that moved or turned any earlier tile that way (the board laid out again)."""
    view_changes: int
    """Placements after which the earlier tiles are drawn elsewhere on the screen (a pan or a rescale)."""
    rescales: int
    """Placements that changed the tile size (the whole board scaled)."""
    pans: int
    """Placements that moved the whole board at the same tile size."""
    cases: tuple[tuple[int, int, str], ...] = ()
    """(round, placement, tile) of each placement that moved or turned an earlier tile."""
    links: tuple[tuple[int, int, str], ...] = ()
    """(round, placement, tile) of each placement after which the board shows a link more: an end that
    the board's own tiles walled in, moved into free room (docs/board-layout.md)."""


def moved_tiles(before: BoardGeometry, after: BoardGeometry) -> int:
    """How many tiles of ``before`` moved or turned in ``after`` beyond a rescale: a tile moved if it
    turned, or its place relative to the opening tile, scaled by the change of tile size, is off
    by more than the rounding of a few pixels."""
    scale = after.tile_long / before.tile_long
    (ox, oy, *_), (nx, ny, *_) = before.tiles[0].rect, after.tiles[0].rect
    return sum(
        a.vertical != b.vertical or abs((b.rect[0] - nx) - (a.rect[0] - ox) * scale) > 3
        or abs((b.rect[1] - ny) - (a.rect[1] - oy) * scale) > 3
        for a, b in zip(before.tiles, after.tiles)
    )


def beside_doubles(layout: Layout, geometry: BoardGeometry) -> list[float]:
    """For each tile joined to a double (or a double joined to a tile) that lies beside it, parallel,
    touching along their long sides: how far apart their middles are along them, in tile lengths
    (0.5: the tile's joined half against one half of the double; 0.25 reads like a second double)."""
    placed = {t.tile: t for t in geometry.tiles}
    found: list[float] = []
    for placement in layout.placements:
        if placement.at is None or not (placement.tile.is_double or placement.at.tile.is_double):
            continue
        a, b = placed[placement.tile].rect, placed[placement.at.tile].rect
        if (a[2] > a[3]) != (b[2] > b[3]):
            continue  # across each other
        tall = a[3] > a[2]
        side = (a[0] + a[2] == b[0] or b[0] + b[2] == a[0]) if tall else (a[1] + a[3] == b[1] or b[1] + b[3] == a[1])
        if side:
            along = (a[1] + a[3] / 2) - (b[1] + b[3] / 2) if tall else (a[0] + a[2] / 2) - (b[0] + b[2] / 2)
            found.append(abs(along) / geometry.tile_long)
    return found


def stability(layouts: Sequence[Layout], area: Rect) -> Stability:
    """Lay out every round placement by placement, as in play, and count what earlier tiles did.

    A tile *moved* if it turned, or if its place relative to the opening tile, measured in tile
    lengths, changed by more than the rounding of a few pixels: a pan or a rescale alone moves none.
    """
    placements = moved = moved_placements = views = rescales = pans = 0
    cases: list[tuple[int, int, str]] = []
    links: list[tuple[int, int, str]] = []
    for number, layout in enumerate(layouts):
        previous: BoardGeometry | None = None
        for n in range(1, len(layout.placements) + 1):
            part = layout.placements[:n]
            geometry = layout_placements(part, next((p.tile for p in part if p.tile.is_double), None), area)
            if previous is not None:
                placements += 1
                count = moved_tiles(previous, geometry)
                moved += count
                moved_placements += count > 0
                if count:
                    cases.append((number, n, str(part[-1].tile)))
                if link_count(geometry) > link_count(previous):
                    links.append((number, n, str(part[-1].tile)))
                elsewhere = any(a.rect != b.rect for a, b in zip(previous.tiles, geometry.tiles))
                views += elsewhere
                rescales += geometry.tile_long != previous.tile_long
                pans += elsewhere and not count and geometry.tile_long == previous.tile_long
            previous = geometry
    return Stability(placements, moved, moved_placements, views, rescales, pans, tuple(cases), tuple(links))


def link_count(geometry: BoardGeometry) -> int:
    """The links the board shows: tiles and open ends laid in free room away from a walled-in arm."""
    return sum(t.link is not None for t in geometry.tiles) + sum(t.link is not None for t in geometry.targets)


def board_rect(width: int, height: int) -> Rect:
    """The board rectangle on a ``width`` x ``height`` screen (table orientation)."""
    from kiosk.ui.regions import compute_regions

    board = compute_regions(width, height, "table").board
    return (board.x, board.y, board.width, board.height)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.board_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1000, help="end-of-round boards to lay out (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random play (default 1)")
    parser.add_argument("--size", default="800x480", help="screen size, WxH (default 800x480)")
    parser.add_argument("--settlement", default="", help="also the board under a round's result: its area "
                        "x,y,w,h (at 800x480: 118,176,676,128 in table orientation, 118,202,676,168 upright)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    area = board_rect(width, height)
    boards = end_of_round_boards(args.boards, args.seed)
    figures = [measure(layout, area)[1] for layout in boards]
    print(f"screen {width}x{height}, board {area[2]}x{area[3]} at ({area[0]}, {area[1]}), seed {args.seed}")
    for line in report(figures, "all end-of-round boards") + report(
            [f for f in figures if f.tiles >= LARGE], f"boards of {LARGE}+ tiles"):
        print(line)
    s = stability(boards, area)
    print(f"stability over {len(boards)} rounds, {s.placements} placements after the opening:")
    print(f"  earlier tiles moved or turned: {s.moved} ({s.moved / max(s.placements, 1):.3f} a placement), "
          f"in {s.moved_placements} placements ({s.moved_placements / max(s.placements, 1):.2%}: laid out again)")
    for number, n, tile in s.cases:
        print(f"    round {number}, placement {n} ({tile})")
    print(f"  placements that moved a walled-in end into free room (a link): {len(s.links)}")
    for number, n, tile in s.links:
        print(f"    round {number}, placement {n} ({tile})")
    print(f"  placements that rescaled the whole board: {s.rescales} ({s.rescales / max(s.placements, 1):.1%}); "
          f"that moved it whole at its size (a pan): {s.pans} ({s.pans / max(s.placements, 1):.1%}); "
          f"drawn elsewhere in all: {s.view_changes}")
    if args.settlement:
        x, y, w, h = (int(v) for v in args.settlement.split(","))
        sizes = [layout_board_anew(layout, (x, y, w, h)).tile_long for layout in boards]
        p5, median, least = percentiles(sizes)
        print(f"settlement board {w}x{h}: tile long side px: p5 {p5:.0f}, median {median:.0f}, min {least:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
