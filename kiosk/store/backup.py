"""Rotating backups of the database file: written after each finished match, restored when it is damaged.

``<name>.backup-1`` is the newest, ``-2`` and ``-3`` older ones (``keep`` of them). A backup is a
whole copy made with SQLite's online backup API from the open connection (so it holds everything
committed, the write-ahead log included), stored as a plain rollback-journal database (one file),
written to ``<name>.backup-new`` and fsynced before the older ones move down and it becomes
``-1``: a crash at any moment leaves the older backups whole. Its modification time is set to the
wall time it was made (the kiosk's injected clock), which the restore message reports.

Restoring picks the newest backup that opens, passes ``PRAGMA quick_check`` and holds the schema's
tables, and copies it into place.

Each backup holds its journal's history id (``kiosk.store.lineage``). Before a journal's backup
rotates the slots, the backups of another history found in them (a journal started afresh beside
the old one's backups) are renamed ``<name>.history-<id>.backup-<n>``: kept beside, never rotated
away, and still found by a restore.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Iterable
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path

from kiosk.store.lineage import history_of

BACKUPS_KEPT = 3
"""How many backups are kept."""


@dataclass(frozen=True, slots=True)
class BackupInfo:
    """A usable backup: where it is, when it was made, what it holds."""

    path: Path
    wall_s: float
    """When it was written (wall time, seconds: the file's modification time)."""
    players: int
    matches: int

    @property
    def when(self) -> str:
        """``wall_s`` as the messages write it (UTC: "2026-11-30 14:02 UTC")."""
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.wall_s))


class Backups:
    """The rotating backups of the database at ``path``."""

    def __init__(self, path: Path, keep: int = BACKUPS_KEPT) -> None:
        self.path = path
        self.keep = keep

    def slot(self, n: int) -> Path:
        """Backup number ``n`` (1: the newest)."""
        return self.path.with_name(f"{self.path.name}.backup-{n}")

    def files(self) -> list[Path]:
        """The backups that exist, newest first."""
        return [p for p in (self.slot(n) for n in range(1, self.keep + 1)) if p.exists()]

    def set_aside(self) -> list[Path]:
        """The backups of other histories kept beside the slots, newest first."""
        found = self.path.parent.glob(f"{self.path.name}.history-*.backup-*")
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)

    def _keep_other_histories(self, history: str) -> None:
        """Rename the slots holding another history's backups out of the rotation's way."""
        for n in range(1, self.keep + 1):
            slot = self.slot(n)
            if not slot.exists():
                continue
            theirs = history_of(slot)
            if theirs is None or theirs == history:
                continue  # the same history, or one from before history ids (taken as this journal's)
            target = self.path.with_name(f"{self.path.name}.history-{theirs[:12]}.backup-{n}")
            k = 1
            while target.exists():
                k += 1
                target = self.path.with_name(f"{self.path.name}.history-{theirs[:12]}.backup-{n}-{k}")
            os.replace(slot, target)

    def write(self, source: sqlite3.Connection, wall_s: float, history: str | None = None) -> Path:
        """Copy the database behind ``source`` into a new newest backup; the oldest one goes.

        ``history``: the journal's history id; backups of another history in the slots are set
        aside first, never rotated away. Raises ``sqlite3.Error`` or ``OSError`` (the caller turns
        them into store errors); the existing backups are untouched until the new one is whole on disk.
        """
        fresh = self.path.with_name(f"{self.path.name}.backup-new")
        _remove(fresh)
        try:
            with closing(sqlite3.connect(fresh, isolation_level=None)) as dest:
                source.backup(dest)
                dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            fsync_file(fresh)
            os.utime(fresh, (wall_s, wall_s))
        except BaseException:
            _remove(fresh)
            raise
        if history is not None:
            self._keep_other_histories(history)
        for n in range(self.keep, 1, -1):
            older = self.slot(n - 1)
            if older.exists():
                os.replace(older, self.slot(n))
        os.replace(fresh, self.slot(1))
        fsync_dir(self.path.parent)
        return self.slot(1)

    def newest_good(self, required_tables: Iterable[str], *, prefer: str | None = None) -> BackupInfo | None:
        """The newest backup that opens, passes ``quick_check`` and holds ``required_tables``: the slots
        first, then those set aside; with ``prefer`` (a history id), that history's backups before all."""
        candidates = self.files() + self.set_aside()
        if prefer is not None:
            candidates.sort(key=lambda p: history_of(p) != prefer)  # stable: newest first within each
        for path in candidates:
            info = check_backup(path, frozenset(required_tables))
            if info is not None:
                return info
        return None

    def restore(self, backup: BackupInfo, target: Path) -> None:
        """Copy ``backup`` to ``target`` (whose old file, ``-wal`` and ``-shm`` are gone already)."""
        partial = target.with_name(f"{target.name}.restoring")
        _remove(partial)
        try:
            shutil.copyfile(backup.path, partial)
            fsync_file(partial)
            os.replace(partial, target)
        except BaseException:
            _remove(partial)
            raise
        fsync_dir(target.parent)


def check_backup(path: Path, required: frozenset[str]) -> BackupInfo | None:
    """``path`` as a ``BackupInfo`` when it is a whole database with the required tables, else None."""
    try:
        wall = path.stat().st_mtime
        with closing(sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)) as conn:
            if [row[0] for row in conn.execute("PRAGMA quick_check")] != ["ok"]:
                return None
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not required <= tables:
                return None
            players = int(conn.execute("SELECT COUNT(*) FROM players").fetchone()[0]) if "players" in tables else 0
            matches = int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]) if "matches" in tables else 0
    except (sqlite3.Error, OSError):
        return None
    return BackupInfo(path, wall, players, matches)


def _remove(path: Path) -> None:
    with suppress(FileNotFoundError):
        path.unlink()


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    """Make renames in ``folder`` durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
