"""The director's renames and merges: likely duplicates listed and never merged silently, merges
recorded and undoable, history never rewritten, ratings recomputed under the merges (checked against a
hub that had the merged player's uuid from the start), the roster telling kiosks what changed."""

from __future__ import annotations

import copy
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from club_support import Hub, journal_upload, play_journal
from fastapi.testclient import TestClient

from club import players
from club.app import create_app
from club.cli import main
from club.errors import BadRequest, Conflict, NotFound


@pytest.fixture(scope="module")
def third(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """table-3's upload: 3 rated matches between "ann" (another Ann than table-1's) and Fay."""
    folder: Path = tmp_path_factory.mktemp("third")
    play_journal(folder / "t3.sqlite3", seed=3, names=("ann", "Fay"), matches=3)
    return journal_upload(folder / "t3.sqlite3", "table-3", wall_offset=0.25)


def _uuid_of(body: dict[str, Any], name: str) -> str:
    return next(p["uuid"] for p in body["players"] if p["name"] == name)


def _load(hub: Hub, journals, third) -> dict[str, str]:
    for name, body in (("table-1", journals["table-1"]), ("table-3", third)):
        answer = hub.upload(hub.kiosk(name), copy.deepcopy(body))
        assert answer.status_code == 200, answer.text
    return {"Ann": _uuid_of(journals["table-1"], "Ann"), "ann": _uuid_of(third, "ann"),
            "Bo": _uuid_of(journals["table-1"], "Bo"), "Fay": _uuid_of(third, "Fay")}


def _board(client: TestClient) -> dict[str, tuple[Any, ...]]:
    return {r["uuid"]: (r["name"], r["rating"], r["rd"], r["games"], r["wins"], r["losses"])
            for r in client.get("/api/v1/leaderboard").json()}


def _history(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT m.uuid, m.player0, m.player1, m.content_sha256, count(r.seq), sum(length(r.step))"
                            " FROM matches m JOIN match_rows r ON r.match = m.uuid GROUP BY m.uuid"
                            " ORDER BY m.uuid").fetchall()


def test_the_same_name_at_two_tables_is_listed_as_a_likely_duplicate_never_merged(hub, journals, third) -> None:
    ids = _load(hub, journals, third)
    board = _board(hub.client)
    assert ids["Ann"] in board and ids["ann"] in board  # two players, each with their own rating
    (group,) = hub.client.get("/api/v1/players/duplicates").json()
    assert sorted(p["uuid"] for p in group["players"]) == sorted([ids["Ann"], ids["ann"]])
    assert {p["kiosk"] for p in group["players"]} == {"table-1", "table-3"}
    assert hub.client.get("/api/v1/merges").json() == []


def test_a_merge_is_recorded_rerates_as_if_one_uuid_all_along_and_keeps_history(hub, journals, third,
                                                                                cluster) -> None:
    ids = _load(hub, journals, third)
    history = _history(hub.dsn)
    before = hub.client.get("/api/v1/roster").json()["version"]
    with psycopg.connect(hub.dsn) as conn:
        done = players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="the same Ann, says she")
    assert done["in_force"] and done["director"] == "Dora" and done["why"] == "the same Ann, says she"
    assert done["alias"] == {"uuid": ids["ann"], "name": "ann"} and done["merged_at"]
    assert _history(hub.dsn) == history  # matches keep the uuids they were uploaded with, rows untouched
    (listed,) = hub.client.get("/api/v1/merges").json()
    assert listed == {k: v for k, v in done.items() if k != "roster_version"}
    assert hub.client.get("/api/v1/players/duplicates").json() == []
    merged = _board(hub.client)
    assert ids["ann"] not in merged and merged[ids["Ann"]][3] == 3 + 3  # Ann's 3 games at table-1 and ann's 3

    # the independent check: a hub where table-3's matches named table-1's Ann from the start
    rewritten = copy.deepcopy(third)
    rewritten["players"] = [p for p in rewritten["players"] if p["uuid"] != ids["ann"]]
    for m in rewritten["matches"]:
        m["header"]["players"] = [ids["Ann"] if p == ids["ann"] else p for p in m["header"]["players"]]
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_merge_check TEMPLATE club_template")
    with TestClient(create_app(cluster.dsn("club_merge_check"), pool_size=2)) as client:
        other = Hub(client, cluster.dsn("club_merge_check"))
        t1 = other.kiosk("table-1")
        assert other.upload(t1, copy.deepcopy(journals["table-1"])).status_code == 200
        shared = {"players": journals["table-1"]["players"] + rewritten["players"], "matches": rewritten["matches"]}
        assert other.upload(other.kiosk("table-3"), shared).status_code == 200
        assert _board(client) == merged  # to the last bit

    roster = hub.client.get("/api/v1/roster", params={"since": before}).json()
    assert roster["version"] == done["roster_version"] > before
    changed = {p["uuid"]: p for p in roster["players"]}
    assert changed[ids["ann"]]["merged_into"] == ids["Ann"] and changed[ids["Ann"]]["merged_into"] is None
    assert changed[ids["Fay"]]["games"] == 3  # Fay's rating moved (her opponent's rating did): she is sent too
    shown = {m["uuid"]: m for m in hub.client.get("/api/v1/matches").json()}
    seat = next(p for m in shown.values() for p in m["players"] if p and p["uuid"] == ids["ann"])
    assert seat["merged_into"] == ids["Ann"]


def test_an_unmerge_restores_the_ratings_exactly_and_is_recorded(hub, journals, third) -> None:
    ids = _load(hub, journals, third)
    apart = _board(hub.client)
    with psycopg.connect(hub.dsn) as conn:
        merged = players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="same person")
        undone = players.unmerge(conn, ids["ann"], director="Eve", why="Ann says she never played at table 3")
    assert undone["id"] == merged["id"] and not undone["in_force"]
    assert (undone["undone_by"], undone["undone_why"]) == ("Eve", "Ann says she never played at table 3")
    assert undone["roster_version"] > merged["roster_version"]
    assert _board(hub.client) == apart
    roster = hub.client.get("/api/v1/roster", params={"since": merged["roster_version"]}).json()
    assert {p["uuid"]: p["merged_into"] for p in roster["players"]}[ids["ann"]] is None
    (listed,) = hub.client.get("/api/v1/merges").json()
    assert listed["undone_at"] and listed["director"] == "Dora"
    assert len(hub.client.get("/api/v1/players/duplicates").json()) == 1
    with psycopg.connect(hub.dsn) as conn:  # merged again later: a second record, the first kept
        players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="it was her after all")
    assert [m["in_force"] for m in hub.client.get("/api/v1/merges").json()] == [True, False]


def test_matches_uploaded_after_a_merge_count_for_the_canonical_player(hub, journals, third) -> None:
    first = copy.deepcopy(third)
    late = first["matches"].pop()  # table-3's last match arrives after the merge
    ids = _load(hub, journals, first)
    with psycopg.connect(hub.dsn) as conn:
        players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="same person")
    games = _board(hub.client)[ids["Ann"]][3]
    answer = hub.upload(_token(hub, "table-3"), {"players": [], "matches": [late]})
    assert answer.status_code == 200, answer.text
    assert _board(hub.client)[ids["Ann"]][3] == games + 1
    assert ids["ann"] not in _board(hub.client)


def _token(hub: Hub, name: str) -> str:
    """A fresh token for the kiosk called ``name`` (a kiosk's token is shown once: the test keeps none)."""
    from club.tokens import digest, new_token

    with psycopg.connect(hub.dsn) as conn:
        row = conn.execute("SELECT uuid FROM kiosks WHERE name = %s", (name,)).fetchone()
        assert row is not None
        token = new_token(row[0])
        conn.execute("UPDATE kiosks SET token_sha256 = %s WHERE uuid = %s", (digest(token), row[0]))
    return token


def test_merges_that_cannot_be_right_are_refused_and_change_nothing(hub, journals, third) -> None:
    ids = _load(hub, journals, third)
    board, history = _board(hub.client), _history(hub.dsn)
    with psycopg.connect(hub.dsn) as conn:
        with pytest.raises(Conflict, match="played each other in"):
            players.merge(conn, ids["Bo"], ids["Ann"], director="Dora", why="typo")
        with pytest.raises(BadRequest, match="into itself"):
            players.merge(conn, ids["Ann"], ids["Ann"], director="Dora", why="x")
        with pytest.raises(NotFound):
            players.merge(conn, str(uuid.uuid4()), ids["Ann"], director="Dora", why="x")
        with pytest.raises(BadRequest, match="uuid"):
            players.merge(conn, "ann", ids["Ann"], director="Dora", why="x")
        with pytest.raises(BadRequest, match="say why"):
            players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="  ")
        with pytest.raises(Conflict, match="is not merged"):
            players.unmerge(conn, ids["ann"], director="Dora", why="x")
        players.merge(conn, ids["ann"], ids["Ann"], director="Dora", why="same")
        merged = _board(hub.client)
        with pytest.raises(Conflict, match="already merged"):
            players.merge(conn, ids["ann"], ids["Bo"], director="Dora", why="x")
        with pytest.raises(Conflict, match="itself merged into"):
            players.merge(conn, ids["Fay"], ids["ann"], director="Dora", why="x")
        with pytest.raises(Conflict, match="merged into 'Ann'"):
            players.merge(conn, ids["Ann"], ids["Fay"], director="Dora", why="x")
        with pytest.raises(Conflict, match="played each other"):  # Fay played ann, now counted as Ann
            players.merge(conn, ids["Fay"], ids["Ann"], director="Dora", why="x")
    assert _board(hub.client) == merged != board
    assert _history(hub.dsn) == history
    assert len(hub.client.get("/api/v1/merges").json()) == 1


def test_a_rename_is_recorded_and_a_kiosk_resending_the_old_name_is_no_conflict(hub, journals, third) -> None:
    ids = _load(hub, journals, third)
    before = hub.client.get("/api/v1/roster").json()["version"]
    with psycopg.connect(hub.dsn) as conn:
        with pytest.raises(Conflict, match="another player is called 'Ann'"):
            players.rename(conn, ids["ann"], "ANN", director="Dora", why="x")
        with pytest.raises(BadRequest, match="at most 20 characters"):
            players.rename(conn, ids["ann"], "A" * 21, director="Dora", why="x")
        with pytest.raises(BadRequest, match="already called"):
            players.rename(conn, ids["ann"], " ann ", director="Dora", why="x")
        done = players.rename(conn, ids["ann"], "Ann  B.", director="Dora", why="Ann Brown, not Ann Archer")
        row = conn.execute("SELECT player, old_name, new_name, director, why FROM renames").fetchone()
    assert row == (uuid.UUID(ids["ann"]), "ann", "Ann B.", "Dora", "Ann Brown, not Ann Archer")
    assert done["new_name"] == "Ann B." and done["roster_version"] > before
    assert _board(hub.client)[ids["ann"]][0] == "Ann B."
    assert hub.client.get("/api/v1/players/duplicates").json() == []
    roster = hub.client.get("/api/v1/roster", params={"since": before}).json()["players"]
    assert [(p["uuid"], p["name"]) for p in roster] == [(ids["ann"], "Ann B.")]
    again = hub.upload(_token(hub, "table-3"), copy.deepcopy(third))  # the kiosk still calls her "ann"
    assert again.status_code == 200 and {p["result"] for p in again.json()["players"]} == {"already held"}
    assert hub.client.get("/api/v1/conflicts").json() == []


def test_the_players_commands_list_duplicates_merge_unmerge_and_rename(hub, journals, third, capsys) -> None:
    ids = _load(hub, journals, third)
    db = ["--database", hub.dsn]
    assert main(["players", "duplicates", *db]) == 0
    out = capsys.readouterr().out
    assert ids["Ann"] in out and ids["ann"] in out and "1 names held by more than one player" in out
    assert main(["players", "merge", ids["ann"], ids["Ann"], "--by", "Dora", "--why", "same", *db]) == 0
    assert "merged 'ann'" in capsys.readouterr().out
    assert main(["players", "list", "--json", *db]) == 0
    import json

    listed = {p["uuid"]: p for p in json.loads(capsys.readouterr().out)}
    assert listed[ids["ann"]]["merged_into"] == ids["Ann"] and len(listed) == 5
    assert main(["players", "merge", ids["Bo"], ids["Ann"], "--by", "Dora", "--why", "x", *db]) == 2
    err = capsys.readouterr().err
    assert "played each other" in err and len(err.strip().splitlines()) == 1
    assert main(["players", "unmerge", ids["ann"], "--by", "Eve", "--why", "not her", *db]) == 0
    assert "unmerged 'ann'" in capsys.readouterr().out
    assert main(["players", "rename", ids["ann"], "Ann B.", "--why", "another Ann", *db]) == 0
    assert "'ann' -> 'Ann B.'" in capsys.readouterr().out
    assert main(["players", "duplicates", *db]) == 0
    assert "0 names held" in capsys.readouterr().out


def test_migrating_a_version_1_database_keeps_its_players_names_as_uploaded(cluster) -> None:
    from club.database import migrate, migrations

    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_v1")
    dsn = cluster.dsn("club_v1")
    with psycopg.connect(dsn) as conn:
        conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL,"
                     " applied_at timestamptz NOT NULL DEFAULT now())")
        conn.execute(migrations()[0].sql.encode())
        conn.execute("INSERT INTO schema_version (version, name) VALUES (1, 'initial')")
        conn.execute("INSERT INTO kiosks VALUES (%s, 't', 'x')", (uuid.UUID(int=1),))
        conn.execute("INSERT INTO players (uuid, name, kiosk, rating, rd, volatility, version)"
                     " VALUES (%s, 'Zoë', %s, 1500, 350, 0.06, 1)", (uuid.UUID(int=2), uuid.UUID(int=1)))
    assert migrate(dsn)[0] == 1
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT name, uploaded_name, merged_into FROM players").fetchall() == [("Zoë", "Zoë", None)]
