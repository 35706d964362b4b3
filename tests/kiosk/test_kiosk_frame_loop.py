"""The real frame loop's wait: it sleeps until the next thing the screen must show, and a button press
wakes it at once (the hardware waker thread; real time, mock pins, SDL's dummy display)."""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from kiosk_support import playing

from hardware.events import Button
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table.controller import MAX_SLEEP_NS
from kiosk.timesource import MonotonicClock


def test_the_loop_sleeps_until_the_next_due_time_and_a_button_press_wakes_it_at_once() -> None:
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    app = App(config, clock=MonotonicClock(), size=(800, 480), hardware_backend="mock", rng=random.Random(1))
    app.step(wait=False)
    assert app.session is None and app._wait_ms(app.clock.now()) >= MAX_SLEEP_NS // 1_000_000 - 5  # home: a second
    started = time.monotonic()
    app.step()  # nothing happens: it sleeps the whole wait, in slices of one frame
    slept = time.monotonic() - started
    assert slept >= 0.9 * MAX_SLEEP_NS / 1e9 and app.session is None

    assert app.ports.pin_factory is not None
    pins = {(b.player, b.button): b.pin for b in app.config.hardware.buttons}
    accept = app.ports.pin_factory.pin(pins[(0, Button.ACCEPT)])
    presser = threading.Timer(0.15, accept.drive_low)
    started = time.monotonic()
    presser.start()
    app.step()  # woken by the press, which it takes in: a new match at the ready screen
    woke = time.monotonic() - started
    presser.join()
    assert app.session is not None and playing(app).screen == "ready"
    assert 0.15 <= woke < 0.6 * MAX_SLEEP_NS / 1e9, woke
