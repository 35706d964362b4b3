"""Draw domino tiles and a laid-out board (``kiosk.ui.board.geometry.BoardGeometry``) with pygame.

Only ``pygame.draw`` and plain surfaces: works on any Surface, with or without a display.
Everything a tile draws stays inside its rectangle (the shadow too), so tiles that touch on
the board never paint over each other.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from engine import Point, Tile
from kiosk.ui import layout, theme
from kiosk.ui.board.geometry import BoardGeometry, OpenTarget, PlacedTile, Rect

Color = tuple[int, int, int]

IVORY: Color = (246, 241, 226)
EDGE: Color = (168, 158, 136)
SHADOW: Color = (22, 26, 24)
DIVIDER: Color = (128, 118, 100)
PIP: Color = (28, 28, 34)
SPINNER_ORANGE: Color = (255, 140, 0)
TARGET_GLOW: Color = (255, 221, 64)
LAST_OUTLINE: Color = (120, 214, 255)  # light blue: never taken for the spinner's orange
"""The outline of the tile placed last (and its score badge)."""
BADGE_TEXT: Color = theme.BUTTON_PRIMARY_TEXT

_PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
"""Pip spots on a 3 x 3 grid (column, row) of an upright half; six is two columns of three."""


def draw_tile(
    surface: pygame.Surface,
    rect: Rect | pygame.Rect,
    first_value: int,
    second_value: int,
    vertical: bool,
    *,
    highlight: Color | None = None,
) -> None:
    """Draw one tile filling ``rect``: ``first_value`` on the top (vertical) or left half.

    An ivory face with rounded corners, a shadow at the bottom right, a dividing line and the
    pips; ``highlight`` draws a border in that colour just inside the face.
    """
    box = pygame.Rect(rect)
    short = min(box.w, box.h)
    if short < 4:
        pygame.draw.rect(surface, IVORY, box)
        return
    drop = max(1, short // 14)
    face = pygame.Rect(box.x, box.y, box.w - drop, box.h - drop)
    radius = max(1, short // 6)
    pygame.draw.rect(surface, SHADOW, face.move(drop, drop), border_radius=radius)
    pygame.draw.rect(surface, IVORY, face, border_radius=radius)
    pygame.draw.rect(surface, EDGE, face, width=1, border_radius=radius)
    first, second = _halves(face, vertical)
    _draw_divider(surface, face, vertical, short)
    _draw_pips(surface, first, first_value, vertical)
    _draw_pips(surface, second, second_value, vertical)
    if highlight is not None:
        width = max(2, short // 10)
        pygame.draw.rect(surface, highlight, face, width=width, border_radius=radius)


def draw_tile_face_up(surface: pygame.Surface, rect: Rect | pygame.Rect, tile: Tile, *,
                      highlight: Color | None = None) -> None:
    """Draw ``tile`` (low value first) upright if ``rect`` is taller than wide, else lying down."""
    box = pygame.Rect(rect)
    draw_tile(surface, box, tile.low, tile.high, box.h > box.w, highlight=highlight)


def draw_board(
    surface: pygame.Surface,
    geometry: BoardGeometry,
    *,
    highlight_points: Iterable[Point] = (),
    spinner_outline: bool = True,
    last_score: int | None = None,
) -> None:
    """Draw every tile of ``geometry``, the spinner's orange outline and the highlighted points.

    A highlighted open point shows a glowing frame over its tap target with a dot where the
    next tile would join. ``last_score`` marks the tile placed last (the layout's last
    placement): None draws no mark, 0 a thick accent outline, a positive number the outline
    and a badge with the points that placement scored ("+10").
    """
    for placed in geometry.tiles:
        outline = SPINNER_ORANGE if spinner_outline and placed.is_spinner else None
        draw_tile(surface, placed.rect, placed.first_value, placed.second_value, placed.vertical,
                  highlight=outline)
        layout.board_item(surface, placed.rect, "tile")
    draw_links(surface, geometry)
    wanted = set(highlight_points)
    for target in geometry.targets:
        if target.point in wanted:
            draw_target(surface, target)
            layout.board_item(surface, target.rect, "lit")
    if last_score is not None and geometry.tiles:
        draw_last_placement(surface, geometry, last_score)


def draw_links(surface: pygame.Surface, geometry: BoardGeometry) -> None:
    """Draw each link from where an arm that the board walled in ends to the tile (or the open end)
    laid in free room for it: an ivory line edged dark, over the tiles it crosses, with a dot at both ends."""
    width = max(2, geometry.tile_short // 8)
    for start, end in [t.link for t in geometry.tiles if t.link] + [
            (t.link, t.anchor) for t in geometry.targets if t.link]:
        pygame.draw.line(surface, SHADOW, start, end, width + 4)
        for dot in (start, end):
            pygame.draw.circle(surface, SHADOW, dot, width + 3)
        pygame.draw.line(surface, IVORY, start, end, width)
        for dot in (start, end):
            pygame.draw.circle(surface, IVORY, dot, width + 1)


def last_placed(geometry: BoardGeometry) -> PlacedTile | None:
    """The tile placed last (the highest placing index), or None on an empty board."""
    return max(geometry.tiles, key=lambda t: t.index, default=None)


def draw_last_placement(surface: pygame.Surface, geometry: BoardGeometry, score: int) -> pygame.Rect | None:
    """Outline the tile placed last and, if ``score`` > 0, put a "+score" badge on its corner.

    The outline sits just outside the tile. The badge goes on the corner where it covers the
    least of the tap targets and other tiles, kept inside the board's area. Returns the badge's
    rectangle (None without a badge).
    """
    placed = last_placed(geometry)
    if placed is None:
        return None
    box = pygame.Rect(placed.rect)
    short = min(box.w, box.h)
    width = max(3, short // 8)
    pygame.draw.rect(surface, LAST_OUTLINE, box.inflate(2 * width - 2, 2 * width - 2), width=width,
                     border_radius=max(2, short // 5))
    if score <= 0:
        return None
    image = theme.render(f"+{score}", max(theme.MIN_READABLE, round(short * 0.75)), BADGE_TEXT, bold=True)
    badge = badge_place(geometry, placed, image.get_rect().inflate(max(8, short // 3), 2))
    pygame.draw.rect(surface, LAST_OUTLINE, badge, border_radius=badge.h // 2)
    pygame.draw.rect(surface, SHADOW, badge, width=1, border_radius=badge.h // 2)
    surface.blit(image, image.get_rect(center=badge.center))
    layout.board_item(surface, badge, "badge")
    return badge


def badge_place(geometry: BoardGeometry, placed: PlacedTile, badge: pygame.Rect) -> pygame.Rect:
    """``badge`` moved onto the corner of ``placed`` where it hides the least (targets count thrice)."""
    box = pygame.Rect(placed.rect)
    area = pygame.Rect(geometry.area)
    targets = [pygame.Rect(t.rect) for t in geometry.targets]
    others = [pygame.Rect(t.rect) for t in geometry.tiles if t is not placed]

    def hidden(spot: pygame.Rect) -> int:
        cover = 3 * sum(_area(spot.clip(r)) for r in targets) + sum(_area(spot.clip(r)) for r in others)
        return cover + _area(spot) - _area(spot.clip(area))

    best: pygame.Rect | None = None
    best_hidden = 0
    for corner in (box.topright, box.bottomright, box.topleft, box.bottomleft):
        spot = badge.copy()
        spot.center = corner
        spot.clamp_ip(area)
        cover = hidden(spot)
        if best is None or cover < best_hidden:
            best, best_hidden = spot, cover
    assert best is not None
    return best


def _area(r: pygame.Rect) -> int:
    return r.w * r.h


def draw_target(surface: pygame.Surface, target: OpenTarget, color: Color = TARGET_GLOW) -> None:
    """Mark an open point's tap target: a translucent fill, a bright frame and a joining dot."""
    box = pygame.Rect(target.rect)
    short = min(box.w, box.h)
    if short < 2:
        return
    glow = pygame.Surface(box.size, pygame.SRCALPHA)
    radius = max(1, short // 5)
    pygame.draw.rect(glow, (*color, 80), glow.get_rect(), border_radius=radius)
    pygame.draw.rect(glow, (*color, 255), glow.get_rect(), width=max(2, short // 8), border_radius=radius)
    surface.blit(glow, box)
    dot = _join_dot(target, box)
    pygame.draw.circle(surface, color, dot, max(2, short // 5))


def _join_dot(target: OpenTarget, box: pygame.Rect) -> tuple[int, int]:
    """The centre of the target's square that touches the open end (clamped inside the target)."""
    ax, ay = target.anchor
    dx, dy = target.direction
    short = min(box.w, box.h)
    x = ax + dx * short // 2
    y = ay + dy * short // 2
    r = max(2, short // 5)
    return (min(max(x, box.left + r), box.right - r - 1), min(max(y, box.top + r), box.bottom - r - 1))


def _halves(face: pygame.Rect, vertical: bool) -> tuple[pygame.Rect, pygame.Rect]:
    """The two halves of a tile face: top and bottom, or left and right."""
    if vertical:
        top = face.h // 2
        return pygame.Rect(face.x, face.y, face.w, top), pygame.Rect(face.x, face.y + top, face.w, face.h - top)
    left = face.w // 2
    return pygame.Rect(face.x, face.y, left, face.h), pygame.Rect(face.x + left, face.y, face.w - left, face.h)


def _draw_divider(surface: pygame.Surface, face: pygame.Rect, vertical: bool, short: int) -> None:
    """The line across the middle of the face, stopping short of the edges."""
    inset = max(1, short // 7)
    width = max(1, short // 22)
    if vertical:
        y = face.y + face.h // 2
        pygame.draw.line(surface, DIVIDER, (face.x + inset, y), (face.right - 1 - inset, y), width)
    else:
        x = face.x + face.w // 2
        pygame.draw.line(surface, DIVIDER, (x, face.y + inset), (x, face.bottom - 1 - inset), width)


def _draw_pips(surface: pygame.Surface, half: pygame.Rect, value: int, vertical: bool) -> None:
    """The pips of ``value`` on one half, on a 3 x 3 grid (turned a quarter on a lying tile)."""
    side = min(half.w, half.h)
    radius = max(1, round(side * 0.095))
    step = side * 0.27
    cx, cy = half.centerx, half.centery
    for col, row in _PIP_SPOTS[value]:
        if not vertical:
            col, row = row, col
        pygame.draw.circle(surface, PIP, (round(cx + (col - 1) * step), round(cy + (row - 1) * step)), radius)
