"""The owner's screens through the real app (headless, taps as mouse clicks): the PIN keypad at the
admin corner, stopping a match into the journal, the settings editor writing the configuration file,
and every owner button large enough to hit."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import draw_recorded, intents_on_screen, kiosk_app, playing, spot_for, tap

from engine import NS_PER_S, EndReason
from kiosk.app import App
from kiosk.config import DEFAULT_CONFIG_TOML, KioskConfig, MatchSettings, load_config
from kiosk.owner import LoadedPin, OwnerPin, load_pin
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S
PIN = "4821"
LOADED = LoadedPin(OwnerPin.new(PIN, iterations=10_000))


def make_app(orientation: str = "table", *, pin: LoadedPin | None = LOADED, simulator: bool = True,
             config: KioskConfig | None = None, config_path: str | None = None,
             journal: Journal | None = None) -> tuple[App, FakeClock]:
    return kiosk_app(config or replace(KioskConfig(), match=MatchSettings(handover=False)), orientation=orientation,
                     simulator=simulator, owner_pin=pin, config_path=config_path, journal=journal, boot_id="boot-1")


def frame(app: App) -> None:
    app.step(wait=False)


def hold_corner(app: App, clock: FakeClock) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.stage.regions.admin_area.center, button=1, touch=False))
    frame(app)
    end = clock.now() + int(app.config.kiosk.admin_exit_hold_seconds * S)
    while clock.now() < end:  # a frame every half second, as the loop wakes (a longer gap is a stall)
        clock.t = min(end, clock.now() + S // 2)
        frame(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=app.stage.regions.admin_area.center, button=1, touch=False))
    frame(app)


def type_pin(app: App, digits: str) -> None:
    for digit in digits:
        tap(app, do.PinDigit(digit))
    tap(app, do.PinOk())


def test_hold_keypad_five_wrong_pins_lock_then_the_right_pin_after_60_s_leaves_with_10() -> None:
    app, clock = make_app()
    frame(app)
    hold_corner(app, clock)
    assert app.running and app.ui.owner.keypad == "exit"
    one = spot_for(app, do.PinDigit("1"))
    assert one is not None and one.rect.centery < 240  # facing Player 1's edge, where the owner's area is: "1" high
    for _ in range(5):
        type_pin(app, "1234")
    assert app.running and spot_for(app, do.PinDigit) is None  # locked: the digits take no taps
    texts = {fit.text for fit in draw_recorded(app, clock)}
    assert "Too many wrong PINs: try again in 60 seconds" in texts
    clock.advance(30)
    frame(app)
    assert "Too many wrong PINs: try again in 30 seconds" in {fit.text for fit in draw_recorded(app, clock)}
    clock.advance(30)
    frame(app)
    type_pin(app, PIN)
    assert not app.running and app.exit_status == 10


def test_upright_the_keypad_faces_the_screen() -> None:
    app, clock = make_app("upright")
    frame(app)
    hold_corner(app, clock)
    one = spot_for(app, do.PinDigit("1"))
    assert one is not None and one.rect.centery < 240
    type_pin(app, "5555")
    assert "Wrong PIN" in {fit.text for fit in draw_recorded(app, clock)}
    tap(app, do.PinCancel())
    assert app.ui.owner.keypad is None and spot_for(app, do.NewMatch()) is not None


def test_stopping_a_match_aborts_it_in_the_journal_and_leaves(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    app, clock = make_app(journal=journal)
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    clock.advance(2)
    hold_corner(app, clock)
    type_pin(app, PIN)
    assert app.running and spot_for(app, do.ConfirmStop()) is not None
    assert "Stop the kiosk? The match in progress ends without a result." in {
        fit.text for fit in draw_recorded(app, clock)}
    tap(app, do.ConfirmStop())
    assert not app.running and app.exit_status == 10
    outcome = playing(app).match.outcome if app.session is not None else None
    assert outcome is not None and outcome.reason is EndReason.ABORTED and not outcome.rated
    app.close()
    (record,) = journal.matches()
    assert record.finished and record.reason == "aborted" and record.detail == "stopped by the owner"
    journal.close()


def test_settings_edit_save_writes_the_file_and_the_next_match_uses_the_new_bank(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_CONFIG_TOML, encoding="utf-8")
    loaded = load_config(path).config
    app, clock = make_app(config=replace(loaded, match=replace(loaded.match, handover=False)), config_path=str(path))
    frame(app)
    tap(app, do.OpenSettings())
    tap(app, do.EditSettings())
    type_pin(app, PIN)
    assert app.ui.owner.editing is not None
    for _ in range(4):
        tap(app, do.StepSetting("match.bank_seconds", +1))
    tap(app, do.SaveSettings())
    assert "Saved. The changes apply from the next match." in {fit.text for fit in draw_recorded(app, clock)}
    assert load_config(path).config.match.bank_seconds == 180
    tap(app, do.GoHome())
    tap(app, do.NewMatch())
    assert app.session is not None and playing(app).match.bank_ns(1, clock.now()) == 180 * S
    tap(app, do.GoHome())
    before = path.read_bytes()
    tap(app, do.OpenSettings())
    tap(app, do.EditSettings())
    type_pin(app, PIN)
    tap(app, do.StepSetting("match.balances", -1))
    tap(app, do.NextChoice("display.orientation"))
    tap(app, do.CancelSettings())
    assert path.read_bytes() == before and spot_for(app, do.EditSettings()) is not None


def test_without_a_pin_file_the_kiosk_says_the_owner_pin_is_not_set(tmp_path: Path) -> None:
    app, clock = make_app(pin=load_pin(tmp_path / "owner-pin"), simulator=False)
    frame(app)
    hold_corner(app, clock)
    assert app.running and app.ui.owner.keypad == "exit"
    assert intents_on_screen(app) == [do.PinCancel()]  # no digits to type: only Cancel
    texts = " ".join(fit.text for fit in draw_recorded(app, clock))
    assert "no owner PIN is set" in texts and "sudo systemd/install.sh --pin NNNN" in texts
    app.close()
    app, clock = make_app(pin=load_pin(tmp_path / "owner-pin"), simulator=True)
    frame(app)
    hold_corner(app, clock)
    assert not app.running and app.exit_status == 10  # the simulator: as before


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_every_owner_button_is_at_least_48_px_at_800x480(orientation: str) -> None:
    app, clock = make_app(orientation)
    frame(app)
    hold_corner(app, clock)
    keypad = list(app.hotspots)
    spots = list(keypad)
    tap(app, do.PinCancel())
    tap(app, do.OpenSettings())
    spots += [s for s in app.hotspots if isinstance(s.intent, do.EditSettings)]
    tap(app, do.EditSettings())
    type_pin(app, PIN)
    editor = list(app.hotspots)
    spots += editor
    kinds = {type(s.intent) for s in spots}
    assert {do.PinDigit, do.PinCancel, do.EditSettings, do.StepSetting, do.NextChoice, do.SaveSettings,
            do.CancelSettings} <= kinds
    small = [(s.intent, s.rect.size) for s in spots if min(s.rect.size) < 48]
    assert not small
    screen = app.screen.get_rect()
    assert all(screen.contains(s.rect) for s in spots)
    for group in (keypad, editor):  # nothing overlaps on either screen
        for i, a in enumerate(group):
            assert not any(a.rect.colliderect(b.rect) for b in group[i + 1:]), a
