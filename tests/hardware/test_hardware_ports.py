"""HardwarePorts: building everything from config, with failures as warnings."""

from __future__ import annotations

import pytest
import serial
from hardware_support import FakeClock

from hardware import ConfigError, HardwarePorts, PortUnavailable, parse_text
from hardware.config import HardwareConfig
from hardware.events import Button
from hardware.layout import DEFAULT_BUTTON_PINS
from hardware.serial_panel import PanelStatus
from hardware.state import PanelState, PlayerPanel


def test_mock_backend_builds_everything() -> None:
    clock = FakeClock()
    with HardwarePorts.build(HardwareConfig(), backend="mock", clock=clock) as ports:
        assert ports.backend == "mock" and ports.warnings == []
        assert ports.buttons is not None and ports.leds is not None and ports.keys is not None
        assert ports.panel is None and ports.panel_status is None
        ports.keys.key_down("j")
        (event,) = ports.drain()
        assert (event.player, event.button, event.arrival_ns) == (1, Button.ACCEPT, clock())


def test_auto_falls_back_to_mock_off_a_pi() -> None:
    with HardwarePorts.build(HardwareConfig(), backend="auto") as ports:
        assert ports.backend in ("mock", "gpio")
        if ports.backend == "mock":
            assert ports.keys is not None


def test_gpio_off_a_pi_is_a_warning_not_a_crash() -> None:
    try:
        ports = HardwarePorts.build(HardwareConfig(), backend="gpio", strict=True)
    except PortUnavailable as error:
        assert isinstance(error, OSError)
        lenient = HardwarePorts.build(HardwareConfig(), backend="gpio")
        assert lenient.buttons is None and lenient.warnings[0].startswith("hardware.backend:")
        lenient.close()
    else:  # on a Pi
        ports.close()


def test_unknown_backend_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        HardwarePorts.build(HardwareConfig(), backend="arduino")


def test_busy_pin_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    first = HardwarePorts.build(HardwareConfig(), backend="mock")
    try:
        second = HardwarePorts.build(HardwareConfig(), pin_factory=first.pin_factory)
        assert second.buttons is None and second.leds is None
        assert [w.split(":")[0] for w in second.warnings] == ["buttons", "leds"]
        second.close()
        with pytest.raises(PortUnavailable):
            HardwarePorts.build(HardwareConfig(), pin_factory=first.pin_factory, strict=True)
    finally:
        first.close()


def test_serial_panel_from_config_and_show_reaches_leds_and_panel() -> None:
    config = parse_text("[hardware]\nbackend='mock'\n[serial]\nenabled=true\nurl='loop://'").config
    port = serial.serial_for_url("loop://", baudrate=115200, timeout=0.01, write_timeout=1)
    with HardwarePorts.build(config, serial_opener=lambda: port) as ports:
        assert ports.panel is not None
        assert ports.panel.wait_until(lambda p: p.status is PanelStatus.CONNECTED, 5)
        assert ports.panel_status is PanelStatus.CONNECTED
        state = PanelState((PlayerPanel(frozenset({Button.ACCEPT})), PlayerPanel()), turn=0)
        ports.show(state, 0)
        assert ports.leds is not None and ports.leds.is_lit(0, Button.ACCEPT)
        assert ports.panel.wait_until(lambda p: p.stats.lines_out >= 10, 5)
        port.write(b"BTN 1 RAISE\n")
        assert ports.queue.wait(1, 5)
        assert ports.drain()[0].source == "serial"
        assert ports.pin_factory is not None
        ports.pin_factory.pin(DEFAULT_BUTTON_PINS[0][Button.DECLINE]).drive_low()
        assert [e.source for e in ports.drain()] == ["gpio"]


def test_serial_url_from_config_is_used() -> None:
    config = parse_text("[hardware]\nbackend='mock'\n[serial]\nenabled=true\nurl='loop://'").config
    with HardwarePorts.build(config) as ports:
        assert ports.panel is not None
        assert ports.panel.wait_until(lambda p: p.status is PanelStatus.CONNECTED, 5)  # its own echo
