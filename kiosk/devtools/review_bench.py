"""``python -m kiosk.devtools.review_bench``: how long the table's review of a whole match takes.

Plays bot matches (level 3 against level 3 by default, the kiosk's default balances) and reviews each
as the kiosk does after a match: a ``ReviewJob`` in its own process, both seats, ``REVIEW_SAMPLES``
worlds per decision, luck included. Prints one JSON line per match — decisions, wall seconds from the
job's start to its last message, CPU seconds of the review process — and the median with the
expected time on a Raspberry Pi 4 (``PI_FACTOR`` times the CPU seconds: about 4 times slower per core).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections.abc import Sequence

from engine.review.matches import bot_scenario
from kiosk.table.review_job import REVIEW_SAMPLES, ReviewJob

PI_FACTOR = 4.0
"""A Raspberry Pi 4's core against this machine's (docs/review.md, "Speed")."""


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_one(levels: tuple[int, int], seed: int, samples: int) -> dict[str, object]:
    """One match played by bots and reviewed by the kiosk's job; its figures."""
    scenario = bot_scenario(levels, seed)
    cpu = children_cpu()
    start = time.perf_counter()
    job = ReviewJob(scenario, samples=samples)
    if not job.wait(timeout=3600.0):
        raise SystemExit(f"the review of match {seed} did not finish: {job.error}")
    wall = time.perf_counter() - start
    decisions = sum(len((job.review(seat) or {}).get("decisions", [])) for seat in (0, 1))
    return {"seed": seed, "steps": len(scenario["steps"]), "decisions": decisions, "samples": samples,
            "wall_s": round(wall, 2), "cpu_s": round(children_cpu() - cpu, 2)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.review_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES, help=f"default: the kiosk's {REVIEW_SAMPLES}")
    parser.add_argument("--levels", default="3,3", help="the bots' levels, seat 0 and seat 1 (default 3,3)")
    args = parser.parse_args(argv)
    a, b = (int(v) for v in args.levels.split(","))
    rows = []
    for seed in range(args.seed, args.seed + args.matches):
        row = bench_one((a, b), seed, args.samples)
        rows.append(row)
        print(json.dumps(row), flush=True)
    cpu = statistics.median(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type]
    wall = statistics.median(float(r["wall_s"]) for r in rows)  # type: ignore[arg-type]
    print(json.dumps({"median_wall_s": round(wall, 2), "median_cpu_s": round(cpu, 2),
                      "pi4_expected_s": round(PI_FACTOR * cpu, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
