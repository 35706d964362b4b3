"""Arena: streak and berserk scoring, and the waiting pool's minimum-cost matching."""

from __future__ import annotations

import itertools
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.events.arena import (
    Waiting,
    Weights,
    arena_scores,
    arena_standings,
    on_fire,
    pair_waiting,
    total_cost,
)
from club.events.errors import BadResult, BadSettings
from club.events.model import Entrant, Game, Pairing
from club.events.rules import EventRules, Format

A, B, C, D, E, F = (uuid.UUID(int=i) for i in range(1, 7))
ENTRANTS = [Entrant(p, n, 1500.0) for p, n in zip((A, B, C, D, E, F), "ABCDEF", strict=True)]


def _game(n: int, a: uuid.UUID, b: uuid.UUID, a_wins: bool, berserk: tuple[bool, bool] = (False, False)) -> Game:
    return Game(
        match=uuid.UUID(int=1000 + n), seats=(a, b), winner=0 if a_wins else 1, ended=float(n), berserk=berserk
    )


def test_two_a_win_and_doubled_after_two_wins_until_a_non_win() -> None:
    results = [True, True, True, True, False, True, True, True]
    games = [_game(i, A, B if i % 2 else C, won) for i, won in enumerate(results)]
    scores = arena_scores(ENTRANTS, games)
    # 2, 2, then on fire 4, 4; the loss ends the streak (0); 2, 2, then 4 again.
    assert scores[A] == 2 + 2 + 4 + 4 + 0 + 2 + 2 + 4
    assert scores[C] == 2 and scores[B] == 0  # C won the one game A lost (game 4); B lost all
    assert on_fire(A, games) and not on_fire(B, games)


def test_games_count_in_the_order_they_ended_not_the_order_given() -> None:
    games = [_game(i, A, B, won) for i, won in enumerate([True, True, False, True])]
    assert arena_scores(ENTRANTS, games) == arena_scores(ENTRANTS, games[::-1])
    assert arena_scores(ENTRANTS, games)[A] == 2 + 2 + 0 + 2


def test_berserk_adds_one_on_a_win_only() -> None:
    games = [
        _game(0, A, B, True, berserk=(True, True)),  # A berserk win: 3; B berserk loss: 0
        _game(1, A, B, True),  # 2
        _game(2, A, B, True, berserk=(True, False)),  # on fire and berserk: 4 + 1
        _game(3, B, A, True, berserk=(True, False)),  # B berserk win: 3
    ]
    scores = arena_scores(ENTRANTS, games)
    assert scores[A] == 3 + 2 + 5 + 0
    assert scores[B] == 0 + 0 + 0 + 3


def test_arena_standings_rank_by_arena_score() -> None:
    rules = EventRules(format=Format.ARENA, minutes=30)
    games = [_game(0, A, B, True), _game(1, A, C, True), _game(2, A, D, True), _game(3, B, C, True)]
    table = arena_standings(ENTRANTS, games, rules)
    assert [(r.player, r.score) for r in table[:2]] == [(A, 8), (B, 2)]
    with pytest.raises(BadSettings):
        arena_standings(ENTRANTS, games, EventRules(format=Format.SWISS, rounds=3))


def test_the_pool_avoids_a_rematch_and_an_odd_player_waits() -> None:
    games = [_game(0, A, B, True), _game(1, C, D, False)]
    pool = [Waiting(A, 1, 1500), Waiting(B, 2, 1500), Waiting(C, 3, 1500), Waiting(D, 4, 1500)]
    pairs = pair_waiting(pool, games)
    met = {frozenset(p.seats) for p in pairs}
    assert frozenset((A, B)) not in met and frozenset((C, D)) not in met
    assert len(pairs) == 2 and [p.table for p in pairs] == [1, 2]
    odd = pair_waiting([*pool, Waiting(E, 5, 1500)], [], first_table=3)
    assert len(odd) == 2 and [p.table for p in odd] == [3, 4]
    assert len({p for pair in odd for p in pair.seats}) == 4


def test_seat_zero_goes_to_the_player_with_fewer_seat_zero_games() -> None:
    games = [_game(0, A, C, True), _game(1, A, D, True)]
    pairs = pair_waiting([Waiting(A, 1, 1500), Waiting(B, 2, 1500)], games)
    assert pairs == [Pairing(table=1, seats=(B, A))]


def test_bad_pools_are_refused() -> None:
    with pytest.raises(BadResult):
        pair_waiting([Waiting(A, 1, 1500), Waiting(A, 1, 1500)], [])
    with pytest.raises(BadSettings):
        Weights(rank_weight=-1)


def _brute_force(pool: list[Waiting], games: list[Game], weights: Weights) -> int:
    """The least cost over every way to pair as many of ``pool`` as possible."""
    by_id = {w.player: w for w in pool}
    ids = [w.player for w in pool]
    best: int | None = None
    size = len(ids) - len(ids) % 2
    for chosen in itertools.combinations(ids, size):
        for perm in itertools.permutations(chosen):
            pairs = [Pairing(0, (perm[i], perm[i + 1])) for i in range(0, size, 2)]
            if any(p.seats[0].int > p.seats[1].int for p in pairs):
                continue
            cost = total_cost(pairs, by_id, games, weights)
            best = cost if best is None else min(best, cost)
    return best or 0


@settings(max_examples=40, deadline=None)
@given(
    ratings=st.lists(st.integers(1000, 2200), min_size=2, max_size=6),
    history=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.booleans()), max_size=8),
)
def test_the_matching_has_the_least_cost(ratings: list[int], history: list[tuple[int, int, bool]]) -> None:
    players = [uuid.UUID(int=i + 1) for i in range(len(ratings))]
    games = [
        _game(n, players[a], players[b], won)
        for n, (a, b, won) in enumerate(history)
        if a < len(players) and b < len(players) and a != b
    ]
    pool = [Waiting(p, i + 1, float(r)) for i, (p, r) in enumerate(zip(players, ratings, strict=True))]
    weights = Weights()
    pairs = pair_waiting(pool, games, weights)
    assert len(pairs) == len(pool) // 2
    placed = [p for pair in pairs for p in pair.seats]
    assert len(set(placed)) == len(placed)
    assert total_cost(pairs, {w.player: w for w in pool}, games, weights) == _brute_force(pool, games, weights)


def test_the_bench_runs() -> None:
    from club.events.bench import arena_pool_time, swiss_round_times

    assert len(swiss_round_times(6, 3, 0)) == 3
    assert arena_pool_time(6, repeats=1) > 0


def test_with_fewer_free_tables_than_pairs_the_longest_waiting_play_first() -> None:
    """12 players and 4 tables: when the pool makes more pairs than there are free tables, the pairs of
    those who waited longest get the tables, not always the top of the standings (in a club night the
    leaders played two or three times as often as the rest before this)."""
    from club.events.scheduler import EventView, Row, decide

    games = (Game(uuid.UUID(int=901), (A, E), 0, ended=90.0), Game(uuid.UUID(int=902), (B, F), 0, ended=100.0))
    rows = (Row(uuid.UUID(int=801), None, 1, C, E, "cancelled", 0.0, finished_at=10.0),
            Row(uuid.UUID(int=802), None, 2, D, F, "cancelled", 0.0, finished_at=10.0),
            Row(uuid.UUID(int=803), None, 3, A, E, "played", 20.0, finished_at=90.0, match=games[0].match),
            Row(uuid.UUID(int=804), None, 4, B, F, "played", 20.0, finished_at=100.0, match=games[1].match),
            Row(uuid.UUID(int=805), None, 5, E, F, "acknowledged", 100.0, kiosk=uuid.UUID(int=77)))
    view = EventView(uuid.UUID(int=700), EventRules(Format.ARENA, minutes=30), "running", 0, 120.0, True,
                     10_000.0, tuple(ENTRANTS), rows, games, ())
    table = uuid.UUID(int=78)
    plan = decide(view, [table], 110.0)
    new = [r for r in plan.rows.values() if r.uuid not in {x.uuid for x in rows}]
    assert len(new) == 1 and set(new[0].players) == {C, D} and new[0].kiosk == table  # A and B wait their turn
    both = decide(view, [table, uuid.UUID(int=79)], 110.0)
    assert len([r for r in both.rows.values() if r.kiosk is not None]) == 2  # two tables: everyone plays


def test_with_many_waiting_only_the_longest_waiting_are_matched_for_the_free_table() -> None:
    """Six waiting, one free table: the matching takes the four who waited longest (two more than the board
    needs, so that it can avoid a rematch), not a pair of players who just came back."""
    from club.events.scheduler import EventView, Row, decide

    games = (Game(uuid.UUID(int=901), (A, B), 0, ended=100.0),)
    rows = tuple(Row(uuid.UUID(int=810 + k), None, k + 1, p, q, "cancelled", 0.0, finished_at=t)
                 for k, (p, q, t) in enumerate(((C, D, 10.0), (E, F, 20.0))))
    rows += (Row(uuid.UUID(int=803), None, 3, A, B, "played", 50.0, finished_at=100.0, match=games[0].match),)
    view = EventView(uuid.UUID(int=700), EventRules(Format.ARENA, minutes=30), "running", 0, 120.0, True,
                     10_000.0, tuple(ENTRANTS), rows, games, ())
    plan = decide(view, [uuid.UUID(int=78)], 110.0)
    [new] = [r for r in plan.rows.values() if r.uuid not in {x.uuid for x in rows}]
    assert set(new.players) <= {C, D, E, F} and set(new.players) & {C, D}, new  # A and B just played
