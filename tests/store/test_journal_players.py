"""Named players, results, Glicko-2 ratings through the journal, leaderboard order and history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from journal_support import new_table

from engine import EndReason, MatchConfig, Outcome
from kiosk.store.journal import Entry, Journal, JournalUsageError
from kiosk.store.players import PlayerNameError, Players, is_rated
from kiosk.store.ratings import Rating, rate_match


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
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
    with pytest.raises(PlayerNameError) as info:
        players.create("ann lee")
    assert info.value.text.msgid == 'The name "{name}" is taken: pick it from the list or choose another.'
    assert info.value.text.params == {"name": "ann lee"}
    for bad, msgid, params in (
        ("", "Type a name first.", {}),
        ("   ", "Type a name first.", {}),
        ("x" * 21, "A name has at most {n} characters.", {"n": 20}),
        ("Guest", '"Guest" is reserved for players without a name.', {}),
        ("a\x07b", "A name cannot contain control characters.", {}),
    ):
        with pytest.raises(PlayerNameError) as info:
            players.create(bad)
        assert (info.value.text.msgid, info.value.text.params) == (msgid, params)
    bo = players.create("Bo")
    assert [p.name for p in players.list()] == ["Ann Lee", "Bo"]
    assert players.rename(bo.id, "Bob").name == "Bob"
    found = players.find("BOB")
    assert found is not None and found.id == bo.id
    with pytest.raises(PlayerNameError) as info:
        players.rename(bo.id, "ANN LEE")
    assert info.value.text.msgid == 'The name "{name}" is taken.' and info.value.text.params == {"name": "ANN LEE"}
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
    with journal.database.transaction() as conn:
        conn.execute("UPDATE players SET rating = 1600, games = 3 WHERE id = ?", (eve.id,))
        conn.execute("UPDATE players SET rating = 1600, games = 7 WHERE id = ?", (fay.id,))
    names = [p.name for p in players.leaderboard() if p.rating == 1600]
    assert names == ["Fay", "Eve"]
    assert {p.name for p in players.leaderboard(min_games=1)} == {"Ann", "Bo", "Cy", "Di", "Eve", "Fay"}
    assert [p.name for p in players.leaderboard(min_games=4)] == ["Fay"]
    assert [p.name for p in players.leaderboard(limit=2)] == [p.name for p in board[:2]]


def test_the_leaderboard_is_one_query_with_each_players_rated_wins_and_losses(journal: Journal) -> None:
    players = Players(journal)
    ann, bo, cy, di = (players.create(n) for n in ("Ann", "Bo", "Cy", "Di"))
    play(journal, ann.id, bo.id, WIN0)
    play(journal, ann.id, cy.id, WIN0)
    play(journal, cy.id, ann.id, WIN0)  # Cy wins this one
    play(journal, bo.id, cy.id, ABORT)  # never rated
    play(journal, di.id, None, WIN0)    # a guest: never rated
    statements: list[str] = []
    journal.database.connection.set_trace_callback(statements.append)
    try:
        board = players.leaderboard()
    finally:
        journal.database.connection.set_trace_callback(None)
    assert len(statements) == 1 and statements[0].startswith("SELECT")
    record = {p.name: (p.games, p.wins, p.losses) for p in board}
    assert record == {"Ann": (3, 2, 1), "Bo": (1, 0, 1), "Cy": (2, 1, 1), "Di": (0, 0, 0)}
    assert [(p.name, p.rating) for p in board] == [(p.name, players.get(p.id).rating) for p in board]
    assert [p.name for p in board] == ["Cy", "Ann", "Di", "Bo"]  # Cy's upset win over Ann counts most


def _fail_on(journal: Journal, table: str, event: str) -> None:
    """A trigger that makes the next ``event`` on ``table`` fail, as a full disk or a bug would."""
    with journal.database.transaction() as conn:
        conn.execute(f"CREATE TRIGGER injected_failure BEFORE {event} ON {table} "
                     "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")


def test_a_rating_that_fails_leaves_the_match_unfinished(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    mid = journal.begin_match(MatchConfig(), (ann.id, bo.id), wall_s=1000.0)
    for seq in (1, 2):
        journal.record(mid, seq, {"do": "tick"}, f"s{seq}", seq, "b", 1.0)
    _fail_on(journal, "rating_changes", "INSERT")
    with pytest.raises(JournalUsageError) as info:
        journal.finish(mid, WIN0, wall_s=1060.0)
    assert info.value.text.params == {"error": "injected failure"}
    record = journal.match(mid)
    assert not record.finished and record.winner is None and record.ended_wall is None
    assert [e.snapshot for e in journal.commands(mid)] == ["s1", "s2"]  # nothing of the finish was kept
    assert (players.get(ann.id).games, players.get(ann.id).rating) == (0, 1500.0)
    unfinished = journal.unfinished()
    assert unfinished is not None and unfinished.match_id == mid


def test_a_finish_that_fails_leaves_the_players_unrated(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    mid = journal.begin_match(MatchConfig(), (ann.id, bo.id), wall_s=1000.0)
    journal.record(mid, 1, {"do": "tick"}, "s1", 1, "b", 1.0)
    _fail_on(journal, "entries", "UPDATE")  # the finish's second statement (dropping old snapshots)
    with pytest.raises(JournalUsageError):
        journal.record_many(mid, 2, [Entry({"do": "tick"}, "s2", 2, "b", 1.0)], outcome=WIN0, wall_s=1060.0)
    assert not journal.match(mid).finished and [e.seq for e in journal.commands(mid)] == [1]
    for p in (ann, bo):
        assert players.get(p.id).games == 0 and players.get(p.id).rating == 1500.0
    with journal.database.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0] == 0


def test_history_lists_date_opponent_result_reason_and_rating_change(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    m1 = play(journal, ann.id, bo.id, WIN0, wall=1000.0)
    m2 = play(journal, bo.id, ann.id, Outcome(1, EndReason.RESIGN, True), wall=2000.0)
    m3 = play(journal, ann.id, None, WIN1, wall=3000.0)
    m4 = play(journal, ann.id, bo.id, ABORT, wall=4000.0)
    m5 = journal.begin_match(MatchConfig(), (bo.id, ann.id), wall_s=5000.0)
    journal.record(m5, 1, {"do": "tick"}, "s1", 1, "b", 5001.0)
    rows = players.history(ann.id)
    assert [r.match_id for r in rows] == [m5, m4, m3, m2, m1]
    by = {r.match_id: r for r in rows}
    change1, change2, detail4 = by[m1].rating_change, by[m2].rating_change, by[m4].detail
    assert change1 is not None and change2 is not None and detail4 is not None
    assert by[m1].result == "win" and by[m1].opponent == "Bo" and by[m1].reason == "balance" and by[m1].rated
    assert change1 > 0 and by[m1].date_wall == 1000.0 and by[m1].seat == 0
    assert by[m2].result == "win" and by[m2].seat == 1 and by[m2].reason == "resign" and change2 > 0
    assert by[m3].result == "loss" and by[m3].opponent == "Guest" and not by[m3].rated and by[m3].rating_change is None
    assert by[m4].result == "aborted" and by[m4].rating_change is None and "machine restarted" in detail4
    assert by[m5].result == "unfinished" and by[m5].entries == 1 and by[m1].entries == 0
    bo_rows = {r.match_id: r for r in players.history(bo.id)}
    bo_change = bo_rows[m1].rating_change
    assert bo_rows[m1].result == "loss" and bo_change is not None and bo_change < 0
    assert players.get(ann.id).rating == pytest.approx(1500 + change1 + change2)


def test_a_final_sync_that_fails_keeps_its_rows_and_a_retry_finishes_and_rates(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    table = new_table(journal, seed=2, players=(ann.id, bo.id))
    _fail_on(journal, "rating_changes", "INSERT")
    with pytest.raises(JournalUsageError):
        while table.step():
            pass
    mid = table.recorder.match_id
    assert table.match.is_over and not journal.match(mid).finished and not table.recorder.finished
    stored = len(journal.commands(mid))
    assert table.recorder.next_seq == stored + 1  # the failed batch took no numbers
    with journal.database.transaction() as conn:
        conn.execute("DROP TRIGGER injected_failure")
    written = table.recorder.sync(table.match, table.now)
    assert written >= 1 and len(journal.commands(mid)) == stored + written
    record = journal.match(mid)
    assert record.finished and record.winner == table.match.outcome.winner and record.rated
    assert [e.seq for e in journal.commands(mid)] == list(range(1, table.recorder.next_seq))
    assert players.get(ann.id).games == players.get(bo.id).games == 1
