"""JournalKeeper: storage faults mid-match on a real SQLite file never stop the table, and nothing
played is lost once the storage works again (issue 12: "never dark, never dodged")."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from journal_support import (
    WALL,
    S,
    Wall,
    damage_table_page,
    database_full,
    kept_table,
    new_table,
    play_until,
    read_only_storage,
)

from engine.snapshot import save_text
from hardware.backoff import Backoff
from kiosk.i18n import Text
from kiosk.store.errors import StoreDamaged
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper, SavingState, retry_backoff
from kiosk.store.resume import resume
from kiosk.store.schema import SCHEMA_VERSION

NOT_SAVING = ("Results are not being saved: {why}. Matches can still be played; the kiosk keeps trying to save "
              "them.")
SAVING_AGAIN = "Results are being saved again; nothing played in the meantime was lost."
IN_PROGRESS = "{message} The match in progress goes on and is saved in the new journal."
RESTORED = ("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and the players, "
            "ratings and matches were restored from the backup of {when} (players: {players}, matches: {matches}). "
            "Anything saved after that backup is lost.")


def open_keeper(path: Path, now: int = 1000 * S, **kwargs: object) -> JournalKeeper:
    return JournalKeeper.open(path, "boot-a", now, wall_clock=Wall(), **kwargs)  # type: ignore[arg-type]


def stored_rows(journal: Journal, match_id: int) -> list[tuple[object, ...]]:
    """The match's rows as (seq, step, snapshot) — all intact."""
    rows = journal.commands(match_id)
    assert all(r.intact for r in rows)
    return [(r.seq, r.step, r.snapshot) for r in rows]


def recorded_rows(table) -> list[tuple[object, ...]]:
    return [(i, e.step, e.snapshot) for i, e in enumerate(table.recorder.rows, start=1)]


@contextmanager
def query_only(journal: Journal) -> Iterator[None]:
    """SQLite refuses every write of the connection (SQLITE_READONLY)."""
    conn = journal.database.connection
    conn.execute("PRAGMA query_only = 1")
    try:
        yield
    finally:
        conn.execute("PRAGMA query_only = 0")


FAULTS: dict[str, tuple[Callable[[Path, Journal], AbstractContextManager[None]], str]] = {
    "disk full (SQLITE_FULL)": (lambda path, journal: database_full(journal), "the disk is full"),
    "card read-only (SQLITE_IOERR_WRITE)": (lambda path, journal: read_only_storage(path),
                                            "the storage reported an input/output error"),
    "read-only database (SQLITE_READONLY)": (lambda path, journal: query_only(journal), "it is read-only"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_storage_fault_mid_match_keeps_the_match_and_writes_it_all_when_the_storage_is_back(
        tmp_path: Path, fault: str) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    assert keeper.state == SavingState(saving=True) and keeper.take_notices() == []
    table = kept_table(keeper, seed=3, balances=60)
    play_until(table, lambda m: table.recorder.saved >= 8)
    journal = keeper.journal
    assert journal is not None
    match_id = table.recorder.match_id
    assert match_id is not None
    on_disk = stored_rows(journal, match_id)
    inject, why = FAULTS[fault]
    with inject(path, journal):
        for _ in range(40):
            table.step(1 * S)
            if table.recorder.pending or table.match.is_over:
                break
        state = keeper.state
        assert not state.saving and state.unsaved == len(table.recorder.pending) > 0
        assert isinstance(state.problem, Text) and state.problem.msgid == NOT_SAVING
        assert state.problem.params["why"].msgid == why
        written = stored_rows(journal, match_id)  # the rows before the failing commit, nothing of it
        assert written[:len(on_disk)] == on_disk and written == recorded_rows(table)[:table.recorder.saved]
        # the back-off: 1 s, doubling, at most a minute; no attempt in between
        failed_at = state.retry_ns
        assert failed_at is not None
        delays = []
        for _ in range(8):
            assert keeper.sync(table.match, failed_at - 1).retry_ns == failed_at  # not due: no attempt
            next_try = keeper.sync(table.match, failed_at).retry_ns
            assert next_try is not None
            delays.append((next_try - failed_at) // S)
            failed_at = next_try
        assert delays == [2, 4, 8, 16, 32, 60, 60, 60]
        assert keeper.take_notices() == []
    state = keeper.sync(table.match, failed_at)
    assert state == SavingState(saving=True)
    assert [n.msgid for n in keeper.take_notices()] == [SAVING_AGAIN]
    assert stored_rows(journal, match_id) == recorded_rows(table)
    play_until(table, lambda m: False)  # to the end, saved as it goes
    assert keeper.state.saving and journal.match(match_id).finished
    keeper.close()
    with Journal.open(path) as again:
        assert [(r[0], r[1]) for r in stored_rows(again, match_id)] == [(i, e.step) for i, e in
                                                                        enumerate(table.recorder.rows, 1)]
        assert again.commands(match_id)[-1].snapshot == save_text(table.match)


def test_the_match_so_far_survives_a_restart_once_saving_resumed(tmp_path: Path) -> None:
    """The rows kept in memory during the fault are real rows: a restart resumes from the last of them."""
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    table = kept_table(keeper, seed=8, balances=60)
    play_until(table, lambda m: table.recorder.saved >= 5 and m.clock_running is not None)
    with read_only_storage(path):
        for _ in range(6):
            table.step(S)
        assert not keeper.state.saving
    play_until(table, lambda m: m.clock_running is not None)
    keeper.sync(table.match, table.now + 120 * S)
    assert keeper.state.saving and not table.recorder.pending
    snapshot = save_text(table.match)
    keeper.journal.database.close()  # a crash: nothing more is written
    with Journal.open(path) as again:
        resumed = resume(again, "boot-a", table.now + S)
        assert resumed is not None and resumed.seq == len(table.recorder.rows)
        assert again.commands(resumed.match_id)[resumed.seq - 1].snapshot == snapshot


def test_a_journal_that_cannot_be_opened_at_start_up_is_opened_later_with_the_match_so_far(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    path = blocker / "journal.sqlite3"
    keeper = open_keeper(path)
    state = keeper.state
    assert not state.saving and keeper.journal is None and keeper.players is None
    assert state.problem is not None and state.problem.params["why"].msgid == (
        "the folder {folder} cannot be created ({error})")
    table = kept_table(keeper, seed=4)
    play_until(table, lambda m: len(table.recorder.rows) >= 6)
    assert not keeper.state.saving and keeper.state.unsaved == len(table.recorder.rows)
    blocker.unlink()
    generation = keeper.generation
    waiting = keeper.state.retry_ns
    assert waiting is not None and not keeper.sync(table.match, waiting - 1).saving  # the back-off holds
    assert keeper.retry(waiting - 1).saving  # an owner's "try again" does not wait for it
    assert keeper.generation > generation  # the player screens read the new journal
    assert [n.msgid for n in keeper.take_notices()] == [SAVING_AGAIN]
    journal = keeper.journal
    assert journal is not None and keeper.players is not None
    match_id = table.recorder.match_id
    assert match_id is not None and stored_rows(journal, match_id) == recorded_rows(table)
    keeper.close()


def test_a_journal_in_use_by_another_kiosk_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    first = open_keeper(path)
    second = open_keeper(path)
    assert second.state.problem is not None
    assert second.state.problem.params["why"].msgid == "it is in use by another kiosk process"
    table = kept_table(second, seed=5)
    play_until(table, lambda m: len(table.recorder.rows) >= 3)
    first.close()
    assert second.sync(table.match, table.now + 61 * S).saving
    assert table.recorder.match_id is not None and not table.recorder.pending
    second.close()


def test_a_journal_from_a_newer_program_can_be_set_aside_for_a_fresh_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    keeper = open_keeper(path)
    assert keeper.state.problem is not None
    assert keeper.state.problem.params["why"].msgid == "it was written by a newer kiosk"
    table = kept_table(keeper, seed=6)
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    state = keeper.start_fresh(table.now)
    assert state.saving
    [moved, again] = keeper.take_notices()
    assert moved.msgid == "A new match journal was started; the old one was moved aside to {moved}."
    assert again.msgid == SAVING_AGAIN
    old = tmp_path / moved.params["moved"]
    check = sqlite3.connect(old)
    assert check.execute("PRAGMA user_version").fetchone()[0] == 99  # left as it was, only renamed
    check.close()
    assert keeper.journal is not None and keeper.journal.schema_version == SCHEMA_VERSION
    assert stored_rows(keeper.journal, table.recorder.match_id) == recorded_rows(table)
    keeper.close()


def _two_players_one_finished_match(keeper: JournalKeeper) -> tuple[int, int, int]:
    players = keeper.players
    assert players is not None
    ann, bo = players.create("Ann"), players.create("Bo")
    first = kept_table(keeper, seed=11, players=(ann.id, bo.id))
    play_until(first, lambda m: False)
    assert keeper.path is not None
    assert first.recorder.finished and (keeper.path.parent / "journal.sqlite3.backup-1").exists()
    return ann.id, bo.id, first.now


def test_a_damaged_page_met_mid_match_restores_the_backup_and_writes_the_match_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    ann, bo, now = _two_players_one_finished_match(keeper)
    players = keeper.players
    assert players is not None
    ratings = {p.name: (p.rating, p.rd, p.games) for p in players.list()}
    table = kept_table(keeper, seed=12, players=(bo, ann), now=now + S)
    play_until(table, lambda m: len(table.recorder.rows) >= 10)
    journal = keeper.journal
    assert journal is not None
    damage_table_page(journal, "entries")
    generation = keeper.generation
    table.step(S)  # the next commit meets the damaged page
    assert keeper.state.saving and keeper.generation > generation
    [notice] = keeper.take_notices()
    assert notice.msgid == IN_PROGRESS
    restored = notice.params["message"]
    assert restored.msgid == RESTORED
    assert restored.params["reason"] == "database disk image is malformed"
    assert restored.params["players"] == 2 and restored.params["matches"] == 1
    assert (tmp_path / restored.params["moved"]).exists()
    assert keeper.journal is journal  # the same object, a new file under it
    assert {p.name: (p.rating, p.rd, p.games) for p in players.list()} == ratings
    [second, first] = journal.matches()
    assert first.finished and not second.finished and second.players == (bo, ann)
    assert stored_rows(journal, second.id) == recorded_rows(table)
    play_until(table, lambda m: False)
    assert journal.match(second.id).finished and keeper.state.saving
    keeper.close()


def test_a_backup_taken_mid_match_is_continued_after_a_restore_not_duplicated(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    blocked = tmp_path / "journal.sqlite3.backup-new"
    blocked.mkdir()  # the backup after the first match fails, and is written during the second
    first = kept_table(keeper, seed=21)
    play_until(first, lambda m: False)
    assert not (tmp_path / "journal.sqlite3.backup-1").exists()
    blocked.rmdir()
    second = kept_table(keeper, seed=22, now=first.now + S)
    play_until(second, lambda m: (tmp_path / "journal.sqlite3.backup-1").exists())
    in_backup = len(second.recorder.rows)
    play_until(second, lambda m: len(second.recorder.rows) >= in_backup + 6)
    journal = keeper.journal
    assert journal is not None
    damage_table_page(journal, "entries")
    second.step(S)
    assert keeper.state.saving
    [notice] = keeper.take_notices()[-1:]
    assert notice.params["message"].params["matches"] == 2  # the backup holds the second match's first rows
    matches = journal.matches()
    assert len(matches) == 2, "the match in progress was not entered a second time"
    assert stored_rows(journal, matches[0].id) == recorded_rows(second)
    keeper.close()


def test_a_damaged_page_met_by_resume_at_start_up_restores_the_backup(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path, wall_clock=lambda: WALL) as j:
        finished = new_table(j, seed=31)
        play_until(finished, lambda m: False)
        unfinished = new_table(j, seed=32, now=finished.now + S)
        play_until(unfinished, lambda m: len(unfinished.recorder.rows) >= 6)
        j.database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    keeper = open_keeper(path)
    assert keeper.journal is not None and keeper.take_notices() == []
    damage_table_page(keeper.journal, "entries")
    assert keeper.resume(unfinished.now + S) is None
    [notice] = keeper.take_notices()
    assert notice.msgid == "{message} The unfinished match in it could not be read and is lost."
    assert notice.params["message"].msgid == RESTORED and notice.params["message"].params["matches"] == 1
    assert [m.finished for m in keeper.journal.matches()] == [True]
    table = kept_table(keeper, seed=33, now=unfinished.now + 2 * S)  # the kiosk goes on
    play_until(table, lambda m: len(table.recorder.rows) >= 3)
    assert keeper.state.saving
    keeper.close()


def test_a_damaged_page_met_by_a_player_screen_is_repaired_at_the_next_frame(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    ann, _bo, now = _two_players_one_finished_match(keeper)
    players = keeper.players
    assert players is not None and keeper.journal is not None
    board = players.leaderboard()
    damage_table_page(keeper.journal, "rating_changes")
    with pytest.raises(StoreDamaged) as info:  # a store error the screen shows, not a crash
        players.history(ann)
    assert isinstance(info.value.__cause__, sqlite3.DatabaseError)
    assert keeper.journal.database.damage == "database disk image is malformed"
    keeper.sync(None, now + S)
    [notice] = keeper.take_notices()
    assert notice.msgid == RESTORED  # no match in progress: the message alone
    assert players.leaderboard() == board and len(players.history(ann)) == 1
    keeper.close()


@pytest.mark.parametrize("what", ["file", "file and its log"])
def test_a_journal_deleted_while_the_kiosk_runs_is_written_again_at_the_next_commit(tmp_path: Path,
                                                                                    what: str) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    _ann, _bo, now = _two_players_one_finished_match(keeper)
    table = kept_table(keeper, seed=41, now=now + S)
    play_until(table, lambda m: len(table.recorder.rows) >= 5)
    path.unlink()
    if what == "file and its log":
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
    table.step(S)
    assert path.exists() and keeper.state.saving
    [notice] = keeper.take_notices()
    assert notice.msgid == ("The match journal {name} was deleted while the kiosk was running; it was written again "
                            "from the copy the kiosk still had open, so nothing was lost.")
    play_until(table, lambda m: len(table.recorder.rows) >= 9)
    keeper.close()
    with Journal.open(path) as again:
        assert again.warnings == []
        [current, earlier] = again.matches()
        assert earlier.finished and stored_rows(again, current.id) == recorded_rows(table)
        assert [r[0] for r in again.database.connection.execute("SELECT name FROM players ORDER BY id")] == [
            "Ann", "Bo"]


def test_a_deleted_journal_whose_copy_cannot_be_put_back_yet_is_put_back_later(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The open connection is gone once the copy is made; a copy that cannot be moved into place is
    kept and moved at the next attempt — never an empty journal in its place."""
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    _ann, _bo, now = _two_players_one_finished_match(keeper)
    table = kept_table(keeper, seed=43, now=now + S)
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    path.unlink()
    real_replace = os.replace

    def refuse(src: object, dst: object) -> None:
        if str(src).endswith(".rewrite"):
            raise OSError(30, "Read-only file system")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", refuse)
    table.step(S)
    state = keeper.state
    assert not state.saving and state.problem is not None
    assert state.problem.params["why"].msgid == "it was deleted and cannot be written again ({error})"
    assert state.problem.params["why"].params == {"error": "Read-only file system"}
    assert not path.exists() and (tmp_path / "journal.sqlite3.rewrite").exists()
    monkeypatch.setattr(os, "replace", real_replace)
    assert keeper.sync(table.match, table.now + 2 * S).saving
    assert [n.msgid for n in keeper.take_notices()] == [
        "The match journal {name} was deleted while the kiosk was running; it was written again from the copy the "
        "kiosk still had open, so nothing was lost.", SAVING_AGAIN]
    assert path.exists() and not (tmp_path / "journal.sqlite3.rewrite").exists()
    journal = keeper.journal
    assert journal is not None and len(journal.matches()) == 2
    assert stored_rows(journal, table.recorder.match_id) == recorded_rows(table)
    keeper.close()


def test_a_journal_replaced_while_the_kiosk_runs_is_moved_aside_and_written_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    table = kept_table(keeper, seed=42)
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    path.unlink()
    path.write_bytes(b"someone else's file")
    table.step(S)
    [notice] = keeper.take_notices()
    assert notice.msgid.startswith("The match journal {name} was replaced by another file")
    assert (tmp_path / notice.params["moved"]).read_bytes() == b"someone else's file"
    keeper.close()
    with Journal.open(path) as again:
        assert stored_rows(again, table.recorder.match_id) == recorded_rows(table)


def test_resume_on_a_read_only_card_keeps_the_resumed_match_and_writes_its_restart_later(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        table = new_table(j, seed=51)
        play_until(table, lambda m: len(table.recorder.rows) >= 6 and m.clock_running is None)
    keeper = open_keeper(path)
    assert keeper.journal is not None
    keeper.journal.database.connection.execute("SELECT COUNT(*) FROM entries").fetchone()
    with read_only_storage(path):
        resumed = keeper.resume(table.now + S)
        assert resumed is not None and not resumed.saved and not keeper.state.saving
        assert resumed.recorder.pending[0].step["do"] == "restart"
    assert keeper.sync(resumed.match, table.now + 3 * S).saving
    assert keeper.journal.commands(resumed.match_id)[-1].step["do"] == "restart"
    assert len(resumed.recorder.rows) == resumed.seq + 1  # the rows read back, and the restart
    keeper.close()


def test_a_backup_that_cannot_be_written_is_a_notice_and_is_tried_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper = open_keeper(path)
    (tmp_path / "journal.sqlite3.backup-new").mkdir()  # the backup cannot be written there
    table = kept_table(keeper, seed=61)
    play_until(table, lambda m: False)
    assert keeper.state.saving  # the journal itself is saved
    [notice] = keeper.take_notices()
    assert notice.msgid == "The backup of the match journal could not be written ({why}); the journal itself is saved."
    assert not (tmp_path / "journal.sqlite3.backup-1").exists()
    (tmp_path / "journal.sqlite3.backup-new").rmdir()
    keeper.sync(None, table.now + S // 2)  # within the back-off: not yet
    assert not (tmp_path / "journal.sqlite3.backup-1").exists()
    keeper.sync(None, table.now + S)
    assert (tmp_path / "journal.sqlite3.backup-1").exists() and keeper.take_notices() == []
    keeper.close()


def test_no_journal_on_purpose_shows_nothing(tmp_path: Path) -> None:
    keeper = JournalKeeper.open(None, "boot-a", 0)
    table = kept_table(keeper, seed=71)
    play_until(table, lambda m: len(table.recorder.rows) >= 3)
    assert keeper.state == SavingState(enabled=False) and keeper.take_notices() == []
    assert keeper.resume(0) is None and keeper.players is None
    assert os.listdir(tmp_path) == []


def test_backoff_doubles_from_a_second_to_a_minute() -> None:
    b = retry_backoff()
    assert [b.delay(n) for n in range(0, 10)] == [1, 1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert Backoff(0.5, 2.0, 3.0).delay(4) == 3.0 and Backoff(0.5, 1.0, 3.0).delay(10**9) == 0.5
    assert retry_backoff().delay(10**6) == 60  # no overflow after many failures


def test_close_writes_a_match_kept_in_memory_into_a_journal_that_could_never_be_opened(tmp_path: Path) -> None:
    import random

    from engine import MatchConfig, Start, shuffle_deal

    folder = tmp_path / "state"
    folder.write_text("a file where the folder should be")  # the journal cannot be opened
    keeper = JournalKeeper.open(folder / "journal.sqlite3", "boot-1", 0)
    assert keeper.journal is None and keeper.state.problem is not None
    match = keeper.begin(MatchConfig(), (None, None), 1)
    match.apply(Start(0, shuffle_deal(random.Random(5))), 2)
    keeper.sync(match, 3)
    folder.unlink()
    folder.mkdir()  # room again, but the back-off's next attempt is not due yet
    keeper.close()
    with Journal.open(folder / "journal.sqlite3") as journal:
        [record] = journal.matches()
        assert [e.step["do"] for e in journal.commands(record.id)] == ["start"]


def test_a_finished_match_written_and_backed_up_is_let_go_at_once(tmp_path: Path) -> None:
    """Its recorder stops listening to it, so the match and its rows are freed without waiting for a
    full garbage collection (the soak's memory)."""
    import gc
    import weakref

    keeper = open_keeper(tmp_path / "journal.sqlite3")
    first = kept_table(keeper, seed=11)
    play_until(first, lambda m: False)
    assert first.recorder.finished
    second = kept_table(keeper, seed=12, now=first.now + S)  # the next match: the first is done with
    play_until(second, lambda m: m.round >= 1)
    keeper.sync(second.match, second.now)
    old_match, old_recorder = first.match, first.recorder
    assert old_recorder not in keeper._recorders and old_recorder.watched is None
    assert old_match.listener is None
    gone = weakref.ref(old_match)
    gc.disable()
    try:
        del first, old_match, old_recorder
        assert gone() is None  # freed by reference counting alone: no cycle left
    finally:
        gc.enable()
        keeper.close()
