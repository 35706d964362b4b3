"""Everything the kiosk needs from the hardware, built from the configuration.

:class:`HardwarePorts` wires one :class:`EventQueue` to the GPIO buttons, the
button LEDs, the serial panel and (with the mock backend) the simulator keys.
A part that cannot start is left out with a warning (a :class:`~hardware.notices.Notice`);
the rest still runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero import Factory
from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from .backoff import Backoff
from .buttons import GpioButtons
from .config import HardwareConfig
from .errors import ConfigError, PortUnavailable
from .events import Clock, EventQueue, InputEvent
from .keyboard import MockKeyDriver
from .leds import GpioLeds
from .notices import N_, Notice, keyed
from .pinfactory import mock_pin_factory, real_pin_factory
from .serial_panel import PanelStatus, Port, SerialPanel, url_opener
from .state import PanelState


class HardwarePorts:
    """The assembled hardware: one event queue in, one panel state out."""

    def __init__(
        self,
        queue: EventQueue,
        backend: str,
        pin_factory: Factory | None,
        buttons: GpioButtons | None,
        leds: GpioLeds | None,
        panel: SerialPanel | None,
        keys: MockKeyDriver | None,
        warnings: list[Notice],
    ) -> None:
        self.queue = queue
        self.backend = backend
        self.pin_factory = pin_factory
        self.buttons = buttons
        self.leds = leds
        self.panel = panel
        self.keys = keys
        self.warnings = warnings

    @classmethod
    def build(
        cls,
        config: HardwareConfig,
        *,
        backend: str | None = None,
        clock: Clock = time.monotonic_ns,
        pin_factory: Factory | None = None,
        serial_opener: Callable[[], Port] | None = None,
        strict: bool = False,
    ) -> HardwarePorts:
        """Build the ports for ``backend`` (default: the config's).

        ``"gpio"`` uses the Pi's pins, ``"mock"`` a gpiozero MockFactory and
        ``"auto"`` the first of those that loads. With ``strict`` a part that
        cannot start raises (PortUnavailable / ConfigError) instead of becoming
        a warning. ``pin_factory`` and ``serial_opener`` override the real ones.
        """
        warnings: list[Notice] = []
        queue = EventQueue(clock)
        chosen = backend or config.backend
        if chosen not in ("auto", "gpio", "mock"):
            raise ConfigError(f"backend: unknown backend {chosen!r}")
        factory = pin_factory
        if factory is None:
            if chosen == "mock":
                factory = mock_pin_factory()
            else:
                try:
                    factory = real_pin_factory()
                    chosen = "gpio"
                except PortUnavailable as error:
                    if strict and chosen == "gpio":
                        raise
                    if chosen == "gpio":
                        reason: object = error.notices[0] if error.notices else str(error)
                        off = Notice(N_("{error}; GPIO buttons and LEDs are off"), {"error": reason})
                        warnings.append(keyed("hardware.backend", off))
                    else:
                        factory, chosen = mock_pin_factory(), "mock"
        elif chosen == "auto":
            chosen = "mock" if isinstance(factory, MockFactory) else "gpio"

        buttons = leds = None
        keys = None
        if factory is not None:
            try:
                buttons = GpioButtons(config.buttons, queue, factory, config.debounce_ms)
            except GPIOZeroError as error:
                off = keyed("buttons", Notice(N_("cannot use the pins ({error}); GPIO buttons are off"), {"error": str(error)}))
                if strict:
                    raise PortUnavailable(f"buttons: {error}", [off]) from error
                warnings.append(off)
            try:
                leds = GpioLeds(config.leds, factory, config.blink_ms)
            except GPIOZeroError as error:
                off = keyed("leds", Notice(N_("cannot use the pins ({error}); LEDs are off"), {"error": str(error)}))
                if strict:
                    raise PortUnavailable(f"leds: {error}", [off]) from error
                warnings.append(off)
            if buttons is not None and isinstance(factory, MockFactory):
                keys = MockKeyDriver(config.keys, buttons, factory)

        panel = None
        if serial_opener is not None or (config.serial.enabled and config.serial.url):
            opener = serial_opener or url_opener(config.serial.url or "", config.serial.baudrate)
            panel = SerialPanel(
                opener,
                queue,
                with_checksum=config.serial.checksum,
                backoff=Backoff(0.1, 2.0, max(config.serial.reconnect_max_s, 0.1)),
            ).start()
        return cls(queue, chosen, factory, buttons, leds, panel, keys, warnings)

    def drain(self) -> list[InputEvent]:
        """Every input since the last call, oldest first (call once per frame)."""
        return self.queue.drain()

    def show(self, state: PanelState, now_ns: int) -> None:
        """Show a new panel state on the LEDs and the serial panel."""
        if self.leds is not None:
            self.leds.show(state, now_ns)
        if self.panel is not None:
            self.panel.show(state)

    def update(self, now_ns: int) -> None:
        """Advance time-driven output (LED blinking) to ``now_ns``; call once per frame."""
        if self.leds is not None:
            self.leds.update(now_ns)

    @property
    def panel_status(self) -> PanelStatus | None:
        """The serial panel's connection state, or None when there is no serial panel."""
        return None if self.panel is None else self.panel.status

    def close(self) -> None:
        """Stop the serial worker and release every pin."""
        if self.panel is not None:
            self.panel.close()
        if self.buttons is not None:
            self.buttons.close()
        if self.leds is not None:
            self.leds.close()

    def __enter__(self) -> HardwarePorts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
