"""The owner's screens without a screen (no pygame): the PIN keypad at the admin exit, the lock after
five wrong PINs, stopping a match in progress, and the settings editor saving the configuration."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from kiosk_support import playing

from engine import NS_PER_S, EndReason
from kiosk.config import DEFAULT_CONFIG_TOML, KioskConfig, MatchSettings, load_config
from kiosk.i18n import translator
from kiosk.owner import LoadedPin, OwnerPin, load_pin
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.table.controller import ADMIN_EXIT_STATUS, Controller
from kiosk.table.owner_screens import STOPPED_BY_OWNER
from kiosk.table.pin_lock import LOCK_SECONDS, MAX_WRONG
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock

S = NS_PER_S
PIN = "4821"
LOADED = LoadedPin(OwnerPin.new(PIN, iterations=10_000))


def make(*, pin: LoadedPin | None = LOADED, simulator: bool = False, journal: Journal | None = None,
         config: KioskConfig | None = None, config_path: str | None = None) -> tuple[Controller, FakeClock]:
    config = config or replace(KioskConfig(), match=MatchSettings(handover=False))
    clock = FakeClock(10 * S)
    c = Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1", simulator=simulator,
                   owner_pin=pin, config_path=config_path)
    return c, clock


def hold_corner(c: Controller, clock: FakeClock) -> None:
    c.hold("mouse", clock.now())
    c.update(clock.advance(c.config.kiosk.admin_exit_hold_seconds))
    c.release("mouse")


def type_pin(c: Controller, clock: FakeClock, digits: str) -> None:
    for digit in digits:
        c.handle(do.PinDigit(digit), clock.now())
    c.handle(do.PinOk(), clock.now())


def test_the_admin_hold_asks_for_the_pin_and_five_wrong_pins_lock_the_keypad_for_60_s() -> None:
    c, clock = make()
    hold_corner(c, clock)
    o = c.ui.owner
    assert c.running and o.keypad == "exit" and o.facing == 0  # facing the owner's area's side (Player 1's edge)
    c.update(clock.advance(10))
    assert o.keypad == "exit"  # the hold opened it once; it stays open
    for n in range(1, MAX_WRONG):
        type_pin(c, clock, "1234")
        assert c.running and o.error == "Wrong PIN" and o.wrong == n and o.digits == ""
        assert translator("uk")(o.error) == "Неправильний PIN"  # said in the reader's language
    type_pin(c, clock, "0000")
    assert c.running and c.owner.locked_seconds(clock.now()) == LOCK_SECONDS == 60
    version = c.screen_key(clock.now())
    assert c.next_due_ns(clock.now()) <= clock.now() + S + 1  # the countdown is redrawn every second
    clock.advance(59)
    assert c.screen_key(clock.now()) != version
    type_pin(c, clock, PIN)  # locked: the keys take nothing, even the right PIN
    assert c.running and o.digits == "" and c.owner.locked_seconds(clock.now()) == 1
    clock.advance(1)
    assert c.owner.locked_seconds(clock.now()) == 0
    type_pin(c, clock, PIN)
    assert not c.running and c.exit_status == ADMIN_EXIT_STATUS == 10


def test_backspace_and_cancel_and_the_count_of_wrong_pins_survives_a_cancel() -> None:
    c, clock = make()
    hold_corner(c, clock)
    o = c.ui.owner
    type_pin(c, clock, "99")
    assert o.wrong == 1
    for digit in "4829":
        c.handle(do.PinDigit(digit), clock.now())
    c.handle(do.PinBackspace(), clock.now())
    assert o.digits == "482"
    c.handle(do.PinCancel(), clock.now())
    assert o.keypad is None and o.digits == "" and c.running
    hold_corner(c, clock)
    assert o.keypad == "exit" and o.wrong == 1  # cancelling does not reset the count
    for _ in range(12):
        c.handle(do.PinDigit("7"), clock.now())
    assert o.digits == "7" * 8  # a PIN has at most 8 digits


def test_a_match_in_progress_is_stopped_only_after_a_confirmation_and_the_journal_keeps_why(
        journal: Journal) -> None:
    c, clock = make(journal=journal)
    c.new_match()
    hold_corner(c, clock)
    type_pin(c, clock, PIN)  # not started yet: no match in progress, the kiosk leaves at once
    assert not c.running and not c.ui.owner.confirm_stop
    c, clock = make(journal=journal)
    c.new_match()
    c.handle(do.Start(0), clock.advance(1))
    c.update(clock.now())
    hold_corner(c, clock)
    type_pin(c, clock, PIN)
    assert c.running and c.ui.owner.confirm_stop and c.ui.owner.keypad is None
    c.handle(do.CancelStop(), clock.now())
    assert c.running and not c.ui.owner.confirm_stop
    s = playing(c)
    assert s is not None and not s.match.is_over
    hold_corner(c, clock)
    type_pin(c, clock, PIN)
    c.handle(do.ConfirmStop(), clock.advance(1))
    assert not c.running and c.exit_status == ADMIN_EXIT_STATUS
    outcome = s.match.outcome
    assert outcome is not None and outcome.reason is EndReason.ABORTED and not outcome.rated
    assert outcome.winner is None and outcome.detail == "stopped by the owner"
    assert outcome.detail_template == STOPPED_BY_OWNER
    (record,) = journal.matches()  # committed before leaving
    assert record.finished and record.reason == "aborted" and record.detail == "stopped by the owner"
    assert record.rated is False


def test_without_a_pin_file_the_simulator_exits_as_before_and_the_kiosk_says_how_to_set_a_pin(
        tmp_path: Path) -> None:
    missing = load_pin(tmp_path / "owner-pin")
    c, clock = make(pin=missing, simulator=True)
    hold_corner(c, clock)
    assert not c.running and c.exit_status == ADMIN_EXIT_STATUS and c.ui.owner.keypad is None
    c, clock = make(pin=missing)
    hold_corner(c, clock)
    assert c.running and c.ui.owner.keypad == "exit"
    assert c.owner.pin.warning is not None and "sudo systemd/install.sh --pin NNNN" in c.owner.pin.warning
    type_pin(c, clock, PIN)  # nothing to check against: nothing happens
    assert c.running and c.ui.owner.keypad == "exit"
    c, clock = make(pin=None)  # none given at all: locked the same way, the default PIN file named
    hold_corner(c, clock)
    assert c.running and c.owner.pin.warning is not None and "/etc/spectacular-bid/owner-pin" in c.owner.pin.warning


def test_buttons_wait_while_the_keypad_is_open_and_the_idle_return_closes_it() -> None:
    from hardware.events import Button, InputEvent

    c, clock = make()
    hold_corner(c, clock)
    c.press(InputEvent(0, Button.ACCEPT, clock.now(), "test"))
    assert c.session is None  # home: ACCEPT would start a match, but the owner has the screen
    c.update(clock.advance(c.config.kiosk.idle_return_seconds + 1))
    assert c.ui.owner.keypad is None and c.running


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_CONFIG_TOML, encoding="utf-8")
    return path


def open_editor(c: Controller, clock: FakeClock) -> None:
    c.handle(do.OpenSettings(), clock.now())
    c.handle(do.EditSettings(), clock.now())
    assert c.ui.owner.keypad == "settings" and c.ui.owner.facing is None  # upright, like the settings
    type_pin(c, clock, PIN)
    assert c.ui.owner.keypad is None and c.ui.owner.editing is not None


def test_the_settings_editor_saves_the_file_and_the_next_match_uses_the_new_bank(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    c, clock = make(config=load_config(path).config, config_path=str(path))
    assert c.config.match.bank_seconds == 120
    c.handle(do.OpenSettings(), clock.now())
    c.handle(do.EditSettings(), clock.now())
    type_pin(c, clock, "1111")
    assert c.ui.owner.editing is None and c.ui.owner.error == "Wrong PIN"  # the same keypad, the same count
    c.handle(do.PinCancel(), clock.now())
    open_editor(c, clock)
    values = c.ui.owner.editing
    assert values is not None and values["match.bank_seconds"] == 120 and values["kiosk.language"] == "en"
    c.handle(do.StepSetting("match.bank_seconds", +2), clock.now())  # 15 s a step
    c.handle(do.StepSetting("match.delay_seconds", -3), clock.now())
    c.handle(do.StepSetting("sound.volume", +10), clock.now())  # stops at 100
    c.handle(do.NextChoice("match.handover"), clock.now())
    c.handle(do.NextChoice("kiosk.language"), clock.now())
    assert values["match.bank_seconds"] == 150 and values["sound.volume"] == 100 and values["kiosk.language"] == "ko"
    c.handle(do.SaveSettings(), clock.now())
    o = c.ui.owner
    assert o.editing is None and o.notice_ok and "next start of the kiosk" in o.notice  # a language change waits
    saved = load_config(path)
    assert not saved.warnings
    m = saved.config.match
    assert (m.bank_seconds, m.delay_seconds, m.handover, saved.config.sound.volume) == (150, 7, False, 100)
    assert saved.config.kiosk.language == "ko"
    assert "# each player's bank for the whole match" in path.read_text("utf-8")  # comments kept
    assert "Clock: 150 s bank, 7 s delay" in c.ui.status_line
    c.new_match()
    assert c.session is not None and playing(c).match.bank_ns(0, clock.now()) == 150 * S
    assert c.ui.language == "en"  # the language applies at the next start


def test_cancel_changes_nothing_and_an_unchanged_save_writes_nothing(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    before = path.read_bytes()
    c, clock = make(config=load_config(path).config, config_path=str(path))
    open_editor(c, clock)
    c.handle(do.StepSetting("match.balances", +5), clock.now())
    c.handle(do.CancelSettings(), clock.now())
    assert c.ui.owner.editing is None and path.read_bytes() == before and c.config.match.balances == 150
    open_editor(c, clock)
    assert c.ui.owner.editing is not None and c.ui.owner.editing["match.balances"] == 150  # the edit was dropped
    c.handle(do.SaveSettings(), clock.now())
    assert path.read_bytes() == before and c.ui.owner.notice == "Nothing was changed."


def test_save_without_a_configuration_file_or_to_a_folder_that_is_not_there_says_why(tmp_path: Path) -> None:
    c, clock = make()
    open_editor(c, clock)
    c.handle(do.StepSetting("match.bank_seconds", -1), clock.now())
    c.handle(do.SaveSettings(), clock.now())
    o = c.ui.owner
    assert o.editing is not None and not o.notice_ok and "--config" in o.notice  # the editor stays open
    assert c.config.match.bank_seconds == 120
    c, clock = make(config_path=str(tmp_path / "missing" / "config.toml"))
    open_editor(c, clock)
    c.handle(do.StepSetting("match.bank_seconds", -1), clock.now())
    c.handle(do.SaveSettings(), clock.now())
    o = c.ui.owner
    assert o.editing is not None and not o.notice_ok and "could not be saved" in o.notice
    assert translator("ko")(o.notice) != o.notice
    c.handle(do.GoHome(), clock.now())
    assert c.ui.screen == Screen.HOME and o.editing is None and o.notice == ""
