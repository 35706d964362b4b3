"""The kiosk's TOML configuration: defaults, key-by-key validation with lines, never a crash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hardware.notices import Notice
from kiosk.config import DEFAULT_CONFIG_TOML, RULES, KioskConfig, load_config, parse_config_text


def test_the_documented_default_file_is_the_default_configuration() -> None:
    loaded = parse_config_text(DEFAULT_CONFIG_TOML)
    assert loaded.warnings == ()
    assert loaded.config == KioskConfig()


def test_every_wrong_value_names_its_key_and_line_and_falls_back() -> None:
    text = """\
[display]
size = "9x9"
orientation = "sideways"
colour = "red"
fps = 30

[match]
handover = "yes"
bank_seconds = 90

[kiosk]
stall_limit_seconds = -1

[weird]
x = 1
"""
    loaded = parse_config_text(text, port_exists=lambda path: True)
    by_key = {w.key: w for w in loaded.warnings}
    assert set(by_key) == {"display.size", "display.orientation", "display.colour", "match.handover",
                           "kiosk.stall_limit_seconds", "[weird]"}
    size = by_key["display.size"]
    assert (size.msgid, size.line) == ("{key} (line {line}): {message}", 2)
    assert size.message is not None and size.message.msgid == "expected {expected}, got {value}; using {default}"
    assert size.message.params["value"] == "'9x9'" and size.message.params["default"] == "'auto'"
    assert size.message.params["expected"] == Notice('a size like "800x480" (width and height from 480) or "auto"')
    assert str(size) == """display.size (line 2): expected a size like "800x480" (width and height from 480) or "auto", got '9x9'; using 'auto'"""
    assert by_key["display.orientation"].line == 3
    colour = by_key["display.colour"]
    assert colour.line == 4 and colour.message is not None
    assert colour.message == Notice("unknown key (known: {known})", {"known": "fps, fullscreen, orientation, size"})
    assert by_key["match.handover"].line == 8
    assert by_key["kiosk.stall_limit_seconds"].line == 12
    weird = by_key["[weird]"]
    assert weird.line == 14 and weird.message is not None
    assert weird.message.msgid == "unknown section (known: {known}); ignored"
    c = loaded.config
    assert c.display.size is None and c.display.orientation == "table" and c.display.fps == 30
    assert c.match.handover is True and c.match.bank_seconds == 90  # the right values are kept
    assert c.kiosk.stall_limit_seconds == 2.0


def test_hardware_tables_are_checked_too() -> None:
    text = "[buttons]\nplayer0 = { accept = 5, raise = 5, decline = 13 }\n"
    loaded = parse_config_text(text, port_exists=lambda path: True)
    [raise_pin] = [w for w in loaded.warnings if w.key == "buttons.player0.raise"]
    assert raise_pin.line == 2 and raise_pin.message is not None
    assert raise_pin.message.msgid == "pin {pin} is already used by {other}; not wired"
    assert any(b.pin == 5 for b in loaded.config.hardware.buttons)


def test_a_broken_or_missing_file_gives_defaults_and_a_reason(tmp_path: Path) -> None:
    broken = tmp_path / "config.toml"
    broken.write_text("[display\nsize = 1\n")
    loaded = load_config(broken)
    assert loaded.config == KioskConfig()
    [invalid] = loaded.warnings
    assert invalid.msgid == "the configuration file is not valid TOML ({error}); using defaults"
    assert "line 1" in str(invalid.params["error"])
    missing = load_config(tmp_path / "nope.toml")
    assert missing.config == KioskConfig()
    assert missing.warnings == (Notice("{path}: no such configuration file; using defaults",
                                       {"path": str(tmp_path / "nope.toml")}),)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    [unreadable] = load_config(binary).warnings
    assert unreadable.msgid == "{path}: cannot read the configuration ({error}); using defaults"


def test_the_check_command_reports_problems(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[display]\norientation = "diagonal"\n')
    done = subprocess.run([sys.executable, "-m", "kiosk.config", "--check", str(path)], capture_output=True, text=True)
    assert done.returncode == 1 and "display.orientation (line 2)" in done.stdout
    default = subprocess.run([sys.executable, "-m", "kiosk.config", "--print-default"], capture_output=True, text=True)
    assert default.returncode == 0 and default.stdout == DEFAULT_CONFIG_TOML


DEEP = "[display]\nfps = 30\nsize = " + "[" * 500 + "]" * 500 + "\n"


def test_arrays_nested_500_deep_give_defaults_and_a_reason_not_a_crash(tmp_path: Path) -> None:
    """tomllib raises RecursionError on 500 nested arrays; before the fix it escaped and the service looped."""
    loaded = parse_config_text(DEEP)
    assert loaded.config == KioskConfig()
    # CPython's wording after the name varies (under coverage: "... while calling a Python object")
    (warning,) = loaded.warnings
    assert warning.msgid == "the configuration file cannot be used ({error}); using defaults"
    assert str(warning.params["error"]).startswith("RecursionError: maximum recursion depth exceeded")
    path = tmp_path / "deep.toml"
    path.write_text(DEEP, encoding="utf-8")
    assert load_config(path).warnings == loaded.warnings
    done = subprocess.run([sys.executable, "-m", "kiosk.config", "--check", str(path)], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot be used (RecursionError: maximum recursion depth exceeded" in done.stdout


def test_a_check_that_fails_unexpectedly_gives_defaults_and_a_reason() -> None:
    def broken(path: str) -> bool:
        raise RuntimeError("the disk fell off")

    loaded = parse_config_text('[display]\norientation = "upright"\n[serial]\nenabled = true\nurl = "/dev/x"\n',
                               port_exists=broken)
    assert loaded.config == KioskConfig()
    assert loaded.warnings == (Notice("the configuration file cannot be used ({error}); using defaults",
                                      {"error": "RuntimeError: the disk fell off"}),)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    """Notepad writes a BOM; before the fix the whole file was 'not valid TOML' and ignored."""
    text = '[display]\norientation = "upright"\nfps = 5\n'
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    loaded = load_config(path)
    assert loaded.config.display.orientation == "upright"
    [fps] = loaded.warnings
    assert (fps.key, fps.line) == ("display.fps", 3)  # the lines still count from the first


def test_a_serial_url_that_is_not_for_a_panel_names_its_key_and_line() -> None:
    loaded = parse_config_text('[serial]\nenabled = true\nurl = "spy:///dev/ttyACM0?file=/tmp/log"\n')
    [spy] = loaded.warnings
    assert (spy.key, spy.line) == ("serial.url", 3)
    assert str(spy).startswith("serial.url (line 3): 'spy://' URLs are not for a serial panel")
    assert loaded.config.hardware.serial.enabled is False and loaded.config.hardware.serial.url is None


def test_sound_volume_and_the_owner_pin_file() -> None:
    assert KioskConfig().sound.volume == 60
    assert KioskConfig().kiosk.owner_pin_file == "/etc/spectacular-bid/owner-pin"
    loaded = parse_config_text('[sound]\nvolume = 35\n[kiosk]\nowner_pin_file = "/srv/pin"\n')
    assert loaded.warnings == ()
    assert loaded.config.sound.volume == 35 and loaded.config.kiosk.owner_pin_file == "/srv/pin"
    wrong = parse_config_text('[sound]\nvolume = 101\nloud = true\n[kiosk]\nowner_pin_file = "pin"\n')
    assert {(w.key, w.line) for w in wrong.warnings} == {("sound.volume", 2), ("sound.loud", 3),
                                                         ("kiosk.owner_pin_file", 5)}
    assert wrong.config == KioskConfig()


def test_the_default_file_documents_every_key_and_says_who_is_turned() -> None:
    for name in RULES:
        section, _, key = name.partition(".")
        assert f"[{section}]" in DEFAULT_CONFIG_TOML and f"\n{key} = " in DEFAULT_CONFIG_TOML, name
    assert "Player 2's side is turned 180 degrees" in DEFAULT_CONFIG_TOML
    assert "player 1's side" not in DEFAULT_CONFIG_TOML.lower()
    assert "once translations land" not in DEFAULT_CONFIG_TOML
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for name in RULES:
        assert f"`{name}`" in readme, f"README's configuration table lacks {name}"


@pytest.mark.parametrize("value", ["640x240", "1920x240", "800x479", "479x800", "7681x480", "480x4321"])
def test_a_size_the_screens_cannot_be_drawn_at_is_refused(value: str) -> None:
    loaded = parse_config_text(f'[display]\nsize = "{value}"\n')
    assert loaded.config.display.size is None
    (warning,) = loaded.warnings
    assert warning.key == "display.size" and "width and height from 480" in str(warning)


@pytest.mark.parametrize("size", [(480, 480), (640, 480), (480, 1920), (3840, 480)])
def test_every_accepted_extreme_size_draws_the_board_screens(tmp_path: Path, size: tuple[int, int]) -> None:
    """The config check accepts only sizes at which a late board and a settlement are drawn."""
    from kiosk.devtools.screenshots import shoot

    assert parse_config_text(f'[display]\nsize = "{size[0]}x{size[1]}"\n').config.display.size == size
    for orientation in ("table", "upright"):
        written = shoot(tmp_path, size, orientation, only=("play-late", "settlement-domino"))
        assert len(written) == 2


@pytest.mark.parametrize("size", [(640, 240), (1920, 240)])
def test_a_screen_smaller_than_the_check_allows_is_still_drawn_without_a_crash(tmp_path: Path,
                                                                              size: tuple[int, int]) -> None:
    """A screen of its own size ("auto") below the limits: the board is left out, nothing crashes."""
    from kiosk.devtools.screenshots import shoot

    for orientation in ("table", "upright"):
        written = shoot(tmp_path, size, orientation, only=("play-late", "settlement-domino", "practice-hint"))
        assert len(written) == 3


@pytest.mark.parametrize(("text", "lines"), [
    pytest.param('# the cafe\ndisplay = { fps = 5, orientation = "up" }  # inline\n[sound]\nvolume = 101\n',
                 {"display.fps": 2, "display.orientation": 2, "sound.volume": 4}, id="inline table"),
    pytest.param('# the cafe\ndisplay.fps = 5\n\nmatch . balances = 1  # spaces around the dot\n"sound".volume = 101\n',
                 {"display.fps": 2, "match.balances": 4, "sound.volume": 5}, id="dotted keys at the top"),
    pytest.param('[display]\nnote = """\nfps = 5\n"""\nsize.w = 1\nfps = 5\n',
                 {"display.note": 2, "display.size": 5, "display.fps": 6}, id="dotted key in a table, a string that looks like a key"),
    pytest.param('[display]\nfps = 30\n\n[display.extra]  # a sub-table\nx = 1\n[[weird]]\n',
                 {"display.extra": 4, "[weird]": 6}, id="sub-table and array of tables"),
    pytest.param('[buttons.player0]\naccept = 5\nraise = 5\n[buttons]\nplayer1.accept = 6\nplayer1.raise = 6\n',
                 {"buttons.player0.raise": 3, "buttons.player1.raise": 6}, id="hardware as sub-tables and dotted keys"),
])
def test_every_warning_names_its_line_in_every_toml_form(tmp_path: Path, text: str, lines: dict[str, int]) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    loaded = load_config(path, port_exists=lambda _: True)
    assert {w.key: w.line for w in loaded.warnings if w.key in lines} == lines
    assert all(w.line is not None for w in loaded.warnings)
