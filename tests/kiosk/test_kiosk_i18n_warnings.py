"""Configuration and start-up warnings in every kiosk language: each one a catalog template with its
keys, lines and values kept, and drawn without overflow on the banner and the settings screen."""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import draw_recorded

from kiosk import i18n
from kiosk.app import App
from kiosk.config import KioskConfig, load_config, parse_config_text
from kiosk.i18n import Text
from kiosk.store.journal import Journal, JournalUnavailable, _unavailable
from kiosk.table.intents import OpenSettings, SettingsPage
from kiosk.timesource import FakeClock
from kiosk.ui import theme
from kiosk.warning_texts import message_text, warning_text

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


def _all_warnings(tmp_path: Path) -> list[str]:
    path = tmp_path / "config.toml"
    path.write_text(BAD, "utf-8")
    out = list(load_config(path, port_exists=lambda p: False).warnings)
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
    # the hardware ports, the journal, python -m kiosk and the restart
    out += ["hardware.backend: no Raspberry Pi GPIO here (no lgpio; no RPi.GPIO); GPIO buttons and LEDs are off",
            "buttons: cannot use the pins (pin 5 is busy); GPIO buttons are off",
            "leds: cannot use the pins (pin 6 is busy); LEDs are off"]
    out += ["The match journal journal.sqlite3 could not be read (its schema version is unreadable); it was moved "
            "aside to journal.sqlite3.corrupt-19700101T000000 and a new journal was started.",
            "The match journal journal.sqlite3 could not be read (file is not a database); it was moved aside to "
            "journal.sqlite3.corrupt-19700101T000000 and a new journal was started."]
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if not os.access(folder, os.W_OK):  # not as root
            with pytest.raises(JournalUnavailable) as exc:
                Journal.open(folder / "journal.sqlite3")
            out.append(f"matches are not being saved: {exc.value}")
    finally:
        folder.chmod(0o700)
    import sqlite3

    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorname = "SQLITE_BUSY"  # type: ignore[attr-defined]
    out.append(f"matches are not being saved: {_unavailable(Path('/var/lib/x/journal.sqlite3'), busy)}")
    out.append("matches are not being saved: The match journal cannot be kept: the folder /var/lib/x cannot be "
               "created (Permission denied). Matches will not survive a restart.")
    out.append("The kiosk restarted but the unfinished match could not be restored (bad snapshot); it was closed "
               "without a result.")
    return out


def _numbers_and_names(english: str) -> set[str]:
    """What a translation must keep: keys (a.b), [sections], quoted values, line numbers."""
    keep = set(re.findall(r"\b[a-z_]+\.[a-z_0-9.]+\b", english))
    keep |= set(re.findall(r"\[[a-z]+\]", english))
    keep |= set(re.findall(r"'[^']*'", english))
    keep |= set(re.findall(r"\bline (\d+)", english))
    return keep


def test_every_warning_is_a_template_with_its_keys_lines_and_values_kept(tmp_path: Path) -> None:
    warnings = _all_warnings(tmp_path)
    assert len(warnings) > 40
    assert any("line 3" in w and "display.orientation" in w for w in warnings)
    for english in warnings:
        found = warning_text(english)
        assert isinstance(found, Text), f"no template makes {english!r}"
        assert str(found) == english  # the English is the warning itself, byte for byte
        assert i18n.translator("en")(found) == english
        for language in OTHERS:
            shown = i18n.translator(language)(found)
            assert shown != english, (language, english)
            for kept in _numbers_and_names(english):
                assert kept in shown, (language, kept, shown)


def test_nested_phrases_are_translated_too() -> None:
    found = warning_text("display.fullscreen (line 5): 'yes' is not true or false; using True")
    assert i18n.translator("ko")(found) == "display.fullscreen (5행): 'yes'은(는) true 또는 false이(가) 아닙니다; True 사용"
    assert "рядок 5" in i18n.translator("uk")(found) and "true або false" in i18n.translator("uk")(found)
    why = warning_text("matches are not being saved: The match journal /x/j.sqlite3 cannot be used: the disk is full. "
                       "Matches will not survive a restart.")
    assert "диск заповнено" in i18n.translator("uk")(why) and "disk penuh" in i18n.translator("id")(why)
    gpio = warning_text("hardware.backend: no Raspberry Pi GPIO here (x); GPIO buttons and LEDs are off")
    assert i18n.translator("id")(gpio).startswith("hardware.backend: tidak ada GPIO Raspberry Pi di sini (x)")


def test_an_unknown_sentence_stays_as_it_is() -> None:
    assert warning_text("something nobody wrote a template for") == "something nobody wrote a template for"
    assert not isinstance(warning_text("display.size (line 2): a new kind of problem"), Text)


def test_restart_and_stall_messages_are_translated() -> None:
    for english in (
        "The kiosk restarted before the match began; press Start when ready.",
        "The kiosk restarted before the match began; press Start when ready. The first command was damaged by "
        "the power cut and was dropped.",
        "The machine restarted while Player 2's clock was running: the match is aborted without a result.",
        "The kiosk restarted; Player 1's time ran out while it was down (12 s): Player 2 wins on time. The last "
        "command before the power cut was damaged and was dropped.",
        "The kiosk restarted; the match continues — the 3.5 s it was down were charged to Player 1.",
        "the kiosk could not take commands for 3.1 s while a clock ran (the limit is 2.0 s)",
    ):
        found = message_text(english)
        assert isinstance(found, Text) and str(found) == english
        for language in OTHERS:
            assert i18n.translator(language)(found) != english


# -- drawn at 800 x 480 ----------------------------------------------------------------------------


def _app(language: str, warnings: tuple[str, ...]) -> tuple[App, FakeClock]:
    config = KioskConfig()
    config = replace(config, kiosk=replace(config.kiosk, language=language))
    clock = FakeClock(5 * S)
    app = App(config, warnings=warnings, clock=clock, size=(800, 480), hardware_backend="mock",
              rng=random.Random(7), simulator=True)
    app.ui.language = language
    app.controller.refresh_texts()
    return app, clock


def _problems(name: str, fits: list[theme.Fit]) -> list[str]:
    return [f"{name}: {f.kind} {f.text!r} in {f.box} used {f.used} width {f.width}" for f in fits
            if not f.fits or f.used < theme.MIN_READABLE]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_banner_and_the_settings_screen_show_every_warning_and_fit(language: str, tmp_path: Path) -> None:
    warnings = tuple(_all_warnings(tmp_path))
    t = i18n.translator(language)
    app, clock = _app(language, warnings)
    try:
        problems: list[str] = []
        # the banner on the home screen: each warning in turn as the first one
        for english in warnings:
            app.ui.warnings = (english, *warnings)
            fits = draw_recorded(app, clock)
            problems += _problems("banner", fits)
            first = t._("Configuration: {warning}", warning=t(warning_text(english)))
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
            line = t._("Warning: {warning}", warning=t(warning_text(english)))
            assert line in shown, (language, line)
        assert not problems, "\n".join(problems[:30])
    finally:
        app.close()
