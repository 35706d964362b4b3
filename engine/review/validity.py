"""``python -m engine.review.validity --matches 200``: does the review tell a weak player from a
strong one? Bot matches (level 1 against level 4 by default, seats alternating) are reviewed for
both seats; each level's mean loss per decision is printed with a 95 % interval over matches.

Each match's mean loss is one observation (decisions within a match are not independent); the
interval is the normal one over those per-match means, and the pooled mean over every decision is
printed beside it. ``--levels 4,4`` gives level 4 against itself. ``--floor`` measures the noise
floor instead: each genuine decision's best action under one set of worlds, judged on another set
(the loss that a player who always chose as the review does would still be charged).
``--summarize FILE...`` prints the figures of per-match lines written by ``--out`` (a partial run
included; a seed met twice counts once).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..actions import Start
from ..clock import NS_PER_MS
from ..match import Match
from ..scenario import Scenario, parse_scenario, step_action
from ..view import PlayerView
from .judge import CLASSES, Z95, is_genuine, judge
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


def summarize_lines(lines: Sequence[str]) -> dict[str, Any]:
    """The figures of per-match lines (``--out``), one match per seed, grouped by level."""
    sides: dict[int, Side] = {}
    seeds: set[int] = set()
    for text in lines:
        if not text.strip():
            continue
        line = json.loads(text)
        if line["seed"] in seeds:
            continue
        seeds.add(line["seed"])
        for seat in (0, 1):
            level = line["levels"][seat]
            sides.setdefault(level, Side(level)).add(line[f"seat{seat}"])
    return {"matches": len(seeds), "seeds": [min(seeds), max(seeds)] if seeds else [],
            "levels": [sides[k].figures() for k in sorted(sides)]}


def floor_losses(scenario: Scenario, samples: int, seed: int) -> list[float]:
    """For every genuine decision of either seat: the loss of the action that the review finds best
    on one set of worlds, judged on another (the noise floor of ``samples`` worlds)."""
    match = Match(scenario.config)
    losses: list[float] = []
    for i, step in enumerate(scenario.steps):
        now = round(step["t"] * NS_PER_MS)
        action = step_action(step, match, scenario.deals)
        seat = match.to_act
        if seat is not None and not isinstance(action, Start):
            view = PlayerView.of(match, seat, now)
            if is_genuine(view):
                first = judge(view, action, samples, random.Random(f"floor-a-{seed}-{i}"))
                pick = first.options[first.best]
                losses.append(judge(view, pick, samples, random.Random(f"floor-b-{seed}-{i}")).loss)
        match.apply(action, now)
    return losses


def floor(levels: tuple[int, int], matches: int, seed: int, samples: int, iterations: int) -> dict[str, Any]:
    """The noise floor over the decisions of ``matches`` bot matches: mean and 95 % interval over
    matches of the per-match mean loss, and the pooled mean."""
    means: list[float] = []
    pooled: list[float] = []
    for k in range(matches):
        scenario = parse_scenario(bot_scenario(levels, seed + k, iterations=iterations))
        losses = floor_losses(scenario, samples, seed + k)
        if losses:
            means.append(sum(losses) / len(losses))
            pooled.extend(losses)
    m = len(means)
    mean = sum(means) / m if m else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in means) / (m - 1)) if m > 1 else 0.0
    half = Z95 * sd / math.sqrt(m) if m else 0.0
    return {"floor": {"matches": m, "decisions": len(pooled), "mean_loss": round(mean, 3),
                      "low": round(mean - half, 3), "high": round(mean + half, 3),
                      "pooled_mean_loss": round(sum(pooled) / len(pooled), 3) if pooled else 0.0,
                      "levels": list(levels), "samples": samples, "seed": seed}}


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
    parser.add_argument("--floor", action="store_true", help="measure the noise floor instead (see above)")
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="print the figures of --out files")
    args = parser.parse_args(argv)
    if args.summarize:
        lines: list[str] = []
        for path in args.summarize:
            with open(path, encoding="utf-8") as f:
                lines.extend(f)
        print(json.dumps(summarize_lines(lines)))
        return 0
    try:
        a, b = (int(x) for x in args.levels.split(","))
    except ValueError:
        parser.error("--levels takes two levels such as 1,4")
    if a not in (1, 2, 3, 4) or b not in (1, 2, 3, 4) or args.matches < 1 or args.samples < 2:
        parser.error("levels are 1 to 4, at least 1 match and 2 samples")
    if args.floor:
        print(json.dumps(floor((a, b), args.matches, args.seed, args.samples, args.iterations)))
        return 0
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
