"""The board and the hand on screen: tiles laid out by ``kiosk.ui.board.geometry``, drawn by ``kiosk.ui.board.render``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

from engine import Layout, Point, Tile
from kiosk.table.intents import TapPoint
from kiosk.ui import theme
from kiosk.ui.board.geometry import layout_board_if_it_fits
from kiosk.ui.board.render import draw_board, draw_tile
from kiosk.ui.board.zones import tap_zones
from kiosk.ui.widgets import Hotspot


def draw_board_area(surface: pygame.Surface, area: pygame.Rect, layout: Layout, targets: Sequence[Point], *,
                    last_score: int | None = None, anew: bool = False) -> list[Hotspot]:
    """Draw the layout inside ``area`` with ``targets`` highlighted; returns the targets' hotspots.

    The board is split among all open points, each taking the part nearest to it
    (``kiosk.ui.board.zones``); each highlighted point gets hotspots covering its part with
    rectangles a finger can hit (``TapZone.hotspots``).
    ``last_score`` marks the layout's last placement: None no mark, 0 an outline, more than 0
    the outline and a "+points" badge (``kiosk.ui.board.render.draw_last_placement``).
    ``anew``: the layout on its own at the largest size that fits (a board only looked at, such as
    the one under a round's result), not grown from the board before.
    """
    rect = (area.x, area.y, area.width, area.height)
    geometry = layout_board_if_it_fits(layout, rect, anew=anew)
    if geometry is None:
        return []
    draw_board(surface, geometry, highlight_points=tuple(targets), last_score=last_score)
    wanted = set(targets)
    return [
        Hotspot(pygame.Rect(rect), TapPoint(zone.point))
        for zone in tap_zones(geometry)
        if zone.point in wanted
        for rect in zone.hotspots
    ]


def board_rects(area: pygame.Rect, layout: Layout) -> list[pygame.Rect]:
    """What the board shows in ``area`` that nothing may be put over: its tiles (with room for the
    last one's outline and badge) and its open points' targets."""
    if layout.is_empty:
        return []
    geometry = layout_board_if_it_fits(layout, (area.x, area.y, area.width, area.height))
    if geometry is None:
        return []
    pad = max(4, geometry.tile_short // 2)
    return [pygame.Rect(t.rect).inflate(pad, pad) for t in geometry.tiles] + [pygame.Rect(t.rect) for t in geometry.targets]


def clear_of(rect: pygame.Rect, blocked: Sequence[pygame.Rect], bounds: pygame.Rect, inward: int) -> pygame.Rect:
    """``rect`` moved up (``inward`` < 0) or down (> 0) within ``bounds``, a few pixels at a time, to the
    first place that covers none of ``blocked``; failing that, narrowed to the widest clear part of its
    row (at least half as wide); failing that, ``rect`` as it was."""
    step = 4 if inward > 0 else -4
    probe = rect.copy()
    while bounds.top <= probe.top and probe.bottom <= bounds.bottom:
        if probe.collidelist(list(blocked)) < 0:
            return probe
        probe.move_ip(0, step)
    edges = sorted({rect.left, rect.right, *(b.left for b in blocked), *(b.right for b in blocked)})
    best: pygame.Rect | None = None
    for i, left in enumerate(edges):
        for right in edges[i + 1:]:
            if rect.left <= left < right <= rect.right:
                part = pygame.Rect(left, rect.y, right - left, rect.h)
                if part.collidelist(list(blocked)) < 0 and (best is None or part.w > best.w):
                    best = part
    return best if best is not None and best.w >= rect.w // 2 else rect


HAND_PITCH = 48
"""The distance between neighbouring hand tiles' centres when the hand has room (a finger's width)."""


def draw_hand(
    surface: pygame.Surface,
    area: pygame.Rect,
    hand: Sequence[Tile],
    playable: Iterable[Tile],
    selected: Tile | None,
    playing: bool,
) -> list[tuple[Tile, pygame.Rect]]:
    """Draw ``hand`` upright in a row centred in ``area``; returns each tile's rectangle.

    While the player is to play, tiles that fit are lit and the others dimmed; the picked-up tile
    is raised and outlined.
    """
    if not hand:
        return []
    can_play = set(playable)
    gap = max(3, area.width // 100)
    tile_h = area.height - area.height // 6
    tile_w = tile_h // 2
    if len(hand) * (tile_w + gap) > area.width:
        tile_w = max(8, (area.width - gap * (len(hand) - 1)) // len(hand))
        tile_h = 2 * tile_w
    elif tile_w + gap < HAND_PITCH and len(hand) * HAND_PITCH - (HAND_PITCH - tile_w) <= area.width:
        gap = HAND_PITCH - tile_w  # tiles a finger apart: each tile's column is a 48 px target
    total = len(hand) * tile_w + (len(hand) - 1) * gap
    x = area.centerx - total // 2
    base_y = area.bottom - tile_h
    placed = []
    for tile in hand:
        lift = area.height // 6 if tile == selected else 0
        rect = pygame.Rect(x, base_y - lift, tile_w, tile_h)
        dim = playing and tile not in can_play
        draw_tile(surface, rect, tile.low, tile.high, True, highlight=theme.ACCENT if tile == selected else None)
        if dim:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 120))
            surface.blit(shade, rect)
        elif playing and tile in can_play and tile != selected:
            pygame.draw.rect(surface, theme.ACCENT, rect.inflate(4, 4), width=2, border_radius=max(3, tile_w // 6))
        placed.append((tile, rect))
        x += tile_w + gap
    return placed
