"""Helpers for the journal tests: random matches played through a GameSession into a journal, and
real storage faults on a real SQLite file (a full disk, a card turned read-only, a damaged page)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import NS_PER_S, Resign
from kiosk.config import MatchSettings
from kiosk.store.database import Migration
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.recorder import MatchRecorder, new_recorded_match
from kiosk.store.schema import MIGRATIONS
from kiosk.table.session import GameSession, match_config

S = NS_PER_S
WALL = 1_700_000_000.0


class Wall:
    """An injected wall clock that moves ``step`` seconds per reading (from ``WALL``)."""

    def __init__(self, step: float = 1.0) -> None:
        self.now = WALL
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@dataclass
class Table:
    """A session playing into the journal, with a fake monotonic time."""

    session: GameSession
    recorder: MatchRecorder
    now: int
    rng: random.Random
    keeper: JournalKeeper | None = None
    """When set, every step syncs through the keeper (as the kiosk does) instead of the recorder."""

    @property
    def match(self):
        return self.session.match

    def step(self, gap_ns: int | None = None) -> bool:
        """One random legal command (or a tick that flags); True while the match goes on."""
        self.now += self.rng.randrange(0, 5 * S) if gap_ns is None else gap_ns
        self.session.tick(self.now)
        if not self.match.is_over:
            action = Resign(self.rng.randrange(2)) if self.rng.random() < 0.003 else self.rng.choice(
                self.match.legal_actions())
            assert self.session.command(action, self.now)
        if self.keeper is not None:
            self.keeper.sync(self.match, self.now)
        else:
            self.recorder.sync(self.match, self.now)
        return not self.match.is_over


def journal_before(path: Path, migration: Migration) -> sqlite3.Connection:
    """A journal at ``path`` as the kiosk's version before ``migration`` (one of ``schema.MIGRATIONS``) left
    it, open for rows of that version; the caller commits and closes it."""
    conn = sqlite3.connect(path)
    before = MIGRATIONS[:MIGRATIONS.index(migration)]
    for step in before:
        if callable(step):
            step(conn)
        else:
            for statement in step:
                conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {len(before)}")
    return conn


def new_table(journal: Journal | None, seed: int = 1, *, players: tuple[int | None, int | None] = (None, None),
              boot: str = "boot-a", now: int = 1000 * S, handover: bool = False, bank_s: float = 20,
              delay_s: float = 3, balances: int = 40) -> Table:
    """A new recorded match on a fresh session."""
    rng = random.Random(seed)
    settings = MatchSettings(handover=handover, bank_seconds=bank_s, delay_seconds=delay_s, balances=balances)
    session = GameSession(settings, rng, boot_id=boot)
    match, recorder = new_recorded_match(journal, match_config(settings), players, boot, wall_clock=lambda: WALL)
    session.match = match
    return Table(session, recorder, now, rng)


def play_until(table: Table, predicate, limit: int = 2000) -> None:
    """Random commands until ``predicate(match)`` holds (or the match ends)."""
    for _ in range(limit):
        if predicate(table.match) or not table.step():
            return
    raise AssertionError("the predicate never held")


def kept_table(keeper: JournalKeeper, seed: int = 1, *, players: tuple[int | None, int | None] = (None, None),
               now: int = 1000 * S, bank_s: float = 20, delay_s: float = 3, balances: int = 40) -> Table:
    """A new match begun through ``keeper`` (entered at once when the journal can take it)."""
    rng = random.Random(seed)
    settings = MatchSettings(handover=False, bank_seconds=bank_s, delay_seconds=delay_s, balances=balances)
    session = GameSession(settings, rng, boot_id=keeper.boot_id)
    session.match = keeper.begin(match_config(settings), players, now)
    recorder = keeper.current
    assert recorder is not None
    return Table(session, recorder, now, rng, keeper)


# -- real storage faults ---------------------------------------------------------------------------------


def sqlite_fds(path: Path) -> dict[int, str]:
    """This process's file descriptors open on ``path`` or its ``-wal`` (SQLite's own), by number."""
    fd_dir = Path("/proc/self/fd")
    if not fd_dir.is_dir():
        pytest.skip("needs /proc/self/fd to find SQLite's file descriptors")
    found = {}
    for entry in fd_dir.iterdir():
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if target in (str(path), f"{path}-wal"):
            found[int(entry.name)] = target
    return found


@contextmanager
def read_only_storage(path: Path) -> Iterator[None]:
    """The storage under the open journal at ``path`` turns read-only for the block, as a card the
    kernel remounted read-only after errors: the file and its log are reopened read-only under
    SQLite's own descriptors, so reads work and every write fails in the kernel (EBADF, which SQLite
    reports as SQLITE_IOERR_WRITE, "disk I/O error"). Works as root, unlike ``chmod``.
    """
    fds = sqlite_fds(path)
    assert any(t.endswith("-wal") for t in fds.values()), "the journal has no write-ahead log open yet"
    saved = {fd: os.dup(fd) for fd in fds}
    try:
        for fd, target in fds.items():
            other = os.open(target, os.O_RDONLY)
            os.dup2(other, fd)
            os.close(other)
        yield
    finally:
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)


@contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` turns read-only for the block, as a card the kernel remounted read-only: a
    read-only bind mount over it, so every new file and every rename there fails in the kernel
    (EROFS) while the descriptors SQLite already holds keep working. Needs root and mount(8); the
    test is skipped where they are not allowed."""
    mount = shutil.which("mount")
    if mount is None or os.geteuid() != 0:
        pytest.skip("needs root and mount(8) for a read-only bind mount")
    done = subprocess.run([mount, "--bind", str(folder), str(folder)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({done.stderr.strip() or done.returncode})")
    try:
        done = subprocess.run([mount, "-o", "remount,ro,bind", str(folder)], capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            pytest.skip(f"cannot remount read-only here ({done.stderr.strip() or done.returncode})")
        yield
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True, check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@contextmanager
def database_full(journal: Journal) -> Iterator[None]:
    """The file cannot grow by a page for the block: ``PRAGMA max_page_count`` set to its size, so
    SQLite's pager refuses the next page with SQLITE_FULL ("database or disk is full"), exactly as
    when the disk has no room for it. (``/dev/full`` under SQLite's descriptor would also make its
    reads return zeros, which no full disk does.)"""
    conn = journal.database.connection
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    conn.execute(f"PRAGMA max_page_count = {pages}")
    try:
        yield
    finally:
        conn.execute("PRAGMA max_page_count = 4294967294")


def damage_table_page(journal: Journal, table: str = "entries") -> int:
    """Overwrite the page-type byte of ``table``'s root page in the file under the open journal (its
    log folded in first) and drop the connection's page cache, so the next query that reads the
    table meets "database disk image is malformed". Returns the page number."""
    conn = journal.database.connection
    journal.database.checkpoint()
    root = int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0])
    size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    with open(journal.path, "r+b") as f:
        f.seek((root - 1) * size + (100 if root == 1 else 0))
        f.write(b"\xff")
        f.flush()
        os.fsync(f.fileno())
    conn.execute("PRAGMA shrink_memory")
    return root


def flip_byte(path: Path, offset: int, mask: int = 0x01) -> None:
    """Flip bits of one byte of a file (bit rot)."""
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ mask]))


def count_rows(path: Path, table: str) -> int:
    """Rows of ``table`` as plain SQLite reads the file now (no repair: what SQLite alone keeps)."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


def unacknowledge_last(path: Path, commits: int = 1) -> None:
    """Set the journal's commit mark back by ``commits``: the files as a power cut mid-commit leaves them
    (the mark is written only after a commit is on disk, so a torn commit never reached it)."""
    from kiosk.store.lineage import MarkFile, read_mark

    mark = read_mark(path)
    assert mark is not None, "no commit mark beside the journal"
    MarkFile(path).write(type(mark)(mark.history, mark.commits - commits))
