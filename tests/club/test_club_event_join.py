"""Joining a club event at a table, on the hub (issue 25, docs/events-protocol.md "A player joins at a
table"): the assignment's list of events taking entries, and ``POST /api/v1/kiosk/events/ID/entrants``
answered joined / already joined / refused, idempotent by its key, logged as the table's. In-process
(TestClient) with a fake clock and a real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from club_events_support import FakeClock
from fastapi.testclient import TestClient

from club import eventstore
from club.app import create_app
from club.errors import Conflict
from club.tokens import add_kiosk


class Tables:
    def __init__(self, client: TestClient, dsn: str, clock: FakeClock) -> None:
        self.client, self.dsn, self.clock = client, dsn, clock
        with psycopg.connect(dsn) as conn:
            self.token = add_kiosk(conn, "Table 3")[1]
        self.players = [{"uuid": str(uuid.uuid4()), "name": n} for n in ("Anna", "Ben", "Chloé", "Dmytro")]
        got = client.post("/api/v1/uploads", json={"players": self.players, "matches": []}, headers=self.auth())
        assert got.status_code == 200, got.text

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def joinable(self) -> list[dict[str, Any]]:
        got = self.client.get("/api/v1/kiosk/assignment", headers=self.auth())
        assert got.status_code == 200, got.text
        events: list[dict[str, Any]] = got.json()["joinable"]
        return events

    def join(self, event: str, player: dict[str, str], key: str | None = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else self.auth()
        return self.client.post(f"/api/v1/kiosk/events/{event}/entrants", headers=headers,
                                json={"player": player, "key": key or str(uuid.uuid4())})

    def event(self, name: str, fmt: str, entrants: int = 2, start: bool = False, **kwargs: Any) -> str:
        with psycopg.connect(self.dsn) as conn:
            key = eventstore.create_event(conn, name=name, format=fmt, now=self.clock.t, **kwargs)
            for p in self.players[:entrants]:
                eventstore.join(conn, key, p["uuid"], self.clock.t)
            if start:
                eventstore.start(conn, key, self.clock.t)
        return str(key)

    def entrants(self, event: str) -> dict[str, tuple[int, bool]]:
        with psycopg.connect(self.dsn) as conn:
            rows = conn.execute("SELECT player, joined_round, withdrawn_after IS NOT NULL FROM event_entrants"
                                " WHERE event = %s", (event,)).fetchall()
        return {str(r[0]): (int(r[1]), bool(r[2])) for r in rows}

    def log(self, event: str) -> list[tuple[str, str, dict[str, Any]]]:
        with psycopg.connect(self.dsn) as conn:
            rows = conn.execute("SELECT actor, action, detail FROM event_log WHERE event = %s ORDER BY id",
                                (event,)).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]


@pytest.fixture
def tables(dsn: str) -> Iterator[Tables]:
    clock = FakeClock()
    with TestClient(create_app(dsn, pool_size=4, clock=clock)) as client:
        yield Tables(client, dsn, clock)


def test_the_assignment_lists_the_events_taking_entries_now(tables: Tables) -> None:
    assert tables.joinable() == []
    open_rr = tables.event("Round-robin", "round-robin")
    swiss = tables.event("Friday Swiss", "swiss", rounds=3, entrants=4, start=True)
    arena = tables.event("Arena night", "arena", minutes=30, start=True)
    running_rr = tables.event("Closed round-robin", "round-robin", start=True)
    listed = tables.joinable()
    assert [e["name"] for e in listed] == ["Arena night", "Friday Swiss", "Round-robin"]  # made at the same time
    assert listed[2] == {"uuid": open_rr, "name": "Round-robin", "format": "round-robin", "round": 0}
    assert listed[1] == {"uuid": swiss, "name": "Friday Swiss", "format": "swiss", "round": 1}
    assert listed[0] == {"uuid": arena, "name": "Arena night", "format": "arena", "round": None}
    assert running_rr not in {e["uuid"] for e in listed}
    with psycopg.connect(tables.dsn) as conn:  # a Swiss whose last round is paired takes no late entries
        conn.execute("UPDATE events SET current_round = rounds WHERE uuid = %s", (swiss,))
    assert swiss not in {e["uuid"] for e in tables.joinable()}


def test_a_late_entrant_joins_a_running_swiss_from_the_next_round_logged_as_the_table(tables: Tables) -> None:
    swiss = tables.event("Friday Swiss", "swiss", rounds=3, entrants=3, start=True)
    dmytro, key = tables.players[3], str(uuid.uuid4())
    got = tables.join(swiss, dmytro, key)
    assert got.status_code == 200, got.text
    answer = got.json()
    assert answer["result"] == "joined" and answer["reason"] is None and answer["round"] == 2
    assert answer["event"] == {"uuid": swiss, "name": "Friday Swiss", "format": "swiss"}
    assert answer["player"] == {"uuid": dmytro["uuid"], "name": "Dmytro"}
    assert tables.entrants(swiss)[dmytro["uuid"]] == (2, False)
    actor, action, detail = tables.log(swiss)[-1]
    assert (actor, action) == ("table Table 3", "joined")
    assert detail["key"] == key and detail["table"] == "Table 3" and detail["player"] == dmytro["uuid"]
    again = tables.join(swiss, dmytro, key)  # the same key again: the same answer, nothing more stored
    assert again.json()["result"] == "joined" and again.json()["round"] == 2
    assert [a for _, a, _ in tables.log(swiss)].count("joined") == 4
    other = tables.join(swiss, dmytro)  # another key for a player entered already
    assert other.json()["result"] == "already-joined"
    assert [a for _, a, _ in tables.log(swiss)].count("joined") == 4


def test_an_unknown_player_is_created_as_an_upload_creates_one(tables: Tables) -> None:
    arena = tables.event("Arena night", "arena", minutes=30, start=True)
    eve = {"uuid": str(uuid.uuid4()), "name": "Eve"}
    answer = tables.join(arena, eve).json()
    assert answer["result"] == "joined" and answer["round"] is None and answer["player"]["name"] == "Eve"
    with psycopg.connect(tables.dsn) as conn:
        row = conn.execute("SELECT p.name, k.name FROM players p JOIN kiosks k ON k.uuid = p.kiosk WHERE p.uuid = %s",
                           (eve["uuid"],)).fetchone()
    assert row == ("Eve", "Table 3")
    assert tables.entrants(arena)[eve["uuid"]] == (1, False)


def test_refusals_say_why_and_change_nothing(tables: Tables) -> None:
    rr = tables.event("Round-robin", "round-robin", start=True)
    swiss = tables.event("Friday Swiss", "swiss", rounds=3, entrants=4, start=True)
    anna, eve = tables.players[0], {"uuid": str(uuid.uuid4()), "name": "Eve"}
    with psycopg.connect(tables.dsn) as conn:
        eventstore.withdraw(conn, swiss, anna["uuid"], tables.clock.t)
    before = {e: tables.entrants(e) for e in (rr, swiss)}
    logged = {e: len(tables.log(e)) for e in (rr, swiss)}
    closed = tables.join(rr, eve).json()
    assert (closed["result"], closed["reason"]) == ("refused", "closed")
    withdrawn = tables.join(swiss, anna).json()
    assert (withdrawn["result"], withdrawn["reason"]) == ("refused", "withdrawn")
    unknown = tables.join(str(uuid.uuid4()), anna).json()
    assert (unknown["result"], unknown["reason"], unknown["event"]) == ("refused", "unknown-event", None)
    assert tables.join("not-a-uuid", anna).json()["reason"] == "unknown-event"
    assert {e: tables.entrants(e) for e in (rr, swiss)} == before
    assert {e: len(tables.log(e)) for e in (rr, swiss)} == logged
    with psycopg.connect(tables.dsn) as conn:  # the refused unknown player was not created
        assert conn.execute("SELECT 1 FROM players WHERE uuid = %s", (eve["uuid"],)).fetchone() is None


def test_a_join_that_is_not_one_is_refused_422_and_a_stranger_401(tables: Tables) -> None:
    arena = tables.event("Arena night", "arena", minutes=30, start=True)
    anna = tables.players[3]  # not entered
    for body in ({"player": anna}, {"player": {"uuid": "x", "name": "A"}, "key": str(uuid.uuid4())},
                 {"player": {"uuid": anna["uuid"], "name": ""}, "key": str(uuid.uuid4())}, [1]):
        got = tables.client.post(f"/api/v1/kiosk/events/{arena}/entrants", headers=tables.auth(), json=body)
        assert got.status_code == 422, got.text
    assert tables.join(arena, anna, token="not-a-token").status_code == 401
    assert anna["uuid"] not in tables.entrants(arena)


def test_a_key_used_again_for_another_player_or_event_is_refused_and_changes_nothing(tables: Tables) -> None:
    arena = tables.event("Arena night", "arena", minutes=30, start=True)
    swiss = tables.event("Friday Swiss", "swiss", rounds=3, entrants=2, start=True)
    chloe, dmytro, key = tables.players[2], tables.players[3], str(uuid.uuid4())
    assert tables.join(arena, chloe, key).json()["result"] == "joined"
    before = {e: (tables.entrants(e), len(tables.log(e))) for e in (arena, swiss)}
    other = tables.join(arena, dmytro, key).json()  # the same key, another player: not a replay of that join
    assert (other["result"], other["reason"]) == ("refused", "refused")
    assert "key" in other["message"] and other["player"]["uuid"] == dmytro["uuid"]
    elsewhere = tables.join(swiss, chloe, key).json()  # the same key for another event
    assert (elsewhere["result"], elsewhere["reason"]) == ("refused", "refused")
    assert {e: (tables.entrants(e), len(tables.log(e))) for e in (arena, swiss)} == before
    assert tables.join(arena, chloe, key).json()["result"] == "joined"  # the true replay still answered


def test_a_withdrawal_is_final_for_the_director_too(tables: Tables) -> None:
    swiss = tables.event("Friday Swiss", "swiss", rounds=3, entrants=4, start=True)
    anna = tables.players[0]
    with psycopg.connect(tables.dsn) as conn:
        eventstore.withdraw(conn, swiss, anna["uuid"], tables.clock.t)
    before = tables.entrants(swiss)
    with psycopg.connect(tables.dsn) as conn, pytest.raises(Conflict, match="this player withdrew"):
        eventstore.join(conn, swiss, anna["uuid"], tables.clock.t)
    assert tables.join(swiss, anna).json()["reason"] == "withdrawn"
    assert tables.entrants(swiss) == before
