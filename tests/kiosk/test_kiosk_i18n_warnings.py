"""Configuration and start-up warnings in every kiosk language: each one a message value (a catalog id
with its keys, lines and values as parameters), drawn without overflow on the banner and the settings
screen."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory
from kiosk_support import draw_recorded, kiosk_app

from hardware.config import HardwareConfig
from hardware.ports import HardwarePorts
from kiosk import i18n
from kiosk.app import App
from kiosk.config import load_config, parse_config_text
from kiosk.i18n import T, catalogs
from kiosk.i18n.messages import as_text
from kiosk.store.database import unavailable
from kiosk.store.errors import ResumeFailed
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.table.intents import OpenSettings, SettingsPage
from kiosk.timesource import FakeClock
from kiosk.ui import theme

S = 1_000_000_000
OTHERS = ("ko", "uk", "id")

BAD = """\
[display]
size = "9x9"
orientation = "sideways"
colour = "red"
fullscreen = "yes"
fps = 5

[match]
handover = "yes"
bank_seconds = 0
delay_seconds = 9999
balances = 3
extra = 1

[kiosk]
language = "fr"
stall_limit_seconds = -1
idle_return_seconds = 1
admin_exit_hold_seconds = 100
admin_exit_key = ""

[hardware]
backend = "magic"
nope = 1

[buttons]
debounce_ms = -5
player0 = { accept = 5, raise = 5, decline = 99, jump = 3 }
player1 = "x"
kiosk = { exit = 7 }

[leds]
enabled = "on"
blink_ms = 1

[serial]
enabled = true
url = "/dev/no-such-panel"
baudrate = -1
checksum = 3
reconnect_max_s = 0

[keyboard]
player0 = { accept = "j", raise = 3, decline = "" }
player1 = { raise = "q" }
zap = 1

[weird]
x = 1
"""


def _all_warnings(tmp_path: Path) -> list[object]:
    """Every kind of warning the kiosk can show, each made by the code that makes it."""
    path = tmp_path / "config.toml"
    path.write_text(BAD, "utf-8")
    out: list[object] = list(load_config(path, port_exists=lambda p: False).warnings)
    out += load_config(tmp_path / "missing.toml").warnings
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\nsize = 1\n")
    out += load_config(broken).warnings
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    out += load_config(binary).warnings
    out += parse_config_text('display = 3\nserial = 4\n[keyboard]\nplayer0 = { accept = "x" }\n'
                             "[buttons]\nplayer0 = { accept = false }\n").warnings
    out += parse_config_text('[serial]\nenabled = true\nurl = "bogus://x"\n').warnings
    out += parse_config_text("[serial]\nenabled = true\n").warnings
    # the hardware ports: no GPIO on this machine, pins another program holds
    ports = HardwarePorts.build(HardwareConfig(), backend="gpio")
    out += ports.warnings
    ports.close()
    factory = MockFactory()
    held = [gpiozero.Button(5, pin_factory=factory), gpiozero.LED(23, pin_factory=factory)]
    ports = HardwarePorts.build(HardwareConfig(), pin_factory=factory)
    out += ports.warnings
    ports.close()
    for device in held:
        device.close()
    # the journal: a damaged file moved aside, a busy or read-only one, and a match that cannot be restored
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"this is not a database at all" * 100)
    journal = Journal.open(damaged)
    out += journal.warnings
    journal.close()
    # the keeper's saving banner: a journal in use by another process, a folder that cannot be made
    in_use = Journal.open(tmp_path / "in-use.sqlite3")
    problem = JournalKeeper.open(tmp_path / "in-use.sqlite3", "boot", 0).state.problem
    in_use.close()
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    out += [problem, JournalKeeper.open(blocked / "journal.sqlite3", "boot", 0).state.problem]
    out.append(ResumeFailed(T("The kiosk restarted but the unfinished match could not be restored ({error}); it "
                              "was closed without a result.", error="bad snapshot")).text)
    return out


def _numbers_and_names(english: str) -> set[str]:
    """What a translation must keep: keys (a.b), [sections], quoted values, line numbers."""
    keep = set(re.findall(r"\b[a-z_]+\.[a-z_0-9.]+\b", english))
    keep |= set(re.findall(r"\[[a-z]+\]", english))
    keep |= set(re.findall(r"'[^']*'", english))
    keep |= set(re.findall(r"\bline (\d+)", english))
    return keep


def test_every_warning_is_a_message_value_translated_with_its_keys_lines_and_values_kept(tmp_path: Path) -> None:
    warnings = _all_warnings(tmp_path)
    assert len(warnings) > 40
    kinds = {type(w).__name__ for w in warnings}
    assert kinds == {"Notice", "Text"}  # hardware/configuration notices, the store's texts; no sentences
    known = {f.msgid for f in catalogs.extract()}
    for warning in warnings:
        text = as_text(warning)
        english = str(warning)
        assert text.msgid in known, f"{text.msgid!r} is not a catalog id"
        assert str(text) == english and i18n.translator("en")(text) == english
        for language in OTHERS:
            shown = i18n.translator(language)(text)
            assert shown != english, (language, english)
            for kept in _numbers_and_names(english):
                assert kept in shown, (language, kept, shown)


def test_a_warning_about_a_key_names_its_line_in_every_language(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(BAD, "utf-8")
    [orientation] = [w for w in load_config(path, port_exists=lambda p: True).warnings if w.key == "display.orientation"]
    assert orientation.line == 3
    text = as_text(orientation)
    assert "(3행)" in i18n.translator("ko")(text)
    assert "рядок 3" in i18n.translator("uk")(text)


def test_nested_phrases_are_translated_too() -> None:
    [fullscreen] = parse_config_text("[display]\nfullscreen = 'yes'\n").warnings
    assert i18n.translator("uk")(as_text(fullscreen)).count("true або false") == 1
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"
    why = T("The match journal {path} cannot be used: {why}. Matches will not survive a restart.", path="/x/j.sqlite3",
            why=unavailable(Path("/x/j.sqlite3"), full).text.params["why"])
    assert "диск заповнено" in i18n.translator("uk")(why) and "disk penuh" in i18n.translator("id")(why)
    [gpio] = HardwarePorts.build(HardwareConfig(), backend="gpio").warnings
    assert i18n.translator("id")(as_text(gpio)).startswith("hardware.backend: tidak ada GPIO Raspberry Pi di sini (")


def test_a_value_without_a_message_id_is_shown_as_it_is() -> None:
    assert as_text("something from outside the kiosk") == "something from outside the kiosk"
    assert i18n.translator("ko")(as_text("something from outside the kiosk")) == "something from outside the kiosk"


# -- drawn at 800 x 480 ----------------------------------------------------------------------------


def _app(language: str, warnings: tuple[object, ...]) -> tuple[App, FakeClock]:
    app, clock = kiosk_app(language=language, start_s=5, seed=7, warnings=warnings, simulator=True)
    app.ui.language = language
    app.controller.refresh_texts()
    return app, clock


def _problems(name: str, fits: list[theme.Fit]) -> list[str]:
    return [f"{name}: {f.kind} {f.text!r} in {f.box} used {f.used} width {f.width}" for f in fits
            if not f.fits or f.used < theme.MIN_READABLE]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.slow
def test_the_banner_and_the_settings_screen_show_every_warning_and_fit(language: str, tmp_path: Path) -> None:
    warnings = tuple(_all_warnings(tmp_path))
    t = i18n.translator(language)
    app, clock = _app(language, warnings)
    problems: list[str] = []
    # the banner on the home screen: each warning in turn as the first one
    for english in warnings:
        app.ui.warnings = (english, *warnings)
        fits = draw_recorded(app, clock)
        problems += _problems("banner", fits)
        first = t._("Configuration: {warning}", warning=t(as_text(english)))
        assert any(first in f.text for f in fits), (language, first)
    app.ui.warnings = warnings
    app.do(OpenSettings(), clock.now())
    shown: set[str] = set()
    pages = None
    page = 0
    while True:
        fits = draw_recorded(app, clock)
        problems += _problems(f"settings page {page + 1}", fits)
        shown |= {f.text for f in fits}
        pages = app.stage.settings_pages()
        nxt = [s for s in app.hotspots if s.intent == SettingsPage(page + 1)]
        if not nxt:
            break
        app.do(nxt[0].intent, clock.now())  # a tap on Next
        page += 1
    assert pages is not None and page == pages - 1 and pages > 1
    for english in warnings:
        line = t._("Warning: {warning}", warning=t(as_text(english)))
        assert line in shown, (language, line)
    assert not problems, "\n".join(problems[:30])
