"""Helpers shared by the kiosk's drawing tests."""

from __future__ import annotations

from kiosk.app import App
from kiosk.timesource import FakeClock
from kiosk.ui import theme


def draw_recorded(app: App, clock: FakeClock) -> list[theme.Fit]:
    """Draw the whole screen once and return every text fit the drawing measured."""
    theme.RECORDER = []
    try:
        app._drawn_key = None
        app.draw(clock.now())
        return theme.RECORDER
    finally:
        theme.RECORDER = None
