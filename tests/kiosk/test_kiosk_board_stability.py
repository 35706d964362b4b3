"""The board as it grows in play (issue 20): earlier tiles keep their place and direction, doubles
lie across, the spinner keeps its direction, the board under a round's result is large."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from board_support import boards_as_played, check_every_tile_kept

from engine import Slot
from kiosk.devtools.board_bench import (
    beside_doubles,
    board_rect,
    end_of_round_boards,
    moved_tiles,
    percentiles,
    stability,
)
from kiosk.ui.board.geometry import (
    PlacedTile,
    layout_board_anew,
    layout_placements,
    min_readable_long,
)


def test_earlier_tiles_keep_their_pixels_unless_the_whole_board_pans_or_rescales() -> None:
    area = board_rect(800, 480)
    steps = kept = 0
    for layout in end_of_round_boards(60, 43):
        shown = boards_as_played(layout, area)
        for before, after in itertools.pairwise(shown):
            steps += 1
            kept += all(a.rect == b.rect and a.vertical == b.vertical for a, b in zip(before.tiles, after.tiles))
    assert kept >= 0.93 * steps, (kept, steps)


@pytest.mark.parametrize(("area", "rounds", "seed", "most", "redrawn", "rescaled"), [
    (board_rect(800, 480), 150, 44, 0, 0.06, 0.03),
    (board_rect(1280, 800), 40, 47, 0, 0.08, 0.04),
    ((0, 0, 1000, 260), 40, 48, 0, 0.15, 0.09),  # wide and low: starts at 96 px, and pans and shrinks more often
])
def test_no_earlier_tile_moves_or_turns_as_rounds_are_played(area: tuple[int, int, int, int], rounds: int, seed: int,
                                                              most: int, redrawn: float, rescaled: float) -> None:
    """Issue 20: a tile once placed keeps its place and direction; only the whole board moves or
    scales. The target is none: none moves at 800 x 480 (2,179 placements), at 1280 x 800 (550; one
    before issue 20, point 3) or on the 1000 x 260 board (607) (the bench over 1,000 rounds: none with
    seeds 1 to 10 at 800 x 480 and 1280 x 800 since walled-in ends move into free room, docs/board-layout.md;
    1 to 4 with seeds 3 to 10 before that, 1 with seed 1 before issue 20, point 3, 6 and 6 before that,
    14 before the look ahead, 448 before that, 1,244 before issue 20)."""
    s = stability(end_of_round_boards(rounds, seed), area)
    assert s.placements > 10 * rounds
    assert s.moved_placements <= most, s.cases
    assert s.moved <= 0.01 * s.placements, s
    assert s.rescales <= rescaled * s.placements, s
    assert s.view_changes <= redrawn * s.placements, s
    assert s.rescales + s.pans <= s.view_changes <= s.rescales + s.pans + s.moved_placements


_R138 = ("6|6 0|6@6|6:lineA 3|6@6|6:lineB 0|5@0|6:low 3|3@3|6:low 3|4@3|3:lineB 4|5@3|4:high 1|6@6|6:branchB "
         "1|4@1|6:low 2|4@1|4:high 1|2@2|4:low 1|3@1|2:low 1|5@4|5:high 0|3@1|3:high 1|1@1|5:low 0|2@0|3:low "
         "2|3@0|2:high 2|5@0|5:high 0|1@1|1:lineB 2|2@2|5:low")
ONCE_LAID_OUT_AGAIN = [
    # (screen, where the bench found it: seed, round, placement that moved tiles), the round as played
    ((800, 480), "seed 1, round 789, placement 15",
     "4|4 4|6@4|4:lineB 5|6@4|6:high 2|5@5|6:low 2|2@2|5:low 1|2@2|2:lineB 1|1@1|2:low 1|3@1|1:lineB 0|3@1|3:high "
     "0|0@0|3:low 0|1@0|0:lineB 1|6@0|1:high 2|4@4|4:lineA 6|6@1|6:high 3|6@6|6:lineB 3|3@3|6:low 2|6@2|4:low "
     "0|6@2|6:high"),
    ((800, 480), "seed 3, round 138, placement 20", _R138),
    ((1280, 800), "seed 3, round 138, placement 20", _R138),
    ((1280, 800), "seed 2, round 85, placement 24",
     "2|4 4|5@2|4:high 3|5@4|5:high 1|2@2|4:low 2|3@3|5:low 1|4@1|2:low 4|6@1|4:high 0|6@4|6:high 2|6@2|3:low "
     "1|6@2|6:high 0|1@0|6:low 1|3@1|6:low 3|3@1|3:high 0|3@3|3:lineB 3|6@3|3:branchA 5|6@3|6:high 5|5@5|6:low "
     "0|2@0|3:low 2|2@0|2:high 0|5@5|5:lineB 3|4@3|3:branchB 0|0@0|5:low 2|5@2|2:lineB 4|4@3|4:high"),
    ((1280, 800), "seed 2, round 860, placements 20, 21 and 24",
     "1|5 1|4@1|5:low 0|5@1|5:high 0|1@0|5:low 4|6@1|4:high 1|2@0|1:high 1|6@4|6:high 1|3@1|6:low 0|3@1|3:high "
     "0|2@1|2:high 0|6@0|2:low 3|6@0|6:high 3|5@3|6:low 4|5@3|5:high 4|4@4|5:low 3|4@4|4:lineB 3|3@3|4:low "
     "0|0@0|3:low 2|3@3|3:lineB 2|4@4|4:branchB 2|5@2|4:low 2|6@2|3:low 5|6@2|6:high 0|4@4|4:branchA 5|5@2|5:high"),
    ((1280, 800), "the stability test's seed 47, round 26, placement 20",
     "4|6 6|6@4|6:high 0|6@6|6:lineB 0|3@0|6:low 1|3@0|3:high 0|1@1|3:low 0|0@0|1:low 4|4@4|6:low 0|5@0|0:lineB "
     "5|5@0|5:high 2|5@5|5:lineB 2|6@2|5:low 5|6@2|6:high 1|4@4|4:lineB 1|1@1|4:low 4|5@5|6:low 1|5@1|1:lineB "
     "3|6@6|6:branchB 3|5@3|6:low 0|4@4|5:low 0|2@0|4:low 1|2@0|2:high 1|6@1|2:low"),
    ((1280, 800), "seed 2, round 476, placement 23 (with the first of point 3's changes only)",
     "3|6 1|6@3|6:high 1|3@1|6:low 0|3@1|3:high 3|5@3|6:low 0|5@3|5:high 0|6@0|5:low 2|6@0|6:high 2|5@2|6:low "
     "0|1@0|3:low 1|1@0|1:high 4|5@2|5:high 4|6@4|5:low 1|5@1|1:lineB 6|6@4|6:high 5|6@6|6:lineB 5|5@1|5:high "
     "1|2@1|1:branchA 0|2@1|2:high 0|0@0|2:low 1|4@1|1:branchB 2|4@1|4:high 0|4@0|0:lineB 3|4@0|4:high "
     "3|3@3|4:low"),
]
"""Rounds of random play (``python -m kiosk.devtools.board_bench --boards 1000 --seed N --size WxH``) in
which a placement found no way with every earlier tile kept and the board was laid out again before
issue 20, point 3 (docs/board-layout.md): an arm on its return row that turned back up between its own rows,
a spinner's branch that snaked back towards the line around another arm's end, a spinner laid on a
return row too close to the row before for its branch. The rounds whose ends were walled in are in
``test_kiosk_board_walled_in.py``."""


@pytest.mark.parametrize(("screen", "found", "played"), ONCE_LAID_OUT_AGAIN,
                         ids=[f"{w}x{h} {found}" for (w, h), found, _ in ONCE_LAID_OUT_AGAIN])
def test_the_rounds_once_laid_out_again_keep_every_tile(screen: tuple[int, int], found: str, played: str) -> None:
    """Issue 20, point 3: each placement of these rounds keeps every earlier tile's place and direction
    (a pan or a rescale of the whole board allowed), and the tiles stay readable."""
    check_every_tile_kept(screen, found, played)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "screen"), [(1, (800, 480)), (2, (800, 480)), (3, (800, 480)), (4, (800, 480)),
                                             (5, (1280, 800)), (6, (800, 480))])
def test_over_the_benchs_thousand_rounds_no_board_is_laid_out_again(seed: int, screen: tuple[int, int]) -> None:
    """The bench's figure (``python -m kiosk.devtools.board_bench --boards 1000 --seed 1``; other seeds
    and sizes too): no placement moves or turns an earlier tile over 1,000 rounds of about 14,600
    placements (1 to 4 did with seeds 3 to 10 before walled-in ends were moved into free room), walled-in
    ends are rare, and the look ahead's cost in rescales and tile sizes (docs/board-layout.md)."""
    boards = end_of_round_boards(1000, seed)
    area = board_rect(*screen)
    s = stability(boards, area)
    assert s.moved_placements == 0, s.cases
    assert len(s.links) <= 5, s.links
    assert s.rescales <= 0.02 * s.placements, s
    p5, _, least = percentiles([layout_placements(b.placements, b.spinner, area).tile_long for b in boards])
    readable = min_readable_long(area)
    assert p5 >= readable * 48 / 44 and least >= readable, (p5, least)


def test_a_moved_tile_is_counted() -> None:
    """The measure itself: a board whose second tile turned, or whose tiles were laid out again,
    counts those tiles; the same board scaled or moved as a whole counts none."""
    layout = end_of_round_boards(1, 49)[0]
    area = board_rect(800, 480)
    geo = boards_as_played(layout, area)[-1]
    turned = replace(geo, tiles=(geo.tiles[0], replace(geo.tiles[1], vertical=not geo.tiles[1].vertical),
                                 *geo.tiles[2:]))
    shifted = replace(geo, tiles=(geo.tiles[0], *(replace(t, rect=(t.rect[0] + 9, *t.rect[1:])) for t in geo.tiles[1:])))
    panned = replace(geo, tiles=tuple(replace(t, rect=(t.rect[0] + 40, t.rect[1] - 7, *t.rect[2:])) for t in geo.tiles))
    half = replace(geo, tile_long=geo.tile_long // 2, tiles=tuple(
        replace(t, rect=(t.rect[0] // 2, t.rect[1] // 2, t.rect[2] // 2, t.rect[3] // 2)) for t in geo.tiles))
    assert moved_tiles(geo, turned) == 1
    assert moved_tiles(geo, shifted) == len(geo.tiles) - 1
    assert moved_tiles(geo, panned) == 0
    assert moved_tiles(geo, half) == 0


def test_a_tile_beside_a_double_lies_half_a_tile_off_never_a_quarter() -> None:
    """A tile turned at a double's long side lies with its joined half against one half of the
    double (it was a quarter tile off and read like a second double)."""
    area = board_rect(800, 480)
    offsets = []
    for layout in end_of_round_boards(200, 50):
        offsets += beside_doubles(layout, layout_placements(layout.placements, layout.spinner, area))
    assert len(offsets) > 20
    assert all(abs(off - 0.5) <= 0.03 for off in offsets), sorted(offsets)


def _crosswise(double: PlacedTile, parent: PlacedTile) -> bool:
    """True if ``double`` lies across the line it joins ``parent`` on: a tall double touches its
    parent on its left or right side, a wide one on its top or bottom (a double laid away from a
    walled-in end: its link ends on such a side)."""
    dx, dy, dw, dh = double.rect
    if double.link is not None:  # laid away from a walled-in end: the link joins it on a long side
        lx, ly = double.link[1]
        return abs(lx - dx) <= 2 or abs(lx - dx - dw) <= 2 if dh > dw else abs(ly - dy) <= 2 or abs(ly - dy - dh) <= 2
    px, _, pw, _ = parent.rect
    side = dx == px + pw or px == dx + dw
    return side if dh > dw else not side


def test_doubles_always_lie_across_and_the_spinner_keeps_its_direction() -> None:
    area = board_rect(800, 480)
    doubles = 0
    for layout in end_of_round_boards(80, 45):
        shown = boards_as_played(layout, area)
        spinner_dirs = {t.vertical for geo in shown for t in geo.tiles if t.is_spinner}
        assert len(spinner_dirs) <= 1, layout.to_list()
        final = {t.tile: t for t in shown[-1].tiles}
        for placement in layout.placements:
            if placement.tile.is_double and placement.at is not None:
                doubles += 1
                parent = final[placement.at.tile]
                if placement.at.slot in (Slot.BRANCH_A, Slot.BRANCH_B):
                    continue  # a branch leaves the spinner's short end
                assert _crosswise(final[placement.tile], parent), (placement, layout.to_list())
    assert doubles > 50


def test_the_board_under_a_rounds_result_is_large_enough_to_count() -> None:
    """The settlement board at 800 x 480 (table orientation: 676 x 128 between the two result cards;
    it was at most 32 px, about 30 x 15 px tiles, before issue 20)."""
    sizes = [layout_board_anew(layout, (118, 176, 676, 128)).tile_long for layout in end_of_round_boards(150, 46)]
    p5, _, least = percentiles(sizes)
    assert p5 >= 40 and least >= 24, (p5, least)
