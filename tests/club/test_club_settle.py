"""Late uploads mark the ratings stale and one recompute settles them (not one per late upload); a
hub starting on stale ratings settles them first."""

from __future__ import annotations

import copy
import json

import psycopg
from fastapi.testclient import TestClient

from club.app import create_app
from club.ingest import commit, prepare, settle_ratings
from club.standings import next_version, recompute
from club.tokens import add_kiosk, authenticate
from club.wire import parse_upload


def _stale(dsn: str) -> bool:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT stale FROM rating_state").fetchone()
    assert row is not None
    return bool(row[0])


def _canonical(dsn: str) -> bool:
    """Whether the stored ratings are those of a recompute (which is rolled back)."""
    with psycopg.connect(dsn) as conn:
        changed = recompute(conn, next_version(conn))
        conn.rollback()
    return changed == set()


def test_late_uploads_leave_the_ratings_stale_until_one_recompute_settles_them(hub, journals) -> None:
    pool = hub.client.app.state.pool
    tokens = {t: hub.kiosk(t) for t in ("table-1", "table-2")}
    with pool.connection() as conn:
        kiosks = {t: authenticate(conn, tok) for t, tok in tokens.items()}
    recomputed = []
    for table, body in (("table-2", journals["table-2"]), ("table-1", journals["table-1"])):
        for match in body["matches"]:  # one upload per match: table-1's come late, interleaved
            one = {"players": body["players"], "matches": [copy.deepcopy(match)]}
            receipt = commit(pool, prepare(pool, kiosks[table], parse_upload(json.dumps(one).encode())))
            recomputed.append(receipt.recomputed)
    assert any(recomputed) and _stale(hub.dsn) and not _canonical(hub.dsn)
    version = hub.client.get("/api/v1/roster").json()["version"]
    assert settle_ratings(pool) == version + 1
    assert not _stale(hub.dsn) and _canonical(hub.dsn)
    assert hub.client.get("/api/v1/roster").json()["version"] == version + 1
    assert settle_ratings(pool) is None  # nothing left to do
    assert hub.client.get("/api/v1/roster").json()["version"] == version + 1
    assert sum(r["games"] for r in hub.client.get("/api/v1/leaderboard").json()) == 2 * 7


def test_a_hub_starting_on_stale_ratings_settles_them_before_it_serves(dsn: str, journals) -> None:
    with TestClient(create_app(dsn, pool_size=2)) as client:
        pool = client.app.state.pool  # type: ignore[attr-defined]
        with pool.connection() as conn:
            kiosk = add_kiosk(conn, "table-1")[0]
        body = json.dumps(copy.deepcopy(journals["table-1"])).encode()
        commit(pool, prepare(pool, kiosk, parse_upload(body)))
    with psycopg.connect(dsn) as conn:  # as a kill between a late upload and its recompute leaves it
        conn.execute("UPDATE rating_state SET stale = true")
        conn.execute("UPDATE players SET rating = 1000")
    assert not _canonical(dsn)
    with TestClient(create_app(dsn, pool_size=2)) as client:
        assert not _stale(dsn) and _canonical(dsn)
        assert {r["rating"] for r in client.get("/api/v1/leaderboard").json()} != {1000.0}
