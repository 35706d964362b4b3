"""Between rounds: how the round ended (domino, or blocked with the pips and what moved), the
balances, the final layout below; Continue and each player's language in the panels."""

from __future__ import annotations

import pygame

from engine import RoundEnded, Transfer, TransferReason
from kiosk.i18n import Translator
from kiosk.table.intents import OpenHelp, PlayerLanguage, Start
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.ready import start_and_language
from kiosk.ui.scenes.table import Button, Line, TableScene
from kiosk.ui.widgets import Hotspot


class Settlement(TableScene):
    """The round's result over the top of the board; either player continues."""

    offers = (Start, PlayerLanguage, OpenHelp)
    messages_above = None
    board_anew = True

    def board_area(self) -> pygame.Rect:
        area = self.context.regions.board  # the result card sits above the final layout (table: a card at each edge)
        cards = [card for card, _ in self.top_cards()]
        top = max((c.bottom for c in cards if c.centery < area.centery), default=area.y) + 2
        bottom = min((c.y for c in cards if c.centery > area.centery), default=area.bottom) - 2
        return pygame.Rect(area.x, top, area.width, bottom - top)

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        self.card_top(surface, lambda t: self.result_lines(session, t), role="score")

    def result_lines(self, session: GameSession, t: Translator) -> list[Line]:
        """How the round ended and what moved, in ``t``'s language."""
        m = session.match
        index, ended = next(((i, e) for i, e in reversed(list(enumerate(session.events)))
                             if isinstance(e, RoundEnded)), (None, None))
        paid = next((e for e in session.events[(index or 0) + 1:]
                     if isinstance(e, Transfer) and e.reason is TransferReason.BLOCKED), None)
        lines: list[Line] = []
        if ended is not None and not ended.blocked:
            assert ended.dominoer is not None
            who = self.context.controller.player_name(ended.dominoer)
            lines.append((t._("Domino! {player} went out", player=who), 3, theme.ACCENT))
            lines.append((t._("{player} is the jockey of the next auction", player=who), 2, theme.TEXT))
        elif ended is not None:
            a, b = ended.pips
            lines.append((t._("Blocked: both players passed"), 3, theme.ACCENT))
            if a == b:
                lines.append((t._("Pips {a} and {b}: equal hands, nothing moves", a=a, b=b), 2, theme.TEXT))
            else:
                moved = 0 if paid is None else paid.points  # what the engine moved (capped, rounded)
                lighter = 0 if a < b else 1
                lines.append((t.n_("Pips {a} vs {b}: {player} receives {n}",
                                   "Pips {a} vs {b}: {player} receives {n}", moved,
                                   a=a, b=b, player=self.context.controller.player_name(lighter)), 2, theme.TEXT))
        name = self.context.controller.player_name
        lines.append((t._("Balances: {first_player} {first}, {second_player} {second}. Press Continue.",
                          first_player=name(0), first=m.balances[0], second_player=name(1), second=m.balances[1]),
                      2, theme.TEXT_DIM))  # whose is whose, on either half, by name
        return lines

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        start_and_language(big, small, player, t, button, t._("Continue"))
