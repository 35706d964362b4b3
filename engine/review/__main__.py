"""``python -m engine.review SCENARIO.json --seat 0|1 [--samples N] [--seed S]``: one JSON review.

Exit status 0 with the review on stdout; 2 with a message on stderr for a file that is not a
scenario (nothing is printed on stdout then).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..errors import SCENARIO_NOT_JSON, ScenarioError
from ..scenario import Scenario, parse_scenario
from .judge import DEFAULT_SAMPLES
from .walk import review_scenario


def read_scenario(path: str) -> Scenario:
    """The scenario in ``path``; raises ScenarioError, OSError or UnicodeDecodeError."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as exc:
            raise ScenarioError(SCENARIO_NOT_JSON, why=str(exc)) from exc
    return parse_scenario(data)


def _samples(text: str) -> int:
    value = int(text)
    if value < 2:
        raise argparse.ArgumentTypeError("at least 2 samples are needed for an interval")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.review", description=__doc__.splitlines()[0])
    parser.add_argument("file", metavar="SCENARIO.json")
    parser.add_argument("--seat", type=int, choices=(0, 1), required=True, help="the seat to review")
    parser.add_argument("--samples", type=_samples, default=DEFAULT_SAMPLES,
                        help=f"sampled worlds per decision (default {DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=0, help="the seed of every sample (default 0)")
    parser.add_argument("--pretty", action="store_true", help="indent the output for reading")
    args = parser.parse_args(argv)
    try:
        scenario = read_scenario(args.file)
    except (ScenarioError, OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: not a scenario: {exc}", file=sys.stderr)
        return 2
    review = review_scenario(scenario, args.seat, samples=args.samples, seed=args.seed)
    print(json.dumps(review, indent=2 if args.pretty else None, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
