"""Tap zones: the board split among its open points, each taking the part nearest to it, and the
hotspots ``draw_board_area`` leaves for the lit ones."""

from __future__ import annotations

import random

import pygame
import pytest

from engine import Layout, Point, Slot, tile
from kiosk.devtools.board_bench import end_of_round_boards, percentiles
from kiosk.table.intents import TapPoint
from kiosk.ui.board.geometry import BoardGeometry, OpenTarget, Rect, layout_board
from kiosk.ui.board.table import draw_board_area
from kiosk.ui.board.zones import MIN_SIDE, TapZone, tap_zones, zone_at
from kiosk.ui.regions import compute_regions


def board_area(width: int = 800, height: int = 480) -> Rect:
    board = compute_regions(width, height, "table").board
    return (board.x, board.y, board.width, board.height)


def overlap_area(a: Rect, b: Rect) -> int:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0)


def distance(target: OpenTarget, x: float, y: float) -> float:
    tx, ty, tw, th = target.rect
    dx = max(tx - x, 0.0, x - tx - tw)
    dy = max(ty - y, 0.0, y - ty - th)
    return float((dx * dx + dy * dy) ** 0.5)


def check_zones(geo: BoardGeometry, rng: random.Random) -> None:
    """The zones tile the board exactly, hold their own targets, and a pixel belongs to a nearest target."""
    area = geo.area
    zones = tap_zones(geo)
    assert [z.point for z in zones] == [t.point for t in geo.targets]
    rects = [r for z in zones for r in z.rects]
    for i, r in enumerate(rects):
        assert r[2] > 0 and r[3] > 0 and overlap_area(r, area) == r[2] * r[3], (r, area)
        for other in rects[i + 1:]:
            assert overlap_area(r, other) == 0, (r, other)
    assert sum(r[2] * r[3] for r in rects) == area[2] * area[3]
    for zone, target in zip(zones, geo.targets):
        tr = target.rect
        assert sum(overlap_area(r, tr) for r in zone.rects) == tr[2] * tr[3]  # the whole target is in its zone
        assert zone_at(zones, tr[0] + tr[2] // 2, tr[1] + tr[3] // 2) == target.point
        assert overlap_area(zone.core, tr) > 0
        assert zone.hotspots[0] == zone.core
        for i, spot in enumerate(zone.hotspots):  # inside the zone, a finger wide (the core whatever its size)
            assert sum(overlap_area(spot, r) for r in zone.rects) == spot[2] * spot[3], (spot, zone)
            assert i == 0 or min(spot[2], spot[3]) >= MIN_SIDE
    slack = 1.5 * max(6, min(area[2], area[3]) // 30)  # a cell's diagonal
    for _ in range(200):
        x, y = rng.randrange(area[0], area[0] + area[2]), rng.randrange(area[1], area[1] + area[3])
        point = zone_at(zones, x, y)
        mine = next(t for t in geo.targets if t.point == point)
        assert distance(mine, x, y) <= min(distance(t, x, y) for t in geo.targets) + slack


def test_zones_tile_the_board_and_each_pixel_goes_to_a_nearest_point() -> None:
    rng = random.Random(3)
    for size in ((800, 480), (1280, 800)):
        for layout in end_of_round_boards(40, 8):
            check_zones(layout_board(layout, board_area(*size)), rng)


def test_a_lone_opening_splits_the_board_between_its_two_ends() -> None:
    layout = Layout()
    layout.place(tile(2, 5), None)
    geo = layout_board(layout, board_area())
    check_zones(geo, random.Random(1))
    zones = tap_zones(geo)
    x, y, w, h = geo.area
    assert zone_at(zones, x + 2, y + 2) == Point(tile(2, 5), Slot.LOW)  # the far left corner is the low end's
    assert zone_at(zones, x + w - 2, y + h - 2) == Point(tile(2, 5), Slot.HIGH)
    for zone in zones:
        assert min(zone.core[2], zone.core[3]) >= h - 2  # each core is nearly the board's height


def covered_share(zone: TapZone) -> float:
    """How much of the zone its hotspots cover (sampled every 8 px)."""
    inside = hit = 0
    for x0, y0, w, h in zone.rects:
        for x in range(x0, x0 + w, 8):
            for y in range(y0, y0 + h, 8):
                inside += 1
                hit += any(sx <= x < sx + sw and sy <= y < sy + sh for sx, sy, sw, sh in zone.hotspots)
    return hit / inside


@pytest.mark.slow
def test_tap_zone_cores_are_a_finger_wide_on_an_800x480_screen() -> None:
    """Over 300 end-of-round boards: 95 % of the open points' cores are at least 48 px on their short
    side, and the hotspots cover most of each zone."""
    rng = random.Random(5)
    shorts = []
    shares = []
    for layout in end_of_round_boards(300, 2):
        geo = layout_board(layout, board_area())
        check_zones(geo, rng)
        shorts += [min(z.core[2], z.core[3]) for z in tap_zones(geo)]
        shares += [covered_share(z) for z in tap_zones(geo)]
    p5, median, _ = percentiles(shorts)
    assert p5 >= 48 and median >= 80, (p5, median)
    share5, share, _ = percentiles(shares)
    assert share5 >= 0.75 and share >= 0.9, (share5, share)


def test_draw_board_area_leaves_hotspots_only_for_the_lit_points_covering_their_zones() -> None:
    layout = end_of_round_boards(30, 4)[-1]
    area = pygame.Rect(board_area())
    surface = pygame.Surface((800, 480))
    points = [p for p, _ in layout.open_points()]
    lit = points[:1]
    spots = draw_board_area(surface, area, layout, lit)
    geo = layout_board(layout, (area.x, area.y, area.w, area.h))
    zones = {z.point: z for z in tap_zones(geo)}
    assert spots and all(isinstance(s.rect, pygame.Rect) and s.intent == TapPoint(lit[0]) for s in spots)
    assert [tuple(s.rect) for s in spots] == list(zones[lit[0]].hotspots)

    def hit(x: int, y: int) -> Point | None:
        spot = next((s for s in reversed(spots) if s.rect.collidepoint(x, y)), None)
        return None if spot is None else spot.intent.point  # type: ignore[attr-defined]

    for target in geo.targets:
        tx, ty, tw, th = target.rect
        assert hit(tx + tw // 2, ty + th // 2) == (target.point if target.point in lit else None)
