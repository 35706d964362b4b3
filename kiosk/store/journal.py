"""The match journal: every accepted command of every match, committed before the screen shows it.

One SQLite file in the kiosk's state directory (``Database``: WAL, ``synchronous=FULL``, one
writer, migrations in ``kiosk.store.schema``). Each match has a row in ``matches``; each accepted
command is a journal row (``kiosk.store.records.Entry``) with a checksum, so a damaged row is
detected and the match restored to the last good one. Finishing a match rates it in the same
transaction. See docs/journal.md for the schema, the guarantees and the decisions.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from engine import MatchConfig, Outcome
from kiosk.i18n import T, Text
from kiosk.store import audit, integrity
from kiosk.store.database import Database
from kiosk.store.database import unavailable as _unavailable
from kiosk.store.errors import (
    JournalCorrupt,
    JournalDamaged,
    JournalError,
    JournalUnavailable,
    JournalUsageError,
    ResumeFailed,
    StoreUsageError,
    internal,
)
from kiosk.store.event_schema import EventLink
from kiosk.store.identity import new_match_uuid
from kiosk.store.players import rate_finished
from kiosk.store.records import (
    ENTRY_COLUMNS,
    MATCH_COLUMNS,
    Entry,
    MatchRecord,
    ResumePoint,
    StoredEntry,
    dumps,
    entry_row,
    match_record,
    read_entries,
    read_match,
    stored_entry,
)
from kiosk.store.schema import JOURNAL_SCHEMA, SCHEMA_VERSION

__all__ = [
    "APP_DIR_NAME",
    "JOURNAL_FILE",
    "SCHEMA_VERSION",
    "Entry",
    "Journal",
    "JournalCorrupt",
    "JournalDamaged",
    "JournalError",
    "JournalUnavailable",
    "JournalUsageError",
    "MatchRecord",
    "ResumeFailed",
    "ResumePoint",
    "StoredEntry",
    "_unavailable",
    "journal_path",
    "state_dir",
]

APP_DIR_NAME = "spectacular-bid"
JOURNAL_FILE = "journal.sqlite3"


def state_dir(simulator: bool) -> Path:
    """Where the journal lives: systemd's ``STATE_DIRECTORY`` when set, else a per-user data dir.

    The per-user directory is ``$XDG_DATA_HOME/spectacular-bid`` or
    ``~/.local/share/spectacular-bid`` (the simulator, or a kiosk started by hand). ``simulator``
    is accepted so the caller states its mode; both modes honour ``STATE_DIRECTORY`` (the service
    sets it, a developer's shell does not).
    """
    del simulator  # same rule in both modes; kept in the signature for the call sites' clarity
    configured = os.environ.get("STATE_DIRECTORY", "")
    if configured:
        # systemd passes a colon-separated list when the unit names several directories
        return Path(configured.split(":")[0])
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if data_home and Path(data_home).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_DIR_NAME


def journal_path(simulator: bool) -> Path:
    """The journal file in ``state_dir(simulator)``."""
    return state_dir(simulator) / JOURNAL_FILE


COMPUTER_SEAT_KEY = "computer_seat"
"""In a practice match's saved configuration: the computer's seat when it is 0 (the person sat at Player 2's
edge). Absent: seat 1. ``MatchConfig.from_dict`` reads past it."""


def computer_seat_of(config: dict[str, Any] | None) -> int:
    """The seat the computer plays in a practice match saved with ``config`` (1 unless it says 0)."""
    return 0 if config is not None and config.get(COMPUTER_SEAT_KEY) == 0 else 1


class Journal:
    """The open journal: matches and their rows. Thread-safe; each write is on disk when it returns."""

    def __init__(self, database: Database, *, wall_clock: Callable[[], float] = time.time) -> None:
        """Use ``Journal.open`` (or give an open ``Database`` with the journal's schema)."""
        self.database = database
        self.wall_clock = wall_clock
        self.row_check: threading.Thread | None = None
        """The check of the finished matches' rows while it runs in the background (``kiosk.store.integrity``)."""
        """Wall time (seconds) for rows written without an explicit ``wall_s``."""

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, wall_clock: Callable[[], float] = time.time,
             check: bool = True) -> Journal:
        """Open (or create) the journal at ``path`` (see ``Database.open``: a damaged write-ahead
        log is repaired, a damaged file is moved aside and its newest good backup restored, each
        with a warning; ``JournalUnavailable`` when it cannot be kept; ``JournalCorrupt`` for a file
        from a newer program). ``check``: run ``PRAGMA quick_check`` first."""
        journal = cls(Database.open(path, JOURNAL_SCHEMA, wall_clock=wall_clock, check=check), wall_clock=wall_clock)
        if check:  # every row of the finished matches against its checksum, repaired from a backup
            journal.row_check = integrity.start(journal.database)
        return journal

    @property
    def path(self) -> Path:
        """The journal file."""
        return self.database.path

    @property
    def warnings(self) -> list[Text]:
        """What happened while opening (a file moved aside, ...), as message values."""
        return self.database.warnings

    @property
    def schema_version(self) -> int:
        """The file's schema version (``SCHEMA_VERSION`` once open)."""
        return self.database.schema_version

    def take_notices(self) -> list[Text]:
        """What happened to the file since the last call (written again after being deleted, a backup
        that could not be written, ...), as message values; forgotten once taken."""
        return self.database.take_notices()

    def after_finish(self, wall_s: float | None = None) -> bool:
        """After a finished match: fold the write-ahead log into the file and write the next backup.

        Never raises: a failure becomes a notice (``take_notices``) and False is returned (a damaged
        page met on the way also sets ``database.damage``). True once the backup is written.
        """
        try:
            self.database.checkpoint()
            self.database.backup(self._wall(wall_s))
        except JournalError as exc:
            self.database.notices.append(T("The backup of the match journal could not be written ({why}); the "
                                           "journal itself is saved.", why=exc.why))
            return False
        return True

    def close(self) -> None:
        """Close the file."""
        self.database.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wall(self, wall_s: float | None) -> float:
        return float(self.wall_clock()) if wall_s is None else float(wall_s)

    # -- matches ---------------------------------------------------------------------------

    def begin_match(self, config: MatchConfig | dict[str, Any], players: Sequence[int | None] = (None, None), *,
                    wall_s: float | None = None, computer_level: int | None = None, uuid: str | None = None,
                    event: EventLink | None = None) -> int:
        """A new match (committed) with its configuration and players (named ids, None: guest);
        ``computer_level``: a practice match against the computer at that level (in seat 1, or in seat 0
        when ``config`` says so under ``COMPUTER_SEAT_KEY``; that seat must then be no named player);
        ``uuid``: the match's UUID (a fresh UUIDv7 when None or when another match of the file holds
        it); ``event``: the club event's pairing it plays, and berserk."""
        data = config.to_dict() if isinstance(config, MatchConfig) else dict(config)
        MatchConfig.from_dict(data)  # refuse a configuration the engine would not take
        if len(players) != 2:
            raise StoreUsageError(internal("a match has two players, not {count}", count=len(players)))
        p0, p1 = players
        if data.get(COMPUTER_SEAT_KEY, 1) not in (0, 1) or (computer_level is None and COMPUTER_SEAT_KEY in data):
            raise StoreUsageError(internal("the computer's seat is 0 or 1, in a practice match"))
        if computer_level is not None and (players[computer_seat_of(data)] is not None or computer_level not in (1, 2, 3, 4)):
            raise StoreUsageError(internal("the computer plays a seat with no named player at a level from 1 to 4"))
        if p0 is not None and p0 == p1:
            raise StoreUsageError(internal("a named player cannot play against themselves"))
        wall = self._wall(wall_s)
        with self.database.transaction() as conn:
            for p in (p0, p1):
                if p is not None and conn.execute("SELECT 1 FROM players WHERE id = ?", (p,)).fetchone() is None:
                    raise StoreUsageError(internal("there is no player with id {player}", player=p))
            if uuid is None or conn.execute("SELECT 1 FROM matches WHERE uuid = ?", (uuid,)).fetchone() is not None:
                uuid = new_match_uuid(wall)
            cursor = conn.execute(
                "INSERT INTO matches (player0, player1, created_wall, config, computer_level, uuid, event_pairing, "
                "berserk) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (p0, p1, wall, dumps(data), computer_level, uuid, *(event.columns() if event else (None, None))),
            )
            return int(cursor.lastrowid or 0)

    def computer_levels(self, match_ids: Sequence[int]) -> dict[int, int]:
        """The practice matches among ``match_ids``: match id to the computer's level."""
        ids = [int(i) for i in match_ids]
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        with self.database.read() as conn:
            rows = conn.execute(f"SELECT id, computer_level FROM matches WHERE id IN ({marks}) "
                                "AND computer_level IS NOT NULL", ids).fetchall()
        return {int(match_id): int(level) for match_id, level in rows}

    def match(self, match_id: int) -> MatchRecord:
        """The match's row; JournalUsageError when there is none."""
        with self.database.read() as conn:
            return read_match(conn, match_id)

    def matches(self, *, finished: bool | None = None, player_id: int | None = None, limit: int | None = None
                ) -> list[MatchRecord]:
        """Matches, newest first; optionally only (un)finished ones or those of one named player."""
        sql = f"SELECT {MATCH_COLUMNS} FROM matches WHERE 1=1"
        args: list[Any] = []
        if finished is not None:
            sql += " AND finished = ?"
            args.append(int(finished))
        if player_id is not None:
            sql += " AND (player0 = ? OR player1 = ?)"
            args += [player_id, player_id]
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self.database.read() as conn:
            return [match_record(row) for row in conn.execute(sql, args)]

    # -- rows ------------------------------------------------------------------------------

    def record(self, match_id: int, seq: int, step: dict[str, Any], snapshot_text: str, arrival_ns: int,
               boot_id: str, wall_s: float) -> None:
        """Commit one row (a command, with the snapshot after it); returns once it is on disk."""
        self.record_many(match_id, seq, [Entry(step, snapshot_text, arrival_ns, boot_id, wall_s)])

    def record_many(self, match_id: int, first_seq: int, entries: Sequence[Entry], *,
                    outcome: Outcome | None = None, wall_s: float | None = None) -> None:
        """Commit ``entries`` as rows ``first_seq``, ``first_seq + 1``, … in one transaction.

        A command and the automatic passes it caused go together, so a restart never sees one
        without the other. With ``outcome`` the match is finished (and rated) in the same
        transaction. Sequence numbers must continue the match's rows exactly.
        """
        if not entries and outcome is None:
            return
        with self.database.transaction() as conn:
            record = read_match(conn, match_id)
            if record.finished:
                raise StoreUsageError(internal("match {match} is finished: nothing more can be recorded",
                                               match=match_id))
            last = conn.execute("SELECT MAX(seq) FROM entries WHERE match_id = ?", (match_id,)).fetchone()[0] or 0
            if entries and first_seq != last + 1:
                raise StoreUsageError(internal("match {match}: the next row is number {next}, not {seq}",
                                               match=match_id, next=last + 1, seq=first_seq))
            conn.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             [entry_row(match_id, first_seq + i, e) for i, e in enumerate(entries)])
            if outcome is not None:
                self._finish(record, outcome, wall_s)

    def finish(self, match_id: int, outcome: Outcome, *, wall_s: float | None = None) -> None:
        """Mark the match finished with ``outcome`` and rate it when it counts, in one transaction.

        Only the last snapshot is kept (earlier ones are dropped to keep the file small: the steps
        replay every state). Finishing a finished match is refused.
        """
        with self.database.transaction() as conn:
            record = read_match(conn, match_id)
            if record.finished:
                raise StoreUsageError(internal("match {match} is already finished", match=match_id))
            self._finish(record, outcome, wall_s)

    def _finish(self, record: MatchRecord, outcome: Outcome, wall_s: float | None) -> None:
        wall = self._wall(wall_s)
        with self.database.transaction() as conn:  # part of the caller's transaction
            practice = conn.execute("SELECT computer_level IS NOT NULL FROM matches WHERE id = ?",
                                    (record.id,)).fetchone()[0]
            conn.execute(
                "UPDATE matches SET finished = 1, ended_wall = ?, winner = ?, reason = ?, rated = ?, detail = ? "
                "WHERE id = ?",
                (wall, outcome.winner, outcome.reason.value, int(outcome.rated and not practice), outcome.detail,
                 record.id),
            )
            conn.execute(
                "UPDATE entries SET snapshot = NULL WHERE match_id = ? AND seq < "
                "(SELECT MAX(seq) FROM entries WHERE match_id = ?)",
                (record.id, record.id),
            )
            if not practice:  # a practice match is never rated against people
                rate_finished(conn, record.id, record.players, outcome)

    def commands(self, match_id: int) -> list[StoredEntry]:
        """Every row of the match in order, each with ``intact`` telling whether it verified."""
        with self.database.read() as conn:
            read_match(conn, match_id)
            return read_entries(conn, match_id)

    def last_good(self, match_id: int) -> tuple[StoredEntry | None, tuple[int, ...]]:
        """The match's last row that verifies (with its snapshot), and the damaged rows after it."""
        with self.database.read() as conn:
            return _last_good(conn, match_id)

    def unfinished(self) -> ResumePoint | None:
        """The newest unfinished match and its last good row, or None when every match is finished."""
        with self.database.read() as conn:
            row = conn.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE finished = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            record = match_record(row)
            entry, damaged = _last_good(conn, record.id)
        if entry is None:
            return ResumePoint(record, 0, None, None, None, damaged)
        return ResumePoint(record, entry.seq, entry.snapshot, entry.arrival_ns, entry.boot_id, damaged)

    def discard_after(self, match_id: int, seq: int, why: str, *, wall_s: float | None = None) -> int:
        """Move the match's rows after ``seq`` to ``discarded_entries`` (kept for inspection)."""
        wall = self._wall(wall_s)
        with self.database.transaction() as conn:
            conn.execute(
                "INSERT INTO discarded_entries SELECT match_id, seq, step, snapshot, snapshot_sha, arrival_ns, "
                "boot_id, wall, checksum, ?, ? FROM entries WHERE match_id = ? AND seq > ?",
                (wall, why, match_id, seq),
            )
            cursor = conn.execute("DELETE FROM entries WHERE match_id = ? AND seq > ?", (match_id, seq))
            return int(cursor.rowcount)

    # -- audit -----------------------------------------------------------------------------

    def export_scenario(self, match_id: int, *, name: str | None = None) -> dict[str, Any]:
        """``kiosk.store.audit.export_scenario`` for this journal's match."""
        return audit.export_scenario(self, match_id, name=name)

    def replay_states(self, match_id: int) -> Iterator[audit.Replayed]:
        """``kiosk.store.audit.replay_states`` for this journal's match: (step, state after it)."""
        return audit.replay_states(self, match_id)


def _last_good(conn: sqlite3.Connection, match_id: int) -> tuple[StoredEntry | None, tuple[int, ...]]:
    damaged: list[int] = []
    for row in conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE match_id = ? ORDER BY seq DESC", (match_id,)):
        try:
            entry: StoredEntry | None = stored_entry(match_id, row)
        except (TypeError, ValueError):
            entry = None
        if entry is not None and entry.intact and entry.snapshot is not None:
            return entry, tuple(reversed(damaged))
        damaged.append(int(row[0]))
    return None, tuple(reversed(damaged))
