"""The owner's PIN keypad (digits 0-9, ← backspace, Cancel, OK; the digits shown as dots) and the
"Stop the kiosk?" confirmation — full screen, facing the owner's area's side (Player 1's edge)
(the settings' keypad upright). Without a PIN the keypad says how to set one; after too many wrong
PINs it counts down its lock."""

from __future__ import annotations

import pygame

from kiosk.table.intents import CancelStop, ConfirmStop, PinBackspace, PinCancel, PinDigit, PinOk
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene
from kiosk.ui.widgets import Hotspot, paragraph, text, text_or_wrap

DIGIT_ROWS = ("123", "456", "789", " 0←")


class Keypad(Scene):
    """The PIN keypad (``ui.owner.keypad``: what it was opened for)."""

    offers = (PinDigit, PinBackspace, PinCancel, PinOk)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        o = context.ui.owner
        owner = context.controller.owner
        w, h = context.size
        t = context.t_for(o.facing)
        layer = Layer(context, o.facing)
        pad = max(8, w // 60)
        gap = max(6, h // 60)
        title = (t._("Owner PIN: stop the kiosk") if o.keypad == "exit" else t._("Owner PIN: change the settings"))
        head = pygame.Rect(pad, int(h * 0.02), w - 2 * pad, int(h * 0.09))
        text(layer.surface, title, head, head.height, theme.ACCENT, bold=True)
        side_w = max(140, w // 4)
        key_h = max(48, int(h * 0.14))
        if owner.pin.pin is None:  # no PIN: the owner screens are locked, and how to set one
            warning = owner.pin.warning
            box = pygame.Rect(2 * pad, head.bottom + gap, w - 4 * pad, h - head.bottom - 3 * gap - key_h - pad)
            if warning is not None:
                paragraph(layer.surface, t(warning), box, max(theme.MIN_READABLE, int(h * 0.055)),
                          min_size=theme.MIN_READABLE)
            layer.button(pygame.Rect((w - side_w) // 2, h - pad - key_h, side_w, key_h), t._("Cancel"), PinCancel(),
                         primary=True)
            return layer.finish(surface)
        field = pygame.Rect(w // 2 - w // 5, head.bottom + gap, 2 * (w // 5), max(40, int(h * 0.1)))
        pygame.draw.rect(layer.surface, theme.PANEL, field, border_radius=6)
        pygame.draw.rect(layer.surface, theme.ACCENT, field, width=2, border_radius=6)
        radius = max(5, field.height // 6)
        step = 3 * radius
        x = field.centerx - step * (len(o.digits) - 1) // 2
        for _ in o.digits:  # a dot per digit (drawn: no font needed)
            pygame.draw.circle(layer.surface, theme.TEXT, (x, field.centery), radius)
            x += step
        locked = owner.locked_seconds(now)
        note = pygame.Rect(pad, field.bottom + 2, w - 2 * pad, max(28, int(h * 0.08)))
        if locked:
            text_or_wrap(layer.surface, t.n_("Too many wrong PINs: try again in {n} second",
                                             "Too many wrong PINs: try again in {n} seconds", locked),
                         note, note.height, theme.DANGER)
        elif o.error:
            text(layer.surface, t(o.error), note, note.height, theme.DANGER)
        top = note.bottom + 2
        rows = len(DIGIT_ROWS)
        key_h = (h - pad - top - gap * (rows - 1)) // rows
        key_w = min(int(key_h * 2.2), (w - 2 * pad - side_w - 3 * gap) // 3)
        left = (w - (3 * key_w + 3 * gap + side_w)) // 2
        for i, keys in enumerate(DIGIT_ROWS):
            y = top + i * (key_h + gap)
            for j, key in enumerate(keys):
                rect = pygame.Rect(left + j * (key_w + gap), y, key_w, key_h)
                if key == "←":
                    layer.button(rect, key, PinBackspace(), enabled=bool(o.digits))
                elif key != " ":
                    layer.button(rect, key, PinDigit(key), enabled=not locked)
        side = pygame.Rect(left + 3 * (key_w + gap), top, side_w, 2 * key_h + gap)
        layer.button(side, t._("Cancel"), PinCancel(), size=int(key_h * 0.5))
        ok = side.move(0, 2 * (key_h + gap))
        layer.button(ok, t._("OK"), PinOk(), primary=True, enabled=bool(o.digits) and not locked, size=int(key_h * 0.5))
        return layer.finish(surface)


class StopConfirm(Scene):
    """After the right PIN during a match: stop the kiosk (the match ends without a result), or not."""

    offers = (ConfirmStop, CancelStop)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        o = context.ui.owner
        w, h = context.size
        t = context.t_for(o.facing)
        layer = Layer(context, o.facing)
        pad = max(8, w // 30)
        box = pygame.Rect(pad, int(h * 0.1), w - 2 * pad, int(h * 0.5))
        paragraph(layer.surface, t._("Stop the kiosk? The match in progress ends without a result."), box,
                  int(h * 0.08), theme.TEXT, min_size=theme.MIN_READABLE)
        bw, bh = int(w * 0.3), max(48, int(h * 0.15))
        y = h - bh - int(h * 0.1)
        layer.button(pygame.Rect(w // 2 - bw - pad // 2, y, bw, bh), t._("Yes, stop"), ConfirmStop(), primary=True)
        layer.button(pygame.Rect(w // 2 + pad // 2, y, bw, bh), t._("No"), CancelStop())
        return layer.finish(surface)
