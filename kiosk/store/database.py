"""The kiosk's one SQLite file: the connection, its lock, transactions, migrations, and its faults.

``Database`` is shared by everything in ``kiosk.store`` (journal, players, ratings, recorder,
resume, audit). The file runs in WAL mode with ``synchronous=FULL`` (a commit returns once it is on
disk) and exclusive locking (one writing process; a second kiosk gets a clear error). The one
connection is used by the whole process behind a lock. The schema's version is SQLite's
``PRAGMA user_version``; each migration is a list of SQL statements or a function, run in its own
transaction.

Faults (docs/journal.md, "Faults"): every SQLite or OS error comes out as a store error. At
opening, a write-ahead log with committed frames after a damaged one is repaired
(``files.salvage_wal``), and a file that is not a usable database or fails ``PRAGMA quick_check``
is moved aside and replaced by the newest good backup (``backup.Backups``) or a new file. Later,
a damaged page met by any query raises ``StoreDamaged`` and sets ``damage``; ``recover()`` then
does the same move-aside-and-restore under the same ``Database`` object, so everything holding it
carries on. A file deleted (or replaced) while the kiosk runs is noticed at the next transaction
and written again from the connection that still holds it. ``checkpoint()`` folds the log into the
file and ``backup()`` writes the next rotating backup (the journal does both after each finished
match).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kiosk.i18n import T, Text
from kiosk.store.backup import BACKUPS_KEPT, BackupInfo, Backups, fsync_dir
from kiosk.store.errors import (
    KioskStoreError,
    StoreCorrupt,
    StoreDamaged,
    StoreUnavailable,
    StoreUsageError,
    internal,
)
from kiosk.store.files import copy_database, file_identity, move_aside, salvage_wal
from kiosk.store.lineage import HISTORY_TABLE, Mark, MarkFile, count_commit, read_history, read_mark
from kiosk.store.restore import restore_missing, start_over_message
from kiosk.store.sqlerrors import is_damage, runtime_error, unavailable

__all__ = ["DamagedFile", "Database", "HasDatabase", "LostCommits", "Migration", "Schema", "database_of", "is_damage",
           "runtime_error", "unavailable"]

Migration = Sequence[str] | Callable[[sqlite3.Connection], None]
"""One schema step: SQL statements run in order, or a function given the connection."""


@dataclass(frozen=True, slots=True)
class Schema:
    """What a database file must hold, and how to bring an older file there."""

    migrations: tuple[Migration, ...]
    """``migrations[i]`` takes a file from version ``i`` to ``i + 1``."""
    required_tables: frozenset[str]
    """Tables that must exist once migrated (else the file is damaged)."""
    adopt: Callable[[sqlite3.Connection, frozenset[str]], int | None] | None = None
    """For a file at ``user_version`` 0 that holds tables: its version from before ``user_version``
    was used, or None when the tables are not this program's."""

    @property
    def version(self) -> int:
        """The version this program writes."""
        return len(self.migrations)


class HasDatabase(Protocol):
    """Anything that stores through a ``Database`` (a ``Journal``, for instance)."""

    @property
    def database(self) -> Database:
        """The shared database."""
        ...


class DamagedFile(Exception):
    """The file cannot be used and is to be moved aside; ``reason`` says why (a message value)."""

    def __init__(self, reason: str) -> None:
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True, slots=True)
class LostCommits:
    """Commits acknowledged before the last stop that the file no longer holds (see ``kiosk.store.lineage``)."""

    commits: int
    """How many (at least one)."""
    cause: str
    """``"log"`` (the write-ahead log deleted, cut short or damaged beyond repair) or ``"backup"`` (an older
    backup restored in the journal's place)."""


def database_of(source: Database | HasDatabase) -> Database:
    """``source`` itself when it is a ``Database``, else the database it stores through."""
    return source if isinstance(source, Database) else source.database


class Database:
    """An open database file. Methods are thread-safe; a transaction is on disk once it ends."""

    def __init__(self, conn: sqlite3.Connection, path: Path, schema: Schema, warnings: list[Text], *,
                 wall_clock: Callable[[], float] = time.time, backups: Backups | None = None,
                 check: bool = True) -> None:
        """Use ``Database.open``."""
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.schema = schema
        self.warnings = warnings
        """What happened while opening (a damaged file moved aside, a backup restored, ...)."""
        self.notices: list[Text] = []
        """What happened since (a deleted file written again, ...): ``take_notices()`` empties it."""
        self.damage: str | None = None
        """Set when a query met a damaged page (SQLite's words): ``recover()`` is due."""
        self.generation = 0
        """Counts the times the file under this object changed (recovered, written again)."""
        self.wall_clock = wall_clock
        self.backups = backups if backups is not None else Backups(path)
        self.check = check
        self._identity = file_identity(path)
        self._mark = MarkFile(path)
        self._history: Mark | None = read_history(conn)
        self.lost: LostCommits | None = None
        """What opening found missing: acknowledged commits the file no longer holds (None: nothing)."""
        self._rebuilding: tuple[str, Path] | None = None
        """A recovery whose new file could not be made yet: (why, where the old one went)."""
        self._rewritten: tuple[Path, Path | None] | None = None
        """The copy of a deleted file that could not be put back in place yet, and where a file that
        had taken its place went."""
        self._lock = threading.RLock()
        self._closed = False
        self._depth = 0

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], schema: Schema, *, wall_clock: Callable[[], float] = time.time,
             check: bool = True, keep_backups: int = BACKUPS_KEPT) -> Database:
        """Open (or create) the database at ``path`` and migrate it to ``schema``.

        Before SQLite reads it, a damaged write-ahead log is repaired when it can be (a warning
        says what was recovered or lost). A file that is not a usable database (not SQLite,
        damaged, failing ``PRAGMA quick_check`` when ``check``, tables that are not this
        program's) is renamed ``<name>.corrupt-<UTC time>`` (with its ``-wal`` / ``-shm``) and the
        newest good backup is restored in its place (else a new file is started); a warning says
        which. A folder that cannot be created or written, a full disk, or a file held by another
        process: ``StoreUnavailable``. A file from a newer program: ``StoreCorrupt``, and the file
        is left untouched.
        """
        target = Path(path)
        _ensure_folder(target)
        warnings: list[Text] = []
        backups = Backups(target, keep_backups)
        wall = float(wall_clock())
        mark = read_mark(target)
        restored = restore_missing(target, _backup_tables(schema), wall, backups, mark)
        if restored is not None:
            warnings.append(restored)
        salvaged = salvage_wal(target, wall, _backup_tables(schema))
        if salvaged is not None:
            warnings.append(salvaged[0])
        conn, note = _open_or_start_over(target, schema, wall, backups, check)
        if note is not None:
            warnings.append(note)
        try:
            database = cls(conn, target, schema, warnings, wall_clock=wall_clock, backups=backups, check=check)
        except BaseException:
            conn.close()
            raise
        database._count_losses(mark, backup=restored is not None or note is not None,
                               salvage_lost=salvaged[1] if salvaged is not None else 0)
        return database

    def _count_losses(self, mark: Mark | None, *, backup: bool, salvage_lost: int) -> None:
        """Compare the file with the mark its last run left; say what is missing, then mark the file as it is."""
        now = self._history
        lost = 0
        if mark is not None and now is not None and mark.history == now.history:
            lost = max(0, mark.commits - now.commits)
        lost = max(lost, salvage_lost)
        if lost:
            self.lost = LostCommits(lost, "backup" if backup else "log")
            if not backup and not salvage_lost:  # nothing else said it: a log deleted or cut short
                self.warnings.append(T(
                    "The match journal holds less than the kiosk had saved before it stopped (its write-ahead log "
                    "was deleted, cut short or damaged): the last commits are lost (commits lost: {commits}).",
                    commits=lost))
        if now is not None:
            self._mark.write(now)

    # -- use -------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        """The file's schema version (``PRAGMA user_version``; ``schema.version`` once open)."""
        with self.read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    @property
    def connection(self) -> sqlite3.Connection:
        """The connection itself, for tests and tools that inspect the file (``read`` and
        ``transaction`` for everything else)."""
        with self._locked() as conn:
            return conn

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection, for reads, with the lock held; SQLite errors become store errors."""
        with self._locked() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside ``BEGIN IMMEDIATE`` … ``COMMIT`` (on disk when the block ends).

        An exception rolls everything back and propagates. A transaction opened inside another
        one (on the same thread) is part of it: the outer one commits or rolls back. Before an
        outer transaction begins, a file deleted or replaced under the kiosk is written again.
        """
        with self._lock:
            if self._depth:
                with self._locked() as conn:
                    self._depth += 1
                    try:
                        yield conn
                    finally:
                        self._depth -= 1
                return
            if not self._closed:
                self._check_file()
            with self._locked() as conn:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as exc:
                    raise self._error(exc) from exc
                self._depth = 1
                history = self._history
                try:
                    yield conn
                    if history is not None:
                        count_commit(conn)
                except BaseException:
                    _rollback(conn)
                    raise
                else:
                    try:
                        conn.execute("COMMIT")
                    except sqlite3.Error as exc:
                        _rollback(conn)
                        raise self._error(exc) from exc
                    if history is not None:
                        self._history = Mark(history.history, history.commits + 1)
                        self._mark.write(self._history)  # after the commit is on disk: never ahead of it
                finally:
                    self._depth = 0

    @contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._closed:
                raise StoreUsageError(internal("the journal is closed"))
            conn = self._conn if self._conn is not None else self._reconnect()
            try:
                yield conn
            except sqlite3.Error as exc:
                raise self._error(exc) from exc

    def _error(self, exc: sqlite3.Error) -> KioskStoreError:
        error = runtime_error(self.path, exc)
        if isinstance(error, StoreDamaged):
            self.damage = str(exc)
        return error

    def notice(self, text: Text) -> None:
        """Add a notice (from any thread)."""
        with self._lock:
            self.notices.append(text)

    def take_notices(self) -> list[Text]:
        """The notices gathered since the last call (and forget them)."""
        with self._lock:
            notices, self.notices = self.notices, []
            return notices

    # -- faults ----------------------------------------------------------------------------

    def recover(self, reason: str | None = None) -> Text:
        """Move the damaged file aside and go on with the newest good backup, or a new file.

        The same object stays in use (everything holding it carries on with the new file).
        Returns the message saying what happened (the same words as at opening). Raises
        ``StoreUnavailable`` when the file cannot be moved aside (the old one is then kept) or the
        new one cannot be written (the next call, or the next use, tries again).
        """
        with self._lock:
            if self._closed:
                raise StoreUsageError(internal("the journal is closed"))
            if self._rebuilding is None:
                why = reason or self.damage or "damaged"
                old, self._conn = self._conn, None
                try:
                    moved = move_aside(self.path, float(self.wall_clock()))  # first: the old connection's
                except StoreUnavailable:                                     # close cannot touch new files
                    self._conn = old
                    raise
                if old is not None:
                    with suppress(sqlite3.Error):
                        old.close()
                self.damage = None
                self._rebuilding = (why, moved)
            return self._finish_rebuild()

    def _finish_rebuild(self) -> Text:
        assert self._rebuilding is not None
        why, moved = self._rebuilding
        conn, restored = _rebuild(self.path, self.schema, float(self.wall_clock()), self.backups)
        self._rebuilding = None
        self._adopt(conn)
        return start_over_message(self.path, why, moved, restored)

    def _adopt(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._identity = file_identity(self.path)
        self._history = read_history(conn)
        if self._history is not None:
            self._mark.write(self._history)
        self.generation += 1

    @property
    def history(self) -> Mark | None:
        """The file's history id and the commits it holds (None for a schema without them)."""
        with self._lock:
            return self._history

    def _reconnect(self) -> sqlite3.Connection:
        """Open the file again after a recovery or a rewrite that could not finish (no connection)."""
        if self._rewritten is not None:
            self._put_back()
        if self._rebuilding is not None:
            self.notices.append(self._finish_rebuild())
        else:
            conn, note = _open_or_start_over(self.path, self.schema, float(self.wall_clock()), self.backups,
                                             self.check)
            if note is not None:
                self.notices.append(note)
            self._adopt(conn)
        assert self._conn is not None
        return self._conn

    def _check_file(self) -> None:
        """Write the file again from the open connection when it was deleted or replaced."""
        if self._conn is None:
            return
        identity = file_identity(self.path)
        if identity == self._identity:
            return
        wall = float(self.wall_clock())
        fresh = self.path.with_name(f"{self.path.name}.rewrite")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            copy_database(self._conn, fresh)
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        except OSError as exc:
            raise self._not_written_again(exc) from exc
        moved = None
        if identity is not None:  # another file took its place: set it aside, its own -wal stays
            moved = move_aside(self.path, wall, kind="replaced", sidecars=False)
        old, self._conn = self._conn, None
        with suppress(sqlite3.Error):
            old.close()  # removes the old -wal by name: before the new file exists
        self._rewritten = (fresh, moved)
        self._put_back()
        try:
            self._adopt(_connect(self.path, self.schema, check=False))
        except DamagedFile as damage:
            self.damage = str(damage.reason)
            raise StoreDamaged(T("The match journal {path} is damaged: {error}", path=str(self.path),
                                 error=str(damage.reason)), why=T("the journal is damaged ({error})",
                                                                  error=str(damage.reason))) from damage

    def _not_written_again(self, exc: OSError) -> StoreUnavailable:
        """The error for a deleted file whose copy cannot be put back in its place."""
        error = str(exc.strerror or exc)
        return StoreUnavailable(T(
            "The match journal {path} was deleted while the kiosk was running and cannot be written again "
            "({error}). Matches will not survive a restart.", path=str(self.path), error=error),
            why=T("it was deleted and cannot be written again ({error})", error=error))

    def _put_back(self) -> None:
        """Move the copy of a deleted file into its place and say so (kept for the next try on failure)."""
        assert self._rewritten is not None
        fresh, moved = self._rewritten
        try:
            os.replace(fresh, self.path)
            fsync_dir(self.path.parent)
        except OSError as exc:
            raise self._not_written_again(exc) from exc
        self._rewritten = None
        name = self.path.name
        if moved is None:
            self.notices.append(T("The match journal {name} was deleted while the kiosk was running; it was written "
                                  "again from the copy the kiosk still had open, so nothing was lost.", name=name))
        else:
            self.notices.append(T("The match journal {name} was replaced by another file while the kiosk was running; "
                                  "that file was moved aside to {moved} and the journal was written again from the "
                                  "copy the kiosk still had open.", name=name, moved=moved.name))

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the file and empty it (``PRAGMA wal_checkpoint(TRUNCATE)``)."""
        with self._locked() as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def backup(self, wall_s: float | None = None) -> Path:
        """Write the newest rotating backup (``<name>.backup-1``; see ``kiosk.store.backup``)."""
        wall = float(self.wall_clock()) if wall_s is None else float(wall_s)
        with self._locked() as conn:
            try:
                return self.backups.write(conn, wall, None if self._history is None else self._history.history)
            except OSError as exc:
                error = str(exc.strerror or exc)
                raise StoreUnavailable(T("The backup of the match journal could not be written ({error}).",
                                         error=error), why=T("the backup cannot be written ({error})", error=error)
                                       ) from exc

    def close(self) -> None:
        """Close the file (a checkpoint folds the write-ahead log back into it)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                if self._conn is not None:
                    with suppress(sqlite3.Error):
                        self._conn.close()

    @property
    def closed(self) -> bool:
        """True once ``close`` was called."""
        return self._closed

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- opening ---------------------------------------------------------------------------------------


def _ensure_folder(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        error = str(exc.strerror or exc)
        raise StoreUnavailable(T(
            "The match journal cannot be kept: the folder {folder} cannot be created ({error}). "
            "Matches will not survive a restart.", folder=str(target.parent), error=error),
            why=T("the folder {folder} cannot be created ({error})", folder=str(target.parent), error=error)) from exc
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise StoreUnavailable(T(
            "The match journal cannot be kept: the folder {folder} is read-only. Matches will not survive a restart.",
            folder=str(target.parent)), why=T("the folder {folder} is read-only", folder=str(target.parent)))


def _open_or_start_over(target: Path, schema: Schema, wall: float, backups: Backups,
                        check: bool) -> tuple[sqlite3.Connection, Text | None]:
    try:
        return _connect(target, schema, check), None
    except DamagedFile as damage:
        moved = move_aside(target, wall)
        conn, restored = _rebuild(target, schema, wall, backups)
        return conn, start_over_message(target, damage.reason, moved, restored)


def _rebuild(target: Path, schema: Schema, wall: float, backups: Backups
             ) -> tuple[sqlite3.Connection, BackupInfo | None]:
    """A connection to ``target`` (moved aside already): the newest good backup, else a new file."""
    backup = backups.newest_good(_backup_tables(schema))
    if backup is not None:
        try:
            backups.restore(backup, target)
        except OSError as exc:
            error = str(exc.strerror or exc)
            raise StoreUnavailable(T("The match journal {path} cannot be used: {why}. Matches will not survive a "
                                     "restart.", path=str(target), why=error),
                                   why=T("its backup cannot be restored ({error})", error=error)) from exc
        try:
            return _connect(target, schema, check=False), backup
        except DamagedFile:
            move_aside(target, wall)
    try:
        return _connect(target, schema, check=False), None
    except DamagedFile as again:
        raise StoreCorrupt(T("A new match journal could not be started at {path}: {error}",
                             path=str(target), error=again.reason)) from again


def _backup_tables(schema: Schema) -> frozenset[str]:
    """The tables a backup (or a file before its migrations) must hold: ``history`` came with version 4."""
    return schema.required_tables - {HISTORY_TABLE}


def _connect(path: Path, schema: Schema, check: bool) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0.2)
    except sqlite3.Error as exc:
        raise unavailable(path, exc) from exc
    conn.text_factory = _text
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreUnavailable(T(
                "The match journal {path} cannot use write-ahead logging (mode {mode}): is the folder read-only?",
                path=str(path), mode=repr(mode)), why=T("it is read-only"))
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if check:
            found = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
            if found != ["ok"]:
                raise DamagedFile(T("its integrity check failed: {detail}", detail=_first_problem(found)))
        _migrate(conn, path, schema)
        return conn
    except sqlite3.Error as exc:
        conn.close()
        if is_damage(exc):
            raise DamagedFile(str(exc)) from exc
        raise unavailable(path, exc) from exc
    except BaseException:
        conn.close()
        raise


def _migrate(conn: sqlite3.Connection, path: Path, schema: Schema) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    tables = _tables(conn)
    if version == 0 and tables:
        adopted = schema.adopt(conn, tables) if schema.adopt is not None else None
        if adopted is None:
            raise DamagedFile(T("it holds tables ({tables}) but no schema version", tables=", ".join(sorted(tables))))
        version = adopted
    if version > schema.version:
        raise StoreCorrupt(T(
            "The match journal {path} was written by a newer kiosk (schema {version}, this program knows {known}); "
            "it is left untouched.", path=str(path), version=version, known=schema.version),
            why=T("it was written by a newer kiosk"))
    for reached in range(version + 1, schema.version + 1):
        step = schema.migrations[reached - 1]
        conn.execute("BEGIN IMMEDIATE")
        try:
            if callable(step):
                step(conn)
            else:
                for statement in step:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {int(reached)}")
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
    missing = schema.required_tables - _tables(conn)
    if missing:
        raise DamagedFile(T("tables are missing: {tables}", tables=", ".join(sorted(missing))))


def _first_problem(found: list[str]) -> str:
    """The first line of ``PRAGMA quick_check``'s report that names a problem (shortened)."""
    lines = [line for text in found for line in text.splitlines() if line and not line.startswith("***")]
    first = lines[0] if lines else "?"
    return first if len(first) <= 120 else first[:117] + "..."


def _tables(conn: sqlite3.Connection) -> frozenset[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return frozenset(str(row[0]) for row in rows)


def _rollback(conn: sqlite3.Connection) -> None:
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


# -- the file --------------------------------------------------------------------------------------


def _text(raw: bytes) -> str:
    """Stored text; bytes that are not UTF-8 (a damaged page) survive as escapes and fail their checks."""
    return raw.decode("utf-8", "surrogateescape")
