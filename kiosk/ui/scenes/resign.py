"""Resign, asked first: "Resign the match?" in that player's panel, in their language and turned
toward them. "No" is the default: large, lit, where the Resign button was (a second tap there keeps
playing); "Yes" is plain and far from it, at the other end of the panel's hand area."""

from __future__ import annotations

import pygame

from kiosk.table.intents import CancelResign, ConfirmResign
from kiosk.ui import layout, theme
from kiosk.ui.part import Part
from kiosk.ui.regions import to_screen
from kiosk.ui.scenes.base import Context, Scene
from kiosk.ui.scenes.table import panel_colour
from kiosk.ui.widgets import Hotspot, draw_button, text, text_or_wrap


def confirm_rects(hand: pygame.Rect, actions: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
    """In a panel's own coordinates: the area the confirmation covers (the hand and the buttons), the
    "No" button (the whole button area), the "Yes" button (the far end of the hand area) and the
    question's box."""
    area = pygame.Rect(hand.x, actions.y, actions.right - hand.x, actions.height)
    pad = max(6, area.height // 16)
    no = pygame.Rect(actions)
    question = pygame.Rect(area.x, area.y, no.x - 2 * pad - area.x, area.height * 9 // 20)
    yes = pygame.Rect(area.x, question.bottom + pad, max(110, area.width // 6),
                      max(layout.MIN_TARGET, area.bottom - question.bottom - pad))
    return area, no, yes, question


class ResignConfirm(Scene):
    """The confirmation for ``player``, over their panel's hand and buttons."""

    offers = (ConfirmResign, CancelResign)

    def __init__(self, context: Context, player: int) -> None:
        super().__init__(context)
        self.player = player

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        player = self.player
        r = context.regions
        panel_rect, turned = r.panels[player], r.turned[player]
        area, no, yes, question = confirm_rects(r.local.hand, r.local.actions)
        where = to_screen(area, panel_rect, turned)
        part = Part(where, turned, player, fill=panel_colour(context.session.match, player))
        local = part.surface
        shift = (-area.x, -area.y)
        no, yes, question = no.move(shift), yes.move(shift), question.move(shift)
        t = context.t_for(player)
        text(local, t._("Resign the match?"), question, question.height * 3 // 4, theme.TEXT, bold=True, align="left")
        pad = max(6, area.height // 16)
        why = pygame.Rect(yes.right + 2 * pad, yes.y, no.x - yes.right - 4 * pad, yes.height)
        text_or_wrap(local, t._("Yes ends the match: {player} wins.", player=context.controller.player_name(1 - player)), why,
                     max(16, why.height * 2 // 5), theme.TEXT_DIM)
        draw_button(local, yes, t._("Yes"))
        draw_button(local, no, t._("No"), primary=True)
        part.spot(yes, ConfirmResign(player))
        part.spot(no, CancelResign(player))
        return part.put(surface)
