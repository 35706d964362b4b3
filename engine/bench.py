"""``python -m engine.bench``: random legal rounds and matches through the public API, and their speed.

Prints rounds/s, matches/s and the mean time of one ``legal_actions()`` + ``apply()`` pair, as the
best and the median of several repeats (the machine's speed varies from one second to the next).
With ``--openspiel`` (needs ``pip install open_spiel``, not a project dependency) it also times
OpenSpiel's pure-Python ``python_block_dominoes`` random playouts, interleaved with ours, and
prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from .actions import Start
from .clock import NS_PER_S
from .deal import shuffle_deal
from .match import Match
from .rollout import play_out_round

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
    """Seconds for ``count`` random rounds, each in a fresh match, and the actions they took."""
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


def bench_rollouts(count: int, seed: int) -> float:
    """Seconds for ``count`` level-2 rollouts of whole rounds, each from a filled-in state: a copy of
    a match that a player's view was filled in from (``determinize``), played out by
    ``rollout.play_out_round`` (the search's inner loop; the copy included)."""
    from .bots import determinize
    from .view import PlayerView

    rng = random.Random(seed)
    worlds = []
    for _ in range(min(count, 200)):
        match = Match()
        match.apply(Start(None, shuffle_deal(rng)), 0)
        assert match.to_act is not None
        worlds.append(determinize(PlayerView.of(match, match.to_act, 0), rng))
    uniform = rng.random
    start = time.perf_counter()
    for i in range(count):
        play_out_round(worlds[i % len(worlds)].clone(), uniform)
    return time.perf_counter() - start


def openspiel_playouts() -> Callable[[int, int], float] | None:
    """A timer of OpenSpiel's python_block_dominoes random playouts (seconds for n games), if installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.games import block_dominoes  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")

    def run(count: int, seed: int) -> float:
        rng = random.Random(seed)
        start = time.perf_counter()
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
        return time.perf_counter() - start

    return run


def _summary(rates: list[float]) -> str:
    return f"best {max(rates):,.0f}, median {statistics.median(rates):,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4000, help="rounds per repeat")
    parser.add_argument("--matches", type=int, default=300, help="matches per repeat")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openspiel", action="store_true", help="also time OpenSpiel's python_block_dominoes")
    args = parser.parse_args(argv)
    other = openspiel_playouts() if args.openspiel else None
    if args.openspiel and other is None:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return 2
    round_rates, action_us, theirs = [], [], []
    for i in range(args.repeat):
        secs, actions = bench_rounds(args.rounds, args.seed + i)
        round_rates.append(args.rounds / secs)
        action_us.append(secs / actions * 1e6)
        if other is not None:
            games = max(1, args.rounds // 4)
            theirs.append(games / other(games, args.seed + i))
    print(f"rounds:  {_summary(round_rates)} rounds/s over {args.repeat} x {args.rounds} fresh rounds "
          f"({actions / args.rounds:.1f} actions per round; {min(action_us):.2f} us per legal_actions + apply "
          f"at best, deal and random choice included)")
    match_rates, rounds_in_matches = [], []
    for i in range(args.repeat):
        secs, rounds, actions = bench_matches(args.matches, args.seed + i)
        match_rates.append(args.matches / secs)
        rounds_in_matches.append(rounds / secs)
    print(f"matches: {_summary(match_rates)} matches/s over {args.repeat} x {args.matches} matches "
          f"({rounds / args.matches:.1f} rounds, {actions / args.matches:.0f} actions per match; "
          f"{_summary(rounds_in_matches)} rounds/s inside matches)")
    rollout_rates = [args.rounds / bench_rollouts(args.rounds, args.seed + i) for i in range(args.repeat)]
    print(f"rollouts: {_summary(rollout_rates)} level-2 rollouts/s of whole rounds from filled-in states "
          f"(copy + rollout.play_out_round)")
    if theirs:
        print(f"openspiel python_block_dominoes: {_summary(theirs)} games/s; "
              f"ratio of medians {statistics.median(round_rates) / statistics.median(theirs):.1f}x, "
              f"of bests {max(round_rates) / max(theirs):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
