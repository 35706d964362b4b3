"""``python -m club.bench``: many kiosks uploading at once to one hub on this machine (loopback).

50 simulated kiosks (``--kiosks``) each upload 200 finished matches (``--matches``) at the same
moment, as after an evening with the hub away, to a real ``python -m club serve`` process over
PostgreSQL (a private cluster made for the run unless ``--database`` is given). The matches are
real: a pool played once into a real journal by the computer players (``club.fleet.play_pool``,
kept in ``--pool-file`` for the next run), re-keyed per kiosk so each still verifies. Printed:
matches verified per second, p50/p99 upload latency (until acknowledged), lost and duplicated
matches (checked in the database), the hub's CPU time, and the hub's replay cost per match
beside the table's own ``engine.replay`` of the same match.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import psycopg

from club.database import migrate
from club.fleet import SimKiosk, play_pool, read_matches, send_until_acked, sim_kiosk
from club.hubproc import HubProcess
from club.localdb import LocalCluster
from club.tokens import add_kiosk
from club.verify import verify
from club.wire import MatchUpload
from engine.scenario import parse_scenario, play_scenario
from kiosk.store.audit import scenario_of_entries
from kiosk.store.records import stored_entry


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; prints the figures; exit status 0 when nothing was lost or duplicated."""
    parser = argparse.ArgumentParser(prog="python -m club.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=50)
    parser.add_argument("--matches", type=int, default=200, help="matches per kiosk")
    parser.add_argument("--pool", type=int, default=24, help="real matches played for the pool")
    parser.add_argument("--pool-file", type=Path, help="the pool's journal (played when missing, reused when there)")
    parser.add_argument("--database", metavar="DSN", help="an empty database (default: a private cluster)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-fsync", action="store_true", help="the private cluster without fsync (tests)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="club-bench-") as tmp:
        folder = Path(tmp)
        pool = _pool(args.pool_file or folder / "pool.sqlite3", args.pool, args.seed)
        cluster = None
        dsn = args.database
        if dsn is None:
            # a folder of its own: as root the server runs as nobody, who cannot enter ``folder``
            cluster = LocalCluster(Path(tempfile.mkdtemp(prefix="club-bench-pg-")), fast=args.no_fsync)
            cluster.init()
            cluster.start()
            cluster.create_database("club")
            dsn = cluster.dsn("club")
        try:
            figures = run(dsn, pool, args.kiosks, args.matches, folder / "hub.log", seed=args.seed)
        finally:
            if cluster is not None:
                cluster.stop()
                shutil.rmtree(cluster.folder, ignore_errors=True)
    for line in report(figures):
        print(line)
    return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 else 1


def _pool(path: Path, count: int, seed: int) -> list[dict[str, Any]]:
    if path.exists():
        conn = sqlite3.connect(path)
        ids = [r[0] for r in conn.execute("SELECT id FROM players ORDER BY id")]
        conn.close()
        return read_matches(path, {ids[0]: "seat0", ids[1]: "seat1"})[:count]
    started = time.perf_counter()
    pool = play_pool(path, count, seed=seed)
    print(f"played a pool of {len(pool)} real matches in {time.perf_counter() - started:.0f} s ({path.name})")
    return pool


def run(dsn: str, pool: list[dict[str, Any]], kiosks: int, matches: int, log: Path, *, seed: int = 1
        ) -> dict[str, Any]:
    """Upload ``kiosks`` x ``matches`` re-keyed pool matches at once to a hub on ``dsn``; the figures."""
    migrate(dsn)
    sims = [sim_kiosk(i, pool, matches, seed=seed) for i in range(kiosks)]
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, s.name)[1] for s in sims]
    bodies = [[json.dumps(b).encode() for b in s.batches()] for s in sims]
    hub = HubProcess(dsn, log, log_level="warning")
    hub.start()
    latencies: list[float] = []
    attempts: list[int] = []
    recomputed: list[bool] = []
    errors: list[str] = []
    gate = threading.Barrier(kiosks + 1)
    lock = threading.Lock()

    def kiosk(i: int) -> None:
        with httpx.Client(timeout=httpx.Timeout(300.0)) as client:
            gate.wait()
            for body in bodies[i]:
                try:
                    sent = send_until_acked(client, f"{hub.url}/api/v1/uploads", tokens[i], body, deadline_s=1800)
                except RuntimeError as exc:
                    with lock:
                        errors.append(f"{sims[i].name}: {exc}")
                    return
                with lock:
                    latencies.append(sent.seconds)
                    attempts.append(sent.attempts)
                    recomputed.append(bool(sent.answer.get("ratings_recomputed")))

    threads = [threading.Thread(target=kiosk, args=(i,), daemon=True) for i in range(kiosks)]
    for t in threads:
        t.start()
    cpu0 = hub.cpu_seconds()
    gate.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    cpu = hub.cpu_seconds() - cpu0
    hub.stop()
    figures = _check(dsn, sims)
    figures.update(kiosks=kiosks, matches_each=matches, seconds=wall, hub_cpu_s=cpu, uploads=len(latencies),
                   retries=sum(attempts) - len(attempts), recomputes=sum(recomputed), errors=errors,
                   p50_s=_quantile(latencies, 0.5), p99_s=_quantile(latencies, 0.99),
                   rows=sum(len(m["rows"]) for s in sims for m in s.matches),
                   body_mb=sum(len(b) for bs in bodies for b in bs) / 1e6)
    figures.update(replay_costs(pool))
    return figures


def _check(dsn: str, sims: list[SimKiosk]) -> dict[str, Any]:
    """Lost and duplicated, counted in the database against what the kiosks sent."""
    sent = {m["uuid"]: len(m["rows"]) for s in sims for m in s.matches}
    with psycopg.connect(dsn) as conn:
        held = {str(r[0]): (r[1], r[2]) for r in conn.execute(
            "SELECT m.uuid, m.status, (SELECT count(*) FROM match_rows r WHERE r.match = m.uuid) FROM matches m")}
        games = conn.execute("SELECT coalesce(sum(games), 0) FROM players").fetchone()
    lost = sum(1 for k in sent if k not in held)
    duplicated = sum(1 for k, (_, n) in held.items() if k not in sent or n != sent[k])
    return {"sent": len(sent), "stored": len(held), "lost": lost, "duplicated": duplicated,
            "verified": sum(1 for s, _ in held.values() if s == "verified"),
            "rated_games": int(games[0]) if games else 0}


def replay_costs(pool: list[dict[str, Any]], rounds: int = 3) -> dict[str, Any]:
    """Per pool match (best of ``rounds``): the hub's whole check (``verify``: row checksums, the
    scenario, the replay, the comparison) and the table's own ``engine.replay`` of the same scenario."""
    hub_ms, table_ms = [], []
    for m in pool:
        upload = MatchUpload.model_validate_json(json.dumps(dict(
            m, uuid="00000000-0000-4000-8000-000000000001",
            header=dict(m["header"], players=["00000000-0000-4000-8000-00000000000a",
                                              "00000000-0000-4000-8000-00000000000b"]))))
        entries = [stored_entry(m["header"]["local_id"], (r["seq"], r["step"], r["snapshot"], r["snapshot_sha"],
                                                         r["arrival_ns"], r["boot_id"], float(r["wall"]), r["checksum"]))
                   for r in m["rows"]]
        scenario = json.dumps(scenario_of_entries(m["header"]["config"], entries, m["header"]["local_id"]))
        best_hub = best_table = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            assert verify(upload).verified
            t1 = time.perf_counter()
            play_scenario(parse_scenario(json.loads(scenario)))
            t2 = time.perf_counter()
            best_hub, best_table = min(best_hub, t1 - t0), min(best_table, t2 - t1)
        hub_ms.append(best_hub * 1000)
        table_ms.append(best_table * 1000)
    return {"replay_hub_ms": statistics.median(hub_ms), "replay_table_ms": statistics.median(table_ms),
            "pool_rows": statistics.median(len(m["rows"]) for m in pool)}


def report(f: dict[str, Any]) -> list[str]:
    """The figures as lines."""
    total = f["kiosks"] * f["matches_each"]
    return [
        f"{f['kiosks']} kiosks x {f['matches_each']} matches = {total} matches, {f['rows']} journal rows, "
        f"{f['body_mb']:.1f} MB of JSON, in {f['uploads']} uploads",
        f"all acknowledged in {f['seconds']:.1f} s: {f['verified'] / f['seconds']:.1f} matches verified per second",
        f"upload latency until acknowledged: p50 {f['p50_s'] * 1000:.0f} ms, p99 {f['p99_s'] * 1000:.0f} ms "
        f"({f['retries']} retries; {f['recomputes']} uploads came late, their ratings recomputed once none was left)",
        f"in the database: {f['stored']} stored of {f['sent']} sent, {f['verified']} verified, "
        f"lost {f['lost']}, duplicated {f['duplicated']}, {f['rated_games']} player-games rated",
        f"hub CPU time: {f['hub_cpu_s']:.1f} s ({f['hub_cpu_s'] * 1000 / max(1, total):.1f} ms per match)",
        f"replay cost per match (median of the pool, {f['pool_rows']:.0f} rows): hub {f['replay_hub_ms']:.1f} ms "
        f"(checksums, scenario, replay, comparison), table engine.replay {f['replay_table_ms']:.1f} ms",
        *(f"error: {e}" for e in f["errors"]),
    ]


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == "__main__":
    raise SystemExit(main())
