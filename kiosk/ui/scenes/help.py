"""The rules help as an overlay: over the whole home or settings screen, over the table's middle
during a match (the players' panels and clocks stay on screen, the clocks keep running); opened in
table orientation by the player who is not to act, over that player's half of the table only.

Drawn by ``kiosk.ui.help`` (pages, language tabs, worked layouts); it opens at its first page in the
host language (``UiState.open_help``).
"""

from __future__ import annotations

import pygame

from engine import NS_PER_S
from kiosk.table.intents import CloseHelp, HelpLanguage, HelpPage, Noop
from kiosk.ui.help import draw_help, has_figures, help_layout
from kiosk.ui.help_text import HelpNumbers
from kiosk.ui.part import Part
from kiosk.ui.scenes.base import Context, Scene
from kiosk.ui.widgets import Hotspot


class Help(Scene):
    """The help over the whole screen (``over_table`` False) or over the table's middle."""

    offers = (Noop, CloseHelp, HelpLanguage, HelpPage)

    def __init__(self, context: Context, over_table: bool) -> None:
        super().__init__(context)
        w, h = context.size
        self.over_table = over_table
        self.whole = context.regions.middle if over_table else pygame.Rect(0, 0, w, h)
        self.halves = (pygame.Rect(0, h // 2, w, h - h // 2), pygame.Rect(0, 0, w, h // 2))
        """Player 1's half of the table (the bottom, with their panel) and Player 2's (the top)."""

    @property
    def rect(self) -> pygame.Rect:
        """Where the help is: over the table's middle, or in table orientation, opened by the player
        who is not to act, over that player's own half only (the acting player's board, clock and
        buttons stay theirs)."""
        context = self.context
        reader = context.ui.help_facing
        session = context.controller.session
        if not self.over_table or reader is None or session is None or context.orientation != "table":
            return self.whole
        m = session.match
        if m.is_over or m.to_act is None or m.to_act == reader:
            return self.whole
        return self.halves[reader]

    @property
    def language(self) -> str:
        ui = self.context.ui
        return ui.help_language or ui.language

    def numbers(self) -> HelpNumbers:
        """The numbers the help gives: the match at the table's, else the kiosk's settings for the next one."""
        controller = self.context.controller
        match = controller.config.match
        if controller.session is not None:
            config = controller.session.match.config
            return HelpNumbers(config.balances[0], config.bank_ns[0] / NS_PER_S, config.delay_ns / NS_PER_S)
        return HelpNumbers(match.balances, match.bank_seconds, match.delay_seconds)

    def page_count(self) -> int:
        """How many pages the help takes here, in its language."""
        return len(help_layout(self.rect, self.language, self.context.size[1], self.numbers()).pages)

    def has_figures(self) -> bool:
        """Whether the page shown has worked layouts."""
        return has_figures(help_layout(self.rect, self.language, self.context.size[1], self.numbers()), self.context.ui.help_page)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        facing = self.context.ui.help_facing
        if not self.context.facing(facing):
            return draw_help(surface, self.rect, self.language, self.context.ui.help_page, self.context.size[1],
                             self.numbers())
        # turned toward Player 2: drawn upright on its own surface, then turned onto the screen
        beneath = pygame.transform.rotate(surface.subsurface(self.rect).copy(), 180)  # as Player 2 sees it
        part = Part(self.rect, True, surface=beneath)
        part.add(draw_help(part.surface, part.surface.get_rect(), self.language, self.context.ui.help_page,
                           self.context.size[1], self.numbers()))
        return part.put(surface)
