"""Message values: a template and its parameters; the English sentence only through ``str()``."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hardware_support import catalog_msgids, hardware_msgids

from hardware.errors import ConfigError, HardwareError, InvalidValue, PortUnavailable
from hardware.notices import KEYED, KEYED_AT_LINE, N_, Notice, keyed, placeholders
from hardware.serial_panel import PanelStatus

PIN_TAKEN = Notice("pin {pin} is already used by {other}; not wired", {"pin": 5, "other": "buttons.player0.accept"})


def test_str_fills_the_template_and_nested_notices_recursively() -> None:
    inner = Notice("no Raspberry Pi GPIO here ({reasons})", {"reasons": "lgpio: none; native: none"})
    outer = keyed("hardware.backend", Notice("{error}; GPIO buttons and LEDs are off", {"error": inner}))
    assert str(inner) == "no Raspberry Pi GPIO here (lgpio: none; native: none)"
    assert str(outer) == "hardware.backend: no Raspberry Pi GPIO here (lgpio: none; native: none); GPIO buttons and LEDs are off"
    assert str(Notice("connected")) == "connected"


def test_braces_inside_a_value_are_not_formatted_again() -> None:
    assert str(Notice("expected a key name such as 'a', got {value}; no key", {"value": "'{x}'"})) == (
        "expected a key name such as 'a', got '{x}'; no key")


def test_a_missing_parameter_is_refused_when_the_notice_is_made() -> None:
    with pytest.raises(InvalidValue, match="other, pin") as raised:
        Notice("pin {pin} is already used by {other}; not wired")
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, HardwareError)
    assert placeholders("{key} (line {line}): {message}") == {"key", "line", "message"}


def test_a_keyed_warning_carries_key_and_line_as_fields_and_params() -> None:
    warning = keyed("buttons.player1.accept", PIN_TAKEN)
    assert (warning.msgid, warning.key, warning.line) == (KEYED, "buttons.player1.accept", None)
    assert dict(warning.params) == {"key": "buttons.player1.accept", "message": PIN_TAKEN}
    assert warning.message == PIN_TAKEN
    assert str(warning) == "buttons.player1.accept: pin 5 is already used by buttons.player0.accept; not wired"

    at_line = warning.with_line(7)
    assert (at_line.msgid, at_line.key, at_line.line) == (KEYED_AT_LINE, "buttons.player1.accept", 7)
    assert dict(at_line.params) == {"key": "buttons.player1.accept", "line": 7, "message": PIN_TAKEN}
    assert at_line == keyed("buttons.player1.accept", PIN_TAKEN, 7)
    assert str(at_line) == "buttons.player1.accept (line 7): pin 5 is already used by buttons.player0.accept; not wired"
    assert warning.with_line(None) is warning


def test_only_a_keyed_warning_can_name_a_line() -> None:
    assert PIN_TAKEN.message is None
    with pytest.raises(InvalidValue):
        PIN_TAKEN.with_line(3)


def test_a_notice_is_an_immutable_value() -> None:
    given = {"pin": 5, "other": "buttons.player0.accept"}
    notice = Notice("pin {pin} is already used by {other}; not wired", given)
    given["pin"] = 6  # the caller's dict is copied
    assert notice == PIN_TAKEN and hash(notice) == hash(PIN_TAKEN)
    assert notice != Notice(notice.msgid, {**notice.params, "pin": 6})
    with pytest.raises(dataclasses.FrozenInstanceError):
        notice.msgid = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        notice.params["pin"] = 6  # type: ignore[index]
    warning = keyed("buttons.player1.accept", notice, 4)
    assert pickle.loads(pickle.dumps(warning)) == warning
    assert repr(warning) == (
        "Notice('{key} (line {line}): {message}', {'key': 'buttons.player1.accept', 'line': 4, "
        "'message': Notice('pin {pin} is already used by {other}; not wired', "
        "{'pin': 5, 'other': 'buttons.player0.accept'})}, key='buttons.player1.accept', line=4)")


def test_errors_carry_their_notices() -> None:
    gpio = Notice("no Raspberry Pi GPIO here ({reasons})", {"reasons": "x"})
    error = PortUnavailable(gpio)
    assert str(error) == "no Raspberry Pi GPIO here (x)" and error.notices == (gpio,)
    assert isinstance(error, OSError)
    warnings = (keyed("a", PIN_TAKEN), keyed("b", PIN_TAKEN))
    config_error = ConfigError("both", warnings)
    assert str(config_error) == "both" and config_error.notices == warnings
    assert ConfigError("plain text").notices == ()


def test_the_marker_returns_its_argument() -> None:
    assert N_("connected") == "connected"


def test_panel_states_have_notices() -> None:
    assert {status: status.notice for status in PanelStatus} == {
        PanelStatus.DISCONNECTED: Notice("disconnected"),
        PanelStatus.HANDSHAKING: Notice("handshaking"),
        PanelStatus.CONNECTED: Notice("connected"),
        PanelStatus.INCOMPATIBLE: Notice("incompatible"),
    }
    assert all(str(status.notice) == status.value for status in PanelStatus)


def test_every_template_in_the_hardware_code_is_in_every_translation_catalog() -> None:
    ids = hardware_msgids()
    assert len(ids) >= 30 and KEYED in ids and "no Raspberry Pi GPIO here ({reasons})" in ids
    catalogs = catalog_msgids()
    assert len(catalogs) >= 4, catalogs.keys()
    for path, known in catalogs.items():
        assert sorted(ids - known) == [], path
