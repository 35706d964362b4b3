"""Play: the board, the acting player's hand (tiles that fit lit, a picked-up tile raised), its
legal points lit on the board; Draw when nothing fits (the panel's button or the boneyard). In a
practice match the hint's point is ringed (its tile is the one picked up)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from engine import Draw, Point
from engine import Play as PlayAction
from kiosk.i18n import Translator
from kiosk.table.intents import DrawTile, OpenHelp, Resign, TapPoint, TapTile
from kiosk.table.session import GameSession
from kiosk.ui import layout, theme
from kiosk.ui.board.geometry import layout_board_if_it_fits
from kiosk.ui.scenes.table import Button, Line, TableScene
from kiosk.ui.widgets import Hotspot


class Play(TableScene):
    """Tap a tile, then a lit point; the opening says who opens and with what."""

    offers = (TapTile, TapPoint, DrawTile, Resign, OpenHelp)

    def targets(self) -> Sequence[Point]:
        return self.context.session.targets()

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        m = session.match
        computer = self.context.controller.computer
        hint = None if computer is None else computer.hint_for(m)
        if isinstance(hint, PlayAction) and hint.at is not None and session.selected == hint.tile:
            area = self.board_area()
            geometry = layout_board_if_it_fits(m.layout, (area.x, area.y, area.width, area.height))
            target = None if geometry is None else geometry.target_for(hint.at)
            if target is not None:
                ring = pygame.Rect(target.rect).inflate(12, 12)  # white, beside the lit points' yellow
                pygame.draw.rect(surface, theme.TEXT, ring, width=4, border_radius=10)
                layout.board_item(surface, ring, "lit")  # no message may cover the ringed point
        if m.layout.is_empty and m.to_act is not None:
            opener = self.context.controller.player_name(m.to_act)

            def why(t: Translator) -> list[Line]:
                if m.opening_tile:
                    return [(t._("{player} must open with [{tile}]", player=opener, tile=m.opening_tile), 2,
                             theme.TEXT)]
                return [(t._("{player} opens with any tile", player=opener), 2, theme.TEXT)]

            self.card_top(surface, why)

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        m = session.match
        if m.to_act == player and any(isinstance(a, Draw) for a in m.legal_actions()):
            button(big, t._("Draw ({n})", n=m.boneyard_count), DrawTile(player), True)
        button(small, t._("Resign"), Resign(player))
