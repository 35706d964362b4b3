"""One exception hierarchy for the hardware layer.

Each subclass also derives from the builtin a caller would naturally catch, so
``except ValueError`` or ``except OSError`` keep working.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base class of every error raised by :mod:`hardware`."""


class ConfigError(HardwareError, ValueError):
    """A hardware setting in the kiosk configuration is wrong."""


class PortUnavailable(HardwareError, OSError):
    """A hardware port (GPIO pin factory, serial device) cannot be used here."""


class ProtocolError(HardwareError, ValueError):
    """A serial-panel line does not follow the documented line protocol."""
