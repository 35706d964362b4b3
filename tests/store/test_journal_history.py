"""The history never disappears silently (issue 26): a missing or empty journal is restored from its
newest good backup and said; a journal of another history never rotates the old one's backups away;
a write-ahead log deleted or cut short while the kiosk was stopped is noticed (the commit mark), and
the match that was in progress is aborted unrated instead of resumed from the rolled-back position."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from journal_support import S, Wall, count_rows, kept_table, play_until

from engine import EndReason
from kiosk.store import integrity
from kiosk.store.backup import check_backup
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.lineage import history_of, read_mark
from kiosk.store.players import Players
from kiosk.store.resume import resume

RESTORED_MISSING = ("The match journal {name} could not be read ({reason}); the players, ratings and matches were "
                    "restored from the backup of {when} (players: {players}, matches: {matches}). Anything saved "
                    "after that backup is lost.")
RESTORED_ASIDE = ("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and the "
                  "players, ratings and matches were restored from the backup of {when} (players: {players}, "
                  "matches: {matches}). Anything saved after that backup is lost.")
LOG_LOST = ("The match journal holds less than the kiosk had saved before it stopped (its write-ahead log was "
            "deleted, cut short or damaged): the last commits are lost (commits lost: {commits}).")
LOSS_MESSAGE = ("The kiosk restarted, but the journal had lost the last commits of this match (commits lost: "
                "{commits}): its position and timing cannot be proven, so the match is aborted without a result.")


def history(path: Path, matches: int, *, current_rows: int = 0, seed: int = 100) -> tuple[JournalKeeper, object]:
    """A keeper with Ann and Bo and ``matches`` finished rated matches (each followed by a backup) and,
    optionally, one in progress with ``current_rows`` rows."""
    keeper = JournalKeeper.open(path, "boot-a", 1000 * S, wall_clock=Wall(60.0))
    players = keeper.players
    assert players is not None
    ann, bo = players.create("Ann"), players.create("Bo")
    now = 1000 * S
    table = None
    for n in range(matches):
        table = kept_table(keeper, seed=seed + n, players=(ann.id, bo.id), now=now)
        play_until(table, lambda m: False)
        now = table.now + S
    if current_rows:
        table = kept_table(keeper, seed=seed + 99, players=(ann.id, bo.id), now=now, balances=150, bank_s=600)
        play_until(table, lambda m: len(table.recorder.rows) >= current_rows)
    return keeper, table


def power_cut(live: Path, cut: Path) -> Path:
    """The files as a power cut leaves them (the writer never closed); the copy's journal path."""
    shutil.copytree(live, cut)
    return cut / "journal.sqlite3"


@pytest.mark.parametrize("how", ["deleted", "empty"])
def test_a_missing_or_empty_journal_with_backups_is_restored_from_the_newest_and_said(tmp_path: Path,
                                                                                       how: str) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = history(path, 3)
    keeper.close()
    with Journal.open(path) as j:
        shown = tuple(Players(j).leaderboard()), len(j.matches())
    if how == "deleted":
        path.unlink()
    else:
        path.write_bytes(b"")
    again = JournalKeeper.open(path, "boot-b", 5 * S, wall_clock=Wall(60.0))
    [notice] = again.take_notices()  # what the screen shows (the controller's banner)
    assert notice.msgid == (RESTORED_MISSING if how == "deleted" else RESTORED_ASIDE)
    assert notice.params["reason"].msgid == ("it was missing" if how == "deleted" else "it was empty")
    assert notice.params["matches"] == 3 and notice.params["players"] == 2
    assert again.journal is not None
    assert (tuple(Players(again.journal).leaderboard()), len(again.journal.matches())) == shown
    again.close()
    with Journal.open(path) as j:  # for good: the next start has nothing to say
        assert j.warnings == []


def test_a_journal_of_another_history_sets_the_old_backups_aside_never_over_them(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = history(path, 3)
    old_history = keeper.journal.database.history.history  # type: ignore[union-attr]
    keeper.start_fresh(9000 * S)  # the owner's "start a new journal": another history beside the old one
    new_history = keeper.journal.database.history.history  # type: ignore[union-attr]
    assert new_history != old_history
    now = 9000 * S
    for n in range(3):  # three finished matches: the rotation would have overwritten all three old backups
        table = kept_table(keeper, seed=500 + n, now=now)
        play_until(table, lambda m: False)
        now = table.now + S
    keeper.close()
    slots = [tmp_path / f"journal.sqlite3.backup-{n}" for n in (1, 2, 3)]
    assert [history_of(p) for p in slots] == [new_history] * 3
    aside = sorted(tmp_path.glob("journal.sqlite3.history-*.backup-*"))
    assert [history_of(p) for p in aside] == [old_history] * 3
    infos = [check_backup(p, frozenset({"matches"})) for p in aside]
    assert sorted(i.matches for i in infos if i is not None) == [1, 2, 3]  # each old backup whole
    # the old history's journal file gone with no backup of the new one: its newest backup comes back
    for p in slots:
        p.unlink()
    path.unlink()
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == RESTORED_MISSING and warning.params["matches"] == 3
        assert j.database.history is not None and j.database.history.history == old_history


@pytest.mark.parametrize("how", ["deleted", "truncated"])
def test_a_lost_log_is_said_and_the_match_in_progress_is_aborted_unrated_not_resumed(tmp_path: Path,
                                                                                    how: str) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = history(live / "journal.sqlite3", 1, current_rows=40)
    path = power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = path.with_name("journal.sqlite3-wal")
    mark = read_mark(path)
    assert mark is not None
    if how == "deleted":
        wal.unlink()
    else:
        with open(wal, "r+b") as f:
            f.truncate(wal.stat().st_size // 2)
    rows_left = count_rows(path, "entries")  # what SQLite alone keeps: the finished match, part of the other
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid == LOG_LOST and warning.params["commits"] >= 10
        assert j.database.lost is not None and j.database.lost.commits == warning.params["commits"]
        point = j.unfinished()
        if point is not None:  # the match's row survived (a half log): it must not be resumed from there
            resumed = resume(j, "boot-a", table.now + 120 * S)  # type: ignore[attr-defined]
            assert resumed is not None and resumed.aborted
            outcome = resumed.match.outcome
            assert outcome is not None and outcome.reason is EndReason.ABORTED and not outcome.rated
            assert resumed.message.msgid == LOSS_MESSAGE
            assert "nothing was lost" not in str(resumed.message)
            assert not j.match(point.match_id).rated and j.match(point.match_id).reason == "aborted"
        else:
            assert how == "deleted"
    assert count_rows(path, "entries") >= rows_left  # nothing more was lost by the abort
    with Journal.open(path) as j:  # said once: the mark now matches the file
        assert j.warnings == [] and j.database.lost is None


FRAME = 24 + 4096


@pytest.mark.parametrize("fill", [b"\0", b"\xff"], ids=["zeros", "ones"])
@pytest.mark.parametrize("frame", [2, 11])
def test_a_4k_sector_of_the_log_damaged_before_its_last_frames_is_salvaged_and_said(tmp_path: Path, fill: bytes,
                                                                                   frame: int) -> None:
    live = tmp_path / "live"
    live.mkdir()
    keeper, table = history(live / "journal.sqlite3", 1, current_rows=40)
    rows = [(e.step, e.snapshot) for e in table.recorder.rows]  # type: ignore[attr-defined]
    path = power_cut(live, tmp_path / "cut")
    keeper.close()
    wal = path.with_name("journal.sqlite3-wal")
    with open(wal, "r+b") as f:  # across a frame boundary: the end of one page and the next frame's header
        f.seek(32 + frame * FRAME + 2000)
        f.write(fill * 4096)
    with Journal.open(path) as j:
        assert j.warnings, "the damage was not said"
        point = j.unfinished()
        if frame == 11:  # pages the match writes again later: every acknowledged commit comes back
            assert j.database.lost is None  # the mark proves it
            assert point is not None and point.seq == len(rows)
            assert [(e.step, e.snapshot) for e in j.commands(point.match_id)] == rows
        else:  # the match's own first pages, written once: what is lost is said, and no result from it
            assert j.database.lost is not None and j.database.lost.commits > 0
            if point is not None:
                resumed = resume(j, "boot-a", table.now + 120 * S)  # type: ignore[attr-defined]
                assert resumed is not None and resumed.aborted and resumed.message.msgid == LOSS_MESSAGE


def test_damaged_rows_of_a_finished_match_are_found_at_start_up_and_repaired_from_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = history(path, 3)
    keeper.close()
    conn = sqlite3.connect(path)
    step = str(conn.execute("SELECT step FROM entries WHERE match_id = 1 AND seq = 5").fetchone()[0])
    conn.close()
    raw = bytearray(path.read_bytes())
    at = raw.find(step.encode())
    assert at > 0
    raw[at + len(step) // 2] ^= 0x04  # one bit of the row's text: quick_check cannot see it
    path.write_bytes(bytes(raw))
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("PRAGMA quick_check")] == ["ok"]
    conn.close()
    with Journal.open(path) as j:
        [warning] = j.warnings
        assert warning.msgid.startswith("Rows of finished matches in the match journal were damaged")
        assert warning.params["rows"] == 1 and "could not" not in warning.msgid
        assert all(e.intact for e in j.commands(1))
        assert next(e for e in j.commands(1) if e.seq == 5).step == json.loads(step)
    with Journal.open(path) as j:
        assert j.warnings == []


def test_a_large_journal_checks_its_finished_rows_in_the_background_and_gives_a_notice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite3"
    keeper, _ = history(path, 2)
    keeper.close()
    conn = sqlite3.connect(path)
    step = str(conn.execute("SELECT step FROM entries WHERE match_id = 2 AND seq = 3").fetchone()[0])
    conn.close()
    raw = bytearray(path.read_bytes())
    at = raw.find(step.encode())
    raw[at + 2] ^= 0x01
    path.write_bytes(bytes(raw))
    monkeypatch.setattr(integrity, "SYNC_ROWS", 0)  # as if the journal held more than a start-up should wait for
    with Journal.open(path) as j:
        assert j.warnings == [] and j.row_check is not None
        j.row_check.join()
        [notice] = j.take_notices()
        assert notice.msgid.startswith("Rows of finished matches in the match journal were damaged")
        assert all(e.intact for e in j.commands(2))


def test_a_journal_named_by_a_relative_path_has_its_history_and_backups_read(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``soak --journal soak.sqlite3`` (a path relative to the working folder): the history id and a
    backup are read as they are for an absolute path (``Path.as_uri`` refuses a relative path)."""
    keeper, _ = history(tmp_path / "j.sqlite3", 1)
    keeper.close()
    monkeypatch.chdir(tmp_path)
    relative = Path("j.sqlite3")
    assert history_of(relative) is not None
    assert history_of(relative) == history_of(tmp_path / "j.sqlite3")
    assert check_backup(relative, frozenset({"matches"})) is not None
