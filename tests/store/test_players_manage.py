"""Managing named players on a real SQLite file: provisional ratings, delete and merge, which keep every
match and recompute the ratings from the rated matches in order."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import EndReason, MatchConfig, Outcome
from kiosk.store.journal import Journal
from kiosk.store.players import PROVISIONAL_RD, Player, Players
from kiosk.store.ratings import DEFAULT_RATING, DEFAULT_RD


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def play(journal: Journal, p0: int | None, p1: int | None, winner: int, wall: float = 1000.0) -> int:
    mid = journal.begin_match(MatchConfig(), (p0, p1), wall_s=wall)
    journal.finish(mid, Outcome(winner, EndReason.BALANCE, True), wall_s=wall + 60)
    return mid


def ratings(players: Players) -> dict[int, tuple[float, float, float, int]]:
    return {p.id: (p.rating, p.rd, p.volatility, p.games) for p in players.list()}


@pytest.fixture
def league(journal: Journal) -> tuple[Players, list[Player], list[int]]:
    """Four players and 30 random rated matches between them (and two with a guest)."""
    players = Players(journal)
    people = [players.create(n, wall_s=1) for n in ("Anna", "Ben", "Chloe", "Dae-jung")]
    rng = random.Random(4)
    mids = []
    for i in range(30):
        a, b = rng.sample(people, 2)
        mids.append(play(journal, a.id, b.id, rng.randrange(2), wall=1000 + i * 100))
    mids.append(play(journal, people[0].id, None, 0, wall=5000))
    mids.append(play(journal, None, people[1].id, 1, wall=5100))
    return players, people, mids


def test_a_new_rating_is_provisional_until_its_deviation_falls_to_110(journal: Journal) -> None:
    players = Players(journal)
    a, b = players.create("Anna", wall_s=1), players.create("Ben", wall_s=1)
    assert PROVISIONAL_RD == 110 and a.rd == DEFAULT_RD and a.provisional and a.rating_text == "1500?"
    games = 0
    while players.get(a.id).provisional:
        play(journal, a.id, b.id, games % 2, wall=1000 + games)
        games += 1
        assert games < 40
    settled = players.get(a.id)
    assert settled.rd <= 110 and settled.rating_text == f"{settled.rating:.0f}" and games > 3


def test_recomputing_unchanged_matches_gives_the_same_ratings(league) -> None:
    players, _, _ = league
    before = ratings(players)
    players.recompute()
    after = ratings(players)
    assert after.keys() == before.keys()
    for pid in before:
        assert after[pid] == pytest.approx(before[pid], abs=1e-9)


def test_merge_moves_the_matches_and_recomputes_the_ratings(league, journal: Journal) -> None:
    players, (anna, ben, chloe, dae), mids = league
    histories = {p.id: players.history(p.id) for p in (anna, ben, chloe, dae)}
    between = {h.match_id for h in histories[anna.id] if h.opponent_id == ben.id}
    merged = players.merge(ben.id, anna.id)  # Ben was Anna entered twice
    assert players.find("Ben") is None and merged.id == anna.id
    assert len(journal.matches(limit=1000)) == len(mids)  # no match lost
    mine = {h.match_id for h in players.history(anna.id)}
    assert mine == {h.match_id for h in histories[anna.id]} | {h.match_id for h in histories[ben.id]}
    for row in players.history(anna.id):
        if row.match_id in between:  # they played each other: Ben's seat is a guest's, not rated
            assert row.opponent_id is None and not row.rated
    rated = sum(1 for h in players.history(anna.id) if h.rated)
    assert merged.games == rated
    for p in (chloe, dae):  # the others' matches against Ben are now against Anna
        assert {h.match_id for h in players.history(p.id)} == {h.match_id for h in histories[p.id]}
        assert all(h.opponent_id != ben.id for h in players.history(p.id))
    fresh = ratings(players)
    players.recompute()
    assert ratings(players) == fresh  # the merge left ratings as a recompute gives them


def test_delete_keeps_the_matches_with_a_guest_in_the_seat(league, journal: Journal) -> None:
    players, (anna, ben, chloe, dae), mids = league
    chloes = {h.match_id for h in players.history(chloe.id)}
    assert players.delete(chloe.id) == len(chloes)
    assert players.find("Chloe") is None and len(journal.matches(limit=1000)) == len(mids)
    for p in (anna, ben, dae):
        for row in players.history(p.id):
            if row.match_id in chloes:
                assert row.opponent_id is None and row.opponent == "Guest" and not row.rated
                assert row.result in ("win", "loss")  # the result stays
    for record in journal.matches(limit=1000):
        assert chloe.id not in record.players
    total_rated = sum(p.games for p in players.list())
    assert total_rated == 2 * sum(1 for r in journal.matches(limit=1000) if r.rated and None not in r.players
                                  and r.winner is not None)


def test_a_player_without_matches_is_simply_removed_and_unknown_ids_are_refused(journal: Journal) -> None:
    players = Players(journal)
    a = players.create("Anna", wall_s=1)
    assert players.delete(a.id) == 0 and players.list() == []
    from kiosk.store.errors import StoreUsageError
    with pytest.raises(StoreUsageError):
        players.delete(a.id)
    b = players.create("Ben", wall_s=1)
    with pytest.raises(StoreUsageError):
        players.merge(b.id, b.id)
    with pytest.raises(StoreUsageError):
        players.merge(b.id, 999)
    assert players.get(b.id).rating == DEFAULT_RATING
