"""The hub's package and schema: no pygame, numbered migrations applied once, a newer schema refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from club.database import SCHEMA_VERSION, migrate, migrations
from club.errors import SchemaError, SetupError

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_hub_and_every_module_of_it_does_not_import_pygame() -> None:
    modules = sorted(f"club.{p.stem}" for p in (ROOT / "club").glob("*.py") if p.stem != "__main__")
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "bad = [m for m in sys.modules if m == 'pygame' or m.startswith('pygame.')]\n"
            "print(len(sys.modules)); assert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "club.app" in modules and "club.verify" in modules


def test_migrations_are_numbered_and_applied_once(cluster, dsn: str) -> None:
    numbers = [m.version for m in migrations()]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1 and numbers[-1] == SCHEMA_VERSION
    assert migrate(dsn) == (SCHEMA_VERSION, SCHEMA_VERSION)
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_fresh")
    assert migrate(cluster.dsn("club_fresh")) == (0, SCHEMA_VERSION)
    with psycopg.connect(cluster.dsn("club_fresh")) as conn:
        rows = conn.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()
    assert rows == [(m.version, m.name) for m in migrations()]


def test_a_migration_with_a_number_below_the_newest_applied_is_applied_too(cluster, monkeypatch) -> None:
    """Work done in parallel reserves numbers: a database migrated without one gets it later."""
    from club import database

    shipped = migrations()
    numbers = {m.version for m in shipped}
    filler = database.Migration(min(n for n in range(1, SCHEMA_VERSION + 2) if n not in numbers), "filler",
                                "CREATE TABLE filler_was_here (x integer)")
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_gap")
    assert migrate(cluster.dsn("club_gap")) == (0, SCHEMA_VERSION)
    monkeypatch.setattr(database, "migrations", lambda: sorted([*shipped, filler], key=lambda m: m.version))
    monkeypatch.setattr(database, "SCHEMA_VERSION", max(SCHEMA_VERSION, filler.version))
    assert migrate(cluster.dsn("club_gap"))[1] == max(SCHEMA_VERSION, filler.version)
    with psycopg.connect(cluster.dsn("club_gap")) as conn:
        assert conn.execute("SELECT count(*) FROM filler_was_here").fetchone() == (0,)
        rows = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert [r[0] for r in rows] == sorted(numbers | {filler.version})
    assert migrate(cluster.dsn("club_gap"))[1] == max(SCHEMA_VERSION, filler.version)  # once


def test_a_database_from_a_newer_hub_is_refused_and_left_alone(dsn: str) -> None:
    with psycopg.connect(dsn) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, 'future')", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaError, match="newer than this hub"):
        migrate(dsn)
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (SCHEMA_VERSION + 1,)


def test_without_the_server_binaries_the_error_names_the_debian_package(monkeypatch) -> None:
    import club.localdb as localdb

    monkeypatch.setattr("club.localdb.shutil.which", lambda name: None)
    monkeypatch.setattr("club.localdb.glob.glob", lambda pattern: [])
    with pytest.raises(SetupError, match="install the Debian package `postgresql`"):
        localdb.server_bindir()
