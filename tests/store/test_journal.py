"""The match journal file: opening, schema and migrations, rows and checksums, damage, read-only folders."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from journal_support import new_table, play_until

from engine import NS_PER_S, EndReason, MatchConfig, Outcome
from kiosk.i18n import Text
from kiosk.store.journal import (
    Journal,
    JournalCorrupt,
    JournalError,
    JournalUnavailable,
    JournalUsageError,
    journal_path,
    state_dir,
)
from kiosk.store.resume import resume
from kiosk.store.schema import SCHEMA_VERSION, V1

S = NS_PER_S


def open_journal(tmp_path: Path) -> Journal:
    return Journal.open(tmp_path / "journal.sqlite3")


def test_a_new_journal_uses_wal_full_sync_and_the_current_schema(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        with j.database.read() as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
            assert conn.execute("PRAGMA locking_mode").fetchone()[0] == "exclusive"
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert j.schema_version == SCHEMA_VERSION
        assert j.warnings == []


def test_rows_are_committed_in_order_and_read_back_intact(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        mid = j.begin_match(MatchConfig(), (None, None), wall_s=1.0)
        j.record(mid, 1, {"do": "start", "t": 0}, '{"a":1}', 5, "boot", 2.0)
        j.record(mid, 2, {"do": "draw", "player": 0, "t": 1}, '{"a":2}', 6, "boot", 3.0)
        with pytest.raises(JournalUsageError, match="next row is number 3"):
            j.record(mid, 5, {"do": "draw"}, "{}", 7, "boot", 4.0)
        with pytest.raises(JournalUsageError):
            j.record(mid + 1, 1, {"do": "draw"}, "{}", 7, "boot", 4.0)
        rows = j.commands(mid)
        assert [(r.seq, r.step["do"], r.snapshot, r.arrival_ns, r.intact) for r in rows] == [
            (1, "start", '{"a":1}', 5, True), (2, "draw", '{"a":2}', 6, True)]
        point = j.unfinished()
        assert point is not None and point.match_id == mid and point.seq == 2 and point.snapshot == '{"a":2}'


def test_a_write_survives_a_process_that_is_killed_right_after_it(tmp_path: Path) -> None:
    """Committed means on disk: a child records, prints, and is killed without closing anything."""
    db = tmp_path / "journal.sqlite3"
    code = (
        "import os, signal, sys\n"
        "from engine import MatchConfig\n"
        "from kiosk.store.journal import Journal\n"
        f"j = Journal.open({str(db)!r})\n"
        "m = j.begin_match(MatchConfig(), (None, None))\n"
        "j.record(m, 1, {'do': 'start'}, 'snap', 1, 'b', 1.0)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], timeout=30)
    assert proc.returncode == -9
    with Journal.open(db) as j:
        point = j.unfinished()
        assert point is not None and point.seq == 1 and point.snapshot == "snap"


def test_finishing_keeps_only_the_last_snapshot_and_refuses_more_rows(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        mid = j.begin_match(MatchConfig(), (None, None))
        for seq in (1, 2, 3):
            j.record(mid, seq, {"do": "tick"}, f"s{seq}", seq, "b", 1.0)
        j.finish(mid, Outcome(0, EndReason.RESIGN, True), wall_s=9.0)
        rows = j.commands(mid)
        assert [r.snapshot for r in rows] == [None, None, "s3"] and all(r.intact for r in rows)
        record = j.match(mid)
        assert record.finished and record.winner == 0 and record.reason == "resign" and record.ended_wall == 9.0
        assert j.unfinished() is None
        with pytest.raises(JournalUsageError, match="finished"):
            j.record(mid, 4, {"do": "tick"}, "s4", 4, "b", 1.0)
        with pytest.raises(JournalUsageError, match="already finished"):
            j.finish(mid, Outcome(1, EndReason.TIME, True))


def test_a_damaged_last_row_is_detected_and_the_match_resumes_from_the_one_before(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    table = new_table(j, seed=5)
    play_until(table, lambda m: table.recorder.next_seq > 12 and m.clock_running is None)
    play_until(table, lambda m: m.clock_running is not None)
    rows = j.commands(table.recorder.match_id)
    last = rows[-1]
    assert last.snapshot is not None
    # bit rot / a torn page: the last row's snapshot changes under its checksum
    with j.database.transaction() as conn:
        conn.execute("UPDATE entries SET snapshot = ? WHERE match_id = ? AND seq = ?",
                     (last.snapshot.replace('"balances":[', '"balances":[1'), last.match_id, last.seq))
    point = j.unfinished()
    assert point is not None and point.seq == last.seq - 1 and point.damaged == (last.seq,)
    assert point.snapshot == rows[-2].snapshot
    resumed = resume(j, "boot-a", table.now + S)
    assert resumed is not None and resumed.seq == last.seq - 1 and resumed.dropped == (last.seq,)
    assert resumed.message.msgid == "{message} The last command before the power cut was damaged and was dropped."
    # the row before the damaged one was taken with no clock running (the damaged one started it)
    assert resumed.message.params["message"].msgid == "The kiosk restarted; no clock was running, so nothing was lost."
    kept = j.commands(table.recorder.match_id)
    assert kept[-1].step["do"] == "restart" and kept[-1].seq == last.seq  # the restart took the freed number
    with j.database.read() as conn:
        assert conn.execute("SELECT seq FROM discarded_entries").fetchall() == [(last.seq,)]
    j.close()


def test_a_torn_write_ahead_log_loses_only_the_unfinished_transaction(tmp_path: Path) -> None:
    """Power cut mid-write: the WAL's last frame is cut short; SQLite drops that commit on open."""
    live = tmp_path / "live"
    live.mkdir()
    j = Journal.open(live / "journal.sqlite3")
    mid = j.begin_match(MatchConfig(), (None, None))
    for seq in range(1, 6):
        j.record(mid, seq, {"do": "tick", "t": seq}, f"snapshot {seq} " + "x" * 500, seq, "b", 1.0)
    cut = tmp_path / "cut"
    shutil.copytree(live, cut)  # the files as the power cut left them (the writer never closed)
    j.close()
    wal = cut / "journal.sqlite3-wal"
    assert wal.stat().st_size > 0
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size - 100)
    with Journal.open(cut / "journal.sqlite3") as again:
        point = again.unfinished()
        assert point is not None and point.seq == 4 and point.snapshot is not None
        assert point.snapshot.startswith("snapshot 4")
        assert all(e.intact for e in again.commands(mid))


def test_a_file_that_is_not_a_database_is_moved_aside_and_a_new_journal_starts(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a database, just some words left on the card" * 100)
    j = Journal.open(path, wall_clock=lambda: 0.0)
    [warning] = j.warnings
    assert isinstance(warning, Text) and warning.msgid == (
        "The match journal {name} could not be read ({reason}); it was moved aside to {moved} and a new journal "
        "was started.")
    assert warning.params == {"name": "journal.sqlite3", "reason": "file is not a database",
                              "moved": "journal.sqlite3.corrupt-19700101T000000"}
    assert (tmp_path / "journal.sqlite3.corrupt-19700101T000000").read_bytes().startswith(b"this is not")
    assert j.unfinished() is None and j.begin_match(MatchConfig(), (None, None)) == 1
    j.close()


def test_overwritten_bytes_in_the_database_header_move_it_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        j.begin_match(MatchConfig(), (None, None))
    with open(path, "r+b") as f:
        f.write(b"\xff" * 64)
    j = Journal.open(path)
    assert j.warnings[0].msgid.startswith("The match journal {name} could not be read ({reason})")
    assert j.matches() == []
    assert len(list(tmp_path.glob("journal.sqlite3.corrupt-*"))) == 1
    j.close()


def test_overwritten_bytes_inside_a_row_fail_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        mid = j.begin_match(MatchConfig(), (None, None))
        j.record(mid, 1, {"do": "tick"}, "A" * 2000, 1, "b", 1.0)
        j.record(mid, 2, {"do": "tick"}, "B" * 2000, 2, "b", 1.0)
    data = path.read_bytes()
    at = data.rindex(b"B" * 400) + 100
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(b"\xc3\x28 garbage \xff\xfe")
    with Journal.open(path) as j:
        point = j.unfinished()
        assert point is not None and point.seq == 1 and point.damaged == (2,)


def test_unknown_tables_without_a_version_are_not_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE something (x)")
    conn.commit()
    conn.close()
    with Journal.open(path) as j:
        reason = j.warnings[0].params["reason"]
        assert reason.msgid == "it holds tables ({tables}) but no schema version" and reason.params == {"tables": "something"}


def test_a_journal_from_a_newer_program_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(JournalCorrupt) as info:
        Journal.open(path)
    assert info.value.text.msgid.startswith("The match journal {path} was written by a newer kiosk")
    assert info.value.text.params == {"path": str(path), "version": 99, "known": SCHEMA_VERSION}
    assert path.exists() and not list(tmp_path.glob("*.corrupt-*"))


def _legacy_journal(path: Path, version: int = 1) -> None:
    """A journal as the program wrote it before ``user_version``: its version in a table."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    for statement in V1:
        conn.execute(statement)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (?)", (version,))
    conn.execute("INSERT INTO players (name, created_wall, rating, rd, volatility) VALUES ('Ann', 1, 1600, 80, 0.06)")
    conn.execute("INSERT INTO matches (player0, player1, created_wall, config) VALUES (1, NULL, 2, ?)",
                 (json.dumps(MatchConfig().to_dict()),))
    conn.commit()
    conn.close()


def test_a_journal_from_before_user_version_migrates_forward_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _legacy_journal(path)
    with Journal.open(path) as j:
        assert j.warnings == [] and j.schema_version == SCHEMA_VERSION
        assert j.match(1).players == (1, None)
        with j.database.read() as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
            assert conn.execute("SELECT name, rating FROM players").fetchall() == [("Ann", 1600.0)]
        assert "schema_version" not in tables and "rating_changes_player" in indexes
    with Journal.open(path) as j:  # and it opens again at the new version, nothing left to migrate
        assert j.schema_version == SCHEMA_VERSION and j.match(1).id == 1


def test_a_legacy_journal_from_a_newer_program_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _legacy_journal(path, version=99)
    before = path.read_bytes()
    with pytest.raises(JournalCorrupt, match="newer kiosk"):
        Journal.open(path)
    assert path.read_bytes() == before and not list(tmp_path.glob("*.corrupt-*"))


def test_a_legacy_journal_with_an_unreadable_version_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _legacy_journal(path, version=0)
    with Journal.open(path, wall_clock=lambda: 0.0) as j:
        assert j.warnings[0].params["reason"].msgid == "its schema version is unreadable"
        assert j.matches() == []


def test_a_second_writer_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        j.begin_match(MatchConfig(), (None, None))
        with pytest.raises(JournalUnavailable) as info:
            open_journal(tmp_path)
        assert isinstance(info.value, OSError) and isinstance(info.value, JournalError)
        text = info.value.text
        assert text.msgid == "The match journal {path} cannot be used: {why}. Matches will not survive a restart."
        assert text.params["why"].msgid == "it is in use by another kiosk process"
        assert str(info.value) == (f"The match journal {tmp_path / 'journal.sqlite3'} cannot be used: it is in use "
                                   "by another kiosk process. Matches will not survive a restart.")


def _make_read_only(folder: Path) -> bool:
    """Make ``folder`` unwritable even for root (immutable attribute); False when impossible here."""
    folder.chmod(0o555)
    probe = folder / ".probe"
    try:
        probe.touch()
    except OSError:
        return True
    probe.unlink()
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0:
        return True
    folder.chmod(0o755)
    return False


def _undo_read_only(folder: Path) -> None:
    if shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    folder.chmod(0o755)


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
def test_a_read_only_folder_gives_a_clear_error(tmp_path: Path, existing: bool) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    if existing:
        with Journal.open(folder / "journal.sqlite3") as j:
            j.begin_match(MatchConfig(), (None, None))
    if not _make_read_only(folder):
        pytest.skip("cannot make a read-only folder here")
    try:
        with pytest.raises(JournalUnavailable) as info:
            Journal.open(folder / "journal.sqlite3")
        text = info.value.text
        assert text.msgid == ("The match journal cannot be kept: the folder {folder} is read-only. "
                              "Matches will not survive a restart.")
        assert text.params == {"folder": str(folder)} and str(info.value) == str(text)
        assert isinstance(info.value, OSError)
    finally:
        _undo_read_only(folder)


def test_a_folder_that_cannot_be_created_gives_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalUnavailable) as info:
        Journal.open(blocker / "sub" / "journal.sqlite3")
    assert info.value.text.msgid.startswith("The match journal cannot be kept: the folder {folder} cannot be created")
    assert info.value.text.params == {"folder": str(blocker / "sub"), "error": "Not a directory"}


def test_state_dir_prefers_systemd_then_xdg_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "svc") + ":" + str(tmp_path / "other"))
    assert state_dir(False) == tmp_path / "svc" and state_dir(True) == tmp_path / "svc"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert state_dir(True) == tmp_path / "data" / "spectacular-bid"
    assert journal_path(True) == tmp_path / "data" / "spectacular-bid" / "journal.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir(True) == tmp_path / "home" / ".local" / "share" / "spectacular-bid"


def test_a_closed_journal_refuses_use(tmp_path: Path) -> None:
    j = open_journal(tmp_path)
    j.close()
    with pytest.raises(JournalUsageError, match="closed"):
        j.unfinished()
