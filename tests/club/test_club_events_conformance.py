"""The pinned Dutch engine against its own conformance cases: tournaments paired by bbpPairings."""

from __future__ import annotations

from pathlib import Path

import pytest
from caissify_pairings.fpc import check_trf

CASES = sorted((Path(__file__).parent / "data" / "caissify_conformance").glob("*.trf"))


def test_the_cases_are_there() -> None:
    assert len(CASES) == 9


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_every_round_pairs_as_bbppairings_paired_it(case: Path) -> None:
    report = check_trf(case.read_text())
    summary = report["summary"]
    assert summary["rounds_checked"] >= 1
    assert summary["rounds_checked"] == summary["rounds_matched"]
    assert summary["total_discrepancies"] == 0, [r["discrepancies"] for r in report["rounds"]]
