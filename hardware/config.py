"""The hardware part of the kiosk's TOML configuration.

Reads the ``[hardware]``, ``[buttons]``, ``[leds]``, ``[serial]`` and
``[keyboard]`` tables (other tables belong to the rest of the kiosk and are
left alone). A wrong value never stops the kiosk: it yields a warning (a
:class:`~hardware.notices.Notice` naming the key) and that part falls back to
its default or is left unwired, so the inputs that work still start.
"""

from __future__ import annotations

import importlib.util
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .events import GAME_BUTTONS, KIOSK_BUTTONS, PLAYERS, Button
from .layout import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_LED_PINS,
    VALID_PINS,
    PinBinding,
    default_bindings,
)
from .notices import N_, Notice, keyed

BACKENDS = ("auto", "gpio", "mock")
"""``gpio``: the Pi's real pins; ``mock``: gpiozero MockFactory (simulator, tests);
``auto``: ``gpio`` when it loads, ``mock`` otherwise."""

TRUE_OR_FALSE = Notice(N_("true or false"))
"""What a switch should be (a phrase of its own, translated separately)."""

DEFAULT_KEYS: dict[int, dict[Button, str]] = {
    0: {Button.ACCEPT: "a", Button.RAISE: "s", Button.DECLINE: "d"},
    1: {Button.ACCEPT: "j", Button.RAISE: "k", Button.DECLINE: "l"},
}
"""Simulator keys (key names as pygame spells them) per player."""


@dataclass(frozen=True, slots=True)
class SerialConfig:
    """Where the serial panel is and how to talk to it."""

    enabled: bool = False
    url: str | None = None
    baudrate: int = 115200
    checksum: bool = False
    reconnect_max_s: float = 5.0


@dataclass(frozen=True, slots=True)
class HardwareConfig:
    """Every hardware setting, already validated."""

    backend: str = "auto"
    buttons: tuple[PinBinding, ...] = default_bindings(DEFAULT_BUTTON_PINS)
    debounce_ms: float = 30
    leds: tuple[PinBinding, ...] = default_bindings(DEFAULT_LED_PINS)
    blink_ms: float = 250
    serial: SerialConfig = SerialConfig()
    keys: tuple[tuple[str, int, Button], ...] = tuple(
        (key, player, button) for player, table in DEFAULT_KEYS.items() for button, key in table.items()
    )


@dataclass(frozen=True, slots=True)
class LoadedConfig:
    """A configuration plus one warning per wrong value (``str()`` of each is the English sentence)."""

    config: HardwareConfig
    warnings: tuple[Notice, ...] = field(default=())


_SECTIONS = ("hardware", "buttons", "leds", "serial", "keyboard")
BOM = "\ufeff"
"""A UTF-8 byte-order mark, which some Windows editors put at the start of a file: skipped."""
_PLAYER_TABLES = {f"player{p}": p for p in PLAYERS}
_BUTTON_KEYS = {b.name.lower(): b for b in GAME_BUTTONS}
_KIOSK_KEYS = {b.name.lower(): b for b in KIOSK_BUTTONS}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Reader:
    """Collects warnings while reading one configuration mapping."""

    def __init__(self, data: Mapping[str, Any], port_exists: Callable[[str], bool]) -> None:
        self.data = data
        self.port_exists = port_exists
        self.warnings: list[Notice] = []
        self.used_pins: dict[int, str] = {}

    def warn(self, where: str, msgid: str, /, **params: object) -> None:
        """Record one warning about the key ``where``: the message ``msgid`` with ``params``."""
        self.warnings.append(keyed(where, Notice(msgid, params)))

    def table(self, name: str, allowed: set[str]) -> dict[str, Any]:
        """A top-level table's known keys (unknown ones reported); {} if missing or not a table."""
        value = self.data.get(name, {})
        if not isinstance(value, Mapping):
            self.warn(name, N_("must be a table, not {type}; using defaults"), type=type(value).__name__)
            return {}
        for key in value:
            if key not in allowed:
                self.warn(f"{name}.{key}", N_("unknown key (known: {known})"), known=", ".join(sorted(allowed)))
        return {k: v for k, v in value.items() if k in allowed}

    def scalar(self, table: dict[str, Any], section: str, key: str, default: Any,
               check: Callable[[Any], bool], expect: Notice) -> Any:
        """One setting, or ``default`` (with a warning) when it fails ``check``; ``expect`` says what it should be."""
        if key not in table:
            return default
        value = table[key]
        if check(value):
            return value
        self.warn(f"{section}.{key}", N_("expected {expected}, got {value}; using {default}"),
                  expected=expect, value=repr(value), default=repr(default))
        return default

    def group(self, table: dict[str, Any], section: str, group: str, names: Mapping[str, Button]) -> Mapping[str, Any]:
        """One inline table of per-button values (e.g. ``buttons.player0``), unknown keys reported."""
        given = table.get(group, {})
        if not isinstance(given, Mapping):
            self.warn(f"{section}.{group}", N_("must be a table, not {type}; using defaults"), type=type(given).__name__)
            return {}
        for key in given:
            if key not in names:
                self.warn(f"{section}.{group}.{key}", N_("unknown button (known: {known})"), known=", ".join(names))
        return given

    def pins(self, section: str, table: dict[str, Any]) -> tuple[PinBinding, ...]:
        """The button or LED bindings of ``section``: defaults overlaid with the given pins."""
        defaults = DEFAULT_BUTTON_PINS if section == "buttons" else DEFAULT_LED_PINS
        out: list[PinBinding] = []
        groups: list[tuple[str, int | None, dict[str, Button], dict[Button, int]]] = [
            (name, player, _BUTTON_KEYS, defaults[player]) for name, player in _PLAYER_TABLES.items()
        ]
        if section == "buttons":
            groups.append(("kiosk", None, _KIOSK_KEYS, {}))
        for group, player, names, group_defaults in groups:
            given = self.group(table, section, group, names)
            for name, button in names.items():
                where = f"{section}.{group}.{name}"
                value = given.get(name, group_defaults.get(button, False))
                if value is False:
                    continue
                if not _is_int(value) or value not in VALID_PINS:
                    self.warn(where, N_("expected a BCM pin number {low}-{high} or false, got {value}; not wired"),
                              low=VALID_PINS.start, high=VALID_PINS.stop - 1, value=repr(value))
                    continue
                if value in self.used_pins:
                    self.warn(where, N_("pin {pin} is already used by {other}; not wired"),
                              pin=value, other=self.used_pins[value])
                    continue
                self.used_pins[value] = where
                out.append(PinBinding(player, button, value))
        return tuple(out)

    def serial(self) -> SerialConfig:
        """The ``[serial]`` table."""
        table = self.table("serial", {"enabled", "url", "baudrate", "checksum", "reconnect_max_s"})
        base = SerialConfig()
        enabled = self.scalar(table, "serial", "enabled", base.enabled, lambda v: isinstance(v, bool), TRUE_OR_FALSE)
        url = self.scalar(table, "serial", "url", None, lambda v: isinstance(v, str) and v != "",
                          Notice(N_("a device path or pyserial URL")))
        baud = self.scalar(table, "serial", "baudrate", base.baudrate, lambda v: _is_int(v) and v > 0,
                           Notice(N_("a positive integer")))
        checksum = self.scalar(table, "serial", "checksum", base.checksum, lambda v: isinstance(v, bool), TRUE_OR_FALSE)
        retry = self.scalar(table, "serial", "reconnect_max_s", base.reconnect_max_s,
                            lambda v: _is_number(v) and 0 < v <= 600, Notice(N_("seconds between 0 and 600")))
        if enabled and url is None:
            self.warn("serial.url", N_("missing, so the serial panel is off"))
            enabled = False
        if url is not None:
            # a URL that is not for a panel is refused even while the panel is off; whether a
            # device exists only matters when it is on
            problem = port_problem(url, self.port_exists if enabled else lambda path: True)
            if problem is not None:
                fatal, message = problem
                self.warnings.append(keyed("serial.url", message))
                if fatal:
                    enabled, url = False, None
        return SerialConfig(enabled, url, baud, checksum, float(retry))

    def keyboard(self, buttons: tuple[PinBinding, ...]) -> tuple[tuple[str, int, Button], ...]:
        """The simulator keys, each bound to a wired button."""
        table = self.table("keyboard", set(_PLAYER_TABLES))
        wired = {b.key for b in buttons}
        seen: dict[str, str] = {}
        out: list[tuple[str, int, Button]] = []
        for group, player in _PLAYER_TABLES.items():
            given = self.group(table, "keyboard", group, _BUTTON_KEYS)
            for name, button in _BUTTON_KEYS.items():
                where = f"keyboard.{group}.{name}"
                value = given.get(name, DEFAULT_KEYS[player][button])
                if value is False:
                    continue
                if not isinstance(value, str) or not value.strip():
                    self.warn(where, N_("expected a key name such as 'a', got {value}; no key"), value=repr(value))
                    continue
                value = value.strip().lower()
                if value in seen:
                    self.warn(where, N_("key {key} is already used by {other}; no key"), key=repr(value), other=seen[value])
                    continue
                if (player, button) not in wired:
                    if name in given:
                        self.warn(where, N_("its button has no pin, so the key has nothing to press"))
                    continue
                seen[value] = where
                out.append((value, player, button))
        return tuple(out)


PANEL_URL_SCHEMES = ("socket", "rfc2217", "loop")
"""The pyserial URL schemes a serial panel may use: a TCP bridge (``socket://host:port``), a
telnet/RFC 2217 port server (``rfc2217://host:port``) and ``loop://`` (an echo port for tests).
The other handlers are refused: ``spy://`` copies every byte to a log, ``hwgrep://`` opens
whichever port happens to match, ``alt://`` swaps the port implementation and ``cp2110://`` needs
a HID library; a panel is named by its device path instead."""


def port_problem(url: str, port_exists: Callable[[str], bool] = os.path.exists) -> tuple[bool, Notice] | None:
    """What is wrong with a serial URL, as (fatal, what to say), or None if it looks usable.

    Usable: an absolute device path (``/dev/serial-panel``, ``/dev/serial/by-id/...``, a pty's
    link) or a URL whose scheme is one of ``PANEL_URL_SCHEMES``. A device path that does not exist
    yet is not fatal (the panel may be plugged in later); a relative path, a pyserial URL that is
    not for a panel and a scheme pyserial does not know are.
    """
    if "://" in url:
        scheme = url.split("://", 1)[0]
        if scheme in PANEL_URL_SCHEMES:
            return None
        if scheme.isidentifier() and importlib.util.find_spec(f"serial.urlhandler.protocol_{scheme}") is not None:
            return True, Notice(N_("{scheme} URLs are not for a serial panel (use a device path such as "
                                   "/dev/serial-panel, or {schemes}), so the serial panel is off"),
                                {"scheme": repr(f"{scheme}://"),
                                 "schemes": ", ".join(f"{name}://" for name in PANEL_URL_SCHEMES)})
        return True, Notice(N_("pyserial has no {scheme} URL handler, so the serial panel is off"), {"scheme": repr(scheme)})
    if not os.path.isabs(url):
        return True, Notice(N_("{port} is not an absolute device path (such as /dev/serial-panel), "
                               "so the serial panel is off"), {"port": repr(url)})
    if not port_exists(url):
        return False, Notice(N_("port {port} does not exist (yet); the panel will keep trying to open it"), {"port": repr(url)})
    return None


def parse_config(data: Mapping[str, Any], port_exists: Callable[[str], bool] = os.path.exists) -> LoadedConfig:
    """Validate the hardware tables of an already parsed TOML document."""
    reader = _Reader(data, port_exists)
    base = HardwareConfig()
    hardware = reader.table("hardware", {"backend"})
    backend = reader.scalar(hardware, "hardware", "backend", base.backend,
                            lambda v: v in BACKENDS, Notice(N_("one of auto, gpio, mock")))
    buttons_table = reader.table("buttons", {"debounce_ms", "kiosk", *_PLAYER_TABLES})
    debounce = reader.scalar(buttons_table, "buttons", "debounce_ms", base.debounce_ms,
                             lambda v: _is_number(v) and 0 <= v <= 1000,
                             Notice(N_("milliseconds between 0 and 1000")))
    buttons = reader.pins("buttons", buttons_table)
    leds_table = reader.table("leds", {"enabled", "blink_ms", *_PLAYER_TABLES})
    leds_on = reader.scalar(leds_table, "leds", "enabled", True, lambda v: isinstance(v, bool), TRUE_OR_FALSE)
    blink = reader.scalar(leds_table, "leds", "blink_ms", base.blink_ms,
                          lambda v: _is_number(v) and 10 <= v <= 10_000, Notice(N_("milliseconds between 10 and 10000")))
    leds = reader.pins("leds", leds_table) if leds_on else ()
    serial = reader.serial()
    keys = reader.keyboard(buttons)
    config = HardwareConfig(backend, buttons, float(debounce), leds, float(blink), serial, keys)
    return LoadedConfig(config, tuple(reader.warnings))


def parse_text(text: str, port_exists: Callable[[str], bool] = os.path.exists) -> LoadedConfig:
    """Validate a TOML document given as text; a syntax error (or any failure of the parser, such as
    arrays nested too deeply) gives defaults and a warning. A leading byte-order mark is skipped."""
    try:
        data = tomllib.loads(text.removeprefix(BOM))
    except tomllib.TOMLDecodeError as error:
        problem = Notice(N_("not valid TOML ({error}); using hardware defaults"), {"error": str(error)})
        return LoadedConfig(HardwareConfig(), (keyed("config", problem),))
    except Exception as error:  # e.g. RecursionError from arrays nested too deeply: never a crash
        problem = Notice(N_("cannot parse the file ({error}); using hardware defaults"), {"error": parse_failure(error)})
        return LoadedConfig(HardwareConfig(), (keyed("config", problem),))
    return parse_config(data, port_exists)


def parse_failure(error: BaseException) -> str:
    """What went wrong while parsing, for a warning: the exception's type and text."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_config(path: str | os.PathLike[str]) -> LoadedConfig:
    """Read and validate a kiosk config file; a missing or unreadable file gives defaults and a warning."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        problem = Notice(N_("cannot read {path} ({error}); using hardware defaults"),
                         {"path": repr(os.fspath(path)), "error": str(error)})
        return LoadedConfig(HardwareConfig(), (keyed("config", problem),))
    return parse_text(text)


def require_valid(loaded: LoadedConfig) -> HardwareConfig:
    """The config, or ConfigError listing every warning (for tools that want strictness)."""
    if loaded.warnings:
        raise ConfigError("; ".join(map(str, loaded.warnings)), loaded.warnings)
    return loaded.config
