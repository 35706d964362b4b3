"""``python -m club.review_bench``: does the review worker slow uploads, and what does a review cost on the hub?

A private PostgreSQL cluster and a real ``python -m club serve`` process, as ``club.bench``. A backlog
of ``--backlog`` verified matches (the bench's real pool, re-keyed) waits for review. Then one kiosk
sends ``--uploads`` matches, one upload at a time, each until acknowledged, three times: without a
worker, with ``python -m club review-worker`` running (busy with the backlog), and without again.
Printed: each phase's upload latency (p50, p90, max), the hub's and the worker's CPU, the matches the
worker reviewed, and the CPU seconds per reviewed match (median, max) at the worker's samples.
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
from club.review_worker import HUB_REVIEW_SAMPLES
from club.tokens import add_kiosk


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m club.review_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, default=40, help="verified matches waiting for review")
    parser.add_argument("--uploads", type=int, default=30, help="single-match uploads timed in each phase")
    parser.add_argument("--samples", type=int, default=HUB_REVIEW_SAMPLES, help="the worker's worlds per decision")
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
    """The three phases; the report's lines."""
    migrate(dsn)
    backlog = sim_kiosk(0, pool, args.backlog, seed=args.seed)
    probes = [sim_kiosk(i, pool, args.uploads, seed=args.seed) for i in (1, 2, 3)]
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, s.name)[1] for s in (backlog, *probes)]
    hub = HubProcess(dsn, folder / "hub.log", log_level="warning")
    hub.start()
    lines = []
    try:
        with httpx.Client(timeout=httpx.Timeout(300.0)) as client:
            for body in backlog.batches():
                send_until_acked(client, f"{hub.url}/api/v1/uploads", tokens[0], json.dumps(body).encode())
            worker = None
            worker_cpu0 = 0.0
            for phase, (probe, token) in enumerate(zip(probes, tokens[1:], strict=True)):
                if phase == 1:
                    worker = subprocess.Popen([sys.executable, "-m", "club", "review-worker", "--database", dsn,
                                               "--samples", str(args.samples), "--log-level", "warning"])
                    time.sleep(3.0)  # the worker's start-up (imports, migration check) is not what is measured
                    worker_cpu0 = _cpu(worker.pid)
                hub_cpu0 = hub.cpu_seconds()
                started = time.perf_counter()
                latencies = []
                for body in probe.batches(per_upload=1):
                    sent = send_until_acked(client, f"{hub.url}/api/v1/uploads", token, json.dumps(body).encode())
                    latencies.append(sent.seconds * 1000)
                wall = time.perf_counter() - started
                label = ("without the worker", "with the worker reviewing", "without the worker again")[phase]
                extra = ""
                if worker is not None:
                    extra = f"; worker CPU {_cpu(worker.pid) - worker_cpu0:.1f} s"
                    worker.send_signal(signal.SIGTERM)
                    worker.wait(60)
                    worker = None
                latencies.sort()
                lines.append(f"{label}: {len(latencies)} uploads in {wall:.1f} s, latency p50 "
                             f"{statistics.median(latencies):.0f} ms, p90 {latencies[int(len(latencies) * 0.9)]:.0f} ms,"
                             f" max {latencies[-1]:.0f} ms; hub CPU {hub.cpu_seconds() - hub_cpu0:.1f} s{extra}")
    finally:
        hub.stop()
    with psycopg.connect(dsn) as conn:
        done = [r[0] for r in conn.execute("SELECT cpu_seconds FROM reviews WHERE status = 'done'")]
        decisions = conn.execute("SELECT coalesce(sum(decisions), 0) FROM seat_reviews").fetchone()
    if done:
        lines.append(f"reviews: {len(done)} matches at {args.samples} samples, CPU per match median "
                     f"{statistics.median(done):.1f} s, max {max(done):.1f} s; {decisions[0] if decisions else 0} "
                     f"decisions reviewed ({sum(done) / max(1, decisions[0] if decisions else 1) * 1000:.0f} ms each)")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
