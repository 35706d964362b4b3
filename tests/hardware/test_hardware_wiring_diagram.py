"""The wiring picture is drawn from the default pin tables."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from hardware.layout import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS
from hardware.wiring_diagram import HEADER, PLAYER_COLOURS, draw, physical_pin


def test_header_map_is_the_40_pin_raspberry_pi_header() -> None:
    assert len(HEADER) == 40 and sorted(HEADER) == list(range(1, 41))
    assert [p for p, n in HEADER.items() if n == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]
    assert physical_pin(5) == 29 and physical_pin(17) == 11 and physical_pin(26) == 37
    assert sum(n.startswith("GPIO") for n in HEADER.values()) == 28


def test_every_default_pin_is_marked_in_its_players_colour() -> None:
    picture = draw()
    width, _ = picture.get_size()
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(width // 2 - 30, width // 2 + 30) for y in range(60, 520)}
    assert set(PLAYER_COLOURS) <= colours
    pins = [g for t in (*DEFAULT_BUTTON_PINS.values(), *DEFAULT_LED_PINS.values()) for g in t.values()]
    assert len(set(pins)) == 12 and all(f"GPIO{g}" in HEADER.values() for g in pins)
