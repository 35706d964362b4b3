"""Play the computer: the four levels by name (Beginner, Casual, Club, Expert), each with a line on how
it plays; the person's language (the host language, as on the home screen); Back."""

from __future__ import annotations

import pygame

from kiosk.i18n import LANGUAGES, N_, NATIVE_NAMES
from kiosk.table.computer import LEVEL_NAMES
from kiosk.table.intents import GoHome, HostLanguage, PlayComputer
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, Scene, header
from kiosk.ui.widgets import Hotspot, text, text_or_wrap

HOW_THEY_PLAY = {
    1: N_("Any move that is allowed"),
    2: N_("Takes the most points now"),
    3: N_("Counts tiles and blocks you"),
    4: N_("Thinks ahead; hardest"),
}
"""What each level does, in a line under its button."""


class Practice(Scene):
    """The choice of level; a tap starts the practice match at the ready screen, the person at the edge it faces."""

    offers = (PlayComputer, HostLanguage, GoHome)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        w, h = context.size
        t = context.t
        layer = Layer(context, context.ui.facing)  # toward whoever opened it (table orientation)
        y = header(layer, t._("Play the computer"), GoHome())
        pad = max(8, w // 60)
        seat = 1 if context.ui.facing == 1 else 0  # the person plays at the edge this screen faces
        edge = t._("You play at Player 2's edge; the computer plays Player 1.") if seat else \
            t._("You play at Player 1's edge; the computer plays Player 2.")
        text(layer.surface, edge,
             pygame.Rect(pad, y, w - 2 * pad, max(24, h // 16)), max(theme.MIN_READABLE + 2, h // 22), theme.TEXT_DIM)
        y += max(24, h // 16) + h // 40
        gap = max(8, w // 50)
        bw = (w - 2 * pad - 3 * gap) // 4
        bh = max(64, h // 6)
        for i, (level, name) in enumerate(LEVEL_NAMES.items()):
            rect = pygame.Rect(pad + i * (bw + gap), y, bw, bh)
            layer.button(rect, t.lookup(name), PlayComputer(level, seat), primary=True)
            below = pygame.Rect(rect.x, rect.bottom + 4, rect.width, max(40, h // 10))
            text_or_wrap(layer.surface, t.lookup(HOW_THEY_PLAY[level]), below, max(theme.MIN_READABLE + 2, h // 24),
                         theme.TEXT_DIM)
        y += bh + 4 + max(40, h // 10) + h // 30
        text(layer.surface, t._("Language"), pygame.Rect(pad, y, w - 2 * pad, max(22, h // 18)),
             max(theme.MIN_READABLE + 2, h // 22), theme.TEXT_DIM)
        y += max(22, h // 18) + 4
        lw, lh = int(w * 0.2), max(48, int(h * 0.1))
        x = (w - 4 * lw - 3 * gap) // 2
        for code in LANGUAGES:
            layer.button(pygame.Rect(x, y, lw, lh), NATIVE_NAMES[code], HostLanguage(code),
                         primary=code == context.ui.language)
            x += lw + gap
        return layer.finish(surface)
