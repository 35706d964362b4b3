"""Drawing tiles and boards: pips are countable, and nothing is drawn outside its rectangle."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import itertools

import pygame
import pytest

from engine import Layout, Match, Start, shuffle_deal, tile
from kiosk.ui.board.geometry import Rect, layout_board
from kiosk.ui.board.render import (
    IVORY,
    LAST_OUTLINE,
    SPINNER_ORANGE,
    TARGET_GLOW,
    draw_board,
    draw_last_placement,
    draw_tile,
    draw_tile_face_up,
    last_placed,
)

FELT = (10, 90, 60)


def dark_blobs(surface: pygame.Surface, region: pygame.Rect) -> int:
    """How many separate groups of dark pixels (pips) lie in ``region``."""
    dark = {
        (x, y)
        for x in range(region.left, region.right)
        for y in range(region.top, region.bottom)
        if sum(surface.get_at((x, y))[:3]) < 200
    }
    blobs = 0
    while dark:
        blobs += 1
        stack = [dark.pop()]
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in dark:
                    dark.remove(n)
                    stack.append(n)
    return blobs


def half_regions(rect: pygame.Rect, vertical: bool) -> tuple[pygame.Rect, pygame.Rect]:
    """The inner parts of a tile's two halves, clear of its border, divider and shadow."""
    short = min(rect.w, rect.h)
    inset = max(2, short // 8)
    if vertical:
        first = pygame.Rect(rect.x, rect.y, rect.w, rect.h // 2)
        second = pygame.Rect(rect.x, rect.y + rect.h // 2, rect.w, rect.h - rect.h // 2)
    else:
        first = pygame.Rect(rect.x, rect.y, rect.w // 2, rect.h)
        second = pygame.Rect(rect.x + rect.w // 2, rect.y, rect.w - rect.w // 2, rect.h)
    return first.inflate(-2 * inset, -2 * inset), second.inflate(-2 * inset, -2 * inset)


def changed_outside(surface: pygame.Surface, allowed: list[pygame.Rect]) -> list[tuple[int, int]]:
    """Pixels that are no longer the felt colour outside every allowed rectangle."""
    w, h = surface.get_size()
    return [
        (x, y)
        for x in range(w)
        for y in range(h)
        if surface.get_at((x, y))[:3] != FELT and not any(r.collidepoint(x, y) for r in allowed)
    ]


@pytest.mark.parametrize("vertical", [False, True])
@pytest.mark.parametrize("size", [(120, 60), (48, 24)])
def test_every_value_shows_its_number_of_pips(vertical: bool, size: tuple[int, int]) -> None:
    long, short = size
    rect = pygame.Rect(4, 4, *((short, long) if vertical else (long, short)))
    for first in range(7):
        for second in range(7):
            surface = pygame.Surface((long + 8, long + 8))
            surface.fill(FELT)
            draw_tile(surface, rect, first, second, vertical)
            a, b = half_regions(rect, vertical)
            assert (dark_blobs(surface, a), dark_blobs(surface, b)) == (first, second), (first, second)


def test_pips_stay_countable_at_the_readable_minimum() -> None:
    rect = pygame.Rect(2, 2, 24, 12)
    for value in range(7):
        surface = pygame.Surface((30, 30))
        surface.fill(FELT)
        draw_tile(surface, rect, value, 6 - value, False)
        a, b = half_regions(rect, False)
        assert (dark_blobs(surface, a), dark_blobs(surface, b)) == (value, 6 - value)


def test_a_tile_draws_only_inside_its_rectangle_and_is_ivory() -> None:
    surface = pygame.Surface((200, 200))
    surface.fill(FELT)
    rect = pygame.Rect(50, 40, 70, 140)
    draw_tile(surface, rect, 6, 5, True, highlight=SPINNER_ORANGE)
    assert changed_outside(surface, [rect]) == []
    assert surface.get_at((rect.centerx, rect.y + rect.height // 4))[:3] == IVORY  # the six's half has no middle pip
    assert any(surface.get_at((rect.x + 2, y))[:3] == SPINNER_ORANGE for y in range(rect.top, rect.bottom))


def test_face_up_tiles_stand_in_tall_rectangles_and_lie_in_wide_ones() -> None:
    for rect, vertical in ((pygame.Rect(10, 10, 40, 80), True), (pygame.Rect(10, 10, 80, 40), False)):
        surface = pygame.Surface((100, 100))
        surface.fill(FELT)
        draw_tile_face_up(surface, rect, tile(2, 5))
        a, b = half_regions(rect, vertical)
        assert (dark_blobs(surface, a), dark_blobs(surface, b)) == (2, 5)
        assert changed_outside(surface, [rect]) == []


@pytest.mark.parametrize("size", [(1, 1), (3, 2), (6, 3), (0, 0)])
def test_tiny_rectangles_are_a_plain_ivory_block_inside_the_rectangle(size: tuple[int, int]) -> None:
    surface = pygame.Surface((20, 20))
    surface.fill(FELT)
    draw_tile(surface, (2, 2, *size), 6, 6, False)
    rect = pygame.Rect(2, 2, *size)
    assert changed_outside(surface, [rect]) == []
    assert all(surface.get_at((x, y))[:3] == IVORY for x in range(rect.left, rect.right)
               for y in range(rect.top, rect.bottom))


def random_round(seed: int) -> Layout:
    """The last layout of a round from a match of random legal actions."""
    rng = random.Random(seed)
    match = Match()
    longest = Layout()
    while not match.is_over:
        action = rng.choice(match.legal_actions())
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        match.apply(action, 0)
        if len(match.layout) > len(longest):
            longest = match.layout.copy()
    return longest


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_draws_its_tiles_and_highlights_inside_the_area(seed: int) -> None:
    layout = random_round(seed)
    area: Rect = (30, 20, 760, 260)
    surface = pygame.Surface((820, 300))
    surface.fill(FELT)
    geo = layout_board(layout, area)
    highlighted = [p for p, _ in layout.open_points()][:2]
    draw_board(surface, geo, highlight_points=highlighted)
    allowed = [pygame.Rect(t.rect) for t in geo.tiles]
    allowed += [pygame.Rect(t.rect) for t in geo.targets if t.point in highlighted]
    assert changed_outside(surface, allowed) == []
    for placed in geo.tiles:
        r = pygame.Rect(placed.rect)
        assert any(surface.get_at((x, r.centery))[:3] == IVORY for x in range(r.left, r.right))
        orange = any(surface.get_at((r.x + 1, y))[:3] == SPINNER_ORANGE for y in range(r.top, r.bottom))
        assert orange == placed.is_spinner
    for target in geo.targets:
        r = pygame.Rect(target.rect)
        glow = any(surface.get_at((x, r.top + 1))[:3] == TARGET_GLOW for x in range(r.left, r.right))
        assert glow == (target.point in highlighted)


def test_spinner_outline_can_be_turned_off() -> None:
    layout = Layout()
    layout.place(tile(4, 4), None)
    geo = layout_board(layout, (0, 0, 400, 200))
    surface = pygame.Surface((400, 200))
    surface.fill(FELT)
    draw_board(surface, geo, spinner_outline=False)
    r = pygame.Rect(geo.tiles[0].rect)
    assert not any(surface.get_at((x, y))[:3] == SPINNER_ORANGE for x in range(r.left, r.right) for y in range(r.top, r.bottom))


def accent_pixels(surface: pygame.Surface, region: pygame.Rect) -> int:
    """How many pixels of ``region`` are the last placement's outline colour."""
    region = region.clip(surface.get_rect())
    return sum(surface.get_at((x, y))[:3] == LAST_OUTLINE
               for x in range(region.left, region.right) for y in range(region.top, region.bottom))


def ring(rect: pygame.Rect, width: int) -> list[pygame.Rect]:
    """The four strips of ``width`` px just outside ``rect``'s sides (corners left out)."""
    return [pygame.Rect(rect.x, rect.y - width, rect.w, width), pygame.Rect(rect.x, rect.bottom, rect.w, width),
            pygame.Rect(rect.x - width, rect.y, width, rect.h), pygame.Rect(rect.right, rect.y, width, rect.h)]


@pytest.mark.parametrize("seed", [4, 6])
def test_the_last_placed_tile_is_outlined_with_its_score(seed: int) -> None:
    pygame.font.init()
    layout = random_round(seed)
    area: Rect = (30, 20, 676, 264)
    geo = layout_board(layout, area)
    last = last_placed(geo)
    assert last is not None and last.tile == layout.placements[-1].tile and last.index == len(layout) - 1
    box = pygame.Rect(last.rect)
    shots = {}
    for score in (None, 0, 15):
        surface = pygame.Surface((740, 310))
        surface.fill(FELT)
        draw_board(surface, geo, last_score=score)
        shots[score] = surface
    plain, outlined, scored = shots[None], shots[0], shots[15]
    for side in ring(box, 2):  # a thick accent line all round the tile, and only with a last placement
        assert accent_pixels(outlined, side) >= side.w * side.h * 0.8
        assert accent_pixels(plain, side) == 0
    other = pygame.Rect(next(t for t in geo.tiles if t is not last and t.index < len(layout) - 2).rect)
    assert all(accent_pixels(outlined, side) == 0 for side in ring(other, 1)
               if not side.colliderect(box.inflate(12, 12)))  # no other tile is outlined
    badge = draw_last_placement(scored, geo, 15)
    assert draw_last_placement(outlined.copy(), geo, 0) is None  # no score, no badge
    assert badge is not None and pygame.Rect(area).contains(badge) and badge.collidepoint(
        *min((box.topleft, box.topright, box.bottomleft, box.bottomright),
             key=lambda c: (c[0] - badge.centerx) ** 2 + (c[1] - badge.centery) ** 2))
    assert accent_pixels(scored, badge) > badge.w * badge.h // 3  # the badge is an accent pill
    assert dark_blobs(scored, badge.inflate(-4, -4)) >= 3  # with "+15" written on it
    assert accent_pixels(outlined, badge.inflate(-6, -6)) < accent_pixels(scored, badge.inflate(-6, -6))


@pytest.mark.parametrize("count", [1, 7, 12])
def test_hand_tiles_stand_a_finger_apart_when_the_hand_has_room(count: int) -> None:
    from engine import ALL_TILES
    from kiosk.ui.board.table import HAND_PITCH, draw_hand

    area = pygame.Rect(10, 5, 448, 92)  # an 800 x 480 screen's hand
    surface = pygame.Surface((470, 100))
    hand = list(ALL_TILES[:count])
    drawn = draw_hand(surface, area, hand, hand, None, True)
    assert [t for t, _ in drawn] == hand
    rects = [r for _, r in drawn]
    assert all(area.contains(r) for r in rects)
    pitches = [b.centerx - a.centerx for a, b in itertools.pairwise(rects)]
    if count * HAND_PITCH <= area.width:
        assert all(p >= HAND_PITCH for p in pitches)
    else:
        assert all(a.right <= b.left for a, b in itertools.pairwise(rects))  # fitted, side by side
