"""The board tests' shared pieces: rounds written as text, the board after each placement as played, a
point on a rectangle's edge, and the check that a round keeps every tile where it was laid."""

from __future__ import annotations

from engine import Layout
from kiosk.devtools.board_bench import Stability, board_rect, stability
from kiosk.ui.board.geometry import BoardGeometry, Rect, layout_placements, min_readable_long


def round_of(text: str) -> Layout:
    """A round written as ``tile@at_tile:slot`` placements (the opening tile without ``@``)."""
    return Layout.from_list([[tile, at.split(":") if at else None]
                             for tile, _, at in (word.partition("@") for word in text.split())])


def boards_as_played(layout: Layout, area: Rect) -> list[BoardGeometry]:
    """The board after each placement of ``layout``'s round, as the players saw it."""
    shown = []
    for n in range(1, len(layout.placements) + 1):
        part = layout.placements[:n]
        shown.append(layout_placements(part, next((p.tile for p in part if p.tile.is_double), None), area))
    return shown


def on_edge(point: tuple[int, int], rect: Rect, slack: int = 2) -> bool:
    """True if ``point`` lies on the border of ``rect`` (within ``slack`` pixels)."""
    x, y = point
    rx, ry, rw, rh = rect
    inside = rx - slack <= x <= rx + rw + slack and ry - slack <= y <= ry + rh + slack
    return inside and (min(abs(x - rx), abs(x - rx - rw)) <= slack or min(abs(y - ry), abs(y - ry - rh)) <= slack)


def check_every_tile_kept(screen: tuple[int, int], found: str, played: str) -> Stability:
    """Each placement of the round ``played`` on ``screen``'s board keeps every earlier tile's place and
    direction (a pan or a rescale of the whole board allowed), and the tiles stay readable; its figures."""
    layout = round_of(played)
    area = board_rect(*screen)
    s = stability([layout], area)
    assert s.placements == len(layout) - 1
    assert s.moved_placements == 0, (found, s.cases)
    final = layout_placements(layout.placements, layout.spinner, area)
    assert final.tile_long >= min_readable_long(area)
    return s
