"""``python -m engine.bench``: random legal rounds and matches through the public API, and their speed.

Prints rounds/s, matches/s and the mean time of one ``legal_actions()`` + ``apply()`` pair.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Sequence

from .actions import Start
from .clock import NS_PER_S
from .deal import shuffle_deal
from .match import Match

STEP_NS = NS_PER_S
"""Simulated time between two commands: inside the delay, so random play never loses on time."""


def play_round(match: Match, rng: random.Random, now_ns: int) -> tuple[int, int]:
    """Start a round and play uniformly random legal actions until it ends; returns (actions, time).

    The round ends when nobody is to act: back at the ready phase, or the match is over.
    """
    match.apply(Start(None, shuffle_deal(rng)), now_ns)
    actions = 1
    uniform = rng.random
    while match.to_act is not None:
        now_ns += STEP_NS
        legal = match.legal_actions()
        match.apply(legal[int(uniform() * len(legal))], now_ns)
        actions += 1
    return actions, now_ns


def play_match(rng: random.Random) -> tuple[int, int]:
    """A whole random match; returns (rounds, actions)."""
    match = Match()
    now_ns = 0
    rounds = actions = 0
    while not match.is_over:
        n, now_ns = play_round(match, rng, now_ns + STEP_NS)
        rounds += 1
        actions += n
    return rounds, actions


def bench_rounds(count: int, seed: int) -> tuple[float, int]:
    """Seconds for ``count`` fresh random rounds, and the actions they took."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(count):
        n, _ = play_round(Match(), rng, 0)
        actions += n
    return time.perf_counter() - start, actions


def bench_matches(count: int, seed: int) -> tuple[float, int, int]:
    """Seconds for ``count`` random matches, with their rounds and actions."""
    rng = random.Random(seed)
    rounds = actions = 0
    start = time.perf_counter()
    for _ in range(count):
        r, a = play_match(rng)
        rounds += r
        actions += a
    return time.perf_counter() - start, rounds, actions


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    secs, actions = bench_rounds(args.rounds, args.seed)
    print(f"rounds:  {args.rounds} in {secs:.2f} s = {args.rounds / secs:,.0f} rounds/s "
          f"({actions / args.rounds:.1f} actions per round, "
          f"{secs / actions * 1e6:.2f} us per legal_actions + apply)")
    secs, rounds, actions = bench_matches(args.matches, args.seed)
    print(f"matches: {args.matches} in {secs:.2f} s = {args.matches / secs:,.0f} matches/s "
          f"({rounds / args.matches:.1f} rounds and {actions / args.matches:.0f} actions per match, "
          f"{rounds / secs:,.0f} rounds/s, {secs / actions * 1e6:.2f} us per legal_actions + apply)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
