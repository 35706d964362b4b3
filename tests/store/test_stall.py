"""Stall detection with a fake clock, and the abort it causes going into the journal."""

from __future__ import annotations

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
    assert reason is not None and "2.0 s" in reason and "could not take commands" in reason


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
    assert d.beat(clock(), True) is not None
    d.beat(clock(), True)
    clock.advance(3)
    assert d.beat(clock(), False) is not None


def test_the_monotonic_clock_going_backwards_while_a_clock_runs() -> None:
    d = StallDetector(2 * S)
    d.beat(10 * S, True)
    reason = d.beat(9 * S, True)
    assert reason is not None and "backwards" in reason
    d.beat(20 * S, False)
    assert d.beat(19 * S, False) is None  # no clock running: nothing to prove


def test_reset_forgets_the_last_beat() -> None:
    d = StallDetector(2 * S)
    d.beat(0, True)
    d.reset()
    assert d.beat(100 * S, True) is None


def test_a_stall_aborts_the_match_unrated_and_the_journal_keeps_it(tmp_path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    table = new_table(journal, seed=3)
    play_until(table, lambda m: m.clock_running is not None and m.round >= 1 and m.layout.tiles())
    detector = StallDetector(2 * S)
    assert detector.beat(table.now, True) is None
    table.now += 5 * S  # the loop was stuck for 5 s (a fake clock jump)
    reason = detector.beat(table.now, table.match.clock_running is not None)
    assert reason is not None
    table.match.abort(table.now, reason)
    table.recorder.sync(table.match, table.now)
    record = journal.match(table.recorder.match_id)
    assert record.finished and record.reason == EndReason.ABORTED.value and record.rated is False
    assert "could not take commands" in (record.detail or "")
    last = journal.commands(record.id)[-1]
    assert last.step["do"] == "abort" and "could not take commands" in last.step["reason"]
    result = play_scenario(parse_scenario(journal.export_scenario(record.id)))
    assert result["state"] == state_json(table.match, table.now)
    assert result["state"]["end_reason"] == "aborted" and result["state"]["rated"] is False
