"""Simulator keys drive gpiozero mock pins, so key presses take the GPIO path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hardware_support import MS

from hardware.buttons import GpioButtons
from hardware.config import HardwareConfig
from hardware.errors import ConfigError
from hardware.events import Button, EventQueue
from hardware.keyboard import MockKeyDriver, handle_pygame_event
from hardware.layout import DEFAULT_BUTTON_PINS, default_bindings
from kiosk.timesource import FakeClock

Rig = tuple[MockKeyDriver, EventQueue, FakeClock, MockFactory]


@pytest.fixture
def rig() -> Iterator[Rig]:
    clock = FakeClock()
    queue = EventQueue(clock)
    factory = MockFactory()
    buttons = GpioButtons(default_bindings(DEFAULT_BUTTON_PINS), queue, factory)
    driver = MockKeyDriver(HardwareConfig().keys, buttons, factory)
    yield driver, queue, clock, factory
    buttons.close()
    factory.close()


def test_default_keys(rig: Rig) -> None:
    driver, queue, clock, _ = rig
    expected = {
        "a": (0, Button.ACCEPT), "s": (0, Button.RAISE), "d": (0, Button.DECLINE),
        "j": (1, Button.ACCEPT), "k": (1, Button.RAISE), "l": (1, Button.DECLINE),
    }
    for key in expected:
        assert driver.key_down(key)
        assert driver.key_up(key)
        clock.advance(ns=100 * MS)
    assert [(e.player, e.button) for e in queue.drain()] == list(expected.values())


def test_key_drives_the_mock_pin(rig: Rig) -> None:
    driver, _, _, factory = rig
    pin = factory.pin(DEFAULT_BUTTON_PINS[1][Button.RAISE])
    driver.key_down("K")
    assert pin.state is False  # pressed: pulled to ground
    driver.key_up("k")
    assert pin.state is True


def test_key_repeat_is_one_press(rig: Rig) -> None:
    driver, queue, clock, _ = rig
    for _ in range(10):
        driver.key_down("a")  # auto-repeat: key down again without key up
        clock.advance(ns=50 * MS)
    driver.key_up("a")
    assert len(queue.drain()) == 1


def test_unbound_keys_are_ignored(rig: Rig) -> None:
    driver, queue, _, _ = rig
    assert not driver.key_down("z")
    assert not driver.key_up("space")
    assert queue.drain() == []


def test_release_all_and_legend(rig: Rig) -> None:
    driver, _, _, factory = rig
    driver.key_down("a")
    driver.key_down("j")
    driver.release_all()
    assert all(factory.pin(p).state for pins in DEFAULT_BUTTON_PINS.values() for p in pins.values())
    assert driver.legend() == ["Player 1: A accept, S raise, D decline", "Player 2: J accept, K raise, L decline"]


def test_key_for_unwired_button_is_a_config_error() -> None:
    factory = MockFactory()
    buttons = GpioButtons([], EventQueue(), factory)
    with pytest.raises(ConfigError):
        MockKeyDriver([("a", 0, Button.ACCEPT)], buttons, factory)


def test_pygame_adapter(rig: Rig) -> None:
    pygame = pytest.importorskip("pygame")
    driver, queue, clock, _ = rig
    assert handle_pygame_event(driver, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
    clock.advance(ns=100 * MS)
    assert handle_pygame_event(driver, pygame.event.Event(pygame.KEYUP, key=pygame.K_s))
    assert not handle_pygame_event(driver, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))
    handle_pygame_event(driver, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l))
    handle_pygame_event(driver, pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert [(e.player, e.button) for e in queue.drain()] == [(0, Button.RAISE), (1, Button.DECLINE)]
