"""The rules help as an overlay: over the whole home or settings screen, over the table's middle
during a match (the players' panels and clocks stay on screen, the clocks keep running).

Drawn by ``kiosk.ui.help`` (pages, language tabs, worked layouts); it opens at its first page in the
host language (``UiState.open_help``).
"""

from __future__ import annotations

import pygame

from kiosk.table.intents import CloseHelp, HelpLanguage, HelpPage, Noop
from kiosk.ui.help import draw_help, has_figures, help_layout
from kiosk.ui.scenes.base import Context, Scene
from kiosk.ui.widgets import Hotspot


class Help(Scene):
    """The help over the whole screen (``over_table`` False) or over the table's middle."""

    offers = (Noop, CloseHelp, HelpLanguage, HelpPage)

    def __init__(self, context: Context, over_table: bool) -> None:
        super().__init__(context)
        w, h = context.size
        self.rect = context.regions.middle if over_table else pygame.Rect(0, 0, w, h)

    @property
    def language(self) -> str:
        ui = self.context.ui
        return ui.help_language or ui.language

    def page_count(self) -> int:
        """How many pages the help takes here, in its language."""
        return len(help_layout(self.rect, self.language, self.context.size[1]).pages)

    def has_figures(self) -> bool:
        """Whether the page shown has worked layouts."""
        return has_figures(help_layout(self.rect, self.language, self.context.size[1]), self.context.ui.help_page)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        return draw_help(surface, self.rect, self.language, self.context.ui.help_page, self.context.size[1])
