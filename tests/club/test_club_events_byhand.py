"""Club nights by the director's hand on a real hub (docs/club.md, "Club nights"): a pairing scored as a
forfeit (counted once, logged, refused when already settled, a later real match listed as a conflict),
a Swiss player's requested half-point bye, an arena's own standings, the events list's round, the
commands, the director's forms with their CSRF token, and migration 0006 over an older database."""

from __future__ import annotations

import contextlib
import io
import re
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from club_events_support import FakeClock
from fastapi.testclient import TestClient
from test_club_events_hub import Club, pools  # noqa: F401 - the module's fixture, used by name

from club import eventhand, eventstore
from club.app import create_app
from club.cli import main as club_main
from club.database import migrate, migrations
from club.errors import BadRequest, Conflict
from club.localdb import LocalCluster
from club.web import auth

PASSWORD = "correct horse battery"


@pytest.fixture
def club(dsn: str) -> Iterator[Club]:
    clock = FakeClock()
    with psycopg.connect(dsn) as conn:
        auth.set_password(conn, PASSWORD)
    with TestClient(create_app(dsn, pool_size=4, clock=clock)) as client:
        yield Club(client, dsn, clock)


def _standings(club: Club, event: str) -> dict[str, dict[str, Any]]:
    body = club.client.get(f"/api/v1/events/{event}/standings").json()
    return {r["player"]: r for r in body["standings"]}


def _log(club: Club, event: str) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    with psycopg.connect(club.dsn) as conn:
        return [(r[0], r[1], r[2], r[3]) for r in conn.execute(
            "SELECT actor, action, why, detail FROM event_log WHERE event = %s ORDER BY id", (event,))]


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = club_main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_forfeit_counts_once_and_a_later_match_for_it_is_a_conflict(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:  # noqa: F811
    event = club.event("--name", "Swiss", "--format", "swiss", "--rounds", "2")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None
    club.ack(0, a["uuid"])
    winner, loser = a["players"][0]["uuid"], a["players"][1]["uuid"]
    with psycopg.connect(club.dsn) as conn:
        with pytest.raises(BadRequest, match="give a reason"):
            eventhand.forfeit(conn, event, a["uuid"], winner, club.clock.t, why=" ")
        with pytest.raises(BadRequest, match="one of the pairing's two players"):
            eventhand.forfeit(conn, event, a["uuid"], b["players"][0]["uuid"], club.clock.t, why="x")
        assert club.row(a["uuid"])[0] == "acknowledged"  # refusals change nothing
        eventhand.forfeit(conn, event, a["uuid"], winner, club.clock.t, actor="Olena",
                          why="Ben did not come back from the break")
        with pytest.raises(Conflict, match="the pairing is forfeit"):
            eventhand.forfeit(conn, event, a["uuid"], loser, club.clock.t, why="the other way round")
        with pytest.raises(Conflict):
            eventstore.repair(conn, event, a["uuid"], [winner, loser], club.clock.t, why="again")
        with pytest.raises(Conflict):
            eventstore.cancel(conn, event, a["uuid"], club.clock.t, why="undo")
    assert club.row(a["uuid"])[0] == "forfeit"
    assert ("Olena", "forfeit", "Ben did not come back from the break") in [x[:3] for x in _log(club, event)]
    assert [x[3]["winner"] for x in _log(club, event) if x[1] == "forfeit"] == [winner]
    rows = _standings(club, event)
    assert (rows[winner]["score"], rows[winner]["games"], rows[winner]["forfeit_wins"]) == (1, 0, 1)
    assert (rows[loser]["score"], rows[loser]["forfeit_losses"]) == (0, 1)
    assert rows[winner]["tiebreaks"] == [0, 0, 0, 0]  # no opponent for Buchholz and SB, nothing transferred
    assert club.poll(0) is None  # the table is free again, and its pairing is gone
    late_ack = club.ack(0, a["uuid"])
    assert late_ack.status_code == 409 and "scored by forfeit" in late_ack.json()["error"]["message"]
    # the table played it after all and uploads it: an ordinary verified match, listed as a conflict
    late = club.played(pools["none"], a)
    got = club.upload(0, {"players": [], "matches": [late]}).json()["matches"][0]
    assert got["status"] == "verified"
    assert club.row(a["uuid"])[0] == "forfeit" and club.row(a["uuid"])[1] is None
    conflicts = [c for c in club.client.get("/api/v1/conflicts").json() if c["kind"] == "event"]
    assert len(conflicts) == 1 and conflicts[0]["why"].startswith("the pairing is already forfeit (won by forfeit: ")
    assert _standings(club, event) == rows  # counted once
    # board 2: a double forfeit from the command line; the round is then settled and round 2 is paired
    code, out, _ = _cli("events", "forfeit", event, b["uuid"], "--none", "--why", "both left early",
                        "--database", club.dsn)
    assert code == 0 and "nobody scores" in out
    code, _, err = _cli("events", "forfeit", event, b["uuid"], "--winner", b["players"][0]["name"], "--why", "x",
                        "--database", club.dsn)
    assert code == 2 and "only an unplayed or aborted pairing" in err
    rows = _standings(club, event)
    assert sum(r["score"] for r in rows.values()) == 1 and sum(r["forfeit_losses"] for r in rows.values()) == 3
    club.poll(2)  # the next poll pairs round 2
    assert club.client.get("/api/v1/events").json()[0]["round"] == 2
    code, out, _ = _cli("events", "standings", event, "--database", club.dsn)
    assert code == 0 and "forfeits" in out.splitlines()[0] and "  1/0  " in out


def test_an_aborted_pairing_can_be_forfeited_and_a_played_one_cannot(
        club: Club, pools: dict[str, list[dict[str, Any]]]) -> None:  # noqa: F811
    event = club.event("--name", "Arena", "--format", "arena", "--minutes", "30")
    a, b = club.poll(0), club.poll(1)
    assert a is not None and b is not None
    assert club.upload(0, {"players": [], "matches": [club.played(pools["none"], a)]}).status_code == 200
    with psycopg.connect(club.dsn) as conn:
        conn.execute("UPDATE event_pairings SET state = 'aborted' WHERE uuid = %s", (b["uuid"],))
        conn.commit()
        with pytest.raises(Conflict, match="the pairing is played"):
            eventhand.forfeit(conn, event, a["uuid"], None, club.clock.t, why="x")
        eventhand.forfeit(conn, event, b["uuid"], b["players"][1]["name"], club.clock.t, why="the table broke down")
    rows = _standings(club, event)
    # an arena: a forfeit win scores a plain win's 2; its standings rank by performance, not Buchholz
    assert rows[b["players"][1]["uuid"]]["score"] == 2 and rows[b["players"][1]["uuid"]]["games"] == 0
    body = club.client.get(f"/api/v1/events/{event}/standings").json()
    assert body["tiebreaks"] == ["performance", "points-transferred"]
    listed = {e["uuid"]: e for e in club.client.get("/api/v1/events").json()}
    assert listed[event]["round"] is None and listed[event]["tiebreaks"] == ["performance", "points-transferred"]


def test_a_requested_bye_leaves_the_player_out_for_half_a_point(club: Club) -> None:
    event = club.event("--name", "Swiss", "--format", "swiss", "--rounds", "3")
    anna, ben = club.players[0]["uuid"], club.players[1]["uuid"]
    code, out, _ = _cli("events", "bye", event, "Anna", "--round", "2", "--why", "a wedding", "--database", club.dsn)
    assert code == 0 and "round 2" in out
    refusals = (
        (["Anna", "--round", "2"], "already has a requested bye (round 2)"),
        (["Ben", "--round", "1"], "round 1 is already paired"),
        (["Ben", "--round", "3"], "not in the last round"),
        (["Ben", "--round", "9"], "a bye is asked for one of rounds 1 to 2"),
        (["Ben"], "give the round"),
        (["Nobody", "--round", "2"], "no player called 'Nobody'"),
    )
    for args, why in refusals:
        code, _, err = _cli("events", "bye", event, *args, "--database", club.dsn)
        assert code == 2 and why in err, (args, err)
    with psycopg.connect(club.dsn) as conn:
        eventhand.request_bye(conn, event, ben, 2, club.clock.t)
        eventhand.cancel_bye(conn, event, ben, club.clock.t, why="changed his mind")
        with pytest.raises(Conflict, match="no requested bye"):
            eventhand.cancel_bye(conn, event, ben, club.clock.t)
        rr = eventstore.create_event(conn, name="RR", format="round-robin", now=club.clock.t)
        arena = eventstore.create_event(conn, name="Arena", format="arena", minutes=30, now=club.clock.t)
        for other in (rr, arena):
            eventstore.join(conn, other, anna, club.clock.t)
            with pytest.raises(Conflict, match="a requested bye is for a Swiss"):
                eventhand.request_bye(conn, other, anna, 2, club.clock.t)
        # round 1 settled by hand; round 2 leaves Anna out: three play, one of them has the pairing's bye
        for p in [p for p in eventstore.event_detail(conn, event)["pairings"] if p["round"] == 1]:
            eventhand.forfeit(conn, event, p["uuid"], p["players"][0]["uuid"], club.clock.t, why="quick test")
    club.poll(0)
    with psycopg.connect(club.dsn) as conn:
        detail = eventstore.event_detail(conn, event)
        with pytest.raises(Conflict, match="already paired"):
            eventhand.cancel_bye(conn, event, anna, club.clock.t)
    round2 = [p for p in detail["pairings"] if p["round"] == 2]
    halves = [p for p in round2 if p["half_bye"]]
    assert [p["players"][0]["uuid"] for p in halves] == [anna] and halves[0]["state"] == "bye"
    assert sum(1 for p in round2 if p["state"] == "bye" and not p["half_bye"]) == 1
    assert sum(1 for p in round2 if p["state"] != "bye") == 1
    assert detail["bye_requests"] == [{"player": anna, "name": "Anna", "round": 2, "why": "a wedding"}]
    rows = _standings(club, event)
    won_round_1 = 1 if any(p["players"][0]["uuid"] == anna for p in detail["pairings"] if p["round"] == 1) else 0
    assert rows[anna]["score"] == won_round_1 + 0.5
    actions = [(x[1], x[2]) for x in _log(club, event)]
    assert ("bye-requested", "a wedding") in actions and ("bye-withdrawn", "changed his mind") in actions
    # asked before the start: round 1 leaves the player out
    early = club.event("--name", "Early", "--format", "swiss", "--rounds", "2", start=False)
    with psycopg.connect(club.dsn) as conn:
        eventhand.request_bye(conn, early, ben, 1, club.clock.t, why="arrives late")
        eventstore.start(conn, early, club.clock.t)
        first = [p for p in eventstore.event_detail(conn, early)["pairings"] if p["round"] == 1]
    assert [p["players"][0]["uuid"] for p in first if p["half_bye"]] == [ben]
    assert ben not in [x["uuid"] for p in first if not p["half_bye"] for x in p["players"]]


def test_the_directors_forms_forfeit_and_bye(club: Club) -> None:
    event = club.event("--name", "Swiss <night>", "--format", "swiss", "--rounds", "3")
    client = club.client
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/director/login").text)
    assert csrf is not None
    assert client.post("/director/login", data={"password": PASSWORD, "csrf": csrf.group(1)},
                       follow_redirects=False).status_code == 303
    screen = f"/director/events/{event}"
    page = client.get(screen).text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    assert token is not None and "Score by forfeit" in page and "Give a half-point bye" in page
    csrf_value = token.group(1)
    board = re.findall(r'data-pairing="([0-9a-f-]+)"', page)[0]
    with psycopg.connect(club.dsn) as conn:
        players = next(p["players"] for p in eventstore.event_detail(conn, event)["pairings"] if p["uuid"] == board)
    form = {"pairing": board, "winner": players[1]["uuid"], "why": "arrived 30 minutes late"}
    assert client.post(f"{screen}/forfeit", data=dict(form, csrf="forged")).status_code == 403
    no_choice = client.post(f"{screen}/forfeit", data=dict(form, winner="", csrf=csrf_value))
    assert no_choice.status_code == 422 and "choose who wins by forfeit" in no_choice.text
    no_reason = client.post(f"{screen}/forfeit", data=dict(form, why="", csrf=csrf_value))
    assert no_reason.status_code == 422 and "give a reason" in no_reason.text
    assert club.row(board)[0] == "offered" or club.row(board)[0] == "waiting"
    assert client.post(f"{screen}/forfeit", data=dict(form, csrf=csrf_value), follow_redirects=False).status_code == 303
    page = client.get(screen).text
    assert f"{players[1]['name']} wins by forfeit" in page and "arrived 30 minutes late" in page
    assert "Forfeits won/lost" in page
    again = client.post(f"{screen}/forfeit", data=dict(form, csrf=csrf_value))
    assert again.status_code == 409 and "only an unplayed or aborted pairing" in again.text
    asked = {"player": club.players[2]["uuid"], "round": "2", "why": "exam", "csrf": csrf_value}
    assert client.post(f"{screen}/bye", data=asked, follow_redirects=False).status_code == 303
    last = client.post(f"{screen}/bye", data=dict(asked, player=club.players[3]["uuid"], round="3"))
    assert last.status_code == 409 and "not in the last round" in last.text
    page = client.get(screen).text
    assert f"{club.players[2]['name']}: round 2" in page and "Take back" in page
    assert client.post(f"{screen}/bye-cancel", data={"player": club.players[2]["uuid"], "csrf": csrf_value},
                       follow_redirects=False).status_code == 303
    assert "Take back" not in client.get(screen).text
    public = client.get(f"/events/{event}").text
    assert f"{players[1]['name']} wins by forfeit" in public and "csrf" not in public
    client.cookies.set("sb_lang", "uk")
    assert "технічна перемога" in client.get(f"/events/{event}").text
    client.cookies.set("sb_lang", "en")


def test_migration_6_over_a_hub_at_version_5(cluster: LocalCluster) -> None:
    """A hub at schema 5 holding an arena published with the old default tiebreaks and a Swiss pairing."""
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_v5")
    dsn = cluster.dsn("club_v5")
    with psycopg.connect(dsn) as conn:
        conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL,"
                     " applied_at timestamptz NOT NULL DEFAULT now())")
        for mig in (m for m in migrations() if m.version <= 5):
            conn.execute(mig.sql.encode())
            conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)", (mig.version, mig.name))
        old = ["buchholz", "sonneborn-berger", "direct-encounter", "points-transferred"]
        for name, kind, rounds, minutes, tiebreaks in (("A", "arena", None, 30, old), ("S", "swiss", 3, None, old),
                                                       ("W", "arena", None, 30, ["wins", "buchholz"])):
            conn.execute("INSERT INTO events (uuid, name, format, rounds, minutes, bank_seconds, delay_seconds,"
                         " balances, tiebreaks, ack_timeout_s, created_at) VALUES (%s,%s,%s,%s,%s,120,10,150,%s,120,0)",
                         (uuid.uuid4(), name, kind, rounds, minutes, tiebreaks))
        conn.commit()
    assert migrate(dsn) == (5, max(m.version for m in migrations()))
    with psycopg.connect(dsn) as conn:
        got: dict[Any, Any] = dict(conn.execute("SELECT name, tiebreaks FROM events").fetchall())
        assert got == {"A": ["performance", "points-transferred"], "S": old, "W": ["performance", "wins"]}
        with pytest.raises(psycopg.errors.CheckViolation):
            conn.execute("INSERT INTO event_pairings (uuid, event, round, board, player0, player1, state, created_at,"
                         " half_bye) SELECT %s, uuid, 1, 1, %s, %s, 'waiting', 0, true FROM events LIMIT 1",
                         (uuid.uuid4(), uuid.uuid4(), uuid.uuid4()))


def test_the_new_director_forms_need_the_session_and_its_csrf_and_change_nothing_without(club: Club) -> None:
    event = club.event("--name", "Swiss night", "--format", "swiss", "--rounds", "3")
    client = club.client
    screen = f"/director/events/{event}"
    with psycopg.connect(club.dsn) as conn:
        board = eventstore.event_detail(conn, event)["pairings"][0]
    forms = {"forfeit": {"pairing": board["uuid"], "winner": board["players"][0]["uuid"], "why": "late"},
             "bye": {"player": club.players[2]["uuid"], "round": "2", "why": "exam"},
             "bye-cancel": {"player": club.players[2]["uuid"]}, "join-code": {}, "join-code-close": {}}
    logged = len(_log(club, event))
    for name, form in forms.items():  # no session
        assert client.post(f"{screen}/{name}", data=dict(form, csrf="x")).status_code == 403, name
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/director/login").text)
    assert csrf is not None
    assert client.post("/director/login", data={"password": PASSWORD, "csrf": csrf.group(1)},
                       follow_redirects=False).status_code == 303
    for name, form in forms.items():  # the session, a forged token or none
        assert client.post(f"{screen}/{name}", data=dict(form, csrf="forged")).status_code == 403, name
        assert client.post(f"{screen}/{name}", data=form).status_code == 403, name
    assert len(_log(club, event)) == logged
    assert club.row(board["uuid"])[0] in ("offered", "waiting")
    assert "type the code" not in client.get(screen).text
