"""The match journal file: opening, schema and migrations, rows and checksums, damage, read-only folders."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from journal_support import new_table, play_until

from engine import NS_PER_S, EndReason, MatchConfig, Outcome
from kiosk.store import journal as journal_module
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

S = NS_PER_S


def open_journal(tmp_path: Path) -> Journal:
    return Journal.open(tmp_path / "journal.sqlite3")


def test_a_new_journal_uses_wal_full_sync_and_the_current_schema(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        conn = j._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert j.schema_version == journal_module.SCHEMA_VERSION
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
    proc = subprocess.run([os.sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], timeout=30)
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
    # bit rot / a torn page: the last row's snapshot changes under its checksum
    j._conn.execute("UPDATE entries SET snapshot = ? WHERE match_id = ? AND seq = ?",
                    (last.snapshot.replace('"balances":[', '"balances":[1'), last.match_id, last.seq))
    point = j.unfinished()
    assert point is not None and point.seq == last.seq - 1 and point.damaged == (last.seq,)
    assert point.snapshot == rows[-2].snapshot
    resumed = resume(j, "boot-a", table.now + S)
    assert resumed is not None and resumed.seq == last.seq - 1 and resumed.dropped == (last.seq,)
    assert "damaged" in resumed.message
    kept = j.commands(table.recorder.match_id)
    assert kept[-1].step["do"] == "restart" and kept[-1].seq == last.seq  # the restart took the freed number
    assert j._conn.execute("SELECT COUNT(*) FROM discarded_entries").fetchone()[0] == 1
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
        assert point is not None and point.seq == 4 and point.snapshot.startswith("snapshot 4")
        assert all(e.intact for e in again.commands(mid))


def test_a_file_that_is_not_a_database_is_moved_aside_and_a_new_journal_starts(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not a database, just some words left on the card" * 100)
    j = Journal.open(path, wall_clock=lambda: 0.0)
    assert len(j.warnings) == 1 and "moved aside to journal.sqlite3.corrupt-19700101T000000" in j.warnings[0]
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
    assert "could not be read" in j.warnings[0] and j.matches() == []
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
        assert "no schema version" in j.warnings[0]


def test_a_journal_from_a_newer_program_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(JournalCorrupt, match="newer kiosk"):
        Journal.open(path)
    assert path.exists() and not list(tmp_path.glob("*.corrupt-*"))


def test_older_schemas_migrate_forward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        mid = j.begin_match(MatchConfig(), (None, None))
    monkeypatch.setattr(journal_module, "_MIGRATIONS",
                        (*journal_module._MIGRATIONS, (2, "CREATE TABLE notes (match_id INTEGER, text TEXT)")))
    monkeypatch.setattr(journal_module, "SCHEMA_VERSION", 2)
    with Journal.open(path) as j:
        assert j.schema_version == 2 and j.match(mid).id == mid
        j._conn.execute("INSERT INTO notes VALUES (1, 'x')")


def test_a_second_writer_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with open_journal(tmp_path) as j:
        j.begin_match(MatchConfig(), (None, None))
        with pytest.raises(JournalUnavailable, match="in use by another kiosk process") as info:
            open_journal(tmp_path)
        assert isinstance(info.value, OSError) and isinstance(info.value, JournalError)


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
        message = str(info.value)
        assert str(folder) in message and ("read-only" in message or "cannot be opened" in message)
        assert "will not survive a restart" in message
        assert isinstance(info.value, OSError)
    finally:
        _undo_read_only(folder)


def test_a_folder_that_cannot_be_created_gives_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalUnavailable, match="cannot be created"):
        Journal.open(blocker / "sub" / "journal.sqlite3")


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
