"""Who plays in a seat: the named players with their ratings ("1500?" provisional; 3 × 4 a page, the one in
the other seat greyed out),
Guest, New player, Cancel — full screen, turned toward that seat's player in table mode.

Opened from the home screen's "Join <event>" (``JoinDesk``), the same picker asks "Join Friday Swiss:
who are you?" and a name is that player's join (``JoinAs``); it offers no Guest, and New player opens the
keyboard whose OK makes the player and joins them (``JoinNamed``)."""

from __future__ import annotations

import pygame

from kiosk.table.intents import ClosePicker, Intent, JoinAs, NewPlayer, PickerPage, PickPlayer
from kiosk.table.players import PICKER_COLUMNS, PICKER_ROWS, pages
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene, pager
from kiosk.ui.widgets import Hotspot, text, text_or_wrap


class Picker(Scene):
    """The open picker (``records.picker``: its seat); over the ready screen."""

    offers = (PickPlayer, PickerPage, NewPlayer, ClosePicker, JoinAs)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        seat = r.picker
        assert seat is not None
        w, h = context.size
        t = context.t_for(seat)
        layer = Layer(context, seat)
        pad = max(8, w // 60)
        joining = context.controller.events.joins.joining
        title = t._("Player {number}: who is playing?", number=seat + 1) if joining is None \
            else t._("Join {event}: who are you?", event=joining[1].name)
        text(layer.surface, title, pygame.Rect(pad, int(h * 0.02), w - 2 * pad, int(h * 0.1)), int(h * 0.08),
             theme.ACCENT, bold=True)
        other = r.chosen[1 - seat] if joining is None else None
        current = r.chosen[seat]
        per_page = PICKER_COLUMNS * PICKER_ROWS
        shown = r.choices[r.picker_page * per_page:(r.picker_page + 1) * per_page]
        top, bottom = int(h * 0.14), int(h * 0.70)
        gap = max(6, w // 100)
        cell_w = (w - 2 * pad - gap * (PICKER_COLUMNS - 1)) // PICKER_COLUMNS
        cell_h = (bottom - top - gap * (PICKER_ROWS - 1)) // PICKER_ROWS
        if not r.choices:
            text_or_wrap(layer.surface, t._("No named players yet: tap New player to add one."),
                         pygame.Rect(pad, top, w - 2 * pad, bottom - top), int(h * 0.06), theme.TEXT_DIM)
        for i, player in enumerate(shown):
            row, col = divmod(i, PICKER_COLUMNS)
            rect = pygame.Rect(pad + col * (cell_w + gap), top + row * (cell_h + gap), cell_w, cell_h)
            taken = other is not None and other.id == player.id
            pick: Intent = PickPlayer(seat, player.id) if joining is None else JoinAs(player.id)
            layer.button(rect, f"{player.name}  {player.rating_text}", pick,
                         primary=joining is None and current is not None and current.id == player.id,
                         enabled=not taken)
        pager(layer, t, r.picker_page, pages(len(r.choices), per_page), PickerPage,
              pygame.Rect(pad, bottom + gap, w - 2 * pad, int(h * 0.09)))
        bh = int(h * 0.13)
        side = context.regions.admin_area.width + gap  # the owner's corner stays clear, whichever way the layer turns
        bw = (w - 2 * side - 2 * gap) // 3
        y = h - bh - int(h * 0.03)
        if joining is None:  # a join names a player: no guest
            layer.button(pygame.Rect(side, y, bw, bh), t._("Guest"), PickPlayer(seat, None), primary=current is None)
        layer.button(pygame.Rect(side + bw + gap, y, bw, bh), t._("New player"), NewPlayer(seat), primary=True)
        layer.button(pygame.Rect(side + 2 * (bw + gap), y, bw, bh), t._("Cancel"), ClosePicker())
        return layer.finish(surface)
