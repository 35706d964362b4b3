"""The kiosk's hardware layer: GPIO buttons and LEDs, a serial panel and simulator keys.

Every input ends up as an :class:`InputEvent` in one :class:`EventQueue`; every
output is driven from one :class:`PanelState`. Build it all with
:meth:`HardwarePorts.build` from a :func:`load_config` result.
"""

from .config import HardwareConfig, LoadedConfig, load_config, parse_config, parse_text
from .errors import ConfigError, HardwareError, PortUnavailable, ProtocolError
from .events import Button, EventQueue, InputEvent
from .ports import HardwarePorts
from .serial_panel import PanelStats, PanelStatus, SerialPanel
from .state import PanelState, Phase, PlayerPanel

__all__ = [
    "Button",
    "ConfigError",
    "EventQueue",
    "HardwareConfig",
    "HardwareError",
    "HardwarePorts",
    "InputEvent",
    "LoadedConfig",
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
