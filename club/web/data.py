"""What the pages read from the hub's database: latest results, the ladder's form, a player's
history, rating graph and head-to-head, the archive's filter and a match's stored rows."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import psycopg

from club.ratings import PROVISIONAL_RD, Result, Standing, fold
from kiosk.store.records import StoredEntry, stored_entry

Conn = psycopg.Connection[tuple[Any, ...]]
FORM_GAMES = 5
"""How many recent rated results the ladder shows as a player's form."""
_MATCH_COLUMNS = (
    "SELECT m.uuid, k.name, m.player0, m.player1, p0.name, p1.name, m.computer_level,"
    " coalesce(m.winner, m.claimed_winner), coalesce(m.reason, m.claimed_reason), m.status, m.rated,"
    " m.ended_wall, coalesce(m.balances, m.claimed_balances), m.rejection"
    " FROM matches m JOIN kiosks k ON k.uuid = m.kiosk"
    " LEFT JOIN players p0 ON p0.uuid = m.player0 LEFT JOIN players p1 ON p1.uuid = m.player1")


def _match(r: tuple[Any, ...]) -> dict[str, Any]:
    return {"uuid": str(r[0]), "kiosk": r[1], "players": [_player(r[2], r[4]), _player(r[3], r[5])],
            "computer_level": r[6], "winner": r[7], "reason": r[8], "status": r[9], "rated": r[10],
            "ended": dt.datetime.fromtimestamp(float(r[11]), dt.UTC), "balances": list(r[12] or []),
            "rejection": r[13]}


def _player(key: Any, name: Any) -> dict[str, Any] | None:
    return None if key is None else {"uuid": str(key), "name": name}


def archive(conn: Conn, *, player: str = "", day: dt.date | None = None, status: str | None = "verified",
            limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """Matches newest first, those of a player whose name contains ``player`` and that ended on ``day`` (UTC)."""
    start = None if day is None else dt.datetime.combine(day, dt.time(), dt.UTC).timestamp()
    rows = conn.execute(
        _MATCH_COLUMNS + " WHERE (%(status)s::text IS NULL OR m.status = %(status)s)"
        " AND (%(player)s = '' OR strpos(lower(p0.name), lower(%(player)s)) > 0"
        "      OR strpos(lower(p1.name), lower(%(player)s)) > 0 OR m.player0::text = %(player)s"
        "      OR m.player1::text = %(player)s)"
        " AND (%(start)s::float8 IS NULL OR (m.ended_wall >= %(start)s AND m.ended_wall < %(start)s + 86400))"
        " ORDER BY m.ended_wall DESC, m.kiosk DESC, m.uuid DESC LIMIT %(limit)s OFFSET %(offset)s",
        {"status": status, "player": player, "start": start, "limit": limit, "offset": offset})
    return [_match(r) for r in rows]


def one_match(conn: Conn, key: uuid.UUID) -> dict[str, Any] | None:
    """One match's summary, or None."""
    row = conn.execute(_MATCH_COLUMNS + " WHERE m.uuid = %s", (key,)).fetchone()
    return None if row is None else _match(row)


def match_entries(conn: Conn, key: uuid.UUID) -> tuple[dict[str, Any], list[StoredEntry]] | None:
    """A stored match's configuration and rows as the journal's entries (checked), or None."""
    head = conn.execute("SELECT config, local_id FROM matches WHERE uuid = %s", (key,)).fetchone()
    if head is None:
        return None
    rows = conn.execute("SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"
                        " FROM match_rows WHERE match = %s ORDER BY seq", (key,)).fetchall()
    return dict(head[0]), [stored_entry(int(head[1]), tuple(r)) for r in rows]


def ladder(conn: Conn) -> list[dict[str, Any]]:
    """Every player by rating with games, provisional mark and the last ``FORM_GAMES`` rated results (W/L)."""
    players = conn.execute("SELECT uuid, name, rating, rd, games, wins, losses FROM players"
                           " ORDER BY rating DESC, games DESC, name, uuid").fetchall()
    form: dict[str, list[str]] = {}
    for m in _rated(conn, newest_first=True):
        for seat in (0, 1):
            key = str(m["players"][seat])
            got = form.setdefault(key, [])
            if len(got) < FORM_GAMES:
                got.append("W" if m["winner"] == seat else "L")
    return [{"uuid": str(r[0]), "name": r[1], "rating": r[2], "rd": r[3], "games": r[4], "wins": r[5],
             "losses": r[6], "provisional": r[3] > PROVISIONAL_RD, "form": form.get(str(r[0]), [])}
            for r in players]


def player(conn: Conn, key: uuid.UUID) -> dict[str, Any] | None:
    """A player's standing, history (newest first), rating after each rated match, and head-to-head."""
    row = conn.execute("SELECT uuid, name, rating, rd, games, wins, losses FROM players WHERE uuid = %s",
                       (key,)).fetchone()
    if row is None:
        return None
    history = [_match(r) for r in conn.execute(
        _MATCH_COLUMNS + " WHERE m.player0 = %(p)s OR m.player1 = %(p)s"
        " ORDER BY m.ended_wall DESC, m.kiosk DESC, m.uuid DESC LIMIT 200", {"p": key})]
    return {"uuid": str(row[0]), "name": row[1], "rating": row[2], "rd": row[3], "games": row[4],
            "wins": row[5], "losses": row[6], "provisional": row[3] > PROVISIONAL_RD,
            "history": history, "series": rating_series(conn, key), "rivals": head_to_head(history, str(key))}


def rating_series(conn: Conn, key: uuid.UUID) -> list[float]:
    """The player's club rating before their first rated match and after each one (the canonical order)."""
    standings: dict[uuid.UUID, Standing] = {}
    series = [Standing().rating]
    for m in _rated(conn, newest_first=False):
        result = Result(m["ended_wall"], m["kiosk"], m["uuid"], m["players"], m["winner"])
        standings = fold([result], standings)
        if key in m["players"]:
            series.append(standings[key].rating)
    return series


def head_to_head(history: list[dict[str, Any]], me: str) -> list[dict[str, Any]]:
    """Per named opponent in the verified matches of ``history``: games, wins and losses, most games first."""
    rivals: dict[str, dict[str, Any]] = {}
    for m in history:
        if m["status"] != "verified" or m["winner"] not in (0, 1):
            continue
        seats = [p["uuid"] if p else None for p in m["players"]]
        if me not in seats or None in seats or seats[0] == seats[1]:
            continue
        mine = seats.index(me)
        other = m["players"][1 - mine]
        row = rivals.setdefault(other["uuid"], {"uuid": other["uuid"], "name": other["name"],
                                                "games": 0, "wins": 0, "losses": 0})
        row["games"] += 1
        row["wins" if m["winner"] == mine else "losses"] += 1
    return sorted(rivals.values(), key=lambda r: (-r["games"], r["name"]))


def _rated(conn: Conn, *, newest_first: bool) -> list[dict[str, Any]]:
    order = "DESC" if newest_first else "ASC"
    rows = conn.execute(f"SELECT ended_wall, kiosk, uuid, player0, player1, winner FROM matches WHERE rated"
                        f" ORDER BY ended_wall {order}, kiosk {order}, uuid {order}")
    return [{"ended_wall": float(r[0]), "kiosk": r[1], "uuid": r[2], "players": (r[3], r[4]), "winner": r[5]}
            for r in rows]


def rejected(conn: Conn) -> list[dict[str, Any]]:
    """The rejected matches, newest first, for the director."""
    return [_match(r) for r in conn.execute(
        _MATCH_COLUMNS + " WHERE m.status = 'rejected' ORDER BY m.ended_wall DESC LIMIT 200")]
