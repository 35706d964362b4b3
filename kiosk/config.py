"""The kiosk's one TOML configuration file: display, match, kiosk behaviour, the club hub and hardware.

``load_config`` never raises: a broken file (even one the TOML parser itself fails on, such as
arrays nested hundreds deep), an unknown key or a wrong value becomes a warning (a
``hardware.notices.Notice``: message id and parameters, the key and its line when it can be found;
the same wording and message values as the hardware tables, which this reader hands to
``hardware.config``), and the kiosk starts with the default for what is wrong. A UTF-8 byte-order
mark at the start of the file is skipped. ``RULES`` holds every scalar key's default and check
(``kiosk.owner.write_settings`` checks the owner's changes with the same rules).
``python -m kiosk.config --print-default`` prints the documented default file.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from hardware.config import BOM, HardwareConfig, parse_failure
from hardware.config import parse_config as parse_hardware
from hardware.notices import N_, Notice, keyed

ORIENTATIONS = ("table", "upright")
LANGUAGES = ("en", "ko", "uk", "id")
HARDWARE_SECTIONS = ("hardware", "buttons", "leds", "serial", "keyboard")
KIOSK_SECTIONS = ("display", "match", "kiosk", "sound", "computer", "club")
DEFAULT_OWNER_PIN_FILE = "/etc/spectacular-bid/owner-pin"
"""Where the installer stores the owner PIN's salted hash (``kiosk.owner``)."""
DEFAULT_CLUB_TOKEN_FILE = "/etc/spectacular-bid/club-token"
"""Where ``install.sh --club`` stores the table's hub token (``kiosk.club``)."""

DEFAULT_CONFIG_TOML = """\
# Spectacular Bid kiosk configuration. Every key is optional: a missing key takes the default
# shown here; a wrong key or value is reported on screen and replaced by its default.
# The owner's settings screen saves its keys (match, display.orientation, kiosk.language,
# sound.volume) into this file in place: comments and other keys are kept.

[display]
size = "auto"            # "auto" (the screen's own size) or "WIDTHxHEIGHT", e.g. "800x480"
orientation = "table"    # "table": screen lies flat, Player 2's side is turned 180 degrees;
                         # "upright": screen on a stand, nothing turned
fullscreen = true        # the simulator (--simulator) always opens a window
fps = 30                 # frames per second while something moves

[match]
handover = true          # hands are private on a shared screen: reveal before each turn
bank_seconds = 120       # each player's bank for the whole match
delay_seconds = 10       # free time at each new decision
balances = 150           # each player's starting points

[kiosk]
language = "en"          # en, ko, uk, id (each player can also choose their own)
stall_limit_seconds = 2.0  # longer than this without taking commands while a clock runs: abort
idle_return_seconds = 180  # back to the home screen after this long without input between matches
admin_exit_hold_seconds = 5  # hold the bottom-left corner this long to leave the kiosk
admin_exit_key = "F12"   # simulator only: hold this key as long to leave
owner_pin_file = "/etc/spectacular-bid/owner-pin"  # the owner PIN's salted hash (set by the installer)

[sound]
volume = 60              # 0 (silent) to 100

[computer]
think_seconds = 1.0      # the computer's pause before each move; the Expert searches all of it
                         # (0.2 to 10; a slower machine plays weaker in the same time)

[club]
url = ""                 # the club hub this table syncs to, e.g. "http://hub.local:8022"; "" = no club
token_file = "/etc/spectacular-bid/club-token"  # this table's hub token (set by install.sh --club)

# The hardware tables ([hardware], [buttons], [leds], [serial], [keyboard]) are documented in
# docs/hardware.md.
"""


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """How the screen is used."""

    size: tuple[int, int] | None = None
    orientation: str = "table"
    fullscreen: bool = True
    fps: int = 30


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How each match begins."""

    handover: bool = True
    bank_seconds: float = 120
    delay_seconds: float = 10
    balances: int = 150


@dataclass(frozen=True, slots=True)
class KioskSettings:
    """The kiosk's own behaviour."""

    language: str = "en"
    stall_limit_seconds: float = 2.0
    idle_return_seconds: float = 180
    admin_exit_hold_seconds: float = 5
    admin_exit_key: str = "F12"
    owner_pin_file: str = DEFAULT_OWNER_PIN_FILE


@dataclass(frozen=True, slots=True)
class SoundSettings:
    """How loud the kiosk is."""

    volume: int = 60


@dataclass(frozen=True, slots=True)
class ComputerSettings:
    """How the computer opponent plays."""

    think_seconds: float = 1.0
    """The pause before each of its moves; level 4 searches for the whole of it."""


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """The club hub this table syncs to (docs/club.md, "The kiosk's side")."""

    url: str = ""
    """The hub's address (http or https); empty: no club, nothing is synced."""
    token_file: str = DEFAULT_CLUB_TOKEN_FILE


@dataclass(frozen=True, slots=True)
class KioskConfig:
    """The whole configuration, validated."""

    display: DisplayConfig = DisplayConfig()
    match: MatchSettings = MatchSettings()
    kiosk: KioskSettings = KioskSettings()
    hardware: HardwareConfig = HardwareConfig()
    sound: SoundSettings = SoundSettings()
    computer: ComputerSettings = ComputerSettings()
    club: ClubSettings = ClubSettings()


@dataclass(frozen=True, slots=True)
class LoadedKioskConfig:
    """A configuration and one warning per wrong value (empty when the file is right)."""

    config: KioskConfig
    warnings: tuple[Notice, ...] = field(default=())


def _line_of(text: str, *path: str) -> int | None:
    """The 1-based line where the key ``path`` (``"match", "bank_seconds"``; its table when the key itself
    is not written) is first written in any TOML form, if it can be found."""
    index = _line_index(text)
    return next((index[path[:depth]] for depth in range(len(path), 0, -1) if path[:depth] in index), None)


@lru_cache(maxsize=4)
def _line_index(text: str) -> dict[tuple[str, ...], int]:
    """Where each table and key of ``text`` is first written (``kiosk.config_lines``; one pass over the
    file, so that a file of many problems is checked in linear time; read only when there is a warning)."""
    from kiosk.config_lines import line_index

    return line_index(text)


class _Checker:
    """Reads one table, collecting warnings for unknown keys and wrong values."""

    def __init__(self, text: str, section: str, table: Any, warnings: list[Notice]) -> None:
        self.text = text
        self.section = section
        self.warnings = warnings
        if not isinstance(table, dict):
            self.warn(None, Notice(N_("must be a table, not {type}; using defaults"), {"type": type(table).__name__}))
            table = {}
        self.table: dict[str, Any] = table

    def warn(self, key: str | None, message: Notice) -> None:
        where = f"{self.section}.{key}" if key else self.section
        self.warnings.append(keyed(where, message, _line_of(self.text, self.section, *([key] if key else []))))

    def unknown(self, known: Sequence[str]) -> None:
        for key in self.table:
            if key not in known:
                self.warn(key, Notice(N_("unknown key (known: {known})"), {"known": ", ".join(sorted(known))}))

    def known(self) -> tuple[str, ...]:
        """The keys ``RULES`` knows in this table."""
        return tuple(name.partition(".")[2] for name in RULES if name.partition(".")[0] == self.section)

    def get(self, key: str) -> Any:
        """The value of ``key`` by its rule, or the rule's default (with a warning) when it is wrong."""
        rule = RULES[f"{self.section}.{key}"]
        if key not in self.table:
            return rule.default
        value = self.table[key]
        result = rule.accept(value)
        if result is None:
            self.warn(key, Notice(N_("expected {expected}, got {value}; using {default}"),
                                  {"expected": rule.expected, "value": repr(value), "default": repr(rule.default)}))
            return rule.default
        return result


def _bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _number(low: float, high: float) -> Callable[[Any], float | None]:
    def check(value: Any) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return value if low <= value <= high else None

    return check


def _whole(low: int, high: int) -> Callable[[Any], int | None]:
    def check(value: Any) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        return value if low <= value <= high else None

    return check


def _choice(options: Sequence[str]) -> Callable[[Any], str | None]:
    return lambda value: value if value in options else None


MIN_SIDE = 480
"""The shortest side the screens are drawn for (the board and the touch targets need it)."""
MAX_SIZE = (7680, 4320)
"""The largest width and height accepted."""


def screen_size(text: str) -> tuple[int, int] | None:
    """``"WIDTHxHEIGHT"`` as a size every screen can be drawn at, or None (too small, too large,
    not a size): each side at least ``MIN_SIDE``, at most ``MAX_SIZE``."""
    match = re.fullmatch(r"\s*(\d{3,5})\s*[xX]\s*(\d{3,5})\s*", text)
    if match is None:
        return None
    w, h = int(match.group(1)), int(match.group(2))
    return (w, h) if MIN_SIDE <= w <= MAX_SIZE[0] and MIN_SIDE <= h <= MAX_SIZE[1] else None


def _size(value: Any) -> tuple[int, int] | str | None:
    if value == "auto":
        return "auto"
    return screen_size(value) if isinstance(value, str) else None


def _path(value: Any) -> str | None:
    return value if isinstance(value, str) and value.startswith("/") and "\0" not in value else None


def _hub_url(value: Any) -> str | None:
    """"" (no club) or an http(s) URL with a host and no query."""
    if value == "":
        return ""
    if not isinstance(value, str) or "\0" in value or any(c.isspace() for c in value):
        return None
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        return None
    parts.port  # noqa: B018 - a port out of range raises ValueError: refused by Rule.accept
    return value


@dataclass(frozen=True, slots=True)
class Rule:
    """One scalar key: its default, its check (the value to use, or None when wrong), what it should be."""

    default: Any
    check: Callable[[Any], Any]
    expected: Notice

    def accept(self, value: Any) -> Any:
        """``value`` as the setting, or None when the rule refuses it."""
        try:
            return self.check(value)
        except (TypeError, ValueError):
            return None


RULES: dict[str, Rule] = {
    "display.size": Rule("auto", _size, Notice(N_('a size like "800x480" (width and height from 480) or "auto"'))),
    "display.orientation": Rule("table", _choice(ORIENTATIONS), Notice(N_('"table" or "upright"'))),
    "display.fullscreen": Rule(True, _bool, Notice(N_("true or false"))),
    "display.fps": Rule(30, _whole(10, 120), Notice(N_("a whole number from 10 to 120"))),
    "match.handover": Rule(True, _bool, Notice(N_("true or false"))),
    "match.bank_seconds": Rule(120, _number(1, 3600), Notice(N_("a number of seconds from 1 to 3600"))),
    "match.delay_seconds": Rule(10, _number(0, 600), Notice(N_("a number of seconds from 0 to 600"))),
    "match.balances": Rule(150, _whole(5, 10_000), Notice(N_("a whole number of points from 5 to 10000"))),
    "kiosk.language": Rule("en", _choice(LANGUAGES), Notice(N_("one of en, ko, uk, id"))),
    "kiosk.stall_limit_seconds": Rule(2.0, _number(0.5, 60), Notice(N_("a number of seconds from 0.5 to 60"))),
    "kiosk.idle_return_seconds": Rule(180, _number(10, 86_400), Notice(N_("a number of seconds from 10"))),
    "kiosk.admin_exit_hold_seconds": Rule(5, _number(1, 60), Notice(N_("a number of seconds from 1 to 60"))),
    "kiosk.admin_exit_key": Rule("F12", lambda v: v if isinstance(v, str) and v else None, Notice(N_("a key name"))),
    "kiosk.owner_pin_file": Rule(DEFAULT_OWNER_PIN_FILE, _path, Notice(N_("an absolute file path"))),
    "sound.volume": Rule(60, _whole(0, 100), Notice(N_("a whole number from 0 to 100"))),
    "computer.think_seconds": Rule(1.0, _number(0.2, 10), Notice(N_("a number of seconds from 0.2 to 10"))),
    "club.url": Rule("", _hub_url, Notice(N_('the club hub\'s address, like "http://hub.local:8022", or "" for no club'))),
    "club.token_file": Rule(DEFAULT_CLUB_TOKEN_FILE, _path, Notice(N_("an absolute file path"))),
}
"""Every scalar key of the kiosk's own tables (``[display]``, ``[match]``, ``[kiosk]``, ``[sound]``,
``[computer]``, ``[club]``)."""


def _unusable(error: BaseException) -> LoadedKioskConfig:
    """Defaults and the reason, when the parser or the checks fail in a way no key explains."""
    reason = Notice(N_("the configuration file cannot be used ({error}); using defaults"), {"error": parse_failure(error)})
    return LoadedKioskConfig(KioskConfig(), (reason,))


def parse_config_text(text: str, port_exists: Callable[[str], bool] | None = None) -> LoadedKioskConfig:
    """The configuration in ``text`` with a warning per problem; never raises (a leading BOM is skipped)."""
    text = text.removeprefix(BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        invalid = Notice(N_("the configuration file is not valid TOML ({error}); using defaults"), {"error": str(exc)})
        return LoadedKioskConfig(KioskConfig(), (invalid,))
    except Exception as exc:  # e.g. RecursionError from arrays nested hundreds deep: never a crash loop
        return _unusable(exc)
    try:
        return _checked(text, data, port_exists)
    except Exception as exc:  # a check that fails on a value nobody foresaw: defaults, not a crash
        return _unusable(exc)


def _checked(text: str, data: dict[str, Any], port_exists: Callable[[str], bool] | None) -> LoadedKioskConfig:
    """Every table of a parsed document, checked key by key."""
    warnings: list[Notice] = []
    known_sections = (*KIOSK_SECTIONS, *HARDWARE_SECTIONS)
    for section in data:
        if section not in known_sections:
            unknown = Notice(N_("unknown section (known: {known}); ignored"), {"known": ", ".join(known_sections)})
            warnings.append(keyed(f"[{section}]", unknown, _line_of(text, section)))
    tables = {}
    for section in KIOSK_SECTIONS:
        checker = _Checker(text, section, data.get(section, {}), warnings)
        checker.unknown(checker.known())
        tables[section] = {key: checker.get(key) for key in checker.known()}
    display = tables["display"]
    if display["size"] == "auto":
        display["size"] = None

    hardware_data = {name: data[name] for name in HARDWARE_SECTIONS if name in data}
    hardware_loaded = parse_hardware(hardware_data) if port_exists is None else parse_hardware(hardware_data, port_exists)
    for warning in hardware_loaded.warnings:
        section, _, name = (warning.key or "").partition(".")
        line = _line_of(text, section, *filter(None, name.split("."))) if section in HARDWARE_SECTIONS else None
        warnings.append(warning.with_line(line) if warning.key is not None else warning)
    config = KioskConfig(DisplayConfig(**display), MatchSettings(**tables["match"]), KioskSettings(**tables["kiosk"]),
                         hardware_loaded.config, SoundSettings(**tables["sound"]),
                         ComputerSettings(**tables["computer"]), ClubSettings(**tables["club"]))
    return LoadedKioskConfig(config, tuple(warnings))


def load_config(path: str | Path | None, port_exists: Callable[[str], bool] | None = None) -> LoadedKioskConfig:
    """The configuration at ``path`` (None: defaults). A missing or unreadable file is a warning."""
    if path is None:
        return LoadedKioskConfig(KioskConfig())
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        missing = Notice(N_("{path}: no such configuration file; using defaults"), {"path": str(path)})
        return LoadedKioskConfig(KioskConfig(), (missing,))
    except (OSError, UnicodeDecodeError) as exc:
        unreadable = Notice(N_("{path}: cannot read the configuration ({error}); using defaults"),
                            {"path": str(path), "error": str(exc)})
        return LoadedKioskConfig(KioskConfig(), (unreadable,))
    return parse_config_text(text, port_exists)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kiosk.config``: print the default file, or check a file."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.config", description="Kiosk configuration")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--print-default", action="store_true", help="print the default configuration file")
    group.add_argument("--check", metavar="FILE", help="report every problem in FILE")
    args = parser.parse_args(argv)
    if args.print_default:
        sys.stdout.write(DEFAULT_CONFIG_TOML)
        return 0
    loaded = load_config(args.check)
    for warning in loaded.warnings:
        print(warning)
    print("configuration is fine" if not loaded.warnings else f"{len(loaded.warnings)} problem(s)")
    return 1 if loaded.warnings else 0


if __name__ == "__main__":
    sys.exit(main())
