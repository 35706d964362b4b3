"""The score sheet over the table's middle: each round's result, the points it moved and both balances
after it (``kiosk.table.scoresheet``); the players' panels and clocks stay on screen and the clocks
keep running. Opened with one tap on the round and end count in the sidebar, during the match and
after it; it faces whoever opened it (turned toward Player 2 in table orientation), in their language."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import CloseScoreSheet, Noop, ScoreSheetPage
from kiosk.table.players import pages
from kiosk.table.scoresheet import SheetRound, score_sheet
from kiosk.ui import layout, theme
from kiosk.ui.part import Part
from kiosk.ui.scenes.base import Scene
from kiosk.ui.widgets import Hotspot, draw_button, text

COLUMNS = ((0.02, 0.12, "right"), (0.15, 0.47, "left"), (0.49, 0.73, "right"), (0.75, 0.98, "right"))
"""Round, result, Player 1's balance (change), Player 2's."""


def result_text(t: Translator, row: SheetRound, who: Callable[[int], str]) -> str:
    """How the round ended, in words."""
    if row.ended == "domino" and row.dominoer is not None:
        return t._("Domino: {player}", player=who(row.dominoer))
    if row.ended == "blocked":
        return t._("Blocked")
    if row.ended == "over":
        return t._("Match over")
    return t._("In play")


def transfers_text(t: Translator, row: SheetRound, who: Callable[[int], str]) -> str:
    """The points the round moved: the opening's bid, each player's scores in order, the blocked round's pips."""
    parts: list[str] = []
    if row.auction is not None:
        payer, _, n = row.auction
        parts.append(t.n_("{player} pays {n} for the opening", "{player} pays {n} for the opening", n,
                          player=who(payer)))
    for seat in (0, 1):
        mine = [n for payee, n in row.scores if payee == seat]
        if mine:
            parts.append(t(who(seat)) + " " + " ".join(f"+{n}" for n in mine))
    if row.blocked is not None:
        payee, n = row.blocked
        parts.append(t.n_("{player} receives {n} for the blocked round", "{player} receives {n} for the blocked round",
                          n, player=who(payee)))
    return "; ".join(parts) if parts else t._("No points moved")


def balance_text(row: SheetRound, seat: int) -> str:
    """A balance after the round and the round's change: "65 (+25)"."""
    return f"{row.balances[seat]} ({row.received(seat):+d})"


class ScoreSheet(Scene):
    """The sheet over the table's middle, facing ``ui.sheet_facing``."""

    offers = (Noop, CloseScoreSheet, ScoreSheetPage)

    @property
    def rect(self) -> pygame.Rect:
        """Where the sheet lies: the table's middle (the panels and clocks stay uncovered)."""
        return self.context.regions.middle

    def per_page(self, rect: pygame.Rect) -> int:
        """How many rounds a page shows in ``rect``."""
        return max(1, (rect.height - self._top(rect)) // self._row_h(rect))

    @staticmethod
    def _title_h(rect: pygame.Rect) -> int:
        return max(layout.MIN_TARGET + 8, rect.height // 6)

    def _top(self, rect: pygame.Rect) -> int:
        return self._title_h(rect) + 6 + max(20, rect.height // 12)

    @staticmethod
    def _row_h(rect: pygame.Rect) -> int:
        return max(46, rect.height // 6)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        ui = context.ui
        rect = self.rect
        facing = ui.sheet_facing
        turned = context.facing(facing)
        part = Part(rect, turned)
        local = part.surface
        box = local.get_rect()
        spots = [Hotspot(box, Noop())]  # the sheet takes the taps over the board
        pygame.draw.rect(local, theme.PANEL, box, border_radius=10)
        t = context.t_for(facing)
        who = context.controller.player_name
        session = context.controller.session
        rows = [] if session is None else score_sheet(session.match, session.events)
        per_page = self.per_page(box)
        count = pages(len(rows), per_page)
        page = count - 1 if ui.sheet_page < 0 else min(ui.sheet_page, count - 1)
        pad = max(6, box.width // 60)
        title_h = self._title_h(box)
        close = pygame.Rect(box.right - pad - box.width // 5, 4, box.width // 5, title_h - 6)
        draw_button(local, close, t._("Close"), primary=True)
        spots.append(Hotspot(close, CloseScoreSheet()))
        pager_w = 0
        if count > 1:
            bw = max(layout.MIN_TARGET, title_h * 5 // 4)
            down = pygame.Rect(close.x - pad - bw, close.y, bw, close.height)
            up = pygame.Rect(down.x - pad // 2 - bw, close.y, bw, close.height)
            for button, label, target, enabled in ((up, "▲", page - 1, page > 0), (down, "▼", page + 1, page < count - 1)):
                draw_button(local, button, label, enabled=enabled)
                if enabled:
                    spots.append(Hotspot(button, ScoreSheetPage(target)))
            pager_w = close.x - up.x
            caption = t._("Page {page} of {pages}", page=page + 1, pages=count)
            text(local, caption, pygame.Rect(up.x - pad - box.width // 6, close.y, box.width // 6, close.height),
                 max(theme.MIN_READABLE, title_h // 3), theme.TEXT_DIM, role="sheet")
            pager_w += pad + box.width // 6
        title = pygame.Rect(pad, pad // 2, close.x - pager_w - 2 * pad, title_h - pad // 2)
        text(local, t._("Score sheet"), title, title_h * 3 // 5, theme.ACCENT, bold=True, align="left", role="sheet")
        head_y, head_h = title_h + 6, max(20, box.height // 12)
        size = max(theme.MIN_READABLE + 2, self._row_h(box) * 2 // 5)
        small = max(theme.MIN_READABLE, self._row_h(box) // 3)
        heads = [t._("Round"), t._("Result"), t(who(0)), t(who(1))]
        self._cells(local, head_y, head_h, heads, small, theme.TEXT_DIM)
        if not rows:
            text(local, t._("No rounds yet."), pygame.Rect(pad, self._top(box), box.width - 2 * pad, self._row_h(box)),
                 size, theme.TEXT_DIM, role="sheet")
        y = self._top(box)
        row_h = self._row_h(box)
        for row in rows[page * per_page:(page + 1) * per_page]:
            line = pygame.Rect(pad // 2, y + 1, box.width - pad, row_h - 2)
            pygame.draw.rect(local, theme.BOARD, line, border_radius=6)
            top_h = row_h * 11 // 20
            values = [str(row.number), result_text(t, row, who), balance_text(row, 0), balance_text(row, 1)]
            self._cells(local, y + 2, top_h, values, size, theme.SCORE if not row.ended else theme.TEXT)
            detail = pygame.Rect(int(box.width * COLUMNS[1][0]), y + top_h, int(box.width * 0.83), row_h - top_h - 3)
            text(local, transfers_text(t, row, who), detail, small, theme.TEXT_DIM, align="left", role="sheet")
            y += row_h
        part.add(spots)
        return part.put(surface)

    @staticmethod
    def _cells(local: pygame.Surface, y: int, height: int, values: list[str], size: int,
               colour: tuple[int, int, int]) -> None:
        w = local.get_width()
        for value, (left, right, align) in zip(values, COLUMNS):
            text(local, value, pygame.Rect(int(w * left), y, int(w * (right - left)), height), size, colour,
                 align=align, role="sheet")
