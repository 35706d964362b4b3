"""One exception hierarchy for the hardware layer.

Each subclass also derives from the builtin a caller would naturally catch, so
``except ValueError`` or ``except OSError`` keep working. An error that a
person may be shown carries its message values in ``notices``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .notices import Notice


class HardwareError(Exception):
    """Base class of every error raised by :mod:`hardware`.

    ``message`` is the English text or a notice; ``notices`` are the message
    values behind the text (the notice itself when one is given; empty for
    errors meant for programmers only).
    """

    notices: tuple[Notice, ...]

    def __init__(self, message: str | Notice, notices: Sequence[Notice] = ()) -> None:
        super().__init__(str(message))
        if not notices and not isinstance(message, str):
            notices = (message,)
        self.notices = tuple(notices)


class ConfigError(HardwareError, ValueError):
    """A hardware setting in the kiosk configuration is wrong."""


class PortUnavailable(HardwareError, OSError):
    """A hardware port (GPIO pin factory, serial device) cannot be used here."""


class ProtocolError(HardwareError, ValueError):
    """A serial-panel line does not follow the documented line protocol."""


class InvalidValue(HardwareError, ValueError):
    """An argument no hardware object accepts (a programming error, not a wiring or config problem)."""
