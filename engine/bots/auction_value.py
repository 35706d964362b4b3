"""``python -m engine.bots.auction_value --level 3 --deals 2000``: what the first bid of an auction
is worth, measured by playing each deal both ways.

For each deal, seat 1 is the jockey and seat 0 (the first bidder) either declines (the jockey opens
free) or bids 15, which the jockey accepts (seat 0 pays 15 and opens). The round is then played out
by both seats at ``level`` with the same random numbers both ways. The difference in seat 0's
points is what bidding 15 was worth in that round; grouped by the best opening score in seat 0's
hand (the feature level 3's auction reads, ``policy.best_opening_score``), with its standard error
and how much more often seat 0 became the next round's jockey (by dominoing). Pure apart from
``main``; the same arguments always give the same table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Accept, Bid, Decline, Start
from ..auction import MIN_BID
from ..deal import shuffle_deal
from ..events import RoundEnded
from ..match import Match, MatchConfig
from ..view import PlayerView
from . import choose
from .policy import best_opening_score


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
    parser.add_argument("--samples", type=int, default=200, help="level 4's iterations per decision")
    args = parser.parse_args(argv)
    results = [play_both_ways(args.level, args.seed + i, args.samples) for i in range(args.deals)]
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
