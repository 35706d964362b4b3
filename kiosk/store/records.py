"""The journal's rows as values: what is written, what is read back, and their checksums.

Each journal row ("entry") is one scenario step with its arrival time (monotonic ns), the boot id,
the wall time and the engine snapshot after it, plus a SHA-256 checksum over all of it, so a row
that still parses but holds other bytes is detected. The ``read_*`` functions are the queries the
journal and the audit share (given a connection the caller holds).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.store.errors import StoreCorrupt, StoreUsageError, internal


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal row to write: a scenario step, the snapshot after it and when it arrived."""

    step: dict[str, Any]
    snapshot: str
    arrival_ns: int
    boot_id: str
    wall_s: float


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One journal row as read back. ``intact``: its checksum (and its snapshot's) verified."""

    match_id: int
    seq: int
    step: dict[str, Any]
    snapshot: str | None
    """None once the match is finished (only the last snapshot is kept), or when damaged."""
    snapshot_sha: str
    """SHA-256 (hex) of the snapshot text, kept when the snapshot itself is dropped."""
    arrival_ns: int
    boot_id: str
    wall_s: float
    intact: bool


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match's row: who played, when, with what configuration, and how it ended."""

    id: int
    players: tuple[int | None, int | None]
    """Named player ids; None for a guest."""
    created_wall: float
    ended_wall: float | None
    config: dict[str, Any]
    """``MatchConfig.to_dict()``."""
    finished: bool
    winner: int | None
    reason: str | None
    rated: bool | None
    detail: str | None


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where an unfinished match stands in the journal: the last good row and what follows it."""

    match: MatchRecord
    seq: int
    """The last good row's sequence number (0: no command was recorded yet)."""
    snapshot: str | None
    """The engine snapshot after that row (None when ``seq`` is 0)."""
    arrival_ns: int | None
    boot_id: str | None
    damaged: tuple[int, ...] = field(default=())
    """Sequence numbers after ``seq`` that failed their checks (dropped by ``resume``)."""

    @property
    def match_id(self) -> int:
        """The unfinished match's id."""
        return self.match.id


# -- encoding ----------------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    """``value`` as canonical JSON (sorted keys, no spaces): the text the checksums cover."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha(text: str) -> str:
    """SHA-256 (hex) of ``text``."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def checksum(match_id: int, seq: int, step_json: str, snapshot_sha: str, arrival_ns: int, boot_id: str,
             wall: float) -> str:
    """A row's checksum over everything it holds (the snapshot through its digest)."""
    payload = "\x1f".join((str(match_id), str(seq), step_json, snapshot_sha, str(arrival_ns), boot_id, repr(float(wall))))
    return sha(payload)


def entry_row(match_id: int, seq: int, entry: Entry) -> tuple[Any, ...]:
    """The ``entries`` row for ``entry`` as row ``seq`` of the match, checksum included."""
    step_json = dumps(entry.step)
    snap_sha = sha(entry.snapshot)
    wall = float(entry.wall_s)
    arrival = int(entry.arrival_ns)
    return (match_id, seq, step_json, entry.snapshot, snap_sha, arrival, entry.boot_id, wall,
            checksum(match_id, seq, step_json, snap_sha, arrival, entry.boot_id, wall))


# -- decoding ----------------------------------------------------------------------------------------

MATCH_COLUMNS = "id, player0, player1, created_wall, ended_wall, config, finished, winner, reason, rated, detail"
ENTRY_COLUMNS = "seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"


def match_record(row: Sequence[Any]) -> MatchRecord:
    """A ``matches`` row (``MATCH_COLUMNS``) as a ``MatchRecord``."""
    try:
        config = json.loads(row[5])
    except (TypeError, ValueError) as exc:
        raise StoreCorrupt(internal("match {match}: its configuration is unreadable", match=row[0])) from exc
    return MatchRecord(
        id=int(row[0]),
        players=(row[1], row[2]),
        created_wall=float(row[3]),
        ended_wall=None if row[4] is None else float(row[4]),
        config=config,
        finished=bool(row[6]),
        winner=row[7],
        reason=row[8],
        rated=None if row[9] is None else bool(row[9]),
        detail=row[10],
    )


def stored_entry(match_id: int, row: Sequence[Any]) -> StoredEntry:
    """An ``entries`` row (``ENTRY_COLUMNS``) as a ``StoredEntry``, checked against its checksum."""
    seq, step_json, snapshot, snap_sha, arrival_ns, boot_id, wall, check = row
    intact = (
        isinstance(step_json, str)
        and isinstance(snap_sha, str)
        and isinstance(arrival_ns, int)
        and isinstance(boot_id, str)
        and isinstance(wall, float)
        and check == checksum(match_id, seq, step_json, snap_sha, arrival_ns, boot_id, wall)
        and (snapshot is None or (isinstance(snapshot, str) and sha(snapshot) == snap_sha))
    )
    step: dict[str, Any] = {}
    if intact:
        try:
            loaded = json.loads(step_json)
            step = loaded if isinstance(loaded, dict) else {}
            intact = isinstance(loaded, dict)
        except ValueError:
            intact = False
    return StoredEntry(
        match_id=match_id,
        seq=int(seq),
        step=step,
        snapshot=snapshot if intact else None,
        snapshot_sha=snap_sha if isinstance(snap_sha, str) else "",
        arrival_ns=arrival_ns if isinstance(arrival_ns, int) else 0,
        boot_id=boot_id if isinstance(boot_id, str) else "",
        wall_s=float(wall) if isinstance(wall, (int, float)) else 0.0,
        intact=intact,
    )


# -- shared queries ----------------------------------------------------------------------------------


def read_match(conn: sqlite3.Connection, match_id: int) -> MatchRecord:
    """The match's row; ``StoreUsageError`` when there is none."""
    row = conn.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise StoreUsageError(internal("there is no match {match} in the journal", match=match_id))
    return match_record(row)


def read_entries(conn: sqlite3.Connection, match_id: int) -> list[StoredEntry]:
    """Every row of the match in order, each with ``intact`` telling whether it verified."""
    rows = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE match_id = ? ORDER BY seq", (match_id,))
    return [stored_entry(match_id, row) for row in rows]
