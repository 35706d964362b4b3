"""``python -m engine.replay SCENARIO.json [...]``: play conformance scenarios, print their results.

One JSON result per file, one per line, in order. Exit status 0 when every file is well formed
(refused steps included), 2 with a message on stderr naming each malformed file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .errors import SCENARIO_NOT_JSON, ScenarioError
from .scenario import parse_scenario, play_scenario


def replay_file(path: str) -> dict[str, Any]:
    """The result object for the scenario in ``path``; raises ScenarioError or OSError."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as exc:
            raise ScenarioError(SCENARIO_NOT_JSON, why=str(exc)) from exc
    return play_scenario(parse_scenario(data))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="SCENARIO.json")
    parser.add_argument("--pretty", action="store_true", help="indent the output for reading")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            result = replay_file(path)
        except (ScenarioError, OSError, UnicodeDecodeError) as exc:
            print(f"{path}: malformed scenario: {exc}", file=sys.stderr)
            result = {"name": path, "error": str(exc)}
            status = 2
        print(json.dumps(result, indent=2 if args.pretty else None, ensure_ascii=False))
    return status


if __name__ == "__main__":
    sys.exit(main())
