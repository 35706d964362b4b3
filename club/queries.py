"""The read side: the match archive, the leaderboard, the versioned roster, the conflicts."""

from __future__ import annotations

from typing import Any

import psycopg

from club.ratings import PROVISIONAL_RD

Conn = psycopg.Connection[tuple[Any, ...]]


def matches(conn: Conn, *, status: str | None = None, limit: int = 200, offset: int = 0) -> list[dict[str, Any]]:
    """Matches newest first in the canonical order: uuid, kiosk, players, winner, reason, status, rejection."""
    rows = conn.execute(
        "SELECT m.uuid, k.name, m.kiosk, m.player0, m.player1, p0.name, p1.name, m.computer_level,"
        " coalesce(m.winner, m.claimed_winner), coalesce(m.reason, m.claimed_reason), m.status, m.rejection,"
        " m.rated, m.created_wall, m.ended_wall, m.engine_version, p0.merged_into, p1.merged_into"
        " FROM matches m JOIN kiosks k ON k.uuid = m.kiosk"
        " LEFT JOIN players p0 ON p0.uuid = m.player0 LEFT JOIN players p1 ON p1.uuid = m.player1"
        " WHERE %(status)s::text IS NULL OR m.status = %(status)s"
        " ORDER BY m.ended_wall DESC, m.kiosk DESC, m.uuid DESC LIMIT %(limit)s OFFSET %(offset)s",
        {"status": status, "limit": limit, "offset": offset})
    return [{
        "uuid": str(r[0]), "kiosk": r[1], "kiosk_uuid": str(r[2]),
        "players": [_player(r[3], r[5], r[16]), _player(r[4], r[6], r[17])], "computer_level": r[7],
        "winner": r[8], "reason": r[9], "status": r[10], "rejection": r[11], "rated": r[12],
        "created_wall": r[13], "ended_wall": r[14], "engine_version": r[15],
    } for r in rows]


def leaderboard(conn: Conn) -> list[dict[str, Any]]:
    """Every player not merged into another, by club rating (highest first), then rated games (most
    first), then name."""
    rows = conn.execute("SELECT uuid, name, rating, rd, games, wins, losses FROM players WHERE merged_into IS NULL"
                        " ORDER BY rating DESC, games DESC, name, uuid")
    return [{"uuid": str(r[0]), "name": r[1], "rating": r[2], "rd": r[3], "games": r[4], "wins": r[5],
             "losses": r[6], "provisional": r[3] > PROVISIONAL_RD} for r in rows]


def roster(conn: Conn, since: int) -> dict[str, Any]:
    """The players changed after roster version ``since`` (all of them when ``since`` is 0 or from
    another hub's count: larger than this hub's version), with the version to ask from next time.
    ``merged_into``: the canonical uuid a merged player now counts as (None when not merged)."""
    row = conn.execute("SELECT version FROM roster").fetchone()
    assert row is not None
    version = int(row[0])
    complete = since <= 0 or since > version
    rows = conn.execute("SELECT uuid, name, rating, rd, volatility, games, version, merged_into FROM players"
                        " WHERE version > %s ORDER BY version, uuid", (0 if complete else since,))
    return {"version": version, "since": since, "complete": complete, "players": [
        {"uuid": str(r[0]), "name": r[1], "rating": r[2], "rd": r[3], "volatility": r[4], "games": r[5],
         "provisional": r[3] > PROVISIONAL_RD, "version": r[6],
         "merged_into": None if r[7] is None else str(r[7])} for r in rows]}


def conflicts(conn: Conn) -> list[dict[str, Any]]:
    """The refused keys for the director: what, which kiosk, why, when, how often."""
    rows = conn.execute("SELECT c.kind, c.key, k.name, c.why, c.first_seen, c.last_seen, c.times, c.content_sha256"
                        " FROM conflicts c JOIN kiosks k ON k.uuid = c.kiosk ORDER BY c.first_seen, c.id")
    return [{"kind": r[0], "key": str(r[1]), "kiosk": r[2], "why": r[3], "first_seen": r[4].isoformat(),
             "last_seen": r[5].isoformat(), "times": r[6], "content_sha256": r[7]} for r in rows]


def _player(key: Any, name: Any, merged_into: Any) -> dict[str, Any] | None:
    """A seat of a match: the uuid it was uploaded with, the name, and the canonical uuid it counts as
    when the director merged it."""
    if key is None:
        return None
    return {"uuid": str(key), "name": name, "merged_into": None if merged_into is None else str(merged_into)}
