"""Type a new player's name: digits, Latin letters, - and ', space, ← backspace, Aa for the other case
of the next letter, Cancel, OK; a refused name says why under the field, in that player's language.

Hangul and Cyrillic names would need their own layouts (and Hangul an input method that composes
syllables): not done.
"""

from __future__ import annotations

import pygame

from kiosk.table.intents import Backspace, CancelName, ConfirmName, Key, Shift
from kiosk.table.players import KEY_ROWS
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene
from kiosk.ui.widgets import Hotspot, text


class Keyboard(Scene):
    """The picker's keyboard (``records.typing``: the name so far), turned toward the seat's player."""

    offers = (Key, Shift, Backspace, CancelName, ConfirmName)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        seat = r.picker
        assert seat is not None and r.typing is not None
        w, h = context.size
        t = context.t_for(seat)
        layer = Layer(context, seat)
        pad = max(6, w // 80)
        head = pygame.Rect(pad, int(h * 0.01), w - 2 * pad, int(h * 0.08))
        text(layer.surface, t._("Player {number}: new player's name", number=seat + 1), head, head.height,
             theme.ACCENT, bold=True)
        field_rect = pygame.Rect(w // 6, head.bottom + 2, w * 2 // 3, int(h * 0.1))
        pygame.draw.rect(layer.surface, theme.PANEL, field_rect, border_radius=6)
        pygame.draw.rect(layer.surface, theme.ACCENT, field_rect, width=2, border_radius=6)
        shown = r.typing + "_"
        text(layer.surface, shown, field_rect.inflate(-16, -6), field_rect.height - 8, theme.TEXT, align="left")
        error_rect = pygame.Rect(pad, field_rect.bottom + 2, w - 2 * pad, int(h * 0.07))
        if r.error:
            text(layer.surface, t(r.error), error_rect, error_rect.height, theme.DANGER)
        top = error_rect.bottom + 2
        gap = max(4, w // 160)
        rows = len(KEY_ROWS) + 1
        key_h = (h - top - int(h * 0.02) - gap * (rows - 1)) // rows
        key_w = (w - 2 * pad - gap * 9) // 10
        upper = r.next_upper()
        for i, keys in enumerate(KEY_ROWS):
            y = top + i * (key_h + gap)
            x = pad
            if i == 3:  # the case key first
                layer.button(pygame.Rect(x, y, key_w, key_h), "Aa", Shift(), primary=r.upper)
                x += key_w + gap
            for ch in keys:
                label = ch.upper() if upper else ch.lower()
                layer.button(pygame.Rect(x, y, key_w, key_h), label, Key(ch))
                x += key_w + gap
            if i == 2:
                layer.button(pygame.Rect(x, y, key_w, key_h), "←", Backspace())
        y = top + len(KEY_ROWS) * (key_h + gap)
        wide = (key_w + gap) * 3 - gap
        layer.button(pygame.Rect(pad, y, wide, key_h), t._("Cancel"), CancelName())
        layer.button(pygame.Rect(pad + wide + gap, y, w - 2 * pad - 2 * (wide + gap), key_h), t._("Space"), Key(" "))
        layer.button(pygame.Rect(w - pad - wide, y, wide, key_h), t._("OK"), ConfirmName(), primary=True,
                     enabled=bool(r.typing.strip()))
        return layer.finish(surface)
