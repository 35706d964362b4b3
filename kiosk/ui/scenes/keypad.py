"""The owner's PIN keypad (digits 0-9, ← backspace, Cancel, OK; the digits shown as dots) and the
"Stop the kiosk?" confirmation — full screen, facing the owner's area's side (Player 1's edge)
(the settings' keypad upright). Without a PIN the keypad says how to set one; after too many wrong
PINs it counts down its lock.

Over a match in progress both lie on one half of the table only, the half of the player who is not
to act (``KeypadBeside``, ``StopBeside``): the acting player's board, clock and buttons stay theirs;
the keypad says whose clock runs and offers to stop the match unrated with the PIN."""

from __future__ import annotations

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import (
    CancelStop,
    ConfirmStop,
    Intent,
    Noop,
    PinBackspace,
    PinCancel,
    PinDigit,
    PinOk,
    PinStopMatch,
)
from kiosk.ui import layout, theme
from kiosk.ui.scenes.base import Context, Layer, Scene
from kiosk.ui.widgets import Hotspot, draw_button, paragraph, text, text_or_wrap

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


def beside_half(context: Context) -> pygame.Rect | None:
    """Over a match in progress: the half of the table the owner's screens take (the player's who is
    not to act; Player 1's, the owner's corner's, when nobody is), beside the sidebar and clear of the
    owner's corner; None: the whole screen."""
    controller = context.controller
    if not controller.match_in_progress() or controller.session is None:
        return None
    w, h = context.size
    x = context.regions.sidebar.right  # beside the sidebar: its round, end count and Rules face both players
    to_act = controller.session.match.to_act
    return pygame.Rect(x, 0, w - x, h // 2) if to_act == 0 else pygame.Rect(x, h // 2, w - x, h - h // 2)


class _Half:
    """A surface for one half of the table, drawn upright (facing the owner's corner's edge)."""

    def __init__(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.surface = pygame.Surface(rect.size)
        self.surface.fill(theme.BACKGROUND)
        if (recorder := layout.recorder()) is not None:  # what it covers is not read
            recorder.cover(rect, partly=True)
        layout.frame(self.surface, rect, False)
        self.spots: list[Hotspot] = [Hotspot(self.surface.get_rect(), Noop())]  # nothing beneath it is tapped

    def button(self, rect: pygame.Rect, label: str, intent: Intent, primary: bool = False,
               enabled: bool = True, size: int | None = None) -> None:
        draw_button(self.surface, rect, label, primary=primary, enabled=enabled, size=size)
        if enabled:
            self.spots.append(Hotspot(rect, intent))

    def finish(self, target: pygame.Surface) -> list[Hotspot]:
        target.blit(self.surface, self.rect)
        pygame.draw.rect(target, theme.ACCENT, self.rect, width=2)
        return [Hotspot(spot.rect.move(self.rect.topleft), spot.intent) for spot in self.spots]


def clock_line(context: Context, t: Translator) -> str:
    """Whose clock runs under the owner's screens (empty: none)."""
    session = context.controller.session
    running = None if session is None else session.match.clock_running
    if running is None:
        return ""
    return t._("The match goes on: {player}'s clock is running.", player=context.controller.player_name(running))


class KeypadBeside(Scene):
    """The PIN keypad over a match in progress: on the half of the player not to act, two rows of keys,
    whose clock runs, and Stop the match (unrated, with the PIN) beside OK."""

    offers = (Noop, PinDigit, PinBackspace, PinCancel, PinOk, PinStopMatch)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        o = context.ui.owner
        owner = context.controller.owner
        half = beside_half(context) or surface.get_rect()
        t = context.t_for(o.facing)
        card = _Half(half)
        w, h = half.size
        pad, gap = max(6, w // 80), max(4, h // 40)
        line_h = max(theme.MIN_READABLE + 4, h // 9)
        text(card.surface, t._("Owner PIN: stop the kiosk"), pygame.Rect(pad, pad, w // 2 - pad, line_h), line_h,
             theme.ACCENT, bold=True, align="left")
        if owner.pin.pin is None:  # no PIN: the owner screens are locked, and how to set one
            box = pygame.Rect(pad, pad + line_h + gap, w - 2 * pad, h - 3 * pad - line_h - 48 - gap)
            if owner.pin.warning is not None:
                paragraph(card.surface, t(owner.pin.warning), box, theme.MIN_READABLE + 2, min_size=theme.MIN_READABLE)
            card.button(pygame.Rect(w // 2 - w // 8, h - pad - 48, w // 4, 48), t._("Cancel"), PinCancel(), primary=True)
            return card.finish(surface)
        locked = owner.locked_seconds(now)
        note = t.n_("Too many wrong PINs: try again in {n} second", "Too many wrong PINs: try again in {n} seconds",
                    locked) if locked else t(o.error) if o.error else clock_line(context, t)
        text_or_wrap(card.surface, note, pygame.Rect(pad, pad + line_h + gap, w - 2 * pad, line_h), line_h,
                     theme.DANGER_TEXT)
        field = pygame.Rect(w // 2 + pad, pad, w // 2 - 2 * pad, line_h)
        pygame.draw.rect(card.surface, theme.PANEL, field, border_radius=6)
        pygame.draw.rect(card.surface, theme.ACCENT, field, width=2, border_radius=6)
        radius = max(4, field.height // 6)
        x = field.centerx - 3 * radius * (len(o.digits) - 1) // 2
        for _ in o.digits:
            pygame.draw.circle(card.surface, theme.TEXT, (x, field.centery), radius)
            x += 3 * radius
        top = pad + 2 * (line_h + gap)
        key_h = max(48, (h - top - pad - gap) // 2)
        unit = (w - 2 * pad - 8 * gap) // 9
        ready = bool(o.digits) and not locked
        x = pad
        for key in "1234567":
            card.button(pygame.Rect(x, top, unit, key_h), key, PinDigit(key), enabled=not locked)
            x += unit + gap
        card.button(pygame.Rect(x, top, w - pad - x, key_h), t._("Cancel"), PinCancel())
        y, x = top + key_h + gap, pad
        for key in "890":
            card.button(pygame.Rect(x, y, unit, key_h), key, PinDigit(key), enabled=not locked)
            x += unit + gap
        card.button(pygame.Rect(x, y, unit, key_h), "←", PinBackspace(), enabled=bool(o.digits))
        x += unit + gap
        card.button(pygame.Rect(x, y, 2 * unit + gap, key_h), t._("OK"), PinOk(), primary=True, enabled=ready)
        x += 2 * unit + 2 * gap
        card.button(pygame.Rect(x, y, w - pad - x, key_h), t._("Stop the match"), PinStopMatch(), enabled=ready)
        return card.finish(surface)


class StopBeside(Scene):
    """"Stop the kiosk?" over a match in progress, on the half of the player not to act."""

    offers = (Noop, ConfirmStop, CancelStop)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        half = beside_half(context) or surface.get_rect()
        t = context.t_for(context.ui.owner.facing)
        card = _Half(half)
        w, h = half.size
        pad = max(8, w // 40)
        bh = max(48, h // 4)
        line_h = max(theme.MIN_READABLE + 4, h // 9)
        box = pygame.Rect(pad, pad, w - 2 * pad, h - 4 * pad - bh - line_h)
        paragraph(card.surface, t._("Stop the kiosk? The match in progress ends without a result."), box,
                  max(theme.MIN_READABLE, h // 8), theme.TEXT, min_size=theme.MIN_READABLE)
        text_or_wrap(card.surface, clock_line(context, t), pygame.Rect(pad, box.bottom + pad, w - 2 * pad, line_h),
                     line_h, theme.DANGER_TEXT)
        bw = int(w * 0.3)
        y = h - pad - bh
        card.button(pygame.Rect(w // 2 - bw - pad // 2, y, bw, bh), t._("Yes, stop"), ConfirmStop(), primary=True)
        card.button(pygame.Rect(w // 2 + pad // 2, y, bw, bh), t._("No"), CancelStop())
        return card.finish(surface)
