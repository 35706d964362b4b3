"""One sync round: every unsent player and finished match uploaded in batches, the answers recorded.

The round reads the journal in small pieces (one match per read, so no read holds the journal's
lock for long) and never holds it while it talks to the hub. Each answer is written into the journal
(``kiosk.club.outbox``) before the next upload, so an interrupted round (the hub gone, the network
cut, the kiosk killed) resumes at the first key not acknowledged; sending a key again after a lost
answer changes nothing at the hub. A 409 records the refused keys and sends the rest again without
them. The journal is reached through a ``JournalAccess``: on the caller's thread (``DirectAccess``,
the command) or through the store's writer thread (``kiosk.club.worker``, in the kiosk).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from kiosk.club import outbox
from kiosk.club.client import HubClient
from kiosk.club.errors import ClubSyncError, HubConflict, HubRefused
from kiosk.store.database import Database
from kiosk.store.errors import KioskStoreError

R = TypeVar("R")


class JournalAccess(Protocol):
    """How a round reads the journal and writes its bookkeeping."""

    def read(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        """``fn`` run with the journal's connection for reading."""
        ...

    def write(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        """``fn`` run inside one committed transaction."""
        ...


class DirectAccess:
    """The journal's ``Database`` used on the caller's thread."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def read(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        with self.database.read() as conn:
            return fn(conn)

    def write(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        with self.database.transaction() as conn:
            return fn(conn)


@dataclass(slots=True)
class Summary:
    """What a round did."""

    uploads: int = 0
    players: int = 0
    verified: int = 0
    rejected: int = 0
    refused: int = 0
    unsendable: list[str] = field(default_factory=list)
    left_matches: int = 0
    left_players: int = 0
    roster: int | None = None
    """The roster version after the round's download (None: not downloaded)."""
    error: str | None = None

    @property
    def complete(self) -> bool:
        """Everything unsent is acknowledged (stored, already held or refused) and nothing failed."""
        return self.error is None and not self.left_matches and not self.left_players and not self.unsendable

    def line(self) -> str:
        """The one-line summary the command prints."""
        text = (f"{self.verified + self.rejected} matches acknowledged ({self.verified} verified, {self.rejected} "
                f"rejected), {self.players} players, {self.refused} refused in {self.uploads} uploads; "
                f"left unsent: {self.left_matches} matches, {self.left_players} players")
        if self.unsendable:
            text += f"; {len(self.unsendable)} cannot be sent ({self.unsendable[0]})"
        if self.roster is not None:
            text += f"; roster version {self.roster}"
        return text


class SyncRound:
    """One round of uploads; ``summary`` says how far it got (also when ``run`` raised)."""

    def __init__(self, access: JournalAccess, client: HubClient, *, wall_clock: Callable[[], float] = time.time,
                 between: Callable[[], None] | None = None) -> None:
        self.access = access
        self.client = client
        self.wall_clock = wall_clock
        self.between = between
        """Called between one upload and the next read (the worker yields there, the tests cut there)."""
        self.summary = Summary()
        self._skip: set[int] = set()

    def run(self) -> Summary:
        """Upload until nothing unsent is left; ClubSyncError when the hub is away or refuses (what was
        acknowledged so far stays recorded)."""
        try:
            while True:
                batch = self._next_batch()
                if not batch.players and not batch.matches:
                    break
                self._send(batch)
                if self.between is not None:
                    self.between()
        except ClubSyncError as exc:
            self.summary.error = exc.message
            raise
        finally:
            self._count_left()
        return self.summary

    def _next_batch(self) -> outbox.Batch:
        batch = outbox.Batch()
        batch.players = self.access.read(outbox.unsent_players)
        batch.size = sum(outbox.encoded_size(p) for p in batch.players) + 32
        if len(batch.players) >= outbox.MAX_PLAYERS:  # the players first, matches once they all fit
            return batch
        ids = [i for i in self.access.read(lambda c: outbox.unsent_matches(c, outbox.MAX_MATCHES + len(self._skip)))
               if i not in self._skip]
        for match_id in ids:
            try:
                match = self.access.read(lambda c, m=match_id: outbox.match_upload(c, m))  # type: ignore[misc]
            except outbox.Unsendable as exc:
                self._skip.add(match_id)
                self.summary.unsendable.append(str(exc))
                continue
            size = outbox.encoded_size(match)
            if not batch.fits(match, size):
                break
            batch.add(match, size)
        return batch

    def _send(self, batch: outbox.Batch) -> None:
        self.summary.uploads += 1
        try:
            receipt = self.client.upload(batch.body())
        except HubRefused as exc:
            if exc.status != 413 or len(batch.matches) != 1:
                raise
            # one match larger than the hub takes: recorded as refused (listed), never sent again
            refusal = [{"kind": "match", "key": batch.matches[0]["uuid"], "why": f"too large for the hub: {exc.message}"}]
            self.summary.refused += self.access.write(lambda c: outbox.record_refused(c, refusal, self.wall_clock()))
            return
        except HubConflict as exc:
            keys = batch.keys()
            mine = [c for c in exc.conflicts if isinstance(c, dict) and str(c.get("key")) in keys]
            if not mine:
                raise ClubSyncError(f"{exc.message}; the hub named no key of this upload") from None
            self.summary.refused += self.access.write(lambda c: outbox.record_refused(c, mine, self.wall_clock()))
            return
        counts = self.access.write(lambda c: outbox.record_receipt(c, receipt, self.wall_clock()))
        self.summary.players += counts[0]
        self.summary.verified += counts[1]
        self.summary.rejected += counts[2]
        answered = _answered(receipt)
        if not batch.keys() <= answered:
            missing = len(batch.keys() - answered)
            raise ClubSyncError(f"the hub's answer did not name {missing} of the keys uploaded")

    def _count_left(self) -> None:
        try:
            matches, players = self.access.read(outbox.count_unsent)
        except (KioskStoreError, ClubSyncError):  # the count is for the summary only
            return
        self.summary.left_matches, self.summary.left_players = matches, players


def _answered(receipt: dict[str, Any]) -> set[str]:
    keys: set[str] = set()
    for kind in ("players", "matches"):
        items = receipt.get(kind)
        if isinstance(items, list):
            keys |= {str(i["uuid"]) for i in items if isinstance(i, dict) and "uuid" in i}
    return keys
