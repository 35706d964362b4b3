"""The rows of finished matches checked at start-up against their own checksums, and repaired from a backup.

``PRAGMA quick_check`` sees the structure of the file, not what its rows hold: a byte flipped inside
an ``entries`` row (bit rot on a card) passes it. Each row carries a SHA-256 over everything it
holds (``records.checksum``), so at start-up every row of every finished match is verified; a row
that fails is replaced by the same row from the newest backup where it verifies (a backup is a
whole copy, written after each finished match), and what could not be repaired is reported. The
match in progress is not touched here: its damaged last rows are set aside at resume as before.

A journal of up to ``SYNC_ROWS`` rows is checked while it is opened (its report is one of the
opening's warnings); a larger one in a background thread that takes the database's lock for one
match at a time, so commits go on meanwhile (its report is a notice, ``Database.take_notices``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.i18n import T, Text
from kiosk.store.backup import BackupInfo, check_backup
from kiosk.store.database import Database
from kiosk.store.errors import KioskStoreError
from kiosk.store.lineage import history_of
from kiosk.store.records import ENTRY_COLUMNS, stored_entry

SYNC_ROWS = 5000
"""Up to this many rows the check runs while the journal is opened; above, in the background."""


@dataclass(frozen=True, slots=True)
class RowCheck:
    """What the check found: rows checked, damaged, repaired (from which backup), and those left damaged."""

    checked: int
    damaged: tuple[tuple[int, int], ...]
    repaired: tuple[tuple[int, int], ...]
    backup: BackupInfo | None


def damaged_rows(database: Database) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(rows checked, the finished matches' rows that fail their checksums as (match, seq))."""
    found: list[tuple[int, int]] = []
    checked = 0
    with database.read() as conn:
        matches = [int(r[0]) for r in conn.execute("SELECT id FROM matches WHERE finished = 1 ORDER BY id")]
    for match_id in matches:  # the lock one match at a time: commits go on between them
        if database.closed:
            break
        with database.read() as conn:
            rows = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE match_id = ?", (match_id,)).fetchall()
        for row in rows:
            checked += 1
            try:
                intact = stored_entry(match_id, row).intact
            except (TypeError, ValueError):
                intact = False
            if not intact:
                found.append((match_id, int(row[0])))
    return checked, tuple(found)


def start(database: Database) -> threading.Thread | None:
    """Check the finished matches' rows now (a small journal: the report joins ``database.warnings``)
    or in a background thread (returned; its report joins ``database.notices``). Never raises: a
    damaged page met on the way is left to the keeper's repair (``database.damage``)."""
    try:
        with database.read() as conn:
            rows = int(conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
    except KioskStoreError:
        return None
    if rows <= SYNC_ROWS:
        _run(database, database.warnings.append)
        return None
    thread = threading.Thread(target=_run, args=(database, database.notice), name="journal-row-check",
                              daemon=True)
    thread.start()
    return thread


def _run(database: Database, say: Callable[[Text], None]) -> None:
    try:
        found = report(check_rows(database))
    except KioskStoreError:
        return
    if found is not None:
        say(found)


def check_rows(database: Database) -> RowCheck:
    """Verify every row of the finished matches and repair the damaged ones from the backups."""
    checked, damaged = damaged_rows(database)
    if not damaged:
        return RowCheck(checked, (), (), None)
    mine = database.history.history if database.history is not None else None
    left = set(damaged)
    used: BackupInfo | None = None
    for path in database.backups.files() + database.backups.set_aside():
        if not left:
            break
        theirs = history_of(path)
        if mine is not None and theirs is not None and theirs != mine:
            continue
        info = check_backup(path, frozenset({"entries"}))
        if info is None:
            continue
        good = _good_rows(path, sorted(left))
        if good:
            with database.transaction() as conn:
                for (match_id, seq), values in good.items():
                    conn.execute(f"UPDATE entries SET ({ENTRY_COLUMNS}) = ({', '.join('?' * 8)}) "
                                 "WHERE match_id = ? AND seq = ?", (*values, match_id, seq))
            left -= set(good)
            used = used or info
    repaired = tuple(k for k in damaged if k not in left)
    return RowCheck(checked, damaged, repaired, used)


def _good_rows(path: Any, wanted: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[Any, ...]]:
    """The rows of ``wanted`` that verify in the backup at ``path``, by (match, seq)."""
    found: dict[tuple[int, int], tuple[Any, ...]] = {}
    try:
        with closing(sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)) as conn:
            conn.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
            for match_id, seq in wanted:
                row = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries WHERE match_id = ? AND seq = ?",
                                   (match_id, seq)).fetchone()
                if row is not None and stored_entry(match_id, row).intact:
                    found[(match_id, seq)] = tuple(row)
    except sqlite3.Error:
        return found
    return found


def report(check: RowCheck) -> Text | None:
    """What to tell the owner, None when every row verified."""
    if not check.damaged:
        return None
    left = [k for k in check.damaged if k not in check.repaired]
    if not left:
        assert check.backup is not None
        return T("Rows of finished matches in the match journal were damaged (rows damaged: {rows}); they were "
                 "repaired from the backup of {when}.", rows=len(check.damaged), when=check.backup.when)
    matches = ", ".join(str(m) for m in sorted({m for m, _ in left}))
    return T("Rows of finished matches in the match journal were damaged (rows damaged: {rows}, repaired from a "
             "backup: {repaired}); the others could not be repaired and those matches cannot be replayed (matches: "
             "{matches}).", rows=len(check.damaged), repaired=len(check.repaired), matches=matches)
