"""A player's matches, newest first: date, opponent, result, reason, rating change ("+12.4", "–" when
unrated); 5 a page, under a line of the results against the computer per level; a row opens its replay (matches entered but never begun are left out). A practice
match names its opponent "Computer (Club)": results per level, never rated."""

from __future__ import annotations

import pygame

from kiosk.store.players import HistoryRow
from kiosk.table.computer import computer_name, level_name
from kiosk.table.intents import Back, HistoryPage, OpenReplay
from kiosk.table.players import END_REASONS, HISTORY_ROWS, RESULTS, change_text, date_text, practice_summary
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene, header
from kiosk.ui.scenes.lists import HISTORY_COLUMNS, columns, table_rows
from kiosk.ui.widgets import Hotspot, text


class History(Scene):
    """One player's matches (``records.player``)."""

    offers = (Back, HistoryPage, OpenReplay)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        w, h = context.size
        t = context.t
        layer = Layer(context, context.ui.facing)  # toward whoever opened it (table orientation)
        name = r.player.name if r.player is not None else ""
        y = header(layer, t._("{name}: matches", name=name), Back())
        row_h = max(52, int(h * 0.085))
        size = int(row_h * 0.55)
        head = [t._("Date"), t._("Opponent"), t._("Result"), t._("Reason"), t._("Rating")]
        practice = practice_summary(r.history, r.computer_levels)
        if practice:  # results against the computer, level by level (never rated)
            line = pygame.Rect(int(w * 0.03), y, int(w * 0.94), max(24, int(row_h * 0.55)))
            results = ", ".join(t._("{level} {wins}–{losses}", level=t(level_name(level)), wins=wins, losses=losses)
                                for level, wins, losses in practice)
            text(layer.surface, t._("Against the computer (wins–losses): {results}", results=results), line,
                 line.height - 4, theme.TEXT, align="left")
            y = line.bottom
        columns(layer, y, int(row_h * 0.8), head, HISTORY_COLUMNS, theme.TEXT_DIM, size)
        y += int(row_h * 0.8)
        if not r.history:
            text(layer.surface, t._("No matches yet."), pygame.Rect(w // 10, y, w * 8 // 10, row_h), size,
                 theme.TEXT_DIM)

        def cells(row: HistoryRow) -> tuple[list[str], tuple[int, int, int], OpenReplay | None]:
            level = r.computer_levels.get(row.match_id)
            if level is not None:
                opponent = t(computer_name(level))
            else:
                opponent = t._("Guest") if row.opponent_id is None else row.opponent
            reason = t.lookup(END_REASONS[row.reason]) if row.reason in END_REASONS else ""
            values = [date_text(row.date_wall), opponent, t.lookup(RESULTS[row.result]), reason,
                      change_text(row.rating_change)]
            opens = None if row.result == "unfinished" else OpenReplay(row.match_id)
            return values, theme.SCORE if row.result == "win" else theme.TEXT, opens

        table_rows(layer, r.history, r.history_page, HISTORY_ROWS, HistoryPage, HISTORY_COLUMNS, y, row_h, size, cells)
        return layer.finish(surface)
