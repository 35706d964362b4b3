"""Faults on a real hub process: ``python -m club serve`` killed with SIGKILL while uploads stream,
PostgreSQL restarted mid-run, and bad requests over real HTTP. Each time the kiosks send until
acknowledged, and the database holds every match exactly once (0 lost, 0 duplicated)."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from club_support import start_cluster, stop_cluster

from club.database import migrate
from club.fleet import SimKiosk, send_until_acked, sim_kiosk
from club.hubproc import HubProcess
from club.standings import next_version, recompute
from club.tokens import add_kiosk
from club.wire import MAX_BODY_BYTES

KIOSKS = 4
MATCHES = 10


def _pool(journals: dict[str, Any]) -> list[dict[str, Any]]:
    """The fixture's real rated matches, their players as the placeholders ``sim_kiosk`` re-keys."""
    return [dict(m, header=dict(m["header"], players=["seat0", "seat1"]))
            for table in ("table-1", "table-2") for m in journals[table]["matches"] if all(m["header"]["players"])]


def _kiosks(dsn: str, journals: dict[str, Any]) -> tuple[list[SimKiosk], list[str]]:
    sims = [sim_kiosk(i, _pool(journals), MATCHES, seed=22) for i in range(KIOSKS)]
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, s.name)[1] for s in sims]
    return sims, tokens


def _stream(hub: HubProcess, sims: list[SimKiosk], tokens: list[str], fault: Callable[[], None],
            after_acks: int) -> dict[str, int]:
    """Every kiosk sends its matches one upload each, until acknowledged; ``fault`` strikes once
    ``after_acks`` uploads were acknowledged, while the others are streaming."""
    bodies = [[json.dumps(b).encode() for b in s.batches(per_upload=1)] for s in sims]
    acked = threading.Condition()
    counts = {"acked": 0, "attempts": 0, "acked_before_fault": -1}
    errors: list[str] = []

    def kiosk(i: int) -> None:
        with httpx.Client(timeout=60.0) as client:
            for body in bodies[i]:
                try:
                    sent = send_until_acked(client, f"{hub.url}/api/v1/uploads", tokens[i], body, deadline_s=120)
                except RuntimeError as exc:
                    errors.append(str(exc))
                    return
                with acked:
                    counts["acked"] += 1
                    counts["attempts"] += sent.attempts
                    acked.notify_all()

    threads = [threading.Thread(target=kiosk, args=(i,)) for i in range(len(sims))]
    for t in threads:
        t.start()
    with acked:
        assert acked.wait_for(lambda: counts["acked"] >= after_acks, timeout=120), counts
        counts["acked_before_fault"] = counts["acked"]
    fault()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    counts["uploads"] = sum(len(b) for b in bodies)
    return counts


def _exactly_once(dsn: str, sims: list[SimKiosk]) -> None:
    """Every match sent is held once with all its rows, verified; every player once; the stored ratings
    are those of the canonical order (a recompute changes nobody)."""
    sent = {m["uuid"]: len(m["rows"]) for s in sims for m in s.matches}
    with psycopg.connect(dsn) as conn:
        held = {str(r[0]): (r[1], r[2]) for r in conn.execute(
            "SELECT m.uuid, m.status, count(r.seq) FROM matches m JOIN match_rows r ON r.match = m.uuid"
            " GROUP BY m.uuid, m.status")}
        assert held == {k: ("verified", n) for k, n in sent.items()}  # 0 lost, 0 duplicated, rows whole
        assert conn.execute("SELECT count(*) FROM match_rows").fetchone() == (sum(sent.values()),)
        assert conn.execute("SELECT count(*), sum(games) FROM players").fetchone() == (3 * len(sims), 2 * len(sent))
        assert conn.execute("SELECT count(*) FROM conflicts").fetchone() == (0,)
        with conn.transaction():
            assert recompute(conn, next_version(conn)) == set()


def test_a_hub_killed_with_sigkill_mid_upload_then_restarted_loses_and_duplicates_nothing(
        dsn: str, journals, tmp_path: Path) -> None:
    sims, tokens = _kiosks(dsn, journals)
    hub = HubProcess(dsn, tmp_path / "hub.log")
    hub.start()
    try:
        def kill_and_restart() -> None:
            hub.kill()
            assert hub.proc is not None and hub.proc.returncode == -9
            hub.start()

        counts = _stream(hub, sims, tokens, kill_and_restart, after_acks=8)
    finally:
        status = hub.stop()
    assert status == 0
    assert 8 <= counts["acked_before_fault"] < counts["uploads"] == counts["acked"] == KIOSKS * MATCHES
    assert counts["attempts"] > counts["uploads"], "no upload was cut by the kill: the test proved nothing"
    _exactly_once(dsn, sims)
    assert "Application startup complete" in (tmp_path / "hub.log").read_text()


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_postgresql_restarted_mid_run_loses_and_duplicates_nothing(journals, tmp_path: Path, mode: str) -> None:
    cluster = start_cluster()  # a cluster of its own: the session's stays up for the other tests
    try:
        cluster.create_database("club")
        dsn = cluster.dsn("club")
        migrate(dsn)
        sims, tokens = _kiosks(dsn, journals)
        hub = HubProcess(dsn, tmp_path / "hub.log")
        hub.start()
        try:
            def restart() -> None:
                done = cluster.run("pg_ctl", "-D", str(cluster.data), "-l", str(cluster.folder / "server.log"), "-m", mode,
                                   "-w", "restart")
                assert done.returncode == 0, done.stderr

            counts = _stream(hub, sims, tokens, restart, after_acks=8)
            alive = hub.proc is not None and hub.proc.poll() is None
        finally:
            status = hub.stop()
        assert alive and status == 0
        assert counts["acked"] == counts["uploads"] == KIOSKS * MATCHES
        _exactly_once(dsn, sims)
    finally:
        stop_cluster(cluster)


def test_bad_requests_to_a_real_hub_are_4xx_store_nothing_crash_nothing_and_log_no_token(
        dsn: str, journals, tmp_path: Path) -> None:
    sims, tokens = _kiosks(dsn, journals)
    good = next(sims[0].batches(per_upload=1))
    hub = HubProcess(dsn, tmp_path / "hub.log", log_level="debug")
    hub.start()
    url = f"{hub.url}/api/v1/uploads"
    auth = {"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"}
    many = copy.deepcopy(good)
    many["matches"][0]["rows"] = [dict(many["matches"][0]["rows"][1], seq=i + 1) for i in range(10_000)]

    def endless() -> Any:  # no Content-Length: the limit holds while reading
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    try:
        with httpx.Client(timeout=60) as client:
            sent = [
                (client.post(url, json=good), 401),
                (client.post(url, json=good, headers={"Authorization": f"Bearer {tokens[0][:-2]}xy"}), 401),
                (client.post(url, json=good, headers={"Authorization": f"Bearer {tokens[1]}x"}), 401),
                (client.post(url, content=b"{\"players\": [", headers=auth), 422),
                (client.post(url, content=b"\xff\xfe not utf-8", headers=auth), 422),
                (client.post(url, content=json.dumps(many).encode(), headers=auth), 413),
                (client.post(url, content=b" " * (MAX_BODY_BYTES + 1), headers=auth), 413),
                (client.post(url, content=endless(), headers=auth), 413),
            ]
            for answer, status in sent:
                assert answer.status_code == status, answer.text
                assert answer.json()["error"]["code"] and answer.json()["error"]["message"]
            with psycopg.connect(dsn) as conn:
                assert conn.execute("SELECT (SELECT count(*) FROM players) + (SELECT count(*) FROM matches)"
                                    " + (SELECT count(*) FROM conflicts)").fetchone() == (0,)
            assert hub.proc is not None and hub.proc.poll() is None  # nothing crashed: it still serves
            assert client.post(url, content=json.dumps(good).encode(), headers=auth).status_code == 200
    finally:
        assert hub.stop() == 0
    log = (tmp_path / "hub.log").read_text()
    assert "POST /api/v1/uploads" in log and "401" in log and "413" in log
    for token in tokens:
        assert token.rsplit("_", 1)[1] not in log and token not in log
