"""Type a new player's name in the player's own script: Latin (English, Indonesian), Ukrainian
Cyrillic or Korean Hangul (``kiosk.table.layouts``), turned toward the seat's player.

Rows of digits and letters; Shift first in the last row ("Aa": the other case of the next letter;
"↑" on the Korean layout: its doubled consonants), ← last in the row above; then Cancel, the
layout key (it shows the next layout's name in its own script), Space and OK. A refused name says
why under the field, in that player's language. Opened from a join's picker, it asks for "your name"
for the event, and OK makes the player and joins them (``JoinNamed``).

Every key is at least ``MIN_KEY`` pixels on its short side on an 800 x 480 screen, and the owner's
hold square in the bottom-left corner stays clear of keys.
"""

from __future__ import annotations

import pygame

from kiosk.table import hangul
from kiosk.table.intents import Backspace, CancelName, ConfirmName, JoinNamed, Key, KeyboardLayout, Shift
from kiosk.table.layouts import Layout, layout, next_layout
from kiosk.ui import layout as screen_layout
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene
from kiosk.ui.widgets import Hotspot, text

MIN_KEY = screen_layout.MIN_TARGET
"""The smallest side of a key, in pixels, at 800 x 480 (it grows with the screen)."""


def shown_keys(lay: Layout, upper: bool) -> list[list[tuple[str, str]]]:
    """The layout's rows as (label, typed) pairs: a cased layout shows the case the next letter gets
    (``upper``); the Korean one its shifted jamo while Shift is on."""
    rows = lay.keys(upper)
    if lay.cased:
        return [[(ch.upper() if upper else ch.lower(), ch) for ch in row] for row in rows]
    return [[(ch, ch) for ch in row] for row in rows]


class Keyboard(Scene):
    """The picker's keyboard (``records.typing``: the name so far), turned toward the seat's player."""

    offers = (Key, Shift, Backspace, KeyboardLayout, CancelName, ConfirmName, JoinNamed)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        seat = r.picker
        assert r.typing is not None
        w, h = context.size
        t = context.t_for(seat)
        layer = Layer(context, seat)
        pad = max(6, w // 80)
        gap = max(4, w // 160)
        head = pygame.Rect(pad, int(h * 0.01), w - 2 * pad, int(h * 0.08))
        renamed = next((p.name for p in r.manage if p.id == r.renaming), "") if r.renaming is not None else None
        joining = context.controller.events.joins.joining if renamed is None else None
        if renamed is not None:
            heading = t._("New name for {name}", name=renamed)
        elif joining is not None:
            heading = t._("Join {event}: your name", event=joining[1].name)
        else:
            heading = t._("Player {number}: new player's name", number=(seat or 0) + 1)
        text(layer.surface, heading, head, head.height, theme.ACCENT, bold=True)
        field_rect = pygame.Rect(w // 6, head.bottom + 2, w * 2 // 3, int(h * 0.1))
        pygame.draw.rect(layer.surface, theme.PANEL, field_rect, border_radius=6)
        pygame.draw.rect(layer.surface, theme.ACCENT, field_rect, width=2, border_radius=6)
        text(layer.surface, r.typing + "_", field_rect.inflate(-16, -6), field_rect.height - 8, theme.TEXT,
             align="left")
        error_rect = pygame.Rect(pad, field_rect.bottom + 2, w - 2 * pad, int(h * 0.07))
        if r.error:
            text(layer.surface, t(r.error), error_rect, error_rect.height, theme.DANGER)

        lay = layout(r.layout)
        upper = r.next_upper() if lay.cased else r.upper
        rows = shown_keys(lay, upper)
        top = error_rect.bottom + 2
        count = len(rows) + 1
        key_h = (h - top - int(h * 0.02) - gap * (count - 1)) // count
        key_w = (w - 2 * pad - gap * (lay.columns - 1)) // lay.columns
        last = len(rows) - 1
        for i, keys in enumerate(rows):
            width = len(keys) + (i in (last, last - 1))
            x = pad + (w - 2 * pad - (width * (key_w + gap) - gap)) // 2
            y = top + i * (key_h + gap)
            if i == last:  # Shift first
                shift = ("Aa" if lay.cased else "↑")
                layer.button(pygame.Rect(x, y, key_w, key_h), shift, Shift(), primary=r.upper)
                x += key_w + gap
            for label, typed in keys:
                jamo = typed in hangul.KEYS  # a compatibility jamo is drawn at about half its font's size
                layer.button(pygame.Rect(x, y, key_w, key_h), label, Key(typed), size=int(key_h * 0.8) if jamo else None)
                x += key_w + gap
            if i == last - 1:
                layer.button(pygame.Rect(x, y, key_w, key_h), "←", Backspace())

        y = top + len(rows) * (key_h + gap)
        left = max(pad, self.context.regions.admin_area.width + gap)  # the owner's hold square stays clear
        span = w - pad - left
        wide = span * 22 // 100
        switch = span * 14 // 100
        space = span - 2 * wide - switch - 3 * gap
        x = left
        layer.button(pygame.Rect(x, y, wide, key_h), t._("Cancel"), CancelName())
        x += wide + gap
        following = next_layout(lay.name)
        layer.button(pygame.Rect(x, y, switch, key_h), layout(following).label, KeyboardLayout(following))
        x += switch + gap
        layer.button(pygame.Rect(x, y, space, key_h), t._("Space"), Key(" "))
        confirm = ConfirmName() if joining is None else JoinNamed()  # OK in a join's picker makes and joins
        layer.button(pygame.Rect(w - pad - wide, y, wide, key_h), t._("OK"), confirm, primary=True,
                     enabled=bool(r.typing.strip()))
        return layer.finish(surface)
