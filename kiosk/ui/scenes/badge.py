"""The last placement's "+points" badge in table orientation: the number twice on one badge, once
upright for Player 1's edge and once turned for Player 2's, so the score reads from both sides."""

from __future__ import annotations

import pygame

from engine import Layout
from kiosk.ui import layout, theme
from kiosk.ui.board.geometry import layout_board
from kiosk.ui.board.render import BADGE_TEXT, LAST_OUTLINE, SHADOW, badge_place, last_placed
from kiosk.ui.part import Part


def draw_badge_both_ways(surface: pygame.Surface, area: pygame.Rect, board: Layout, score: int) -> pygame.Rect | None:
    """The badge for ``score`` on the corner of the tile placed last (as the board in ``area`` lays it
    out), where it hides the fewest other tiles; returns its rectangle (None: nothing to mark)."""
    geometry = layout_board(board, (area.x, area.y, area.width, area.height))
    placed = last_placed(geometry)
    if placed is None or score <= 0:
        return None
    box = pygame.Rect(placed.rect)
    short = min(box.w, box.h)
    value = f"+{score}"
    px = max(theme.MIN_READABLE, round(short * 0.6))
    image = theme.render(value, px, BADGE_TEXT, bold=True)
    ink = image.get_bounding_rect()
    half = ink.h + 4
    badge = pygame.Rect(0, 0, ink.w + max(8, short // 3), 2 * half + 2)
    best = badge_place(geometry, placed, badge)  # where the upright badge would go: clear of the lit points
    best.clamp_ip(area)
    pygame.draw.rect(surface, LAST_OUTLINE, best, border_radius=best.w // 4)
    pygame.draw.rect(surface, SHADOW, best, width=1, border_radius=best.w // 4)
    for seat, rect in ((0, pygame.Rect(best.x, best.centery, best.w, best.h - best.h // 2)),
                       (1, pygame.Rect(best.x, best.y, best.w, best.h // 2))):
        part = Part(rect, seat == 1, clear=True)
        centre = part.surface.get_rect().center
        where = image.get_rect(topleft=(centre[0] - ink.centerx, centre[1] - ink.centery))  # the ink in the middle
        layout.text(part.surface, where, px, BADGE_TEXT, value, role="score", seat=None, image=image)
        part.surface.blit(image, where)
        part.put(surface)
    layout.board_item(surface, best, "badge")  # as the upright badge (render.draw_last_placement): part of the board
    return best
