"""HardwarePorts: building everything from config, with failures as warnings."""

from __future__ import annotations

import pytest
import serial
from gpiozero import Factory

from hardware import ConfigError, HardwarePorts, PortUnavailable, parse_text
from hardware.config import HardwareConfig
from hardware.events import Button
from hardware.layout import DEFAULT_BUTTON_PINS
from hardware.notices import Notice
from hardware.pinfactory import real_pin_factory
from hardware.serial_panel import PanelStatus
from hardware.state import PanelState, PlayerPanel
from kiosk.timesource import FakeClock


def real_gpio() -> Factory | PortUnavailable:
    """The real pin factory on a Pi, or the error saying why there is none."""
    try:
        return real_pin_factory()
    except PortUnavailable as error:
        return error


def test_mock_backend_builds_everything() -> None:
    clock = FakeClock()
    with HardwarePorts.build(HardwareConfig(), backend="mock", clock=clock) as ports:
        assert ports.backend == "mock" and ports.warnings == []
        assert ports.buttons is not None and ports.leds is not None and ports.keys is not None
        assert ports.panel is None and ports.panel_status is None
        ports.keys.key_down("j")
        (event,) = ports.drain()
        assert (event.player, event.button, event.arrival_ns) == (1, Button.ACCEPT, clock())


def test_auto_takes_the_real_pins_on_a_pi_and_mock_pins_elsewhere() -> None:
    real = real_gpio()
    if not isinstance(real, PortUnavailable):
        real.close()
    with HardwarePorts.build(HardwareConfig(), backend="auto") as ports:
        assert ports.warnings == []
        if isinstance(real, PortUnavailable):
            assert ports.backend == "mock" and ports.keys is not None
        else:
            assert ports.backend == "gpio" and ports.keys is None


def test_gpio_off_a_pi_is_a_warning_not_a_crash() -> None:
    real = real_gpio()
    if not isinstance(real, PortUnavailable):
        real.close()
        pytest.skip("this machine has real GPIO")
    (reason,) = real.notices
    assert reason.msgid == "no Raspberry Pi GPIO here ({reasons})"
    assert str(reason) == f"no Raspberry Pi GPIO here ({reason.params['reasons']})" == str(real)
    assert str(reason.params["reasons"]).startswith("lgpio: ")
    with pytest.raises(PortUnavailable) as raised:
        HardwarePorts.build(HardwareConfig(), backend="gpio", strict=True)
    assert raised.value.notices == (reason,)
    with HardwarePorts.build(HardwareConfig(), backend="gpio") as lenient:
        assert lenient.buttons is None and lenient.leds is None and lenient.keys is None
        (warning,) = lenient.warnings
        off = Notice("{error}; GPIO buttons and LEDs are off", {"error": reason})
        assert (warning.msgid, warning.key, warning.line) == ("{key}: {message}", "hardware.backend", None)
        assert dict(warning.params) == {"key": "hardware.backend", "message": off}
        assert str(warning) == f"hardware.backend: {real}; GPIO buttons and LEDs are off"


def test_unknown_backend_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        HardwarePorts.build(HardwareConfig(), backend="arduino")


def test_busy_pin_is_a_warning() -> None:
    first = HardwarePorts.build(HardwareConfig(), backend="mock")
    try:
        second = HardwarePorts.build(HardwareConfig(), pin_factory=first.pin_factory)
        assert second.buttons is None and second.leds is None
        buttons, leds = second.warnings
        assert buttons.message is not None and leds.message is not None
        busy_button, busy_led = str(buttons.message.params["error"]), str(leds.message.params["error"])
        assert busy_button.startswith("pin GPIO5 is already in use by <gpiozero.Button object on pin GPIO5")  # gpiozero's words
        assert busy_led.startswith("pin GPIO23 is already in use by <gpiozero.LED object on pin GPIO23")
        assert (buttons.key, buttons.line, leds.key, leds.line) == ("buttons", None, "leds", None)
        assert buttons.message == Notice("cannot use the pins ({error}); GPIO buttons are off", {"error": busy_button})
        assert leds.message == Notice("cannot use the pins ({error}); LEDs are off", {"error": busy_led})
        assert str(buttons) == f"buttons: cannot use the pins ({busy_button}); GPIO buttons are off"
        assert str(leds) == f"leds: cannot use the pins ({busy_led}); LEDs are off"
        second.close()
        with pytest.raises(PortUnavailable) as raised:
            HardwarePorts.build(HardwareConfig(), pin_factory=first.pin_factory, strict=True)
        assert str(raised.value) == f"buttons: {busy_button}" and raised.value.notices == (buttons,)
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
