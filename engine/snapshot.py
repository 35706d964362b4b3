"""The one save/load path for a match: text that survives a crash, and the restore rules of §7."""

from __future__ import annotations

import json

from .errors import SNAPSHOT_NOT_JSON, SNAPSHOT_NOT_OBJECT, SnapshotError
from .events import Event
from .match import Match


def save_text(match: Match) -> str:
    """The whole match state as compact JSON text."""
    return json.dumps(match.to_dict(), separators=(",", ":"), sort_keys=True)


def restore_text(text: str, *, boot_id: str, now_ns: int) -> tuple[Match, list[Event]]:
    """The match saved by ``save_text``, restored at ``now_ns`` in boot ``boot_id`` (see ``Match.restore``)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SnapshotError(SNAPSHOT_NOT_JSON, why=str(exc)) from exc
    if not isinstance(data, dict):
        raise SnapshotError(SNAPSHOT_NOT_OBJECT)
    return Match.restore(data, boot_id=boot_id, now_ns=now_ns)
