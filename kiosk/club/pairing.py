"""A club event's pairing at the table: the hub's answer checked field by field, and its rows in the journal.

``GET /api/v1/kiosk/assignment`` (docs/events-protocol.md) gives this table one pairing at a time:
two club players, the event's name and round, the match settings. ``parse_pairing`` turns the
answer into a ``Pairing`` or says why it is not one. The journal keeps each pairing in
``event_pairings`` (``kiosk.store.event_schema``) from the moment the table stores it until it is
dropped (the hub moved or cancelled it) or played (a match names it); ``open_pairing`` is the one the
home screen shows. A pairing's player that this table does not know is added to its players with the
hub's UUID, as the roster adds club players (``kiosk.club.roster``): never over another local player
of the same name, whom the club's director renames or merges on the hub.
"""

from __future__ import annotations

import json
import math
import sqlite3
import uuid
from dataclasses import dataclass, replace
from typing import Any

from engine import NS_PER_S, MatchConfig
from kiosk.store.errors import PlayerNameError
from kiosk.store.event_schema import berserk_text
from kiosk.store.players import clean_name, name_key
from kiosk.store.ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY

FORMATS = ("arena", "swiss", "round-robin")
MAX_BANK_S = 24 * 3600.0
MAX_DELAY_S = 3600.0
MAX_BALANCES = 100_000
"""The largest starting balance the hub's wire takes (``club/wire.py``)."""


class BadPairing(ValueError):
    """The hub's answer is not a pairing; ``str()`` says which field and why."""


@dataclass(frozen=True, slots=True)
class EventPlayer:
    """A club player named by a pairing."""

    uuid: str
    name: str


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pairing as the hub gave it (seat 0, Player 1, first), and what the journal adds."""

    uuid: str
    event_uuid: str
    event_name: str
    event_format: str
    round: int | None
    """The round (Swiss, round-robin); None in an arena."""
    players: tuple[EventPlayer, EventPlayer]
    bank_seconds: float
    delay_seconds: float
    balances: int
    berserk: bool
    """Arena only: each player may halve their own bank at the ready screen."""
    acknowledge_by: float
    local_ids: tuple[int | None, int | None] = (None, None)
    """The players' ids in this journal (None: not at this table, e.g. a name another local player has)."""
    acked: bool = False
    """The hub acknowledged that this table has it."""

    def body(self) -> dict[str, Any]:
        """The pairing as the hub sends it (what the journal's ``body`` holds)."""
        return {"uuid": self.uuid, "event": {"uuid": self.event_uuid, "name": self.event_name,
                                             "format": self.event_format},
                "round": self.round, "players": [{"uuid": p.uuid, "name": p.name} for p in self.players],
                "settings": {"bank_seconds": self.bank_seconds, "delay_seconds": self.delay_seconds,
                             "balances": self.balances},
                "berserk": self.berserk, "acknowledge_by": self.acknowledge_by}


def parse_pairing(value: Any) -> Pairing:
    """The hub's ``pairing`` object checked field by field; BadPairing naming the first field that is wrong."""
    if not isinstance(value, dict):
        raise BadPairing("the pairing is not an object")
    event = _field(value, "event", dict)
    settings = _field(value, "settings", dict)
    players = _field(value, "players", list)
    if len(players) != 2 or not all(isinstance(p, dict) for p in players):
        raise BadPairing("players: two players, seat 0 first")
    seats = tuple(EventPlayer(_uuid(p, "players.uuid"), _name(p)) for p in players)
    if seats[0].uuid == seats[1].uuid:
        raise BadPairing("players: the same player in both seats")
    round_ = value.get("round")
    if round_ is not None and (not _int(round_) or round_ < 1):
        raise BadPairing("round: a whole number from 1, or null")
    fmt = _field(event, "format", str)
    if fmt not in FORMATS:
        raise BadPairing(f"event.format: one of {', '.join(FORMATS)}")
    name = _field(event, "name", str).strip()
    if not name or len(name) > 120:
        raise BadPairing("event.name: 1 to 120 characters")
    bank = _number(settings, "bank_seconds", 0.0, MAX_BANK_S, strict_low=True)
    delay = _number(settings, "delay_seconds", 0.0, MAX_DELAY_S)
    balances = settings.get("balances")
    if not _int(balances) or not 1 <= balances <= MAX_BALANCES:
        raise BadPairing(f"settings.balances: a whole number from 1 to {MAX_BALANCES}")
    berserk = value.get("berserk", False)
    if not isinstance(berserk, bool):
        raise BadPairing("berserk: true or false")
    pairing = Pairing(
        uuid=_uuid(value, "uuid"), event_uuid=_uuid(event, "event.uuid"), event_name=name, event_format=fmt,
        round=round_, players=(seats[0], seats[1]), bank_seconds=bank, delay_seconds=delay, balances=balances,
        berserk=berserk and fmt == "arena", acknowledge_by=_number(value, "acknowledge_by", 0.0, math.inf))
    MatchConfig.from_dict(match_config(pairing).to_dict())  # the engine takes these settings
    return pairing


def match_config(pairing: Pairing, berserk: tuple[int, ...] = (), handover: bool = True) -> MatchConfig:
    """The engine's configuration for a match of ``pairing``: the event's settings, the bank of each
    seat in ``berserk`` halved (whole milliseconds)."""
    bank_ns = round(pairing.bank_seconds * 1000) * (NS_PER_S // 1000)
    half_ns = (bank_ns // 2) // (NS_PER_S // 1000) * (NS_PER_S // 1000)
    banks = tuple(half_ns if seat in berserk else bank_ns for seat in (0, 1))
    return MatchConfig(balances=(pairing.balances, pairing.balances), bank_ns=(banks[0], banks[1]),
                       delay_ns=round(pairing.delay_seconds * 1000) * (NS_PER_S // 1000), handover=handover)


def _field(value: dict[str, Any], key: str, kind: type) -> Any:
    item = value.get(key)
    if not isinstance(item, kind):
        raise BadPairing(f"{key}: missing or not {'an object' if kind is dict else 'a ' + kind.__name__}")
    return item


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: dict[str, Any], key: str, low: float, high: float, *, strict_low: bool = False) -> float:
    item = value.get(key)
    ok = isinstance(item, int | float) and not isinstance(item, bool) and math.isfinite(item)
    if not ok or not isinstance(item, int | float) or item > high or item < low or (strict_low and item == low):
        raise BadPairing(f"{key}: a number {'above' if strict_low else 'from'} {low:g}"
                         + ("" if high == math.inf else f" to {high:g}"))
    return float(item)


def _uuid(value: dict[str, Any], key: str) -> str:
    try:
        return str(uuid.UUID(str(value[key.rpartition(".")[2]])))
    except (KeyError, ValueError):
        raise BadPairing(f"{key}: not a UUID") from None


def _name(value: dict[str, Any]) -> str:
    try:
        return clean_name(str(value.get("name", "")))
    except PlayerNameError:
        raise BadPairing("players.name: not a player's name") from None


# -- the journal ------------------------------------------------------------------------------------


def store_pairing(conn: sqlite3.Connection, pairing: Pairing, wall_s: float) -> None:
    """Inside a transaction: keep ``pairing`` (again open if it had been dropped; a played one stays
    played) and add its players this table lacks."""
    body = json.dumps(pairing.body(), separators=(",", ":"), ensure_ascii=False)
    conn.execute("INSERT INTO event_pairings (uuid, body, received_wall) VALUES (?, ?, ?) ON CONFLICT (uuid) DO "
                 "UPDATE SET body = excluded.body, dropped_wall = NULL, dropped_why = NULL", (pairing.uuid, body, wall_s))
    add_players(conn, pairing.players, wall_s)


def add_players(conn: sqlite3.Connection, players: tuple[EventPlayer, ...], wall_s: float) -> None:
    """The players this table does not know, added with the hub's UUID (a ``club_acks`` row ``roster``:
    never uploaded back); one whose name another local player has is not added."""
    for p in players:
        if conn.execute("SELECT 1 FROM players WHERE uuid = ?", (p.uuid,)).fetchone() is not None:
            continue
        if any(name_key(str(n)) == name_key(p.name) for (n,) in conn.execute("SELECT name FROM players")):
            continue  # another player of this table has the name: the director decides, never merged here
        conn.execute("INSERT INTO players (name, created_wall, rating, rd, volatility, uuid) VALUES (?, ?, ?, ?, ?, ?)",
                     (p.name, wall_s, DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, p.uuid))
        conn.execute("INSERT OR IGNORE INTO club_acks (uuid, kind, result, detail, wall) VALUES "
                     "(?, 'player', 'roster', NULL, ?)", (p.uuid, wall_s))


def mark_acked(conn: sqlite3.Connection, pairing_uuid: str, wall_s: float) -> None:
    """The hub acknowledged that this table has the pairing."""
    conn.execute("UPDATE event_pairings SET acked_wall = ? WHERE uuid = ? AND acked_wall IS NULL",
                 (wall_s, pairing_uuid))


def drop_pairing(conn: sqlite3.Connection, pairing_uuid: str, why: str, wall_s: float) -> None:
    """The pairing is no longer this table's (moved, cancelled, never its own): not shown again."""
    conn.execute("UPDATE event_pairings SET dropped_wall = ?, dropped_why = ? WHERE uuid = ? AND match_uuid IS NULL",
                 (wall_s, why[:500], pairing_uuid))


def link_match(conn: sqlite3.Connection, pairing_uuid: str, match_uuid: str, berserk: tuple[int, ...]) -> None:
    """The match ``match_uuid`` plays the pairing: both rows name each other (the match's when it has
    none yet: it is normally entered with it)."""
    text = berserk_text(berserk)
    conn.execute("UPDATE event_pairings SET match_uuid = ?, berserk = ?, dropped_wall = NULL, dropped_why = NULL "
                 "WHERE uuid = ?", (match_uuid, text, pairing_uuid))
    conn.execute("UPDATE matches SET event_pairing = ?, berserk = ? WHERE uuid = ? AND event_pairing IS NULL",
                 (pairing_uuid, text, match_uuid))


def played(conn: sqlite3.Connection, pairing_uuid: str) -> bool:
    """Whether a match of this journal plays the pairing."""
    return conn.execute("SELECT EXISTS (SELECT 1 FROM event_pairings WHERE uuid = ? AND match_uuid IS NOT NULL) OR "
                        "EXISTS (SELECT 1 FROM matches WHERE event_pairing = ?)",
                        (pairing_uuid, pairing_uuid)).fetchone()[0] in (1, True)


def open_pairing(conn: sqlite3.Connection) -> Pairing | None:
    """The pairing the home screen shows: the newest one kept, not dropped and not played (None: none)."""
    row = conn.execute(
        "SELECT e.body, e.acked_wall FROM event_pairings e WHERE e.dropped_wall IS NULL AND e.match_uuid IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.event_pairing = e.uuid) "
        "ORDER BY e.received_wall DESC, e.uuid LIMIT 1").fetchone()
    if row is None:
        return None
    try:
        pairing = parse_pairing(json.loads(row[0]))
    except (BadPairing, ValueError, TypeError):
        return None
    ids = []
    for p in pairing.players:
        found = conn.execute("SELECT id FROM players WHERE uuid = ?", (p.uuid,)).fetchone()
        ids.append(None if found is None else int(found[0]))
    return replace(pairing, local_ids=(ids[0], ids[1]), acked=row[1] is not None)


def status(conn: sqlite3.Connection, pairing_uuid: str) -> str | None:
    """``open``, ``dropped`` or ``played`` for a pairing this journal keeps; None for one it never had."""
    row = conn.execute("SELECT dropped_wall IS NOT NULL FROM event_pairings WHERE uuid = ?", (pairing_uuid,)).fetchone()
    if played(conn, pairing_uuid):
        return "played"
    if row is None:
        return None
    return "dropped" if row[0] else "open"
