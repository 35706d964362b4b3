"""GET /api/v1/matches, /leaderboard and /roster?since=VERSION."""

from __future__ import annotations

import copy

from club_support import tampered


def test_matches_list_uuid_kiosk_players_winner_reason_and_status(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = copy.deepcopy(journals["table-1"])
    real = body["matches"][1]["claimed"]
    body["matches"][1] = tampered(body["matches"][1], winner=1 - real["winner"])
    assert hub.upload(token, body).status_code == 200
    listed = hub.client.get("/api/v1/matches").json()
    assert len(listed) == 5
    assert [m["ended_wall"] for m in listed] == sorted((m["ended_wall"] for m in listed), reverse=True)
    for m in listed:
        assert set(m) >= {"uuid", "kiosk", "players", "winner", "reason", "status", "rejection"}
        assert m["kiosk"] == "table-1"
    by_uuid = {m["uuid"]: m for m in listed}
    bad = by_uuid[body["matches"][1]["uuid"]]
    assert bad["status"] == "rejected" and bad["rejection"] and bad["winner"] == real["winner"]  # as replayed
    good = by_uuid[body["matches"][0]["uuid"]]
    assert good["status"] == "verified" and good["rejection"] is None and good["rated"] is True
    assert good["engine_version"] == hub.client.get("/api/v1/health").json()["engine_version"] != ""
    assert [p["name"] for p in good["players"]] == ["Ann", "Bo"]
    guest = by_uuid[body["matches"][4]["uuid"]]
    assert guest["players"] == [None, None] and guest["rated"] is False and guest["status"] == "verified"
    rejected = hub.client.get("/api/v1/matches", params={"status": "rejected"}).json()
    assert [m["uuid"] for m in rejected] == [bad["uuid"]]
    assert len(hub.client.get("/api/v1/matches", params={"limit": 2}).json()) == 2
    assert hub.client.get("/api/v1/matches", params={"status": "maybe"}).status_code == 422
    assert hub.client.get("/api/v1/matches", params={"limit": 0}).status_code == 422


def test_the_leaderboard_lists_uuid_name_rating_rd_games_provisional_by_rating(hub, journals) -> None:
    token = hub.kiosk("table-1")
    assert hub.upload(token, copy.deepcopy(journals["table-1"])).status_code == 200
    board = hub.client.get("/api/v1/leaderboard").json()
    assert [set(r) >= {"uuid", "name", "rating", "rd", "games", "provisional"} for r in board] == [True] * 3
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    assert all(r["provisional"] == (r["rd"] > 110) for r in board)
    assert sum(r["games"] for r in board) == 8


def test_the_roster_is_versioned_and_since_gives_only_what_changed(hub, journals) -> None:
    assert hub.client.get("/api/v1/roster").json() == {"version": 0, "since": 0, "complete": True, "players": []}
    t1, t2 = hub.kiosk("table-1"), hub.kiosk("table-2")
    first = hub.upload(t1, copy.deepcopy(journals["table-1"])).json()["roster_version"]
    whole = hub.client.get("/api/v1/roster").json()
    assert whole["version"] == first and whole["complete"] and len(whole["players"]) == 3
    assert hub.client.get("/api/v1/roster", params={"since": first}).json()["players"] == []
    second = hub.upload(t2, copy.deepcopy(journals["table-2"])).json()["roster_version"]
    assert second > first
    changed = hub.client.get("/api/v1/roster", params={"since": first}).json()
    assert changed["version"] == second and not changed["complete"]
    assert sorted(p["name"] for p in changed["players"]) == ["Di", "Ed"]
    for p in changed["players"]:
        assert set(p) >= {"uuid", "name", "rating", "rd", "provisional", "games"}
    # a version from another hub (larger than this one's): the whole roster
    other = hub.client.get("/api/v1/roster", params={"since": second + 100}).json()
    assert other["complete"] and len(other["players"]) == 5
    assert hub.client.get("/api/v1/roster", params={"since": -1}).status_code == 422
    assert hub.client.get("/api/v1/roster", params={"since": "x"}).json()["error"]["code"] == "malformed"


def test_database_connections_cut_under_the_hub_cost_no_request(hub, journals) -> None:
    import psycopg

    token = hub.kiosk("table-1")
    assert hub.client.get("/api/v1/leaderboard").status_code == 200
    with psycopg.connect(hub.dsn, autocommit=True) as conn:  # as a PostgreSQL restart does to the pool
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE datname = current_database() AND pid <> pg_backend_pid()")
    codes = [hub.client.get("/api/v1/leaderboard").status_code for _ in range(3)]
    assert codes == [200, 200, 200]  # the pool checks a connection before lending it
    assert hub.upload(token, copy.deepcopy(journals["table-1"])).status_code == 200
