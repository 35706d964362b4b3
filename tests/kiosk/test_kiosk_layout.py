"""Every screen's layout record at 800 x 480: targets a finger can hit and clear of the owner's
area, texts readable (size, contrast, drawn), and in table orientation each player reading what
they need from their own edge (the same checks as the shared layout audit)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from kiosk_support import kiosk_app, tap

from kiosk.config import KioskConfig
from kiosk.devtools.screenshots import shoot
from kiosk.i18n import LANGUAGES
from kiosk.table import intents as do
from kiosk.ui import layout, theme


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
    record: dict[str, object] = {
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
    recorder = layout.LayoutRecorder()
    with layout.recording(recorder):
        recorder.clear(screen)
        panel = pygame.Surface((800, 100))
        panel.fill((10, 40, 30))
        layout.frame(panel, pygame.Rect(0, 0, 800, 100), True, 1)
        layout.text(panel, pygame.Rect(0, 0, 200, 30), 24, (240, 236, 222), "Player 2")
    (record,) = recorder.texts
    assert record.rect == (600, 70, 200, 30) and record.facing == 1 and record.seat == 1
    assert record.bg == (10, 40, 30)


def test_the_help_faces_the_player_who_opened_it(tmp_path: Path) -> None:
    """Player 2's Rules (top half, table orientation) opens the help turned toward them, in their
    language; Player 1's opens it upright; a tap on the home screen's Rules faces the half tapped."""
    config = KioskConfig()
    config = replace(config, display=replace(config.display, orientation="table"))
    app, clock = kiosk_app(config, simulator=True, step=True)
    tap(app, do.NewMatch())
    app.ui.player_languages[1] = "uk"
    app.step(wait=False)
    rules = [spot for spot in app.stage.hotspots if isinstance(spot.intent, do.OpenHelp)]
    assert sorted(spot.intent.player for spot in rules) == [0, 1]
    top = next(spot for spot in rules if spot.intent.player == 1)
    assert top.rect.centery < 240
    tap(app, top.intent)
    assert app.ui.help_open and app.ui.help_facing == 1 and app.stage.help_pages() > 0
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        app.draw(clock.now(), full=True)
    help_texts = [t for t in recorder.texts if t.role == "help"]
    assert help_texts and all(t.facing == 1 for t in help_texts)
    assert all(any("\u0400" <= ch <= "\u04ff" for ch in t.text) for t in help_texts if t.text.strip("0123456789 ()/.,:-"))
    close = next(spot for spot in app.stage.hotspots if isinstance(spot.intent, do.CloseHelp))
    assert close.rect.centery > 240  # Close is at Player 2's top-right, which is the screen's bottom-left side
    tap(app, do.CloseHelp())
    tap(app, do.OpenHelp(0))
    assert app.ui.help_facing == 0


@pytest.mark.parametrize("orientation", ["table", "upright"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_settlement_board_lies_clear_of_its_cards(orientation: str, size: tuple[int, int]) -> None:
    from kiosk.ui.scenes.base import Context
    from kiosk.ui.scenes.settlement import Settlement

    config = KioskConfig()
    app, _ = kiosk_app(config, size=size, start_s=0, simulator=True)
    scene = Settlement(Context(app.controller, size, orientation))
    board = scene.board_area()
    cards = [card for card, _ in scene.top_cards()]
    assert len(cards) == (2 if orientation == "table" else 1)
    assert all(not card.colliderect(board) for card in cards)
    assert board.height >= app.stage.regions.board.height // 3


def test_a_recorder_takes_only_the_drawing_of_the_context_it_was_handed_to() -> None:
    """Recorders are handed to the drawing context, not set in module globals: drawing outside the
    ``with`` (or a surface drawn by hand meanwhile) records nothing."""
    app, clock = kiosk_app()
    recorder = layout.LayoutRecorder()
    fits: list[theme.Fit] = []
    with app.stage.context.recorded(layout=recorder, fits=fits):
        assert layout.recorder() is None  # only while the stage draws
        app.draw(clock.now(), full=True)
    texts, measured = len(recorder.texts), len(fits)
    assert texts > 0 and measured > 0 and {t.text for t in recorder.texts} & {f.text for f in fits}
    app.draw(clock.now(), full=True)
    layout.text(pygame.Surface((100, 100)), pygame.Rect(0, 0, 50, 20), 16, (255, 255, 255), "by hand")
    assert (len(recorder.texts), len(fits)) == (texts, measured)
    assert app.stage.context.layout_recorder is None and app.stage.context.fits is None
