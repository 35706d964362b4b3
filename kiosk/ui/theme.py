"""Colours, fonts and text fitting for every screen.

Sizes are line heights in pixels, as with pygame's built-in font: a font of size 30 fills a
30-pixel line. The font for a string is the first face (``kiosk.fonts``) with a glyph for every
one of its characters. Fitting and rendering are cached: a full redraw renders almost nothing.

A list handed to the drawing context (``Context.recorded(fits=[])``) receives a ``Fit`` for every
text the stage draws (the fit tests; ``recording_fits``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

import pygame

from kiosk.ui import fonts
from kiosk.ui.bidi import visual_order

BACKGROUND = (14, 61, 43)  # table felt
BOARD = (20, 84, 58)
PANEL = (10, 40, 30)
PANEL_ACTIVE = (24, 70, 52)
TEXT = (240, 236, 222)
TEXT_DIM = (170, 190, 175)
ACCENT = (255, 176, 59)  # the running clock, the spinner, highlights
DANGER = (226, 84, 70)
DANGER_TEXT = (255, 128, 112)
"""Red for text on the dark panels and strips (readable at 4.5:1)."""
BUTTON = (46, 112, 86)
BUTTON_PRIMARY = (214, 140, 36)
BUTTON_DISABLED = (48, 66, 58)
BUTTON_TEXT = (250, 248, 240)
BUTTON_PRIMARY_TEXT = (28, 22, 10)
"""Dark on the orange of a primary button (white on it has a contrast of 2.6:1)."""
CHIP = (205, 60, 50)
CHIP_EDGE = (250, 230, 210)
OVERLAY = (6, 24, 18)
SCORE = (255, 214, 102)

EM_SCALE = 0.6875
"""A font's em over its size (pygame's built-in font uses the same ratio)."""
MIN_SIZE = 16
"""Fitting never shrinks text below this size."""
MIN_READABLE = 16
"""The smallest size the fit tests accept on an 800 x 480 screen (an em of about 10 pixels)."""


@dataclass(frozen=True, slots=True)
class Fit:
    """One text as drawn: its box, the size asked for and the size used, and whether it fitted."""

    text: str
    box: tuple[int, int]
    asked: int
    used: int
    width: int
    height: int
    fits: bool
    kind: str = "line"


_FITS: ContextVar[list[Fit] | None] = ContextVar("fits", default=None)


def fits() -> list[Fit] | None:
    """Where the drawing under way records its fits (None: nowhere)."""
    return _FITS.get()


@contextmanager
def recording_fits(into: list[Fit] | None) -> Iterator[list[Fit] | None]:
    """Record the fits of what is drawn inside the ``with`` into ``into`` (None: nowhere)."""
    token = _FITS.set(into)
    try:
        yield into
    finally:
        _FITS.reset(token)


def record(fit: Fit) -> None:
    if (into := fits()) is not None:
        into.append(fit)


@lru_cache(maxsize=96)  # the sizes of a few screens in both scripts (about 80 in a soak); bounded memory
def _font(size: int, bold: bool, face: fonts.Face) -> pygame.font.Font:
    size = max(8, size)
    if face.regular is None:
        f = pygame.font.Font(None, size)
        f.set_bold(bold)
        return f
    path = face.bold if bold and face.bold else face.regular
    f = pygame.font.Font(path, max(6, round(size * EM_SCALE)))
    if bold and path == face.regular:
        f.set_bold(True)
    return f


def font(size: int, bold: bool = False, sample: str = "") -> pygame.font.Font:
    """The kiosk's font at ``size`` for text like ``sample`` (the face that has its glyphs)."""
    return _font(size, bold, fonts.face_for(sample))


@lru_cache(maxsize=1024)
def fit_size(text: str, max_width: int, size: int, bold: bool = False, min_size: int = MIN_SIZE) -> int:
    """The largest size up to ``size`` at which ``text`` fits ``max_width`` (never below ``min_size``)."""
    face = fonts.face_for(text)
    width = _font(size, bold, face).size(text)[0]
    if width <= max_width or size <= min_size:
        return size
    guess = max(min_size, min(size - 1, size * max_width // max(width, 1)))  # text width grows with the size
    while guess < size - 1 and _font(guess + 1, bold, face).size(text)[0] <= max_width:
        guess += 1
    while guess > min_size and _font(guess, bold, face).size(text)[0] > max_width:
        guess -= 1
    return guess


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = MIN_SIZE) -> pygame.font.Font:
    """The largest font up to ``size`` in which ``text`` fits ``max_width`` (never below ``min_size``)."""
    return font(fit_size(text, max_width, size, bold, min_size), bold, text)


@lru_cache(maxsize=128)  # a screen's texts; texts with numbers change often: bounded memory (docs/journal.md: soak)
def render_fit(text: str, max_width: int, size: int, colour: tuple[int, int, int] = TEXT, bold: bool = False) -> pygame.Surface:
    """``text`` rendered as large as fits ``max_width``, up to ``size`` (cached: do not draw on it)."""
    return fit_font(text, max_width, size, bold).render(visual_order(text), True, colour)


@lru_cache(maxsize=96)
def render(text: str, size: int, colour: tuple[int, int, int] = TEXT, bold: bool = False) -> pygame.Surface:
    """``text`` rendered at ``size`` (cached: do not draw on it)."""
    return font(size, bold, text).render(visual_order(text), True, colour)


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


@lru_cache(maxsize=512)
def wrap_fit(text: str, width: int, height: int, size: int, min_size: int) -> tuple[int, tuple[str, ...], bool]:
    """The largest size down to ``min_size`` at which ``text`` wraps into ``width`` x ``height``:
    (size, lines, fits)."""
    while True:
        f = font(size, False, text)
        lines = tuple(wrap(text, width, f))
        fits = len(lines) * f.get_linesize() <= height and all(f.size(line)[0] <= width for line in lines)
        if fits or size <= min_size:
            return size, lines, fits
        size -= 1
