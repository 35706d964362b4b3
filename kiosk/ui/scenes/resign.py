"""Resign, asked first: "Resign the match?" with Yes and No in that player's panel, in their language
and turned toward them (the panel's own buttons give way to it)."""

from __future__ import annotations

import pygame

from kiosk.table.intents import CancelResign, ConfirmResign
from kiosk.ui.regions import to_screen
from kiosk.ui.scenes.base import Context, Scene
from kiosk.ui.scenes.table import panel_colour
from kiosk.ui.widgets import Hotspot, draw_button, text


class ResignConfirm(Scene):
    """The confirmation for ``player``, over their panel's buttons."""

    offers = (ConfirmResign, CancelResign)

    def __init__(self, context: Context, player: int) -> None:
        super().__init__(context)
        self.player = player

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        player = self.player
        r = context.regions
        panel_rect, turned = r.panels[player], r.turned[player]
        where = to_screen(r.local.actions, panel_rect, turned)
        local = pygame.Surface(where.size)
        local.fill(panel_colour(context.session.match, player))
        rect = local.get_rect()
        t = context.t_for(player)
        text(local, t._("Resign the match?"), pygame.Rect(rect.x, rect.y, rect.width, rect.height // 3), rect.height // 4)
        half = (rect.width - 8) // 2
        yes = pygame.Rect(rect.x, rect.y + rect.height // 3 + 4, half, rect.height // 2)
        no = pygame.Rect(rect.x + half + 8, rect.y + rect.height // 3 + 4, half, rect.height // 2)
        draw_button(local, yes, t._("Yes"), primary=True)
        draw_button(local, no, t._("No"))
        if turned:
            local = pygame.transform.rotate(local, 180)
        surface.blit(local, where)
        return [Hotspot(to_screen(yes, where, turned), ConfirmResign(player)),
                Hotspot(to_screen(no, where, turned), CancelResign(player))]
