"""Board layout: exact checks on a worked chain and properties over thousands of random rounds."""

from __future__ import annotations

import itertools
import random

import pytest
from board_support import on_edge

from engine import ALL_TILES, Layout, Point, Slot, Tile, tile
from kiosk.devtools.board_bench import end_of_round_boards
from kiosk.ui.board.geometry import (
    BoardGeometry,
    PlacedTile,
    Rect,
    layout_board,
    layout_placements,
    min_readable_long,
)

ROUNDS = 2000
AREAS: tuple[Rect, ...] = (
    (20, 110, 760, 260),   # an 800 x 480 screen's board
    (0, 0, 760, 300),
    (60, 140, 1800, 700),  # a 1920 x 1080 screen's board
    (0, 0, 1200, 300),     # wide and low
    (0, 0, 1000, 260),
    (0, 0, 900, 500),      # nearly square-ish
)


# -- helpers -----------------------------------------------------------------------------------


def full_boards(seed: int, count: int) -> list[Layout]:
    """Layouts of all 28 tiles: each next tile is a random playable one at a random point."""
    rng = random.Random(seed)
    boards: list[Layout] = []
    while len(boards) < count:
        layout = Layout()
        left = list(ALL_TILES)
        layout.place(left.pop(rng.randrange(len(left))), None)
        while left:
            moves = [(t, p) for t in left for p in layout.points_for(t)]
            if not moves:
                break
            t, p = rng.choice(moves)
            layout.place(t, p)
            left.remove(t)
        boards.append(layout)
    return boards


def overlaps(a: Rect, b: Rect) -> bool:
    """True if two rectangles share area (touching edges do not)."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(r: Rect, area: Rect) -> bool:
    """True if ``r`` lies within ``area``."""
    return r[0] >= area[0] and r[1] >= area[1] and r[0] + r[2] <= area[0] + area[2] and r[1] + r[3] <= area[1] + area[3]


def halves(placed: PlacedTile) -> list[tuple[Rect, int]]:
    """The two half rectangles of a placed tile with the value drawn on each."""
    x, y, w, h = placed.rect
    if placed.vertical:
        return [((x, y, w, h // 2), placed.first_value), ((x, y + h // 2, w, h - h // 2), placed.second_value)]
    return [((x, y, w // 2, h), placed.first_value), ((x + w // 2, y, w - w // 2, h), placed.second_value)]


def contact(a: Rect, b: Rect) -> int:
    """The length of edge two rectangles share (0 if they only meet at a corner or are apart)."""
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    if ax1 == bx0 or bx1 == ax0:
        return max(0, min(ay1, by1) - max(ay0, by0))
    if ay1 == by0 or by1 == ay0:
        return max(0, min(ax1, bx1) - max(ax0, bx0))
    return 0


def side_touched(rect: Rect, other: Rect) -> str:
    """Which side of ``rect`` the touching rectangle ``other`` is on."""
    if other[0] + other[2] == rect[0]:
        return "left"
    if other[0] == rect[0] + rect[2]:
        return "right"
    return "top" if other[1] + other[3] == rect[1] else "bottom"


def check_geometry(layout: Layout, geo: BoardGeometry) -> None:
    """Every property the kiosk relies on, for one laid-out board."""
    area = geo.area
    rects = [t.rect for t in geo.tiles]
    targets = [t.rect for t in geo.targets]
    assert [t.tile for t in geo.tiles] == layout.tiles()
    for i, r in enumerate(rects):
        assert inside(r, area), (r, area)
        assert r[2] > 0 and r[3] > 0
        for other in rects[i + 1:]:
            assert not overlaps(r, other), (r, other)
    assert [(t.point, t.value) for t in geo.targets] == layout.open_points()
    for i, r in enumerate(targets):
        assert inside(r, area), (r, area)
        assert r[2] > 0 and r[3] > 0
        for other in rects + targets[i + 1:]:
            assert not overlaps(r, other), (r, other)
    if len(layout):
        assert geo.tile_long >= min_readable_long(area), (geo.tile_long, area, layout.to_list())
    check_connections(layout, geo)


def check_connections(layout: Layout, geo: BoardGeometry) -> None:
    """A tile's joined half touches the matching half of the tile it joins; unequal halves never touch

    (beyond a pixel of rounding), except beside a crosswise double, which a turning tile may
    pass along.
    """
    by_tile = {t.tile: t for t in geo.tiles}
    for placement, placed in zip(layout.placements, geo.tiles):
        assert placed.tile == placement.tile
        assert sorted((placed.first_value, placed.second_value)) == list(placement.tile)
        if placement.at is None:
            continue
        parent = by_tile[placement.at.tile]
        value = placement.at.tile.high if placement.at.slot is Slot.HIGH else placement.at.tile.low
        if placed.link is not None:  # an end the board walled in: a link joins the matching halves
            start, end = placed.link
            assert any(on_edge(start, ph) for ph, pv in halves(parent) if pv == value), (placement, placed, parent)
            assert any(on_edge(end, ch) for ch, cv in halves(placed) if cv == value), (placement, placed)
            continue
        short = geo.tile_short
        matching = max(
            contact(ch, ph)
            for ch, cv in halves(placed) for ph, pv in halves(parent) if cv == value and pv == value
        )
        assert matching >= short // 2 - 1, (placement, placed, parent)
        if not parent.tile.is_double:
            for ch, cv in halves(placed):
                for ph, pv in halves(parent):
                    if cv != pv:
                        assert contact(ch, ph) <= 1, (placement, placed, parent)  # rounding


def worked_chain() -> Layout:
    """The chain from the seeds: a late spinner [1|1] with both branches taken."""
    layout = Layout()
    steps = [
        ("1|4", None), ("1|1", ("1|4", "low")), ("4|4", ("1|4", "high")), ("3|4", ("4|4", "lineB")),
        ("1|2", ("1|1", "lineB")), ("1|5", ("1|1", "branchA")), ("5|5", ("1|5", "high")),
        ("0|5", ("5|5", "lineB")), ("1|3", ("1|1", "branchB")),
    ]
    for name, at in steps:
        layout.place(Tile.parse(name), None if at is None else Point.parse(*at))
    return layout


# -- the worked chain ---------------------------------------------------------------------------


@pytest.mark.parametrize("area", [(20, 110, 760, 260), (60, 140, 1800, 700)])
def test_worked_chain_is_drawn_as_players_know_it(area: Rect) -> None:
    layout = worked_chain()
    geo = layout_board(layout, area)
    check_geometry(layout, geo)
    tiles = {t.tile: t for t in geo.tiles}
    opening, spinner = tiles[tile(1, 4)], tiles[tile(1, 1)]
    assert not opening.vertical and (opening.first_value, opening.second_value) == (1, 4)
    assert geo.spinner is spinner and spinner.is_spinner and spinner.vertical  # crosswise on the line
    assert sum(t.is_spinner for t in geo.tiles) == 1
    # the line: [1|2] left of the spinner, the spinner, [1|4], the crosswise [4|4], [3|4]
    line = [tiles[tile(1, 2)], spinner, opening, tiles[tile(4, 4)], tiles[tile(3, 4)]]
    for left, right in itertools.pairwise(line):
        assert left.rect[0] + left.rect[2] == right.rect[0]
    assert tiles[tile(4, 4)].vertical and not tiles[tile(3, 4)].vertical
    assert (tiles[tile(1, 2)].first_value, tiles[tile(1, 2)].second_value) == (2, 1)
    assert (tiles[tile(3, 4)].first_value, tiles[tile(3, 4)].second_value) == (4, 3)
    # the spinner's four arms leave in four directions: a 1 half touches each of its sides
    sides = {side_touched(spinner.rect, half)
             for t in (tiles[tile(1, 2)], opening, tiles[tile(1, 5)], tiles[tile(1, 3)])
             for half, value in halves(t) if value == 1 and contact(spinner.rect, half) > 0}
    assert sides == {"left", "right", "top", "bottom"}
    # the targets are the four open ends, each touching the end it belongs to
    assert {t.point for t in geo.targets} == {p for p, _ in layout.open_points()}
    for target in geo.targets:
        owner = tiles[target.point.tile]
        assert max(contact(target.rect, h) for h, _ in halves(owner)) > 0


def test_worked_chain_ends_that_touch_show_equal_values() -> None:
    geo = layout_board(worked_chain(), (0, 0, 760, 260))
    tiles = {t.tile: t for t in geo.tiles}
    double = tiles[tile(5, 5)]
    after = tiles[tile(0, 5)]
    assert (double.first_value, double.second_value) == (5, 5)
    five = next(h for h, v in halves(after) if v == 5)
    zero = next(h for h, v in halves(after) if v == 0)
    assert max(contact(five, h) for h, _ in halves(double)) >= geo.tile_short // 2 - 1
    assert contact(zero, tiles[tile(1, 5)].rect) == 0


# -- simple cases -------------------------------------------------------------------------------


def test_empty_layout_has_no_tiles_and_no_targets() -> None:
    geo = layout_board(Layout(), (0, 0, 760, 260))
    assert geo.tiles == () and geo.targets == () and geo.spinner is None
    assert geo.tile_long >= min_readable_long((0, 0, 760, 260))


@pytest.mark.parametrize("opening", [tile(2, 5), tile(3, 3)])
def test_opening_tile_sits_in_the_centre_with_its_open_ends_as_targets(opening: Tile) -> None:
    layout = Layout()
    layout.place(opening, None)
    area = (100, 50, 760, 260)
    geo = layout_board(layout, area)
    check_geometry(layout, geo)
    (placed,) = geo.tiles
    cx = placed.rect[0] + placed.rect[2] / 2
    cy = placed.rect[1] + placed.rect[3] / 2
    assert abs(cx - (area[0] + area[2] / 2)) <= geo.tile_short and abs(cy - (area[1] + area[3] / 2)) <= geo.tile_short
    assert placed.vertical == opening.is_double and placed.is_spinner == opening.is_double
    assert len(geo.targets) == 2
    for target in geo.targets:
        assert geo.target_at(target.rect[0] + 1, target.rect[1] + 1) == target.point
        assert geo.target_for(target.point) is target
    assert geo.target_at(int(cx), int(cy)) is None


def test_tiles_shrink_as_the_round_grows() -> None:
    for layout in full_boards(5, 20):
        sizes = [
            layout_placements(layout.placements[:n], _spinner_of(layout, n), (0, 0, 760, 260)).tile_long
            for n in (1, len(layout))
        ]
        assert sizes[0] >= sizes[1]


def _spinner_of(layout: Layout, n: int) -> Tile | None:
    """The spinner of the first ``n`` placements."""
    return next((p.tile for p in layout.placements[:n] if p.tile.is_double), None)


def test_layout_is_deterministic() -> None:
    for layout in full_boards(9, 10):
        area = (0, 0, 1000, 400)
        assert layout_placements(layout.placements, layout.spinner, area) == layout_board(layout, area)
        assert layout_placements(layout.placements, layout.spinner, area) == layout_placements(
            layout.placements, layout.spinner, area)


# -- properties over random rounds ---------------------------------------------------------------


@pytest.mark.slow
def test_thousands_of_random_rounds_fit_without_overlap() -> None:
    rounds = end_of_round_boards(ROUNDS, 20261129)
    rng = random.Random(7)
    for i, layout in enumerate(rounds):
        area = AREAS[i % len(AREAS)]
        check_geometry(layout, layout_placements(layout.placements, layout.spinner, area))
        # and the board part-way through the round, as the players saw it then
        n = rng.randint(1, len(layout))
        part = Layout.from_list(layout.to_list()[:n])
        check_geometry(part, layout_placements(part.placements, part.spinner, AREAS[(i + 1) % len(AREAS)]))


@pytest.mark.slow
def test_full_28_tile_boards_fit_in_every_area() -> None:
    for layout in full_boards(11, 120):
        for area in AREAS:
            check_geometry(layout, layout_placements(layout.placements, layout.spinner, area))


def test_portrait_and_square_areas_also_fit() -> None:
    for layout in full_boards(13, 60):
        for area in ((0, 0, 600, 600), (0, 0, 500, 800)):
            check_geometry(layout, layout_placements(layout.placements, layout.spinner, area))


def test_a_board_is_laid_out_once_and_then_reused() -> None:
    """Redrawing the same board (a clock tick, a message) reuses its geometry (speed: kiosk.devtools.bench)."""
    from kiosk.ui.board.geometry import layout_board

    layout = full_boards(17, 1)[0]
    first = layout_board(layout, (0, 0, 760, 260))
    assert layout_board(layout, (0, 0, 760, 260)) is first
    assert layout_board(layout, (0, 0, 1800, 700)) is not first


# -- using the board's area (issue 11) -----------------------------------------------------------


def kiosk_board(width: int, height: int) -> Rect:
    """The board rectangle the kiosk draws in on a ``width`` x ``height`` screen."""
    from kiosk.ui.regions import compute_regions

    board = compute_regions(width, height, "table").board
    return (board.x, board.y, board.width, board.height)


def spanned(geo: BoardGeometry) -> Rect:
    """The bounding box of the tiles and targets."""
    rects = [t.rect for t in geo.tiles] + [t.rect for t in geo.targets]
    left, top = min(r[0] for r in rects), min(r[1] for r in rects)
    return (left, top, max(r[0] + r[2] for r in rects) - left, max(r[1] + r[3] for r in rects) - top)


def test_the_first_tile_is_centred_and_the_board_stays_in_its_area_as_it_grows() -> None:
    """Issue 20: the board is not re-centred at each placement (earlier tiles keep their pixels,
    tests/kiosk/test_kiosk_board_stability.py); it starts centred and stays inside its area."""
    for i, layout in enumerate(end_of_round_boards(40, 31)):
        area = AREAS[i % len(AREAS)]
        for n in range(1, len(layout) + 1):
            part = Layout.from_list(layout.to_list()[:n])
            geo = layout_placements(part.placements, part.spinner, area)
            x, y, w, h = spanned(geo)
            assert inside((x, y, w, h), area)
            if n == 1:
                left, right = x - area[0], area[0] + area[2] - (x + w)
                top, bottom = y - area[1], area[1] + area[3] - (y + h)
                unit = geo.tile_long / 4
                assert abs(left - right) <= unit + 1 and abs(top - bottom) <= unit + 1, (area, (left, right, top, bottom))


def test_a_line_growing_one_way_is_not_squeezed_into_half_the_board() -> None:
    """13 tiles all to the right of the opening keep the size the round started at (62 px on a
    676 x 264 board, the plan size: issue 20; with the opening pinned to the middle it was 69 px of
    a largest 81, and the board was laid out anew at each placement)."""
    layout = Layout()
    layout.place(tile(0, 1), None)
    chain = [tile(1, 2), tile(2, 3), tile(3, 4), tile(4, 5), tile(5, 6), tile(0, 6), tile(0, 2), tile(2, 4),
             tile(4, 6), tile(1, 6), tile(1, 3), tile(3, 5)]
    for t in chain:
        (point,) = [p for p in layout.points_for(t) if p.slot.value != "low" or p.tile != tile(0, 1)]
        layout.place(t, point)
    area = (118, 108, 676, 264)
    geo = layout_board(layout, area)
    check_geometry(layout, geo)
    assert geo.tile_long == 62  # the size the round started at: the line turned, the board was not rescaled
    first = layout_placements(layout.placements[:1], None, area)
    assert first.tile_long == 62


def test_full_28_tile_boards_keep_the_readable_minimum_on_an_800x480_screen() -> None:
    area = kiosk_board(800, 480)
    assert min_readable_long(area) >= 44
    for layout in full_boards(23, 25):
        geo = layout_placements(layout.placements, layout.spinner, area)
        check_geometry(layout, geo)


def test_end_of_round_boards_at_800x480_are_large() -> None:
    """Over 400 rounds: tile long side p5 >= 48 px, never under 44 px (issue 11 asked p5 >= 60; a
    board that keeps its tiles in place is rescaled as a whole instead of laid out again at a
    larger size: issue 20, docs/board-layout.md)."""
    from kiosk.devtools.board_bench import end_of_round_boards, percentiles

    area = kiosk_board(800, 480)
    sizes = []
    for layout in end_of_round_boards(400, 5):
        geo = layout_placements(layout.placements, layout.spinner, area)
        check_geometry(layout, geo)
        sizes.append(geo.tile_long)
    p5, _, least = percentiles(sizes)
    assert p5 >= 48 and least >= 44, (p5, least)


def kept_in_place(before: BoardGeometry, after: BoardGeometry) -> bool:
    """True if every tile of ``before`` has the same place relative to the opening tile in ``after``
    (to a pixel of rounding), and the same orientation."""
    ox, oy = before.tiles[0].rect[:2]
    nx, ny = after.tiles[0].rect[:2]
    return all(
        a.vertical == b.vertical and abs((a.rect[0] - ox) - (b.rect[0] - nx)) <= 1
        and abs((a.rect[1] - oy) - (b.rect[1] - ny)) <= 1
        for a, b in zip(before.tiles, after.tiles)
    )


def test_a_board_keeps_its_arrangement_as_it_grows() -> None:
    """Nearly all placements only add a tile (issue 20: 97 % kept; it was 85 % with the board
    re-centred and re-searched at each placement); the others move a few tiles near the new one,
    or shrink the tiles."""
    area = kiosk_board(800, 480)
    steps = kept = shrunk = 0
    for layout in end_of_round_boards(40, 41):
        previous = None
        for n in range(1, len(layout) + 1):
            part = Layout.from_list(layout.to_list()[:n])
            geo = layout_board(part, area)
            if previous is not None:
                steps += 1
                shrunk += geo.tile_long != previous.tile_long
                kept += geo.tile_long == previous.tile_long and kept_in_place(previous, geo)
            previous = geo
    assert kept >= 0.97 * (steps - shrunk) and shrunk <= 0.05 * steps, (steps, kept, shrunk)
