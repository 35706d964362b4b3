"""The settings screen: what the kiosk runs with (screen, clock, buttons, panel, language) and every
warning, paged when they take more than one screen; Back, Rules, and Edit (the owner PIN, then the
editor: ``settings_edit``); what the last Save did on its first line."""

from __future__ import annotations

import pygame

from kiosk.table.intents import EditSettings, GoHome, OpenHelp, SettingsPage
from kiosk.ui import fonts, theme
from kiosk.ui.scenes.base import Scene, clear_of_admin, turned_toward
from kiosk.ui.widgets import Hotspot, draw_button, paragraph, rows_for, text


def pack_pages(lines: list[tuple[str, int]], rows: int) -> list[list[tuple[str, int]]]:
    """``lines`` (each with its rows) packed into pages of ``rows`` rows (always at least one page)."""
    pages: list[list[tuple[str, int]]] = [[]]
    used = 0
    for line, need in lines:
        if pages[-1] and used + need > rows:
            pages.append([])
            used = 0
        pages[-1].append((line, need))
        used += need
    return pages


class Settings(Scene):
    """The settings' lines, each on as many rows as it needs (up to four), a page at a time."""

    offers = (GoHome, OpenHelp, SettingsPage, EditSettings)

    def _layout(self) -> tuple[pygame.Rect, pygame.Rect, int, list[list[tuple[str, int]]]]:
        """The Back button, the lines' box, a row's height and the pages of lines."""
        context = self.context
        w, h = context.size
        t = context.t
        ui = context.ui
        lines = [t(ui.owner.notice)] if ui.owner.notice else []
        lines += ui.status_line.split("\n") if ui.status_line else []
        lines += [t._("Warning: {warning}", warning=t(x)) for x in fonts.warnings()]
        back = pygame.Rect(0, 0, int(w * 0.25), max(40, int(h * 0.1)))
        back.bottomright = (w // 2 - 8, h - int(h * 0.04))
        row_h = int(h * 0.06)
        box = pygame.Rect(int(w * 0.08), int(h * 0.16), int(w * 0.84), back.top - 8 - int(h * 0.16))
        pages = pack_pages([(line, rows_for(line, box.width, row_h)) for line in lines], box.height // row_h)
        return back, box, row_h, pages

    def page_count(self) -> int:
        """How many pages the settings take now."""
        return len(self._layout()[3])

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        return turned_toward(self.context, surface, self.context.ui.facing, self._paint)  # whoever opened it

    def _paint(self, surface: pygame.Surface) -> list[Hotspot]:
        context = self.context
        w, h = context.size
        t = context.t
        spots: list[Hotspot] = []
        text(surface, t._("Settings"), pygame.Rect(0, int(h * 0.04), w, int(h * 0.1)), int(h * 0.08), theme.ACCENT,
             bold=True)
        back, box, row_h, pages = self._layout()
        page = min(context.ui.settings_page, len(pages) - 1)
        y = box.y
        notice = t(context.ui.owner.notice) if context.ui.owner.notice else None
        for line, rows in pages[page]:
            rect = pygame.Rect(box.x, y, box.width, rows * row_h)
            colour = theme.TEXT if line != notice else theme.ACCENT if context.ui.owner.notice_ok else theme.DANGER
            if rows == 1:
                text(surface, line, rect, row_h - 4, colour, align="left")
            else:
                paragraph(surface, line, rect, row_h - 4, colour, min_size=theme.MIN_READABLE, align="left")
            y += rows * row_h
        draw_button(surface, back, t._("Back"), primary=True)
        spots.append(Hotspot(back, GoHome()))
        rules = back.copy()
        rules.bottomleft = (w // 2 + 8, back.bottom)
        draw_button(surface, rules, t._("Rules"))
        spots.append(Hotspot(rules, OpenHelp(context.ui.facing)))
        edit = pygame.Rect(0, 0, int(w * 0.2), back.height)
        edit.topright = (w - int(w * 0.03), int(h * 0.03))
        edit = clear_of_admin(context, edit, context.facing(context.ui.facing))
        draw_button(surface, edit, t._("Edit"))
        spots.append(Hotspot(edit, EditSettings()))
        if len(pages) > 1:
            side = pygame.Rect(0, 0, back.left - 8 - int(w * 0.03), back.height)
            side.bottomleft = (int(w * 0.03), back.bottom)
            if page > 0:
                draw_button(surface, side, t._("Previous"))
                spots.append(Hotspot(side, SettingsPage(page - 1)))
            side = side.copy()
            side.bottomright = (w - int(w * 0.03), back.bottom)
            if page < len(pages) - 1:
                draw_button(surface, side, t._("Next"))
                spots.append(Hotspot(side, SettingsPage(page + 1)))
            text(surface, t._("Page {page} of {pages}", page=page + 1, pages=len(pages)),
                 pygame.Rect(int(w * 0.03), int(h * 0.04), int(w * 0.25), int(h * 0.1)), int(h * 0.04), theme.TEXT_DIM,
                 align="left")
        return spots
