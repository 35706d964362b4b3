"""The journal's part for club events (issue 25): the pairing a hub gave this table, and which match
played it.

A pairing is kept from the moment the table stores it (before it acknowledges it to the hub) until
the table drops it (the hub moved or cancelled it) or plays it: a restart shows an unstarted pairing
again. The match played for a pairing names it in ``matches.event_pairing`` (entered with the match
row), with the seats that chose berserk in ``matches.berserk`` (a JSON list, e.g. ``[0]``); the
pairing's row names the match too (``match_uuid``), written by the club's worker once the match was
started, so the link survives a match entered late from the fault log.

A player's join at this table (``event_joins``, its own migration ``add_event_joins``) is kept from
the press on: the club's worker sends it with its key until the hub answers, and keeps the answer.

Each migration is one function, ``add_event_pairings`` and ``add_event_joins``, so that it can take
whatever version number comes next in ``kiosk.store.schema.MIGRATIONS``.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

EVENT_TABLES: tuple[str, ...] = (
    "ALTER TABLE matches ADD COLUMN event_pairing TEXT",
    "ALTER TABLE matches ADD COLUMN berserk TEXT",
    """CREATE TABLE event_pairings (
        uuid          TEXT PRIMARY KEY,
        body          TEXT NOT NULL,
        received_wall REAL NOT NULL,
        acked_wall    REAL,
        dropped_wall  REAL,
        dropped_why   TEXT,
        match_uuid    TEXT,
        berserk       TEXT
    ) WITHOUT ROWID""",
    "CREATE INDEX matches_event_pairing ON matches(event_pairing) WHERE event_pairing IS NOT NULL",
)
"""``event_pairings``: each pairing the hub gave (``body``: the hub's JSON as checked), when it was
acknowledged, dropped (and why) or played (``match_uuid``, ``berserk``)."""


def add_event_pairings(conn: sqlite3.Connection) -> None:
    """The club events' columns and table (``EVENT_TABLES``); existing matches name no pairing."""
    for statement in EVENT_TABLES:
        conn.execute(statement)


JOIN_TABLES: tuple[str, ...] = (
    """CREATE TABLE event_joins (
        key           TEXT PRIMARY KEY,
        event_uuid    TEXT NOT NULL,
        event_name    TEXT NOT NULL,
        event_format  TEXT NOT NULL,
        player_id     INTEGER,
        player_uuid   TEXT NOT NULL,
        player_name   TEXT NOT NULL,
        seat          INTEGER NOT NULL,
        queued_wall   REAL NOT NULL,
        answered_wall REAL,
        result        TEXT,
        reason        TEXT,
        message       TEXT,
        round         INTEGER
    ) WITHOUT ROWID""",
    "CREATE INDEX event_joins_unsent ON event_joins(queued_wall) WHERE answered_wall IS NULL",
)
"""``event_joins``: each join pressed at this table (``key``: its idempotency key, a UUID), the event and
the player as the screen showed them, the seat whose half it was pressed on, and the hub's answer
(``result``: joined, already-joined or refused, with its ``reason`` code and ``message``) once it came."""


def add_event_joins(conn: sqlite3.Connection) -> None:
    """The joins' table (``JOIN_TABLES``), empty."""
    for statement in JOIN_TABLES:
        conn.execute(statement)


@dataclass(frozen=True, slots=True)
class EventLink:
    """What a match row keeps of the club event it plays: the pairing's UUID and the berserk seats."""

    pairing: str
    berserk: tuple[int, ...] = ()
    """The seats (0 and/or 1, in order) that halved their own bank at the ready screen."""

    def columns(self) -> tuple[str, str]:
        """``matches.event_pairing`` and ``matches.berserk`` as stored."""
        return self.pairing, berserk_text(self.berserk)


def berserk_text(seats: tuple[int, ...] | list[int]) -> str:
    """The berserk seats as the journal keeps them: a JSON list in seat order."""
    return json.dumps(sorted({int(s) for s in seats}))


def berserk_seats(text: str | None) -> list[int]:
    """The berserk seats from the journal's text (none when NULL or unreadable)."""
    try:
        value = json.loads(text) if text else []
    except ValueError:
        return []
    return sorted({s for s in value if s in (0, 1)}) if isinstance(value, list) else []


def logged_event(value: object) -> EventLink | None:
    """The fault log's ``[pairing, [seats]]`` as an ``EventLink`` (None: no event, or unreadable)."""
    if not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], str):
        return None
    seats = value[1] if isinstance(value[1], list) else []
    return EventLink(value[0], tuple(sorted({s for s in seats if s in (0, 1)})))
