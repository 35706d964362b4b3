"""Per-player button LEDs (gpiozero ``LED``) showing which buttons mean something now."""

from __future__ import annotations

from collections.abc import Iterable

from gpiozero import LED, Factory

from .errors import InvalidValue
from .events import Button
from .layout import PinBinding
from .state import PanelState


def lit(state: PanelState, player: int, button: Button, now_ns: int, half_period_ns: int) -> bool:
    """Whether one LED is on at ``now_ns``.

    An LED is on while its button is active; if that player's bank is low it
    blinks instead, on for the first half of each period and off for the second.
    """
    panel = state.player(player)
    if button not in panel.active:
        return False
    if not panel.low_bank:
        return True
    return (now_ns // half_period_ns) % 2 == 0


class GpioLeds:
    """The button LEDs, driven from a :class:`PanelState` and an injected time.

    The LEDs never read a clock: :meth:`show` records the state and
    :meth:`update` (called once a frame with the frame's time) sets each pin,
    writing only the pins whose value changed.
    """

    def __init__(
        self,
        bindings: Iterable[PinBinding],
        pin_factory: Factory,
        blink_ms: float = 250,
    ) -> None:
        if blink_ms <= 0:
            raise InvalidValue("blink_ms must be positive")
        self.half_period_ns = int(blink_ms * 1_000_000)
        self.bindings: tuple[PinBinding, ...] = tuple(b for b in bindings if b.player is not None)
        self._devices: dict[tuple[int | None, Button], LED] = {}
        self._values: dict[tuple[int | None, Button], bool] = {}
        self._state = PanelState()
        try:
            for binding in self.bindings:
                self._devices[binding.key] = LED(
                    binding.pin, initial_value=False, pin_factory=pin_factory
                )
                self._values[binding.key] = False
        except BaseException:
            self.close()
            raise

    def show(self, state: PanelState, now_ns: int) -> None:
        """Take a new panel state and apply it at ``now_ns``."""
        self._state = state
        self.update(now_ns)

    def update(self, now_ns: int) -> None:
        """Set every LED for the current state at ``now_ns`` (drives the blinking)."""
        for (player, button), device in self._devices.items():
            assert player is not None
            value = lit(self._state, player, button, now_ns, self.half_period_ns)
            if self._values[(player, button)] != value:
                device.value = value
                self._values[(player, button)] = value

    def is_lit(self, player: int, button: Button) -> bool:
        """The value last written to one LED (False if it is not wired)."""
        return self._values.get((player, button), False)

    def device(self, player: int, button: Button) -> LED:
        """The gpiozero device behind one LED (KeyError if not wired)."""
        return self._devices[(player, button)]

    def close(self) -> None:
        """Switch every LED off and release its pin."""
        for device in self._devices.values():
            try:
                device.off()
            finally:
                device.close()
        self._devices.clear()
        self._values.clear()
