"""The warning banner: whether results are being saved, else the first configuration, hardware,
journal or font warning, across the top.

Over the home screen (and its help) and the named players' screens; the settings screen lists every
warning instead, and the table shows none (a match in progress is not covered).
"""

from __future__ import annotations

import pygame

from kiosk.i18n.messages import as_text
from kiosk.ui import fonts, theme
from kiosk.ui.scenes.base import Context, Scene
from kiosk.ui.widgets import Hotspot, paragraph, rows_for, text


def warning_count(context: Context) -> int:
    """How many warnings there are (saving, configuration, hardware, journal, fonts)."""
    return (context.ui.saving is not None) + len(context.ui.warnings) + len(fonts.warnings())


def warning_lines(context: Context, most: int = 1) -> list[str]:
    """The first ``most`` of the banner's warnings in the host language (only those are translated:
    a file with thousands of problems costs a frame no more than one with one)."""
    t = context.t
    lines = [t(context.ui.saving)] if context.ui.saving is not None else []
    lines += [t._("Configuration: {warning}", warning=t(as_text(w))) for w in context.ui.warnings[:most]]
    lines += [t(w) for w in fonts.warnings()[:most]]
    return lines[:most]


def banner_text(context: Context, warnings: list[str]) -> str:
    """The first warning, and how many more the settings screen lists."""
    value = warnings[0]
    more = warning_count(context) - 1
    if more > 0:
        value = context.t.n_("{warning} (+{n} more: see Settings)", "{warning} (+{n} more: see Settings)", more,
                             warning=value)
    return value


def banner_rect(context: Context, warnings: list[str]) -> pygame.Rect:
    """Where the warning banner goes: across the top, one to three lines high."""
    w, h = context.size
    line_h = max(22, int(h * 0.06))
    return pygame.Rect(0, 0, w, line_h * rows_for(banner_text(context, warnings), w - 12, line_h, most=3))


class Banner(Scene):
    """The first warning across the top (on two or three lines when one is not enough)."""

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        warnings = warning_lines(self.context)
        h = self.context.size[1]
        value = banner_text(self.context, warnings)
        line_h = max(22, int(h * 0.06))
        rect = banner_rect(self.context, warnings)
        rows = rect.height // line_h
        pygame.draw.rect(surface, theme.DANGER, rect)
        if rows == 1:
            text(surface, value, rect.inflate(-12, -4), rect.height - 6, theme.BUTTON_TEXT)
        else:
            paragraph(surface, value, rect.inflate(-12, -4), line_h - 6, theme.BUTTON_TEXT, min_size=theme.MIN_READABLE)
        return []
