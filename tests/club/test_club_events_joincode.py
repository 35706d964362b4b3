"""A player's self-join with the join code (docs/club.md, "Joining from a phone"): the director opens it
(CSRF), the director's screen and the TV show the code, the public pages and the API never do, a
player joins on ``/join`` by picking their name and typing it, a wrong code changes nothing, guessing
is throttled, a new code retires the old one, and joining by code closes with the entries."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from club_events_support import FakeClock, director_site
from fastapi.testclient import TestClient

from club import errors, eventstore, joincode
from club.errors import Conflict

PASSWORD = "correct horse battery"
NAMES = ["Anna", "Ben", "Chloé", "<b>Dmytro</b>"]


@pytest.fixture
def site(dsn: str) -> Iterator[tuple[TestClient, list[dict[str, Any]], FakeClock, str]]:
    clock = FakeClock()
    with director_site(dsn, clock, NAMES, PASSWORD) as (client, players, _):
        yield client, players, clock, dsn


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def _director(client: TestClient) -> str:
    csrf = _csrf(client.get("/director/login").text)
    assert client.post("/director/login", data={"password": PASSWORD, "csrf": csrf},
                       follow_redirects=False).status_code == 303
    return _csrf(client.get("/director/events").text)


def _entrants(dsn: str, event: str) -> list[str]:
    with psycopg.connect(dsn) as conn:
        return sorted(e["name"] for e in eventstore.event_detail(conn, event)["entrants"])


def test_a_player_joins_from_a_phone_with_the_code(site) -> None:
    client, players, clock, dsn = site
    csrf = _director(client)
    made = client.post("/director/events", data={"name": "Arena <night>", "format": "arena", "minutes": "30",
                                                 "csrf": csrf}, follow_redirects=False)
    screen = made.headers["location"]
    event = screen.rsplit("/", 1)[1]
    assert "No club night takes entries by code now" in client.get("/join").text
    assert client.post(f"{screen}/join-code", data={"csrf": "forged"}).status_code == 403
    assert client.post(f"{screen}/join-code", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    page = client.get(screen).text
    code = re.search(r"type the code (\d{6})", page)
    assert code is not None and "http://testserver/join" in page
    # the TV shows it (an open event joins the rotation while it takes entries by code)
    slides = client.get("/tv/standings").json()["slides"]
    assert len(slides) == 1 and code.group(1) in slides[0]["html"] and "http://testserver/join" in slides[0]["html"]
    # the public pages and the API never do
    client.cookies.clear()
    for path in ("/events", f"/events/{event}", "/join", "/api/v1/events", f"/api/v1/events/{event}/standings"):
        assert code.group(1) not in client.get(path).text, path
    assert 'href="/join"' in client.get(f"/events/{event}").text
    form = client.get("/join").text
    assert "Arena &lt;night&gt;" in form and "&lt;b&gt;Dmytro&lt;/b&gt;" in form and "<b>Dmytro</b>" not in form
    # a wrong code changes nothing; the right one enters the player, logged as their own action
    wrong = client.post("/join", data={"event": event, "player": players[0]["uuid"], "code": "000000"
                                       if code.group(1) != "000000" else "111111"})
    assert wrong.status_code == 403 and "not this event&#39;s code" in wrong.text
    assert _entrants(dsn, event) == []
    no_name = client.post("/join", data={"event": event, "player": "", "code": code.group(1)})
    assert no_name.status_code == 422 and "pick your name" in no_name.text
    done = client.post("/join", data={"event": event, "player": players[0]["uuid"], "code": f" {code.group(1)} "},
                       follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/events/{event}?joined=1"
    assert "You are entered" in client.get(done.headers["location"]).text
    assert _entrants(dsn, event) == ["Anna"]
    again = client.post("/join", data={"event": event, "player": players[0]["uuid"], "code": code.group(1)})
    assert again.status_code == 409 and "already entered" in again.text
    assert "Anna" not in client.get("/join").text.split("Arena &lt;night&gt;")[1]  # no longer offered
    with psycopg.connect(dsn) as conn:
        actors = [r[0] for r in conn.execute("SELECT actor FROM event_log WHERE action = 'joined'")]
    assert actors == [joincode.SELF]
    # a new code retires the old one; closing ends joining by code
    with psycopg.connect(dsn) as conn:
        fresh = joincode.new_code(conn, event, clock.t)
    if fresh != code.group(1):
        old = client.post("/join", data={"event": event, "player": players[1]["uuid"], "code": code.group(1)})
        assert old.status_code == 403
    assert client.post("/join", data={"event": event, "player": players[1]["uuid"], "code": fresh},
                       follow_redirects=False).status_code == 303
    with psycopg.connect(dsn) as conn:
        joincode.close(conn, event, clock.t)
    closed = client.post("/join", data={"event": event, "player": players[2]["uuid"], "code": fresh})
    assert closed.status_code == 403 and _entrants(dsn, event) == ["Anna", "Ben"]


def test_guessing_is_throttled_and_entries_that_close_close_the_code(site) -> None:
    _, players, clock, dsn = site
    guard = joincode.Guard()
    with psycopg.connect(dsn) as conn:
        event = str(eventstore.create_event(conn, name="RR", format="round-robin", now=clock.t))
        code = joincode.new_code(conn, event, clock.t)
        other = f"{(int(code) + 1) % 10 ** joincode.DIGITS:06d}"
        for _ in range(joincode.MAX_WRONG):
            with pytest.raises(errors.WrongCode):
                joincode.self_join(conn, guard, event, players[0]["uuid"], other, clock.t)
        with pytest.raises(errors.TooManyTries):  # even the right code, until the minute has passed
            joincode.self_join(conn, guard, event, players[0]["uuid"], code, clock.t + 30)
        joincode.self_join(conn, guard, event, players[0]["uuid"], code, clock.t + joincode.WINDOW_S + 1)
        joincode.self_join(conn, guard, event, players[1]["uuid"], code, clock.t + joincode.WINDOW_S + 2)
        eventstore.start(conn, event, clock.t + 70)
        assert joincode.code_of(conn, event) is None  # a round-robin's entries close at its start
        with pytest.raises(errors.WrongCode):
            joincode.self_join(conn, guard, event, players[2]["uuid"], code, clock.t + 200)
        with pytest.raises(Conflict, match="no more entries"):
            joincode.new_code(conn, event, clock.t + 200)
        assert joincode.open_events(conn) == []


def test_tries_for_events_with_no_code_are_refused_and_not_remembered(site) -> None:
    _, players, clock, dsn = site
    guard = joincode.Guard()
    with psycopg.connect(dsn) as conn:
        event = str(eventstore.create_event(conn, name="Arena", format="arena", minutes=30, now=clock.t))
        for _ in range(200):  # made-up events, and one whose joining by code is not open: nothing to guess
            with pytest.raises(errors.WrongCode):
                joincode.self_join(conn, guard, str(uuid.uuid4()), players[0]["uuid"], "123456", clock.t)
        for _ in range(joincode.MAX_WRONG):
            with pytest.raises(errors.WrongCode):
                joincode.self_join(conn, guard, event, players[0]["uuid"], "123456", clock.t)
        assert guard.tracked() == 0  # the guard's memory does not grow with tries it need not count
        code = joincode.new_code(conn, event, clock.t)
        joincode.self_join(conn, guard, event, players[0]["uuid"], code, clock.t + 1)  # not locked out
    assert _entrants(dsn, event) == ["Anna"]
