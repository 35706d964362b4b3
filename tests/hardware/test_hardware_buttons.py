"""GPIO buttons on gpiozero's MockFactory: presses, holds, chatter, two players."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hardware_support import MS
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import GpioButtons
from hardware.debounce import Debouncer
from hardware.errors import InvalidValue
from hardware.events import Button, EventQueue
from hardware.layout import DEFAULT_BUTTON_PINS, PinBinding, default_bindings
from kiosk.timesource import FakeClock


@pytest.fixture
def queue(clock: FakeClock) -> EventQueue:
    return EventQueue(clock)


@pytest.fixture
def buttons(queue: EventQueue, factory: MockFactory) -> Iterator[GpioButtons]:
    buttons = GpioButtons(default_bindings(DEFAULT_BUTTON_PINS), queue, factory, debounce_ms=30)
    yield buttons
    buttons.close()


def pin(factory: MockFactory, player: int, button: Button) -> MockPin:
    return factory.pin(DEFAULT_BUTTON_PINS[player][button])


def test_a_press_is_one_event_with_arrival_stamp(
    buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock
) -> None:
    clock.advance(ns=3 * MS)
    pin(factory, 0, Button.ACCEPT).drive_low()
    (event,) = queue.drain()
    assert (event.player, event.button, event.source) == (0, Button.ACCEPT, "gpio")
    assert event.arrival_ns == clock()


def test_release_gives_no_event(buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock) -> None:
    raise_pin = pin(factory, 1, Button.RAISE)
    raise_pin.drive_low()
    clock.advance(ns=100 * MS)
    raise_pin.drive_high()
    assert [e.button for e in queue.drain()] == [Button.RAISE]


def test_held_button_is_one_press(buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock) -> None:
    decline = pin(factory, 0, Button.DECLINE)
    decline.drive_low()
    for _ in range(50):
        clock.advance(ns=100 * MS)
        decline.drive_low()  # still low: no edge
    assert len(queue.drain()) == 1
    assert buttons.device(0, Button.DECLINE).is_pressed


def test_chatter_inside_window_is_one_press(
    buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock
) -> None:
    accept = pin(factory, 0, Button.ACCEPT)
    for _ in range(10):  # 20 edges, 2 ms apart: a bouncing contact
        accept.drive_low()
        clock.advance(ns=2 * MS)
        accept.drive_high()
        clock.advance(ns=2 * MS)
    accept.drive_low()
    assert len(queue.drain()) == 1
    assert buttons.debouncer.ignored == 10


def test_release_bounce_is_not_a_press(
    buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock
) -> None:
    accept = pin(factory, 1, Button.ACCEPT)
    accept.drive_low()
    clock.advance(ns=200 * MS)
    for _ in range(3):
        accept.drive_high()
        clock.advance(ns=1 * MS)
        accept.drive_low()
        clock.advance(ns=1 * MS)
    accept.drive_high()
    assert len(queue.drain()) == 1


def test_presses_outside_window_all_count(
    buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock
) -> None:
    raise_pin = pin(factory, 0, Button.RAISE)
    for _ in range(5):
        raise_pin.drive_low()
        clock.advance(ns=40 * MS)
        raise_pin.drive_high()
        clock.advance(ns=40 * MS)
    assert len(queue.drain()) == 5


def test_both_players_at_once_give_two_events(
    buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock
) -> None:
    pin(factory, 0, Button.ACCEPT).drive_low()
    pin(factory, 1, Button.ACCEPT).drive_low()
    events = queue.drain()
    assert sorted((e.player, e.button) for e in events) == [(0, Button.ACCEPT), (1, Button.ACCEPT)]
    assert events[0].arrival_ns == events[1].arrival_ns == clock()


def test_debounce_is_per_button(buttons: GpioButtons, factory: MockFactory, queue: EventQueue, clock: FakeClock) -> None:
    pin(factory, 0, Button.ACCEPT).drive_low()
    clock.advance(ns=1 * MS)
    pin(factory, 0, Button.RAISE).drive_low()
    assert [e.button for e in queue.drain()] == [Button.ACCEPT, Button.RAISE]


def test_kiosk_buttons_have_no_player(queue: EventQueue, factory: MockFactory) -> None:
    bindings = [PinBinding(None, Button.HELP, 4)]
    buttons = GpioButtons(bindings, queue, factory)
    try:
        factory.pin(4).drive_low()
        (event,) = queue.drain()
        assert (event.player, event.button) == (None, Button.HELP)
        assert buttons.pin_of(None, Button.HELP) == 4
        assert buttons.pin_of(0, Button.ACCEPT) is None
    finally:
        buttons.close()


def test_close_releases_the_pins(queue: EventQueue, factory: MockFactory) -> None:
    bindings = default_bindings(DEFAULT_BUTTON_PINS)
    GpioButtons(bindings, queue, factory).close()
    again = GpioButtons(bindings, queue, factory)  # would raise GPIOPinInUse if not released
    again.close()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=100 * MS), min_size=1, max_size=40))
def test_debouncer_never_emits_two_presses_closer_than_window(gaps: list[int]) -> None:
    window = 30 * MS
    debouncer = Debouncer(window)
    now, pressed, presses = 0, False, []
    for gap in gaps:
        now += gap
        pressed = not pressed
        if debouncer.edge("k", pressed, now):
            presses.append(now)
    assert all(b - a >= window for a, b in itertools.pairwise(presses))
    assert presses[0] == gaps[0]  # the first press edge is always taken


def test_debouncer_rejects_negative_window() -> None:
    with pytest.raises(InvalidValue, match="must not be negative"):
        Debouncer(-1)
