"""One contract, every input and output backend that can load here.

Input backends: GPIO buttons on mock pins, simulator keys, the serial panel
over loop:// and over a pty, and the real Pi GPIO (skipped off a Pi).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import serial
from hardware_support import MS

from hardware.backoff import Backoff
from hardware.config import HardwareConfig
from hardware.errors import PortUnavailable
from hardware.events import GAME_BUTTONS, Button, EventQueue
from hardware.layout import DEFAULT_BUTTON_PINS
from hardware.ports import HardwarePorts
from hardware.ptyboard import PtyBoard
from hardware.serial_panel import PanelStatus, SerialPanel, url_opener
from hardware.state import PanelState, Phase, PlayerPanel
from kiosk.timesource import FakeClock

WAIT = 5.0


@dataclass
class InputRig:
    """A backend under test: press buttons on it, read events from ``queue``."""

    queue: EventQueue
    clock: FakeClock
    press: Callable[[int | None, Button], None]
    sources: set[str]
    settled: Callable[[int], bool]  # waits until n events are queued


def real_gpio_ports(clock: FakeClock) -> HardwarePorts:
    try:
        return HardwarePorts.build(HardwareConfig(), backend="gpio", clock=clock, strict=True)
    except PortUnavailable as error:
        pytest.skip(f"real GPIO backend needs a Raspberry Pi: {error}")


@pytest.fixture(params=["gpio-mock", "keyboard", "serial-loop", "serial-pty", "gpio-real"])
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[InputRig]:
    clock = FakeClock()
    kind = request.param
    if kind == "gpio-real":
        ports = real_gpio_ports(clock)
        ports.close()
        pytest.skip("pressing real buttons needs a person or a wired test jig")
    if kind in ("gpio-mock", "keyboard"):
        ports = HardwarePorts.build(HardwareConfig(), backend="mock", clock=clock)
        assert ports.keys is not None and ports.pin_factory is not None
        keys = {(p, b): k for k, p, b in HardwareConfig().keys}
        factory = ports.pin_factory

        def press(player: int | None, button: Button) -> None:
            assert player is not None and ports.keys is not None
            if kind == "keyboard":
                ports.keys.key_down(keys[(player, button)])
                ports.keys.key_up(keys[(player, button)])
            else:
                pin = factory.pin(DEFAULT_BUTTON_PINS[player][button])
                pin.drive_low()
                pin.drive_high()
            clock.advance(ns=100 * MS)

        yield InputRig(ports.queue, clock, press, {"gpio"}, lambda n: len(ports.queue) >= n)
        ports.close()
        return

    queue = EventQueue(clock)
    board: PtyBoard | None = None
    if kind == "serial-loop":
        port = serial.serial_for_url("loop://", baudrate=115200, timeout=0.01, write_timeout=1.0)
        opener = lambda: port  # noqa: E731

        def send(line: bytes) -> None:
            port.write(line)
    else:
        board = PtyBoard(tmp_path / "panel")
        board.plug()
        opener = url_opener(str(board.link))
        send = board.send  # type: ignore[assignment]
    panel = SerialPanel(opener, queue, backoff=Backoff(0.005, 2, 0.05), hello_interval=0.05).start()
    assert panel.wait_until(lambda p: p.status is PanelStatus.CONNECTED, WAIT)

    def press_serial(player: int | None, button: Button) -> None:
        send(f"BTN {'-' if player is None else player} {button.value}\n".encode())

    yield InputRig(queue, clock, press_serial, {"serial"}, lambda n: queue.wait(n, WAIT))
    panel.close()
    if board is not None:
        board.unplug()


def test_one_press_is_one_event_stamped_when_it_arrived(rig: InputRig) -> None:
    pressed_at = rig.clock()
    rig.press(0, Button.ACCEPT)  # GPIO rigs move the clock on after the press; serial rigs leave it
    assert rig.settled(1)
    (event,) = rig.queue.drain()
    assert (event.player, event.button) == (0, Button.ACCEPT)
    assert event.source in rig.sources
    assert event.arrival_ns == pressed_at


def test_every_game_button_of_every_player(rig: InputRig) -> None:
    expected = [(p, b) for p in (0, 1) for b in GAME_BUTTONS]
    for player, button in expected:
        rig.press(player, button)
    assert rig.settled(len(expected))
    assert [(e.player, e.button) for e in rig.queue.drain()] == expected


def test_both_players_at_once(rig: InputRig) -> None:
    rig.press(0, Button.RAISE)
    rig.press(1, Button.RAISE)
    assert rig.settled(2)
    assert sorted(e.player for e in rig.queue.drain() if e.player is not None) == [0, 1]


def test_nothing_pressed_nothing_queued(rig: InputRig) -> None:
    assert rig.queue.drain() == []


# -- outputs -------------------------------------------------------------------


@pytest.fixture(params=["gpio-mock", "gpio-real"])
def ports(request: pytest.FixtureRequest) -> Iterator[HardwarePorts]:
    clock = FakeClock()
    if request.param == "gpio-real":
        built = real_gpio_ports(clock)
    else:
        built = HardwarePorts.build(HardwareConfig(), backend="mock", clock=clock)
    yield built
    built.close()


@pytest.mark.parametrize("low_bank", [False, True])
def test_leds_show_the_active_buttons(ports: HardwarePorts, low_bank: bool) -> None:
    assert ports.leds is not None
    state = PanelState(
        (PlayerPanel(frozenset({Button.ACCEPT, Button.RAISE}), low_bank), PlayerPanel(frozenset({Button.DECLINE}))),
        turn=0,
        phase=Phase.AUCTION,
    )
    half = ports.leds.half_period_ns
    active = {(0, Button.ACCEPT), (0, Button.RAISE), (1, Button.DECLINE)}
    for period, now in enumerate((0, half, 2 * half, 3 * half)):
        if now:
            ports.update(now)
        else:
            ports.show(state, now)
        dark_phase = low_bank and period % 2 == 1  # player 0's lit LEDs blink while the bank is low
        for player in (0, 1):
            for button in GAME_BUTTONS:
                expected = (player, button) in active and not (player == 0 and dark_phase)
                assert bool(ports.leds.device(player, button).value) == expected, (player, button, now)

