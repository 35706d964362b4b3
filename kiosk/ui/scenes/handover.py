"""The hand-over on a shared screen: no tile face anywhere, the clocks stopped until the player to
act reveals (a card turned toward them, or their ACCEPT button); the other player looks away. The
card tells the returning player in one line what the opponent did since they last had the board
("Player 2 since your last turn: drew 2 tiles, played [6|4] (+10)")."""

from __future__ import annotations

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import OpenHelp, Resign, Reveal
from kiosk.table.recap import recap_text
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.fitted import MIN_TARGET, Card, CardButton, FlowLine, flow
from kiosk.ui.scenes.table import Button, TableScene
from kiosk.ui.widgets import Hotspot, text


class Handover(TableScene):
    """Whose turn it is, what the opponent did meanwhile, and Reveal my tiles."""

    offers = (Reveal, Resign, OpenHelp)
    messages_above = True

    def player_name(self, t: Translator, player: int) -> str:
        """``player``'s name at the table ("Player 2" for a guest)."""
        return t(self.context.controller.player_name(player))

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        player = session.match.to_act
        assert player is not None
        context = self.context
        t = context.t_for(player)
        lines = [FlowLine(t._("{player}'s turn", player=self.player_name(t, player)), theme.ACCENT, heading=True, keep=5)]
        recap = recap_text(t, self.player_name(t, 1 - player), session.recap.for_player(player))
        if recap:
            lines.append(FlowLine(recap, theme.SCORE, keep=4))
        board = context.regions.board
        if self.table_mode:
            rect = self.halves()[player].inflate(-board.width // 40, 0)
            self._carded.add(player)  # this player's messages go into the card
            lines += [FlowLine(self._said(message, t), theme.DANGER_TEXT if message.kind == "refused" else theme.TEXT,
                               keep=3) for message in self._live if message.player in (None, player)]
        else:
            rect = pygame.Rect(0, 0, int(board.width * 0.9), int(board.height * 0.74))
            rect.midtop = (board.centerx, board.y + 2)
        lines += [FlowLine(t._("Clocks are stopped until you reveal your tiles."), theme.TEXT, keep=2),
                  FlowLine(t._("Tap Reveal or press your ACCEPT button."), theme.TEXT_DIM, keep=1)]
        card = Card(rect, context.facing(player), player)
        r = card.surface.get_rect()
        pad = max(6, r.height // 30)
        if r.width > 3 * r.height:  # a wide, low card (a half of the board): the button beside the text
            reveal = pygame.Rect(0, 0, r.width * 3 // 10, max(MIN_TARGET, min(r.height - 2 * pad, 80)))
            reveal.midright = (r.right - pad, r.centery)
            box = pygame.Rect(r.x + 2 * pad, r.y + pad, reveal.x - r.x - 4 * pad, r.height - 2 * pad)
        else:
            reveal = pygame.Rect(0, 0, min(r.width - 2 * pad, max(r.width // 2, 240)),
                                 max(MIN_TARGET, min(r.height // 4, 72)))
            reveal.midbottom = (r.centerx, r.bottom - pad)
            box = pygame.Rect(r.x + 2 * pad, r.y + pad, r.width - 4 * pad, reveal.y - r.y - 2 * pad)
        card.button(CardButton(reveal, t._("Reveal my tiles"), Reveal(player), True))
        flow(card.surface, lines, box, max(16, min(context.size[1] // 17, box.height // 4)))
        spots += card.finish(surface)

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        if session.match.to_act == player:
            button(big, t._("Reveal my tiles"), Reveal(player), True)
        else:
            text(panel, t._("Look away"), big, big.height // 2, theme.TEXT_DIM)
        button(small, t._("Resign"), Resign(player))
