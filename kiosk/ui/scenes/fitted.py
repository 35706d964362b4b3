"""Pieces the table's own cards share (auction, hand-over): lines of text flowed into a box at the
largest size that fits (never under 16 px: the least important lines give way first), and a
card surface turned toward its reader whose hotspots are mapped back to the screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from kiosk.table.intents import Intent
from kiosk.ui import layout, theme
from kiosk.ui.part import Part
from kiosk.ui.widgets import Hotspot, draw_button, text

MIN_TEXT = layout.MIN_TEXT
MIN_TARGET = layout.MIN_TARGET


@dataclass(frozen=True, slots=True)
class FlowLine:
    """A line of a card: its text, colour, whether it is the heading, and how much it matters (a
    line of lower ``keep`` gives way first when the card is too small)."""

    value: str
    colour: tuple[int, int, int] = theme.TEXT
    heading: bool = False
    keep: int = 1
    floor: int = layout.MIN_TEXT
    """The least size this line is drawn at (an important fact: ``IMPORTANT``)."""


IMPORTANT = 20
"""The least size of a line that carries a fact the player acts on (a bid's cost, the jockey's credit,
the all-in warning), at every screen size."""


def _wrapped(lines: Sequence[FlowLine], width: int, size: int
             ) -> list[tuple[FlowLine, list[str], pygame.font.Font, int]]:
    out = []
    for line in lines:
        px = max(line.floor, round(size * 1.2) if line.heading else size)
        f = theme.font(px, line.heading, line.value)
        out.append((line, theme.wrap(line.value, width, f), f, px))
    return out


def flow(surface: pygame.Surface, lines: Sequence[FlowLine], rect: pygame.Rect, size: int, *,
         align: str = "center") -> list[FlowLine]:
    """Draw ``lines`` wrapped into ``rect`` at the largest size up to ``size`` that fits (at least
    ``MIN_TEXT``, and never under a line's own ``floor``), centred vertically; lines that cannot fit
    even then are left out, least important first. Returns the lines drawn."""
    shown = list(lines)
    while shown:
        for s in range(max(size, MIN_TEXT), MIN_TEXT - 1, -1):
            wrapped = _wrapped(shown, rect.width, s)
            height = sum(max(f.get_linesize(), px) * len(parts) for _, parts, f, px in wrapped)
            widest = max(f.size(part)[0] for _, parts, f, _ in wrapped for part in parts)
            if height <= rect.height and widest <= rect.width:
                y = rect.y + (rect.height - height) // 2
                for line, parts, f, px in wrapped:
                    for part in parts:
                        box = pygame.Rect(rect.x, y, rect.width, max(f.get_linesize(), px))
                        text(surface, part, box, px, line.colour, bold=line.heading, align=align)
                        y += box.height
                return shown
        least = min(range(len(shown)), key=lambda i: (shown[i].keep, -i))
        del shown[least]
    return shown


@dataclass(frozen=True, slots=True)
class CardButton:
    """A button of a card: where it is on the card, its label and intent, primary or not."""

    rect: pygame.Rect
    label: str
    intent: Intent
    primary: bool = False
    enabled: bool = True


class Card(Part):
    """A card at ``rect`` on the screen for ``seat`` (None: both), turned 180° when ``turned``: draw
    on ``surface`` in the card's own coordinates, then ``finish``."""

    def __init__(self, rect: pygame.Rect, turned: bool, seat: int | None, alpha: int = 235) -> None:
        super().__init__(rect, turned, seat, clear=True)
        pygame.draw.rect(self.surface, (*theme.OVERLAY, alpha), self.surface.get_rect(),
                         border_radius=max(8, min(14, self.rect.height // 8)))

    def button(self, b: CardButton) -> None:
        draw_button(self.surface, b.rect, b.label, primary=b.primary, enabled=b.enabled)
        if b.enabled:
            self.spots.append(Hotspot(b.rect, b.intent))

    def finish(self, screen: pygame.Surface) -> list[Hotspot]:
        """Put the card on ``screen``; its hotspots in screen coordinates."""
        return self.put(screen)


def row(x: int, y: int, width: int, height: int, shares: Sequence[float], gap: int) -> list[pygame.Rect]:
    """Rectangles side by side in ``width`` with ``gap`` between them, widths in proportion to ``shares``."""
    free = width - gap * (len(shares) - 1)
    total = sum(shares) or 1
    rects, left = [], x
    for i, share in enumerate(shares):
        w = x + width - left if i == len(shares) - 1 else round(free * share / total)
        rects.append(pygame.Rect(left, y, w, height))
        left += w + gap
    return rects
