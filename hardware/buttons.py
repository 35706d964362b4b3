"""Per-player GPIO buttons (gpiozero ``Button``, pull-up wiring) feeding the event queue."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gpiozero import Button as GpioButton
from gpiozero import Factory

from .debounce import Debouncer
from .events import Button, EventQueue
from .layout import PinBinding

SOURCE = "gpio"
HOLD_TIME_S = 0.05
"""gpiozero's hold time; ``when_held`` is unused, a short value only keeps :meth:`close` prompt."""


class GpioButtons:
    """The kiosk's push buttons: each press becomes one :class:`InputEvent`.

    Buttons are wired from the pin to ground with the internal pull-up on.
    gpiozero's own ``bounce_time`` is left off; debouncing is done from the
    arrival stamps by a :class:`Debouncer` so it behaves the same on mock pins.
    """

    def __init__(
        self,
        bindings: Iterable[PinBinding],
        queue: EventQueue,
        pin_factory: Factory,
        debounce_ms: float = 30,
    ) -> None:
        self._queue = queue
        self.debouncer = Debouncer(int(debounce_ms * 1_000_000))
        self.bindings: tuple[PinBinding, ...] = tuple(bindings)
        self._devices: dict[tuple[int | None, Button], GpioButton] = {}
        try:
            for binding in self.bindings:
                device = GpioButton(
                    binding.pin,
                    pull_up=True,
                    bounce_time=None,
                    hold_time=HOLD_TIME_S,
                    pin_factory=pin_factory,
                )
                device.when_pressed = self._callback(binding, True)
                device.when_released = self._callback(binding, False)
                self._devices[binding.key] = device
        except BaseException:
            self.close()
            raise

    def _callback(self, binding: PinBinding, pressed: bool) -> Callable[[], None]:
        """A gpiozero callback that stamps the edge and enqueues real presses."""
        queue, debouncer, key = self._queue, self.debouncer, binding.key
        player, button = binding.player, binding.button

        def on_edge() -> None:
            now = queue.now()
            if debouncer.edge(key, pressed, now):
                queue.put_event(player, button, now, SOURCE)

        return on_edge

    def device(self, player: int | None, button: Button) -> GpioButton:
        """The gpiozero device behind one button (KeyError if not wired)."""
        return self._devices[(player, button)]

    def pin_of(self, player: int | None, button: Button) -> int | None:
        """The BCM pin number wired to a button, or None if it is not wired."""
        for binding in self.bindings:
            if binding.key == (player, button):
                return binding.pin
        return None

    def close(self) -> None:
        """Release every pin."""
        for device in self._devices.values():
            # Ask every gpiozero hold thread to stop first, so they wind down
            # together instead of one poll interval each.
            hold_thread = getattr(device, "_hold_thread", None)
            if hold_thread is not None:
                hold_thread.stopping.set()
        for device in self._devices.values():
            device.when_pressed = None
            device.when_released = None
            device.close()
        self._devices.clear()
