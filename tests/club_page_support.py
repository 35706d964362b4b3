"""Helpers of the club page's tests: a real engine match played command by command, its public
projections as the kiosk posts them, a hub served by uvicorn on 127.0.0.1, and an SSE reader."""

from __future__ import annotations

import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from engine import ALL_TILES, Match, MatchConfig, Phase, Start, Tile
from engine.deal import shuffle_deal
from engine.public import project

TILE_NAME = re.compile(r"(?<![0-9])([0-6])\|([0-6])(?![0-9])")
RUNNING = (Phase.AUCTION, Phase.PLAY, Phase.HANDOVER)


@dataclass
class Step:
    """One accepted command: the match after it, its arrival time and the projection the kiosk sends."""

    match: Match
    now_ns: int
    seq: int
    body: dict[str, Any]
    hidden: frozenset[Tile]
    """The tiles of the hands and the boneyard while the round runs (empty once it is settled)."""


def played_match(seed: int, *, names: tuple[str | None, str | None] = ("Ann", "Bo"), match_id: str = "m1",
                 balances: tuple[int, int] = (60, 60), limit: int = 10_000) -> Iterator[Step]:
    """A whole match of random legal commands (Start with a shuffled deal), one Step per accepted command."""
    rng = random.Random(seed)
    match = Match(MatchConfig(balances=balances))
    now = 5 * 10**9
    seq = 0
    while not match.is_over and seq < limit:
        if match.phase is Phase.READY:
            action: Any = Start(rng.choice((0, 1)), shuffle_deal(rng))
        else:
            action = rng.choice(match.legal_actions())
        now += rng.randint(200, 2500) * 10**6
        match.apply(action, now)
        seq += 1
        hidden = frozenset(ALL_TILES) - frozenset(match.layout.tiles())
        yield Step(match, now, seq, live_body(match, now, seq, names, match_id),
                   hidden if match.phase in RUNNING else frozenset())


def live_body(match: Match, now_ns: int, seq: int, names: tuple[str | None, str | None],
              match_id: str) -> dict[str, Any]:
    """The body of ``POST /api/v1/live`` for the match at ``now_ns``."""
    return {"match": match_id, "seq": seq, "players": [{"name": names[0]}, {"name": names[1]}],
            "computer_level": None, "state": project(match, now_ns)}


def hidden_tiles_in(text: str, hidden: frozenset[Tile]) -> list[str]:
    """The names in ``text`` of tiles in ``hidden`` (either order of the halves)."""
    found = []
    for m in TILE_NAME.finditer(text):
        a, b = int(m.group(1)), int(m.group(2))
        if Tile(min(a, b), max(a, b)) in hidden:
            found.append(m.group(0))
    return found


@dataclass
class Served:
    """A hub served by uvicorn on 127.0.0.1 in a thread."""

    base: str
    server: uvicorn.Server
    thread: threading.Thread


def serve(app: FastAPI) -> Served:
    """Serve ``app`` on a free loopback port; returns once it answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2,
                            lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the hub did not start")
        time.sleep(0.02)
    return Served(f"http://127.0.0.1:{port}", server, thread)


def stop(served: Served) -> None:
    """Stop the server and wait for its thread."""
    served.server.should_exit = True
    served.thread.join(timeout=15)


@dataclass
class SseReader:
    """Reads an SSE stream in a thread, keeping every byte and every event."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    raw: list[bytes] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)
    closed: threading.Event = field(default_factory=threading.Event)
    response: httpx.Response | None = None

    def start(self) -> SseReader:
        """Connect in a thread; returns once the stream's first bytes arrived."""
        threading.Thread(target=self._run, daemon=True).start()
        assert self.wait_for(lambda events: bool(self.raw), 10.0), "the event stream did not open"
        return self

    def close(self) -> None:
        """Stop reading and close the connection (the hub sees the browser leave)."""
        self.closed.set()
        if self.response is not None:
            self.response.close()

    def _run(self) -> None:
        try:
            with httpx.Client(timeout=httpx.Timeout(5.0, read=None)) as client, \
                    client.stream("GET", self.url, headers=self.headers) as response:
                self.response = response
                event: dict[str, str] = {}
                buffer = b""
                for chunk in response.iter_raw():
                    if self.closed.is_set():
                        return
                    self.raw.append(chunk)
                    buffer += chunk
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        text = line.decode("utf-8")
                        if not text:
                            if "data" in event:
                                self.events.append(event)
                            event = {}
                        elif not text.startswith(":"):
                            name, _, value = text.partition(":")
                            event[name] = value[1:] if value.startswith(" ") else value
        except (httpx.HTTPError, RuntimeError, OSError):
            pass

    def wait_for(self, check: Callable[[list[dict[str, str]]], bool], timeout_s: float = 5.0) -> bool:
        """Poll until ``check(events)`` holds (True) or ``timeout_s`` passes (False)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if check(self.events):
                return True
            time.sleep(0.01)
        return check(self.events)
