"""The kiosk's one SQLite file: the connection, its lock, transactions and schema migrations.

``Database`` is shared by everything in ``kiosk.store`` (journal, players, ratings, recorder,
resume, audit). The file runs in WAL mode with ``synchronous=FULL`` (a commit returns once it is on
disk) and exclusive locking (one writing process; a second kiosk gets a clear error). The one
connection is used by the whole process behind a lock. The schema's version is SQLite's
``PRAGMA user_version``; each migration is a list of SQL statements or a function, run in its own
transaction. A file that is not a usable database is moved aside and a new one started.
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
from kiosk.store.errors import KioskStoreError, StoreCorrupt, StoreUnavailable, StoreUsageError, internal

Migration = Sequence[str] | Callable[[sqlite3.Connection], None]
"""One schema step: SQL statements run in order, or a function given the connection."""

_DAMAGED_CODES = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite error names (prefixes) that mean the file itself is damaged: moved aside."""


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


def database_of(source: Database | HasDatabase) -> Database:
    """``source`` itself when it is a ``Database``, else the database it stores through."""
    return source if isinstance(source, Database) else source.database


class Database:
    """An open database file. Methods are thread-safe; a transaction is on disk once it ends."""

    def __init__(self, conn: sqlite3.Connection, path: Path, schema: Schema, warnings: list[Text]) -> None:
        """Use ``Database.open``."""
        self._conn = conn
        self.path = path
        self.schema = schema
        self.warnings = warnings
        """What happened while opening (a damaged file moved aside, ...), as message values."""
        self._lock = threading.RLock()
        self._closed = False
        self._depth = 0

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], schema: Schema, *,
             wall_clock: Callable[[], float] = time.time) -> Database:
        """Open (or create) the database at ``path`` and migrate it to ``schema``.

        A file that is not a usable database (not SQLite, damaged, tables that are not this
        program's) is renamed ``<name>.corrupt-<UTC time>`` (with its ``-wal`` / ``-shm``), a
        warning is added to ``warnings`` and a new file is started. A folder that cannot be created
        or written, or a file held by another process: ``StoreUnavailable``. A file from a newer
        program: ``StoreCorrupt``, and the file is left untouched.
        """
        target = Path(path)
        warnings: list[Text] = []
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(T(
                "The match journal cannot be kept: the folder {folder} cannot be created ({error}). "
                "Matches will not survive a restart.",
                folder=str(target.parent), error=str(exc.strerror or exc))) from exc
        if not os.access(target.parent, os.W_OK | os.X_OK):
            raise StoreUnavailable(T(
                "The match journal cannot be kept: the folder {folder} is read-only. Matches will not survive a restart.",
                folder=str(target.parent)))
        try:
            return cls._connect(target, schema, warnings)
        except DamagedFile as damage:
            moved = _move_aside(target, float(wall_clock()))
            warnings.append(T(
                "The match journal {name} could not be read ({reason}); it was moved aside to {moved} and a new journal "
                "was started.", name=target.name, reason=damage.reason, moved=moved.name))
            try:
                return cls._connect(target, schema, warnings)
            except DamagedFile as again:
                raise StoreCorrupt(T("A new match journal could not be started at {path}: {error}",
                                     path=str(target), error=again.reason)) from again

    @classmethod
    def _connect(cls, path: Path, schema: Schema, warnings: list[Text]) -> Database:
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
                    path=str(path), mode=repr(mode)))
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            database = cls(conn, path, schema, warnings)
            database._migrate()
            return database
        except sqlite3.Error as exc:
            conn.close()
            if is_damage(exc):
                raise DamagedFile(str(exc)) from exc
            raise unavailable(path, exc) from exc
        except BaseException:
            conn.close()
            raise

    def _migrate(self) -> None:
        conn = self._conn
        schema = self.schema
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = self._tables()
        if version == 0 and tables:
            adopted = schema.adopt(conn, tables) if schema.adopt is not None else None
            if adopted is None:
                raise DamagedFile(T("it holds tables ({tables}) but no schema version", tables=", ".join(sorted(tables))))
            version = adopted
        if version > schema.version:
            raise StoreCorrupt(T(
                "The match journal {path} was written by a newer kiosk (schema {version}, this program knows {known}); "
                "it is left untouched.", path=str(self.path), version=version, known=schema.version))
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
        missing = schema.required_tables - self._tables()
        if missing:
            raise DamagedFile(T("tables are missing: {tables}", tables=", ".join(sorted(missing))))

    def _tables(self) -> frozenset[str]:
        rows = self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return frozenset(str(row[0]) for row in rows)

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
        return self._conn

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection, for reads, with the lock held; SQLite errors become store errors."""
        with self._locked() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside ``BEGIN IMMEDIATE`` … ``COMMIT`` (on disk when the block ends).

        An exception rolls everything back and propagates. A transaction opened inside another
        one (on the same thread) is part of it: the outer one commits or rolls back.
        """
        with self._locked() as conn:
            if self._depth:
                self._depth += 1
                try:
                    yield conn
                finally:
                    self._depth -= 1
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise runtime_error(self.path, exc) from exc
            self._depth = 1
            try:
                yield conn
            except BaseException:
                _rollback(conn)
                raise
            else:
                try:
                    conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    _rollback(conn)
                    raise runtime_error(self.path, exc) from exc
            finally:
                self._depth = 0

    @contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._closed:
                raise StoreUsageError(internal("the journal is closed"))
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise runtime_error(self.path, exc) from exc

    def close(self) -> None:
        """Close the file (a checkpoint folds the write-ahead log back into it)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    @property
    def closed(self) -> bool:
        """True once ``close`` was called."""
        return self._closed

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- errors ----------------------------------------------------------------------------------------


def _error_name(exc: sqlite3.Error) -> str:
    return str(getattr(exc, "sqlite_errorname", "") or "")


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether a SQLite error means the file itself is damaged."""
    if _error_name(exc).startswith(_DAMAGED_CODES):
        return True
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def runtime_error(path: Path, exc: sqlite3.Error) -> KioskStoreError:
    """The store error for a SQLite error met while the file is in use."""
    if isinstance(exc, sqlite3.IntegrityError):
        return StoreUsageError(internal("The match journal refused a row: {error}", error=str(exc)))
    if is_damage(exc):
        return StoreCorrupt(T("The match journal {path} is damaged: {error}", path=str(path), error=str(exc)))
    return unavailable(path, exc)


def unavailable(path: Path, exc: sqlite3.Error) -> StoreUnavailable:
    """``StoreUnavailable`` for a SQLite error that keeps the file from being used."""
    name = _error_name(exc)
    why: str
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        why = T("it is in use by another kiosk process")
    elif name.startswith("SQLITE_READONLY"):
        why = T("it is read-only")
    elif name.startswith("SQLITE_FULL"):
        why = T("the disk is full")
    elif name.startswith("SQLITE_CANTOPEN"):
        why = T("the file cannot be opened (is the folder read-only?)")
    else:
        why = str(exc)
    return StoreUnavailable(T("The match journal {path} cannot be used: {why}. Matches will not survive a restart.",
                              path=str(path), why=why))


def _rollback(conn: sqlite3.Connection) -> None:
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


# -- the file --------------------------------------------------------------------------------------


def _text(raw: bytes) -> str:
    """Stored text; bytes that are not UTF-8 (a damaged page) survive as escapes and fail their checks."""
    return raw.decode("utf-8", "surrogateescape")


def _timestamp(wall_s: float) -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(wall_s))


def _move_aside(path: Path, wall_s: float) -> Path:
    stamp = _timestamp(wall_s)
    n = 0
    while True:
        target = path.with_name(f"{path.name}.corrupt-{stamp}" + (f"-{n}" if n else ""))
        if not target.exists():
            break
        n += 1
    try:
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        path.rename(target)
    except OSError as exc:
        raise StoreUnavailable(T(
            "The match journal {path} is damaged and cannot be moved aside ({error}). "
            "Matches will not survive a restart.", path=str(path), error=str(exc.strerror or exc))) from exc
    return target
