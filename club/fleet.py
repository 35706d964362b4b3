"""Simulated kiosks for the benchmark and the fault tests: real matches, re-keyed per kiosk, sent
until acknowledged.

``play_pool`` plays real matches into a real kiosk journal (``GameSession`` and the journal's
recorder, the computer players of ``engine.bots`` deciding both seats, think times of a person) and
reads them back as upload matches. ``rekey`` gives a pooled match a new uuid, the players of a
simulated kiosk and a new end time: the journal rows stay byte for byte what the table wrote (their
checksums cover the local match id, not the uuids), so every re-keyed match still verifies.
``send_until_acked`` is a kiosk's rule: send until the hub answers 200, again after a lost answer,
a refused connection or a 503.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from club.wire import MAX_BODY_BYTES, MAX_ROWS
from engine import NS_PER_S, MatchConfig, Phase, PlayerView, Start, bots
from kiosk.config import MatchSettings
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.recorder import new_recorded_match
from kiosk.table.session import GameSession, match_config

EVENING_START = 1_764_615_600.0
"""The wall time the simulated evening starts (2025-12-01 19:00 UTC)."""
BATCH_ROWS = 4_000
"""Journal rows in one simulated upload at most (the hub takes ``MAX_ROWS``)."""


def play_pool(path: Path, count: int, *, seed: int = 1, settings: MatchSettings | None = None,
              config: MatchConfig | None = None) -> list[dict[str, Any]]:
    """Play ``count`` rated matches between two named players into a new journal at ``path``; each as
    an upload match (players as ``"seat0"``/``"seat1"`` placeholders, for ``rekey``). ``config``, when
    given, is the matches' configuration instead of the one ``settings`` make (a seat's own bank: berserk)."""
    rng = random.Random(seed)
    settings = settings or MatchSettings(handover=False)
    with Journal.open(path) as journal:
        people = Players(journal)
        ids = (people.create("Seat A").id, people.create("Seat B").id)
        for i in range(count):
            session = GameSession(settings, random.Random(rng.random()), boot_id="pool-boot")
            levels = (rng.choice((1, 2, 3)), rng.choice((1, 2, 3)))
            match, recorder = new_recorded_match(journal, config or match_config(settings), ids, "pool-boot",
                                                 wall_clock=lambda: EVENING_START)
            session.match = match
            now = (1000 + i) * 1000 * NS_PER_S
            thinker = random.Random(rng.random())
            while not session.match.is_over:
                now += int(thinker.uniform(0.8, 6.0) * NS_PER_S)
                session.tick(now)
                if session.match.is_over:
                    break
                if session.match.phase is Phase.READY:
                    action: Any = Start(None, None)
                else:
                    seat = session.match.to_act
                    if seat is None:
                        continue
                    action = bots.choose(PlayerView.of(session.match, seat, now), levels[seat], thinker)
                session.command(action, now)
                recorder.sync(session.match, now)
            recorder.sync(session.match, now)
    return read_matches(path, {ids[0]: "seat0", ids[1]: "seat1"})


def read_matches(path: Path, players: dict[int, str]) -> list[dict[str, Any]]:
    """The finished matches of the journal at ``path`` as upload matches (uuid left empty; local player
    ids replaced through ``players``)."""
    conn = sqlite3.connect(path)
    try:
        out = []
        for mid, p0, p1, created, ended, config, winner, reason, level in conn.execute(
                "SELECT id, player0, player1, created_wall, ended_wall, config, winner, reason, computer_level"
                " FROM matches WHERE finished = 1 ORDER BY id").fetchall():
            rows = [{"seq": r[0], "step": r[1], "snapshot": r[2], "snapshot_sha": r[3], "arrival_ns": r[4],
                     "boot_id": r[5], "wall": r[6], "checksum": r[7]} for r in conn.execute(
                        "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"
                        " FROM entries WHERE match_id = ? ORDER BY seq", (mid,))]
            out.append({"uuid": "", "header": {
                "local_id": mid, "players": [None if p is None else players[p] for p in (p0, p1)],
                "computer_level": level, "created_wall": created, "ended_wall": ended if ended is not None else created,
                "config": json.loads(config)},
                "claimed": {"winner": winner, "reason": reason,
                            "balances": json.loads(rows[-1]["snapshot"])["balances"]},
                "rows": rows})
        return out
    finally:
        conn.close()


@dataclass(frozen=True, slots=True)
class SimKiosk:
    """A simulated table: its name, its players, its matches (re-keyed) in upload batches."""

    name: str
    players: list[dict[str, str]]
    matches: list[dict[str, Any]]

    def batches(self, per_upload: int | None = None) -> Iterator[dict[str, Any]]:
        """Its upload bodies, in order: the players first, then matches up to ``BATCH_ROWS`` rows, half
        the body limit and ``per_upload`` matches (when given) each."""
        batch: list[dict[str, Any]] = []
        rows = size = 0
        first = True
        for m in self.matches:
            m_rows, m_size = len(m["rows"]), len(json.dumps(m))
            full = per_upload is not None and len(batch) >= per_upload
            if batch and (full or rows + m_rows > BATCH_ROWS or size + m_size > MAX_BODY_BYTES // 2):
                yield {"players": self.players if first else [], "matches": batch}
                batch, rows, size, first = [], 0, 0, False
            batch.append(m)
            rows += m_rows
            size += m_size
        if batch or first:
            yield {"players": self.players if first else [], "matches": batch}


def sim_kiosk(index: int, pool: Sequence[dict[str, Any]], count: int, *, seed: int = 1,
              spacing_s: float = 600.0) -> SimKiosk:
    """Kiosk ``index``: three players of its own and ``count`` matches drawn from ``pool``, re-keyed,
    ending one every ``spacing_s`` through the evening (the kiosks' matches interleave)."""
    rng = random.Random(f"{seed}-{index}")
    name = f"sim-{index:03d}"
    players = [{"uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "name": f"{n} {index}"}
               for n in ("Ann", "Bo", "Cy")]
    matches = []
    for j in range(count):
        a, b = rng.sample(range(3), 2)
        matches.append(rekey(pool[rng.randrange(len(pool))], uuid.UUID(int=rng.getrandbits(128), version=4),
                             {"seat0": players[a]["uuid"], "seat1": players[b]["uuid"]},
                             EVENING_START + j * spacing_s + index * spacing_s / 97))
    return SimKiosk(name, players, matches)


def rekey(match: dict[str, Any], key: uuid.UUID, players: dict[str, str], ended_wall: float) -> dict[str, Any]:
    """``match`` under another uuid, with its players mapped through ``players`` and ending at
    ``ended_wall``; the rows are shared, unchanged."""
    header = dict(match["header"], players=[None if p is None else players[p] for p in match["header"]["players"]],
                  ended_wall=ended_wall, created_wall=ended_wall - 900.0)
    return {"uuid": str(key), "header": header, "claimed": match["claimed"], "rows": match["rows"]}


@dataclass
class Sent:
    """What sending one upload until acknowledged took."""

    seconds: float
    attempts: int
    answer: dict[str, Any]


def send_until_acked(client: httpx.Client, url: str, token: str, body: bytes, *, deadline_s: float = 300.0,
                     clock: Callable[[], float] = time.monotonic, pause: Callable[[float], None] = time.sleep) -> Sent:
    """POST ``body`` until the hub answers 200 (a kiosk's rule); raises RuntimeError on a 4xx (a refusal
    is not retried) or when ``deadline_s`` passes. Connection errors and 5xx are retried after a short
    growing pause (0.05 s doubling to 1 s)."""
    started = clock()
    attempts = 0
    wait = 0.05
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    while True:
        attempts += 1
        try:
            answer = client.post(url, content=body, headers=headers)
            if answer.status_code == 200:
                return Sent(clock() - started, attempts, answer.json())
            if answer.status_code < 500:
                raise RuntimeError(f"the hub refused an upload: {answer.status_code} {answer.text[:300]}")
        except httpx.TransportError:
            pass
        if clock() - started > deadline_s:
            raise RuntimeError(f"no acknowledgement within {deadline_s:.0f} s ({attempts} attempts)")
        pause(wait)
        wait = min(1.0, wait * 2)


assert BATCH_ROWS <= MAX_ROWS
