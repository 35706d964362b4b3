"""Button LEDs follow the panel state; low bank blinks from injected time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hardware_support import MS

from hardware.errors import HardwareError, InvalidValue
from hardware.events import GAME_BUTTONS, Button
from hardware.layout import DEFAULT_LED_PINS, default_bindings
from hardware.leds import GpioLeds, lit
from hardware.state import PanelState, Phase, PlayerPanel

A, R, D = Button.ACCEPT, Button.RAISE, Button.DECLINE


@pytest.fixture
def leds(factory: MockFactory) -> Iterator[GpioLeds]:
    leds = GpioLeds(default_bindings(DEFAULT_LED_PINS), factory, blink_ms=250)
    yield leds
    leds.close()


def pin_states(factory: MockFactory) -> dict[tuple[int, Button], bool]:
    return {
        (player, button): bool(factory.pin(DEFAULT_LED_PINS[player][button]).state)
        for player in (0, 1)
        for button in GAME_BUTTONS
    }


def auction(p0: frozenset[Button], p1: frozenset[Button], low0: bool = False) -> PanelState:
    return PanelState(
        (PlayerPanel(p0, low0, 60_000, 100), PlayerPanel(p1, False, 60_000, 100)),
        turn=0,
        phase=Phase.AUCTION,
    )


def test_all_off_at_start(factory: MockFactory, leds: GpioLeds) -> None:
    assert not any(pin_states(factory).values())


def test_leds_follow_active_buttons(factory: MockFactory, leds: GpioLeds) -> None:
    leds.show(auction(frozenset({A, R, D}), frozenset()), now_ns=0)
    states = pin_states(factory)
    assert [states[(0, b)] for b in GAME_BUTTONS] == [True, True, True]
    assert [states[(1, b)] for b in GAME_BUTTONS] == [False, False, False]

    leds.show(auction(frozenset(), frozenset({A})), now_ns=0)
    states = pin_states(factory)
    assert {k for k, v in states.items() if v} == {(1, A)}
    assert leds.is_lit(1, A) and not leds.is_lit(0, A)


def test_low_bank_blinks_with_injected_time(factory: MockFactory, leds: GpioLeds) -> None:
    leds.show(auction(frozenset({A, D}), frozenset({R}), low0=True), now_ns=0)
    seen = []
    for now in (0, 100 * MS, 250 * MS, 499 * MS, 500 * MS, 760 * MS):
        leds.update(now)
        states = pin_states(factory)
        seen.append((states[(0, A)], states[(0, D)], states[(0, R)], states[(1, R)]))
    on, off = (True, True, False, True), (False, False, False, True)
    assert seen == [on, on, off, off, on, off]


def test_only_changed_leds_are_written(factory: MockFactory, leds: GpioLeds) -> None:
    state = auction(frozenset({A}), frozenset())
    leds.show(state, 0)
    accept_pin = factory.pin(DEFAULT_LED_PINS[0][A])
    writes = len(accept_pin.states)
    for frame in range(100):
        leds.update(frame * 16 * MS)
    assert len(accept_pin.states) == writes


def test_lit_rule() -> None:
    state = auction(frozenset({A}), frozenset(), low0=True)
    assert lit(state, 0, A, 0, 250 * MS)
    assert not lit(state, 0, A, 250 * MS, 250 * MS)
    assert not lit(state, 0, R, 0, 250 * MS)


def test_close_switches_off(factory: MockFactory) -> None:
    leds = GpioLeds(default_bindings(DEFAULT_LED_PINS), factory)
    leds.show(auction(frozenset({A}), frozenset({A})), 0)
    leds.close()
    assert not any(pin_states(factory).values())


def test_panel_model_rejects_nonsense(factory: MockFactory) -> None:
    with pytest.raises(InvalidValue, match="only ACCEPT, RAISE and DECLINE"):
        PlayerPanel(frozenset({Button.HELP}))
    with pytest.raises(InvalidValue, match="turn must be 0, 1 or None, not 2"):
        PanelState(turn=2)
    with pytest.raises(InvalidValue, match="blink_ms must be positive"):
        GpioLeds([], factory, blink_ms=0)
    assert issubclass(InvalidValue, ValueError) and issubclass(InvalidValue, HardwareError)
