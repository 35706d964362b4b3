"""One exception hierarchy for the hardware layer.

Each subclass also derives from the builtin a caller would naturally catch, so
``except ValueError`` or ``except OSError`` keep working. An error that a
person may be shown carries its message values in ``notices``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class Notice(Protocol):
    """What an error carries of a message value: its id and placeholder values
    (``hardware.notices.Notice`` is the kind the hardware makes; declared here by shape so that
    this module, which ``notices`` imports, imports nothing of the hardware)."""

    @property
    def msgid(self) -> str:
        """The English message template."""

    @property
    def params(self) -> Mapping[str, object]:
        """The values of its placeholders."""


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
