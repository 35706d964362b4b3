"""A configuration with thousands of problems (issue 26, finding 9): checked in one pass over the
file, the banner and the settings screen translate and list only a few, and the kiosk starts."""

from __future__ import annotations

from unittest import mock

import pygame
from kiosk_support import kiosk_app

import kiosk.config as config_module
from kiosk.config import parse_config_text
from kiosk.i18n import Translator
from kiosk.table.texts import MOST_WARNINGS_LISTED, status_text
from kiosk.timesource import FakeClock
from kiosk.ui.scenes.banner import banner_text, warning_count, warning_lines

MANY = 3000


def _many_unknown_keys(n: int = MANY) -> str:
    return "[display]\n" + "".join(f"unknown{i} = {i}\n" for i in range(n))


def test_the_file_is_indexed_once_however_many_problems_it_has() -> None:
    text = _many_unknown_keys()
    config_module._line_index.cache_clear()
    with mock.patch.object(config_module, "_line_index", wraps=config_module._line_index) as index:
        loaded = parse_config_text(text)
    assert len(loaded.warnings) == MANY
    assert loaded.warnings[-1].line == MANY + 1  # still the right line for the last one
    lines_scanned = {call.args[0] for call in index.call_args_list}
    assert lines_scanned == {text}  # one text, cached: one pass
    assert config_module._line_index.cache_info().misses == 1


def test_the_banner_translates_one_warning_and_counts_the_rest() -> None:
    clock = FakeClock()
    app, _ = kiosk_app(clock=clock, seed=1, warnings=parse_config_text(_many_unknown_keys()).warnings, boot_id="b")
    calls = 0
    original = Translator.__call__

    def counting(self: Translator, value: object) -> str:
        nonlocal calls
        calls += 1
        return original(self, value)  # type: ignore[arg-type]

    with mock.patch.object(Translator, "__call__", counting):
        lines = warning_lines(app.stage.context)
        app.draw(clock.now(), full=True)
    assert len(lines) == 1 and calls < 20  # not one per warning
    assert warning_count(app.stage.context) == MANY
    assert banner_text(app.stage.context, lines).endswith(f"(+{MANY - 1} more: see Settings)")
    assert pygame.display.get_surface() is not None


def test_the_settings_list_shows_the_first_warnings_and_says_how_many_more() -> None:
    clock = FakeClock()
    warnings = parse_config_text(_many_unknown_keys()).warnings
    app, _ = kiosk_app(clock=clock, seed=1, warnings=warnings, boot_id="b")
    text = status_text(app.controller.config, "en", app.controller.surroundings, warnings)
    lines = text.split("\n")
    assert sum(line.startswith("Warning: ") for line in lines) == MOST_WARNINGS_LISTED
    assert lines[-1] == (f"… and {MANY - MOST_WARNINGS_LISTED} more warnings: python -m kiosk.config --check "
                         "lists every one")
    assert "Sound volume: 60" in lines  # issue 20: the read-only list names the volume too


def test_the_real_kiosk_reaches_its_first_frame_with_thousands_of_warnings() -> None:
    from kiosk.devtools.start_bench import first_frame_seconds

    assert first_frame_seconds(MANY, timeout_s=120) > 0  # READY=1 came (a figure, not a timed test)
