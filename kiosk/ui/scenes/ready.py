"""Before round 1: who opens and why; Start and each player's language in the panels; who plays in
each seat (with a journal: a guest or a named player, tap to change); Home in the sidebar."""

from __future__ import annotations

import pygame

from kiosk.i18n import NATIVE_NAMES, Translator
from kiosk.table.intents import Berserk, GoHome, OpenHelp, OpenPicker, PlayerLanguage, Start
from kiosk.table.players import seat_label
from kiosk.table.session import GameSession
from kiosk.ui import theme
from kiosk.ui.scenes.pairing_strip import draw_event_seat, event_line
from kiosk.ui.scenes.table import Button, Line, TableScene
from kiosk.ui.widgets import Hotspot, draw_button, text


class Ready(TableScene):
    """The first Start: clocks stopped until either player presses it."""

    offers = (Start, PlayerLanguage, OpenPicker, GoHome, OpenHelp, Berserk)
    board_shown = False
    messages_above = True

    def sidebar_home(self) -> bool:
        return True

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        m = session.match

        def lines(t: Translator) -> list[Line]:  # each half in its reader's language, as it is now
            if m.jockey is None:
                how = t._("Ranked opening: the highest double opens (no double: the heaviest tile)")
            else:
                who = self.context.controller.player_name
                how = t._("Auction: {jockey} is the jockey; {bidder} bids first",
                          jockey=who(m.jockey), bidder=who(1 - m.jockey))
            start = t._("Clocks are stopped. Either player presses Start.") if self.context.controller.computer is None \
                else t._("Clocks are stopped. Press Start when you are ready.")  # a practice match: only the person
            event = self.context.controller.events.match  # a club event's match names its event first
            head = [] if event is None else [(event_line(t, event.pairing), 2, theme.ACCENT)]
            return [*head, (t._("Round {number}", number=m.round + 1), 3, theme.ACCENT), (how, 2, theme.TEXT),
                    (start, 2, theme.TEXT_DIM)]

        spots += self.card(surface, lines, None)

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        start_and_language(big, small, player, t, button, t._("Start"))

    def draw_hand_area(self, panel: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int,
                       spots: list[Hotspot]) -> None:
        """Who plays here (a guest or a name), tap to change (only with a journal)."""
        records = self.context.ui.records
        events = self.context.controller.events
        if events.seats_fixed():  # a club event's seats: its players, no picker; berserk in an arena
            spots += draw_event_seat(panel, rect, self.context.t_for(player), seat_label(self.context.t_for(player),
                                     records, player), player, events.berserk_offered(), events.berserk(player))
            return
        if not records.available:
            return
        t = self.context.t_for(player)
        caption = pygame.Rect(rect.x, rect.y, rect.width, rect.height // 4)
        text(panel, t._("Who plays here?"), caption, caption.height, theme.TEXT_DIM)
        button = pygame.Rect(0, 0, min(rect.width, max(rect.width * 3 // 5, 200)), rect.height - caption.height - 6)
        button.midtop = (rect.centerx, caption.bottom + 4)
        named = records.chosen[player] is not None
        draw_button(panel, button, seat_label(t, records, player), primary=named)
        spots.append(Hotspot(button, OpenPicker(player)))


def start_and_language(big: pygame.Rect, small: pygame.Rect, player: int, t: Translator, button: Button,
                       label: str) -> None:
    """Start (or Continue) and this player's own language, cycling through the four."""
    button(big, label, Start(player), True)
    button(small, NATIVE_NAMES[t.language], PlayerLanguage(player))
