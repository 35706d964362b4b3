"""Simulator keys that drive gpiozero mock pins, so key presses take the GPIO code path.

The core (:class:`MockKeyDriver`) knows only key names and mock pins; the
pygame adapter at the bottom turns pygame key events into key names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from .buttons import GpioButtons
from .errors import ConfigError
from .events import Button


class MockKeyDriver:
    """Presses and releases mock button pins for named keys.

    Key down drives the button's pin low (pressed, pull-up wiring) and key up
    drives it high again; the :class:`GpioButtons` on the same factory then
    produce events exactly as for a real button.
    """

    def __init__(
        self,
        keys: Iterable[tuple[str, int, Button]],
        buttons: GpioButtons,
        pin_factory: MockFactory,
    ) -> None:
        self._pins: dict[str, MockPin] = {}
        self._labels: list[tuple[str, int, Button]] = []
        for key, player, button in keys:
            pin_number = buttons.pin_of(player, button)
            if pin_number is None:
                raise ConfigError(f"key {key!r}: player {player} {button.name} has no pin")
            self._pins[key.lower()] = pin_factory.pin(pin_number)
            self._labels.append((key.lower(), player, button))

    def key_down(self, key: str) -> bool:
        """Press the button bound to ``key``; False if the key is not bound."""
        pin = self._pins.get(key.lower())
        if pin is None:
            return False
        pin.drive_low()
        return True

    def key_up(self, key: str) -> bool:
        """Release the button bound to ``key``; False if the key is not bound."""
        pin = self._pins.get(key.lower())
        if pin is None:
            return False
        pin.drive_high()
        return True

    def release_all(self) -> None:
        """Release every bound button (e.g. when the window loses focus)."""
        for pin in self._pins.values():
            pin.drive_high()

    def legend(self) -> list[str]:
        """One on-screen line per player, e.g. ``"Player 1: A accept, S raise, D decline"``."""
        lines = []
        for player in sorted({p for _, p, _ in self._labels}):
            parts = [f"{k.upper()} {b.name.lower()}" for k, p, b in self._labels if p == player]
            lines.append(f"Player {player + 1}: " + ", ".join(parts))
        return lines


def handle_pygame_event(driver: MockKeyDriver, event: Any) -> bool:
    """Feed one pygame event to ``driver``; True if it was a bound key.

    Also releases every key when the window loses focus, so no button stays
    held down.
    """
    import pygame  # the adapter is the only place that needs pygame

    if event.type == pygame.KEYDOWN:
        return driver.key_down(pygame.key.name(event.key))
    if event.type == pygame.KEYUP:
        return driver.key_up(pygame.key.name(event.key))
    if event.type == getattr(pygame, "WINDOWFOCUSLOST", None):
        driver.release_all()
    return False
