"""Who and what a journal's rows are beyond the table: UUIDs for the kiosk, its matches and its players.

The table keeps using its local integer ids; the UUIDs are what the club hub knows them by (issue 22,
docs/club.md). A match's UUID is time-ordered (UUIDv7, RFC 9562, made here by hand from the injected
wall time and random bits: Python 3.11 has no ``uuid.uuid7``); a player's and the kiosk's are random
(UUIDv4). Schema version 5 (``add_identity``) gives every existing row its UUID and creates the club
sync's own tables (``kiosk.club``).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Callable

RandomBytes = Callable[[int], bytes]


def uuid7(wall_s: float, random_bytes: RandomBytes = os.urandom) -> uuid.UUID:
    """A UUIDv7: the Unix time ``wall_s`` in milliseconds (48 bits), version 7, then 74 random bits."""
    ms = max(0, min(int(wall_s * 1000), 2**48 - 1))
    tail = int.from_bytes(random_bytes(10), "big")  # 80 bits, 74 of them used
    rand_a = tail >> 68 & 0xFFF
    rand_b = tail & (2**62 - 1)
    value = ms << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b
    return uuid.UUID(int=value)


def uuid7_wall_ms(value: uuid.UUID) -> int:
    """The milliseconds since the Unix epoch a UUIDv7 was made at."""
    return value.int >> 80


def new_player_uuid() -> str:
    """A new player's UUID (random), as the journal stores it (lowercase text)."""
    return str(uuid.uuid4())


def new_match_uuid(wall_s: float) -> str:
    """A new match's UUID (time-ordered by its wall time of creation), as the journal stores it."""
    return str(uuid7(wall_s))


V5_TABLES: tuple[str, ...] = (
    "CREATE UNIQUE INDEX players_uuid ON players(uuid)",
    "CREATE UNIQUE INDEX matches_uuid ON matches(uuid)",
    "CREATE TABLE kiosk (uuid TEXT NOT NULL)",
    """CREATE TABLE club_acks (
        uuid    TEXT PRIMARY KEY,
        kind    TEXT NOT NULL CHECK (kind IN ('match', 'player')),
        result  TEXT NOT NULL CHECK (result IN ('verified', 'rejected', 'held', 'refused', 'roster')),
        detail  TEXT,
        wall    REAL NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE club_roster (
        uuid        TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        rating      REAL NOT NULL,
        rd          REAL NOT NULL,
        volatility  REAL NOT NULL,
        games       INTEGER NOT NULL,
        provisional INTEGER NOT NULL,
        version     INTEGER NOT NULL,
        stale       INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID""",
    "CREATE TABLE club_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
)
"""Version 5's new tables: the kiosk's UUID (one row); ``club_acks``: every key the hub answered for
(acknowledged: verified / rejected / held; refused with a 409: refused; learnt from the roster:
roster); ``club_roster``: the club's players as last downloaded (``stale``: a match of theirs was
acknowledged after the download, so the hub's number is not theirs yet); ``club_state``: the
roster's version."""


def add_identity(conn: sqlite3.Connection) -> None:
    """Schema version 5: a UUID for every player (v4), match (v7 from its creation time) and the kiosk,
    and the club sync's tables (``V5_TABLES``)."""
    conn.execute("ALTER TABLE players ADD COLUMN uuid TEXT")
    conn.execute("ALTER TABLE matches ADD COLUMN uuid TEXT")
    for (player_id,) in conn.execute("SELECT id FROM players").fetchall():
        conn.execute("UPDATE players SET uuid = ? WHERE id = ?", (new_player_uuid(), player_id))
    for match_id, created in conn.execute("SELECT id, created_wall FROM matches").fetchall():
        conn.execute("UPDATE matches SET uuid = ? WHERE id = ?", (new_match_uuid(float(created)), match_id))
    for statement in V5_TABLES:
        conn.execute(statement)
    conn.execute("INSERT INTO kiosk (uuid) VALUES (?)", (str(uuid.uuid4()),))


def kiosk_uuid(conn: sqlite3.Connection) -> str:
    """The kiosk's UUID as the journal holds it."""
    row = conn.execute("SELECT uuid FROM kiosk LIMIT 1").fetchone()
    if row is None:
        raise LookupError("the journal holds no kiosk uuid")
    return str(row[0])
