"""The kiosk's hardware layer: GPIO buttons and LEDs, a serial panel and simulator keys.

Every input ends up as an :class:`InputEvent` in one :class:`EventQueue`; every
output is driven from one :class:`PanelState`. Build it all with
:meth:`HardwarePorts.build` from a :func:`load_config` result. What the
hardware has to tell people (configuration and start-up warnings) comes as
:class:`Notice` values, not sentences.
"""

from .config import HardwareConfig, LoadedConfig, load_config, parse_config, parse_text
from .errors import ConfigError, HardwareError, InvalidValue, PortUnavailable, ProtocolError
from .events import Button, EventQueue, InputEvent
from .notices import N_, Notice
from .ports import HardwarePorts
from .serial_panel import PanelStats, PanelStatus, SerialPanel
from .state import PanelState, Phase, PlayerPanel

__all__ = [
    "N_",
    "Button",
    "ConfigError",
    "EventQueue",
    "HardwareConfig",
    "HardwareError",
    "HardwarePorts",
    "InputEvent",
    "InvalidValue",
    "LoadedConfig",
    "Notice",
    "PanelState",
    "PanelStats",
    "PanelStatus",
    "Phase",
    "PlayerPanel",
    "PortUnavailable",
    "ProtocolError",
    "SerialPanel",
    "load_config",
    "parse_config",
    "parse_text",
]
