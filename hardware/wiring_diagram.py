"""``python -m hardware.wiring_diagram OUT.png``: a picture of the default wiring on the 40-pin header.

Drawn from the same pin tables the kiosk uses (``hardware.layout``), so the picture cannot drift
from the defaults. Each button is a switch from its GPIO pin to ground (internal pull-up); each
LED goes from its GPIO pin through 330 ohms to ground.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from .events import Button
from .layout import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS

HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND", 10: "GPIO15",
    11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND",
    35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
"""Physical pin -> its function on every 40-pin Raspberry Pi."""
PLAYER_COLOURS = ((60, 120, 220), (220, 90, 60))
NAMES = {Button.ACCEPT: "accept", Button.RAISE: "raise", Button.DECLINE: "decline"}


def physical_pin(gpio: int) -> int:
    """The header pin of BCM GPIO ``gpio``."""
    return next(pin for pin, name in HEADER.items() if name == f"GPIO{gpio}")


def draw(width: int = 1000, height: int = 600) -> pygame.Surface:
    """The wiring picture: the header with every used pin named after what it drives."""
    pygame.font.init()
    surface = pygame.Surface((width, height))
    surface.fill((250, 250, 246))
    font = pygame.font.Font(None, 24)
    bold = pygame.font.Font(None, 24)
    bold.set_bold(True)
    title = pygame.font.Font(None, 34)
    surface.blit(title.render("Spectacular Bid - default wiring (40-pin header, BCM numbers)", True, (20, 20, 20)), (20, 16))
    used: dict[int, tuple[int, str]] = {}
    for player, table in DEFAULT_BUTTON_PINS.items():
        for button, gpio in table.items():
            used[gpio] = (player, f"Player {player + 1} {NAMES[button]} button")
    for player, table in DEFAULT_LED_PINS.items():
        for button, gpio in table.items():
            used[gpio] = (player, f"Player {player + 1} {NAMES[button]} LED")
    row_h, top = 22, 70
    header = pygame.Rect(width // 2 - 30, top - 10, 60, 20 * row_h + 8)
    pygame.draw.rect(surface, (30, 30, 30), header, border_radius=6)
    for pin, name in HEADER.items():
        row, col = (pin - 1) // 2, (pin - 1) % 2
        x = header.x + 16 + col * 28
        y = top + row * row_h + 2
        number = int(name[4:]) if name.startswith("GPIO") else None
        colour, text_colour, f = (235, 235, 235), (160, 160, 160), font
        label = f"{name} ({pin})" if col == 0 else f"({pin}) {name}"
        if name == "GND":
            colour, text_colour = (80, 80, 80), (20, 20, 20)
        elif name in ("3V3", "5V"):
            colour = (230, 200, 60)
        elif number is not None and number in used:
            player, what = used[number]
            colour = text_colour = PLAYER_COLOURS[player]
            f = bold
            label = f"{what}  {label}" if col == 0 else f"{label}  {what}"
        pygame.draw.circle(surface, colour, (x, y), 8)
        image = f.render(label, True, text_colour)
        if col == 0:
            surface.blit(image, image.get_rect(midright=(header.x - 10, y)))
        else:
            surface.blit(image, image.get_rect(midleft=(header.right + 10, y)))
    note = [
        "Buttons: a switch from the GPIO pin to any GND pin; the internal pull-up is used.",
        "LEDs: GPIO pin -> 330 ohm -> LED anode, cathode to GND. Lamps above 3.3 V need a transistor or a ULN2803.",
        "The defaults avoid I2C (GPIO2/3), SPI (GPIO7-11), UART (GPIO14/15) and I2S (GPIO18-21); change pins in config.toml.",
    ]
    for i, line in enumerate(note):
        surface.blit(font.render(line, True, (40, 40, 40)), (20, height - 84 + i * 26))
    return surface


def main(argv: Sequence[str] | None = None) -> int:
    """Write the picture to the given path."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m hardware.wiring_diagram OUT.png", file=sys.stderr)
        return 2
    pygame.image.save(draw(), args[0])
    print(f"wrote {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
