"""The kiosk's TOML configuration: defaults, key-by-key validation with lines, never a crash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kiosk.config import DEFAULT_CONFIG_TOML, KioskConfig, load_config, parse_config_text


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
    by_key = {w.split(" ", 1)[0]: w for w in loaded.warnings}
    assert "line 2" in by_key["display.size"] and "'9x9'" in by_key["display.size"]
    assert "line 3" in by_key["display.orientation"]
    assert "unknown setting" in by_key["display.colour"] and "line 4" in by_key["display.colour"]
    assert "line 8" in by_key["match.handover"]
    assert "line 12" in by_key["kiosk.stall_limit_seconds"]
    assert "unknown section" in by_key["[weird]"] and "line 14" in by_key["[weird]"]
    c = loaded.config
    assert c.display.size is None and c.display.orientation == "table" and c.display.fps == 30
    assert c.match.handover is True and c.match.bank_seconds == 90  # the right values are kept
    assert c.kiosk.stall_limit_seconds == 2.0


def test_hardware_tables_are_checked_too() -> None:
    text = "[buttons]\nplayer0 = { accept = 5, raise = 5, decline = 13 }\n"
    loaded = parse_config_text(text, port_exists=lambda path: True)
    assert any(w.startswith("buttons.player0.raise") and "line 2" in w for w in loaded.warnings)
    assert any(b.pin == 5 for b in loaded.config.hardware.buttons)


def test_a_broken_or_missing_file_gives_defaults_and_a_reason(tmp_path: Path) -> None:
    broken = tmp_path / "config.toml"
    broken.write_text("[display\nsize = 1\n")
    loaded = load_config(broken)
    assert loaded.config == KioskConfig() and "not valid TOML" in loaded.warnings[0]
    missing = load_config(tmp_path / "nope.toml")
    assert missing.config == KioskConfig() and "no such configuration file" in missing.warnings[0]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert "cannot read" in load_config(binary).warnings[0]


def test_the_check_command_reports_problems(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[display]\norientation = "diagonal"\n')
    done = subprocess.run([sys.executable, "-m", "kiosk.config", "--check", str(path)], capture_output=True, text=True)
    assert done.returncode == 1 and "display.orientation (line 2)" in done.stdout
    default = subprocess.run([sys.executable, "-m", "kiosk.config", "--print-default"], capture_output=True, text=True)
    assert default.returncode == 0 and default.stdout == DEFAULT_CONFIG_TOML
