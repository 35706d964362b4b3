"""Match over: the winner and why, or aborted without a result (and why); the final balances and
both remaining hands; Rematch and Home in the panels."""

from __future__ import annotations

import pygame

from engine import EndReason
from engine.events import TIMING_FAILURE
from kiosk.i18n import N_, Text, Translator
from kiosk.table.intents import GoHome, OpenHelp, OpenReview, Rematch
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.review import review_button_label
from kiosk.ui.scenes.table import Button, Line, TableScene
from kiosk.ui.widgets import Hotspot

REASONS = {
    EndReason.BALANCE: N_("because the other player's points ran out"),
    EndReason.TIME: N_("because the other player's time ran out"),
    EndReason.RESIGN: N_("because the other player resigned"),
    EndReason.ABORTED: N_("aborted"),
}
class MatchOver(TableScene):
    """The result card; Rematch keeps the players, Home makes both seats guests."""

    offers = (Rematch, GoHome, OpenHelp, OpenReview)
    messages_above = True
    card_heading = 2  # the winner and why stay together; the last messages follow them

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        c = self.context.controller

        def lines(t: Translator) -> list[Line]:
            return self.result_lines(session, t)

        if not c.review.offered(c):
            spots += self.card(surface, lines, None, role="result")
            return
        job = c.review.job  # Review on the card (each half's, facing its player), its progress on it
        for seat in c.review.seats(c) if self.table_mode else (None,):
            label = review_button_label(self.context.t_for(seat), c.review.progress, job is not None and job.done)
            spots += self.card(surface, lines, seat, [(label, OpenReview(seat), False)], role="result")

    def result_lines(self, session: GameSession, t: Translator) -> list[Line]:
        """The winner and why (or the abort and its reason), and the final balances, in ``t``'s language."""
        o = session.match.outcome
        assert o is not None
        lines: list[Line]
        if o.winner is None:
            detail = t(session.abort_reason or Text(o.detail_template or TIMING_FAILURE, dict(o.detail_params)))
            lines = [(t._("Match aborted - no result"), 3, theme.DANGER_TEXT), (detail[:1].upper() + detail[1:], 2, theme.TEXT)]
        else:
            title = t._("{name} wins", name=self.context.controller.player_name(o.winner))
            lines = [(title, 3, theme.ACCENT), (t.lookup(REASONS[o.reason]), 2, theme.TEXT)]
        b = session.match.balances
        name = self.context.controller.player_name  # whose is whose, on either half
        lines.append((t._("Final balances: {first_player} {first}, {second_player} {second}", first_player=name(0),
                          first=b[0], second_player=name(1), second=b[1]), 2, theme.TEXT_DIM))
        return lines

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        button(big, t._("Rematch"), Rematch(), True)
        button(small, t._("Home"), GoHome())
