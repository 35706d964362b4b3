"""Where each part of the screen goes, for any landscape size and both orientations."""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True, slots=True)
class PanelRegions:
    """One player's edge of the screen, in that player's own upright coordinates (0, 0 at its top left)."""

    size: tuple[int, int]
    status: pygame.Rect
    hand: pygame.Rect
    actions: pygame.Rect


@dataclass(frozen=True, slots=True)
class Regions:
    """The screen split: two player panels (player 1 at the far/top edge), the middle, its sidebar."""

    size: tuple[int, int]
    panels: tuple[pygame.Rect, pygame.Rect]
    """On-screen rectangles of player 0's (bottom) and player 1's (top) panels."""
    turned: tuple[bool, bool]
    """Whether a player's panel is drawn turned 180 degrees (player 1 in table mode)."""
    middle: pygame.Rect
    sidebar: pygame.Rect
    board: pygame.Rect
    local: PanelRegions
    admin_area: pygame.Rect
    """Where holding a finger asks for the owner's PIN (kept clear of every control on every screen)."""


def compute_regions(width: int, height: int, orientation: str) -> Regions:
    """The regions for a ``width`` x ``height`` screen in ``"table"`` or ``"upright"`` orientation."""
    panel_h = max(100, round(height * 0.217))
    bottom = pygame.Rect(0, height - panel_h, width, panel_h)
    top = pygame.Rect(0, 0, width, panel_h)
    middle = pygame.Rect(0, panel_h, width, height - 2 * panel_h)
    side_w = max(110, round(width * 0.14))
    sidebar = pygame.Rect(middle.x, middle.y, side_w, middle.height)
    board = pygame.Rect(middle.x + side_w, middle.y, middle.width - side_w, middle.height).inflate(-12, -8)
    status_w = max(170, round(width * 0.23))
    actions_w = max(150, round(width * 0.2))
    local = PanelRegions(
        size=(width, panel_h),
        status=pygame.Rect(0, 0, status_w, panel_h).inflate(-10, -10),
        hand=pygame.Rect(status_w, 0, width - status_w - actions_w, panel_h).inflate(-8, -12),
        actions=pygame.Rect(width - actions_w, 0, actions_w, panel_h).inflate(-10, -6),
    )
    return Regions(
        size=(width, height),
        panels=(bottom, top),
        turned=(False, orientation == "table"),
        middle=middle,
        sidebar=sidebar,
        board=board,
        local=local,
        admin_area=admin_area(width, height),
    )


ADMIN_SIDE = 48
"""The admin area's side in pixels at 800 x 480 (it grows with the screen)."""


def admin_area(width: int, height: int) -> pygame.Rect:
    """The owner's hold area: a square at the bottom-left corner, in Player 1's name strip."""
    side = max(ADMIN_SIDE, round(ADMIN_SIDE * height / 480))
    return pygame.Rect(0, height - side, side, side)


def to_screen(local: pygame.Rect, panel: pygame.Rect, turned: bool) -> pygame.Rect:
    """A rectangle in a panel's own coordinates as it lies on the screen."""
    if not turned:
        return local.move(panel.x, panel.y)
    return pygame.Rect(
        panel.x + panel.width - local.x - local.width,
        panel.y + panel.height - local.y - local.height,
        local.width,
        local.height,
    )
