"""Timings of the events' pairings: ``python -m club.events.bench`` (figures quoted in docs/events.md).

Pairs seeded Swisses with random results (12 players × 5 rounds and 30 × 7, five of each) and
matches arena pools of 12, 24 and 40 waiting players with three games each behind them.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid

from club.events.arena import Waiting, pair_waiting
from club.events.model import Bye, Entrant, Game
from club.events.swiss import DutchPairer


def swiss_round_times(count: int, rounds: int, seed: int) -> list[float]:
    """Seconds to pair each round of one seeded Swiss with random results."""
    rng = random.Random(seed)
    entrants = [
        Entrant(uuid.UUID(int=rng.getrandbits(128)), f"P{i}", float(rng.randrange(1200, 2000))) for i in range(count)
    ]
    games: list[Game] = []
    byes: list[Bye] = []
    times: list[float] = []
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = DutchPairer().pair(entrants, games, byes, r, rounds)
        times.append(time.perf_counter() - start)
        for board in pairing.pairings:
            winner = rng.randrange(2)
            balances = (300, 0) if winner == 0 else (0, 300)
            games.append(Game(uuid.UUID(int=rng.getrandbits(128)), board.seats, winner, balances, r))
        if pairing.bye is not None:
            byes.append(Bye(r, pairing.bye))
    return times


def arena_pool_time(count: int, repeats: int = 5) -> float:
    """Median seconds to match a pool of ``count`` waiting players with ``3 * count`` games behind them."""
    rng = random.Random(count)
    players = [uuid.UUID(int=i + 1) for i in range(count)]
    games = []
    for k in range(3 * count):
        a, b = rng.sample(players, 2)
        games.append(Game(uuid.UUID(int=10**6 + k), (a, b), rng.randrange(2), ended=float(k)))
    pool = [Waiting(p, i + 1, float(rng.randrange(1200, 2000))) for i, p in enumerate(players)]
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        pair_waiting(pool, games)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the timings."""
    for count, rounds in ((12, 5), (30, 7)):
        times = [t for seed in range(5) for t in swiss_round_times(count, rounds, seed)]
        print(
            f"swiss {count} players x {rounds} rounds: per round median {statistics.median(times) * 1000:.1f} ms,"
            f" max {max(times) * 1000:.1f} ms ({len(times)} rounds)"
        )
    for count in (12, 24, 40):
        print(f"arena pool of {count}: median {arena_pool_time(count) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
