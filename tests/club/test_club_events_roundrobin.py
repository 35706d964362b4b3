"""Round-robin by the FIDE Berger tables: the published tables, and everyone meets everyone once."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from club.events.errors import BadSettings
from club.events.roundrobin import berger_numbers, round_robin, round_robin_round, rounds_for

# FIDE Handbook C.05 Annex 1, Berger tables for 5-6 and 7-8 players, as printed.
FIDE_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
FIDE_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


def _parse(line: str) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in (board.split("-") for board in line.split())}


@pytest.mark.parametrize(("n", "table"), [(6, FIDE_6), (8, FIDE_8)])
def test_berger_numbers_equal_the_fide_tables(n: int, table: list[str]) -> None:
    for r, line in enumerate(table, start=1):
        assert set(berger_numbers(n, r)) == _parse(line), f"round {r}"


@pytest.mark.parametrize("count", range(4, 13))
def test_everyone_meets_everyone_once(count: int) -> None:
    players = [uuid.UUID(int=i + 1) for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == rounds_for(count)
    met: Counter[frozenset[uuid.UUID]] = Counter()
    seat0: Counter[uuid.UUID] = Counter()
    byes: Counter[uuid.UUID] = Counter()
    for r in rounds:
        placed = r.players()
        assert sorted(placed) == sorted(players), "each round places everyone exactly once"
        assert [p.table for p in r.pairings] == list(range(1, count // 2 + 1))
        for pairing in r.pairings:
            met[frozenset(pairing.seats)] += 1
            seat0[pairing.seats[0]] += 1
        if r.bye is not None:
            byes[r.bye] += 1
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    if count % 2:
        assert byes == Counter(players), "odd count: everyone sits out exactly once"
    else:
        assert not byes
    games = {p: sum(1 for pair in met if p in pair) for p in players}
    for p in players:
        # Berger tables keep seats as balanced as a single round-robin allows: at most one apart.
        assert abs(2 * seat0[p] - games[p]) <= 1, (count, p, seat0[p], games[p])


def test_bad_round_robins_are_refused() -> None:
    players = [uuid.UUID(int=i + 1) for i in range(4)]
    with pytest.raises(BadSettings):
        round_robin_round(players, 4)
    with pytest.raises(BadSettings):
        round_robin_round(players[:1], 1)
    with pytest.raises(BadSettings):
        round_robin_round([players[0], players[0], players[1]], 1)
