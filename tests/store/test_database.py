"""The shared database: migrations by user_version, transactions, the lock, errors as message values."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from kiosk.store.database import Database, Schema
from kiosk.store.errors import KioskStoreError, StoreCorrupt, StoreUnavailable, StoreUsageError

NOTES_V1 = ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)",)


def _add_author(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE notes ADD COLUMN author TEXT")
    conn.execute("UPDATE notes SET author = 'kiosk'")


def test_each_migration_runs_once_in_order_and_sets_user_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with Database.open(path, Schema((NOTES_V1,), frozenset({"notes"}))) as db:
        assert db.schema_version == 1
        with db.transaction() as conn:
            conn.execute("INSERT INTO notes (text) VALUES ('a; b')")
    later = Schema((NOTES_V1, _add_author), frozenset({"notes"}))
    with Database.open(path, later) as db:
        assert db.schema_version == 2
        with db.read() as conn:
            assert conn.execute("SELECT text, author FROM notes").fetchall() == [("a; b", "kiosk")]
    with Database.open(path, later) as db:  # nothing left to run: a second ALTER would fail
        assert db.schema_version == 2


def test_a_statement_holding_semicolons_runs_whole(tmp_path: Path) -> None:
    """Migrations are lists of statements: a trigger body with several statements is one of them."""
    trigger = ("CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN "
               "INSERT INTO log VALUES (new.id, 'added; really'); INSERT INTO log VALUES (new.id, 'twice'); END")
    schema = Schema(((*NOTES_V1, "CREATE TABLE log (note INTEGER, what TEXT)", trigger),), frozenset({"notes", "log"}))
    with Database.open(tmp_path / "db.sqlite3", schema) as db:
        with db.transaction() as conn:
            conn.execute("INSERT INTO notes (text) VALUES ('x')")
        with db.read() as conn:
            assert conn.execute("SELECT what FROM log ORDER BY rowid").fetchall() == [("added; really",), ("twice",)]


def test_a_failing_migration_leaves_the_file_at_its_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    Database.open(path, Schema((NOTES_V1,), frozenset({"notes"}))).close()

    def half_done(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half (x)")
        raise RuntimeError("the migration broke")

    with pytest.raises(RuntimeError, match="the migration broke"):
        Database.open(path, Schema((NOTES_V1, half_done), frozenset({"notes"})))
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchall() == []
    finally:
        conn.close()


def test_a_missing_table_after_migrating_moves_the_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with Database.open(path, Schema((NOTES_V1,), frozenset({"notes"}))) as db, db.transaction() as conn:
        conn.execute("DROP TABLE notes")
    with Database.open(path, Schema((NOTES_V1,), frozenset({"notes"})), wall_clock=lambda: 86400.0) as db:
        [warning] = db.warnings
        assert warning.params["reason"].msgid == "tables are missing: {tables}"
        assert warning.params["reason"].params == {"tables": "notes"}
        assert warning.params["moved"] == "db.sqlite3.corrupt-19700102T000000"
    assert (tmp_path / "db.sqlite3.corrupt-19700102T000000").exists()


def test_a_transaction_commits_as_a_whole_or_not_at_all(tmp_path: Path) -> None:
    with Database.open(tmp_path / "db.sqlite3", Schema((NOTES_V1,), frozenset({"notes"}))) as db:
        with pytest.raises(ZeroDivisionError), db.transaction() as conn:
            conn.execute("INSERT INTO notes (text) VALUES ('kept?')")
            with db.transaction() as inner:  # part of the outer transaction
                inner.execute("INSERT INTO notes (text) VALUES ('inner')")
            _ = 1 / 0
        with db.transaction() as conn:
            conn.execute("INSERT INTO notes (text) VALUES ('one')")
            with db.transaction() as inner:
                inner.execute("INSERT INTO notes (text) VALUES ('two')")
        with db.read() as conn:
            assert [r[0] for r in conn.execute("SELECT text FROM notes ORDER BY id")] == ["one", "two"]
            assert conn.in_transaction is False


def test_sqlite_errors_inside_a_transaction_become_store_errors(tmp_path: Path) -> None:
    with Database.open(tmp_path / "db.sqlite3", Schema((NOTES_V1,), frozenset({"notes"}))) as db:
        with pytest.raises(StoreUsageError) as info, db.transaction() as conn:
            conn.execute("INSERT INTO notes (text) VALUES (NULL)")
        assert isinstance(info.value, ValueError) and isinstance(info.value.__cause__, sqlite3.IntegrityError)
        assert info.value.text.msgid == "The match journal refused a row: {error}"
        assert info.value.text.params == {"error": "NOT NULL constraint failed: notes.text"}


def test_writers_on_several_threads_take_turns(tmp_path: Path) -> None:
    with Database.open(tmp_path / "db.sqlite3", Schema((NOTES_V1,), frozenset({"notes"}))) as db:

        def write(n: int) -> None:
            for i in range(50):
                with db.transaction() as conn:
                    conn.execute("INSERT INTO notes (text) VALUES (?)", (f"{n}-{i}",))

        threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with db.read() as conn:
            assert conn.execute("SELECT COUNT(DISTINCT text) FROM notes").fetchone()[0] == 200


def test_a_closed_database_refuses_use(tmp_path: Path) -> None:
    db = Database.open(tmp_path / "db.sqlite3", Schema((NOTES_V1,), frozenset({"notes"})))
    db.close()
    assert db.closed
    with pytest.raises(StoreUsageError) as info, db.read():
        pass
    assert info.value.text.msgid == "the journal is closed"


@pytest.mark.parametrize(("error", "builtin"), [(StoreUnavailable, OSError), (StoreCorrupt, ValueError),
                                                (StoreUsageError, ValueError)])
def test_store_errors_are_also_the_builtin_they_resemble(error: type[KioskStoreError], builtin: type) -> None:
    exc = error("something went wrong")
    assert isinstance(exc, KioskStoreError) and isinstance(exc, builtin)
    assert str(exc) == "something went wrong" and exc.text.msgid == "something went wrong"
