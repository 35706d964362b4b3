"""The saving banner: while results are not reaching the disk, a strip across the top of the board
says what is wrong and that the match goes on unsaved — once for each player's language and
reading direction (turned toward Player 2 in table mode)."""

from __future__ import annotations

import pygame

from kiosk.i18n import translator
from kiosk.ui import theme
from kiosk.ui.part import Part
from kiosk.ui.scenes.base import Scene
from kiosk.ui.widgets import Hotspot, paragraph


class SavingBanner(Scene):
    """What the journal's keeper says is wrong, over the board, for both players."""

    def readers(self) -> list[tuple[str, bool]]:
        """(language, turned) of each copy: one per player, the same copy once."""
        context = self.context
        out: list[tuple[str, bool]] = []
        for player in (1, 0):
            reader = (context.ui.player_language(player), context.facing(player))
            if reader not in out:
                out.append(reader)
        return out

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        problem = context.ui.saving
        if problem is None:
            return []
        board = context.regions.board
        readers = self.readers()
        h = max(48, board.height // (3 if len(readers) == 1 else 4))
        y = board.y + 2
        for language, turned in readers:
            rect = pygame.Rect(board.x + 4, y, board.width - 8, h)
            part = Part(rect, turned, fill=theme.DANGER)
            t = translator(language)
            paragraph(part.surface, t(problem), part.surface.get_rect().inflate(-10, -4), max(22, h // 2 - 3),
                      theme.BUTTON_TEXT, min_size=theme.MIN_READABLE, role="message")
            part.put(surface)
            y += h
        return []

