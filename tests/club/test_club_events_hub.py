"""Club events on the hub (issue 25): the assignment protocol (docs/events-protocol.md), a verified match
settling its pairing once, berserk checked against the replayed bank, the director's logged actions,
the commands, and old kiosks' uploads unchanged. In-process (TestClient) with a fake clock."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from club_events_support import BANK_S, FakeClock, match_pools
from fastapi.testclient import TestClient

from club import eventstore
from club.app import create_app
from club.cli import main as club_main
from club.errors import BadRequest, Conflict
from club.fleet import rekey
from club.tokens import add_kiosk
from club.wire import MatchUpload, canonical_sha, parse_upload

NAMES = ["Anna", "Ben", "Chloé", "Dmytro"]


@pytest.fixture(scope="module")
def pools(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    return match_pools(tmp_path_factory.mktemp("pools"), count=2)


class Club:
    def __init__(self, client: TestClient, dsn: str, clock: FakeClock) -> None:
        self.client, self.dsn, self.clock = client, dsn, clock
        with psycopg.connect(dsn) as conn:
            self.tokens = [add_kiosk(conn, f"table {i}")[1] for i in (1, 2, 3)]
        self.players = [{"uuid": str(uuid.uuid4()), "name": n} for n in NAMES]
        assert self.upload(0, {"players": self.players, "matches": []}).status_code == 200

    def auth(self, table: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[table]}"}

    def upload(self, table: int, body: dict[str, Any]) -> Any:
        return self.client.post("/api/v1/uploads", json=body, headers=self.auth(table))

    def poll(self, table: int) -> dict[str, Any] | None:
        got = self.client.get("/api/v1/kiosk/assignment", headers=self.auth(table))
        assert got.status_code == 200, got.text
        pairing: dict[str, Any] | None = got.json()["pairing"]
        return pairing

    def ack(self, table: int, pairing: str) -> Any:
        return self.client.post(f"/api/v1/kiosk/assignment/{pairing}/ack", headers=self.auth(table))

    def event(self, *args: str, start: bool = True) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert club_main(["events", "create", "--database", self.dsn, *args]) == 0
        event = out.getvalue().strip()
        with psycopg.connect(self.dsn) as conn:
            for p in self.players:
                eventstore.join(conn, event, p["uuid"], self.clock.t)
            if start:
                eventstore.start(conn, event, self.clock.t)
        return event

    def played(self, pool: list[dict[str, Any]], pairing: dict[str, Any], *, berserk: list[int] | None = None,
               seats: tuple[int, int] = (0, 1), source: int = 0) -> dict[str, Any]:
        players = {"seat0": pairing["players"][seats[0]]["uuid"], "seat1": pairing["players"][seats[1]]["uuid"]}
        match = rekey(pool[source], uuid.uuid4(), players, self.clock.t)
        match["header"] = dict(match["header"], event_pairing=pairing["uuid"], berserk=berserk)
        return match

    def row(self, pairing: str) -> tuple[Any, ...]:
        with psycopg.connect(self.dsn) as conn:
            got = conn.execute("SELECT state, match, kiosk, berserk, note FROM event_pairings WHERE uuid = %s",
                               (pairing,)).fetchone()
        assert got is not None
        return tuple(got)


@pytest.fixture
def club(dsn: str) -> Iterator[Club]:
    clock = FakeClock()
    with TestClient(create_app(dsn, pool_size=4, clock=clock)) as client:
        yield Club(client, dsn, clock)


def test_no_event_no_pairing_and_the_token_is_needed(club: Club) -> None:
    assert club.poll(0) is None
    assert club.client.get("/api/v1/kiosk/assignment").status_code == 401
    assert club.client.post(f"/api/v1/kiosk/assignment/{uuid.uuid4()}/ack").status_code == 401
    assert club.ack(0, str(uuid.uuid4())).status_code == 404
    assert club.ack(0, "not-a-uuid").status_code == 404
    assert club.client.get("/api/v1/events").json() == []


def test_a_swiss_round_goes_to_the_tables_that_ask(club: Club) -> None:
    event = club.event("--name", "Friday <Swiss>", "--format", "swiss", "--rounds", "3")
    first = club.poll(0)
    assert first is not None
    assert first["event"] == {"uuid": event, "name": "Friday <Swiss>", "format": "swiss"}
    assert first["round"] == 1 and first["berserk"] is False
    assert first["settings"] == {"bank_seconds": 120, "delay_seconds": 10, "balances": 150}
    assert first["acknowledge_by"] == club.clock.t + 120
    assert {p["name"] for p in first["players"]} <= set(NAMES) and len(first["players"]) == 2
    second = club.poll(1)
    assert second is not None and second["uuid"] != first["uuid"]
    assert club.poll(2) is None  # four players: two boards
    assert club.poll(0) == first  # the same pairing until it is played
    assert club.ack(1, first["uuid"]).status_code == 404  # not that table's
    assert club.ack(0, first["uuid"]).json() == {"acknowledged": True}
    assert club.ack(0, first["uuid"]).status_code == 200  # twice is fine
    assert club.row(first["uuid"])[0] == "acknowledged"
    listed = club.client.get("/api/v1/events").json()
    assert listed[0]["uuid"] == event and listed[0]["state"] == "running" and listed[0]["round"] == 1


def test_an_unacknowledged_pairing_moves_and_an_acknowledged_one_never_does(club: Club) -> None:
    club.event("--name", "Swiss", "--format", "swiss", "--rounds", "3", "--ack-timeout", "60")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None
    assert club.ack(1, b["uuid"]).status_code == 200
    club.clock.t += 61
    club.poll(2)  # table 3 asks after the deadline: table 1's pairing moves to it
    assert club.row(a["uuid"])[0] == "moved"
    moved = club.poll(2)
    assert moved is not None and moved["uuid"] != a["uuid"] and moved["players"] == a["players"]
    late = club.ack(0, a["uuid"])
    assert late.status_code == 409 and "moved" in late.json()["error"]["message"]
    assert club.poll(0) is None
    club.clock.t += 3600
    assert club.poll(1) == b  # acknowledged: kept however long it takes (the table may be cut off)
    assert club.row(b["uuid"])[0] == "acknowledged"


def test_a_verified_match_settles_its_pairing_once(club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:
    event = club.event("--name", "Swiss", "--format", "swiss", "--rounds", "2")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None
    club.ack(0, a["uuid"])
    club.ack(1, b["uuid"])
    club.clock.t += 600
    body = {"players": [], "matches": [club.played(pools["none"], a)]}
    got = club.upload(0, body)
    assert got.status_code == 200 and got.json()["matches"][0]["status"] == "verified"
    state, match, *_ = club.row(a["uuid"])
    assert state == "played" and str(match) == body["matches"][0]["uuid"]
    assert club.upload(0, copy.deepcopy(body)).json()["matches"][0]["result"] == "already held"
    assert club.poll(0) is None  # the table is free again; the round waits for board 2
    standings = club.client.get(f"/api/v1/events/{event}/standings").json()
    assert standings["tiebreaks"] == ["buchholz", "sonneborn-berger", "direct-encounter", "points-transferred"]
    assert sum(r["games"] for r in standings["standings"]) == 2
    assert sum(r["score"] for r in standings["standings"]) == 1
    row = standings["standings"][0]
    assert set(row) == {"rank", "player", "name", "score", "tiebreaks", "games", "forfeit_wins", "forfeit_losses"}
    assert len(row["tiebreaks"]) == 4
    # board 2, played the other way round, settles it too; then round 2 is paired at once
    body2 = {"players": [], "matches": [club.played(pools["none"], b, seats=(1, 0), source=1)]}
    assert club.upload(1, body2).status_code == 200
    assert club.row(b["uuid"])[0] == "played"
    listed = club.client.get("/api/v1/events").json()[0]
    assert listed["round"] == 2


def test_a_match_that_does_not_fit_its_pairing_is_an_ordinary_match_listed_as_a_conflict(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:
    club.event("--name", "Swiss", "--format", "swiss", "--rounds", "2")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None
    wrong = club.played(pools["none"], {"uuid": a["uuid"], "players": [a["players"][0], b["players"][0]]})
    unknown = club.played(pools["none"], dict(b, uuid=str(uuid.uuid4())), source=1)
    got = club.upload(0, {"players": [], "matches": [wrong, unknown]})
    assert got.status_code == 200 and all(m["status"] == "verified" for m in got.json()["matches"])
    assert club.row(a["uuid"])[0] == "offered" and club.row(b["uuid"])[0] == "offered"
    conflicts = club.client.get("/api/v1/conflicts").json()
    whys = sorted(c["why"] for c in conflicts if c["kind"] == "event")
    assert whys == ["the match names an event pairing the hub does not know",
                    "the match's players are not the pairing's"]


def test_a_moved_pairing_played_at_its_first_table_counts_there_and_the_copy_gives_way(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:
    club.event("--name", "Swiss", "--format", "swiss", "--rounds", "2", "--ack-timeout", "30")
    a = club.poll(0)
    assert a is not None
    club.clock.t += 31
    club.poll(1)
    club.poll(2)
    copy_row = club.poll(2) or club.poll(1)
    assert club.row(a["uuid"])[0] == "moved"
    # table 1 was cut off: it showed the pairing, the players started it, and it uploads it later
    got = club.upload(0, {"players": [], "matches": [club.played(pools["none"], a)]})
    assert got.status_code == 200
    assert club.row(a["uuid"])[0] == "played"
    assert copy_row is not None and club.row(copy_row["uuid"])[0] == "cancelled"


def test_berserk_counts_only_with_the_bank_halved_in_the_replayed_match(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:
    event = club.event("--name", "Arena", "--format", "arena", "--minutes", "30", "--berserk")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None and a["berserk"] is True and a["round"] is None
    honest = club.played(pools["berserk0"], a, berserk=[0])
    claimed = club.played(pools["none"], b, berserk=[1])  # claims berserk with a full bank
    assert club.upload(0, {"players": [], "matches": [honest]}).status_code == 200
    assert club.upload(1, {"players": [], "matches": [claimed]}).status_code == 200
    assert club.row(a["uuid"])[3] == [True, False]
    assert club.row(b["uuid"])[3] == [False, False]
    # a header that halves the bank of a match played with a full one does not replay
    forged = club.played(pools["none"], a, berserk=[0], source=1)
    config = dict(forged["header"]["config"], bank_ns=[BANK_S * 10**9 // 2, BANK_S * 10**9])
    forged["header"] = dict(forged["header"], config=config)
    got = club.upload(0, {"players": [], "matches": [forged]}).json()["matches"][0]
    assert got["status"] == "rejected"
    standings = {r["player"]: r["score"] for r in club.client.get(f"/api/v1/events/{event}/standings").json()["standings"]}
    winner = honest["header"]["players"][honest["claimed"]["winner"]]
    seat = honest["claimed"]["winner"]
    assert standings[winner] == (3 if seat == 0 else 2)  # berserk +1 only for the seat that halved its bank
    other = claimed["header"]["players"][claimed["claimed"]["winner"]]
    assert standings[other] == 2
    with psycopg.connect(club.dsn) as conn:
        refused = conn.execute("SELECT count(*) FROM event_log WHERE action = 'berserk-refused'").fetchone()
    assert refused is not None and refused[0] == 1


def test_old_uploads_keep_their_digest_and_the_new_fields_are_checked(journals: dict[str, Any]) -> None:
    match = journals["table-1"]["matches"][0]
    plain = MatchUpload.model_validate_json(json.dumps(match))
    assert plain.header.event_pairing is None and plain.header.berserk is None
    assert plain.content_sha256() == canonical_sha(match)  # what the hub stored before the fields existed
    for field, value in (("berserk", [2]), ("berserk", [0, 1, 0]), ("event_pairing", "table 3")):
        bad = copy.deepcopy(match)
        bad["header"][field] = value
        with pytest.raises(BadRequest):
            parse_upload(json.dumps({"players": [], "matches": [bad]}).encode())


def test_the_directors_actions_are_logged_and_refusals_change_nothing(club: Club) -> None:
    event = club.event("--name", "Swiss", "--format", "swiss", "--rounds", "3")
    ids = [p["uuid"] for p in club.players]
    with psycopg.connect(club.dsn) as conn:
        with pytest.raises(BadRequest):
            eventstore.next_round(conn, event, club.clock.t)  # results not in: a reason is needed
        detail = eventstore.event_detail(conn, event)
        boards = [p for p in detail["pairings"] if p["round"] == 1]
        assert len(boards) == 2 and detail["round"] == 1
        with pytest.raises(Conflict):  # a player already placed in the round
            eventstore.repair(conn, event, boards[0]["uuid"], [boards[1]["players"][0]["uuid"],
                                                               boards[0]["players"][0]["uuid"]],
                              club.clock.t, why="swap")
        new = eventstore.repair(conn, event, boards[0]["uuid"], [boards[0]["players"][1]["uuid"],
                                                                  boards[0]["players"][0]["uuid"]],
                                club.clock.t, why="seats swapped: Anna needs the left seat")
        assert eventstore.next_round(conn, event, club.clock.t, why="a board ran out of time") == 2
        eventstore.forbid(conn, event, ids[0], ids[1], club.clock.t, why="siblings")
        eventstore.withdraw(conn, event, ids[3], club.clock.t, why="went home")
        with pytest.raises(Conflict):
            eventstore.join(conn, event, ids[3], club.clock.t)
        detail = eventstore.event_detail(conn, event)
        actions = [(h["action"], h["why"]) for h in detail["log"] if h["actor"] == "director"]
    assert ("re-paired", "seats swapped: Anna needs the left seat") in actions
    assert ("override", "a board ran out of time") in actions
    assert ("forbidden", "siblings") in actions and ("withdrew", "went home") in actions
    states = {p["uuid"]: p["state"] for p in detail["pairings"]}
    assert states[str(new)] == "cancelled"  # the forced round cancelled what was left of round 1
    round2 = [p for p in detail["pairings"] if p["round"] == 2]
    byes = [p for p in round2 if p["state"] == "bye"]
    assert len(byes) == 1 and byes[0]["note"] == "the opponent withdrew"


def test_the_commands(club: Club, capsys: pytest.CaptureFixture[str]) -> None:
    assert club_main(["events", "create", "--database", club.dsn, "--name", "RR", "--format", "round-robin"]) == 0
    event = capsys.readouterr().out.strip()
    assert uuid.UUID(event)
    assert club_main(["events", "join", event, "Anna", "Ben", "chloé", "--database", club.dsn]) == 0
    assert club_main(["events", "join", event, "Nobody", "--database", club.dsn]) == 2
    assert "no player called 'Nobody'" in capsys.readouterr().err
    assert club_main(["events", "start", event, "--database", club.dsn]) == 0
    assert club_main(["events", "join", event, "Dmytro", "--database", club.dsn]) == 2
    assert "entries close" in capsys.readouterr().err
    assert club_main(["events", "list", "--database", club.dsn]) == 0
    listed = capsys.readouterr().out
    assert event in listed and "round-robin" in listed and "round 1, 3 players" in listed
    assert club_main(["events", "show", event, "--database", club.dsn]) == 0
    shown = capsys.readouterr().out
    assert "round 1 board" in shown and "bye" in shown and shown.startswith("'RR' (round-robin), running, round 1\n")
    arena = club.event("--name", "Arena", "--format", "arena", "--minutes", "30")
    assert club.poll(0) is not None and club.poll(1) is not None  # the round-robin's board, then an arena's
    assert club_main(["events", "show", arena, "--database", club.dsn]) == 0
    shown = capsys.readouterr().out
    assert "'Arena' (arena), running, 30 of 30 minutes left" in shown and "  board 1: " in shown, shown
    assert "round" not in shown
    assert club_main(["events", "list", "--database", club.dsn]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith(arena)]
    assert "arena 30 minutes  running, " in line and "round" not in line
    assert club_main(["events", "standings", event, "--database", club.dsn, "--json"]) == 0
    assert '"tiebreaks"' in capsys.readouterr().out
    for bad in (["--format", "swiss"], ["--format", "arena"], ["--format", "chess"], ["--format", "swiss", "--rounds", "3",
                                                                                         "--berserk"]):
        code = None
        with contextlib.suppress(SystemExit):
            code = club_main(["events", "create", "--database", club.dsn, "--name", "x", *bad])
        assert code in (None, 2)
    assert len(club.client.get("/api/v1/events").json()) == 2


def test_late_entry_joins_the_next_round_and_a_bye_follows(club: Club) -> None:
    event = club.event("--name", "Swiss", "--format", "swiss", "--rounds", "3")
    late = {"uuid": str(uuid.uuid4()), "name": "Eka"}
    assert club.upload(0, {"players": [late], "matches": []}).status_code == 200
    with psycopg.connect(club.dsn) as conn:
        eventstore.join(conn, event, "Eka", club.clock.t)
        first = eventstore.event_detail(conn, event)
        assert not any(late["uuid"] in [x["uuid"] for x in p["players"]] for p in first["pairings"])
        eventstore.next_round(conn, event, club.clock.t, why="test: skip to round 2")
        second = [p for p in eventstore.event_detail(conn, event)["pairings"] if p["round"] == 2]
    placed = [x["uuid"] for p in second for x in p["players"]]
    assert sorted(placed) == sorted([p["uuid"] for p in club.players] + [late["uuid"]])
    assert sum(p["state"] == "bye" for p in second) == 1


def test_an_arena_withdrawal_keeps_the_game_at_the_table_and_other_settings_are_flagged(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:
    event = club.event("--name", "Arena", "--format", "arena", "--minutes", "30", "--bank", "100")
    a = club.poll(0)
    assert a is not None and a["settings"]["bank_seconds"] == 100
    assert club.ack(0, a["uuid"]).status_code == 200
    with psycopg.connect(club.dsn) as conn:
        eventstore.withdraw(conn, event, a["players"][0]["uuid"], club.clock.t, why="went home after this game")
    assert club.row(a["uuid"])[0] == "acknowledged"
    assert club.upload(0, {"players": [], "matches": [club.played(pools["none"], a)]}).status_code == 200
    assert club.row(a["uuid"])[0] == "played"  # played with a 120 s bank: counted, and flagged
    with psycopg.connect(club.dsn) as conn:
        flagged = conn.execute("SELECT count(*) FROM event_log WHERE action = 'settings-differ'").fetchone()
        assert flagged is not None and flagged[0] == 1
        again = club.poll(0)
    assert again is None or a["players"][0]["uuid"] not in [p["uuid"] for p in again["players"]]
