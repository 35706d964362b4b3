"""``python -m engine.review.bench``: the CPU seconds a whole review of a match costs, both seats,
at the default samples, luck included — what the table does between matches.

Matches are level 3 against level 3 (``--levels``), played afresh from ``--seed``; each is reviewed
for seat 0 and seat 1. The time is the process's CPU time (``time.process_time``), so that a shared,
loaded machine does not inflate it. Prints one JSON object: per match the rounds, decisions and
seconds, then the median and the mean seconds per match and per decision, and the estimate for a
Raspberry Pi 4 (``PI_FACTOR`` times this machine's time per core).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..scenario import parse_scenario
from .judge import DEFAULT_SAMPLES
from .matches import bot_scenario
from .walk import review_scenario

PI_FACTOR = 4.0
"""A Raspberry Pi 4 core does about a quarter of the development machine's work per second
(docs/bots.md)."""


def bench(levels: tuple[int, int], matches: int, seed: int, samples: int) -> dict[str, Any]:
    """Review ``matches`` bot matches for both seats and time each whole review."""
    rows = []
    for k in range(matches):
        scenario = parse_scenario(bot_scenario(levels, seed + k))
        started = time.process_time()
        decisions = 0
        for seat in (0, 1):
            decisions += review_scenario(scenario, seat, samples=samples, seed=k)["summary"]["decisions"]
        seconds = time.process_time() - started
        rows.append({"seed": seed + k, "rounds": len(scenario.deals), "decisions": decisions,
                     "seconds": round(seconds, 2)})
    per_match = [r["seconds"] for r in rows]
    per_decision = sum(per_match) / max(1, sum(r["decisions"] for r in rows))
    median = statistics.median(per_match)
    return {"levels": list(levels), "samples": samples, "matches": rows,
            "median_seconds": round(median, 2), "mean_seconds": round(statistics.fmean(per_match), 2),
            "seconds_per_decision": round(per_decision, 4), "pi4_median_seconds": round(median * PI_FACTOR, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.review.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--levels", default="3,3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    args = parser.parse_args(argv)
    try:
        a, b = (int(x) for x in args.levels.split(","))
    except ValueError:
        parser.error("--levels takes two levels such as 3,3")
    if args.matches < 1 or args.samples < 2:
        parser.error("at least 1 match and 2 samples")
    print(json.dumps(bench((a, b), args.matches, args.seed, args.samples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
