"""The club events' shared pieces in the database (``club.eventstore`` and the modules beside it: the
director's hand, uploads' links to pairings, joins from tables and by code): the events' advisory lock,
keys, a director's reason, the event log, the event's row, and pairing rows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from club.errors import BadRequest, NotFound
from club.events.scheduler import Row

Conn = psycopg.Connection[tuple[Any, ...]]
EVENTS_LOCK = 0x5B1D_0025
"""The advisory lock the events' writes take turns on (inside their transaction)."""
NS = 1_000_000_000

PAIRING_COLUMNS = ("uuid, round, board, player0, player1, state, created_at, kiosk, offered_at, acknowledge_by,"
                   " acknowledged_at, finished_at, match, moved_from, avoid_kiosk, berserk, note, forfeit_winner, half_bye")
"""The columns of ``event_pairings`` that make a ``Row`` (``pairing_row``), in its order."""


def lock_events(conn: Conn) -> None:
    """Take the events' advisory lock for the rest of the transaction (the events' writes take turns on it)."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (EVENTS_LOCK,))


def event_key(text: str | uuid.UUID, what: str) -> uuid.UUID:
    """``text`` as a UUID of ``what`` (an event, a pairing, a player); NotFound if it is none."""
    if isinstance(text, uuid.UUID):
        return text
    try:
        return uuid.UUID(str(text))
    except ValueError:
        raise NotFound(f"no such {what}: {text!r}") from None


def checked_reason(why: str | None, required: bool = True) -> str | None:
    """A director's reason as logged (None: none given and none ``required``); BadRequest if it is missing
    or longer than 500 characters."""
    text = (why or "").strip()
    if required and not text:
        raise BadRequest("give a reason: it is logged with the director's action")
    if len(text) > 500:
        raise BadRequest("the reason is longer than 500 characters")
    return text or None


def log_action(conn: Conn, event: uuid.UUID, now: float, actor: str, action: str, pairing: uuid.UUID | None = None,
               why: str | None = None, **detail: object) -> None:
    """One row of the event's log (``event_log``): who did what, when, to which pairing, why, and its details."""
    conn.execute("INSERT INTO event_log (event, at, actor, action, pairing, why, detail) VALUES (%s,%s,%s,%s,%s,%s,%s)",
                 (event, now, actor, action, pairing, why, Jsonb(detail)))


def event_row(conn: Conn, event: uuid.UUID) -> tuple[Any, ...]:
    """The event's state, format, current round and name, its row locked for the transaction; NotFound if none."""
    row = conn.execute("SELECT state, format, current_round, name FROM events WHERE uuid = %s FOR UPDATE",
                       (event,)).fetchone()
    if row is None:
        raise NotFound(f"no event {event}")
    return tuple(row)


def pairing_row(r: Sequence[Any]) -> Row:
    """A pairing as the scheduler sees it, from a row of ``PAIRING_COLUMNS``."""
    berserk = tuple(bool(x) for x in (r[15] or (False, False)))
    return Row(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
               (berserk[0], berserk[1]), r[16], r[17], bool(r[18]))


def save_pairings(conn: Conn, event: uuid.UUID, rows: Sequence[Row]) -> None:
    """Write ``rows`` into ``event_pairings``: new pairings inserted, known ones' changing columns updated."""
    for r in rows:
        conn.execute(
            f"INSERT INTO event_pairings (event, {PAIRING_COLUMNS}) VALUES"
            " (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (uuid) DO UPDATE SET"
            " state = EXCLUDED.state, kiosk = EXCLUDED.kiosk, offered_at = EXCLUDED.offered_at,"
            " acknowledge_by = EXCLUDED.acknowledge_by, acknowledged_at = EXCLUDED.acknowledged_at,"
            " finished_at = EXCLUDED.finished_at, match = EXCLUDED.match, berserk = EXCLUDED.berserk,"
            " note = EXCLUDED.note, forfeit_winner = EXCLUDED.forfeit_winner",
            (event, r.uuid, r.round, r.board, r.player0, r.player1, r.state, r.created_at, r.kiosk, r.offered_at,
             r.acknowledge_by, r.acknowledged_at, r.finished_at, r.match, r.moved_from, r.avoid_kiosk,
             list(r.berserk), r.note, r.forfeit_winner, r.half_bye))
