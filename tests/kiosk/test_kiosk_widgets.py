"""Small drawing pieces: chip stacks."""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.widgets import CHIP_VALUES, chip_stacks, draw_chips


def test_a_balance_is_shown_in_the_fewest_chips() -> None:
    white, blue, red = (colour for _, colour in CHIP_VALUES)
    assert chip_stacks(135) == [(white, 1), (blue, 1), (red, 2)]
    assert chip_stacks(400) == [(white, 4)]
    assert chip_stacks(0) == [] and chip_stacks(-5) == []
    assert sum(v * n for (v, _), (_, n) in zip(CHIP_VALUES, chip_stacks(380), strict=True)) == 380


def test_chips_are_drawn_tall_enough_to_read_as_chips_not_a_dash() -> None:
    surface = pygame.Surface((92, 32))
    surface.fill(theme.PANEL)
    draw_chips(surface, surface.get_rect(), 20)  # four red chips, one stack
    rows = [y for y in range(32) if any(surface.get_at((x, y))[:3] != theme.PANEL for x in range(92))]
    assert len(rows) >= 4 * 5 and any(surface.get_at((x, y))[:3] == theme.CHIP for x in range(92) for y in rows)
    before = pygame.image.tobytes(surface, "RGB")
    surface.fill(theme.PANEL)
    empty = pygame.image.tobytes(surface, "RGB")
    draw_chips(surface, surface.get_rect(), 0)
    assert pygame.image.tobytes(surface, "RGB") == empty != before
