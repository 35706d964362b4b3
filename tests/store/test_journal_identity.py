"""Schema version 5: UUIDs for the kiosk, its matches (time-ordered UUIDv7) and its players (issue 22)."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

from engine import MatchConfig
from kiosk.store.identity import kiosk_uuid, uuid7, uuid7_wall_ms
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.schema import SCHEMA_VERSION, V1, V2, V3, V4


def test_uuid7_carries_the_wall_time_version_and_variant() -> None:
    value = uuid7(1_764_620_000.123, lambda n: b"\xff" * n)
    assert value.version == 7 and value.variant == uuid.RFC_4122
    assert uuid7_wall_ms(value) == 1_764_620_000_123
    zero = uuid7(1_764_620_000.123, lambda n: b"\x00" * n)
    assert zero.version == 7 and zero.variant == uuid.RFC_4122 and uuid7_wall_ms(zero) == 1_764_620_000_123
    # time-ordered: a later millisecond sorts after, whatever the random bits
    assert str(uuid7(1_764_620_000.124, lambda n: b"\x00" * n)) > str(value)
    assert uuid7(5.0) != uuid7(5.0)


def test_new_rows_get_uuids_and_matches_sort_by_creation_time(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        ann = Players(journal).create("Ann", wall_s=10.0)
        bo = Players(journal).create("Bo", wall_s=11.0)
        first = journal.begin_match(MatchConfig(), (ann.id, bo.id), wall_s=1_764_620_000.0)
        second = journal.begin_match(MatchConfig(), (None, None), wall_s=1_764_620_000.5)
        with journal.database.read() as conn:
            players = dict(conn.execute("SELECT id, uuid FROM players").fetchall())
            matches = dict(conn.execute("SELECT id, uuid FROM matches").fetchall())
            kiosk = kiosk_uuid(conn)
    assert uuid.UUID(players[ann.id]).version == 4 and players[ann.id] != players[bo.id]
    assert [uuid.UUID(matches[m]).version for m in (first, second)] == [7, 7]
    assert uuid7_wall_ms(uuid.UUID(matches[first])) == 1_764_620_000_000
    assert matches[first] < matches[second]
    assert uuid.UUID(kiosk).version == 4
    with Journal.open(tmp_path / "journal.sqlite3") as journal, journal.database.read() as conn:
        assert kiosk_uuid(conn) == kiosk  # the kiosk keeps its uuid across restarts


def test_a_version_4_journal_gets_uuids_for_its_existing_rows(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    for step in (V1, V2, V3):
        for statement in step:
            conn.execute(statement)
    V4(conn)  # type: ignore[operator]  # V4 is a function migration, V1-V3 are statement lists
    conn.execute("PRAGMA user_version = 4")
    for name in ("Ann", "Bo"):
        conn.execute("INSERT INTO players (name, created_wall, rating, rd, volatility) VALUES (?, 1, 1500, 350, 0.06)",
                     (name,))
    for wall in (1_700_000_000.0, 1_600_000_000.0):
        conn.execute("INSERT INTO matches (player0, player1, created_wall, config) VALUES (1, 2, ?, ?)",
                     (wall, json.dumps(MatchConfig().to_dict())))
    conn.commit()
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION and journal.warnings == []
        with journal.database.read() as c:
            players = [uuid.UUID(u) for (u,) in c.execute("SELECT uuid FROM players ORDER BY id")]
            matches = [uuid.UUID(u) for (u,) in c.execute("SELECT uuid FROM matches ORDER BY id")]
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert [p.version for p in players] == [4, 4]
    assert [uuid7_wall_ms(m) for m in matches] == [1_700_000_000_000, 1_600_000_000_000]
    assert {"kiosk", "club_acks", "club_roster", "club_state"} <= tables


def test_a_match_entered_again_in_another_file_keeps_its_uuid(tmp_path: Path) -> None:
    """A recorder writing its match into another file (a restored backup, a fresh journal) enters it with
    the same uuid, so the club hub never counts it twice; into a file that holds that uuid, a fresh one."""
    from journal_support import new_table

    def uuid_of(journal: Journal, match_id: int | None) -> str:
        with journal.database.read() as conn:
            return str(conn.execute("SELECT uuid FROM matches WHERE id = ?", (match_id,)).fetchone()[0])

    with Journal.open(tmp_path / "a.sqlite3") as a, Journal.open(tmp_path / "b.sqlite3") as b:
        table = new_table(a, 5)
        for _ in range(5):
            table.step()
        first = uuid_of(a, table.recorder.match_id)
        table.recorder.attach(b)
        table.recorder.flush()
        assert uuid_of(b, table.recorder.match_id) == first
        table.recorder.reenter()  # the same file again (it disagreed with the recorder): a second row
        table.recorder.flush()
        again = uuid_of(b, table.recorder.match_id)
        assert again != first and uuid.UUID(again).version == 7
