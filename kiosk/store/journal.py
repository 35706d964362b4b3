"""The match journal: every accepted command of every match, committed before the screen shows it.

One SQLite file (stdlib ``sqlite3``) in the kiosk's state directory, WAL mode, ``synchronous=FULL``,
exclusive locking (one writer: a second kiosk process gets a clear error). A table holds the schema
version; ``_MIGRATIONS`` moves an older file forward. Each journal row ("entry") is one scenario
step (``engine.scenario.action_step``; a Start carries its deal) with its arrival time (monotonic
ns), the boot id, the wall time and the engine snapshot after it, plus a SHA-256 checksum over all
of it: a damaged row is detected and the match is restored to the last good one. See
docs/journal.md for the schema, the guarantees and the decisions.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import NS_PER_MS, MatchConfig, Outcome

APP_DIR_NAME = "spectacular-bid"
JOURNAL_FILE = "journal.sqlite3"
SCHEMA_VERSION = 1


# ---------------------------------------------------------------------------------------- errors


class JournalError(Exception):
    """Anything the journal cannot do; ``str()`` is a sentence the kiosk can show."""


class JournalUnavailable(JournalError, OSError):
    """The journal cannot be opened or written (read-only or full disk, in use by another process)."""


class JournalCorrupt(JournalError, ValueError):
    """Stored data that fails its checks (a damaged file or row, a schema newer than this program)."""


class JournalUsageError(JournalError, ValueError):
    """A call that does not fit the journal's contents (unknown match, wrong sequence number, ...)."""


class ResumeFailed(JournalError, ValueError):
    """An unfinished match whose saved state cannot be restored; it has been closed as aborted."""


# ---------------------------------------------------------------------------------------- paths


def state_dir(simulator: bool) -> Path:
    """Where the journal lives: systemd's ``STATE_DIRECTORY`` when set, else a per-user data dir.

    The per-user directory is ``$XDG_DATA_HOME/spectacular-bid`` or
    ``~/.local/share/spectacular-bid`` (the simulator, or a kiosk started by hand). ``simulator``
    is accepted so the caller states its mode; both modes honour ``STATE_DIRECTORY`` (the service
    sets it, a developer's shell does not).
    """
    del simulator  # same rule in both modes; kept in the signature for the call sites' clarity
    configured = os.environ.get("STATE_DIRECTORY", "")
    if configured:
        # systemd passes a colon-separated list when the unit names several directories
        return Path(configured.split(":")[0])
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if data_home and Path(data_home).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_DIR_NAME


def journal_path(simulator: bool) -> Path:
    """The journal file in ``state_dir(simulator)``."""
    return state_dir(simulator) / JOURNAL_FILE


# ---------------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal row to write: a scenario step, the snapshot after it and when it arrived."""

    step: dict[str, Any]
    snapshot: str
    arrival_ns: int
    boot_id: str
    wall_s: float


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One journal row as read back. ``intact``: its checksum (and its snapshot's) verified."""

    match_id: int
    seq: int
    step: dict[str, Any]
    snapshot: str | None
    """None once the match is finished (only the last snapshot is kept), or when damaged."""
    snapshot_sha: str
    """SHA-256 (hex) of the snapshot text, kept when the snapshot itself is dropped."""
    arrival_ns: int
    boot_id: str
    wall_s: float
    intact: bool


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match's row: who played, when, with what configuration, and how it ended."""

    id: int
    players: tuple[int | None, int | None]
    """Named player ids; None for a guest."""
    created_wall: float
    ended_wall: float | None
    config: dict[str, Any]
    """``MatchConfig.to_dict()``."""
    finished: bool
    winner: int | None
    reason: str | None
    rated: bool | None
    detail: str | None


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where an unfinished match stands in the journal: the last good row and what follows it."""

    match: MatchRecord
    seq: int
    """The last good row's sequence number (0: no command was recorded yet)."""
    snapshot: str | None
    """The engine snapshot after that row (None when ``seq`` is 0)."""
    arrival_ns: int | None
    boot_id: str | None
    damaged: tuple[int, ...] = field(default=())
    """Sequence numbers after ``seq`` that failed their checks (dropped by ``resume``)."""

    @property
    def match_id(self) -> int:
        """The unfinished match's id."""
        return self.match.id


# ---------------------------------------------------------------------------------------- schema

_V1 = """
CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_wall REAL NOT NULL,
    rating       REAL NOT NULL,
    rd           REAL NOT NULL,
    volatility   REAL NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY,
    player0      INTEGER REFERENCES players(id),
    player1      INTEGER REFERENCES players(id),
    created_wall REAL NOT NULL,
    ended_wall   REAL,
    config       TEXT NOT NULL,
    finished     INTEGER NOT NULL DEFAULT 0,
    winner       INTEGER,
    reason       TEXT,
    rated        INTEGER,
    detail       TEXT
);
CREATE INDEX matches_unfinished ON matches(finished, id);
CREATE INDEX matches_player0 ON matches(player0);
CREATE INDEX matches_player1 ON matches(player1);
CREATE TABLE entries (
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    seq          INTEGER NOT NULL,
    step         TEXT NOT NULL,
    snapshot     TEXT,
    snapshot_sha TEXT NOT NULL,
    arrival_ns   INTEGER NOT NULL,
    boot_id      TEXT NOT NULL,
    wall         REAL NOT NULL,
    checksum     TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TABLE discarded_entries (
    match_id       INTEGER NOT NULL,
    seq            INTEGER NOT NULL,
    step           TEXT,
    snapshot       TEXT,
    snapshot_sha   TEXT,
    arrival_ns     INTEGER,
    boot_id        TEXT,
    wall           REAL,
    checksum       TEXT,
    discarded_wall REAL NOT NULL,
    why            TEXT NOT NULL
);
CREATE TABLE rating_changes (
    match_id      INTEGER NOT NULL REFERENCES matches(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    opponent_id   INTEGER NOT NULL REFERENCES players(id),
    score         REAL NOT NULL,
    rating_before REAL NOT NULL,
    rd_before     REAL NOT NULL,
    vol_before    REAL NOT NULL,
    rating_after  REAL NOT NULL,
    rd_after      REAL NOT NULL,
    vol_after     REAL NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
"""

_MIGRATIONS: tuple[tuple[int, str], ...] = ((1, _V1),)
"""(version reached, SQL script) in order; a file at version v gets every script above v."""

_REQUIRED_TABLES = frozenset({"schema_version", "players", "matches", "entries", "discarded_entries", "rating_changes"})

_DAMAGED_CODES = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite error names (prefixes) that mean the file itself is damaged: moved aside."""


class _Damaged(Exception):
    """Internal: the file cannot be used as a journal and is to be moved aside."""


def _error_name(exc: sqlite3.Error) -> str:
    return str(getattr(exc, "sqlite_errorname", "") or "")


def _is_damage(exc: sqlite3.Error) -> bool:
    name = _error_name(exc)
    if name.startswith(_DAMAGED_CODES):
        return True
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _text(raw: bytes) -> str:
    """Stored text; bytes that are not UTF-8 (a damaged page) survive as escapes and fail the checksum."""
    return raw.decode("utf-8", "surrogateescape")


def _checksum(match_id: int, seq: int, step_json: str, snapshot_sha: str, arrival_ns: int, boot_id: str,
              wall: float) -> str:
    payload = "\x1f".join((str(match_id), str(seq), step_json, snapshot_sha, str(arrival_ns), boot_id, repr(float(wall))))
    return _sha(payload)


def _timestamp(wall_s: float) -> str:
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(wall_s))


# ---------------------------------------------------------------------------------------- the journal


class Journal:
    """The open journal. Methods are thread-safe (one connection behind a lock) and each write
    commits (with ``synchronous=FULL``: on disk) before it returns."""

    def __init__(self, conn: sqlite3.Connection, path: Path, warnings: list[str]) -> None:
        """Use ``Journal.open``."""
        self._conn = conn
        self.path = path
        self.warnings = warnings
        """Sentences for the screen about what happened while opening (a file moved aside, ...)."""
        self._lock = threading.RLock()
        self._closed = False

    # -- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, wall_clock: Any = time.time) -> Journal:
        """Open (or create) the journal at ``path``.

        A file that is not a usable journal (not a database, damaged, a broken schema) is moved
        aside to ``<name>.corrupt-<UTC timestamp>`` (its ``-wal`` / ``-shm`` files with it), a
        sentence goes to ``journal.warnings`` and a new journal is started. A directory that cannot
        be created or written, or a journal held by another process, raises ``JournalUnavailable``
        (an ``OSError``): the kiosk then runs without a journal and says so. A journal written by a
        newer program raises ``JournalCorrupt`` and is left untouched.
        """
        target = Path(path)
        warnings: list[str] = []
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalUnavailable(
                f"The match journal cannot be kept: the folder {target.parent} cannot be created "
                f"({exc.strerror or exc}). Matches will not survive a restart."
            ) from exc
        if not os.access(target.parent, os.W_OK | os.X_OK):
            raise JournalUnavailable(
                f"The match journal cannot be kept: the folder {target.parent} is read-only. "
                "Matches will not survive a restart."
            )
        try:
            return cls._connect(target, warnings)
        except _Damaged as damage:
            moved = _move_aside(target, float(wall_clock()))
            warnings.append(
                f"The match journal {target.name} could not be read ({damage}); it was moved aside to "
                f"{moved.name} and a new journal was started."
            )
            try:
                return cls._connect(target, warnings)
            except _Damaged as again:
                raise JournalCorrupt(f"A new match journal could not be started at {target}: {again}") from again

    @classmethod
    def _connect(cls, path: Path, warnings: list[str]) -> Journal:
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0.2)
        except sqlite3.Error as exc:
            raise _unavailable(path, exc) from exc
        conn.text_factory = _text
        try:
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalUnavailable(
                    f"The match journal {path} cannot use write-ahead logging (mode {mode!r}): "
                    "is the folder read-only?"
                )
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            journal = cls(conn, path, warnings)
            journal._migrate()
            return journal
        except JournalError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            if _is_damage(exc):
                raise _Damaged(str(exc)) from exc
            raise _unavailable(path, exc) from exc
        except _Damaged:
            conn.close()
            raise

    def _migrate(self) -> None:
        conn = self._conn
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            if tables:
                raise _Damaged(f"it holds tables ({', '.join(sorted(tables))}) but no schema version")
            version = 0
        else:
            rows = conn.execute("SELECT version FROM schema_version").fetchall()
            if len(rows) != 1 or not isinstance(rows[0][0], int):
                raise _Damaged("its schema version is unreadable")
            version = rows[0][0]
        if version > SCHEMA_VERSION:
            raise JournalCorrupt(
                f"The match journal {self.path} was written by a newer kiosk (schema {version}, this "
                f"program knows {SCHEMA_VERSION}); it is left untouched."
            )
        for reached, script in _MIGRATIONS:
            if reached <= version:
                continue
            conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(script):
                    conn.execute(statement)
                if version == 0:
                    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                    conn.execute("INSERT INTO schema_version VALUES (?)", (reached,))
                else:
                    conn.execute("UPDATE schema_version SET version = ?", (reached,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            version = reached
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = _REQUIRED_TABLES - tables
        if missing:
            raise _Damaged(f"tables are missing: {', '.join(sorted(missing))}")

    @property
    def schema_version(self) -> int:
        """The file's schema version (``SCHEMA_VERSION`` once open)."""
        with self._read() as conn:
            return int(conn.execute("SELECT version FROM schema_version").fetchone()[0])

    def close(self) -> None:
        """Close the file (a checkpoint folds the write-ahead log back into it)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------

    def _read(self) -> _Guard:
        return _Guard(self, write=False)

    def _write(self) -> _Guard:
        return _Guard(self, write=True)

    # -- matches ---------------------------------------------------------------------------

    def begin_match(
        self,
        config: MatchConfig | dict[str, Any],
        players: Sequence[int | None] = (None, None),
        *,
        wall_s: float | None = None,
    ) -> int:
        """A new match (committed) with its configuration and players (named ids, None: guest)."""
        data = config.to_dict() if isinstance(config, MatchConfig) else dict(config)
        MatchConfig.from_dict(data)  # refuse a configuration the engine would not take
        if len(players) != 2:
            raise JournalUsageError(f"a match has two players, not {len(players)}")
        p0, p1 = players
        if p0 is not None and p0 == p1:
            raise JournalUsageError("a named player cannot play against themselves")
        wall = time.time() if wall_s is None else float(wall_s)
        with self._write() as conn:
            for p in (p0, p1):
                if p is not None and conn.execute("SELECT 1 FROM players WHERE id = ?", (p,)).fetchone() is None:
                    raise JournalUsageError(f"there is no player with id {p}")
            cursor = conn.execute(
                "INSERT INTO matches (player0, player1, created_wall, config) VALUES (?, ?, ?, ?)",
                (p0, p1, wall, _dumps(data)),
            )
            return int(cursor.lastrowid)  # type: ignore[arg-type]

    def match(self, match_id: int) -> MatchRecord:
        """The match's row; JournalUsageError when there is none."""
        with self._read() as conn:
            return self._match(conn, match_id)

    def matches(self, *, finished: bool | None = None, player_id: int | None = None, limit: int | None = None
                ) -> list[MatchRecord]:
        """Matches, newest first; optionally only (un)finished ones or those of one named player."""
        sql = f"SELECT {_MATCH_COLUMNS} FROM matches WHERE 1=1"
        args: list[Any] = []
        if finished is not None:
            sql += " AND finished = ?"
            args.append(int(finished))
        if player_id is not None:
            sql += " AND (player0 = ? OR player1 = ?)"
            args += [player_id, player_id]
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self._read() as conn:
            return [_match_record(row) for row in conn.execute(sql, args)]

    def _match(self, conn: sqlite3.Connection, match_id: int) -> MatchRecord:
        row = conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise JournalUsageError(f"there is no match {match_id} in the journal")
        return _match_record(row)

    # -- commands --------------------------------------------------------------------------

    def record(self, match_id: int, seq: int, step: dict[str, Any], snapshot_text: str, arrival_ns: int,
               boot_id: str, wall_s: float) -> None:
        """Commit one row (a command, with the snapshot after it); returns once it is on disk."""
        self.record_many(match_id, seq, [Entry(step, snapshot_text, arrival_ns, boot_id, wall_s)])

    def record_many(self, match_id: int, first_seq: int, entries: Sequence[Entry], *,
                    outcome: Outcome | None = None, wall_s: float | None = None) -> None:
        """Commit ``entries`` as rows ``first_seq``, ``first_seq + 1``, … in one transaction.

        A command and the automatic passes it caused go together, so a restart never sees one
        without the other. With ``outcome`` the match is finished in the same transaction
        (``finish``). Sequence numbers must continue the match's rows exactly.
        """
        if not entries and outcome is None:
            return
        with self._write() as conn:
            record = self._match(conn, match_id)
            if record.finished:
                raise JournalUsageError(f"match {match_id} is finished: nothing more can be recorded")
            last = conn.execute("SELECT MAX(seq) FROM entries WHERE match_id = ?", (match_id,)).fetchone()[0] or 0
            if entries and first_seq != last + 1:
                raise JournalUsageError(
                    f"match {match_id}: the next row is number {last + 1}, not {first_seq}"
                )
            rows = []
            for i, e in enumerate(entries):
                seq = first_seq + i
                step_json = _dumps(e.step)
                snap_sha = _sha(e.snapshot)
                wall = float(e.wall_s)
                rows.append((match_id, seq, step_json, e.snapshot, snap_sha, int(e.arrival_ns), e.boot_id, wall,
                             _checksum(match_id, seq, step_json, snap_sha, int(e.arrival_ns), e.boot_id, wall)))
            conn.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            if outcome is not None:
                self._finish(conn, record, outcome, wall_s)

    def finish(self, match_id: int, outcome: Outcome, *, wall_s: float | None = None) -> None:
        """Mark the match finished with ``outcome``; rate it when it counts (``players.rate_finished``).

        Only the last snapshot is kept (earlier ones are dropped to keep the file small: the steps
        replay every state). Finishing a finished match is refused.
        """
        with self._write() as conn:
            record = self._match(conn, match_id)
            if record.finished:
                raise JournalUsageError(f"match {match_id} is already finished")
            self._finish(conn, record, outcome, wall_s)

    def _finish(self, conn: sqlite3.Connection, record: MatchRecord, outcome: Outcome, wall_s: float | None) -> None:
        from kiosk.store.players import rate_finished  # players imports nothing from here at run time

        wall = time.time() if wall_s is None else float(wall_s)
        conn.execute(
            "UPDATE matches SET finished = 1, ended_wall = ?, winner = ?, reason = ?, rated = ?, detail = ? "
            "WHERE id = ?",
            (wall, outcome.winner, outcome.reason.value, int(outcome.rated), outcome.detail, record.id),
        )
        conn.execute(
            "UPDATE entries SET snapshot = NULL WHERE match_id = ? AND seq < "
            "(SELECT MAX(seq) FROM entries WHERE match_id = ?)",
            (record.id, record.id),
        )
        rate_finished(conn, record.id, record.players, outcome)

    def commands(self, match_id: int) -> list[StoredEntry]:
        """Every row of the match in order, each with ``intact`` telling whether it verified."""
        with self._read() as conn:
            self._match(conn, match_id)
            rows = conn.execute(
                "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum FROM entries "
                "WHERE match_id = ? ORDER BY seq",
                (match_id,),
            ).fetchall()
        return [_stored(match_id, row) for row in rows]

    def last_good(self, match_id: int) -> tuple[StoredEntry | None, tuple[int, ...]]:
        """The match's last row that verifies (with its snapshot), and the damaged rows after it."""
        damaged: list[int] = []
        with self._read() as conn:
            for row in conn.execute(
                "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum FROM entries "
                "WHERE match_id = ? ORDER BY seq DESC",
                (match_id,),
            ):
                try:
                    entry = _stored(match_id, row)
                except (TypeError, ValueError):
                    entry = None
                if entry is not None and entry.intact and entry.snapshot is not None:
                    return entry, tuple(reversed(damaged))
                damaged.append(int(row[0]))
        return None, tuple(reversed(damaged))

    def unfinished(self) -> ResumePoint | None:
        """The newest unfinished match and its last good row, or None when every match is finished."""
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_MATCH_COLUMNS} FROM matches WHERE finished = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
        if row is None:
            return None
        record = _match_record(row)
        entry, damaged = self.last_good(record.id)
        if entry is None:
            return ResumePoint(record, 0, None, None, None, damaged)
        return ResumePoint(record, entry.seq, entry.snapshot, entry.arrival_ns, entry.boot_id, damaged)

    def discard_after(self, match_id: int, seq: int, why: str, *, wall_s: float | None = None) -> int:
        """Move the match's rows after ``seq`` to ``discarded_entries`` (kept for inspection)."""
        wall = time.time() if wall_s is None else float(wall_s)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO discarded_entries SELECT match_id, seq, step, snapshot, snapshot_sha, arrival_ns, "
                "boot_id, wall, checksum, ?, ? FROM entries WHERE match_id = ? AND seq > ?",
                (wall, why, match_id, seq),
            )
            cursor = conn.execute("DELETE FROM entries WHERE match_id = ? AND seq > ?", (match_id, seq))
            return int(cursor.rowcount)

    # -- audit export ------------------------------------------------------------------------

    def export_scenario(self, match_id: int, *, name: str | None = None) -> dict[str, Any]:
        """The match as a conformance scenario (shared/conformance/FORMAT.md).

        ``python -m engine.replay`` on it reproduces the stored final state. Times become
        milliseconds since the match's first row (fractions when the arrival was not on a whole
        millisecond, so the replay sees the same nanoseconds). A restart in another boot, or
        with a monotonic clock that went backwards, starts a new time base: it is placed at the
        previous step's time (nothing can run across it unproven). An abort by the kiosk (a
        stall) becomes ``restart`` with ``same_boot: false`` at the previous step's time: the
        engine's abort on a restart in another boot charges nothing, exactly like the kiosk's.
        """
        record = self.match(match_id)
        entries = self.commands(match_id)
        for e in entries:
            if not e.intact:
                raise JournalCorrupt(f"match {match_id}: row {e.seq} is damaged; the match cannot be exported whole")
        for expected, e in enumerate(entries, start=1):
            if e.seq != expected:
                raise JournalCorrupt(f"match {match_id}: row {expected} is missing")
        cfg = record.config
        scenario: dict[str, Any] = {
            "name": name or f"kiosk-match-{match_id}",
            "config": {
                "balances": list(cfg["balances"]),
                "bank_ms": [_ns_to_ms(v) for v in cfg["bank_ns"]],
                "delay_ms": _ns_to_ms(cfg["delay_ns"]),
                "handover": cfg["handover"],
                "jockey": cfg["jockey"],
            },
            "deals": [],
            "steps": [],
        }
        origin: int | None = None
        t_prev = 0
        for e in entries:
            step = dict(e.step)
            kind = step.get("do")
            if kind == "abort":
                t_ns = t_prev
                step = {"do": "restart", "same_boot": False}
            elif origin is None:
                origin, t_ns = e.arrival_ns, 0
            elif kind == "restart" and not step.get("same_boot", True):
                origin = e.arrival_ns - t_prev
                t_ns = t_prev
            else:
                t_ns = e.arrival_ns - origin
                if t_ns < t_prev:
                    raise JournalCorrupt(f"match {match_id}: row {e.seq} is stamped before the row it follows")
            if kind == "start":
                deal = step.pop("deal", None)
                if deal is None:
                    raise JournalCorrupt(f"match {match_id}: the Start in row {e.seq} has no deal")
                scenario["deals"].append(deal)
            step.pop("reason", None)
            step["t"] = _ns_to_ms(t_ns)
            scenario["steps"].append(step)
            t_prev = t_ns
        return scenario

    def replay_states(self, match_id: int) -> Iterator[tuple[dict[str, Any], Any]]:
        """Each step of the exported match with the engine ``Match`` after it (the step-through view)."""
        from engine import IllegalAction
        from engine.match import Match
        from engine.scenario import parse_scenario, step_action
        from engine.snapshot import restore_text, save_text

        scenario = parse_scenario(self.export_scenario(match_id))
        boot = 0
        match = Match(scenario.config, boot_id="replay-boot-0")
        for step in scenario.steps:
            now_ns = round(step["t"] * NS_PER_MS)
            match.advance(now_ns)
            kind = step["do"]
            if kind == "restart":
                if not step.get("same_boot", True):
                    boot += 1
                match, _ = restore_text(save_text(match), boot_id=f"replay-boot-{boot}", now_ns=now_ns)
            elif kind != "tick":
                try:
                    match.apply(step_action(step, match, scenario.deals), now_ns)
                except IllegalAction as exc:
                    raise JournalCorrupt(f"match {match_id}: a stored step is refused on replay: {exc}") from exc
            yield step, match


class _Guard:
    """The lock around the one connection; a write also wraps BEGIN IMMEDIATE … COMMIT."""

    def __init__(self, journal: Journal, write: bool) -> None:
        self.journal = journal
        self.write = write

    def __enter__(self) -> sqlite3.Connection:
        j = self.journal
        j._lock.acquire()
        if j._closed:
            j._lock.release()
            raise JournalUsageError("the journal is closed")
        if self.write:
            try:
                j._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                j._lock.release()
                raise _runtime_error(j.path, exc) from exc
        return j._conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        j = self.journal
        try:
            if self.write:
                if exc_type is None:
                    try:
                        j._conn.execute("COMMIT")
                    except sqlite3.Error as error:
                        _rollback(j._conn)
                        raise _runtime_error(j.path, error) from error
                else:
                    _rollback(j._conn)
            if exc_type is not None and issubclass(exc_type, sqlite3.Error):
                raise _runtime_error(j.path, exc) from exc
            return False
        finally:
            j._lock.release()


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _runtime_error(path: Path, exc: sqlite3.Error) -> JournalError:
    if isinstance(exc, sqlite3.IntegrityError):
        return JournalUsageError(f"The match journal refused a row: {exc}")
    if _is_damage(exc):
        return JournalCorrupt(f"The match journal {path} is damaged: {exc}")
    return _unavailable(path, exc)


def _unavailable(path: Path, exc: sqlite3.Error) -> JournalUnavailable:
    name = _error_name(exc)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        why = "it is in use by another kiosk process"
    elif name.startswith("SQLITE_READONLY"):
        why = "it is read-only"
    elif name.startswith("SQLITE_FULL"):
        why = "the disk is full"
    elif name.startswith("SQLITE_CANTOPEN"):
        why = "the file cannot be opened (is the folder read-only?)"
    else:
        why = str(exc)
    return JournalUnavailable(f"The match journal {path} cannot be used: {why}. Matches will not survive a restart.")


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _move_aside(path: Path, wall_s: float) -> Path:
    stamp = _timestamp(wall_s)
    n = 0
    while True:
        target = path.with_name(f"{path.name}.corrupt-{stamp}" + (f"-{n}" if n else ""))
        if not target.exists():
            break
        n += 1
    try:
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        path.rename(target)
    except OSError as exc:
        raise JournalUnavailable(
            f"The match journal {path} is damaged and cannot be moved aside ({exc.strerror or exc}). "
            "Matches will not survive a restart."
        ) from exc
    return target


_MATCH_COLUMNS = "id, player0, player1, created_wall, ended_wall, config, finished, winner, reason, rated, detail"


def _match_record(row: Sequence[Any]) -> MatchRecord:
    try:
        config = json.loads(row[5])
    except (TypeError, ValueError) as exc:
        raise JournalCorrupt(f"match {row[0]}: its configuration is unreadable") from exc
    return MatchRecord(
        id=int(row[0]),
        players=(row[1], row[2]),
        created_wall=float(row[3]),
        ended_wall=None if row[4] is None else float(row[4]),
        config=config,
        finished=bool(row[6]),
        winner=row[7],
        reason=row[8],
        rated=None if row[9] is None else bool(row[9]),
        detail=row[10],
    )


def _stored(match_id: int, row: Sequence[Any]) -> StoredEntry:
    seq, step_json, snapshot, snap_sha, arrival_ns, boot_id, wall, checksum = row
    intact = (
        isinstance(step_json, str)
        and isinstance(snap_sha, str)
        and isinstance(arrival_ns, int)
        and isinstance(boot_id, str)
        and isinstance(wall, float)
        and checksum == _checksum(match_id, seq, step_json, snap_sha, arrival_ns, boot_id, wall)
        and (snapshot is None or (isinstance(snapshot, str) and _sha(snapshot) == snap_sha))
    )
    step: dict[str, Any] = {}
    if intact:
        try:
            loaded = json.loads(step_json)
            step = loaded if isinstance(loaded, dict) else {}
            intact = isinstance(loaded, dict)
        except ValueError:
            intact = False
    return StoredEntry(
        match_id=match_id,
        seq=int(seq),
        step=step,
        snapshot=snapshot if intact else None,
        snapshot_sha=snap_sha if isinstance(snap_sha, str) else "",
        arrival_ns=arrival_ns if isinstance(arrival_ns, int) else 0,
        boot_id=boot_id if isinstance(boot_id, str) else "",
        wall_s=float(wall) if isinstance(wall, (int, float)) else 0.0,
        intact=intact,
    )


def _ns_to_ms(ns: int) -> int | float:
    """Milliseconds as a whole number when exact, else a fraction that rounds back to ``ns``."""
    whole, rest = divmod(int(ns), NS_PER_MS)
    if rest == 0:
        return whole
    value = ns / NS_PER_MS
    if round(value * NS_PER_MS) != ns:  # pragma: no cover - only beyond 2**53 ns (104 days)
        raise JournalCorrupt(f"a time of {ns} ns cannot be written exactly in milliseconds")
    return value
