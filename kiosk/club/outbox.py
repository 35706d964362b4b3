"""What the journal has not sent to the hub yet, as uploads, and what the hub's answers leave in it.

The outbox is a query, not a copy: a finished match (with rows) or a player whose UUID has no row in
``club_acks`` is unsent. An answer writes one ``club_acks`` row per key: ``verified`` / ``rejected``
(a match the hub stored, or already held), ``held`` (a player), ``refused`` (a 409: listed for the
club's director and never sent again), ``roster`` (a player learnt from the club's roster). Each
function takes a connection the caller holds (``Database.read`` / ``transaction``); the wire format is
the hub's (``club/wire.py``, docs/club.md "The upload").
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.store.event_schema import berserk_seats
from kiosk.store.journal import COMPUTER_SEAT_KEY

MAX_MATCHES = 200
"""Matches in one upload (the hub's limit)."""
MAX_ROWS = 5_000
"""Journal rows in one upload (the hub's limit)."""
MAX_PLAYERS = 500
"""Players in one upload (the hub's limit)."""
MAX_BYTES = 3 * 1024 * 1024
"""The body size one upload stays under (the hub takes 4 MiB)."""


@dataclass(slots=True)
class Batch:
    """One upload: its players and matches (as the wire format's JSON values)."""

    players: list[dict[str, Any]] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)
    size: int = 0
    """The body's bytes so far (as ``body`` encodes it)."""
    rows: int = 0

    def body(self) -> bytes:
        """The upload's JSON body."""
        return json.dumps({"players": self.players, "matches": self.matches}, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")

    def keys(self) -> set[str]:
        """Every uuid in the upload."""
        return {p["uuid"] for p in self.players} | {m["uuid"] for m in self.matches}

    def fits(self, match: dict[str, Any], size: int) -> bool:
        """Whether ``match`` (``size`` bytes encoded) still fits; the first match always does."""
        if not self.matches:
            return True
        return (len(self.matches) < MAX_MATCHES and self.rows + len(match["rows"]) <= MAX_ROWS
                and self.size + size <= MAX_BYTES)

    def add(self, match: dict[str, Any], size: int) -> None:
        self.matches.append(match)
        self.rows += len(match["rows"])
        self.size += size


def unsent_players(conn: sqlite3.Connection, limit: int = MAX_PLAYERS) -> list[dict[str, Any]]:
    """Players the hub has not acknowledged (oldest first), as ``{"uuid", "name"}``."""
    rows = conn.execute("SELECT uuid, name FROM players p WHERE uuid IS NOT NULL AND NOT EXISTS "
                        "(SELECT 1 FROM club_acks a WHERE a.uuid = p.uuid) ORDER BY id LIMIT ?", (limit,))
    return [{"uuid": str(u), "name": str(n)} for u, n in rows]


def unsent_matches(conn: sqlite3.Connection, limit: int | None = None) -> list[int]:
    """The local ids of the finished matches (with rows) the hub has not answered for, oldest first."""
    sql = ("SELECT id FROM matches m WHERE finished = 1 AND uuid IS NOT NULL AND NOT EXISTS "
           "(SELECT 1 FROM club_acks a WHERE a.uuid = m.uuid) AND EXISTS "
           "(SELECT 1 FROM entries e WHERE e.match_id = m.id) ORDER BY id")
    args: tuple[int, ...] = ()
    if limit is not None:
        sql += " LIMIT ?"
        args = (int(limit),)
    return [int(r[0]) for r in conn.execute(sql, args)]


def count_unsent(conn: sqlite3.Connection) -> tuple[int, int]:
    """(matches, players) not yet acknowledged."""
    return len(unsent_matches(conn)), len(unsent_players(conn, 1_000_000))


class Unsendable(Exception):
    """A finished match whose rows cannot make an upload (its last snapshot missing or unreadable)."""


def match_upload(conn: sqlite3.Connection, match_id: int) -> dict[str, Any]:
    """One finished match as the upload carries it: header, claimed result and its rows exactly as stored."""
    row = conn.execute(
        "SELECT m.uuid, p0.uuid, p1.uuid, m.computer_level, m.created_wall, m.ended_wall, m.config, m.winner, "
        "m.reason, COALESCE(m.event_pairing, ep.uuid), COALESCE(m.berserk, ep.berserk) FROM matches m "
        "LEFT JOIN players p0 ON p0.id = m.player0 LEFT JOIN players p1 ON p1.id = m.player1 "
        "LEFT JOIN event_pairings ep ON ep.match_uuid = m.uuid WHERE m.id = ?", (match_id,)).fetchone()
    if row is None:
        raise Unsendable(f"match {match_id} is not in the journal")
    key, u0, u1, level, created, ended, config, winner, reason, pairing, berserk = row
    rows = [{"seq": int(seq), "step": step, "snapshot": snapshot, "snapshot_sha": sha, "arrival_ns": int(arrival),
             "boot_id": boot, "wall": float(wall), "checksum": check}
            for seq, step, snapshot, sha, arrival, boot, wall, check in conn.execute(
                "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum FROM entries "
                "WHERE match_id = ? ORDER BY seq", (match_id,))]
    try:
        balances = [int(b) for b in json.loads(rows[-1]["snapshot"])["balances"]]
        settings = json.loads(config)
        settings.pop(COMPUTER_SEAT_KEY, None)  # the table's own: the hub takes the engine's configuration only
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise Unsendable(f"match {match_id}: its last row holds no readable snapshot") from exc
    header = {"local_id": int(match_id), "players": [u0, u1], "computer_level": level,
              "created_wall": float(created), "ended_wall": float(ended if ended is not None else created),
              "config": settings}
    if pairing is not None:  # a club event's match (docs/events-protocol.md): optional, absent otherwise
        header |= {"event_pairing": str(pairing), "berserk": berserk_seats(berserk)}
    return {
        "uuid": str(key),
        "header": header,
        "claimed": {"winner": winner, "reason": reason, "balances": balances},
        "rows": rows,
    }


def encoded_size(value: Any) -> int:
    """The bytes ``value`` takes in an upload body (plus its comma)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")) + 1


def record_receipt(conn: sqlite3.Connection, receipt: dict[str, Any], wall_s: float) -> tuple[int, int, int]:
    """The hub's 200 answer written into ``club_acks``; (players, verified, rejected) acknowledged."""
    players = verified = rejected = 0
    for p in _items(receipt.get("players")):
        conn.execute("INSERT OR REPLACE INTO club_acks (uuid, kind, result, detail, wall) VALUES (?, 'player', 'held', "
                     "?, ?)", (str(p["uuid"]), str(p.get("result", "")), wall_s))
        players += 1
    for m in _items(receipt.get("matches")):
        status = "verified" if m.get("status") == "verified" else "rejected"
        conn.execute("INSERT OR REPLACE INTO club_acks (uuid, kind, result, detail, wall) VALUES (?, 'match', ?, ?, ?)",
                     (str(m["uuid"]), status, m.get("rejection"), wall_s))
        if status == "verified":
            verified += 1
            _mark_stale(conn, str(m["uuid"]))
        else:
            rejected += 1
    return players, verified, rejected


def record_refused(conn: sqlite3.Connection, conflicts: Iterable[dict[str, Any]], wall_s: float) -> int:
    """A 409's conflicting keys written into ``club_acks`` as refused (never sent again); how many."""
    count = 0
    for c in conflicts:
        kind = "player" if c.get("kind") == "player" else "match"
        conn.execute("INSERT OR REPLACE INTO club_acks (uuid, kind, result, detail, wall) VALUES (?, ?, 'refused', ?, ?)",
                     (str(c["key"]), kind, str(c.get("why", "")), wall_s))
        count += 1
    return count


def refused(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """Every key the hub refused: (kind, uuid, why), for the owner and the club's director."""
    return [(str(k), str(u), str(d or "")) for k, u, d in
            conn.execute("SELECT kind, uuid, detail FROM club_acks WHERE result = 'refused' ORDER BY wall, uuid")]


def rejected(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """Every match the hub stored as rejected: (uuid, the hub's reason)."""
    return [(str(u), str(d or "")) for u, d in
            conn.execute("SELECT uuid, detail FROM club_acks WHERE result = 'rejected' ORDER BY wall, uuid")]


def _mark_stale(conn: sqlite3.Connection, match_uuid: str) -> None:
    """The roster's numbers of a verified match's players are old until the next download."""
    conn.execute("UPDATE club_roster SET stale = 1 WHERE uuid IN (SELECT p.uuid FROM matches m JOIN players p "
                 "ON p.id IN (m.player0, m.player1) WHERE m.uuid = ?)", (match_uuid,))


def _items(value: Any) -> Sequence[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict) and "uuid" in v] if isinstance(value, list) else []
