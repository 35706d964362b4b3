"""A simulated club night for the events' tests: a real hub served over HTTP on 127.0.0.1 with a fake
clock, and tables acting as kiosks (docs/events-protocol.md) that poll for their assignment,
acknowledge it, "play" it as a real engine match (a pooled bot match re-keyed to the pairing's
players, ``club.fleet``) for a few minutes of the fake clock, and upload it with its ``event_pairing``
and ``berserk`` header fields, sending until acknowledged.
"""

from __future__ import annotations

import dataclasses
import random
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from club.fleet import play_pool, rekey
from engine import NS_PER_S, MatchConfig

NAMES = ["Anna", "Ben", "Chloé", "Dmytro", "Eka", "Farid", "Gita", "Hana", "Ivan", "Jae", "Kirra", "Lior <b>"]
BANK_S = 120


class FakeClock:
    """The hub's wall clock, moved by the test."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """A hub app served by uvicorn in a thread on a fixed port."""

    port: int
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve_at(app: FastAPI, port: int) -> Served:
    """Serve ``app`` on 127.0.0.1:``port``; returns once it answers."""
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2,
                            lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the hub did not start")
        time.sleep(0.02)  # polling for the server to listen
    return Served(port, server, thread)


def stop_served(served: Served) -> None:
    served.server.should_exit = True
    served.thread.join(timeout=30)


def match_pools(folder: Path, count: int = 6) -> dict[str, list[dict[str, Any]]]:
    """Real bot matches with the events' settings (bank 120 s, delay 10 s, 150 points): ``none``, and
    with seat 0's or seat 1's bank halved (berserk)."""
    full, half = BANK_S * NS_PER_S, BANK_S * NS_PER_S // 2
    variants = {"none": (full, full), "berserk0": (half, full), "berserk1": (full, half)}
    out = {}
    for i, (name, banks) in enumerate(variants.items()):
        config = dataclasses.replace(MatchConfig(), bank_ns=banks, handover=False)
        out[name] = play_pool(folder / f"{name}.sqlite3", count if name == "none" else count // 2 + 1,
                              seed=40 + i, config=config)
    return out


@dataclass
class SimTable:
    """A table acting as a kiosk against the hub at ``base`` (a function: the hub may move ports)."""

    name: str
    token: str
    base: Callable[[], str]
    pools: dict[str, list[dict[str, Any]]]
    rng: random.Random
    berserk_chance: float = 0.0
    pairing: dict[str, Any] | None = None
    acked: bool = False
    playing_until: float | None = None
    outbox: list[dict[str, Any]] = field(default_factory=list)
    cut: tuple[float, float] | None = None
    """(from, until) on the fake clock: the table cannot reach the hub."""
    cut_on_next_offer: float | None = None
    """Cut the network for this many seconds right after the next new pairing arrives (before the ack)."""
    next_poll: float = 0.0
    played: list[dict[str, Any]] = field(default_factory=list)
    requests: int = 0
    failures: int = 0
    moved_away: int = 0
    timings: dict[str, list[float]] = field(default_factory=dict)
    """Seconds each answered request took, by kind (poll, ack, upload)."""

    def online(self, now: float) -> bool:
        return self.cut is None or not self.cut[0] <= now < self.cut[1]

    def _call(self, method: str, path: str, now: float, **kwargs: Any) -> httpx.Response | None:
        if not self.online(now):
            self.failures += 1
            return None
        self.requests += 1
        started = time.perf_counter()
        try:
            got = httpx.request(method, self.base() + path, headers={"Authorization": f"Bearer {self.token}"},
                                timeout=30, **kwargs)
        except httpx.TransportError:
            self.failures += 1
            return None
        kind = "poll" if path.endswith("/assignment") else "ack" if path.endswith("/ack") else "upload"
        self.timings.setdefault(kind, []).append(time.perf_counter() - started)
        return got

    def step(self, now: float) -> None:
        """One moment of the table at ``now``: finish its match, upload, poll, acknowledge, start."""
        if self.playing_until is not None and now >= self.playing_until:
            self._finish(now)
        while self.outbox:
            got = self._call("POST", "/api/v1/uploads", now, json=self.outbox[0])
            if got is None or got.status_code >= 500:
                break
            assert got.status_code == 200, got.text
            self.outbox.pop(0)
        if now < self.next_poll:
            return
        self.next_poll = now + (30.0 if self.playing_until is not None else 5.0)
        got = self._call("GET", "/api/v1/kiosk/assignment", now)
        if got is None or got.status_code >= 500:
            return
        assert got.status_code == 200, got.text
        offered = got.json()["pairing"]
        if self.playing_until is not None:
            return  # a started match is played to the end, whatever the hub says
        if offered is None:
            if self.pairing is not None:
                self.moved_away += 1
            self.pairing, self.acked = None, False
            return
        if self.pairing is None or self.pairing["uuid"] != offered["uuid"]:
            if self.pairing is not None:
                self.moved_away += 1  # the hub gave the unstarted one to another table
            self.pairing, self.acked = offered, False
            if self.cut_on_next_offer is not None:
                self.cut = (now, now + self.cut_on_next_offer)
                self.cut_on_next_offer = None
        if not self.acked:
            ack = self._call("POST", f"/api/v1/kiosk/assignment/{offered['uuid']}/ack", now)
            if ack is None or ack.status_code >= 500:
                return
            if ack.status_code in (404, 409):
                self.pairing = None
                self.moved_away += 1
                return
            assert ack.status_code == 200, ack.text
            self.acked = True
        # the players sit down and press Start
        self.playing_until = now + self.rng.uniform(20, 60) + self.rng.uniform(180, 420)

    def _finish(self, now: float) -> None:
        assert self.pairing is not None
        pairing = self.pairing
        seats: list[int] = []
        if pairing["berserk"]:
            seats = [s for s in (0, 1) if self.rng.random() < self.berserk_chance][:1]
        pool = self.pools["none" if not seats else f"berserk{seats[0]}"]
        source = pool[self.rng.randrange(len(pool))]
        players = {"seat0": pairing["players"][0]["uuid"], "seat1": pairing["players"][1]["uuid"]}
        match = rekey(source, uuid.UUID(int=self.rng.getrandbits(128), version=4), players, now)
        match["header"] = dict(match["header"], event_pairing=pairing["uuid"], berserk=seats)
        self.outbox.append({"players": [], "matches": [match]})
        self.played.append({"pairing": pairing["uuid"], "match": match["uuid"], "berserk": seats, "ended": now})
        self.pairing, self.acked, self.playing_until = None, False, None


@contextmanager
def director_site(dsn: str, clock: FakeClock, names: list[str], password: str
                  ) -> Iterator[tuple[Any, list[dict[str, Any]], str]]:
    """A hub app's test client on ``dsn`` with the director's ``password`` set and one table (its
    token) that has uploaded the players ``names`` (new UUIDs): the client, the players, the token."""
    import psycopg
    from fastapi.testclient import TestClient

    from club.app import create_app
    from club.tokens import add_kiosk
    from club.web import auth

    with psycopg.connect(dsn) as conn:
        token = add_kiosk(conn, "table 1")[1]
        auth.set_password(conn, password)
    with TestClient(create_app(dsn, pool_size=4, clock=clock)) as client:
        players = [{"uuid": str(uuid.uuid4()), "name": n} for n in names]
        assert client.post("/api/v1/uploads", json={"players": players, "matches": []},
                           headers={"Authorization": f"Bearer {token}"}).status_code == 200
        yield client, players, token
