"""Named players, results, Glicko-2 ratings through the journal, leaderboard order and history."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import EndReason, MatchConfig, Outcome
from kiosk.store.journal import Journal, JournalUsageError
from kiosk.store.players import PlayerNameError, Players, is_rated
from kiosk.store.ratings import Rating, rate_match


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def play(journal: Journal, p0: int | None, p1: int | None, outcome: Outcome, wall: float = 1000.0) -> int:
    mid = journal.begin_match(MatchConfig(), (p0, p1), wall_s=wall)
    journal.finish(mid, outcome, wall_s=wall + 60)
    return mid


WIN0 = Outcome(0, EndReason.BALANCE, True)
WIN1 = Outcome(1, EndReason.TIME, True)
ABORT = Outcome(None, EndReason.ABORTED, False, "the machine restarted while a clock was running")


def test_names_are_cleaned_unique_and_renamable(journal: Journal) -> None:
    players = Players(journal)
    ann = players.create("  Ann   Lee ")
    assert ann.name == "Ann Lee" and ann.rating == 1500 and ann.rd == 350 and ann.games == 0
    with pytest.raises(PlayerNameError, match="taken"):
        players.create("ann lee")
    for bad in ("", "   ", "x" * 21, "Guest", "a\x07b"):
        with pytest.raises(PlayerNameError):
            players.create(bad)
    bo = players.create("Bo")
    assert [p.name for p in players.list()] == ["Ann Lee", "Bo"]
    assert players.rename(bo.id, "Bob").name == "Bob" and players.find("BOB").id == bo.id
    with pytest.raises(PlayerNameError):
        players.rename(bo.id, "ANN LEE")
    with pytest.raises(JournalUsageError):
        players.get(999)


def test_a_normal_end_between_two_named_players_is_rated_with_glicko2(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    play(journal, ann.id, bo.id, WIN0)
    want_ann, want_bo = rate_match(Rating(), Rating(), 1.0)
    a, b = players.get(ann.id), players.get(bo.id)
    assert a.rating == pytest.approx(want_ann.rating) and a.rd == pytest.approx(want_ann.rd)
    assert b.rating == pytest.approx(want_bo.rating) and a.games == b.games == 1


def test_guests_and_aborted_matches_are_never_rated(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    play(journal, ann.id, None, WIN0)
    play(journal, None, bo.id, WIN1)
    play(journal, None, None, WIN0)
    play(journal, ann.id, bo.id, ABORT)
    for p in (ann, bo):
        assert players.get(p.id).rating == 1500 and players.get(p.id).games == 0
    assert not is_rated((ann.id, bo.id), Outcome(None, EndReason.ABORTED, True))
    assert not is_rated((ann.id, None), WIN0) and is_rated((ann.id, bo.id), WIN1)
    with pytest.raises(JournalUsageError, match="themselves"):
        journal.begin_match(MatchConfig(), (ann.id, ann.id))
    with pytest.raises(JournalUsageError, match="no player"):
        journal.begin_match(MatchConfig(), (ann.id, 999))


def test_leaderboard_orders_by_rating_then_games(journal: Journal) -> None:
    players = Players(journal)
    ann, bo, cy, di = (players.create(n) for n in ("Ann", "Bo", "Cy", "Di"))
    play(journal, ann.id, bo.id, WIN0)  # Ann up, Bo down
    play(journal, cy.id, di.id, WIN1)   # Di up, Cy down: same numbers as Ann / Bo
    play(journal, ann.id, cy.id, WIN0)  # Ann up again
    board = players.leaderboard()
    assert board[0].id == ann.id
    assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)
    # equal ratings: more rated games first
    eve, fay = players.create("Eve"), players.create("Fay")
    journal._conn.execute("UPDATE players SET rating = 1600, games = 3 WHERE id = ?", (eve.id,))
    journal._conn.execute("UPDATE players SET rating = 1600, games = 7 WHERE id = ?", (fay.id,))
    names = [p.name for p in players.leaderboard() if p.rating == 1600]
    assert names == ["Fay", "Eve"]
    assert all(p.games >= 1 for p in players.leaderboard(min_games=1))


def test_history_lists_date_opponent_result_reason_and_rating_change(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    m1 = play(journal, ann.id, bo.id, WIN0, wall=1000.0)
    m2 = play(journal, bo.id, ann.id, Outcome(1, EndReason.RESIGN, True), wall=2000.0)
    m3 = play(journal, ann.id, None, WIN1, wall=3000.0)
    m4 = play(journal, ann.id, bo.id, ABORT, wall=4000.0)
    m5 = journal.begin_match(MatchConfig(), (bo.id, ann.id), wall_s=5000.0)
    rows = players.history(ann.id)
    assert [r.match_id for r in rows] == [m5, m4, m3, m2, m1]
    by = {r.match_id: r for r in rows}
    assert by[m1].result == "win" and by[m1].opponent == "Bo" and by[m1].reason == "balance" and by[m1].rated
    assert by[m1].rating_change > 0 and by[m1].date_wall == 1000.0 and by[m1].seat == 0
    assert by[m2].result == "win" and by[m2].seat == 1 and by[m2].reason == "resign" and by[m2].rating_change > 0
    assert by[m3].result == "loss" and by[m3].opponent == "Guest" and not by[m3].rated and by[m3].rating_change is None
    assert by[m4].result == "aborted" and by[m4].rating_change is None and "machine restarted" in by[m4].detail
    assert by[m5].result == "unfinished"
    bo_rows = {r.match_id: r for r in players.history(bo.id)}
    assert bo_rows[m1].result == "loss" and bo_rows[m1].rating_change < 0
    assert players.get(ann.id).rating == pytest.approx(1500 + by[m1].rating_change + by[m2].rating_change)
