"""The home screen: New match, Play the computer, the leaderboard (with a journal), Rules, Settings, the
four languages — in table orientation on each half, facing its edge (what a half opens faces that seat).
With a club event taking entries, "Join <event>" beside New match and Play the computer on each half;
what became of a join pressed on a half is shown there where the title was (under the buttons beside a
pairing), in that seat's language."""

from __future__ import annotations

import pygame

from kiosk.i18n import LANGUAGES, NATIVE_NAMES
from kiosk.table.intents import (
    HostLanguage,
    Intent,
    JoinEvent,
    NewMatch,
    OpenHelp,
    OpenLeaderboard,
    OpenPractice,
    OpenSettings,
    StartPairing,
)
from kiosk.ui import theme
from kiosk.ui.part import Part
from kiosk.ui.scenes.banner import banner_rect, warning_lines
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.join_strip import draw_join_notice, join_label, join_notice, notice_colour
from kiosk.ui.scenes.pairing_strip import draw_pairing
from kiosk.ui.widgets import Hotspot, draw_button, text


class Home(Scene):
    """The title, the main buttons, the host language; the key legend and the panel's state below."""

    offers = (NewMatch, OpenPractice, OpenLeaderboard, OpenHelp, OpenSettings, HostLanguage, StartPairing, JoinEvent)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        if self.context.orientation == "table":
            return self.draw_halves(surface)
        return self.draw_upright(surface)

    def draw_halves(self, surface: pygame.Surface) -> list[Hotspot]:
        """Table orientation: the title and every button on each half, facing its edge's player; what a
        half opens faces the seat it was opened from."""
        context = self.context
        ui = context.ui
        w, h = context.size
        t = context.t
        spots: list[Hotspot] = []
        warnings = warning_lines(context)
        top = banner_rect(context, warnings).height if warnings else 0  # the banner lies over the top edge
        for seat in (0, 1):
            where = pygame.Rect(0, h // 2 if seat == 0 else top, w, h // 2 - (top if seat == 1 else 0))
            turned = context.facing(seat)
            part = Part(where, turned, fill=theme.BACKGROUND)
            local = part.surface
            lw, lh = local.get_size()
            mine: list[Hotspot] = []
            gap = max(6, lh // 40)
            bh = max(48, min(lh // 5, 56))
            rows_h = 3 * bh + 3 * gap
            line = ui.legend or (ui.status_line.split("\n")[3] if ui.status_line.count("\n") >= 3 else ui.status_line)
            events = context.controller.events
            pairing = events.offered()  # a club event's pairing replaces the title, else a join's notice does
            notice = events.joins.notice(seat)
            below = notice is not None and pairing is not None  # beside a pairing: the notice under the buttons
            head = max(28, lh - rows_h - gap - (20 if (seat == 0 and line) or below else 0))
            if pairing is not None:
                mine += draw_pairing(local, pygame.Rect(0, 0, lw, head), t, pairing)
            elif notice is not None:
                draw_join_notice(local, pygame.Rect(0, 0, lw, head), context.t_for(seat), *notice)
            else:
                text(local, t._("Spectacular Bid"), pygame.Rect(0, 0, lw, head), min(head, int(h * 0.1)), theme.ACCENT,
                     bold=True)
            who = seat or None  # Player 1's half opens screens upright, which faces their edge
            rows: list[list[tuple[str, Intent, bool]]] = [
                [(t._("New match"), NewMatch(), True), (t._("Play the computer"), OpenPractice(who), True)],
                [(t._("Rules"), OpenHelp(who), False), (t._("Settings"), OpenSettings(who), False)]]
            joinable = events.joins.offered()
            if joinable is not None:  # a club event taking entries: its Join, opening this half's picker
                rows[0].append((join_label(context.t_for(seat), joinable.name), JoinEvent(seat, joinable.uuid), True))
            if ui.records.available:
                rows[1].insert(0, (t._("Leaderboard"), OpenLeaderboard(who), False))
            rows.append([(NATIVE_NAMES[code], HostLanguage(code), code == ui.language) for code in LANGUAGES])
            y = head
            bw = int(w * 0.86)
            for row in rows:
                cw = (bw - gap * (len(row) - 1)) // len(row)
                for i, (label, intent, primary) in enumerate(row):
                    rect = pygame.Rect(w // 2 - bw // 2 + i * (cw + gap), y, cw, bh)
                    draw_button(local, rect, label, primary=primary)
                    mine.append(Hotspot(rect, intent))
                y += bh + gap
            if below and notice is not None:  # in the line the buttons' state takes on Player 1's half
                text(local, join_notice(context.t_for(seat), *notice), pygame.Rect(56, y, lw - 112, 20), 16,
                     notice_colour(notice[0]))
            elif seat == 0 and line:  # the simulator's keys, or the buttons' state
                text(local, line, pygame.Rect(56, y, lw - 112, 20), 16, theme.TEXT_DIM)
            part.add(mine)
            spots += part.put(surface)
        return spots

    def draw_upright(self, surface: pygame.Surface) -> list[Hotspot]:
        context = self.context
        ui = context.ui
        w, h = context.size
        t = context.t
        spots: list[Hotspot] = []
        warnings = warning_lines(context)
        banner = banner_rect(context, warnings).height if warnings else 0
        title = pygame.Rect(0, max(int(h * 0.07), banner + 2), w, int(h * 0.15))  # never under the banner
        events = context.controller.events
        pairing = events.offered()  # a club event's pairing replaces the title
        if pairing is not None:
            spots += draw_pairing(surface, title, t, pairing)
        else:
            text(surface, t._("Spectacular Bid"), title, int(h * 0.14), theme.ACCENT, bold=True)
        sub = pygame.Rect(int(w * 0.06), title.bottom, int(w * 0.88), int(h * 0.07))
        notice = events.joins.notice(0)  # a join's notice replaces the subtitle
        if notice is not None:
            draw_join_notice(surface, sub, context.t_for(0), *notice)
        else:
            text(surface, t._("A Fives domino duel with an opening auction and a match clock"), sub, int(h * 0.05),
                 theme.TEXT_DIM)
        bw, bh = int(w * 0.6), max(48, int(h * 0.1))
        y = sub.bottom + int(h * 0.04)
        rows: list[list[tuple[str, Intent, bool]]] = [
            [(t._("New match"), NewMatch(), True), (t._("Play the computer"), OpenPractice(), True)],
            [(t._("Rules"), OpenHelp(), False)], [(t._("Settings"), OpenSettings(), False)]]
        joinable = events.joins.offered()
        if joinable is not None:  # a club event taking entries: its Join (the picker upright)
            bw = int(w * 0.8)
            rows[0].append((join_label(t, joinable.name), JoinEvent(0, joinable.uuid), True))
        if ui.records.available:  # named players: Rules and Settings share a row, the leaderboard has one
            rows = [rows[0], [(t._("Leaderboard"), OpenLeaderboard(), False)], rows[1] + rows[2]]
        for row in rows:
            gap = int(w * 0.015)
            cw = (bw - gap * (len(row) - 1)) // len(row)
            for i, (label, intent, primary) in enumerate(row):
                rect = pygame.Rect(w // 2 - bw // 2 + i * (cw + gap), y, cw, bh)
                draw_button(surface, rect, label, primary=primary)
                spots.append(Hotspot(rect, intent))
            y += bh + int(h * 0.025)
        # the languages, each named in itself
        lw, lh, gap = int(w * 0.2), max(48, int(h * 0.085)), int(w * 0.015)
        x = (w - 4 * lw - 3 * gap) // 2
        y += int(h * 0.01)
        for code in LANGUAGES:
            rect = pygame.Rect(x, y, lw, lh)
            draw_button(surface, rect, NATIVE_NAMES[code], primary=code == ui.language)
            spots.append(Hotspot(rect, HostLanguage(code)))
            x += lw + gap
        if ui.legend:
            text(surface, ui.legend, pygame.Rect(10, h - int(h * 0.065), w - 20, int(h * 0.05)), int(h * 0.04),
                 theme.TEXT_DIM)
        if ui.status_line:
            first = ui.status_line.split("\n")[3] if ui.status_line.count("\n") >= 3 else ui.status_line
            text(surface, first, pygame.Rect(10, h - int(h * 0.115), w - 20, int(h * 0.045)), int(h * 0.04),
                 theme.TEXT_DIM)
        return spots
