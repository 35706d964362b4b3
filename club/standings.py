"""The stored club ratings: folding new results onto them, and recomputing them whole.

A match that sorts after every match counted is folded onto the stored ratings at once. A late one
(it sorts before one already counted) marks the ratings stale; ``settle`` recomputes them whole once
the uploads in flight are stored (the app calls it when none is left, and at least every
``SETTLE_EVERY`` stored uploads). Fifty tables uploading an evening at once then cost one recompute,
not one per upload. Merges and unmerges recompute at once.

Every rating is computed under the director's merges (``aliases``): a match keeps the player uuids
it was uploaded with, and each one that is an alias counts for its canonical player. A match whose
two seats map to one player under the merges counts for nothing (``ratings.mapped``). Callers hold
the upload lock (``INGEST_LOCK``) in their transaction, so ratings always follow the canonical order.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg

from club.ratings import OrderKey, Result, Standing, fold, mapped, order_key

INGEST_LOCK = 0x5B1D_0002
"""The advisory lock key uploads and the director's operations take turns on."""

SETTLE_EVERY = 20
"""Stale ratings are recomputed after this many stored uploads at the latest, even while more come."""

Conn = psycopg.Connection[tuple[Any, ...]]


def take_turn(conn: Conn) -> None:
    """Wait for the upload lock, held until the current transaction ends; and make its commit durable
    before it returns whatever the server's ``synchronous_commit`` (a kiosk takes an acknowledged
    upload as kept: a server set to ``off`` would lose the last acknowledged uploads in a crash)."""
    conn.execute("SET LOCAL synchronous_commit = on")
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (INGEST_LOCK,))


def aliases(conn: Conn) -> dict[uuid.UUID, uuid.UUID]:
    """The merges in force: alias uuid -> canonical uuid."""
    return {r[0]: r[1] for r in conn.execute("SELECT uuid, merged_into FROM players WHERE merged_into IS NOT NULL")}


def next_version(conn: Conn) -> int:
    """The roster version the current transaction's changes get (the roster row locked until it ends)."""
    row = conn.execute("SELECT version FROM roster FOR UPDATE").fetchone()
    assert row is not None
    return int(row[0]) + 1


def fold_new(conn: Conn, results: list[Result], version: int) -> bool:
    """Fold new rated results into the stored ratings; True when one came late (it sorts before a
    match already counted): the ratings are then marked stale, for ``settle`` to recompute."""
    row = conn.execute("SELECT last_wall, last_kiosk, last_match, stale FROM rating_state FOR UPDATE").fetchone()
    assert row is not None
    last: OrderKey | None = None if row[0] is None else order_key(row[0], row[1], row[2])
    late = last is not None and min(r.key for r in results) <= last
    if late or row[3]:
        conn.execute("UPDATE rating_state SET stale = true")
    else:
        counted = mapped(results, aliases(conn))
        current = standings(conn, {p for r in counted for p in r.players})
        _write(conn, current, fold(counted, current), version)
    newest = max(results, key=lambda r: r.key)
    if last is None or newest.key > last:
        conn.execute("UPDATE rating_state SET last_wall = %s, last_kiosk = %s, last_match = %s",
                     (newest.ended_wall, newest.kiosk, newest.match))
    return late


def settle(conn: Conn) -> int | None:
    """Recompute the ratings when a late upload left them stale (in its own transaction, taking its
    turn); the roster version advances when a number changed. The roster version after it, or None
    when nothing was stale."""
    with conn.transaction():
        take_turn(conn)
        row = conn.execute("SELECT stale FROM rating_state").fetchone()
        if row is None or not row[0]:
            return None
        version = next_version(conn)
        if recompute(conn, version):
            conn.execute("UPDATE roster SET version = %s", (version,))
            return version
        return version - 1


def recompute(conn: Conn, version: int) -> set[uuid.UUID]:
    """Every rating again from the first verified rated match under the merges in force; the players
    whose numbers changed (they get ``version``)."""
    everything = [Result(r[0], r[1], r[2], (r[3], r[4]), r[5]) for r in conn.execute(
        "SELECT ended_wall, kiosk, uuid, player0, player1, winner FROM matches WHERE rated")]
    current = standings(conn, None)
    after = fold(mapped(everything, aliases(conn)))
    after.update({p: Standing() for p in current if p not in after})
    conn.execute("UPDATE rating_state SET stale = false")
    return _write(conn, current, after, version)


def standings(conn: Conn, players: set[uuid.UUID] | None) -> dict[uuid.UUID, Standing]:
    """The stored standings of ``players`` (None: everyone)."""
    query = "SELECT uuid, rating, rd, volatility, games, wins, losses FROM players"
    rows = conn.execute(query) if players is None else conn.execute(query + " WHERE uuid = ANY(%s)", (list(players),))
    return {r[0]: Standing(r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows}


def _write(conn: Conn, current: dict[uuid.UUID, Standing], after: dict[uuid.UUID, Standing],
           version: int) -> set[uuid.UUID]:
    updates = [(s.rating, s.rd, s.volatility, s.games, s.wins, s.losses, version, p)
               for p, s in after.items() if current.get(p, Standing()) != s]
    with conn.cursor() as cur:
        cur.executemany("UPDATE players SET rating = %s, rd = %s, volatility = %s, games = %s, wins = %s,"
                        " losses = %s, version = %s WHERE uuid = %s", updates)
    return {u[-1] for u in updates}
