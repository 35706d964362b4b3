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
from kiosk.ui.board.geometry import BoardGeometry, Rect, layout_placements
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
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    area = board_rect(width, height)
    figures = [measure(layout, area)[1] for layout in end_of_round_boards(args.boards, args.seed)]
    print(f"screen {width}x{height}, board {area[2]}x{area[3]} at ({area[0]}, {area[1]}), seed {args.seed}")
    for line in report(figures, "all end-of-round boards") + report(
            [f for f in figures if f.tiles >= LARGE], f"boards of {LARGE}+ tiles"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
