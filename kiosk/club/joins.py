"""Joining a club event at the table: the events the hub says take entries, and each join's row in the journal.

The assignment answer (docs/events-protocol.md) lists the events a player can join now
(``joinable``: uuid, name, format, round); ``parse_joinable`` checks it field by field. A player's
join is a ``Join``: the event and the player as the screen showed them, the half it was pressed on,
and an idempotency key (a UUID). It is kept in ``event_joins`` (``kiosk.store.event_schema``) from the
moment the worker takes it from the frame loop, sent with its key until the hub answers
(``unsent_joins``), and the answer kept (``answer_join``). The last list of events the hub gave is kept
in ``club_state`` so that a restart with the hub away offers them again.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass
from typing import Any

from kiosk.club.pairing import FORMATS, BadPairing

JOINABLE_KEY = "event_joinable"
"""``club_state``'s key for the last list of events taking entries (JSON)."""
RESULTS = ("joined", "already-joined", "refused")
NOTICE_S = 120.0
"""An answered join is shown on the home screen this long after its answer came (the worker's wall clock)."""


@dataclass(frozen=True, slots=True)
class JoinableEvent:
    """An event taking entries now, as the hub listed it."""

    uuid: str
    name: str
    format: str
    round: int | None
    """The round now (0 before the start; None in an arena)."""

    def body(self) -> dict[str, Any]:
        return {"uuid": self.uuid, "name": self.name, "format": self.format, "round": self.round}


@dataclass(frozen=True, slots=True)
class Join:
    """A player's join pressed at this table, and the hub's answer once it came (``result`` None: not yet)."""

    key: str
    event: JoinableEvent
    player_id: int | None
    player_uuid: str
    player_name: str
    seat: int
    """The half it was pressed on (its notice is shown there, in that seat's language)."""
    queued_wall: float
    result: str | None = None
    reason: str | None = None
    """The hub's reason code for a refusal: closed, withdrawn, unknown-event, or another."""
    message: str = ""
    round: int | None = None
    """The round the player plays from (a Swiss or round-robin), as the hub answered."""
    answered_wall: float | None = None


def new_join(event: JoinableEvent, player_id: int | None, player_uuid: str, player_name: str, seat: int,
             wall: float) -> Join:
    """A join with a fresh idempotency key."""
    return Join(str(uuid.uuid4()), event, player_id, player_uuid, player_name, seat, wall)


def parse_joinable(value: Any) -> tuple[JoinableEvent, ...]:
    """The assignment answer's ``joinable`` (absent from an older hub: none); BadPairing naming what is wrong."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BadPairing("joinable: a list of events")
    events = []
    for item in value:
        if not isinstance(item, dict):
            raise BadPairing("joinable: each event is an object")
        try:
            key = str(uuid.UUID(str(item.get("uuid"))))
        except ValueError:
            raise BadPairing("joinable.uuid: a UUID") from None
        name, fmt, round_ = item.get("name"), item.get("format"), item.get("round")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 120:
            raise BadPairing("joinable.name: 1 to 120 characters")
        if fmt not in FORMATS:
            raise BadPairing(f"joinable.format: one of {', '.join(FORMATS)}")
        if round_ is not None and (not isinstance(round_, int) or isinstance(round_, bool) or round_ < 0):
            raise BadPairing("joinable.round: a whole number from 0, or null")
        events.append(JoinableEvent(key, name.strip(), str(fmt), round_))
    return tuple(events)


def parse_answer(value: dict[str, Any]) -> tuple[str, str | None, str, int | None]:
    """The hub's answer to a join: (result, reason, message, round); BadPairing when it is not one."""
    result, reason, message, round_ = value.get("result"), value.get("reason"), value.get("message"), value.get("round")
    if result not in RESULTS:
        raise BadPairing(f"result: one of {', '.join(RESULTS)}")
    if reason is not None and not isinstance(reason, str):
        raise BadPairing("reason: a text or null")
    if round_ is not None and (not isinstance(round_, int) or isinstance(round_, bool)):
        raise BadPairing("round: a whole number or null")
    return str(result), reason, str(message or "")[:500], round_


# -- the journal ---------------------------------------------------------------------------------


def store_join(conn: sqlite3.Connection, join: Join) -> None:
    """Inside a transaction: ``join`` kept, unsent (a key kept already is left as it is)."""
    e = join.event
    conn.execute("INSERT OR IGNORE INTO event_joins (key, event_uuid, event_name, event_format, player_id, player_uuid,"
                 " player_name, seat, queued_wall) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (join.key, e.uuid, e.name, e.format, join.player_id, join.player_uuid, join.player_name, join.seat,
                  join.queued_wall))


def answer_join(conn: sqlite3.Connection, key: str, result: str, reason: str | None, message: str,
                round_: int | None, wall: float) -> None:
    """Inside a transaction: the hub's answer to the join ``key`` kept (once: a second answer is ignored)."""
    conn.execute("UPDATE event_joins SET result = ?, reason = ?, message = ?, round = ?, answered_wall = ?"
                 " WHERE key = ? AND answered_wall IS NULL", (result, reason, message, round_, wall, key))


_COLUMNS = ("key, event_uuid, event_name, event_format, player_id, player_uuid, player_name, seat, queued_wall,"
            " result, reason, message, round, answered_wall")


def _join(r: tuple[Any, ...]) -> Join:
    return Join(str(r[0]), JoinableEvent(str(r[1]), str(r[2]), str(r[3]), None), r[4], str(r[5]), str(r[6]),
                int(r[7]), float(r[8]), r[9], r[10], str(r[11] or ""), r[12], r[13])


def unsent_joins(conn: sqlite3.Connection) -> list[Join]:
    """The joins the hub has not answered yet, oldest first."""
    return [_join(r) for r in conn.execute(
        f"SELECT {_COLUMNS} FROM event_joins WHERE answered_wall IS NULL ORDER BY queued_wall, key")]


def shown_joins(conn: sqlite3.Connection, wall: float) -> list[Join]:
    """The joins the home screen shows at ``wall``: unsent ones, and those answered within ``NOTICE_S``."""
    return [_join(r) for r in conn.execute(
        f"SELECT {_COLUMNS} FROM event_joins WHERE answered_wall IS NULL OR answered_wall >= ?"
        " ORDER BY queued_wall, key", (wall - NOTICE_S,))]


def store_joinable(conn: sqlite3.Connection, events: tuple[JoinableEvent, ...]) -> None:
    """Inside a transaction: the hub's latest list of events taking entries."""
    conn.execute("INSERT OR REPLACE INTO club_state (key, value) VALUES (?, ?)",
                 (JOINABLE_KEY, json.dumps([e.body() for e in events])))


def kept_joinable(conn: sqlite3.Connection) -> tuple[JoinableEvent, ...]:
    """The last list of events taking entries the hub gave (none when never given or unreadable)."""
    row = conn.execute("SELECT value FROM club_state WHERE key = ?", (JOINABLE_KEY,)).fetchone()
    try:
        return parse_joinable(json.loads(row[0])) if row is not None else ()
    except (ValueError, BadPairing):
        return ()
