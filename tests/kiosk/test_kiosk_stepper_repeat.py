"""The settings editor's steppers repeat while held (issue 20, point 17: 60 s to 10 s took 50 taps)."""

from __future__ import annotations

import pygame
from kiosk_support import kiosk_app, spot_for, tap

from engine import NS_PER_S
from kiosk.app import App
from kiosk.owner import LoadedPin, OwnerPin
from kiosk.table import intents as do
from kiosk.table.repeat import REPEAT_AFTER_NS, REPEAT_EVERY_NS, StepperRepeat
from kiosk.timesource import FakeClock

S = NS_PER_S
PIN = "4821"


def open_editor() -> tuple[App, FakeClock]:
    clock = FakeClock(10 * S)
    app, _ = kiosk_app(match={"handover": False, "delay_seconds": 60}, clock=clock, simulator=True,
                       owner_pin=LoadedPin(OwnerPin.new(PIN, iterations=10_000)), boot_id="boot-1")
    app.step(wait=False)
    tap(app, do.OpenSettings())
    tap(app, do.EditSettings())
    for digit in PIN:
        tap(app, do.PinDigit(digit))
    tap(app, do.PinOk())
    assert app.ui.owner.editing is not None
    return app, clock


def delay_shown(app: App) -> object:
    """The delay the open settings editor shows."""
    editing = app.ui.owner.editing
    assert editing is not None, "the settings editor is not open"
    return editing["match.delay_seconds"]


def test_the_repeat_schedule() -> None:
    r = StepperRepeat()
    r.press("mouse", do.StepSetting("k", -1), 0)
    assert r.due(REPEAT_AFTER_NS - 1) == [] and r.next_due_ns() == REPEAT_AFTER_NS
    assert r.due(REPEAT_AFTER_NS + REPEAT_EVERY_NS) == [do.StepSetting("k", -1)] * 2
    r.release("mouse")
    assert r.due(10 * S) == [] and r.next_due_ns() is None


def test_holding_minus_takes_the_delay_from_60_to_10_seconds_in_a_few_seconds() -> None:
    app, clock = open_editor()
    spot = spot_for(app, do.StepSetting("match.delay_seconds", -1))
    assert spot is not None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
    app.step(wait=False)
    assert delay_shown(app) == 59  # the press steps at once
    end = clock.now() + 4 * S
    while clock.now() < end:  # the loop wakes when the next repeat is due
        clock.t = min(end, app.controller.next_due_ns(clock.now()))
        app.step(wait=False)
    held = delay_shown(app)
    assert isinstance(held, int | float) and held <= 10  # 1 + 8 a second, then 20 a second
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1, touch=False))
    app.step(wait=False)
    clock.advance(3)
    app.step(wait=False)
    assert delay_shown(app) == held  # lifted: no more steps


def test_a_tap_steps_once_and_closing_the_editor_stops_a_held_stepper() -> None:
    app, clock = open_editor()
    tap(app, do.StepSetting("match.delay_seconds", -1))
    clock.advance(2)
    app.step(wait=False)
    assert delay_shown(app) == 59
    spot = spot_for(app, do.StepSetting("match.delay_seconds", +1))
    assert spot is not None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
    app.step(wait=False)
    app.controller.handle(do.CancelSettings(), clock.now())  # the editor closes under the finger
    clock.advance(3)
    app.step(wait=False)
    assert app.ui.owner.editing is None and app.controller.steppers.next_due_ns() is None
