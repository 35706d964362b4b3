"""The hand-over on a shared screen: no tile face anywhere, the clocks stopped until the player to
act reveals (a card turned toward them, or their ACCEPT button); the other player looks away."""

from __future__ import annotations

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import OpenHelp, Resign, Reveal
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.table import Button, TableScene
from kiosk.ui.widgets import Hotspot, text


class Handover(TableScene):
    """Whose turn it is, and Reveal my tiles."""

    offers = (Reveal, Resign, OpenHelp)
    messages_above = True

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        player = session.match.to_act
        assert player is not None
        t = self.context.t_for(player)
        spots += self.card(surface, [(t._("Player {number}'s turn", number=player + 1), 3, theme.ACCENT),
                                     (t._("Clocks are stopped until you reveal your tiles."), 2, theme.TEXT),
                                     (t._("Tap Reveal or press your ACCEPT button."), 2, theme.TEXT_DIM)],
                           player, [(t._("Reveal my tiles"), Reveal(player), True)])

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        if session.match.to_act == player:
            button(big, t._("Reveal my tiles"), Reveal(player), True)
        else:
            text(panel, t._("Look away"), big, big.height // 2, theme.TEXT_DIM)
        button(small, t._("Resign"), Resign(player))
