"""Message values: what the hardware tells a player or the owner, as a message id and parameters.

The hardware never hands out finished sentences. A :class:`Notice` carries an English message
template (its ``msgid``, the id the kiosk's translation catalogs use) and the values of its
placeholders; ``str(notice)`` is the English sentence. A parameter may itself be a notice (a
nested phrase such as what a value should be), which is formatted, or translated, on its own.
Every template literal is wrapped in :func:`N_` so that gettext / Babel extraction finds it.

A warning about one configuration key is the notice ``"{key}: {message}"`` (or ``"{key} (line
{line}): {message}"`` once the line is known) whose ``message`` is the notice saying what is
wrong; its ``key`` and ``line`` fields repeat those values for code that sorts or filters.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import InvalidValue


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message template for the catalogs; returns it unchanged."""
    return msgid


KEYED = N_("{key}: {message}")
"""The template of a warning about one configuration key."""

KEYED_AT_LINE = N_("{key} (line {line}): {message}")
"""The template of a warning about one configuration key whose line in the file is known."""


def placeholders(msgid: str) -> frozenset[str]:
    """The placeholder names in a message template."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(msgid) if name is not None)


@dataclass(frozen=True, slots=True, repr=False)
class Notice:
    """One message: an English template (``msgid``) and the values of all its placeholders.

    ``key`` is the configuration key the message is about and ``line`` its line in the file,
    when known (both also appear in ``params`` when the template shows them). ``str()`` gives
    the English text. Raises :class:`~hardware.errors.InvalidValue` when a placeholder has no
    value.
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    key: str | None = None
    line: int | None = None

    def __post_init__(self) -> None:
        missing = placeholders(self.msgid) - self.params.keys()
        if missing:
            raise InvalidValue(f"notice {self.msgid!r} has no value for {', '.join(sorted(missing))}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __str__(self) -> str:
        return self.msgid.format_map({name: str(value) for name, value in self.params.items()})

    def __repr__(self) -> str:
        where = "".join(f", {name}={value!r}" for name, value in (("key", self.key), ("line", self.line)) if value is not None)
        return f"Notice({self.msgid!r}, {dict(self.params)!r}{where})"

    def __hash__(self) -> int:
        return hash((self.msgid, frozenset(self.params.items()), self.key, self.line))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Notice, (self.msgid, dict(self.params), self.key, self.line))

    @property
    def message(self) -> Notice | None:
        """What a keyed warning says is wrong (its ``message`` parameter), or None for other notices."""
        inner = self.params.get("message") if self.msgid in (KEYED, KEYED_AT_LINE) else None
        return inner if isinstance(inner, Notice) else None

    def with_line(self, line: int | None) -> Notice:
        """This keyed warning naming the line its key is written on; unchanged when ``line`` is None."""
        message = self.message
        if line is None:
            return self
        if self.key is None or message is None:
            raise InvalidValue(f"only a warning about a key can name a line, not {self.msgid!r}")
        return keyed(self.key, message, line)


def keyed(key: str, message: Notice, line: int | None = None) -> Notice:
    """A warning about configuration key ``key`` (at ``line``, when known) saying ``message``."""
    if line is None:
        return Notice(KEYED, {"key": key, "message": message}, key=key)
    return Notice(KEYED_AT_LINE, {"key": key, "line": line, "message": message}, key=key, line=line)
