"""The roster downloaded into the journal: a player registered at table 1 is picked at table 3 (with the
hub's uuid, so the club counts one person), names clashing with a table's own player are not merged, and
the leaderboard shows the club's rating, or the table's own estimate marked provisional until the hub's
number arrives."""

from __future__ import annotations

from pathlib import Path

from club_support import play_journal
from club_sync_support import live_hub
from journal_support import new_table

from kiosk.club.cli import main
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.players import Players
from kiosk.table.players import PlayerDesk
from kiosk.table.state import UiState


def _sync(journal: Path, hub: str, token: Path) -> int:
    return main(["sync", "--journal", str(journal), "--hub", hub, "--token-file", str(token)])


def _desk(journal: Journal) -> PlayerDesk:
    return PlayerDesk(JournalKeeper(None, "boot-a", journal=journal), UiState())


def test_a_player_of_table_1_is_picked_at_table_3_and_the_leaderboard_shows_club_ratings(
        dsn: str, tmp_path: Path, capsys) -> None:
    t1, t3 = tmp_path / "t1.sqlite3", tmp_path / "t3.sqlite3"
    play_journal(t1, seed=12, names=("Ann", "Bo", "Cy"), matches=4)
    with Journal.open(t3) as j:  # table 3's own players, made offline: one of them also called Ann
        Players(j).create("Zed")
        Players(j).create("ann")
    with live_hub(dsn) as hub:
        k1, k3 = hub.kiosk("table-1", tmp_path), hub.kiosk("table-3", tmp_path)
        assert _sync(t1, hub.url, k1) == 0
        assert _sync(t3, hub.url, k3) == 0
        club = {name: (str(u), rating, rd) for u, name, rating, rd in
                hub.rows("SELECT uuid, name, rating, rd FROM players")}
        with Journal.open(t3) as j:
            desk = _desk(j)
            desk.open_picker(0)
            names = {p.name: p for p in desk.records.choices}
            assert sorted(names) == ["Bo", "Cy", "Zed", "ann"]  # table 1's Ann clashes with table 3's ann: not merged
            with j.database.read() as conn:
                uuids = dict(conn.execute("SELECT name, uuid FROM players"))
            assert uuids["Bo"] == club["Bo"][0] and uuids["ann"] != club["Ann"][0]
            desk.pick(names["Bo"].id)
            assert desk.records.chosen[0] is not None and desk.records.chosen[0].name == "Bo"
            desk.open_leaderboard()
            board = {row.player.name: row.player for row in desk.records.board}
            assert board["Bo"].rating == club["Bo"][1] and board["Bo"].rd == club["Bo"][2]  # the club's number
            assert board["Bo"].rating != 1500.0 and board["Bo"].provisional == (club["Bo"][2] > 110)
            assert board["Zed"].provisional and board["Zed"].rating == club["Zed"][1]
            # Bo plays Zed at table 3: until the hub's number arrives, the table's own estimate, provisional
            bo, zed = names["Bo"].id, names["Zed"].id
            table = new_table(j, 31, players=(bo, zed), now=90_000 * 10**9)
            while table.step():
                pass
            local = Players(j).get(bo)
            desk.open_leaderboard()
            board = {row.player.name: row.player for row in desk.records.board}
            assert board["Bo"].rating == local.rating and board["Bo"].provisional
        capsys.readouterr()
        assert _sync(t3, hub.url, k3) == 0
        assert "1 matches acknowledged (1 verified, 0 rejected), 0 players" in capsys.readouterr().out
        games, rating, rd = hub.rows("SELECT games, rating, rd FROM players WHERE uuid = %s", club["Bo"][0])[0]
        assert hub.count("players") == 5  # Ann, Bo, Cy, Zed, ann: Bo counted once, across two tables
        with Journal.open(t3) as j:
            desk = _desk(j)
            desk.open_leaderboard()
            board = {row.player.name: row.player for row in desk.records.board}
            assert (board["Bo"].rating, board["Bo"].rd) == (rating, rd)
            assert board["Bo"].provisional == (rd > 110)
            assert [row.player.rating for row in desk.records.board] == sorted(
                (row.player.rating for row in desk.records.board), reverse=True)
        t1_games = hub.rows("SELECT count(*) FROM matches WHERE rated AND %s IN (player0, player1)", club["Bo"][0])[0][0]
        assert games == t1_games


def test_without_a_club_the_leaderboard_is_the_tables_own(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    play_journal(path, seed=13, names=("Ann", "Bo"), matches=2)
    with Journal.open(path) as j:
        desk = _desk(j)
        desk.open_leaderboard()
        assert [(row.player.name, row.player.rating) for row in desk.records.board] == [
            (s.name, s.rating) for s in Players(j).leaderboard()]
        assert all(type(row.player).__name__ == "Standing" for row in desk.records.board)
