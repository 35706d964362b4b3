"""Message values from every part of the project, made ready for the catalogs.

The engine's refusals (``engine.EngineError``: ``template`` + ``params``), the hardware's notices
(``hardware.notices.Notice``: ``msgid`` + ``params``) and the kiosk's own ``Text`` values all
carry a message id and parameters, never a finished sentence; ``as_text`` turns any of them into a
``Text`` that the screen shows in its reader's language. Nothing here reads English back into
message ids: a value without one is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.i18n import Text


def as_text(value: object) -> Text:
    """``value`` (a ``Text``, a hardware notice, an engine error, ...) as a translatable ``Text``."""
    if isinstance(value, Text):
        return value
    msgid, params = _message_id(value), getattr(value, "params", None)
    if msgid is not None and isinstance(params, Mapping):
        return Text(msgid, {k: _param(v) for k, v in params.items()})
    return Text(str(value))  # text from outside the project (an OS error, say): shown as it is


def _message_id(value: object) -> str | None:
    """A message value's id: a notice's ``msgid`` or an engine error's ``template``."""
    found = getattr(value, "msgid", None) or getattr(value, "template", None)
    return found if isinstance(found, str) else None


def _param(value: Any) -> Any:
    """A parameter: nested message values become texts too, anything else stays as it is."""
    return as_text(value) if not isinstance(value, Text) and _message_id(value) is not None else value
