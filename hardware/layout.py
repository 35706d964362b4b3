"""Which pin belongs to which button or LED, and the Raspberry Pi defaults.

Pin numbers are Broadcom (BCM) GPIO numbers, as gpiozero uses them. The
defaults avoid the ID EEPROM (0, 1), I2C (2, 3), SPI0 (7-11), UART (14, 15)
and PCM/I2S (18-21) pins, so a HAT using those buses still fits.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import GAME_BUTTONS, Button

VALID_PINS: range = range(2, 28)
"""BCM GPIO numbers a 40-pin Raspberry Pi header exposes for general use."""


@dataclass(frozen=True, slots=True)
class PinBinding:
    """One button or LED wired to one GPIO pin; ``player`` is None for kiosk buttons."""

    player: int | None
    button: Button
    pin: int

    @property
    def key(self) -> tuple[int | None, Button]:
        """The (player, button) pair this binding serves."""
        return (self.player, self.button)


DEFAULT_BUTTON_PINS: dict[int, dict[Button, int]] = {
    0: {Button.ACCEPT: 5, Button.RAISE: 6, Button.DECLINE: 13},
    1: {Button.ACCEPT: 17, Button.RAISE: 27, Button.DECLINE: 22},
}
"""Default input pins (pull-up, button to ground) per player."""

DEFAULT_LED_PINS: dict[int, dict[Button, int]] = {
    0: {Button.ACCEPT: 23, Button.RAISE: 24, Button.DECLINE: 25},
    1: {Button.ACCEPT: 12, Button.RAISE: 16, Button.DECLINE: 26},
}
"""Default output pins (LED plus resistor to ground) per player."""


def default_bindings(table: dict[int, dict[Button, int]]) -> tuple[PinBinding, ...]:
    """Flatten a per-player pin table into bindings, player 0 first, panel order."""
    return tuple(
        PinBinding(player, button, table[player][button])
        for player in sorted(table)
        for button in GAME_BUTTONS
        if button in table[player]
    )
