"""The crash harness: 50 SIGKILLs of a child playing into the journal; nothing acknowledged is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.devtools.crash_harness import run_harness


@pytest.mark.slow
def test_fifty_kills_lose_no_acknowledged_command(tmp_path: Path) -> None:
    report = run_harness(50, seed=7, workdir=tmp_path)
    print(report.summary())
    assert report.kills == 50
    assert report.lost == 0 and report.resume_mismatches == 0, report.problems[:5]
    assert report.ok, report.problems[:5]
    assert report.acked >= 50
    assert report.resumed >= 40  # almost every kill leaves an unfinished match to resume
    assert report.downtime_charged >= 5  # same boot, running clock: the bank checked to the ns
    assert report.aborted_other_boot >= 1  # another boot while a clock ran
    assert report.exported >= 1 and report.export_mismatches == 0


@pytest.mark.slow
def test_kills_through_the_fault_log_and_the_writer_thread_lose_no_acknowledged_command(tmp_path: Path) -> None:
    """As ``python -m kiosk`` runs since issue 26: an ack is a row in the fault log, the commits on
    the writer thread (kills land mid-commit there), the log folded in before each check."""
    report = run_harness(25, seed=11, workdir=tmp_path, fault_log=True)
    print(report.summary())
    assert report.kills == 25
    assert report.lost == 0 and report.resume_mismatches == 0, report.problems[:5]
    assert report.ok, report.problems[:5]
    assert report.acked >= 25 and report.resumed >= 15
    assert report.downtime_charged >= 2  # same boot, the log found: the bank checked to the ns


def test_the_harness_counts_a_missing_or_different_acknowledged_row(tmp_path: Path) -> None:
    """A negative control: the check that reports lost commands does see them."""
    from engine import MatchConfig
    from kiosk.devtools.crash_harness import HarnessReport, _check_acks
    from kiosk.store.journal import Journal

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        mid = journal.begin_match(MatchConfig(), (None, None))
        journal.record(mid, 1, {"do": "tick"}, "snap", 1, "b", 1.0)
        good = journal.commands(mid)[0].snapshot_sha
        report = HarnessReport()
        _check_acks(journal, {(mid, 1): good}, report)
        assert report.lost == 0
        _check_acks(journal, {(mid, 1): good, (mid, 2): good, (mid, 3): "0" * 64}, report)
        assert report.lost == 2 and not report.ok
