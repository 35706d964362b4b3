"""``python -m engine.review.validity --matches 200``: does the review tell a weak player from a
strong one? Bot matches (level 1 against level 4 by default, seats alternating) are reviewed for
both seats; each level's mean loss per decision is printed with a 95 % interval over matches.

Each match's mean loss is one observation (decisions within a match are not independent); the
interval is the normal one over those per-match means, and the pooled mean over every decision is
printed beside it. ``--levels 4,4`` gives level 4 against itself (the noise floor).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..scenario import parse_scenario
from .judge import CLASSES, Z95
from .matches import bot_scenario
from .walk import review_scenario


@dataclass(slots=True)
class Side:
    """One level's figures so far."""

    level: int
    match_means: list[float] = field(default_factory=list)
    decisions: int = 0
    loss: float = 0.0
    classes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))

    def add(self, summary: dict[str, Any]) -> None:
        """Count one reviewed match of this side (a match without a decision adds nothing)."""
        n = summary["decisions"]
        if n == 0:
            return
        self.match_means.append(summary["mean_loss"])
        self.decisions += n
        self.loss += summary["mean_loss"] * n
        for c in CLASSES:
            self.classes[c] += summary[c]

    def figures(self) -> dict[str, Any]:
        """Matches, decisions, the mean of per-match mean losses with its 95 % interval, the pooled
        mean loss per decision and the classes."""
        m = len(self.match_means)
        mean = sum(self.match_means) / m if m else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in self.match_means) / (m - 1)) if m > 1 else 0.0
        half = Z95 * sd / math.sqrt(m) if m else 0.0
        return {"level": self.level, "matches": m, "decisions": self.decisions, "mean_loss": round(mean, 3),
                "low": round(mean - half, 3), "high": round(mean + half, 3),
                "pooled_mean_loss": round(self.loss / self.decisions, 3) if self.decisions else 0.0,
                "classes": dict(self.classes)}


def run(levels: tuple[int, int], matches: int, seed: int, samples: int, iterations: int,
        out: TextIO | None = None, every: int = 0) -> list[Side]:
    """Play and review ``matches`` matches (match k from seed ``seed + k``, the levels' seats swapped
    on odd k); per-match lines to ``out``, the figures so far every ``every`` matches."""
    sides = [Side(levels[0]), Side(levels[1])]
    for k in range(matches):
        seats = levels if k % 2 == 0 else (levels[1], levels[0])
        side_of = (0, 1) if k % 2 == 0 else (1, 0)
        scenario = parse_scenario(bot_scenario(seats, seed + k, iterations=iterations))
        line: dict[str, Any] = {"match": k, "seed": seed + k, "levels": list(seats), "rounds": len(scenario.deals)}
        for seat in (0, 1):
            summary = review_scenario(scenario, seat, samples=samples, seed=seed + k, luck=False)["summary"]
            sides[side_of[seat]].add(summary)
            line[f"seat{seat}"] = summary
        if out is not None:
            print(json.dumps(line), file=out, flush=True)
        if every and (k + 1) % every == 0:
            print(json.dumps({"after": k + 1, "sides": [s.figures() for s in sides]}), flush=True)
    return sides


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.review.validity", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--levels", default="1,4", help="the two levels, e.g. 1,4 or 4,4 (default 1,4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=50, help="review worlds per decision (default 50)")
    parser.add_argument("--iterations", type=int, default=200, help="level 4's search iterations (default 200)")
    parser.add_argument("--out", help="also write one JSON line per match to this file")
    parser.add_argument("--progress", type=int, default=20, help="print the figures every N matches (0: never)")
    args = parser.parse_args(argv)
    try:
        a, b = (int(x) for x in args.levels.split(","))
    except ValueError:
        parser.error("--levels takes two levels such as 1,4")
    if a not in (1, 2, 3, 4) or b not in (1, 2, 3, 4) or args.matches < 1 or args.samples < 2:
        parser.error("levels are 1 to 4, at least 1 match and 2 samples")
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115 - kept open for the run
    try:
        sides = run((a, b), args.matches, args.seed, args.samples, args.iterations, out, args.progress)
    finally:
        if out is not None:
            out.close()
    print(json.dumps({"levels": [a, b], "matches": args.matches, "seed": args.seed, "samples": args.samples,
                      "iterations": args.iterations, "sides": [s.figures() for s in sides]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
