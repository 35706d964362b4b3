"""``SyncWorker``: the club sync inside the kiosk process, on a thread of its own.

The frame loop never waits for it: the worker reads the journal through its lock one small piece at
a time (one match per read; the journal is opened with exclusive locking, so a second connection
cannot read it), talks to the hub holding no lock, and writes its bookkeeping as jobs on the store's
writer thread (``StoreWriter``), between the keeper's own commits, as every other write does. While
the hub is away it backs off (``kiosk.store.keeper.Backoff``: 5 s doubling up to 5 minutes, on the
kiosk's monotonic clock); otherwise a round runs every ``interval_ns`` and sends only what is unsent,
and the roster is downloaded after uploads and at least every ``roster_every_ns``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from engine import NS_PER_S
from hardware.backoff import Backoff
from kiosk.club.client import HubClient, hub_url, read_token
from kiosk.club.errors import ClubSyncError, SyncSetupError
from kiosk.club.roster import download_roster
from kiosk.club.rounds import RoundThread
from kiosk.club.sync import Summary, SyncRound
from kiosk.store.database import Database
from kiosk.store.errors import KioskStoreError
from kiosk.store.keeper import JournalKeeper

R = TypeVar("R")


def delay_ns(backoff: Backoff, failures: int) -> int:
    """``backoff``'s wait after ``failures`` failed rounds in a row, in nanoseconds."""
    return round(backoff.delay(failures) * NS_PER_S)

INTERVAL_NS = 30 * NS_PER_S
"""A round this often while the hub answers (a finished match is at the hub within about this long)."""
ROSTER_EVERY_NS = 300 * NS_PER_S
"""The roster is downloaded at least this often (and after every round that uploaded something)."""
HUB_BACKOFF = Backoff(5.0, 2.0, 300.0)
"""The wait after failed rounds: 5 s, doubling, at most 5 minutes."""
WRITE_TIMEOUT_S = 60.0
"""How long a bookkeeping write may wait for the store's writer (a card stuck longer: the round stops)."""


class KeeperAccess:
    """The keeper's journal as a round reads and writes it: reads under the database's lock on the
    worker's thread, writes as jobs on the keeper's writer thread (or on the worker's, without one)."""

    def __init__(self, keeper: JournalKeeper, *, timeout_s: float = WRITE_TIMEOUT_S) -> None:
        self.keeper = keeper
        self.timeout_s = timeout_s
        self.writes = 0

    def _journal_database(self) -> Database:
        journal = self.keeper.journal
        if journal is None:
            raise ClubSyncError("the match journal is not open")
        return journal.database

    def read(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        with self._journal_database().read() as conn:
            return fn(conn)

    def write(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        database = self._journal_database()
        writer = self.keeper.writer
        self.writes += 1
        if writer is None:
            with database.transaction() as conn:
                return fn(conn)
        done = threading.Event()
        box: dict[str, object] = {}

        def job() -> None:
            try:
                with database.transaction() as conn:
                    box["value"] = fn(conn)
            except BaseException as exc:  # handed back to the worker's thread
                box["error"] = exc
            finally:
                done.set()

        deadline = time.monotonic() + self.timeout_s
        while not writer.submit(job, self.keeper.now_ns):
            if time.monotonic() > deadline or not writer.wait_idle(max(0.0, deadline - time.monotonic())):
                raise ClubSyncError("the journal's writer stayed busy; the sync's bookkeeping waits for the next round")
        if not done.wait(max(0.0, deadline - time.monotonic())):
            raise ClubSyncError("the journal's writer did not finish the sync's bookkeeping in time")
        if "error" in box:
            error = box["error"]
            assert isinstance(error, BaseException)
            raise error
        return box["value"]  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class SyncState:
    """How the sync stands, for the owner's status line and the logs."""

    rounds: int = 0
    failures: int = 0
    """Failed rounds in a row (0: the last round worked)."""
    error: str | None = None
    """Why the last round failed (one line, no token), or None."""
    retry_ns: int | None = None
    """When the next round runs (the kiosk's monotonic clock)."""
    last: Summary | None = None
    """The last round's summary."""


class SyncWorker(RoundThread[SyncState]):
    """Rounds of uploads (and roster downloads) on a daemon thread; ``run_once`` is one step of it."""

    def __init__(self, keeper: JournalKeeper, client: HubClient, *, clock: Callable[[], int],
                 wall_clock: Callable[[], float] = time.time, backoff: Backoff = HUB_BACKOFF,
                 interval_ns: int = INTERVAL_NS, roster_every_ns: int = ROSTER_EVERY_NS,
                 log: Callable[[str], None] | None = None) -> None:
        super().__init__(SyncState(), name="club-sync", clock=clock, log=log)
        self.keeper = keeper
        self.client = client
        self.wall_clock = wall_clock
        self.backoff = backoff
        self.interval_ns = interval_ns
        self.roster_every_ns = roster_every_ns
        self.access = KeeperAccess(keeper)
        self._roster_due_ns = 0

    def _round(self, now_ns: int) -> SyncState:
        round_ = SyncRound(self.access, self.client, wall_clock=self.wall_clock)
        try:
            summary = round_.run()
            if summary.uploads or now_ns >= self._roster_due_ns:
                summary.roster = download_roster(self.access, self.client, wall_clock=self.wall_clock)
                self._roster_due_ns = now_ns + self.roster_every_ns
        except (ClubSyncError, KioskStoreError) as exc:
            failures = self.state.failures + 1
            self._due_ns = now_ns + delay_ns(self.backoff, failures)
            why = exc.message if isinstance(exc, ClubSyncError) else str(exc.why)
            if failures in (1, 2, 4, 8) or failures % 16 == 0:
                self._say(f"club sync: {why} (attempt {failures}; next in "
                          f"{delay_ns(self.backoff, failures) / NS_PER_S:.0f} s)")
            return SyncState(self.state.rounds + 1, failures, why, self._due_ns, round_.summary)
        except Exception as exc:  # a bug in a round must not end the thread
            failures = self.state.failures + 1
            self._due_ns = now_ns + delay_ns(self.backoff, failures)
            self._say(f"club sync: internal error {type(exc).__name__}: {exc}")
            return SyncState(self.state.rounds + 1, failures, f"internal error: {type(exc).__name__}", self._due_ns,
                             round_.summary)
        self._due_ns = now_ns + self.interval_ns
        if self.state.failures or summary.uploads:
            self._say(f"club sync: {summary.line()}")
        return SyncState(self.state.rounds + 1, 0, None, self._due_ns, summary)


def start_sync(url: str, token_file: str, keeper: JournalKeeper, clock: Callable[[], int],
               log: Callable[[str], None]) -> SyncWorker | None:
    """The kiosk's worker for ``[club] url`` and ``token_file``, started; None (and a line said) when the
    club is not configured or its settings cannot work."""
    if not url:
        return None
    try:
        client = HubClient(hub_url(url), read_token(Path(token_file)))
    except SyncSetupError as exc:
        log(f"club sync: off: {exc.message}")
        return None
    return SyncWorker(keeper, client, clock=clock, log=log).start()
