"""``python -m club.review_bench``: does the review worker slow uploads, and what does a review cost on the hub?

A private PostgreSQL cluster and a real ``python -m club serve`` process, as ``club.bench``. A backlog
of ``--backlog`` verified matches (the bench's real pool, re-keyed) waits for review. Then one kiosk
sends ``--uploads`` matches, one upload at a time, each until acknowledged, in phases that alternate
(``--rounds`` pairs): the worker stopped (SIGSTOP), and ``python -m club review-worker`` running,
busy with the backlog.
Printed: each phase's upload latency (p50, p90, max), the hub's and the worker's CPU, the matches the
worker reviewed meanwhile; then ``--review-matches`` pool matches reviewed here as the worker reviews
them (both seats, luck included), timed in CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import psycopg

from club.bench import _pool
from club.database import migrate
from club.fleet import send_until_acked, sim_kiosk
from club.hubproc import HubProcess
from club.localdb import LocalCluster
from club.review_worker import HUB_REVIEW_SAMPLES, review_match
from club.tokens import add_kiosk
from engine.scenario import parse_scenario
from kiosk.store.audit import scenario_of_entries
from kiosk.store.records import stored_entry


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m club.review_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, default=40, help="verified matches waiting for review")
    parser.add_argument("--uploads", type=int, default=50, help="single-match uploads timed in each phase")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of phases, without and with the worker")
    parser.add_argument("--samples", type=int, default=HUB_REVIEW_SAMPLES, help="the worker's worlds per decision")
    parser.add_argument("--review-matches", type=int, default=4, help="pool matches whose review is timed")
    parser.add_argument("--pool", type=int, default=24)
    parser.add_argument("--pool-file", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="club-review-bench-") as tmp:
        folder = Path(tmp)
        pool = _pool(args.pool_file or folder / "pool.sqlite3", args.pool, args.seed)
        cluster = LocalCluster(Path(tempfile.mkdtemp(prefix="club-review-bench-pg-")))
        cluster.init()
        cluster.start()
        try:
            cluster.create_database("club")
            for line in run(cluster.dsn("club"), pool, args, folder):
                print(line, flush=True)
        finally:
            cluster.stop()
            shutil.rmtree(cluster.folder, ignore_errors=True)
    return 0


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(dsn: str, pool: list[dict[str, Any]], args: argparse.Namespace, folder: Path) -> list[str]:
    """Phases without and with the worker, alternating (the machine's other load drifts); the report's lines."""
    migrate(dsn)
    backlog = sim_kiosk(0, pool, args.backlog, seed=args.seed)
    phases = 2 * args.rounds
    probes = [sim_kiosk(i + 1, pool, args.uploads, seed=args.seed) for i in range(phases)]
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, s.name)[1] for s in (backlog, *probes)]
    hub = HubProcess(dsn, folder / "hub.log", log_level="warning")
    hub.start()
    lines = []
    latencies: dict[bool, list[float]] = {False: [], True: []}
    hub_cpu = {False: 0.0, True: 0.0}
    worker = subprocess.Popen([sys.executable, "-m", "club", "review-worker", "--database", dsn,
                               "--samples", str(args.samples), "--log-level", "warning"])
    worker.send_signal(signal.SIGSTOP)
    worker_cpu = 0.0
    try:
        with httpx.Client(timeout=httpx.Timeout(300.0)) as client:
            for body in backlog.batches():
                send_until_acked(client, f"{hub.url}/api/v1/uploads", tokens[0], json.dumps(body).encode())
            for phase, (probe, token) in enumerate(zip(probes, tokens[1:], strict=True)):
                reviewing = phase % 2 == 1
                if reviewing:
                    worker.send_signal(signal.SIGCONT)
                worker_cpu0, hub_cpu0 = _cpu(worker.pid), hub.cpu_seconds()
                for body in probe.batches(per_upload=1):
                    sent = send_until_acked(client, f"{hub.url}/api/v1/uploads", token, json.dumps(body).encode())
                    latencies[reviewing].append(sent.seconds * 1000)
                hub_cpu[reviewing] += hub.cpu_seconds() - hub_cpu0
                if reviewing:
                    worker_cpu += _cpu(worker.pid) - worker_cpu0
                    worker.send_signal(signal.SIGSTOP)
    finally:
        worker.send_signal(signal.SIGCONT)
        worker.send_signal(signal.SIGTERM)
        worker.wait(60)
        hub.stop()
    for reviewing in (False, True):
        got = sorted(latencies[reviewing])
        label = "with the worker reviewing" if reviewing else "without the worker"
        extra = f"; the worker's CPU {worker_cpu:.1f} s" if reviewing else ""
        lines.append(f"{label}: {len(got)} uploads ({args.rounds} phases), latency p50 {statistics.median(got):.0f} ms, "
                     f"p90 {got[int(len(got) * 0.9)]:.0f} ms, p99 {got[int(len(got) * 0.99)]:.0f} ms, max {got[-1]:.0f} ms;"
                     f" hub CPU {hub_cpu[reviewing]:.1f} s{extra}")
    with psycopg.connect(dsn) as conn:
        reviewed = conn.execute("SELECT count(*) FROM reviews WHERE status = 'done'").fetchone()
    lines.append(f"the worker reviewed {reviewed[0] if reviewed else 0} matches while the uploads ran")
    lines.append(review_costs(pool[:args.review_matches], args.samples))
    return lines


def review_costs(matches: list[dict[str, Any]], samples: int) -> str:
    """Each match reviewed as the worker reviews it (both seats, luck included): CPU seconds per match."""
    seconds, decisions, rows = [], 0, []
    for m in matches:
        entries = [stored_entry(m["header"]["local_id"], (r["seq"], r["step"], r["snapshot"], r["snapshot_sha"],
                                                         r["arrival_ns"], r["boot_id"], float(r["wall"]), r["checksum"]))
                   for r in m["rows"]]
        scenario = parse_scenario(scenario_of_entries(m["header"]["config"], entries, m["header"]["local_id"]))
        started = time.process_time()
        seats = review_match(scenario, (0, 1), (None, None), samples=samples)
        seconds.append(time.process_time() - started)
        decisions += sum(s.summary["decisions"] for s in seats)
        rows.append(len(m["rows"]))
    return (f"review cost at {samples} samples: {len(seconds)} matches ({statistics.median(rows):.0f} rows median), "
            f"CPU per match {', '.join(f'{x:.1f}' for x in seconds)} s (median {statistics.median(seconds):.1f} s); "
            f"{decisions} decisions, {sum(seconds) / max(1, decisions) * 1000:.0f} ms each")


if __name__ == "__main__":
    raise SystemExit(main())
