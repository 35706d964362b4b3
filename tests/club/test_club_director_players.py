"""The director's players screen (issues 22 and 23): likely duplicates listed, a rename, a merge and its
undoing from the page, each behind the director's session and its CSRF token; a refusal shows the
hub's reason and changes nothing."""

from __future__ import annotations

import re
import uuid

import psycopg
from fastapi.testclient import TestClient
from test_club_page import _csrf, site  # noqa: F401  (the fixture: a hub with two tables' real matches)

from club.tokens import add_kiosk
from club.web import auth

PASSWORD = "correct horse battery"


def _logged_in(client: TestClient, dsn: str) -> str:
    with psycopg.connect(dsn) as conn:
        auth.set_password(conn, PASSWORD)
    csrf = _csrf(client.get("/director/login").text)
    assert client.post("/director/login", data={"password": PASSWORD, "csrf": csrf},
                       follow_redirects=False).status_code == 303
    return _csrf(client.get("/director/players").text)


def test_players_screen_needs_the_session_and_its_csrf(site, dsn: str) -> None:  # noqa: F811
    client, _, _ = site
    someone = client.get("/api/v1/leaderboard").json()[0]["uuid"]
    assert client.get("/director/players", follow_redirects=False).headers["location"] == "/director/login"
    for action, form in (("rename", {"name": "Zed", "why": "typo"}), ("merge", {"into": someone, "why": "x"}),
                         ("unmerge", {"why": "x"})):
        assert client.post(f"/director/players/{someone}/{action}", data=dict(form, csrf="x")).status_code == 403
    csrf = _logged_in(client, dsn)
    assert client.post(f"/director/players/{someone}/rename",
                       data={"name": "Zed", "why": "typo", "csrf": "forged"}).status_code == 403
    assert "Zed" not in {p["name"] for p in client.get("/api/v1/leaderboard").json()}
    assert csrf


def test_rename_merge_and_undo_from_the_page(site, dsn: str) -> None:  # noqa: F811
    client, _, _ = site
    csrf = _logged_in(client, dsn)
    assert client.get("/api/v1/players/duplicates").json() == []
    bo = next(p for p in client.get("/api/v1/leaderboard").json() if p["name"] == "Bo")
    with psycopg.connect(dsn) as conn:
        token = add_kiosk(conn, "table-3")[1]
    made = {"players": [{"uuid": str(uuid.uuid4()), "name": "bo"}], "matches": []}  # another Bo, made offline
    assert client.post("/api/v1/uploads", json=made, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    groups = client.get("/api/v1/players/duplicates").json()
    assert len(groups) == 1 and {p["uuid"] for p in groups[0]["players"]} == {bo["uuid"], made["players"][0]["uuid"]}
    group = groups[0]
    keep = next(p for p in group["players"] if p["uuid"] == bo["uuid"])
    alias = next(p for p in group["players"] if p["uuid"] != bo["uuid"])
    screen = client.get("/director/players").text
    assert f'data-player="{alias["uuid"]}"' in screen and "/merge" in screen
    merged = client.post(f"/director/players/{alias['uuid']}/merge",
                         data={"into": keep["uuid"], "why": "the same person at two tables", "csrf": csrf},
                         follow_redirects=False)
    assert merged.status_code == 303
    history = client.get("/api/v1/merges").json()
    assert history[0]["alias"]["uuid"] == alias["uuid"] and history[0]["in_force"]
    assert alias["uuid"] not in {p["uuid"] for p in client.get("/api/v1/leaderboard").json()}
    again = client.post(f"/director/players/{alias['uuid']}/merge",
                        data={"into": keep["uuid"], "why": "twice", "csrf": csrf})
    assert again.status_code == 409 and "already merged" in again.text  # the reason, on the page
    undone = client.post(f"/director/players/{alias['uuid']}/unmerge", data={"why": "two people after all",
                                                                           "csrf": csrf}, follow_redirects=False)
    assert undone.status_code == 303 and not client.get("/api/v1/merges").json()[0]["in_force"]
    assert alias["uuid"] in {p["uuid"] for p in client.get("/api/v1/leaderboard").json()}
    renamed = client.post(f"/director/players/{alias['uuid']}/rename",
                          data={"name": f"{alias['name']} Jr", "why": "two people", "csrf": csrf},
                          follow_redirects=False)
    assert renamed.status_code == 303
    names = {p["uuid"]: p["name"] for p in client.get("/api/v1/leaderboard").json()}
    assert names[alias["uuid"]] == f"{alias['name']} Jr"
    clash = client.post(f"/director/players/{alias['uuid']}/rename",
                        data={"name": keep["name"], "why": "clash", "csrf": csrf})
    assert clash.status_code == 409 and re.search(r'class="problem"', clash.text)
    assert {p["uuid"]: p["name"] for p in client.get("/api/v1/leaderboard").json()} == names
