"""Every screen's layout record at 800 x 480: targets a finger can hit and clear of the owner's
area, texts readable (size, contrast, drawn), and in table orientation each player reading what
they need from their own edge (the same checks as the shared layout audit)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from kiosk.devtools.screenshots import shoot
from kiosk.i18n import LANGUAGES
from kiosk.ui import layout


def _problems(out: Path, orientation: str, language: str) -> list[str]:
    found = []
    pngs = shoot(out, (800, 480), orientation, language=language)
    assert len(pngs) >= 30
    for png in pngs:
        record = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
        assert record["scene"] and record["size"] == [800, 480] and record["orientation"] == orientation
        assert record["language"] == language and record["texts"] and record["admin_area"] is not None
        found += [f"{png.name}: {p}" for p in layout.problems(record, pygame.image.load(str(png)))]
    return found


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_every_screen_in_english_passes_the_layout_checks(orientation: str, tmp_path: Path) -> None:
    assert _problems(tmp_path, orientation, "en") == []


@pytest.mark.slow
@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_every_screen_in_every_language_passes_the_layout_checks(orientation: str, language: str,
                                                                 tmp_path: Path) -> None:
    assert _problems(tmp_path, orientation, language) == []


def test_the_checks_find_what_they_are_for() -> None:
    image = pygame.Surface((800, 480))
    image.fill((0, 0, 0))
    pygame.draw.rect(image, (255, 255, 255), (10, 300, 40, 20))
    record = {
        "size": [800, 480], "orientation": "table", "admin_area": [0, 432, 48, 48],
        "targets": [{"rect": [0, 440, 100, 40], "seat": 0, "what": "Small"}],
        "texts": [
            {"rect": [10, 300, 40, 20], "px": 14, "facing": 0, "seat": 1, "role": "round", "fg": "#777777",
             "bg": "#666666", "text": "Round 2"},
            {"rect": [600, 100, 40, 20], "px": 20, "facing": 0, "seat": None, "role": "other", "fg": "#ffffff",
             "bg": "#000000", "text": "blank"},
        ],
    }
    found = layout.problems(record, image)
    assert any("target Small is 100x40" in p for p in found)
    assert any("overlaps the admin area" in p for p in found)
    assert any("is 14 px" in p for p in found)
    assert any("contrast" in p for p in found)
    assert any("'blank' is not drawn" in p for p in found)
    assert any("for player 2 faces 0" in p for p in found)
    assert any("shared round faces only [0]" in p for p in found)


def test_a_text_on_a_turned_panel_is_recorded_where_it_lands_and_facing_player_2() -> None:
    screen = pygame.Surface((800, 480))
    screen.fill((0, 0, 0))
    recorder = layout.start()
    try:
        recorder.clear(screen)
        panel = pygame.Surface((800, 100))
        panel.fill((10, 40, 30))
        layout.frame(panel, pygame.Rect(0, 0, 800, 100), True, 1)
        layout.text(panel, pygame.Rect(0, 0, 200, 30), 24, (240, 236, 222), "Player 2")
    finally:
        layout.stop()
    (record,) = recorder.texts
    assert record.rect == (600, 70, 200, 30) and record.facing == 1 and record.seat == 1
    assert record.bg == (10, 40, 30)
