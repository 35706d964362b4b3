"""``python -m engine.bots.auction_value --level 3 --deals 2000``: what the first bid of an auction
is worth, measured by playing each deal both ways.

For each deal, seat 1 is the jockey and seat 0 (the first bidder) either declines (the jockey opens
free) or bids 15, which the jockey accepts (seat 0 pays 15 and opens). The round is then played out
by both seats at ``level`` with the same random numbers both ways. The difference in seat 0's
points is what bidding 15 was worth in that round; grouped by the best opening score in seat 0's
hand (the feature level 3's auction reads, ``policy.best_opening_score``), with its standard error
and how much more often seat 0 became the next round's jockey (by dominoing).

``--positions N --level L``: instead, the first N auction decisions met in level-3 matches (any
balances, either role; half of the auction decisions there are made a bid, so that bids are faced), each asked of level L (level 4 at ``--budget-ms`` on the real clock, or
``--samples``), and how often it differs from the never-bidding baseline (decline first, accept as
the jockey). Pure apart from ``main``, which alone reads the time; the table's arguments always give
the same table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Accept, Action, Bid, Decline, Start
from ..auction import MIN_BID
from ..clock import NS_PER_MS
from ..deal import shuffle_deal
from ..events import RoundEnded
from ..match import Match, MatchConfig, Phase
from ..view import PlayerView
from . import choose
from .arena import MAX_ROUNDS
from .policy import best_opening_score, first_auction_action
from .search import candidates


@dataclass(frozen=True, slots=True)
class Paired:
    """One deal played both ways: seat 0's best opening score, what bidding 15 changed in its points
    (bid minus decline) and in whether it became the next jockey (+1, 0 or -1)."""

    best_opening: int
    gain: int
    jockey_gain: int


def play_both_ways(level: int, seed: int, samples: int = 200) -> Paired:
    """Deal ``seed`` with seat 0 declining and with seat 0 bidding 15 (accepted); level 4 searches
    ``samples`` iterations."""
    deal = shuffle_deal(random.Random(f"auction-deal-{seed}"))
    points: list[int] = []
    jockey: list[bool] = []
    best = 0
    for bid in (False, True):
        match = Match(MatchConfig(jockey=1))
        now = 1
        match.apply(Start(None, deal), now)
        best = best_opening_score(PlayerView.of(match, 0, now))
        if bid:
            match.apply(next(a for a in match.legal_actions() if isinstance(a, Bid) and a.amount == MIN_BID), now)
            match.apply(next(a for a in match.legal_actions() if isinstance(a, Accept)), now)
        else:
            match.apply(next(a for a in match.legal_actions() if isinstance(a, Decline)), now)
        rng = random.Random(f"auction-play-{seed}")
        while match.to_act is not None:
            now += 1000
            view = PlayerView.of(match, match.to_act, now)
            events = match.apply(choose(view, level, rng, samples=samples), now)
            if any(isinstance(e, RoundEnded) for e in events):
                break
        points.append(match.balances[0] - MatchConfig().balances[0])
        jockey.append(match.jockey == 0)
    return Paired(best, points[1] - points[0], int(jockey[1]) - int(jockey[0]))


def auction_views(count: int, seed: int) -> list[PlayerView]:
    """The first ``count`` auction decisions (the deciding seat's views) in level-3 matches from ``seed``
    on, where each auction decision is the smallest safe bid half the time (so that bids are faced)."""
    views: list[PlayerView] = []
    game = seed
    while len(views) < count:
        deals = random.Random(f"auction-views-{game}")
        rngs = (random.Random(f"auction-bot-{game}-0"), random.Random(f"auction-bot-{game}-1"))
        match = Match()
        now = 0
        rounds = 0
        while not match.is_over and rounds < MAX_ROUNDS and len(views) < count:
            now += 1000
            match.apply(Start(None, shuffle_deal(deals)), now)
            rounds += 1
            while match.to_act is not None and len(views) < count:
                seat = match.to_act
                view = PlayerView.of(match, seat, now)
                action = choose(view, 3, rngs[seat])
                if view.phase is Phase.AUCTION:
                    views.append(view)
                    safe = [a for a in candidates(view) if isinstance(a, Bid)]
                    if safe and rngs[seat].random() < 0.5:
                        action = safe[0]  # bids too, so that the other player faces bids and raises
                now += 1000
                events = match.apply(action, now)
                if any(isinstance(e, RoundEnded) for e in events):
                    break
        game += 1
    return views


def differing(views: Sequence[PlayerView], level: int, seed: int, samples: int | None = None,
              budget_ns: int | None = None, clock: Callable[[], int] | None = None) -> list[tuple[PlayerView, Action]]:
    """The views where level ``level`` does not do what the never-bidding baseline does, with its action."""
    found = []
    for i, view in enumerate(views):
        action = choose(view, level, random.Random(f"auction-ask-{seed}-{i}"), samples=samples, budget_ns=budget_ns,
                        clock=clock)
        if action != first_auction_action(view):
            found.append((view, action))
    return found


def table(results: Sequence[Paired]) -> str:
    """The mean gain of bidding 15 per best opening score, as text."""
    lines = []
    groups: dict[int, list[Paired]] = {}
    for r in results:
        groups.setdefault(r.best_opening, []).append(r)
    for best in sorted(groups):
        rows = groups[best]
        gains = [r.gain for r in rows]
        error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
        lines.append(
            f"best opening score {best:2d}: {len(rows)} deals, bidding {MIN_BID} (accepted) changes the "
            f"round's points by {statistics.fmean(gains):+.2f} (standard error {error:.2f}), so leading is "
            f"worth {MIN_BID + statistics.fmean(gains):.2f}; next jockey "
            f"{statistics.fmean(r.jockey_gain for r in rows):+.3f}"
        )
    gains = [r.gain for r in results]
    if len(gains) > 1:
        lines.append(f"all: {len(gains)} deals, {statistics.fmean(gains):+.2f} "
                     f"(standard error {statistics.stdev(gains) / len(gains) ** 0.5:.2f})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(prog="python -m engine.bots.auction_value", description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=3, choices=(1, 2, 3, 4), help="the level that plays the rounds")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=None,
                        help="level 4's iterations per decision (default: 200, or with --positions its budget)")
    parser.add_argument("--positions", type=int, default=None,
                        help="count the auction decisions of level-3 matches where --level differs from never bidding")
    parser.add_argument("--budget-ms", type=float, default=None, help="with --positions: level 4's budget")
    args = parser.parse_args(argv)
    if args.positions is not None:
        import time

        views = auction_views(args.positions, args.seed)
        budget = None if args.budget_ms is None else int(args.budget_ms * NS_PER_MS)
        found = differing(views, args.level, args.seed, args.samples, budget, None if args.samples else time.perf_counter_ns)
        first = sum(1 for v in views if v.auction is not None and v.auction.bid is None)
        print(f"level {args.level}: {len(views)} auction decisions ({first} as the first bidder, {len(views) - first} "
              f"facing a bid), {len(found)} differ from never bidding")
        for view, action in found[:20]:
            print(f"  balances {view.balances}, seat {view.seat}, hand {' '.join(str(t) for t in view.hand)}: {action}")
        return 0
    samples = 200 if args.samples is None else args.samples
    results = [play_both_ways(args.level, args.seed + i, samples) for i in range(args.deals)]
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
