"""A part drawn on its own surface, turned toward the far seat: pixels and hotspots turned alike."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from kiosk.table.intents import GoHome
from kiosk.ui import layout
from kiosk.ui.part import Part

RED, GREEN = (255, 0, 0), (0, 255, 0)


@pytest.mark.parametrize("turned", [False, True])
def test_a_part_is_put_turned_and_its_hotspots_land_on_what_it_drew(turned: bool) -> None:
    screen = pygame.Surface((200, 100))
    part = Part(pygame.Rect(10, 20, 40, 30), turned, fill=GREEN)
    button = pygame.Rect(0, 0, 6, 4)  # the part's top-left corner: its reader's top-left
    part.surface.fill(RED, button)
    part.spot(button, GoHome())
    [spot] = part.put(screen)
    assert spot.rect == (pygame.Rect(44, 46, 6, 4) if turned else pygame.Rect(10, 20, 6, 4))
    assert all(screen.get_at((x, y))[:3] == RED for x in range(spot.rect.left, spot.rect.right)
               for y in range(spot.rect.top, spot.rect.bottom))
    assert screen.get_at((30, 35))[:3] == GREEN and screen.get_at((5, 5))[:3] == (0, 0, 0)


def test_a_clear_part_keeps_what_lies_beneath_and_is_declared_to_the_layout_records() -> None:
    screen = pygame.Surface((100, 100))
    screen.fill(GREEN)
    recorder = layout.LayoutRecorder()
    with layout.recording(recorder):
        part = Part(pygame.Rect(0, 0, 50, 50), True, 1, clear=True)
        layout.text(part.surface, pygame.Rect(0, 0, 20, 10), 16, (255, 255, 255), "x")
        part.put(screen)
    assert screen.get_at((25, 25))[:3] == GREEN
    [record] = recorder.texts
    assert (record.rect, record.facing, record.seat) == ((30, 40, 20, 10), 1, 1)
