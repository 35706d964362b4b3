"""The rules help's pages: columns break between paragraphs (a paragraph taller than a whole column is
split, at a sentence end when it can be), headings stay with what follows, and every paragraph is
shown once, in order; the help's buttons are 48 px or more."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from kiosk.i18n import LANGUAGES
from kiosk.table.intents import CloseHelp, HelpLanguage, HelpPage
from kiosk.ui.help import SENTENCE_ENDS, _blocks, draw_help, help_layout

SCREENS = [((800, 480), "middle"), ((800, 480), "whole"), ((1280, 800), "middle"), ((1280, 800), "whole"),
           ((1024, 600), "middle")]


def overlay(size: tuple[int, int], where: str) -> pygame.Rect:
    """The help's rectangle: the whole screen, or the table's middle (between the players' panels)."""
    w, h = size
    panel = max(96, round(h * 0.25))
    return pygame.Rect(0, 0, w, h) if where == "whole" else pygame.Rect(0, panel, w, h - 2 * panel)


@pytest.fixture(autouse=True, scope="module")
def _pygame() -> None:
    pygame.init()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("size", "where"), SCREENS)
def test_columns_break_between_paragraphs(language: str, size: tuple[int, int], where: str) -> None:
    layout = help_layout(overlay(size, where), language, size[1])
    blocks = _blocks(language, layout.col_w, layout.body.height, layout.size)
    columns = [column for page in layout.pages for column in page]
    flat = [item for column in columns for item in column if item.kind != "gap"]
    assert flat == [item for block in blocks for item in block.items]  # everything once, in order
    column_of = [c for c, column in enumerate(columns) for item in column if item.kind != "gap"]
    for column in columns:
        assert sum(item.height for item in column) <= layout.body.height or len(column) == 1
        assert column and column[-1].kind != "heading"  # a heading never ends a column
        assert column[0].kind != "gap"
    split, at = 0, 0
    for block in blocks:
        used = column_of[at:at + len(block.items)]
        lines = list(zip(used, block.items, strict=True))
        at += len(block.items)
        if block.kind != "para":
            continue
        if block.height <= layout.body.height:
            assert len(set(used)) == 1, f"a paragraph that fits a column is split: {block.items[0].value!r}"
            continue
        split += 1
        for c in sorted(set(used))[:-1]:  # where a long paragraph breaks: at a sentence end when it can
            here = [str(item.value).rstrip() for col, item in lines if col == c]
            if any(line.endswith(SENTENCE_ENDS) for line in here):
                assert here[-1].endswith(SENTENCE_ENDS), here
    assert split <= len(blocks)  # (small screens may split long paragraphs; large ones never do)
    if size == (1280, 800):
        assert split == 0


def test_the_help_buttons_are_at_least_48_px_at_800x480() -> None:
    screen = pygame.Surface((800, 480))
    for where in ("middle", "whole"):
        spots = draw_help(screen, overlay((800, 480), where), "en", 1, 480)
        buttons = [s for s in spots if isinstance(s.intent, (CloseHelp, HelpLanguage, HelpPage))]
        assert len([s for s in buttons if isinstance(s.intent, HelpLanguage)]) == len(LANGUAGES)
        assert any(isinstance(s.intent, HelpPage) for s in buttons) and any(isinstance(s.intent, CloseHelp) for s in buttons)
        assert all(min(s.rect.size) >= 48 for s in buttons), [(s.intent, s.rect) for s in buttons]
