"""Colours, fonts and text fitting for every screen."""

from __future__ import annotations

from functools import lru_cache

import pygame

BACKGROUND = (14, 61, 43)  # table felt
BOARD = (20, 84, 58)
PANEL = (10, 40, 30)
PANEL_ACTIVE = (24, 70, 52)
TEXT = (240, 236, 222)
TEXT_DIM = (170, 190, 175)
ACCENT = (255, 176, 59)  # the running clock, the spinner, highlights
DANGER = (226, 84, 70)
BUTTON = (46, 112, 86)
BUTTON_PRIMARY = (214, 140, 36)
BUTTON_DISABLED = (48, 66, 58)
BUTTON_TEXT = (250, 248, 240)
CHIP = (205, 60, 50)
CHIP_EDGE = (250, 230, 210)
OVERLAY = (6, 24, 18)
SCORE = (255, 214, 102)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The kiosk's font at ``size`` pixels."""
    f = pygame.font.Font(None, max(8, size))
    f.set_bold(bold)
    return f


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 12) -> pygame.font.Font:
    """The largest font up to ``size`` in which ``text`` fits ``max_width`` (never below ``min_size``)."""
    while size > min_size and font(size, bold).size(text)[0] > max_width:
        size -= 1
    return font(size, bold)


def render_fit(text: str, max_width: int, size: int, colour: tuple[int, int, int] = TEXT, bold: bool = False) -> pygame.Surface:
    """``text`` rendered as large as fits ``max_width``, up to ``size``."""
    return fit_font(text, max_width, size, bold).render(text, True, colour)


def wrap(text: str, max_width: int, f: pygame.font.Font) -> list[str]:
    """``text`` broken into lines that fit ``max_width`` in font ``f``."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        line = ""
        for word in words:
            candidate = word if not line else f"{line} {word}"
            if f.size(candidate)[0] <= max_width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
