"""The hardware tables of the kiosk's TOML config: defaults, and warnings that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardware_support import hardware_msgids

from hardware.config import (
    BACKENDS,
    PANEL_URL_SCHEMES,
    HardwareConfig,
    SerialConfig,
    load_config,
    parse_text,
    port_problem,
    require_valid,
)
from hardware.errors import ConfigError
from hardware.events import Button
from hardware.layout import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS, PinBinding
from hardware.notices import Notice

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


TRUE_OR_FALSE = Notice("true or false")

# (config text, key, message template, message params, the English sentence as it has always read)
WRONG_VALUES: list[tuple[str, str, str, dict[str, object], str]] = [
    ("[buttons]\nplayer0 = {accept = 6}", "buttons.player0.raise",  # 6 is also the default raise
     "pin {pin} is already used by {other}; not wired", {"pin": 6, "other": "buttons.player0.accept"},
     "buttons.player0.raise: pin 6 is already used by buttons.player0.accept; not wired"),
    ("[buttons]\nplayer1 = {accept = 5}", "buttons.player1.accept",
     "pin {pin} is already used by {other}; not wired", {"pin": 5, "other": "buttons.player0.accept"},
     "buttons.player1.accept: pin 5 is already used by buttons.player0.accept; not wired"),
    ("[leds]\nplayer0 = {accept = 5}", "leds.player0.accept",  # a button pin
     "pin {pin} is already used by {other}; not wired", {"pin": 5, "other": "buttons.player0.accept"},
     "leds.player0.accept: pin 5 is already used by buttons.player0.accept; not wired"),
    ("[buttons]\nplayer0 = {accept = 'five'}", "buttons.player0.accept",
     "expected a BCM pin number {low}-{high} or false, got {value}; not wired", {"low": 2, "high": 27, "value": "'five'"},
     "buttons.player0.accept: expected a BCM pin number 2-27 or false, got 'five'; not wired"),
    ("[buttons]\nplayer0 = {accept = 40}", "buttons.player0.accept",
     "expected a BCM pin number {low}-{high} or false, got {value}; not wired", {"low": 2, "high": 27, "value": "40"},
     "buttons.player0.accept: expected a BCM pin number 2-27 or false, got 40; not wired"),
    ("[buttons]\nplayer0 = {accept = true}", "buttons.player0.accept",
     "expected a BCM pin number {low}-{high} or false, got {value}; not wired", {"low": 2, "high": 27, "value": "True"},
     "buttons.player0.accept: expected a BCM pin number 2-27 or false, got True; not wired"),
    ("[buttons]\nkiosk = {help = 3.5}", "buttons.kiosk.help",
     "expected a BCM pin number {low}-{high} or false, got {value}; not wired", {"low": 2, "high": 27, "value": "3.5"},
     "buttons.kiosk.help: expected a BCM pin number 2-27 or false, got 3.5; not wired"),
    ("[buttons]\nplayer0 = {jump = 4}", "buttons.player0.jump",
     "unknown button (known: {known})", {"known": "accept, raise, decline"},
     "buttons.player0.jump: unknown button (known: accept, raise, decline)"),
    ("[buttons]\nplayer2 = {accept = 4}", "buttons.player2",
     "unknown key (known: {known})", {"known": "debounce_ms, kiosk, player0, player1"},
     "buttons.player2: unknown key (known: debounce_ms, kiosk, player0, player1)"),
    ("[buttons]\nplayer0 = 5", "buttons.player0",
     "must be a table, not {type}; using defaults", {"type": "int"},
     "buttons.player0: must be a table, not int; using defaults"),
    ("[buttons]\ndebounce_ms = 'fast'", "buttons.debounce_ms",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("milliseconds between 0 and 1000"), "value": "'fast'", "default": "30"},
     "buttons.debounce_ms: expected milliseconds between 0 and 1000, got 'fast'; using 30"),
    ("[leds]\nblink_ms = 0", "leds.blink_ms",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("milliseconds between 10 and 10000"), "value": "0", "default": "250"},
     "leds.blink_ms: expected milliseconds between 10 and 10000, got 0; using 250"),
    ("[leds]\nenabled = 'yes'", "leds.enabled",
     "expected {expected}, got {value}; using {default}", {"expected": TRUE_OR_FALSE, "value": "'yes'", "default": "True"},
     "leds.enabled: expected true or false, got 'yes'; using True"),
    ("[hardware]\nbackend = 'arduino'", "hardware.backend",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("one of auto, gpio, mock"), "value": "'arduino'", "default": "'auto'"},
     "hardware.backend: expected one of auto, gpio, mock, got 'arduino'; using 'auto'"),
    ("[hardware]\ncolour = 1", "hardware.colour",
     "unknown key (known: {known})", {"known": "backend"},
     "hardware.colour: unknown key (known: backend)"),
    ("hardware = 3", "hardware",
     "must be a table, not {type}; using defaults", {"type": "int"},
     "hardware: must be a table, not int; using defaults"),
    ("[serial]\nenabled = true\nurl = '/dev/does-not-exist'", "serial.url",
     "port {port} does not exist (yet); the panel will keep trying to open it", {"port": "'/dev/does-not-exist'"},
     "serial.url: port '/dev/does-not-exist' does not exist (yet); the panel will keep trying to open it"),
    ("[serial]\nenabled = true", "serial.url",
     "missing, so the serial panel is off", {},
     "serial.url: missing, so the serial panel is off"),
    ("[serial]\nenabled = true\nurl = 'warp://x'", "serial.url",
     "pyserial has no {scheme} URL handler, so the serial panel is off", {"scheme": "'warp'"},
     "serial.url: pyserial has no 'warp' URL handler, so the serial panel is off"),
    ("[serial]\nenabled = true\nurl = 'spy:///dev/ttyACM0'", "serial.url",
     "{scheme} URLs are not for a serial panel (use a device path such as /dev/serial-panel, or {schemes}), "
     "so the serial panel is off", {"scheme": "'spy://'", "schemes": "socket://, rfc2217://, loop://"},
     "serial.url: 'spy://' URLs are not for a serial panel (use a device path such as /dev/serial-panel, "
     "or socket://, rfc2217://, loop://), so the serial panel is off"),
    ("[serial]\nenabled = true\nurl = 'hwgrep://2e8a:000a'", "serial.url",
     "{scheme} URLs are not for a serial panel (use a device path such as /dev/serial-panel, or {schemes}), "
     "so the serial panel is off", {"scheme": "'hwgrep://'", "schemes": "socket://, rfc2217://, loop://"},
     "serial.url: 'hwgrep://' URLs are not for a serial panel (use a device path such as /dev/serial-panel, "
     "or socket://, rfc2217://, loop://), so the serial panel is off"),
    ("[serial]\nurl = 'alt:///dev/ttyACM0?class=PosixPollSerial'", "serial.url",  # refused even while off
     "{scheme} URLs are not for a serial panel (use a device path such as /dev/serial-panel, or {schemes}), "
     "so the serial panel is off", {"scheme": "'alt://'", "schemes": "socket://, rfc2217://, loop://"},
     "serial.url: 'alt://' URLs are not for a serial panel (use a device path such as /dev/serial-panel, "
     "or socket://, rfc2217://, loop://), so the serial panel is off"),
    ("[serial]\nenabled = true\nurl = 'ttyACM0'", "serial.url",
     "{port} is not an absolute device path (such as /dev/serial-panel), so the serial panel is off",
     {"port": "'ttyACM0'"},
     "serial.url: 'ttyACM0' is not an absolute device path (such as /dev/serial-panel), so the serial panel is off"),
    ("[serial]\nurl = ''", "serial.url",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("a device path or pyserial URL"), "value": "''", "default": "None"},
     "serial.url: expected a device path or pyserial URL, got ''; using None"),
    ("[serial]\nbaudrate = -1", "serial.baudrate",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("a positive integer"), "value": "-1", "default": "115200"},
     "serial.baudrate: expected a positive integer, got -1; using 115200"),
    ("[serial]\nchecksum = 1", "serial.checksum",
     "expected {expected}, got {value}; using {default}", {"expected": TRUE_OR_FALSE, "value": "1", "default": "False"},
     "serial.checksum: expected true or false, got 1; using False"),
    ("[serial]\nenabled = 'on'", "serial.enabled",
     "expected {expected}, got {value}; using {default}", {"expected": TRUE_OR_FALSE, "value": "'on'", "default": "False"},
     "serial.enabled: expected true or false, got 'on'; using False"),
    ("[serial]\nreconnect_max_s = 601", "serial.reconnect_max_s",
     "expected {expected}, got {value}; using {default}",
     {"expected": Notice("seconds between 0 and 600"), "value": "601", "default": "5.0"},
     "serial.reconnect_max_s: expected seconds between 0 and 600, got 601; using 5.0"),
    ("[serial]\nbaud = 9600", "serial.baud",
     "unknown key (known: {known})", {"known": "baudrate, checksum, enabled, reconnect_max_s, url"},
     "serial.baud: unknown key (known: baudrate, checksum, enabled, reconnect_max_s, url)"),
    ("[keyboard]\nplayer0 = {accept = 's'}", "keyboard.player0.raise",
     "key {key} is already used by {other}; no key", {"key": "'s'", "other": "keyboard.player0.accept"},
     "keyboard.player0.raise: key 's' is already used by keyboard.player0.accept; no key"),
    ("[keyboard]\nplayer0 = {accept = 7}", "keyboard.player0.accept",
     "expected a key name such as 'a', got {value}; no key", {"value": "7"},
     "keyboard.player0.accept: expected a key name such as 'a', got 7; no key"),
    ("[keyboard]\nplayer0 = {jump = 'x'}", "keyboard.player0.jump",
     "unknown button (known: {known})", {"known": "accept, raise, decline"},
     "keyboard.player0.jump: unknown button (known: accept, raise, decline)"),
    ("[buttons]\nplayer0 = {accept = false}\n[keyboard]\nplayer0 = {accept = 'x'}", "keyboard.player0.accept",
     "its button has no pin, so the key has nothing to press", {},
     "keyboard.player0.accept: its button has no pin, so the key has nothing to press"),
]


@pytest.mark.parametrize(("text", "key", "msgid", "params", "sentence"), WRONG_VALUES,
                         ids=[case[1] + ":" + case[2][:24] for case in WRONG_VALUES])
def test_a_wrong_value_is_one_notice_naming_its_key_and_the_rest_still_loads(
    text: str, key: str, msgid: str, params: dict[str, object], sentence: str
) -> None:
    loaded = parse_text(text, port_exists=never_exists)
    (warning,) = loaded.warnings
    assert (warning.msgid, warning.key, warning.line) == ("{key}: {message}", key, None)
    assert warning.message == Notice(msgid, params)
    assert dict(warning.params) == {"key": key, "message": Notice(msgid, params)}
    assert {warning.msgid, msgid} <= hardware_msgids()
    assert str(warning) == sentence
    assert len(loaded.config.buttons) >= 5  # the other inputs still work
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")) as raised:
        require_valid(loaded)
    assert str(raised.value) == sentence and raised.value.notices == (warning,)


def test_every_wrong_value_of_one_file_is_reported_in_order() -> None:
    loaded = parse_text("[serial]\nchecksum = 1\nbaud = 2\n[leds]\nblink_ms = 0\n")
    assert [str(w) for w in loaded.warnings] == [
        "leds.blink_ms: expected milliseconds between 10 and 10000, got 0; using 250",
        "serial.baud: unknown key (known: baudrate, checksum, enabled, reconnect_max_s, url)",
        "serial.checksum: expected true or false, got 1; using False",
    ]
    with pytest.raises(ConfigError) as raised:
        require_valid(loaded)
    assert raised.value.notices == loaded.warnings
    assert str(raised.value) == "; ".join(str(w) for w in loaded.warnings)


def test_the_backend_phrase_lists_the_backends() -> None:
    loaded = parse_text("[hardware]\nbackend = 'x'")
    (warning,) = loaded.warnings
    assert warning.message is not None
    assert str(warning.message.params["expected"]) == "one of " + ", ".join(BACKENDS)


def test_pin_used_twice_keeps_the_first_use() -> None:
    loaded = parse_text("[buttons]\nplayer1 = {accept = 5}")
    pins = {b.key: b.pin for b in loaded.config.buttons}
    assert pins[(0, Button.ACCEPT)] == 5
    assert (1, Button.ACCEPT) not in pins
    (warning,) = loaded.warnings
    assert warning.message == Notice("pin {pin} is already used by {other}; not wired",
                                     {"pin": 5, "other": "buttons.player0.accept"})


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
    assert port_problem("/dev/ttyNOPE", never_exists) == (
        False, Notice("port {port} does not exist (yet); the panel will keep trying to open it", {"port": "'/dev/ttyNOPE'"}))
    assert port_problem("/dev/ttyHERE", lambda path: True) is None
    assert port_problem("no such://x") == (
        True, Notice("pyserial has no {scheme} URL handler, so the serial panel is off", {"scheme": "'no such'"}))


def test_leds_can_be_switched_off() -> None:
    assert parse_text("[leds]\nenabled = false").config.leds == ()


def test_bad_toml_and_missing_file_give_defaults(tmp_path: Path) -> None:
    bad = parse_text("[buttons\n")
    assert bad.config == HardwareConfig()
    (warning,) = bad.warnings
    error = "Expected ']' at the end of a table declaration (at line 1, column 9)"
    assert (warning.msgid, warning.key, warning.line) == ("{key}: {message}", "config", None)
    assert warning.message == Notice("not valid TOML ({error}); using hardware defaults", {"error": error})
    assert str(warning) == f"config: not valid TOML ({error}); using hardware defaults"

    path = tmp_path / "nope.toml"
    missing = load_config(path)
    assert missing.config == HardwareConfig()
    (warning,) = missing.warnings
    error = f"[Errno 2] No such file or directory: {str(path)!r}"
    assert (warning.msgid, warning.key, warning.line) == ("{key}: {message}", "config", None)
    assert warning.message == Notice("cannot read {path} ({error}); using hardware defaults",
                                     {"path": repr(str(path)), "error": error})
    assert str(warning) == f"config: cannot read {str(path)!r} ({error}); using hardware defaults"

    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    (warning,) = load_config(binary).warnings
    assert warning.message is not None and warning.message.msgid == "cannot read {path} ({error}); using hardware defaults"
    assert warning.message.params["error"] == "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"

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


@pytest.mark.parametrize("url", ["spy:///dev/ttyACM0", "spy://loop://", "hwgrep://.*", "alt:///dev/ttyACM0",
                                 "cp2110://0001:0004:00", "ttyUSB0", "./panel"])
def test_a_url_that_is_not_for_a_panel_turns_it_off_and_is_forgotten(url: str) -> None:
    loaded = parse_text(f"[serial]\nenabled = true\nurl = {url!r}", port_exists=lambda path: True)
    (warning,) = loaded.warnings
    assert warning.key == "serial.url" and "the serial panel is off" in str(warning)
    assert loaded.config.serial == SerialConfig(enabled=False, url=None)
    fatal, _ = port_problem(url, lambda path: True) or (False, None)
    assert fatal


@pytest.mark.parametrize("url", ["/dev/serial-panel", "/dev/serial/by-id/usb-Example_Panel_0001-if00",
                                 "/tmp/sb-panel", "socket://localhost:7000", "rfc2217://localhost:7000", "loop://"])
def test_device_paths_and_panel_urls_are_accepted(url: str) -> None:
    loaded = parse_text(f"[serial]\nenabled = true\nurl = {url!r}", port_exists=lambda path: True)
    assert loaded.warnings == ()
    assert loaded.config.serial == SerialConfig(enabled=True, url=url)
    assert set(PANEL_URL_SCHEMES) == {"socket", "rfc2217", "loop"}


def test_arrays_nested_hundreds_deep_give_defaults_and_a_reason(tmp_path: Path) -> None:
    """tomllib recurses once per level: 500 levels raise RecursionError, which must not escape."""
    text = "[buttons]\ndebounce_ms = 20\n[serial]\nurl = " + "[" * 500 + "]" * 500 + "\n"
    loaded = parse_text(text)
    assert loaded.config == HardwareConfig()
    (warning,) = loaded.warnings
    assert (warning.key, warning.line) == ("config", None)
    # CPython's wording after the name varies (under coverage: "... while calling a Python object")
    assert warning.message is not None
    assert warning.message.msgid == "cannot parse the file ({error}); using hardware defaults"
    assert str(warning.message.params["error"]).startswith("RecursionError: maximum recursion depth exceeded")
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    assert load_config(path).warnings == loaded.warnings


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_text(SAMPLE, encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    loaded = load_config(path)
    assert loaded.warnings == ()
    assert loaded.config == parse_text(SAMPLE).config
    assert loaded.config.backend == "mock"
    assert parse_text("\ufeff[hardware]\nbackend = 'mock'\n").config.backend == "mock"
