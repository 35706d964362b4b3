"""Stall detection with a fake clock, and the abort it causes going into the journal."""

from __future__ import annotations

import pytest
from journal_support import new_table, play_until

from engine import NS_PER_S, EndReason
from engine.scenario import parse_scenario, play_scenario, state_json
from kiosk.store.journal import Journal
from kiosk.store.stall import StallDetector
from kiosk.timesource import FakeClock

S = NS_PER_S


def test_a_gap_beyond_the_limit_while_a_clock_runs_is_a_stall() -> None:
    clock = FakeClock()
    d = StallDetector.from_seconds(2.0)
    assert d.beat(clock(), True) is None
    clock.advance(1.9)
    assert d.beat(clock(), True) is None
    clock.advance(2.0)
    assert d.beat(clock(), True) is None  # exactly the limit: still fine
    clock.advance(ns=2 * S + 1)
    reason = d.beat(clock(), True)
    assert reason is not None
    assert reason.msgid == "the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})"
    assert reason.params == {"gap": "2.0 s", "limit": "2.0 s"}
    assert d.longest_gap_ns == 2 * S + 1


def test_long_gaps_without_a_running_clock_are_fine() -> None:
    clock = FakeClock()
    d = StallDetector(2 * S)
    d.beat(clock(), False)
    clock.advance(60)
    assert d.beat(clock(), False) is None


def test_a_clock_that_started_or_stopped_during_the_gap_counts() -> None:
    clock = FakeClock()
    d = StallDetector(2 * S)
    d.beat(clock(), False)
    clock.advance(3)
    started = d.beat(clock(), True)  # a clock started during the gap
    assert started is not None and started.params == {"gap": "3.0 s", "limit": "2.0 s"}
    assert d.beat(clock(), True) is None
    clock.advance(3.5)
    stopped = d.beat(clock(), False)  # a clock stopped during the gap
    assert stopped is not None and stopped.params == {"gap": "3.5 s", "limit": "2.0 s"}


def test_the_monotonic_clock_going_backwards_while_a_clock_runs() -> None:
    d = StallDetector(2 * S)
    d.beat(10 * S, True)
    reason = d.beat(9 * S, True)
    assert reason is not None
    assert reason.msgid == "the monotonic clock went backwards by {gap}" and reason.params == {"gap": "1.0 s"}
    assert str(reason) == "the monotonic clock went backwards by 1.0 s"
    d.beat(20 * S, False)
    assert d.beat(19 * S, False) is None  # no clock running: nothing to prove


def test_reset_forgets_the_last_beat() -> None:
    d = StallDetector(2 * S)
    d.beat(0, True)
    d.reset()
    assert d.beat(100 * S, True) is None
    d.reset(200 * S)  # a new baseline: the gap from it counts again
    late = d.beat(203 * S, True)
    assert late is not None and late.params == {"gap": "3.0 s", "limit": "2.0 s"}


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        StallDetector(0)


def test_a_stall_aborts_the_match_unrated_and_the_journal_keeps_it(tmp_path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    table = new_table(journal, seed=3)
    play_until(table, lambda m: m.clock_running is not None and m.round >= 1 and m.layout.tiles())
    detector = StallDetector(2 * S)
    assert detector.beat(table.now, True) is None
    table.now += 5 * S  # the loop was stuck for 5 s (a fake clock jump)
    reason = detector.beat(table.now, table.match.clock_running is not None)
    assert reason is not None and reason.params == {"gap": "5.0 s", "limit": "2.0 s"}
    table.match.abort(table.now, reason)
    table.recorder.sync(table.match, table.now)
    record = journal.match(table.recorder.match_id)
    assert record.finished and record.reason == EndReason.ABORTED.value and record.rated is False
    assert record.detail == "the kiosk could not take commands for 5.0 s while a clock ran (the limit is 2.0 s)"
    last = journal.commands(record.id)[-1]
    assert last.step["do"] == "abort" and last.step["reason"] == record.detail
    result = play_scenario(parse_scenario(journal.export_scenario(record.id)))
    assert result["state"] == state_json(table.match, table.now)
    assert result["state"]["end_reason"] == "aborted" and result["state"]["rated"] is False
