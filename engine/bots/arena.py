"""``python -m engine.bots.arena --a 4 --b 3 --matches 1000 --seed S``: duplicate matches between two
bot levels, their match wins with a Wilson 95 % interval, points per round and decision times.

Duplicate: each seed's sequence of deals is played twice, the bots' seats swapped. Matches run on
a virtual clock: each command arrives at the previous one's time plus the decision's measured
thinking time (the command line measures it) or a fixed ``think_ns`` (tests), so a bank never
runs out spuriously and the clock rules still apply. The module is pure apart from ``main``,
which reads the time to measure the decisions.

Level 4 searches with information-set MCTS (``engine.bots.ismcts``; ``--samples-a`` /
``--samples-b`` fix its iterations, and the figures add its iterations per searched decision); a
side may use the determinization search level 4 had before instead (``engine.bots.search``):
``--determinized-a`` / ``--determinized-b`` (level 4 only; the samples are then its samples).
``--baseline-auction-a`` / ``--baseline-auction-b`` replace that side's auction by the baseline that
never bids (``baseline_auction``: decline as the first bidder, accept as the jockey), the rest of
its play unchanged: a level against its baseline-auction twin measures what its auction is worth.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action, Start
from ..clock import NS_PER_MS
from ..deal import shuffle_deal
from ..errors import IllegalAction
from ..events import RoundEnded
from ..match import Match, Phase
from ..view import PlayerView
from . import choose
from .ismcts import ismcts_search
from .policy import first_auction_action
from .search import search

MAX_ROUNDS = 400
"""A match still running after this many rounds goes to the higher balance (reported apart)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One side: a level and, for level 4, its fixed samples (ISMCTS iterations) or its time budget;
    ``determinized`` (level 4 only) searches with the determinization search instead;
    ``baseline_auction`` never bids (``baseline_auction``) instead of the level's auction."""

    level: int
    samples: int | None = None
    budget_ns: int | None = None
    determinized: bool = False
    baseline_auction: bool = False

    @property
    def name(self) -> str:
        """A short label such as ``L4``, ``L4/s30``, ``L4/det`` or ``L3/base`` (baseline auction)."""
        return (f"L{self.level}" + ("/det" if self.determinized else "")
                + (f"/s{self.samples}" if self.samples is not None else "")
                + ("/base" if self.baseline_auction else ""))


@dataclass(slots=True)
class MatchResult:
    """One match: the winning side (0 for side a, 1 for side b), rounds, side a's net points,
    decision times per side and illegal actions met."""

    winner: int
    rounds: int
    points_a: int
    capped: bool
    times: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    decisions: int = 0
    illegal: int = 0
    iterations: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    """Per side, the iterations of each level-4 ISMCTS decision that searched."""


def play_match(
    sides: tuple[BotSpec, BotSpec],
    seed: int,
    a_seat: int,
    timer: Callable[[], int] | None = None,
    think_ns: int = 500 * NS_PER_MS,
    seat_rngs: bool = False,
) -> MatchResult:
    """Side a at seat ``a_seat`` against side b; the deals come from ``seed`` whatever the seats.

    ``timer`` (nanoseconds) measures each decision and bounds level 4's budget; without one every
    decision takes ``think_ns`` of virtual time and level 4 uses its samples. Each side's random
    numbers come from the seed and the side, or with ``seat_rngs`` from the seed and the seat: two
    sides that decide alike then play a seed's two matches identically, seats swapped.
    """
    deals = random.Random(f"deals-{seed}")
    side_of_seat = (0, 1) if a_seat == 0 else (1, 0)
    if seat_rngs:
        by_seat = (random.Random(f"bot-{seed}-seat0"), random.Random(f"bot-{seed}-seat1"))
        rngs = (by_seat[a_seat], by_seat[1 - a_seat])
    else:
        rngs = (random.Random(f"bot-{seed}-a"), random.Random(f"bot-{seed}-b"))
    match = Match()
    now = 0
    result = MatchResult(winner=-1, rounds=0, points_a=0, capped=False)
    start_balance = match.balances[a_seat]
    while not match.is_over and result.rounds < MAX_ROUNDS:
        now += NS_PER_MS
        match.apply(Start(None, shuffle_deal(deals)), now)
        result.rounds += 1
        while match.to_act is not None:
            seat = match.to_act
            side = side_of_seat[seat]
            spec = sides[side]
            view = PlayerView.of(match, seat, now)
            if timer is None:
                action = _decide(spec, view, rngs[side], None, result.iterations[side])
                spent = think_ns
            else:
                started = timer()
                action = _decide(spec, view, rngs[side], timer, result.iterations[side])
                spent = timer() - started
                result.times[side].append(spent)
            result.decisions += 1
            now += max(1, spent)
            events = _apply(match, action, now, result)
            if any(isinstance(e, RoundEnded) for e in events):
                break
    if match.is_over and match.outcome is not None and match.outcome.winner is not None:
        result.winner = side_of_seat[match.outcome.winner]
    else:
        result.capped = True
        balances = match.balances
        result.winner = side_of_seat[0] if balances[0] >= balances[1] else side_of_seat[1]
    result.points_a = match.balances[a_seat] - start_balance
    return result


def _decide(
    spec: BotSpec, view: PlayerView, rng: random.Random, timer: Callable[[], int] | None, iterations: list[int]
) -> Action:
    """``spec``'s action for ``view`` (bounded by ``timer`` when given); a level-4 ISMCTS side's
    iterations are appended to ``iterations`` when it searched (as ``choose`` at level 4 does)."""
    if spec.baseline_auction and view.phase is Phase.AUCTION:
        return baseline_auction(view)
    if spec.level != 4 or (view.phase is Phase.AUCTION and not spec.determinized):
        return choose(view, spec.level, rng)
    if spec.determinized:
        return search(view, rng, spec.samples, spec.budget_ns, timer)
    found = ismcts_search(view, rng, spec.samples, spec.budget_ns, timer)
    if found.iterations:
        iterations.append(found.iterations)
    return found.action


def baseline_auction(view: PlayerView) -> Action:
    """The auction that never bids: decline as the first bidder, accept as the jockey facing a bid."""
    return first_auction_action(view)


def _apply(match: Match, action: Action, now: int, result: MatchResult) -> list[object]:
    """Apply a bot's action; an illegal one is counted and replaced by the first legal action."""
    try:
        return list(match.apply(action, now))
    except IllegalAction:
        result.illegal += 1
        return list(match.apply(match.legal_actions()[0], now))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def percentile(values: Sequence[int], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(q * len(ordered)))
    return float(ordered[rank - 1])


def run(
    sides: tuple[BotSpec, BotSpec],
    matches: int,
    seed: int,
    timer: Callable[[], int] | None = None,
    report: Callable[[str], None] | None = None,
    seat_rngs: bool = False,
) -> list[MatchResult]:
    """``matches`` duplicate matches (pairs of seeds, seats swapped), side a first at seat 0
    (``seat_rngs``: see ``play_match``)."""
    results: list[MatchResult] = []
    for i in range((matches + 1) // 2):
        for a_seat in (0, 1):
            if len(results) < matches:
                results.append(play_match(sides, seed + i, a_seat, timer, seat_rngs=seat_rngs))
        if report is not None and (i + 1) % 10 == 0:
            report(summary(sides, results))
    return results


def summary(sides: tuple[BotSpec, BotSpec], results: Sequence[MatchResult]) -> str:
    """The figures the issue asks for, as text."""
    n = len(results)
    wins = sum(1 for r in results if r.winner == 0)
    low, high = wilson(wins, n)
    rounds = sum(r.rounds for r in results)
    points = sum(r.points_a for r in results)
    lines = [
        f"{sides[0].name} vs {sides[1].name}: {n} matches, {sides[0].name} won {wins} "
        f"({100 * wins / max(1, n):.1f} %, Wilson 95 % {100 * low:.1f}-{100 * high:.1f} %)",
        f"rounds {rounds} ({rounds / max(1, n):.1f} per match), {sides[0].name} net "
        f"{points / max(1, rounds):+.2f} points per round; capped at {MAX_ROUNDS} rounds: "
        f"{sum(1 for r in results if r.capped)}",
        f"decisions {sum(r.decisions for r in results)}, illegal actions {sum(r.illegal for r in results)}",
    ]
    for side in (0, 1):
        times = [t for r in results for t in r.times[side]]
        if times:
            ms = [t / NS_PER_MS for t in times]
            lines.append(
                f"{sides[side].name} decision ms: p50 {percentile(times, 0.5) / NS_PER_MS:.2f}, "
                f"p90 {percentile(times, 0.9) / NS_PER_MS:.2f}, p99 {percentile(times, 0.99) / NS_PER_MS:.2f}, "
                f"max {max(ms):.2f}, mean {statistics.fmean(ms):.2f} over {len(times)}"
            )
    for side in (0, 1):
        counts = [c for r in results for c in r.iterations[side]]
        if counts:
            lines.append(
                f"{sides[side].name} iterations per searched decision: p10 {percentile(counts, 0.1):.0f}, "
                f"p50 {percentile(counts, 0.5):.0f}, p90 {percentile(counts, 0.9):.0f}, "
                f"mean {statistics.fmean(counts):.0f} over {len(counts)}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line and print its figures."""
    import time

    parser = argparse.ArgumentParser(prog="python -m engine.bots.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=int, required=True, help="side a's level")
    parser.add_argument("--b", type=int, required=True, help="side b's level")
    parser.add_argument("--matches", type=int, default=1000, help="matches in all (pairs of seeds)")
    parser.add_argument("--seed", type=int, default=1)
    for side in "ab":
        parser.add_argument(f"--samples-{side}", type=int, default=None,
                            help=f"level 4: fixed work for side {side} (ISMCTS iterations, "
                                 f"or samples with --determinized-{side})")
        parser.add_argument(f"--determinized-{side}", action="store_true",
                            help=f"side {side} (level 4) uses the determinization search instead of ISMCTS")
        parser.add_argument(f"--baseline-auction-{side}", action="store_true",
                            help=f"side {side} never bids (declines first, accepts as the jockey) instead of "
                                 "its level's auction")
    parser.add_argument("--budget-ms", type=float, default=None, help="level 4's budget (default: the bots' default)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="measure decisions and level 4's budget in this process's CPU time, so that other "
                             "work on a shared machine does not shorten the searches")
    parser.add_argument("--seat-rngs", action="store_true",
                        help="random numbers by seat, not by side: twins that decide alike play a seed's two "
                             "matches alike")
    parser.add_argument("--progress", action="store_true", help="print the figures every 20 matches")
    args = parser.parse_args(argv)
    if (args.determinized_a and args.a != 4) or (args.determinized_b and args.b != 4):
        parser.error("--determinized-a / --determinized-b need level 4 on that side")
    budget = None if args.budget_ms is None else int(args.budget_ms * NS_PER_MS)
    sides = (BotSpec(args.a, args.samples_a, budget, args.determinized_a, args.baseline_auction_a),
             BotSpec(args.b, args.samples_b, budget, args.determinized_b, args.baseline_auction_b))
    report = (lambda text: print(text + "\n", flush=True)) if args.progress else None
    timer = time.process_time_ns if args.cpu_clock else time.perf_counter_ns
    results = run(sides, args.matches, args.seed, timer, report, args.seat_rngs)
    print(summary(sides, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
