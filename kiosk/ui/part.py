"""A part of the screen drawn upright on a surface of its own, then turned 180° toward the far seat.

``Part(rect, turned, seat)`` gives the surface (``part.surface``, in the part's own coordinates,
declared to the layout records as lying at ``rect``); the scene paints on it and notes its buttons
with ``part.spot``; ``part.put(screen)`` blits it at ``rect`` (turned when ``turned``) and returns the
hotspots mapped through the same turn to screen coordinates.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from kiosk.table.intents import Intent
from kiosk.ui import layout
from kiosk.ui.regions import to_screen
from kiosk.ui.widgets import Hotspot


class Part:
    """A part at ``rect`` of the screen for ``seat`` (None: both), turned 180° when ``turned``.

    ``fill``: the colour it starts with (None: black, or clear when ``clear``); ``surface``: a
    surface of ``rect``'s size to paint on instead of a new one."""

    def __init__(self, rect: pygame.Rect, turned: bool, seat: int | None = None, *,
                 fill: tuple[int, int, int] | None = None, clear: bool = False,
                 surface: pygame.Surface | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.turned = turned
        if surface is None:
            surface = pygame.Surface(self.rect.size, pygame.SRCALPHA) if clear else pygame.Surface(self.rect.size)
        self.surface = surface
        if fill is not None:
            self.surface.fill(fill)
        layout.frame(self.surface, self.rect, turned, seat)
        self.spots: list[Hotspot] = []

    def spot(self, rect: pygame.Rect, intent: Intent) -> None:
        """A tap inside ``rect`` (the part's coordinates) means ``intent``."""
        self.spots.append(Hotspot(rect, intent))

    def add(self, spots: Iterable[Hotspot]) -> None:
        """Hotspots already made in the part's coordinates."""
        self.spots.extend(spots)

    def put(self, screen: pygame.Surface) -> list[Hotspot]:
        """Blit the part at its place on ``screen`` (turned when it is); its hotspots in screen coordinates."""
        screen.blit(pygame.transform.rotate(self.surface, 180) if self.turned else self.surface, self.rect)
        return [Hotspot(to_screen(s.rect, self.rect, self.turned), s.intent) for s in self.spots]
