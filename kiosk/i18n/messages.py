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
    msgid = getattr(value, "msgid", None) or getattr(value, "template", None)
    params = getattr(value, "params", None)
    if isinstance(msgid, str) and isinstance(params, Mapping):
        return Text(msgid, {k: _param(v) for k, v in params.items()})
    return Text(str(value))  # text from outside the project (an OS error, say): shown as it is


def _param(value: Any) -> Any:
    nested = getattr(value, "msgid", None) or getattr(value, "template", None)
    if isinstance(value, Text) or not isinstance(nested, str):
        return value
    return as_text(value)
