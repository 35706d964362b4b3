"""Never dark on storage, for real (issue 12's "Done when"): the real ``python -m kiosk`` process
survives a full disk (at start and mid-match), a damaged page and a deleted journal while staying
up and answering its serial panel, and every command pressed is in the journal afterwards.

Each test starts ``python -m kiosk --simulator`` (SDL's dummy drivers, its state directory in the
test's folder) with a serial panel on a pty (``hardware.ptyboard.PtyBoard``) and drives it only
through that panel: ``BTN <player> ACCEPT`` lines (at home: a new match; on the ready screen:
Start; at a hand-over: reveal), each checked by the display lines the board gets back. The disk is
a real 512 KiB tmpfs filled with a junk file (needs root to mount; skipped otherwise), so SQLite
gets ENOSPC from the kernel. The process is stopped by SIGTERM (a clean stop, exit status 0) and
only then is the journal read (it is opened in SQLite's exclusive locking mode)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from journal_support import new_table, play_until

from hardware.ptyboard import PtyBoard
from kiosk.store.journal import Journal
from kiosk.store.records import MatchRecord, StoredEntry

pytestmark = pytest.mark.slow

WAIT = 10.0
"""Seconds for any one thing the kiosk should do at once (a frame is 1/30 s; slack for a busy CI)."""
GAP = 0.4
"""Seconds between two presses: closer presses of one button across a screen change are repeats."""
TINY_DISK = "512k"
FULL_AT_START = "journal: Results are not being saved: the disk is full."
"""What ``python -m kiosk`` writes to stderr when the journal cannot be opened at start for lack of room."""


# -- the disk ------------------------------------------------------------------------------------


@contextlib.contextmanager
def tiny_disk(where: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs mounted at ``where`` for the block (skips the test where mounting is not allowed)."""
    mount = shutil.which("mount")
    if mount is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root and mount(8) to mount a tiny tmpfs as a full disk")
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([mount, "-t", "tmpfs", "-o", f"size={TINY_DISK}", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode})")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True, check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def fill(folder: Path) -> Path:
    """Write a junk file into ``folder`` until its file system has not a byte left; returns it."""
    junk = folder / "junk"
    fd = os.open(junk, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        chunk = 1 << 16
        while True:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                if chunk == 1:
                    break
                chunk //= 2
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    return junk


def size(path: Path) -> int:
    """The file's size, 0 when it does not exist."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def until(predicate: Callable[[], bool], timeout: float, what: str, kiosk: Kiosk) -> None:
    """Poll ``predicate`` every 50 ms until it holds; fail with the kiosk's stderr after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert kiosk.alive(), f"the kiosk died while waiting for {what}:\n{kiosk.stderr()}"
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout} s: {what}\n{kiosk.stderr()}")
        time.sleep(0.05)


# -- the kiosk and its panel -------------------------------------------------------------------------


class Kiosk:
    """``python -m kiosk`` running with a serial panel on a pty that the test plays."""

    def __init__(self, tmp_path: Path, journal: Path) -> None:
        self.journal = journal
        self.board = PtyBoard(tmp_path / "panel", name="NEVERDARK")
        self.board.plug()
        config = tmp_path / "config.toml"
        config.write_text(
            '[display]\nsize = "800x480"\n'
            "[match]\nhandover = true\nbank_seconds = 120\ndelay_seconds = 10\nbalances = 150\n"
            '[hardware]\nbackend = "mock"\n'
            f'[serial]\nenabled = true\nurl = "{tmp_path / "panel"}"\nreconnect_max_s = 0.2\n')
        env = {key: value for key, value in os.environ.items()
               if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "DISPLAY", "WAYLAND_DISPLAY")}
        home = tmp_path / "home"
        env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", HOME=str(home),
                   XDG_DATA_HOME=str(home / "data"), XDG_STATE_HOME=str(home / "state"),
                   XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"),
                   STATE_DIRECTORY=str(tmp_path / "state"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
        (tmp_path / "run").mkdir(exist_ok=True)
        self.err_path = tmp_path / "kiosk.stderr"
        self.last_press = 0.0
        self.turn: int | None = None
        with open(self.err_path, "w") as err, open(tmp_path / "kiosk.stdout", "w") as out:
            self.child = subprocess.Popen(
                [sys.executable, "-P", "-m", "kiosk", "--simulator", "--journal", str(journal),
                 "--config", str(config)], cwd=tmp_path, env=env, stdout=out, stderr=err,
                stdin=subprocess.DEVNULL)

    def alive(self) -> bool:
        return self.child.poll() is None

    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")

    def said(self, text: str, timeout: float = 60) -> float:
        """Wait until the kiosk wrote ``text`` to stderr; the monotonic time it was first seen."""
        until(lambda: text in self.stderr(), timeout, f"{text!r} on stderr", self)
        return time.monotonic()

    def lines(self, predicate: Callable[[list[bytes]], bool], what: str, timeout: float = WAIT) -> list[bytes]:
        """Wait until the lines the board got since the last press satisfy ``predicate``."""
        if not self.board.wait_for(predicate, timeout):
            pytest.fail(f"the board never got {what}; it got {self.board.lines[-30:]}\n"
                        f"alive: {self.alive()}\n{self.stderr()}")
        assert self.alive(), self.stderr()
        return list(self.board.lines)

    def connected(self) -> None:
        """The handshake: the kiosk says HELLO, the board answers, the kiosk sends its whole state."""
        self.lines(lambda got: b"HELLO SB 1 KIOSK" in got and b"STATE IDLE" in got and b"BID - -" in got,
                   "HELLO and the home screen's state", timeout=60)

    def press(self, button: str, player: int, expect: Callable[[list[bytes]], bool], what: str) -> list[bytes]:
        """One press on the panel (``GAP`` after the last), then wait for the display lines it causes."""
        wait = self.last_press + GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.board.take_lines()
        self.board.send_line(f"BTN {player} {button}")
        self.last_press = time.monotonic()
        got = self.lines(expect, what)
        for line in got:
            if line.startswith(b"TURN ") and line != b"TURN -":
                self.turn = int(line.split()[1])
        return got

    def new_match(self) -> None:
        """At home, ACCEPT: a new match, its ready screen (the balances appear)."""
        self.press("ACCEPT", 0, lambda got: b"BAL 0 150" in got and b"BAL 1 150" in got, "the ready screen")

    def start(self) -> None:
        """On the ready screen, ACCEPT: Start (the match is begun and dealt); a hand-over follows."""
        self.press("ACCEPT", 0, lambda got: b"STATE HAND_OVER" in got and any(
            line in (b"TURN 0", b"TURN 1") for line in got), "the hand-over after Start")

    def reveal(self) -> None:
        """At the hand-over, the player to act presses ACCEPT: their hand is shown, their clock runs."""
        assert self.turn is not None
        self.press("ACCEPT", self.turn, lambda got: b"STATE PLAY" in got, "the play after the reveal")

    def answers(self, state: str) -> None:
        """The panel still works: a board that says HELLO again gets the whole state (``STATE state``)."""
        assert self.alive(), self.stderr()
        self.board.take_lines()
        self.board.send_line("HELLO SB 1 NEVERDARK")
        self.lines(lambda got: f"STATE {state}".encode() in got and any(line.startswith(b"BID ") for line in got),
                   f"the whole state again (STATE {state})")

    def stop(self) -> str:
        """SIGTERM (systemd's stop): the kiosk must leave cleanly, exit status 0; returns its stderr."""
        assert self.alive(), f"the kiosk is not running any more:\n{self.stderr()}"
        self.child.send_signal(signal.SIGTERM)
        try:
            status = self.child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"no exit within 30 s of SIGTERM\n{self.stderr()}")
        err = self.stderr()
        assert status == 0, err
        assert "Traceback" not in err, err
        return err

    def kill(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
            self.child.wait(timeout=30)
        self.board.unplug()


@contextlib.contextmanager
def kiosk(tmp_path: Path, journal: Path) -> Iterator[Kiosk]:
    running = Kiosk(tmp_path, journal)
    try:
        yield running
    finally:
        running.kill()


def stored(journal: Path) -> list[tuple[MatchRecord, list[StoredEntry]]]:
    """Every match in the journal file with its rows, oldest first, as the kiosk's store reads them."""
    opened = Journal.open(journal)
    try:
        assert not opened.warnings, [str(w) for w in opened.warnings]
        return [(record, opened.commands(record.id)) for record in sorted(opened.matches(), key=lambda r: r.id)]
    finally:
        opened.close()


def steps(entries: list[StoredEntry]) -> list[str]:
    assert all(entry.intact for entry in entries)
    return [entry.step["do"] for entry in entries]


# -- the tests ---------------------------------------------------------------------------------------


def test_a_full_disk_at_start_the_kiosk_plays_and_saves_the_match_once_there_is_room(tmp_path: Path) -> None:
    with tiny_disk(tmp_path / "disk") as disk:
        junk = fill(disk)
        journal = disk / "journal.sqlite3"
        with kiosk(tmp_path, journal) as k:
            k.said(FULL_AT_START)
            k.connected()
            k.new_match()
            k.start()
            k.reveal()
            k.answers("PLAY")
            assert size(journal) == 0 and size(journal.with_name("journal.sqlite3-wal")) == 0  # nothing saved yet
            junk.unlink()  # room again: the keeper's next attempt (1, 2, 4, 8 s after the failures) opens it
            until(lambda: size(journal) > 0 or size(journal.with_name("journal.sqlite3-wal")) > 0, 20,
                  "the journal written once there was room", k)
            k.answers("PLAY")
            k.stop()
        [(record, entries)] = stored(journal)
        assert not record.finished
        assert steps(entries) == ["start", "reveal"]
        assert entries[1].step["player"] == k.turn


def test_a_full_disk_mid_match_the_kiosk_goes_on_and_saves_every_command_later(tmp_path: Path) -> None:
    with tiny_disk(tmp_path / "disk") as disk:
        journal = disk / "journal.sqlite3"
        wal = journal.with_name("journal.sqlite3-wal")
        with kiosk(tmp_path, journal) as k:
            k.connected()
            k.new_match()
            k.start()  # in the fault log before the board is told; on the card a moment later
            until(lambda: size(wal) > 0, WAIT, "the Start on the card", k)
            junk = fill(disk)
            k.reveal()  # its commit meets ENOSPC
            k.answers("PLAY")
            refused = size(wal)
            assert os.statvfs(disk).f_bavail == 0  # the disk really stayed full
            junk.unlink()
            until(lambda: size(wal) > refused, 15, "the reveal written after the retry", k)
            k.answers("PLAY")
            k.stop()
        [(record, entries)] = stored(journal)
        assert not record.finished
        assert steps(entries) == ["start", "reveal"]
        assert entries[1].step["player"] == k.turn


def test_a_journal_deleted_while_the_kiosk_runs_is_written_again_whole(tmp_path: Path) -> None:
    journal = tmp_path / "journal" / "journal.sqlite3"
    journal.parent.mkdir()
    with kiosk(tmp_path, journal) as k:
        k.connected()
        k.new_match()
        k.start()
        assert journal.exists()
        for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"):
            journal.with_name(name).unlink(missing_ok=True)
        assert not journal.exists()
        k.reveal()  # the next commit notices the file is gone and writes it again
        until(journal.exists, WAIT, "the journal file written again", k)
        k.answers("PLAY")
        k.stop()
    assert sorted(p.name for p in journal.parent.iterdir() if not p.name.endswith(("-wal", "-shm", "-mark"))) == [
        "journal.sqlite3"]  # no copy left over (.rewrite), nothing moved aside
    [(record, entries)] = stored(journal)
    assert not record.finished
    assert steps(entries) == ["start", "reveal"]


def earlier_run(journal: Path, *, finished: bool) -> int:
    """What an earlier run left: a finished match (then a backup holding it) and an unfinished one,
    or only the unfinished one. Returns the rows of the finished match (0 without one)."""
    opened = Journal.open(journal)
    try:
        rows = 0
        if finished:
            table = new_table(opened, seed=7)
            play_until(table, lambda m: m.is_over)
            assert table.match.is_over
            rows = len(opened.commands(table.recorder.match_id))
            assert journal.with_name("journal.sqlite3.backup-1").exists()
        unfinished = new_table(opened, seed=8)
        for _ in range(5):
            unfinished.step()
        assert len(opened.matches()) == (2 if finished else 1)
    finally:
        opened.close()
    return rows


def damage_entries_root_page(journal: Path) -> None:
    """Overwrite the page-type byte of the ``entries`` table's root page in the closed file (as
    ``journal_support.damage_table_page`` does to an open one)."""
    conn = sqlite3.connect(journal)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").fetchone()[0])
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    finally:
        conn.close()
    with open(journal, "r+b") as f:
        f.seek((root - 1) * page_size + (100 if root == 1 else 0))
        f.write(b"\xff")
        f.flush()
        os.fsync(f.fileno())
    conn = sqlite3.connect(journal)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="malformed"):
            conn.execute("SELECT COUNT(*) FROM entries").fetchone()
    finally:
        conn.close()


@pytest.mark.parametrize("finished", [True, False], ids=["with-a-backup", "without-a-backup"])
def test_a_damaged_page_at_start_is_moved_aside_and_the_kiosk_plays_and_saves(tmp_path: Path, finished: bool) -> None:
    journal = tmp_path / "journal" / "journal.sqlite3"
    journal.parent.mkdir()
    rows = earlier_run(journal, finished=finished)
    damage_entries_root_page(journal)
    with kiosk(tmp_path, journal) as k:
        k.connected()  # at home: the damaged file's unfinished match could not be resumed
        k.new_match()
        k.start()
        k.reveal()
        k.answers("PLAY")
        k.stop()
    [aside] = journal.parent.glob("journal.sqlite3.corrupt-*")  # the damaged file, moved aside whole
    assert re.fullmatch(r"journal\.sqlite3\.corrupt-\d{8}T\d{6}", aside.name), aside.name
    conn = sqlite3.connect(aside)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="malformed"):
            conn.execute("SELECT COUNT(*) FROM entries").fetchone()
    finally:
        conn.close()
    matches = stored(journal)
    if finished:  # the backup was restored: the earlier finished match, then the new one
        (old, old_entries), (new, new_entries) = matches
        assert old.finished and len(old_entries) == rows and all(e.intact for e in old_entries)
    else:  # no backup: a fresh journal with only the new match
        [(new, new_entries)] = matches
    assert not new.finished
    assert steps(new_entries) == ["start", "reveal"]


def test_a_stop_soon_after_a_full_disk_at_start_has_room_again_still_saves_the_match(tmp_path: Path) -> None:
    with tiny_disk(tmp_path / "disk") as disk:
        junk = fill(disk)
        journal = disk / "journal.sqlite3"
        with kiosk(tmp_path, journal) as k:
            opened = k.said(FULL_AT_START)  # printed right after the first attempt to open it failed
            k.connected()
            k.new_match()
            k.start()
            k.reveal()
            # the keeper tried again about 1, 3 and 7 s after the first attempt (each up to a second late: the
            # frame loop sleeps while nothing moves) and failed; the next attempt is 8 s after the last one
            time.sleep(max(0.0, opened + 12 - time.monotonic()))
            junk.unlink()
            k.stop()  # systemd's stop, with room on the disk: the keeper's close() is the last chance
        assert size(journal) > 0, "the match played while the disk was full was not saved at the stop"
        [(_record, entries)] = stored(journal)
        assert steps(entries) == ["start", "reveal"]


@pytest.mark.parametrize("how", ["deleted", "empty"])
def test_a_journal_deleted_or_emptied_before_start_is_restored_from_its_backup_and_said(tmp_path: Path,
                                                                                        how: str) -> None:
    """Issue 26: the history never vanishes silently: the newest backup comes back, and the kiosk says so."""
    journal = tmp_path / "journal" / "journal.sqlite3"
    journal.parent.mkdir()
    rows = earlier_run(journal, finished=True)
    for name in ("journal.sqlite3-wal", "journal.sqlite3-shm"):
        journal.with_name(name).unlink(missing_ok=True)
    if how == "deleted":
        journal.unlink()
    else:
        journal.write_bytes(b"")
    with kiosk(tmp_path, journal) as k:
        k.said("were restored from the backup of")  # the notice the screen shows, also on stderr
        k.connected()
        k.new_match()
        k.start()
        k.answers("HAND_OVER")
        k.stop()
    (old, old_entries), (new, new_entries) = stored(journal)
    assert old.finished and len(old_entries) == rows
    assert not new.finished and steps(new_entries) == ["start"]
