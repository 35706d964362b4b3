"""``python -m club.web.bench``: SSE clients watching live tables on one hub, measured.

Starts a throwaway PostgreSQL cluster and ``python -m club serve`` on 127.0.0.1, registers
``--tables`` kiosks, opens ``--clients`` event streams (``/live/events``) and lets every kiosk play a
random engine match, posting one projection per command every ``--interval`` seconds. It prints
the time from a kiosk starting its POST to each client's event (p50, p99, max), and the hub
process's CPU (share of one core) and largest resident memory while measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from club.database import connect, migrate
from club.localdb import LocalCluster
from club.tokens import add_kiosk
from engine import Match, MatchConfig, Phase, Start
from engine.deal import shuffle_deal
from engine.public import project


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _client(port: int, arrivals: list[tuple[int, float]], ready: asyncio.Event, count: list[int],
                  wanted: int, bytes_read: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(b"GET /live/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    first = True
    while True:
        line = await reader.readline()
        if not line:
            return
        bytes_read.append(len(line))
        if first and line.startswith(b"retry:"):
            first = False
            count[0] += 1
            if count[0] == wanted:
                ready.set()
        elif line.startswith(b"id: "):  # an event's first line: its number (the HTML follows in ``data``)
            arrivals.append((int(line[4:]), time.monotonic()))


async def _kiosk(port: int, token: str, seed: int, interval_s: float, until: float,
                 sent: dict[int, float]) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        match_no = 0
        while time.monotonic() < until:
            match_no += 1
            match = Match(MatchConfig())
            now_ns, seq = 0, 0
            while not match.is_over and time.monotonic() < until:
                action = Start(0, shuffle_deal(rng)) if match.phase is Phase.READY else rng.choice(match.legal_actions())
                now_ns += rng.randint(500, 3000) * 1_000_000
                match.apply(action, now_ns)
                seq += 1
                body = {"match": str(match_no), "seq": seq, "players": [{"name": f"A{seed}"}, {"name": f"B{seed}"}],
                        "computer_level": None, "state": project(match, now_ns)}
                started = time.monotonic()
                answer = await client.post("/api/v1/live", json=body, headers=headers)
                if answer.status_code == 200 and answer.json().get("result") == "published":
                    sent[answer.json()["event"]] = started
                await asyncio.sleep(max(0.0, interval_s * rng.uniform(0.5, 1.5) - (time.monotonic() - started)))


async def _measure(port: int, pid: int, tokens: list[str], clients: int, interval_s: float,
                   seconds: float) -> dict[str, float]:
    arrivals: list[tuple[int, float]] = []
    ready = asyncio.Event()
    count = [0]
    bytes_read: list[int] = []
    readers = [asyncio.create_task(_client(port, arrivals, ready, count, clients, bytes_read)) for _ in range(clients)]
    await asyncio.wait_for(ready.wait(), 120)
    sent: dict[int, float] = {}
    cpu0, t0, own0 = _cpu_s(pid), time.monotonic(), time.process_time()
    until = t0 + seconds
    rss = [_rss_mib(pid)]

    async def sample() -> None:
        while time.monotonic() < until:
            rss.append(_rss_mib(pid))
            await asyncio.sleep(1)

    await asyncio.gather(sample(), *(_kiosk(port, tok, i, interval_s, until, sent) for i, tok in enumerate(tokens)))
    await asyncio.sleep(2)  # the last events reach the clients
    cpu = (_cpu_s(pid) - cpu0) / (time.monotonic() - t0)
    own = (time.process_time() - own0) / (time.monotonic() - t0)
    size = sum(bytes_read) / max(1, len(arrivals))
    for task in readers:
        task.cancel()
    lags = [(at - sent[event]) * 1000 for event, at in arrivals if event in sent]
    return {"events": len(sent), "deliveries": len(lags), "p50_ms": _percentile(lags, 0.5),
            "p99_ms": _percentile(lags, 0.99), "max_ms": max(lags) if lags else float("nan"),
            "cpu_share": cpu, "rss_mib": max(rss), "own_share": own, "event_bytes": size}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; prints one line of figures."""
    parser = argparse.ArgumentParser(prog="python -m club.web.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a table's commands")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="club-bench-"))
    cluster = LocalCluster(folder, fast=True)
    cluster.init()
    cluster.start()
    hub = None
    try:
        cluster.create_database("club")
        dsn = cluster.dsn("club")
        migrate(dsn)
        with connect(dsn) as conn:
            tokens = [add_kiosk(conn, f"table {i + 1}")[1] for i in range(args.tables)]
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sock.close()
        hub = subprocess.Popen([sys.executable, "-m", "club", "serve", "--database", dsn, "--listen",
                                f"127.0.0.1:{port}", "--log-level", "warning"])
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the hub did not start")
            time.sleep(0.2)
        got = asyncio.run(_measure(port, hub.pid, tokens, args.clients, args.interval, args.seconds))
        print(f"{args.clients} SSE clients, {args.tables} tables, a command every {args.interval} s per table, "
              f"{args.seconds:.0f} s: {got['events']:.0f} projections, {got['deliveries']:.0f} events delivered; "
              f"POST to event p50 {got['p50_ms']:.0f} ms, p99 {got['p99_ms']:.0f} ms, max {got['max_ms']:.0f} ms; "
              f"hub CPU {got['cpu_share'] * 100:.0f} % of one core, RSS up to {got['rss_mib']:.0f} MiB; "
              f"{got['event_bytes'] / 1024:.1f} KiB per event; the clients and kiosks (one process) "
              f"{got['own_share'] * 100:.0f} % of one core")
        return 0
    finally:
        if hub is not None:
            hub.terminate()
            hub.wait(30)
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
