"""The database file on disk: moving it aside, noticing it was deleted, salvaging a damaged WAL.

Functions of the file itself (no ``Database``): ``move_aside`` (a damaged file and its ``-wal`` /
``-shm`` renamed ``<name>.corrupt-<UTC time>``), ``file_identity`` (device and inode, to notice a
deleted or replaced file), ``copy_database`` (a whole copy through SQLite's backup API, from an open
connection), ``salvage_wal`` (a write-ahead log with committed frames after a damaged one, repaired
or at least reported, see ``kiosk.store.wal``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from contextlib import closing, suppress
from pathlib import Path

from kiosk.i18n import T, Text
from kiosk.store.backup import fsync_dir, fsync_file
from kiosk.store.errors import StoreUnavailable
from kiosk.store.wal import inspect_wal, repair_bytes

SIDECARS = ("-wal", "-shm")
"""SQLite's files beside the database in WAL mode."""


def sidecar(path: Path, suffix: str) -> Path:
    """``path`` with ``suffix`` added to its name (``journal.sqlite3-wal``)."""
    return path.with_name(path.name + suffix)


def timestamp(wall_s: float) -> str:
    """A UTC time for file names (``20261130T140200``)."""
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(wall_s))


def remove(path: Path) -> None:
    """Delete ``path`` if it is there."""
    with suppress(FileNotFoundError):
        path.unlink()


def free_name(path: Path, kind: str, wall_s: float) -> Path:
    """``<name>.<kind>-<UTC time>`` beside ``path`` (``-1``, ``-2`` … added when taken)."""
    stamp = timestamp(wall_s)
    n = 0
    while True:
        target = path.with_name(f"{path.name}.{kind}-{stamp}" + (f"-{n}" if n else ""))
        if not target.exists() and not any(sidecar(target, s).exists() for s in SIDECARS):
            return target
        n += 1


def move_aside(path: Path, wall_s: float, *, kind: str = "corrupt", sidecars: bool = True) -> Path:
    """Rename ``path`` (and its ``-wal`` / ``-shm`` when ``sidecars``) to ``<name>.<kind>-<time>``.

    ``StoreUnavailable`` when the rename is refused (a read-only folder).
    """
    target = free_name(path, kind, wall_s)
    try:
        if sidecars:
            for suffix in SIDECARS:
                side = sidecar(path, suffix)
                if side.exists():
                    side.rename(sidecar(target, suffix))
        if path.exists():
            path.rename(target)
    except OSError as exc:
        why = T("it cannot be moved aside ({error})", error=str(exc.strerror or exc))
        raise StoreUnavailable(T(
            "The match journal {path} is damaged and cannot be moved aside ({error}). "
            "Matches will not survive a restart.", path=str(path), error=str(exc.strerror or exc)), why=why) from exc
    return target


def file_identity(path: Path) -> tuple[int, int] | None:
    """``(device, inode)`` of the file at ``path``, None when there is none.

    The open connection holds its file, so its inode cannot be reused while the kiosk runs: a
    different identity means the file was deleted (or replaced) under the kiosk.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreUnavailable(T("The match journal {path} cannot be used: {why}. Matches will not survive a restart.",
                                 path=str(path), why=str(exc.strerror or exc)),
                               why=T("the storage cannot be read ({error})", error=str(exc.strerror or exc))) from exc
    return st.st_dev, st.st_ino


def copy_database(source: sqlite3.Connection, target: Path) -> None:
    """A whole copy of ``source``'s database (WAL included) at ``target``, one file, on disk.

    Raises ``sqlite3.Error`` or ``OSError``; a partial ``target`` is removed.
    """
    remove(target)
    try:
        with closing(sqlite3.connect(target, isolation_level=None)) as dest:
            source.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")
        fsync_file(target)
    except BaseException:
        remove(target)
        raise


def salvage_wal(path: Path, wall_s: float, required: frozenset[str]) -> tuple[Text, int] | None:
    """Before SQLite opens ``path``: repair its write-ahead log when SQLite would drop committed frames.

    Returns None when the log is whole (or only its unfinished tail is torn: SQLite drops that
    transaction, which was never acknowledged). Otherwise a repaired copy of the database is tried
    (``wal.repair_bytes``, then ``PRAGMA quick_check`` and the schema's tables); when it passes, the
    damaged log is renamed ``<name>.corrupt-<time>-wal`` and the repaired file takes the journal's
    place. When it does not, a copy of the damaged log is kept under that name and SQLite's own
    reading of the log (everything before the damage) is folded into the file at once, so that no
    damaged log is left for SQLite to append to. The message says what was recovered, or what is
    lost, with the commits lost (0 when all were recovered). ``StoreUnavailable`` when the copies
    cannot be written (nothing is then changed).
    """
    wal = sidecar(path, "-wal")
    try:
        report = inspect_wal(wal)
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    if report is None or not report.damaged or not path.exists():
        return None
    frame = (report.damaged_frame or 0) + 1
    kept = sidecar(free_name(path, "corrupt", wall_s), "-wal")
    trial = path.with_name(f"{path.name}.repair")
    trial_files = (trial, *(sidecar(trial, s) for s in SIDECARS))
    try:
        raw = wal.read_bytes()
        for leftover in trial_files:
            remove(leftover)
        shutil.copyfile(path, trial)
        sidecar(trial, "-wal").write_bytes(repair_bytes(raw, report))
    except OSError as exc:
        for leftover in trial_files:
            remove(leftover)
        raise _unwritable(path, exc) from exc
    repaired = _repaired(trial, required)
    try:
        if repaired:
            os.replace(wal, kept)  # first: the repaired file must never meet the old log
            remove(sidecar(path, "-shm"))
            os.replace(trial, path)
            fsync_dir(path.parent)
        else:
            for leftover in trial_files:
                remove(leftover)
            shutil.copyfile(wal, kept)
            fsync_file(kept)
            with suppress(sqlite3.Error):  # a file SQLite cannot read either: opening moves it aside
                _fold(path)
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    if repaired:
        return T("Part of the match journal's write-ahead log was damaged (frame {frame}); the commits after the "
                 "damage were recovered (commits recovered: {commits}) and the file passed its integrity check. "
                 "A copy of the damaged log was kept as {copy}.", frame=frame, commits=report.lost_commits,
                 copy=kept.name), 0
    return T("Part of the match journal's write-ahead log was damaged (frame {frame}); the commits after the "
             "damage could not be recovered and are lost (commits lost: {commits}). A copy of the damaged log was "
             "kept as {copy}.", frame=frame, commits=report.lost_commits, copy=kept.name), report.lost_commits


def _fold(path: Path) -> None:
    """Let SQLite read the log as it does (up to the damage) and fold that into the file, emptying it."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _repaired(trial: Path, required: frozenset[str]) -> bool:
    """Open the repaired copy, check it, and fold its log into it (True when it passed)."""
    try:
        with closing(sqlite3.connect(trial, isolation_level=None)) as conn:
            if [row[0] for row in conn.execute("PRAGMA quick_check")] != ["ok"]:
                return False
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not required <= tables:
                return False
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA journal_mode=DELETE")
        fsync_file(trial)
    except (sqlite3.Error, OSError):
        return False
    return True


def _unwritable(path: Path, exc: OSError) -> StoreUnavailable:
    error = str(exc.strerror or exc)
    return StoreUnavailable(T(
        "The match journal {path} has a damaged write-ahead log that cannot be set aside ({error}). "
        "Matches will not survive a restart.", path=str(path), error=error),
        why=T("its damaged write-ahead log cannot be set aside ({error})", error=error))
