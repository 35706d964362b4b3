"""The fault log (issue 26, finding 2): a storage fault, then the process dies — nothing shown is lost.

Real SQLite files and a real log file; "the process dies" is the keeper abandoned without a last
write (its connection closed, nothing more written), and a new keeper opened on the same files,
as the next start of the kiosk would. The clock is fake: every downtime is exact.
"""

from __future__ import annotations

from pathlib import Path

from journal_support import S, Wall, database_full, kept_table, new_table, play_until

from engine import EndReason
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.runlog import LOG_NAME, RunLog, parse

BOOT = "boot-a"


def open_keeper(path: Path, logs: Path, now: int, *, boot: str = BOOT, threaded: bool = False) -> JournalKeeper:
    runlog = RunLog.open([logs], boot)
    assert runlog is not None
    return JournalKeeper.open(path, boot, now, wall_clock=Wall(), runlog=runlog, threaded=threaded)


def die(keeper: JournalKeeper) -> None:
    """The process ends without a last write: what it had only in memory is gone."""
    if keeper.writer is not None:
        keeper.writer.stop(5)
    if keeper.journal is not None:
        keeper.journal.database.close()


def test_a_fault_then_a_kill_loses_no_move_and_charges_only_the_real_downtime(tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    keeper = open_keeper(path, logs, 1000 * S)
    table = kept_table(keeper, seed=5, bank_s=120, delay_s=3)
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    journal = keeper.journal
    assert journal is not None
    with database_full(journal):
        play_until(table, lambda m: not keeper.state.saving and len(table.recorder.pending) >= 6
                   and m.clock_running is not None)
        state = keeper.state
        assert state.in_memory == len(table.recorder.pending) >= 6
        assert state.problem is not None and state.problem.msgid.startswith("{problem} Every move is kept in memory")
        assert f"(moves: {state.in_memory})" in str(state.problem)
        shown = [row.snapshot for row in table.recorder.rows]
        running = table.match.clock_running
        last = table.recorder.rows[-1].arrival_ns
    die(keeper)  # before any further write: the disk is still full as far as the keeper knows
    again = open_keeper(path, logs, last + 7 * S)
    assert again.state.saving
    resumed = again.resume(last + 7 * S)
    assert resumed is not None and not resumed.aborted
    assert resumed.message.msgid == ("The kiosk restarted; the match continues — the {down} it was down were charged "
                                     "to {player}.")
    assert resumed.message.params["down"] == "7.0 s" and resumed.match.clock_running == running
    assert resumed.seq == len(shown)
    again.sync(resumed.match, last + 8 * S)
    stored = again.journal.commands(resumed.match_id)  # type: ignore[union-attr]
    assert [e.snapshot for e in stored[: len(shown)]] == shown  # every move the screen showed
    assert stored[len(shown)].step["do"] == "restart" and stored[len(shown)].step["same_boot"]
    again.close()


def test_a_restart_on_a_card_that_cannot_be_written_resumes_from_the_log_and_writes_it_all_later(
        tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    keeper = open_keeper(path, logs, 1000 * S)
    table = kept_table(keeper, seed=8, bank_s=120, delay_s=3)
    play_until(table, lambda m: len(table.recorder.rows) >= 3)
    journal = keeper.journal
    assert journal is not None
    with database_full(journal):
        play_until(table, lambda m: len(table.recorder.pending) >= 5 and m.clock_running is not None)
        shown = [row.snapshot for row in table.recorder.rows]
        last = table.recorder.rows[-1].arrival_ns
    die(keeper)
    blocker = Journal.open(path)  # the card still refuses: the file cannot be opened by the next start
    try:
        again = open_keeper(path, logs, last + 4 * S)
        assert not again.state.saving and again.journal is None
        resumed = again.resume(last + 4 * S)
        assert resumed is not None and not resumed.aborted and not resumed.saved
        assert resumed.message.msgid == ("{message} The moves not yet on the card were recovered from the kiosk's "
                                         "memory (moves: {count}).")
        assert resumed.message.params["message"].params["down"] == "4.0 s"
        banks = [resumed.match.bank_ns(p, last + 4 * S) for p in (0, 1)]
    finally:
        blocker.close()
    again.sync(resumed.match, last + 10 * S)  # the back-off's next attempt opens the journal
    assert again.state.saving and again.state.problem is None
    stored = again.journal.commands(resumed.match_id or again.current.match_id)
    assert [e.snapshot for e in stored[: len(shown)]] == shown
    assert stored[len(shown)].step["do"] == "restart"
    assert [resumed.match.bank_ns(p, last + 4 * S) for p in (0, 1)] == banks  # only the 4 s down were charged
    again.close()


def test_without_the_previous_log_a_running_clock_is_not_charged_and_nothing_is_claimed(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        table = new_table(j, seed=11, bank_s=120)
        play_until(table, lambda m: len(table.recorder.rows) >= 5 and m.clock_running is not None)
    keeper = open_keeper(path, tmp_path / "empty-run", table.now + 3 * S)  # no log: a fault may have lost moves
    resumed = keeper.resume(table.now + 3 * S)
    assert resumed is not None and resumed.aborted and not resumed.match.outcome.rated  # type: ignore[union-attr]
    assert resumed.match.outcome.reason is EndReason.ABORTED  # type: ignore[union-attr]
    assert resumed.message.msgid.startswith("The kiosk restarted while {player}'s clock was running, and it "
                                            "cannot tell")
    keeper.close()


def test_without_the_previous_log_a_stopped_clock_continues_without_saying_nothing_was_lost(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        table = new_table(j, seed=12, bank_s=120)
        play_until(table, lambda m: len(table.recorder.rows) >= 5 and m.clock_running is None and not m.is_over)
    keeper = open_keeper(path, tmp_path / "empty-run", table.now + 3 * S)
    resumed = keeper.resume(table.now + 3 * S)
    assert resumed is not None and not resumed.aborted
    assert "nothing was lost" not in str(resumed.message)
    assert resumed.message.msgid == ("The kiosk restarted; no clock was running. The match continues from the last "
                                     "move saved on the card.")
    keeper.close()


def test_the_log_holds_each_row_once_and_drops_a_match_finished_on_the_card(tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    keeper = open_keeper(path, logs, 1000 * S)
    table = kept_table(keeper, seed=21)
    play_until(table, lambda m: len(table.recorder.rows) >= 6)
    [logged], boot = parse((logs / LOG_NAME).read_text())
    assert boot == BOOT and [r.snapshot for r in logged.rows] == [r.snapshot for r in table.recorder.rows]
    assert logged.match_id == table.recorder.match_id
    play_until(table, lambda m: False)  # to the end: finished, backed up, let go
    keeper.sync(None, table.now + S)
    assert parse((logs / LOG_NAME).read_text())[0] == []
    keeper.close()


def test_the_writer_thread_never_makes_the_frame_wait_for_a_held_file(tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    keeper = open_keeper(path, logs, 1000 * S, threaded=True)
    table = kept_table(keeper, seed=31, bank_s=120)
    play_until(table, lambda m: len(table.recorder.rows) >= 3)
    assert keeper.writer is not None and keeper.writer.wait_idle(5)
    journal = keeper.journal
    assert journal is not None
    lock = journal.database._lock  # what a commit stuck in the kernel holds: the file's lock
    lock.acquire()
    try:
        table.step(S // 2)
        assert keeper.writer.busy  # its commit waits ...
        before = len(table.recorder.pending)
        for _ in range(4):  # ... while the frames go on, each move in the log at once
            table.step(S // 2)
        assert len(table.recorder.pending) > before
        state = keeper.sync(table.match, table.now)
        assert state.saving and state.in_memory == len(table.recorder.pending)
        assert state.problem is not None and state.problem.msgid.startswith("The card is slow")
        logged = parse((logs / LOG_NAME).read_text())[0][0]
        assert len(logged.rows) == len(table.recorder.rows)
    finally:
        lock.release()
    assert keeper.writer.wait_idle(5)
    keeper.sync(table.match, table.now + 1)
    assert keeper.writer.wait_idle(5)
    assert not table.recorder.pending and keeper.sync(table.match, table.now + 2).problem is None
    keeper.close()


def test_a_torn_last_line_is_dropped_and_a_match_entered_after_its_last_id_line_is_found(tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    keeper = open_keeper(path, logs, 1000 * S)
    table = kept_table(keeper, seed=41, bank_s=120)
    play_until(table, lambda m: len(table.recorder.rows) >= 5 and not m.is_over)
    shown = [row.snapshot for row in table.recorder.rows]
    die(keeper)
    log = logs / LOG_NAME
    lines = [line for line in log.read_text().splitlines() if '"k":"id"' not in line]  # as if killed before it
    log.write_text("\n".join(lines) + '\n{"k":"row","key":"torn","i":0,"st')  # and a write cut short
    [found], _ = parse(log.read_text())
    assert found.match_id is None and len(found.rows) == len(shown)
    again = open_keeper(path, logs, table.now + S)
    resumed = again.resume(table.now + S)
    assert resumed is not None
    assert len(again.journal.matches()) == 1  # type: ignore[union-attr]  # found by its rows, not entered twice
    assert [e.snapshot for e in again.journal.commands(resumed.match_id)][: len(shown)] == shown  # type: ignore[union-attr]
    again.close()
