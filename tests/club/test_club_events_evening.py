"""A simulated club night through real HTTP against a real hub: 12 named players, 4 tables acting as
kiosks (``club_events_support.SimTable``), a 5-round Swiss and a 30-minute arena on an injected clock;
then the same with a table cut off for ten minutes (once holding an offer it could not acknowledge,
once in the middle of a match) and the hub restarted in the middle of a round.

Checked after each evening: every pairing legal for its system (Swiss: everyone once a round, no
repeat pairing, the seat balance of the Dutch rules; arena: nobody in two pairings at once), every
result counted once (each uploaded match settles exactly one pairing, each played pairing has one
verified match), and the standings the hub serves equal a recomputation from the verified matches; the Swiss's rounds re-paired by the pairing library's own checker (FPC) from a TRF
of the evening, with no discrepancy.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import random
import statistics
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from caissify_pairings.fpc import check_trf
from club_events_support import (
    BANK_S,
    NAMES,
    FakeClock,
    SimTable,
    free_port,
    match_pools,
    serve_at,
    stop_served,
)
from test_club_events_swiss import _trf

from club import eventstore
from club.app import create_app
from club.cli import main as club_main
from club.events.arena import arena_standings
from club.events.model import Bye, Entrant, Game, unordered
from club.events.rules import EventRules, Format
from club.events.standings import round_standings
from club.tokens import add_kiosk

STEP_S = 5.0
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pools(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    return match_pools(tmp_path_factory.mktemp("pools"))


def _cli(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert club_main(list(args)) == 0
    return out.getvalue().strip()


class Evening:
    """A hub on a fixed port with 4 tables and 12 players; ``run`` plays until the event is over."""

    def __init__(self, dsn: str, pools: dict[str, list[dict[str, Any]]], seed: int) -> None:
        self.dsn = dsn
        self.clock = FakeClock(1_800_000_000.0)
        self.port = free_port()
        self.served = serve_at(create_app(dsn, pool_size=6, clock=self.clock), self.port)
        self.restarts = 0
        rng = random.Random(seed)
        with psycopg.connect(dsn) as conn:
            tokens = [add_kiosk(conn, f"table {i}")[1] for i in range(1, 5)]
        self.players = [{"uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "name": n} for n in NAMES]
        got = httpx.post(self.base() + "/api/v1/uploads", json={"players": self.players, "matches": []},
                         headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=30)
        assert got.status_code == 200, got.text
        self.tables = [SimTable(f"table {i + 1}", t, self.base, pools, random.Random(seed * 10 + i),
                                berserk_chance=0.3) for i, t in enumerate(tokens)]

    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create(self, *args: str) -> str:
        event = _cli("events", "create", "--database", self.dsn, *args)
        _cli("events", "join", event, *[p["uuid"] for p in self.players], "--database", self.dsn)
        with psycopg.connect(self.dsn) as conn:
            eventstore.start(conn, event, self.clock.t)
        return event

    def restart_hub(self) -> None:
        """Stop the hub (connections refused for two steps of the tables), then start a new one."""
        stop_served(self.served)
        for _ in range(2):
            self.clock.t += STEP_S
            for table in self.tables:
                table.step(self.clock.t)
        self.served = serve_at(create_app(self.dsn, pool_size=6, clock=self.clock), self.port)
        self.restarts += 1

    def state(self, event: str) -> dict[str, Any]:
        with psycopg.connect(self.dsn) as conn:
            return next(e for e in eventstore.list_events(conn) if e["uuid"] == event)

    def run(self, event: str, faults: dict[str, Any] | None = None, limit_s: float = 4 * 3600) -> None:
        faults = dict(faults or {})
        start = self.clock.t
        steps = 0
        while True:
            self.clock.t += STEP_S
            steps += 1
            for table in self.tables:
                table.step(self.clock.t)
            if faults and steps % 6 == 0:
                self._faults(event, faults)
            if steps % 12 == 0:
                idle = all(t.playing_until is None and not t.outbox for t in self.tables)
                if idle and self.state(event)["state"] == "finished":
                    return
            assert self.clock.t - start < limit_s, "the evening did not end"

    def _faults(self, event: str, faults: dict[str, Any]) -> None:
        current = self.state(event)
        elapsed = current["round"] if current["format"] != "arena" else int((self.clock.t - current["started_at"]) // 300)
        if "cut_offer" in faults and elapsed >= faults["cut_offer"]:
            self.tables[2].cut_on_next_offer = 600.0
            del faults["cut_offer"]
        if "cut_playing" in faults and elapsed >= faults["cut_playing"] and self.tables[1].playing_until is not None:
            self.tables[1].cut = (self.clock.t, self.clock.t + 600.0)
            del faults["cut_playing"]
        if "restart" in faults and elapsed >= faults["restart"] and any(t.playing_until for t in self.tables):
            self.restart_hub()
            del faults["restart"]

    def close(self) -> None:
        stop_served(self.served)

    def timings(self) -> str:
        """Median and 99th percentile of the tables' requests, in ms, by kind."""
        out = []
        for kind in ("poll", "ack", "upload"):
            times = sorted(t for table in self.tables for t in table.timings.get(kind, []))
            if times:
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                out.append(f"{kind} {len(times)}: median {statistics.median(times) * 1000:.1f} ms,"
                           f" p99 {p99 * 1000:.1f} ms")
        return "; ".join(out)


def _rows(dsn: str, event: str) -> list[dict[str, Any]]:
    with psycopg.connect(dsn) as conn:
        cur = conn.execute(
            "SELECT p.uuid, p.round, p.board, p.player0, p.player1, p.state, p.match, p.created_at, p.finished_at,"
            " p.moved_from, p.kiosk FROM event_pairings p WHERE p.event = %s ORDER BY p.created_at, p.board", (event,))
        names = [d.name for d in cur.description or ()]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _verified(dsn: str, event: str) -> list[dict[str, Any]]:
    """The verified matches naming a pairing of ``event``, straight from the matches table."""
    with psycopg.connect(dsn) as conn:
        cur = conn.execute(
            "SELECT m.uuid, m.player0, m.player1, m.winner, m.balances, m.ended_wall, m.berserk, m.config, p.round"
            " FROM matches m JOIN event_pairings p ON p.uuid = m.event_pairing"
            " WHERE p.event = %s AND m.status = 'verified' ORDER BY m.ended_wall", (event,))
        names = [d.name for d in cur.description or ()]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _entrants(dsn: str, event: str) -> list[Entrant]:
    with psycopg.connect(dsn) as conn:
        return [Entrant(r[0], r[1], float(r[2])) for r in conn.execute(
            "SELECT e.player, p.name, e.rating FROM event_entrants e JOIN players p ON p.uuid = e.player"
            " WHERE e.event = %s ORDER BY e.draw", (event,))]


def _served_standings(evening: Evening, event: str) -> list[tuple[str, int, tuple[int, ...], int]]:
    got = httpx.get(f"{evening.base()}/api/v1/events/{event}/standings", timeout=30)
    assert got.status_code == 200
    body = got.json()
    return [(r["player"], r["score"], tuple(r["tiebreaks"]), r["games"]) for r in body["standings"]]


def _results_counted_once(evening: Evening, event: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rows = _rows(evening.dsn, event)
    verified = _verified(evening.dsn, event)
    uploaded = [p for t in evening.tables for p in t.played]
    assert len({m["uuid"] for m in verified}) == len(verified) == len(uploaded)
    assert {str(m["uuid"]) for m in verified} == {p["match"] for p in uploaded}
    played = [r for r in rows if r["state"] == "played"]
    assert len(played) == len(verified)
    assert sorted(str(r["match"]) for r in played) == sorted(p["match"] for p in uploaded)
    with psycopg.connect(evening.dsn) as conn:
        conflicts = conn.execute("SELECT count(*) FROM conflicts").fetchone()
    assert conflicts is not None and conflicts[0] == 0
    assert not any(r["state"] in ("waiting", "offered", "acknowledged", "aborted") for r in rows)
    return rows, verified


def _check_swiss(evening: Evening, event: str, rounds: int) -> dict[str, Any]:
    rows, verified = _results_counted_once(evening, event)
    entrants = _entrants(evening.dsn, event)
    everyone = {e.player for e in entrants}
    # everyone once a round (a moved pairing's copy stands for it), no repeat pairing
    settled = [r for r in rows if r["state"] in ("played", "bye")]
    for rnd in range(1, rounds + 1):
        placed = [p for r in settled if r["round"] == rnd for p in (r["player0"], r["player1"]) if p is not None]
        assert sorted(placed) == sorted(everyone), rnd
    meetings = Counter(unordered(m["player0"], m["player1"]) for m in verified)
    assert meetings.most_common(1)[0][1] == 1
    # the Dutch seat rules: seat-0/seat-1 difference within 2 and never three in a row (the last round may
    # break them only for a player over 50 % before it)
    seats: dict[uuid.UUID, list[int]] = defaultdict(list)
    for m in sorted(verified, key=lambda m: m["round"]):
        seats[m["player0"]].append(1)
        seats[m["player1"]].append(-1)
    wins_before_last = Counter(m["player0"] if m["winner"] == 0 else m["player1"]
                               for m in verified if m["round"] < rounds)
    for player, seq in seats.items():
        exempt = wins_before_last[player] > (rounds - 1) / 2
        check = seq if not exempt else seq[:-1]
        assert abs(sum(check)) <= 2, (player, seq)
        assert all(abs(sum(check[i:i + 3])) < 3 for i in range(len(check) - 2)), (player, seq)
    # the standings served are a recomputation from the verified matches
    games = [Game(m["uuid"], (m["player0"], m["player1"]), m["winner"], tuple(m["balances"]), m["round"],
                  m["ended_wall"]) for m in verified]
    byes = [(r["round"], r["player0"]) for r in rows if r["state"] == "bye"]
    rules = EventRules(Format.SWISS, rounds=rounds)
    table = round_standings(entrants, games, [Bye(r, p) for r, p in byes], rules)
    served = _served_standings(evening, event)
    assert served == [(str(s.player), s.score, s.tiebreaks, s.games) for s in table]
    # the pairing library's own checker re-pairs every round of the evening from a TRF of it
    report = check_trf(_trf(entrants, games, [Bye(r, p) for r, p in byes], rounds))
    assert report["summary"]["rounds_checked"] == rounds
    assert report["summary"]["total_discrepancies"] == 0, report["rounds"]
    by_hand = Counter(g.seats[g.winner] for g in games) + Counter(p for _, p in byes)
    assert {p: s for p, s, _, _ in served} == {str(e.player): by_hand[e.player] for e in entrants}
    assert sum(g for *_, g in served) == 2 * len(games) == 2 * len(verified)
    return {"games": len(games), "byes": len(byes), "moved": sum(r["state"] == "moved" for r in rows),
            "cancelled": sum(r["state"] == "cancelled" for r in rows)}


def _arena_by_hand(verified: list[dict[str, Any]]) -> Counter[uuid.UUID]:
    """Arena scores counted again here: 2 a win, 4 on fire (after two wins in a row), +1 berserk win
    (a seat whose bank in the verified match is half the event's)."""
    score: Counter[uuid.UUID] = Counter()
    streak: Counter[uuid.UUID] = Counter()
    for m in sorted(verified, key=lambda m: (m["ended_wall"], m["uuid"].int)):
        for seat, player in enumerate((m["player0"], m["player1"])):
            if m["winner"] == seat:
                berserk = seat in (m["berserk"] or []) and m["config"]["bank_ns"][seat] * 2 == BANK_S * 10**9
                score[player] += (4 if streak[player] >= 2 else 2) + (1 if berserk else 0)
                streak[player] += 1
            else:
                streak[player] = 0
    return score


def _check_arena(evening: Evening, event: str, minutes: int) -> dict[str, Any]:
    rows, verified = _results_counted_once(evening, event)
    entrants = _entrants(evening.dsn, event)
    everyone = {e.player for e in entrants}
    started = evening.state(event)["started_at"]
    # nobody in two pairings at once; every pairing made before the end, between two entrants
    busy: dict[uuid.UUID, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        assert {r["player0"], r["player1"]} <= everyone and r["player0"] != r["player1"]
        assert r["created_at"] < started + minutes * 60
        if r["state"] in ("played", "moved"):
            for p in (r["player0"], r["player1"]):
                busy[p].append((r["created_at"], r["finished_at"]))
    for spans in busy.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    def halved(m: dict[str, Any], seat: int) -> bool:
        return seat in (m["berserk"] or []) and m["config"]["bank_ns"][seat] * 2 == BANK_S * 10**9

    games = [Game(m["uuid"], (m["player0"], m["player1"]), m["winner"], tuple(m["balances"]), 0, m["ended_wall"],
                  (halved(m, 0), halved(m, 1))) for m in verified]
    rules = EventRules(Format.ARENA, minutes=minutes)
    table = arena_standings(entrants, games, rules)
    served = _served_standings(evening, event)
    assert served == [(str(s.player), s.score, s.tiebreaks, s.games) for s in table]
    by_hand = _arena_by_hand(verified)
    assert {p: s for p, s, _, _ in served} == {str(e.player): by_hand[e.player] for e in entrants}
    last: dict[uuid.UUID, uuid.UUID] = {}
    rematches = 0
    for m in verified:
        a, b = m["player0"], m["player1"]
        rematches += last.get(a) == b
        last[a], last[b] = b, a
    return {"games": len(games), "berserk wins": sum(g.berserk[g.winner] for g in games),
            "moved": sum(r["state"] == "moved" for r in rows), "immediate rematches": rematches}


def test_a_swiss_evening(dsn: str, pools: dict[str, list[dict[str, Any]]]) -> None:
    evening = Evening(dsn, pools, seed=1)
    try:
        event = evening.create("--name", "Friday Swiss", "--format", "swiss", "--rounds", "5")
        evening.run(event)
        figures = _check_swiss(evening, event, 5)
    finally:
        evening.close()
    assert figures["games"] == 30 and figures["moved"] == 0
    print("swiss evening:", figures, evening.timings())


def test_an_arena_evening(dsn: str, pools: dict[str, list[dict[str, Any]]]) -> None:
    evening = Evening(dsn, pools, seed=2)
    try:
        event = evening.create("--name", "Arena night", "--format", "arena", "--minutes", "30", "--berserk")
        evening.run(event)
        figures = _check_arena(evening, event, 30)
    finally:
        evening.close()
    assert figures["games"] >= 12
    print("arena evening:", figures, evening.timings())


def test_a_swiss_evening_with_a_table_cut_off_and_the_hub_restarted(dsn: str, pools: dict[str, list[dict[str, Any]]]) -> None:
    evening = Evening(dsn, pools, seed=3)
    try:
        event = evening.create("--name", "Swiss with faults", "--format", "swiss", "--rounds", "5")
        evening.run(event, faults={"cut_offer": 1, "cut_playing": 2, "restart": 3})
        figures = _check_swiss(evening, event, 5)
    finally:
        evening.close()
    assert evening.restarts == 1
    assert evening.tables[2].moved_away >= 1 and figures["moved"] >= 1  # the offer it never acknowledged moved
    assert evening.tables[1].failures > 0 and evening.tables[2].failures > 0
    assert figures["games"] == 30
    print("swiss evening with faults:", figures, evening.timings())


def test_an_arena_evening_with_a_table_cut_off_and_the_hub_restarted(dsn: str, pools: dict[str, list[dict[str, Any]]]) -> None:
    evening = Evening(dsn, pools, seed=4)
    try:
        event = evening.create("--name", "Arena with faults", "--format", "arena", "--minutes", "30", "--berserk")
        evening.run(event, faults={"cut_offer": 0, "cut_playing": 1, "restart": 3})
        figures = _check_arena(evening, event, 30)
    finally:
        evening.close()
    assert evening.restarts == 1 and figures["moved"] >= 1
    print("arena evening with faults:", figures, evening.timings())


def test_the_pools_are_real_matches(pools: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    assert all(m["header"]["config"]["bank_ns"][0] * 2 == BANK_S * 10**9 for m in pools["berserk0"])
    assert all(m["header"]["config"]["bank_ns"] == [BANK_S * 10**9] * 2 for m in pools["none"])
