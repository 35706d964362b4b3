"""The leaderboard: rank, name, rating (rounded), rated games, rated wins; 6 a page; a row opens
that player's history. Read from the journal when it opens (``PlayerDesk.open_leaderboard``)."""

from __future__ import annotations

import pygame

from kiosk.table.intents import GoHome, LeaderboardPage, ManagePlayers, OpenHistory
from kiosk.table.players import BOARD_ROWS
from kiosk.table.state import BoardRow
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene, header
from kiosk.ui.scenes.lists import BOARD_COLUMNS, columns, table_rows
from kiosk.ui.widgets import Hotspot, text, text_or_wrap


class Leaderboard(Scene):
    """The named players by rating."""

    offers = (GoHome, LeaderboardPage, OpenHistory, ManagePlayers)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        w, h = context.size
        t = context.t
        layer = Layer(context, context.ui.facing)  # toward whoever opened it (table orientation)
        y = header(layer, t._("Leaderboard"), GoHome())
        row_h = max(52, int(h * 0.085))
        head = [t._("#"), t._("Name"), t._("Rating"), t._("Games"), t._("Wins")]
        size = int(row_h * 0.6)
        columns(layer, y, int(row_h * 0.8), head, BOARD_COLUMNS, theme.TEXT_DIM, size)
        y += int(row_h * 0.8)
        if not r.board:
            text_or_wrap(layer.surface, t._("No named players yet. Pick names on the ready screen."),
                         pygame.Rect(w // 10, y, w * 8 // 10, row_h * 3), size, theme.TEXT_DIM)

        def cells(row: BoardRow) -> tuple[list[str], tuple[int, int, int], OpenHistory]:
            p = row.player
            return [f"{row.rank}", p.name, p.rating_text, f"{p.games}", f"{row.wins}"], theme.TEXT, OpenHistory(p.id)

        table_rows(layer, r.board, r.board_page, BOARD_ROWS, LeaderboardPage, BOARD_COLUMNS, y, row_h, size, cells)
        pad = max(8, w // 60)
        bh = max(48, int(h * 0.09))
        if r.board:  # the owner's rename / delete / merge, behind the PIN
            layer.button(pygame.Rect(w - pad - w // 5, h - bh - 4, w // 5, bh), t._("Manage"), ManagePlayers())
        if any(row.player.provisional for row in r.board):
            left = max(pad, context.regions.admin_area.right + pad)
            text(layer.surface, t._("?: provisional rating"), pygame.Rect(left, h - bh - 4, w // 4 - left, bh),
                 max(16, bh * 2 // 5), theme.TEXT_DIM, align="left")
        return layer.finish(surface)
