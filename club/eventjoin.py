"""Joining a club event at a table (issue 25, docs/events-protocol.md "A player joins at a table"): the
events a table offers now, and a table's join carried out by the director's own ``eventstore.join``.

An event takes entries while it is open (every format), and while it runs: an arena always, a Swiss
while a round is left to pair (the late entrant plays from the next round), a round-robin never.
A table's join names its player by uuid with the name the table knows; a player the hub does not hold
yet is created as an upload creates one (the uploading table, the default rating). Each join carries
an idempotency key, kept in the join's ``event_log`` row (``detail.key``, action ``joined``, actor
``table NAME``): the same key asked again is answered "joined" again and changes nothing; the same key
with another player or for another event is refused and changes nothing. A refusal is not stored;
asked again, it is decided again.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from club import eventdb, eventstore
from club.errors import BadRequest, Conflict, NotFound
from club.events.rules import Format
from club.ratings import Standing
from club.standings import next_version
from club.tokens import Kiosk

Conn = eventdb.Conn
NAME_MAX = 80

REFUSALS = {
    "the event is over": "closed",
    "a round-robin's entries close when it starts": "closed",
    "this player withdrew": "withdrawn",
}
"""``eventstore.join``'s refusals, as the reason codes a table shows in its players' languages."""

_TAKES_ENTRIES = (
    "(e.state = 'open' OR (e.state = 'running' AND (e.format = 'arena'"
    " OR (e.format = 'swiss' AND e.current_round < e.rounds))))")
"""An event that takes entries now (the rules above), as SQL over ``events e``."""


@dataclass(frozen=True, slots=True)
class TableJoin:
    """A table's join as it arrived: the player's uuid and name, and the idempotency key."""

    player: uuid.UUID
    name: str
    key: uuid.UUID


def parse_join(body: object) -> TableJoin:
    """``{"player": {"uuid", "name"}, "key"}`` checked; BadRequest with the reason if it is not one."""
    if not isinstance(body, dict) or not isinstance(body.get("player"), dict):
        raise BadRequest('a join is {"player": {"uuid": …, "name": …}, "key": …}')
    player = body["player"]
    try:
        who = uuid.UUID(str(player.get("uuid")))
        key = uuid.UUID(str(body.get("key")))
    except ValueError:
        raise BadRequest("the player's uuid and the join's key are UUIDs") from None
    name = player.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_MAX or any(
            ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in name):
        raise BadRequest(f"a player's name has 1 to {NAME_MAX} characters and no control characters")
    return TableJoin(who, name.strip(), key)


def joinable(conn: Conn) -> list[dict[str, Any]]:
    """The events a table offers to join now, oldest first (then by name): uuid, name, format, round (0 before the start;
    null in an arena)."""
    rows = conn.execute(f"SELECT e.uuid, e.name, e.format, e.current_round FROM events e WHERE {_TAKES_ENTRIES}"
                        " ORDER BY e.created_at, e.name, e.uuid").fetchall()
    return [{"uuid": str(r[0]), "name": r[1], "format": r[2],
             "round": None if r[2] == Format.ARENA.value else int(r[3])} for r in rows]


def join_at_table(conn: Conn, kiosk: Kiosk, event: str, join: TableJoin, now: float) -> dict[str, Any]:
    """A table's join, answered ``{"result": "joined" | "already-joined" | "refused", "reason", "message",
    "event", "player", "round"}`` (docs/events-protocol.md). Refusals change nothing."""
    try:
        key = uuid.UUID(event)
    except ValueError:
        return _answer("refused", "unknown-event", f"no event {event!r}", None, join)
    with conn.transaction():
        eventdb.lock_events(conn)
        ev = conn.execute("SELECT uuid, name, format, state FROM events WHERE uuid = %s", (key,)).fetchone()
        if ev is None:
            return _answer("refused", "unknown-event", f"no event {key}", None, join)
        summary = {"uuid": str(ev[0]), "name": ev[1], "format": ev[2]}
        done = conn.execute("SELECT event, detail->>'player' FROM event_log WHERE action = 'joined'"
                            " AND detail->>'key' = %s ORDER BY id LIMIT 1", (str(join.key),)).fetchone()
        if done is not None:
            if done[0] != key or _held_as(conn, uuid.UUID(str(done[1]))) != _held_as(conn, join.player):
                return _answer("refused", "refused", "this join's key was used for another join", summary, join)
            return _answer("joined", None, "joined", summary, join, _entrant(conn, key, join.player))
        takes = conn.execute(f"SELECT {_TAKES_ENTRIES} FROM events e WHERE e.uuid = %s", (key,)).fetchone()
        assert takes is not None
        if not takes[0]:
            return _answer("refused", "closed", f"the event takes no more entries (it is {ev[3]})", summary, join)
        _ensure_player(conn, kiosk, join)
        try:
            eventstore.join(conn, key, join.player, now, actor=f"table {kiosk.name}", key=str(join.key),
                            table=kiosk.name)
        except Conflict as exc:
            if exc.message == "this player is already entered":
                return _answer("already-joined", None, exc.message, summary, join, _entrant(conn, key, join.player))
            return _answer("refused", REFUSALS.get(exc.message, "refused"), exc.message, summary, join)
        except (NotFound, BadRequest) as exc:
            return _answer("refused", "refused", exc.message, summary, join)
        return _answer("joined", None, "joined", summary, join, _entrant(conn, key, join.player))


def _ensure_player(conn: Conn, kiosk: Kiosk, join: TableJoin) -> None:
    """The player, created as an upload creates one when the hub does not hold them yet."""
    if conn.execute("SELECT 1 FROM players WHERE uuid = %s", (join.player,)).fetchone() is not None:
        return
    fresh = Standing()
    conn.execute("INSERT INTO players (uuid, name, uploaded_name, kiosk, rating, rd, volatility, version)"
                 " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                 (join.player, join.name, join.name, kiosk.uuid, fresh.rating, fresh.rd, fresh.volatility,
                  next_version(conn)))


def _held_as(conn: Conn, player: uuid.UUID) -> str | None:
    """The uuid the hub holds ``player`` as now (a merged player: the one kept; None: not held)."""
    row = conn.execute("SELECT coalesce(merged_into, uuid) FROM players WHERE uuid = %s", (player,)).fetchone()
    return None if row is None else str(row[0])


def _entrant(conn: Conn, event: uuid.UUID, player: uuid.UUID) -> tuple[str, int | None]:
    """The entered player's name at the hub and the round they play from (None in an arena)."""
    row = conn.execute(
        "SELECT p.name, x.joined_round, e.format FROM event_entrants x JOIN players p ON p.uuid = x.player"
        " JOIN events e ON e.uuid = x.event WHERE x.event = %s AND x.player ="
        " (SELECT coalesce(merged_into, uuid) FROM players WHERE uuid = %s)", (event, player)).fetchone()
    if row is None:
        return "", None
    return str(row[0]), None if row[2] == Format.ARENA.value else int(row[1])


def _answer(result: str, reason: str | None, message: str, event: dict[str, Any] | None, join: TableJoin,
            entrant: tuple[str, int | None] = ("", None)) -> dict[str, Any]:
    name, round_ = entrant
    return {"result": result, "reason": reason, "message": message, "event": event,
            "player": {"uuid": str(join.player), "name": name or join.name}, "round": round_}
