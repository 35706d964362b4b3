"""Standings: tiebreaks in their published order, direct encounter, shared ranks, refusals, the JSON shape."""

from __future__ import annotations

import uuid
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.events.errors import BadResult, BadSettings, TiebreaksLocked
from club.events.model import Bye, Entrant, Game
from club.events.rules import DEFAULT_TIEBREAKS, EventRules, Format, Tiebreak
from club.events.standings import round_standings, standings_json

A, B, C, D = (uuid.UUID(int=i) for i in range(1, 5))
ENTRANTS = [Entrant(A, "Anna", 1600), Entrant(B, "Ben", 1500), Entrant(C, "Chloe", 1400), Entrant(D, "Dmytro", 1300)]
SWISS = EventRules(format=Format.SWISS, rounds=3)


def _g(n: int, a: uuid.UUID, b: uuid.UUID, winner: int, balances: tuple[int, int] = (200, 100)) -> Game:
    return Game(match=uuid.UUID(int=100 + n), seats=(a, b), winner=winner, balances=balances, round=n // 10)


def test_buchholz_sonneborn_berger_and_points_transferred() -> None:
    games = [
        _g(10, A, B, 0, (300, 0)),
        _g(11, C, D, 0, (160, 140)),
        _g(20, A, C, 1, (120, 180)),
        _g(21, B, D, 0, (250, 50)),
    ]
    table = round_standings(ENTRANTS, games, [], SWISS)
    rows = {r.player: r for r in table}
    # Scores: A 1, B 1, C 2, D 0.
    assert table[0].player == C and rows[D].score == 0
    # A met B(1) and C(2): Buchholz 3, beat B: SB 1, transferred +150 - 30.
    assert rows[A].tiebreaks[0:2] == (3, 1) and rows[A].tiebreaks[3] == 150 - 30
    # B met A(1), D(0): Buchholz 1; A is ahead of B on Buchholz.
    assert rows[B].tiebreaks[0] == 1
    assert [r.player for r in table] == [C, A, B, D]


def test_direct_encounter_splits_players_level_on_everything_before_it() -> None:
    rules = EventRules(format=Format.SWISS, rounds=3, tiebreaks=(Tiebreak.DIRECT_ENCOUNTER, Tiebreak.POINTS_TRANSFERRED))
    games = [_g(10, B, A, 0, (151, 149)), _g(11, C, D, 0, (151, 149)), _g(20, A, C, 0, (290, 10)), _g(21, D, B, 0)]
    # Everyone has 1 point; A won big on transfer but B beat A... and D beat B, C beat D, A beat C: a cycle.
    table = round_standings(ENTRANTS, games, [], rules)
    assert all(r.score == 1 and r.tiebreaks[0] == 1 for r in table)
    assert table[0].player == A  # the cycle leaves direct encounter level; transfer decides
    # Without the cycle: B beat A (on time, with the lower balance), both on 1 point: direct
    # encounter puts B first although A took more points.
    two = round_standings(ENTRANTS[:2], [_g(10, B, A, 0, (100, 200))], [Bye(2, A)], rules)
    assert [r.player for r in two] == [B, A] and [r.tiebreaks[0] for r in two] == [1, 0]


def test_direct_encounter_counts_only_wins_over_level_players() -> None:
    rules = EventRules(format=Format.SWISS, rounds=3, tiebreaks=(Tiebreak.DIRECT_ENCOUNTER,))
    # B beat A, A beat D, C beat B: A, B and C on 1 point, D on 0. A's only win is over D, who is
    # not level with A, so it does not count; B's over A and C's over B do.
    games = [_g(10, B, A, 0), _g(20, A, D, 0), _g(21, C, B, 0)]
    table = round_standings(ENTRANTS, games, [], rules)
    rows = {r.player: r for r in table}
    assert [rows[p].score for p in (A, B, C, D)] == [1, 1, 1, 0]
    assert [rows[p].tiebreaks[0] for p in (A, B, C, D)] == [0, 1, 1, 0]
    assert [r.player for r in table] == [B, C, A, D]  # B and C level on everything: by name
    assert [r.rank for r in table] == [1, 1, 3, 4]


def test_level_players_share_a_rank_and_the_order_is_still_total() -> None:
    table = round_standings(ENTRANTS, [], [], SWISS)
    assert [r.rank for r in table] == [1, 1, 1, 1]
    assert [r.name for r in table] == ["Anna", "Ben", "Chloe", "Dmytro"]


def test_byes_score_but_add_no_opponent() -> None:
    table = round_standings(ENTRANTS, [_g(10, A, B, 0)], [Bye(1, C)], SWISS)
    rows = {r.player: r for r in table}
    assert rows[C].score == 1 and rows[C].games == 0 and rows[C].tiebreaks[0] == 0


def test_bad_results_are_refused() -> None:
    game = _g(10, A, B, 0)
    with pytest.raises(BadResult, match="twice"):
        round_standings(ENTRANTS, [game, game], [], SWISS)
    with pytest.raises(BadResult, match="not entered"):
        round_standings(ENTRANTS[:1], [game], [], SWISS)
    with pytest.raises(BadResult, match="bye and a game"):
        round_standings(ENTRANTS, [game], [Bye(1, A)], SWISS)
    with pytest.raises(BadResult):
        Game(match=uuid.UUID(int=1), seats=(A, A), winner=0)
    with pytest.raises(BadResult):
        Game(match=uuid.UUID(int=1), seats=(A, B), winner=2)
    with pytest.raises(BadResult, match="add up"):
        Game(match=uuid.UUID(int=1), seats=(A, B), winner=0, balances=(200, 200))


def test_tiebreaks_are_published_before_round_one() -> None:
    assert SWISS.tiebreaks == DEFAULT_TIEBREAKS and DEFAULT_TIEBREAKS[-1] is Tiebreak.POINTS_TRANSFERRED
    changed = SWISS.with_tiebreaks(["sonneborn-berger", "buchholz"], rounds_paired=0)
    assert changed.tiebreaks == (Tiebreak.SONNEBORN_BERGER, Tiebreak.BUCHHOLZ)
    with pytest.raises(TiebreaksLocked):
        SWISS.with_tiebreaks(["buchholz"], rounds_paired=1)
    with pytest.raises(BadSettings, match="unknown tiebreak"):
        SWISS.with_tiebreaks(["median"], rounds_paired=0)
    with pytest.raises(BadSettings, match="twice"):
        SWISS.with_tiebreaks(["buchholz", "buchholz"], rounds_paired=0)
    for bad in (
        {"format": Format.SWISS},
        {"format": Format.ARENA},
        {"format": Format.ROUND_ROBIN, "rounds": 3},
        {"format": Format.SWISS, "rounds": 3, "bye_points": 2},
    ):
        with pytest.raises(BadSettings):
            EventRules(**bad)


def test_the_json_shape_of_the_standings() -> None:
    event = uuid.UUID(int=77)
    table = round_standings(ENTRANTS, [_g(10, A, B, 0)], [], SWISS)
    body = standings_json(event, SWISS, table)
    assert body["event"] == str(event) and body["format"] == "swiss"
    assert body["tiebreaks"] == ["buchholz", "sonneborn-berger", "direct-encounter", "points-transferred"]
    first = body["standings"][0]
    assert first == {
        "rank": 1,
        "player": str(A),
        "name": "Anna",
        "score": 1,
        "tiebreaks": [0, 0, 0, 50],
        "games": 1,
        "forfeit_wins": 0,
        "forfeit_losses": 0,
    }


@settings(max_examples=60, deadline=None)
@given(
    results=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 1), st.integers(0, 300)), max_size=12
    ),
    order=st.randoms(use_true_random=False),
)
def test_standings_depend_only_on_the_results(results: list[tuple[int, int, int, int]], order: Random) -> None:
    players = [e.player for e in ENTRANTS]
    games = [
        Game(match=uuid.UUID(int=500 + n), seats=(players[a], players[b]), winner=w, balances=(bal, 300 - bal))
        for n, (a, b, w, bal) in enumerate(results)
        if a != b
    ]
    table = round_standings(ENTRANTS, games, [], SWISS)
    shuffled = games[:]
    order.shuffle(shuffled)
    assert round_standings(ENTRANTS[::-1], shuffled, [], SWISS) == table
    assert sum(r.score for r in table) == len(games)
    transferred = [r.tiebreaks[3] for r in table]
    assert None not in transferred  # a Swiss has no undefined tiebreak
    assert sum(t for t in transferred if t is not None) == 0, "points only move between players"
    keys = [(r.score, r.tiebreaks) for r in table]
    assert keys == sorted(keys, reverse=True)
    assert all(r.rank <= i for i, r in enumerate(table, start=1))
