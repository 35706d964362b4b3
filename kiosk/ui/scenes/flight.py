"""Chips in the air after a transfer: up to ten from the payer's stack to the payee's, the points
above them (0.7 s; the controller keeps the flight's data, ``ChipFlight``)."""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.table import chip_stack
from kiosk.ui.widgets import Hotspot


class Flight(Scene):
    """The newest transfer's chips on their way (over the table and its help)."""

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        flight = self.context.controller.flight
        if flight is None:
            return []
        regions = self.context.regions
        start, end = chip_stack(regions, flight.payer), chip_stack(regions, flight.payee)
        t = flight.progress(now)
        eased = 1 - (1 - t) ** 3
        chips = max(1, min(10, flight.points // 5))
        size = max(10, start.height // 2)
        for i in range(chips):
            lag = i * 0.04
            u = min(1.0, max(0.0, (eased - lag) / (1 - lag) if lag < 1 else 1))
            x = start.centerx + (end.centerx - start.centerx) * u
            y = start.centery + (end.centery - start.centery) * u
            chip = pygame.Rect(0, 0, size, size // 2)
            chip.center = (int(x), int(y) - i * 2)
            pygame.draw.ellipse(surface, theme.CHIP, chip)
            pygame.draw.ellipse(surface, theme.CHIP_EDGE, chip, width=1)
        value = f"+{flight.points}"
        label = theme.font(max(16, size), True, value).render(value, True, theme.SCORE)
        mid = (start.centerx + (end.centerx - start.centerx) * eased, start.centery + (end.centery - start.centery) * eased)
        surface.blit(label, label.get_rect(midbottom=(int(mid[0]), int(mid[1]) - size)))
        return []
