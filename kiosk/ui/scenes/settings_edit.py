"""The owner's settings editor (after the PIN): bank, delay, balances, hand-over, orientation,
language and sound volume, each with − / + or a toggle; Cancel and Save. Orientation and language
apply at the kiosk's next start, the rest from the next match (the screen says so)."""

from __future__ import annotations

import pygame

from kiosk.i18n import NATIVE_NAMES, Translator
from kiosk.table.intents import CancelSettings, NextChoice, SaveSettings, StepSetting
from kiosk.table.owner_screens import STEPS
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene
from kiosk.ui.widgets import Hotspot, paragraph, text

ORDER = ("match.bank_seconds", "match.delay_seconds", "match.balances", "match.handover",
         "sound.volume", "display.orientation", "kiosk.language")
"""The cells, in two columns: the match's settings, then the kiosk's."""


def label(t: Translator, key: str) -> str:
    """What a setting is called on screen."""
    return {
        "match.bank_seconds": t._("Bank time (seconds)"),
        "match.delay_seconds": t._("Delay (seconds)"),
        "match.balances": t._("Starting balance (points)"),
        "match.handover": t._("Hand-over screen between turns"),
        "display.orientation": t._("Screen orientation"),
        "kiosk.language": t._("Language"),
        "sound.volume": t._("Sound volume (0 to 100)"),
    }[key]


def shown(t: Translator, key: str, value: object) -> str:
    """A setting's value on screen."""
    if key == "match.handover":
        return t._("On") if value else t._("Off")
    if key == "display.orientation":
        return t._("Table (facing both players)") if value == "table" else t._("Upright")
    if key == "kiosk.language":
        return NATIVE_NAMES.get(str(value), str(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


class SettingsEditor(Scene):
    """The editor over the settings screen (``ui.owner.editing``: the values being edited)."""

    offers = (StepSetting, NextChoice, SaveSettings, CancelSettings)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        o = context.ui.owner
        values = o.editing
        assert values is not None
        w, h = context.size
        t = context.t
        layer = Layer(context, context.ui.facing)  # toward whoever opened it (table orientation)
        pad = max(8, w // 60)
        gap = max(6, h // 60)
        head = pygame.Rect(pad, int(h * 0.015), w - 2 * pad, int(h * 0.08))
        text(layer.surface, t._("Change the settings"), head, head.height, theme.ACCENT, bold=True)
        bh = max(48, int(h * 0.11))
        buttons_y = h - pad - bh
        top = head.bottom + gap
        rows = 4
        cell_h = (buttons_y - gap - top - gap * (rows - 1)) // rows
        cell_w = (w - 2 * pad - 2 * gap) // 2
        label_h = max(theme.MIN_READABLE + 6, cell_h - max(50, int(cell_h * 0.62)) - 2)
        control_h = max(48, cell_h - label_h - 2)
        step_w = max(56, control_h)
        for i, key in enumerate(ORDER):
            column, row = divmod(i, rows)
            cell = pygame.Rect(pad + column * (cell_w + 2 * gap), top + row * (cell_h + gap), cell_w, cell_h)
            text(layer.surface, label(t, key), pygame.Rect(cell.x, cell.y, cell.width, label_h), label_h,
                 theme.TEXT_DIM, align="left")
            controls = pygame.Rect(cell.x, cell.y + label_h + 2, cell.width, control_h)
            value = shown(t, key, values.get(key))
            if key in STEPS:
                layer.button(pygame.Rect(controls.x, controls.y, step_w, control_h), "−", StepSetting(key, -1))
                box = pygame.Rect(controls.x + step_w + gap, controls.y, controls.width - 2 * (step_w + gap), control_h)
                pygame.draw.rect(layer.surface, theme.PANEL, box, border_radius=6)
                text(layer.surface, value, box.inflate(-8, -8), int(control_h * 0.6), theme.TEXT, bold=True)
                layer.button(pygame.Rect(controls.right - step_w, controls.y, step_w, control_h), "+",
                             StepSetting(key, +1))
            else:
                layer.button(controls, value, NextChoice(key), size=int(control_h * 0.5))
        note = pygame.Rect(pad + cell_w + 2 * gap, top + (rows - 1) * (cell_h + gap), cell_w, cell_h)  # the 8th cell
        size = max(theme.MIN_READABLE, int(h * 0.04))
        if o.notice and not o.notice_ok:  # why Save failed (a path and a system error may be long)
            if not paragraph(layer.surface, t(o.notice), note, size, theme.DANGER, min_size=theme.MIN_READABLE):
                paragraph(layer.surface, t(o.notice), note, size, theme.DANGER, min_size=8)
        else:
            paragraph(layer.surface, t._("Saved changes apply from the next match; orientation and language "
                                         "from the next start of the kiosk."), note, size, theme.TEXT_DIM,
                      min_size=theme.MIN_READABLE)
        bw = int(w * 0.3)
        layer.button(pygame.Rect(w // 2 - gap - bw, buttons_y, bw, bh), t._("Cancel"), CancelSettings())
        layer.button(pygame.Rect(w // 2 + gap, buttons_y, bw, bh), t._("Save"), SaveSettings(), primary=True)
        return layer.finish(surface)
