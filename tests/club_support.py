"""Helpers for the club hub's tests: a throwaway PostgreSQL cluster made from the installed server
binaries (as pytest-postgresql does), and real kiosk journals turned into uploads."""

from __future__ import annotations

import copy
import json
import shutil
import sqlite3
import tempfile
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from club.errors import SetupError
from club.localdb import LocalCluster
from club.tokens import add_kiosk
from kiosk.store.journal import Journal
from kiosk.store.players import Players

NAMESPACE = uuid.UUID("5b1d0000-0000-4000-8000-000000000022")


def start_cluster() -> LocalCluster:
    """A fresh throwaway cluster (no fsync) in a new temporary folder, started; the test FAILS (never
    skips) naming the Debian package when the server binaries are missing."""
    folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
    try:
        cluster = LocalCluster(folder, fast=True)
    except SetupError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"the club hub's tests need a PostgreSQL server: {exc.message}; .ci/run installs it",
                    pytrace=False)
    cluster.init()
    cluster.start()
    return cluster


def stop_cluster(cluster: LocalCluster) -> None:
    """Stop the cluster at once and remove its folder."""
    cluster.run("pg_ctl", "-D", str(cluster.data), "-m", "immediate", "-w", "stop")
    shutil.rmtree(cluster.folder, ignore_errors=True)


class Hub:
    """The hub's app under a TestClient, with helpers to register kiosks and upload."""

    def __init__(self, client: TestClient, dsn: str) -> None:
        self.client = client
        self.dsn = dsn

    def kiosk(self, name: str) -> str:
        """Register a kiosk; its token."""
        with psycopg.connect(self.dsn) as conn:
            return add_kiosk(conn, name)[1]

    def upload(self, token: str | None, body: Any, **kwargs: Any) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.client.post("/api/v1/uploads", json=body, headers=headers, **kwargs)

    def count(self, table: str) -> int:
        with psycopg.connect(self.dsn) as conn:
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert row is not None
            return int(row[0])

    def counts(self) -> dict[str, int]:
        return {t: self.count(t) for t in ("players", "matches", "match_rows", "conflicts")}


# -- real journals as uploads ----------------------------------------------------------------------


def play_journal(path: Path, *, seed: int, names: tuple[str, ...] = ("Ann", "Bo", "Cy"), matches: int = 4,
                 guests: int = 0) -> None:
    """A real kiosk journal at ``path``: named players and ``matches`` finished rated matches between them
    (random legal commands through a GameSession, as in the journal's tests), then ``guests`` guest matches."""
    from journal_support import new_table

    with Journal.open(path) as journal:
        players = Players(journal)
        ids = [players.create(n).id for n in names]
        for i in range(matches + guests):
            pair = (ids[i % len(ids)], ids[(i + 1) % len(ids)]) if i < matches else (None, None)
            table = new_table(journal, seed * 1000 + i, players=pair, now=(1000 + 1000 * i) * 10**9)
            while table.step():
                pass


def player_uuid(kiosk: str, local_id: int) -> uuid.UUID:
    """The uuid a kiosk's local player id gets (the journal's UUID migration is the kiosk's side, issue 22)."""
    return uuid.uuid5(NAMESPACE, f"{kiosk}/player/{local_id}")


def match_uuid(kiosk: str, local_id: int) -> uuid.UUID:
    """The uuid a kiosk's local match id gets."""
    return uuid.uuid5(NAMESPACE, f"{kiosk}/match/{local_id}")


def journal_upload(path: Path, kiosk: str, *, wall_offset: float = 0.0) -> dict[str, Any]:
    """Every player and finished match of the journal at ``path`` as one upload body (``wall_offset``
    moves the wall times, so two journals' matches interleave in the canonical order)."""
    conn = sqlite3.connect(path)
    try:
        players = [{"uuid": str(player_uuid(kiosk, pid)), "name": name}
                   for pid, name in conn.execute("SELECT id, name FROM players ORDER BY id")]
        out = []
        for mid, p0, p1, created, ended, config, winner, reason, level in conn.execute(
                "SELECT id, player0, player1, created_wall, ended_wall, config, winner, reason, computer_level"
                " FROM matches WHERE finished = 1 ORDER BY id").fetchall():
            rows = [{"seq": seq, "step": step, "snapshot": snap, "snapshot_sha": sha, "arrival_ns": arrival,
                     "boot_id": boot, "wall": wall, "checksum": check}
                    for seq, step, snap, sha, arrival, boot, wall, check in conn.execute(
                        "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"
                        " FROM entries WHERE match_id = ? ORDER BY seq", (mid,))]
            balances = json.loads(rows[-1]["snapshot"])["balances"]
            out.append({
                "uuid": str(match_uuid(kiosk, mid)),
                "header": {"local_id": mid,
                           "players": [None if p is None else str(player_uuid(kiosk, p)) for p in (p0, p1)],
                           "computer_level": level, "created_wall": created + wall_offset,
                           "ended_wall": (ended if ended is not None else created) + wall_offset + mid,
                           "config": json.loads(config)},
                "claimed": {"winner": winner, "reason": reason, "balances": balances},
                "rows": rows,
            })
        return {"players": players, "matches": out}
    finally:
        conn.close()


def tampered(match: dict[str, Any], **claimed: Any) -> dict[str, Any]:
    """A copy of an uploaded match with its claimed result changed."""
    other = copy.deepcopy(match)
    other["claimed"].update(claimed)
    return other


def journal_ratings(path: Path, kiosk: str) -> dict[str, tuple[float, float, float, int]]:
    """The table's own ratings (rating, rd, volatility, games) by player uuid."""
    conn = sqlite3.connect(path)
    try:
        return {str(player_uuid(kiosk, pid)): (rating, rd, vol, games) for pid, rating, rd, vol, games in
                conn.execute("SELECT id, rating, rd, volatility, games FROM players")}
    finally:
        conn.close()
