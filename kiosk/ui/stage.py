"""The screen: what the controller's state looks like, and which intent a tap carries (interim: the View)."""

from __future__ import annotations

import pygame

from kiosk.table.controller import Controller
from kiosk.table.intents import Intent
from kiosk.ui.view import View
from kiosk.ui.widgets import Hotspot


class Stage:
    """Draws the controller's state and passes taps' intents to it."""

    def __init__(self, controller: Controller, size: tuple[int, int], orientation: str) -> None:
        self.controller = controller
        self.view = View(size, orientation)

    @property
    def hotspots(self) -> list[Hotspot]:
        return self.view.hotspots

    @property
    def clocks(self) -> list:
        return self.view.clocks

    @property
    def regions(self):
        return self.view.regions

    def help_pages(self) -> int:
        return self.view.help_pages

    def settings_pages(self) -> int:
        return self.view.settings_pages

    def handle(self, intent: Intent, now: int) -> None:
        self.controller.handle(intent, now)

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        c = self.controller
        self.view.draw_full(surface, c.ui, c.session, now, c.flight)
        return self.view.hotspots

    def clock_key(self, now: int) -> tuple[object, ...]:
        return self.view.clock_key(self.controller.session, now)

    def draw_clocks(self, surface: pygame.Surface, now: int) -> list[pygame.Rect]:
        session = self.controller.session
        return [] if session is None else self.view.draw_clocks(surface, session, now)

    def help_has_figures(self) -> bool:
        return self.view.help_has_figures

    def hit(self, pos: tuple[int, int]) -> Hotspot | None:
        return self.view.hit(pos)
