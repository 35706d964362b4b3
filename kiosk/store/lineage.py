"""Which history a journal file belongs to, and how far it had got: the history id and the commit mark.

Every journal holds one row in its ``history`` table: an id made when the journal was started (kept
by every backup, which is a whole copy) and ``commits``, the number of transactions committed in it
(one more in each). After each commit the same two values are written to ``<name>-mark`` beside the
file (a small write, not fsynced: the commit itself is already on disk, so the mark can lag behind
the file after a crash or a power cut, never run ahead of it). At start-up a file that holds fewer
commits than its mark lost acknowledged commits — a deleted or cut-short write-ahead log, damage in
it that could not be salvaged, a backup restored in its place — which ``kiosk.store.losses`` turns
into an unrated end of the match that was in progress instead of a result from the rolled-back
position.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

HISTORY_TABLE = "history"
MARK_SUFFIX = "-mark"
_MARK_SIZE = 64
_MAGIC = "SBJ1"


@dataclass(frozen=True, slots=True)
class Mark:
    """A journal's history id and the commits it holds (or held, in the mark file)."""

    history: str
    commits: int


def new_history_id() -> str:
    """A fresh history id (32 hex digits)."""
    return uuid.uuid4().hex


def create_history(conn: sqlite3.Connection) -> None:
    """The ``history`` table with its one row: a new id, no commits yet (a migration step)."""
    conn.execute(f"CREATE TABLE {HISTORY_TABLE} (id TEXT NOT NULL, commits INTEGER NOT NULL)")
    conn.execute(f"INSERT INTO {HISTORY_TABLE} (id, commits) VALUES (?, 0)", (new_history_id(),))


def read_history(conn: sqlite3.Connection) -> Mark | None:
    """The file's history id and commit count, None when it has none (not a journal, or an old one)."""
    try:
        row = conn.execute(f"SELECT id, commits FROM {HISTORY_TABLE} LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    if row is None or not isinstance(row[0], str) or not isinstance(row[1], int):
        return None
    return Mark(row[0], int(row[1]))


def count_commit(conn: sqlite3.Connection) -> None:
    """One more commit (run inside the transaction, before its COMMIT)."""
    conn.execute(f"UPDATE {HISTORY_TABLE} SET commits = commits + 1")


def history_of(path: Path) -> str | None:
    """The history id of the database file at ``path`` (opened read-only), None when it has none."""
    try:
        conn = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        mark = read_history(conn)
    finally:
        conn.close()
    return None if mark is None else mark.history


def mark_path(path: Path) -> Path:
    """The mark file of the journal at ``path``."""
    return path.with_name(path.name + MARK_SUFFIX)


def read_mark(path: Path) -> Mark | None:
    """The mark left beside the journal at ``path``, None when there is none (or it is unreadable)."""
    try:
        text = mark_path(path).read_bytes()[:_MARK_SIZE].decode("ascii").split()
    except (OSError, UnicodeDecodeError):
        return None
    if len(text) != 3 or text[0] != _MAGIC or not text[2].isdigit():
        return None
    return Mark(text[1], int(text[2]))


FRESH = "fresh"
"""The history a mark names when a new journal was asked for (``ask_fresh``)."""


def ask_fresh(path: Path) -> None:
    """Say that the next journal at ``path`` is to start afresh: its backups are not restored into it
    (the owner's "start a new journal", after the old file was set aside)."""
    MarkFile(path).write(Mark(FRESH, 0))


class MarkFile:
    """The mark beside a journal, written in place after each commit."""

    def __init__(self, path: Path) -> None:
        self.path = mark_path(path)

    def write(self, mark: Mark) -> None:
        """Write ``mark`` (never raises: a mark that cannot be written only weakens the next check).

        Opened by name each time, so a mark deleted with the journal is made again."""
        line = f"{_MAGIC} {mark.history} {mark.commits}".ljust(_MARK_SIZE - 1) + "\n"
        with suppress(OSError):
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.pwrite(fd, line.encode("ascii"), 0)
            finally:
                os.close(fd)
