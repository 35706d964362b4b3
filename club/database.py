"""The hub's PostgreSQL database: connecting, the connection pool, and the numbered migrations.

Migrations are the files ``club/migrations/NNNN_name.sql``, applied in order at start (``serve``,
``migrate``, ``kiosks add``): each one not yet recorded in ``schema_version`` runs in one transaction
with its row there, so a migration that fails leaves the database as it was. Two hubs starting at once take an
advisory lock; a database from a newer hub is refused, never touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg
from psycopg_pool import ConnectionPool

from club.errors import SchemaError, SetupError

MIGRATION_LOCK = 0x5B1D_0001
"""The advisory lock key held while migrating."""
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The shipped migrations in order of their numbers, each number once. A number may be missing
    (work done in parallel reserves its numbers): ``migrate`` applies whichever is not applied yet."""
    found = []
    for entry in resources.files("club").joinpath("migrations").iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    numbers = [mig.version for mig in found]
    if not numbers or numbers[0] != 1 or len(set(numbers)) != len(numbers):
        raise SchemaError("the hub's migrations must start at 0001 and use each number once")
    return found


SCHEMA_VERSION = migrations()[-1].version
"""The newest migration's number."""


def connect(dsn: str) -> psycopg.Connection[tuple[object, ...]]:
    """One connection to ``dsn``; SetupError saying why when it cannot be had."""
    try:
        return psycopg.connect(dsn, connect_timeout=10)
    except (psycopg.Error, ValueError) as exc:
        raise SetupError(f"cannot connect to the database: {_first_line(exc)}") from exc


def schema_version(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    """The database's schema version (0: no hub tables yet)."""
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if row is None or not row[0]:
        return 0
    got = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(got[0]) if got is not None and isinstance(got[0], int) else 0


def migrate(dsn: str) -> tuple[int, int]:
    """Bring the database at ``dsn`` to this hub's schema; returns (version before, version after)."""
    with connect(dsn) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                         " version integer PRIMARY KEY, name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())")
            conn.commit()
            before = schema_version(conn)
            if before > SCHEMA_VERSION:
                raise SchemaError(f"the database's schema version is {before}, newer than this hub's "
                                  f"({SCHEMA_VERSION}); it was left untouched")
            applied = {int(str(v)) for (v,) in conn.execute("SELECT version FROM schema_version").fetchall()}
            for mig in (m for m in migrations() if m.version not in applied):
                try:
                    with conn.transaction():
                        conn.execute(mig.sql.encode("utf-8"))
                        conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                                     (mig.version, mig.name))
                except psycopg.Error as exc:
                    raise SchemaError(f"migration {mig.version:04d} ({mig.name}) failed and was rolled back: "
                                      f"{_first_line(exc)}") from exc
            conn.commit()
            return before, schema_version(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
            conn.commit()


def open_pool(dsn: str, *, min_size: int = 1, max_size: int = 8, timeout_s: float = 10.0) -> ConnectionPool:
    """An open connection pool on ``dsn`` (migrated first); SetupError when it cannot connect."""
    migrate(dsn)
    # each connection is checked when taken (one round trip), so a PostgreSQL restart costs no request
    pool = ConnectionPool(dsn, min_size=min_size, max_size=max_size, timeout=timeout_s, open=False,
                          kwargs={"connect_timeout": 10}, check=ConnectionPool.check_connection)
    pool.open(wait=True, timeout=timeout_s)
    return pool


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
