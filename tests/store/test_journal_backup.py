"""Little to lose: the log folded in after each match, three rotating backups, a start-up integrity
check that restores the newest good backup, and a damaged write-ahead log repaired instead of
silently cut short (the outside tester's "one flipped byte in the WAL: 0 matches left")."""

from __future__ import annotations

import shutil
import sqlite3
import struct
import time
from pathlib import Path

from journal_support import WALL, S, Wall, count_rows, flip_byte, kept_table, play_until, unacknowledge_last

from kiosk.store.backup import check_backup
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.players import Players
from kiosk.store.resume import resume
from kiosk.store.wal import FRAME_HEADER_SIZE, HEADER_SIZE, inspect_bytes, inspect_wal

RESTORED = ("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and the players, "
            "ratings and matches were restored from the backup of {when} (players: {players}, matches: {matches}). "
            "Anything saved after that backup is lost.")
FRESH = ("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and a new journal was "
         "started.")
RECOVERED = ("Part of the match journal's write-ahead log was damaged (frame {frame}); the commits after the damage "
             "were recovered (commits recovered: {commits}) and the file passed its integrity check. A copy of the "
             "damaged log was kept as {copy}.")
LOST = ("Part of the match journal's write-ahead log was damaged (frame {frame}); the commits after the damage could "
        "not be recovered and are lost (commits lost: {commits}). A copy of the damaged log was kept as {copy}.")
PAGE = 4096


def _damage_a_table_page_written_once(wal: Path) -> int:
    """Flip the page-type byte of a table page the log writes once and never again (its damage is not
    covered by a later copy); returns that frame's number."""
    raw = wal.read_bytes()
    frames = (len(raw) - HEADER_SIZE) // (FRAME_HEADER_SIZE + PAGE)
    pages = [struct.unpack_from(">I", raw, _frame_offset(k))[0] for k in range(frames)]
    k = next(k for k in range(2, frames - 5) if pages[k] not in pages[k + 1:] and pages[k] != 1
             and raw[_frame_offset(k) + FRAME_HEADER_SIZE] in (0x02, 0x05, 0x0A, 0x0D))
    flip_byte(wal, _frame_offset(k) + FRAME_HEADER_SIZE, 0xF0)
    return k


def _history(path: Path, matches: int, *, current_rows: int = 0) -> tuple[JournalKeeper, object]:
    """A keeper with Ann and Bo, ``matches`` finished rated matches and, optionally, one in progress."""
    keeper = JournalKeeper.open(path, "boot-a", 1000 * S, wall_clock=Wall(60.0))
    players = keeper.players
    assert players is not None
    ann, bo = players.create("Ann"), players.create("Bo")
    now = 1000 * S
    table = None
    for n in range(matches):
        table = kept_table(keeper, seed=100 + n, players=(ann.id, bo.id) if n % 2 else (bo.id, ann.id), now=now)
        play_until(table, lambda m: False)
        now = table.now + S
    if current_rows:
        table = kept_table(keeper, seed=200, players=(ann.id, bo.id), now=now, balances=150)
        play_until(table, lambda m: len(table.recorder.rows) >= current_rows)
    return keeper, table


def _screens(path: Path) -> tuple[object, ...]:
    """What the player screens show: the leaderboard and each player's history."""
    with Journal.open(path) as j:
        players = Players(j)
        return tuple(players.leaderboard()), tuple(tuple(players.history(p.id)) for p in players.list())


def _root_page(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0])
    finally:
        conn.close()


def test_each_finished_match_folds_the_log_in_and_rotates_three_backups(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    wal = tmp_path / "journal.sqlite3-wal"
    keeper, _ = _history(path, 0)
    made = []
    now = 5000 * S
    for n in range(4):
        table = kept_table(keeper, seed=300 + n, now=now)
        recorder = table.recorder
        play_until(table, lambda m, recorder=recorder: recorder.saved >= 3)
        assert wal.stat().st_size > 0  # the match in progress lives in the log
        play_until(table, lambda m: False)
        assert wal.stat().st_size == 0  # folded into the file (TRUNCATE) once the match is finished
        made.append((tmp_path / "journal.sqlite3.backup-1").stat().st_mtime)
        now = table.now + S
    assert sorted(p.name for p in tmp_path.glob("*.backup-*")) == [
        "journal.sqlite3.backup-1", "journal.sqlite3.backup-2", "journal.sqlite3.backup-3"]
    infos = [check_backup(tmp_path / f"journal.sqlite3.backup-{n}", frozenset({"matches"})) for n in (1, 2, 3)]
    assert [(i.matches, i.players, i.wall_s) for i in infos if i is not None] == [
        (4, 2, made[3]), (3, 2, made[2]), (2, 2, made[1])]
    assert all(t == int(t) and t > WALL for t in made)  # the injected wall clock, not the machine's
    keeper.close()


def test_a_file_failing_its_integrity_check_at_start_up_is_replaced_by_the_newest_backup(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = _history(path, 2)
    keeper.close()
    shown = _screens(path)
    backup_time = (tmp_path / "journal.sqlite3.backup-1").stat().st_mtime
    # a wrong fragment count on a table page: every query still works, only quick_check sees it
    flip_byte(path, (_root_page(path, "matches") - 1) * PAGE + 7, 0x40)
    with Journal.open(path, wall_clock=lambda: 2_000_000_000.0) as j:
        [warning] = j.warnings
        assert warning.msgid == RESTORED
        assert warning.params["reason"].msgid == "its integrity check failed: {detail}"
        assert warning.params["when"] == time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(backup_time))
        assert (warning.params["players"], warning.params["matches"]) == (2, 2)
        assert warning.params["moved"] == "journal.sqlite3.corrupt-20330518T033320"
        assert (tmp_path / warning.params["moved"]).exists()
    assert _screens(path) == shown  # players, ratings and history are back


def test_a_damaged_newest_backup_is_passed_over_for_an_older_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = _history(path, 3)
    keeper.close()
    path.write_bytes(b"not a database any more " * 200)
    backup = tmp_path / "journal.sqlite3.backup-1"
    flip_byte(backup, (_root_page(backup, "matches") - 1) * PAGE + 7, 0x40)
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == RESTORED and warning.params["matches"] == 2
        assert warning.params["reason"] == "file is not a database"
        assert len(j.matches(finished=True)) == 2


def test_without_a_usable_backup_a_new_journal_is_started(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = _history(path, 1)
    keeper.close()
    for backup in tmp_path.glob("*.backup-*"):
        backup.write_bytes(b"x" * 4096)
    path.write_bytes(b"y" * 4096)
    with Journal.open(path) as j:
        assert [w.msgid for w in j.warnings] == [FRESH] and j.matches() == []


def _power_cut(live: Path, cut: Path) -> Path:
    """The files as a power cut leaves them (the writer never closed); the copy's journal path."""
    shutil.copytree(live, cut)
    return cut / "journal.sqlite3"


def _frame_offset(k: int) -> int:
    return HEADER_SIZE + k * (FRAME_HEADER_SIZE + PAGE)


def test_the_testers_flipped_byte_in_the_log_is_repaired_and_said(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = _history(live / "journal.sqlite3", 3, current_rows=30)
    rows = [(e.step, e.snapshot) for e in table.recorder.rows]  # type: ignore[attr-defined]
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    before = inspect_wal(wal)
    assert before is not None and not before.damaged and before.kept_commits >= 30
    flip_byte(wal, _frame_offset(2) + FRAME_HEADER_SIZE + 1000)  # one bit of frame 3's page
    after = inspect_wal(wal)
    assert after is not None and after.damaged_frame == 2 and after.lost_commits >= 25
    damaged = wal.read_bytes()
    # what SQLite alone makes of it: the commits after the flipped bit are silently gone
    control = _power_cut(tmp_path / "cut", tmp_path / "control")
    assert count_rows(control, "entries") < count_rows(live / "journal.sqlite3", "entries")
    # the finished matches were folded into the file already: their results are all there
    assert count_rows(control, "rating_changes") == count_rows(live / "journal.sqlite3", "rating_changes") > 0
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == RECOVERED
        assert warning.params["frame"] == 3 and warning.params["commits"] == after.lost_commits
        assert (tmp_path / "cut" / warning.params["copy"]).read_bytes() == damaged  # kept for inspection
        finished = j.matches(finished=True)
        assert len(finished) == 3
        point = j.unfinished()
        assert point is not None and point.seq == len(rows) and point.damaged == ()
        assert [(e.step, e.snapshot) for e in j.commands(point.match_id)] == rows
        resumed = resume(j, "boot-a", table.now + S)  # type: ignore[attr-defined]
        assert resumed is not None and resumed.seq == len(rows)
    with Journal.open(path) as j:  # the repair is for good: the next start finds nothing to say
        assert j.warnings == [] and j.unfinished() is not None


def test_a_log_damage_the_repair_cannot_mend_is_reported_with_what_is_lost(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = _history(live / "journal.sqlite3", 1, current_rows=30)
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    k = _damage_a_table_page_written_once(wal)
    lost = inspect_wal(wal)
    assert lost is not None and lost.damaged_frame == k
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == LOST and warning.params["commits"] == lost.lost_commits
        point = j.unfinished()
        kept = j.commands(point.match_id) if point is not None else []
        recorded = table.recorder.rows  # type: ignore[attr-defined]
        assert len(kept) < len(recorded)  # what was lost is said, and what is kept is the match's own start
        assert [(e.step, e.snapshot) for e in kept] == [(e.step, e.snapshot) for e in recorded[:len(kept)]]
        assert len(j.matches(finished=True)) == 1
    assert not (tmp_path / "cut" / "journal.sqlite3-wal").exists()  # no damaged log left to append to


def test_after_a_loss_the_kiosk_goes_on_and_a_later_power_cut_finds_no_stale_damage(tmp_path: Path) -> None:
    """SQLite appends after the last frame it kept; had the damaged log stayed, its later frames (which
    still chain among themselves) would sit beyond the new ones at the next power cut."""
    live = tmp_path / "live"
    live.mkdir()
    keeper, _table = _history(live / "journal.sqlite3", 1, current_rows=30)
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    _damage_a_table_page_written_once(wal)
    again = JournalKeeper.open(path, "boot-b", 5 * S, wall_clock=Wall(60.0))
    assert [n.msgid for n in again.take_notices()] == [LOST]
    again.resume(5 * S)  # whatever survived of the match in progress
    later = kept_table(again, seed=400, now=6 * S)
    play_until(later, lambda m: len(later.recorder.rows) >= 4)
    cut = _power_cut(tmp_path / "cut", tmp_path / "cut-again")  # a crash: the log is not folded in
    again.close()
    with Journal.open(cut) as j:
        assert j.warnings == []
        assert len(j.commands(later.recorder.match_id)) == len(later.recorder.rows)


def test_damage_in_the_last_transaction_may_be_a_torn_write_and_is_left_to_sqlite(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = _history(live / "journal.sqlite3", 0, current_rows=10)
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    raw = wal.read_bytes()
    frames = (len(raw) - HEADER_SIZE) // (FRAME_HEADER_SIZE + PAGE)
    flip_byte(wal, _frame_offset(frames - 1) + FRAME_HEADER_SIZE + 2000)  # the last commit's frame
    unacknowledge_last(path)  # as at a power cut mid-commit: the mark never heard of that commit
    report = inspect_wal(wal)
    before = inspect_bytes(raw)
    assert report is not None and before is not None
    assert not report.damaged and report.kept_commits < before.kept_commits
    with Journal.open(path) as j:
        assert j.warnings == []  # as after a power cut mid-write: the last transaction is not there
        point = j.unfinished()
        assert point is not None and point.seq < len(table.recorder.rows)  # type: ignore[attr-defined]


def test_a_torn_last_write_is_not_reported_as_damage(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = _history(live / "journal.sqlite3", 0, current_rows=8)
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size - 100)  # the last frame half-written: never acknowledged
    unacknowledge_last(path)
    report = inspect_wal(wal)
    assert report is not None and not report.damaged
    with Journal.open(path) as j:
        assert j.warnings == []
        point = j.unfinished()
        assert point is not None and point.seq == len(table.recorder.rows) - 1  # type: ignore[attr-defined]


def test_a_damaged_log_header_loses_nothing_either(tmp_path: Path) -> None:
    """One bit of the log's own header: SQLite ignores the whole log; the header is mended instead."""
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = _history(live / "journal.sqlite3", 1, current_rows=12)
    path = _power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = tmp_path / "cut" / "journal.sqlite3-wal"
    flip_byte(wal, 13)  # the checkpoint sequence number, covered by the header's checksum
    report = inspect_wal(wal)
    assert report is not None and report.header_damaged and report.damaged_frame == 0
    control = _power_cut(tmp_path / "cut", tmp_path / "control")
    assert count_rows(control, "entries") < count_rows(live / "journal.sqlite3", "entries")
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == RECOVERED and warning.params["frame"] == 1
        point = j.unfinished()
        rows = table.recorder.rows  # type: ignore[attr-defined]
        assert point is not None and point.seq == len(rows)
        assert [(e.step, e.snapshot) for e in j.commands(point.match_id)] == [(e.step, e.snapshot) for e in rows]
