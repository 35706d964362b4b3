"""An end that the board's own tiles wall in (issue 20, point 3): the next tile at it goes into the
nearest free room with a link drawn back to the arm; no tile that is down ever moves."""

from __future__ import annotations

import os

import pygame
import pytest
from board_support import boards_as_played, check_every_tile_kept, on_edge, round_of

from kiosk.devtools.board_bench import board_rect, link_count
from kiosk.ui.board.render import IVORY, draw_board

WALLED_IN = [
    # (screen, where the bench found it: seed, round, placement laid out again before the links), the round
    ((800, 480), "seed 3, round 34, placement 21",
     "1|2 1|6@1|2:low 2|5@1|2:high 1|5@2|5:high 3|6@1|6:high 1|3@3|6:low 0|1@1|3:low 0|6@0|1:low 6|6@0|6:high "
     "5|6@6|6:lineB 3|5@5|6:low 3|3@3|5:low 2|3@3|3:lineB 2|2@2|3:low 0|2@2|2:lineB 1|1@1|5:low 0|3@0|2:low "
     "2|6@6|6:branchB 3|4@0|3:high 4|5@3|4:high 0|5@4|5:high 1|4@1|1:lineB 0|4@1|4:high 2|4@2|6:low 4|4@2|4:high"),
    ((800, 480), "seed 3, round 180, placement 23",
     "1|5 1|2@1|5:low 5|6@1|5:high 3|6@5|6:high 1|3@3|6:low 0|2@1|2:high 1|1@1|3:low 0|6@0|2:low 6|6@0|6:high "
     "1|6@6|6:lineB 1|4@1|1:lineB 0|4@1|4:high 0|1@1|6:low 0|0@0|4:low 0|3@0|1:low 0|5@0|0:lineB 3|3@0|3:high "
     "5|5@0|5:high 3|5@5|5:lineB 2|3@3|5:low 2|4@2|3:low 4|4@2|4:high 4|5@4|4:lineB 3|4@3|3:lineB 4|6@3|4:high "
     "2|5@4|5:high 2|2@2|5:low"),
    ((1280, 800), "seed 3, round 3, placement 25",
     "1|2 0|1@1|2:low 2|4@1|2:high 0|3@0|1:low 4|5@2|4:high 3|5@0|3:high 1|5@4|5:high 5|6@3|5:high 2|6@5|6:high "
     "2|3@2|6:low 3|4@2|3:high 4|4@3|4:high 1|4@4|4:lineB 4|6@4|4:branchB 3|6@4|6:high 0|4@4|4:branchA "
     "3|3@3|6:low 0|0@0|4:low 0|5@0|0:lineB 1|3@1|5:low 2|5@0|5:high 0|2@2|5:low 1|1@1|4:low 0|6@0|2:low "
     "1|6@1|1:lineB 6|6@0|6:high"),
    ((800, 480), "seed 4, round 574, placement 17",
     "2|6 0|6@2|6:high 0|5@0|6:low 0|2@2|6:low 4|5@0|5:high 1|4@4|5:low 1|3@1|4:low 3|6@1|3:high 4|6@3|6:high "
     "2|4@4|6:low 2|2@2|4:low 0|1@0|2:low 2|3@2|2:lineB 1|6@0|1:high 3|4@2|3:high 4|4@3|4:high 1|2@2|2:branchB "
     "1|5@1|2:low 5|5@1|5:high 5|6@5|5:lineB"),
    ((800, 480), "seed 5, round 98, placement 19",
     "0|5 1|5@0|5:high 0|1@1|5:low 0|3@0|1:low 0|2@0|5:low 2|6@0|2:high 3|3@0|3:high 1|6@2|6:high 1|2@1|6:low "
     "2|5@1|2:high 4|5@2|5:high 4|6@4|5:low 3|4@3|3:lineB 5|6@4|6:high 5|5@5|6:low 2|4@3|4:high 2|2@2|4:low "
     "2|3@3|3:branchA 1|3@3|3:branchB 1|1@1|3:low 3|5@5|5:lineB 1|4@1|1:lineB 4|4@1|4:high 3|6@3|5:low "
     "0|4@4|4:lineB"),
    ((800, 480), "seed 6, round 86, placement 21",
     "5|6 0|5@5|6:low 1|6@5|6:high 0|3@0|5:low 1|3@1|6:low 3|4@1|3:high 3|3@0|3:high 4|6@3|4:high 3|6@4|6:high "
     "2|3@3|3:lineB 2|2@2|3:low 1|2@2|2:lineB 1|1@1|2:low 1|5@1|1:lineB 5|5@1|5:high 2|5@5|5:lineB 2|6@2|5:low "
     "6|6@2|6:high 3|5@3|3:branchB 4|5@3|5:high 4|4@4|5:low 1|4@4|4:lineB 0|6@6|6:lineB 0|1@0|6:low"),
    ((800, 480), "seed 10, round 471, placement 24",
     "2|5 2|3@2|5:low 3|3@2|3:high 4|5@2|5:high 3|6@3|3:lineB 1|4@4|5:low 2|6@3|6:high 0|1@1|4:low 0|0@0|1:low "
     "0|3@3|3:branchA 0|2@0|3:low 1|2@0|2:high 0|6@0|0:lineB 4|6@0|6:high 1|1@1|2:low 4|4@4|6:low 1|3@1|1:lineB "
     "3|4@3|3:branchB 2|2@2|6:low 2|4@2|2:lineB 0|4@4|4:lineB 3|5@1|3:high 5|5@3|5:high 0|5@5|5:lineB"),
    ((800, 480), "seed 10, round 668, placement 26 (two ends' targets that need the same room)",
     "0|6 0|1@0|6:low 1|2@0|1:high 2|6@1|2:high 1|6@0|6:high 6|6@2|6:high 1|5@1|6:low 3|5@1|5:high 3|3@3|5:low "
     "3|4@3|3:lineB 4|5@3|4:high 4|6@6|6:lineB 4|4@4|6:low 0|4@4|4:lineB 2|5@4|5:high 2|3@2|5:low 0|2@0|4:low "
     "1|3@2|3:high 1|1@1|3:low 5|6@6|6:branchA 0|5@5|6:low 0|3@0|5:low 1|4@1|1:lineB 3|6@6|6:branchB "
     "2|4@1|4:high 2|2@2|4:low"),
]
"""Rounds of random play (``python -m kiosk.devtools.board_bench --boards 1000 --seed N --size WxH``) in
which the board's own tiles walled an end in: before the links, the board was laid out again there
(earlier tiles moved), as no rescale gives room inside the board (docs/board-layout.md)."""

_IDS = [f"{w}x{h} {found}" for (w, h), found, _ in WALLED_IN]


@pytest.mark.parametrize(("screen", "found", "played"), WALLED_IN, ids=_IDS)
def test_a_walled_in_end_keeps_every_tile_where_it_was(screen: tuple[int, int], found: str, played: str) -> None:
    """Each placement of these rounds keeps every earlier tile's place and direction (a pan or a rescale
    of the whole board allowed), the tiles stay readable, and the walled-in end shows a link."""
    s = check_every_tile_kept(screen, found, played)
    assert s.links, found


@pytest.mark.parametrize(("screen", "found", "played"), WALLED_IN, ids=_IDS)
def test_a_link_runs_from_the_arms_end_to_the_tile_or_target_laid_in_free_room(
        screen: tuple[int, int], found: str, played: str) -> None:
    """A link starts on the edge of the tile whose end was walled in and ends on the edge of the tile
    (or the tap target) joined to it there; tiles and targets never overlap; the link's ends are inside
    the board."""
    layout = round_of(played)
    area = board_rect(*screen)
    checked = 0
    for geometry in boards_as_played(layout, area):
        by_tile = {t.tile: t for t in geometry.tiles}
        parents = {p.tile: p.at.tile for p in layout.placements if p.at is not None}
        for placed in geometry.tiles:
            if placed.link is None:
                continue
            start, end = placed.link
            assert on_edge(start, by_tile[parents[placed.tile]].rect), (found, placed)
            assert on_edge(end, placed.rect), (found, placed)
            if placed.tile.is_double:  # across its line: the link ends on a long side
                x, _, w, h = placed.rect
                assert (min(abs(end[0] - x), abs(end[0] - x - w)) <= 2) == (h > w), (found, placed)
            assert start != end
            checked += 1
        for target in geometry.targets:
            if target.link is not None:
                assert on_edge(target.link, by_tile[target.point.tile].rect), (found, target)
                assert on_edge(target.anchor, target.rect), (found, target)
                checked += 1
        rects = [pygame.Rect(t.rect) for t in geometry.tiles] + [pygame.Rect(t.rect) for t in geometry.targets]
        for i, a in enumerate(rects):
            assert a.collidelist(rects[i + 1:]) == -1, found
        board = pygame.Rect(area)
        for placed in geometry.tiles:
            for point in placed.link or ():
                assert board.collidepoint(point), (found, placed)
    assert checked, found


def test_a_link_is_drawn_over_the_board() -> None:
    """The link is drawn: ivory along its middle, between the arm's end and the tile laid for it."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen, found, played = WALLED_IN[0]
    layout = round_of(played)
    area = board_rect(*screen)
    geometry = next(g for g in boards_as_played(layout, area) if any(t.link for t in g.tiles))
    linked = next(t for t in geometry.tiles if t.link)
    assert linked.link is not None
    (x0, y0), (x1, y1) = linked.link
    surface = pygame.Surface(screen)
    surface.fill((0, 80, 40))
    draw_board(surface, geometry)
    middle = ((x0 + x1) // 2, (y0 + y1) // 2)
    assert tuple(surface.get_at(middle))[:3] == IVORY, found
    assert link_count(geometry) >= 1
