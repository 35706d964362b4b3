"""Issue 26 on real file systems against a real kiosk process (``kiosk.devtools.storage_faults``).

Finding 3, a slow card stops the table: the journal's ext4 image frozen (``fsfreeze``) while a
match is played — the frames and the watchdog pings go on, every move is shown at once and none is
lost, the match is not aborted. Finding 2, a fault then a crash loses what the screen showed: the
card turned read-only by an injected ext4 error (``errors=remount-ro``) or a tmpfs filled to the
last byte, moves played on, the process SIGKILLed, started again on the failed card (it resumes
the match), repaired, started again — every move shown is in the journal, the match not aborted.

These need root and the tools of ``storage_faults.TOOLS``: without them the tests fail and say
what is missing (CI runs as root; a test that skipped there would hold nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.devtools.storage_faults import WATCHDOG_USEC, fault_kill, freeze, missing_tools

STALL_LIMIT_S = 2.0


@pytest.fixture(autouse=True)
def _tools() -> None:
    missing = missing_tools()
    if missing:
        pytest.fail(f"these tests need {', '.join(missing)} (they mount loop devices and freeze file systems)")


def check_freeze(seconds: float, tmp_path: Path) -> None:
    [result] = freeze([seconds], tmp_path)
    assert not result.aborted
    assert result.lost == 0
    assert result.shown_during > 0  # moves went on being shown while the card did not answer
    assert result.longest_frame_gap_s < STALL_LIMIT_S  # the loop never waited for the card
    assert result.longest_ping_gap_s < WATCHDOG_USEC / 1e6
    assert result.exit_status == 0


def test_a_card_frozen_for_3_s_stops_nothing(tmp_path: Path) -> None:
    check_freeze(3, tmp_path)


@pytest.mark.slow
def test_a_card_frozen_for_15_s_stops_nothing(tmp_path: Path) -> None:
    check_freeze(15, tmp_path)


def check_fault_kill(fault: str, tmp_path: Path) -> None:
    result = fault_kill(fault, tmp_path)
    assert result.shown_in_fault > 0
    assert result.resumed_on_failed_card, result.resumed_message
    assert result.lost == 0, result
    assert not result.aborted, result.restarts
    assert len(result.restarts) == 2 and all(r["same_boot"] for r in result.restarts)


def test_a_card_turned_read_only_then_a_kill_loses_no_move_shown(tmp_path: Path) -> None:
    check_fault_kill("readonly", tmp_path)


@pytest.mark.slow
def test_a_full_disk_then_a_kill_loses_no_move_shown(tmp_path: Path) -> None:
    check_fault_kill("full", tmp_path)
