"""The match journal's schema: its migrations, one per version (see docs/journal.md for the tables)."""

from __future__ import annotations

import sqlite3

from kiosk.i18n import T
from kiosk.store.database import DamagedFile, Migration, Schema
from kiosk.store.event_schema import add_event_joins, add_event_pairings
from kiosk.store.identity import add_identity
from kiosk.store.lineage import create_history

V1: tuple[str, ...] = (
    """CREATE TABLE players (
        id           INTEGER PRIMARY KEY,
        name         TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_wall REAL NOT NULL,
        rating       REAL NOT NULL,
        rd           REAL NOT NULL,
        volatility   REAL NOT NULL,
        games        INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE matches (
        id           INTEGER PRIMARY KEY,
        player0      INTEGER REFERENCES players(id),
        player1      INTEGER REFERENCES players(id),
        created_wall REAL NOT NULL,
        ended_wall   REAL,
        config       TEXT NOT NULL,
        finished     INTEGER NOT NULL DEFAULT 0,
        winner       INTEGER,
        reason       TEXT,
        rated        INTEGER,
        detail       TEXT
    )""",
    "CREATE INDEX matches_unfinished ON matches(finished, id)",
    "CREATE INDEX matches_player0 ON matches(player0)",
    "CREATE INDEX matches_player1 ON matches(player1)",
    """CREATE TABLE entries (
        match_id     INTEGER NOT NULL REFERENCES matches(id),
        seq          INTEGER NOT NULL,
        step         TEXT NOT NULL,
        snapshot     TEXT,
        snapshot_sha TEXT NOT NULL,
        arrival_ns   INTEGER NOT NULL,
        boot_id      TEXT NOT NULL,
        wall         REAL NOT NULL,
        checksum     TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE discarded_entries (
        match_id       INTEGER NOT NULL,
        seq            INTEGER NOT NULL,
        step           TEXT,
        snapshot       TEXT,
        snapshot_sha   TEXT,
        arrival_ns     INTEGER,
        boot_id        TEXT,
        wall           REAL,
        checksum       TEXT,
        discarded_wall REAL NOT NULL,
        why            TEXT NOT NULL
    )""",
    """CREATE TABLE rating_changes (
        match_id      INTEGER NOT NULL REFERENCES matches(id),
        player_id     INTEGER NOT NULL REFERENCES players(id),
        opponent_id   INTEGER NOT NULL REFERENCES players(id),
        score         REAL NOT NULL,
        rating_before REAL NOT NULL,
        rd_before     REAL NOT NULL,
        vol_before    REAL NOT NULL,
        rating_after  REAL NOT NULL,
        rd_after      REAL NOT NULL,
        vol_after     REAL NOT NULL,
        PRIMARY KEY (match_id, player_id)
    )""",
)
"""Version 1: the tables (files made before ``user_version`` also had a ``schema_version`` table)."""

V2: tuple[str, ...] = (
    "DROP TABLE IF EXISTS schema_version",
    "CREATE INDEX rating_changes_player ON rating_changes(player_id, score)",
)
"""Version 2: the version lives in ``PRAGMA user_version``; rated results indexed by player (leaderboard)."""

V3: tuple[str, ...] = (
    "ALTER TABLE matches ADD COLUMN computer_level INTEGER",
)
"""Version 3: a practice match's computer level (1 Beginner to 4 Expert; it plays seat 1, or seat 0 when
the match's ``config`` says ``"computer_seat": 0``, a seat with no player id); NULL: two people."""

V4: Migration = create_history
"""Version 4: the ``history`` table (the journal's history id, kept by its backups, and its commit
count; ``kiosk.store.lineage``)."""

V5: Migration = add_identity
"""Version 5: a UUID for the kiosk, every match (time-ordered, UUIDv7) and every player, and the club
sync's tables (``kiosk.store.identity``, issue 22)."""

EVENTS: Migration = add_event_pairings
"""Club events (issue 25): ``matches.event_pairing`` and ``matches.berserk``, and the ``event_pairings``
table (``kiosk.store.event_schema``; docs/events-protocol.md calls it schema 7: it takes the next number)."""

EVENT_JOINS: Migration = add_event_joins
"""Joining a club event at the table (issue 25): the ``event_joins`` table (``kiosk.store.event_schema``)."""

MIGRATIONS: tuple[Migration, ...] = (V1, V2, V3, V4, V5, EVENTS, EVENT_JOINS)
SCHEMA_VERSION = len(MIGRATIONS)
REQUIRED_TABLES = frozenset({"players", "matches", "entries", "discarded_entries", "rating_changes", "history"})


def adopt_legacy(conn: sqlite3.Connection, tables: frozenset[str]) -> int | None:
    """The version of a journal written before ``user_version`` (kept in a ``schema_version`` table),
    or None when the file's tables are not a journal's."""
    if "schema_version" not in tables:
        return None
    rows = conn.execute("SELECT version FROM schema_version").fetchall()
    if len(rows) != 1 or not isinstance(rows[0][0], int) or rows[0][0] < 1:
        raise DamagedFile(T("its schema version is unreadable"))
    return int(rows[0][0])


JOURNAL_SCHEMA = Schema(MIGRATIONS, REQUIRED_TABLES, adopt_legacy)
"""The match journal's schema."""
