"""The hardware tables of the kiosk's TOML config: defaults, and warnings that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.config import HardwareConfig, load_config, parse_text, port_problem, require_valid
from hardware.errors import ConfigError
from hardware.events import Button
from hardware.layout import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS, PinBinding

SAMPLE = """
[kiosk]
title = "not ours"

[hardware]
backend = "mock"

[buttons]
debounce_ms = 20
player0 = { accept = 5, raise = 6, decline = 13 }
player1 = { accept = 17, raise = 27, decline = 22 }
kiosk = { help = 4 }

[leds]
blink_ms = 300
player0 = { accept = 23, raise = 24, decline = 25 }
player1 = { accept = 12, raise = 16, decline = false }

[serial]
enabled = true
url = "loop://"
baudrate = 57600
checksum = true

[keyboard]
player0 = { accept = "Q" }
"""


def never_exists(path: str) -> bool:
    return False


def test_empty_config_gives_pi_defaults_without_warnings() -> None:
    loaded = parse_text("")
    assert loaded.warnings == ()
    assert loaded.config == HardwareConfig()
    pins = {b.pin for b in loaded.config.buttons} | {b.pin for b in loaded.config.leds}
    assert len(pins) == 12
    assert not pins & {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15, 18, 19, 20, 21}  # EEPROM, I2C, SPI, UART, PCM
    assert not loaded.config.serial.enabled


def test_full_sample_is_read() -> None:
    loaded = parse_text(SAMPLE)
    assert loaded.warnings == ()
    config = loaded.config
    assert config.backend == "mock"
    assert config.debounce_ms == 20 and config.blink_ms == 300
    assert PinBinding(None, Button.HELP, 4) in config.buttons
    assert len(config.leds) == 5
    assert config.serial.enabled and config.serial.url == "loop://"
    assert config.serial.baudrate == 57600 and config.serial.checksum
    assert ("q", 0, Button.ACCEPT) in config.keys
    assert ("s", 0, Button.RAISE) in config.keys
    assert require_valid(loaded) is config


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[buttons]\nplayer0 = {accept = 6}", "buttons.player0.raise"),  # 6 is also the default raise
        ("[buttons]\nplayer1 = {accept = 5}", "buttons.player1.accept"),
        ("[leds]\nplayer0 = {accept = 5}", "leds.player0.accept"),  # a button pin
        ("[buttons]\nplayer0 = {accept = 'five'}", "buttons.player0.accept"),
        ("[buttons]\nplayer0 = {accept = 40}", "buttons.player0.accept"),
        ("[buttons]\nplayer0 = {accept = true}", "buttons.player0.accept"),
        ("[buttons]\nplayer0 = {jump = 4}", "buttons.player0.jump"),
        ("[buttons]\nplayer2 = {accept = 4}", "buttons.player2"),
        ("[buttons]\nplayer0 = 5", "buttons.player0"),
        ("[buttons]\ndebounce_ms = 'fast'", "buttons.debounce_ms"),
        ("[leds]\nblink_ms = 0", "leds.blink_ms"),
        ("[leds]\nenabled = 'yes'", "leds.enabled"),
        ("[hardware]\nbackend = 'arduino'", "hardware.backend"),
        ("[hardware]\ncolour = 1", "hardware.colour"),
        ("hardware = 3", "hardware"),
        ("[serial]\nenabled = true\nurl = '/dev/does-not-exist'", "serial.url"),
        ("[serial]\nenabled = true", "serial.url"),
        ("[serial]\nenabled = true\nurl = 'warp://x'", "serial.url"),
        ("[serial]\nbaudrate = -1", "serial.baudrate"),
        ("[serial]\nbaud = 9600", "serial.baud"),
        ("[keyboard]\nplayer0 = {accept = 's'}", "keyboard.player0.raise"),
        ("[keyboard]\nplayer0 = {accept = 7}", "keyboard.player0.accept"),
    ],
)
def test_a_wrong_value_names_its_key_and_the_rest_still_loads(text: str, key: str) -> None:
    loaded = parse_text(text, port_exists=never_exists)
    assert any(w.startswith(key + ":") for w in loaded.warnings), loaded.warnings
    assert len(loaded.config.buttons) >= 5  # the other inputs still work
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        require_valid(loaded)


def test_pin_used_twice_keeps_the_first_use() -> None:
    loaded = parse_text("[buttons]\nplayer1 = {accept = 5}")
    pins = {b.key: b.pin for b in loaded.config.buttons}
    assert pins[(0, Button.ACCEPT)] == 5
    assert (1, Button.ACCEPT) not in pins
    assert "already used by buttons.player0.accept" in loaded.warnings[0]


def test_scalar_falls_back_to_default() -> None:
    loaded = parse_text("[buttons]\ndebounce_ms = -3\n[serial]\nbaudrate = 'fast'")
    assert loaded.config.debounce_ms == 30
    assert loaded.config.serial.baudrate == 115200


def test_missing_device_keeps_trying_but_bad_scheme_turns_serial_off() -> None:
    missing = parse_text("[serial]\nenabled = true\nurl = '/dev/ttyNOPE'", port_exists=never_exists)
    assert missing.config.serial.enabled
    bad = parse_text("[serial]\nenabled = true\nurl = 'warp://x'")
    assert not bad.config.serial.enabled
    assert port_problem("socket://localhost:7000") is None
    assert port_problem("loop://") is None


def test_leds_can_be_switched_off() -> None:
    assert parse_text("[leds]\nenabled = false").config.leds == ()


def test_bad_toml_and_missing_file_give_defaults(tmp_path: Path) -> None:
    bad = parse_text("[buttons\n")
    assert bad.config == HardwareConfig() and "not valid TOML" in bad.warnings[0]
    missing = load_config(tmp_path / "nope.toml")
    assert missing.config == HardwareConfig() and "cannot read" in missing.warnings[0]
    good = tmp_path / "kiosk.toml"
    good.write_text(SAMPLE, encoding="utf-8")
    assert load_config(good).config.backend == "mock"


def test_default_tables_match_the_documented_wiring() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"
    text = doc.read_text(encoding="utf-8")
    for table, kind in ((DEFAULT_BUTTON_PINS, "button"), (DEFAULT_LED_PINS, "LED")):
        for player, pins in table.items():
            for button, pin in pins.items():
                row = f"| {player} | {button.name.lower()} {kind} | GPIO{pin} |"
                assert row in text, row
