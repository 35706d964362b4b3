"""``PairingBox``: the club-event pairing between the assignment worker's thread and the frame loop.

The worker (``kiosk.club.assignment``) puts in the pairing the journal keeps open (``show``); the
frame loop reads it without waiting for anything (``pending``, ``version``) and tells the worker what
the players did with it: Start on the home screen claims it (the hub can no longer take it away: the
players are at the table), Home before the match's first Start gives it back, the first Start marks it
started (the worker then links it to the match in the journal). A claimed or started pairing is never
shown again, whatever the worker puts in.

Its ``joins`` (a ``JoinBox``) carry the other way of entering an event at the table: the events the
hub says take entries (the worker puts them in), and the players' joins (the frame loop puts them in,
the worker takes them into the journal and sends them, and puts back what the journal keeps of them).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.club.joins import Join, JoinableEvent
from kiosk.club.pairing import Pairing


@dataclass(frozen=True, slots=True)
class Started:
    """A match started for a pairing: the link the worker writes into the journal."""

    pairing: str
    match_uuid: str
    berserk: tuple[int, ...]


class PairingBox:
    """One pairing at a time, shared by the worker (writes) and the frame loop (reads, claims)."""

    def __init__(self) -> None:
        self.joins = JoinBox()
        """The events taking entries and the players' joins (the other way into an event)."""
        self._lock = threading.Lock()
        self._shown: Pairing | None = None
        self._claimed: str | None = None
        self._done: set[str] = set()
        self._started: list[Started] = []
        self._version = 0

    @property
    def version(self) -> int:
        """Moves whenever what ``pending`` or the joins give changes (the frame loop redraws)."""
        return self._version + self.joins.version

    def show(self, pairing: Pairing | None) -> None:
        """The worker: the pairing the journal keeps open now (None: none)."""
        with self._lock:
            if pairing != self._shown:
                self._shown = pairing
                self._version += 1

    def pending(self) -> Pairing | None:
        """The pairing the home screen offers (None: none, or the one there is at the table already)."""
        with self._lock:
            p = self._shown
            if p is None or p.uuid == self._claimed or p.uuid in self._done:
                return None
            return p

    def claim(self, pairing_uuid: str) -> Pairing | None:
        """The frame loop: Start pressed for ``pairing_uuid``; the pairing if it is still the one offered."""
        with self._lock:
            p = self._shown
            if p is None or p.uuid != pairing_uuid or p.uuid in self._done or self._claimed is not None:
                return None
            self._claimed = p.uuid
            self._version += 1
            return p

    def release(self, pairing_uuid: str) -> None:
        """The frame loop: the players left the ready screen before the first Start (offered again)."""
        with self._lock:
            if self._claimed == pairing_uuid:
                self._claimed = None
                self._version += 1

    def started(self, pairing_uuid: str, match_uuid: str, berserk: tuple[int, ...]) -> None:
        """The frame loop: the match for the pairing started; played to the end whatever the hub says."""
        with self._lock:
            self._done.add(pairing_uuid)
            if self._claimed == pairing_uuid:
                self._claimed = None
            self._started.append(Started(pairing_uuid, match_uuid, tuple(sorted(berserk))))
            self._version += 1

    def held(self) -> set[str]:
        """The worker: pairings the table keeps whatever the hub answers (claimed or started)."""
        with self._lock:
            return self._done | ({self._claimed} if self._claimed is not None else set())

    def take_started(self) -> list[Started]:
        """The worker: the links not yet written (given back with ``put_back`` when writing failed)."""
        with self._lock:
            taken, self._started = self._started, []
            return taken

    def put_back(self, links: list[Started]) -> None:
        with self._lock:
            self._started = links + self._started


class JoinBox:
    """The events taking entries and the joins, shared by the worker and the frame loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: tuple[JoinableEvent, ...] = ()
        self._queued: list[Join] = []
        self._kept: tuple[Join, ...] = ()
        self._reachable = False
        self._version = 0
        self.wake: Callable[[], None] | None = None
        """Set by the worker: a round now (a join was pressed)."""

    @property
    def version(self) -> int:
        """Moves whenever what ``events`` or ``shown`` give changes."""
        return self._version

    def show(self, events: tuple[JoinableEvent, ...] | None = None, kept: list[Join] | None = None,
             reachable: bool | None = None) -> None:
        """The worker: the events taking entries, the journal's joins to show, whether the hub answered
        its last round (None: as it was)."""
        with self._lock:
            now = (self._events if events is None else events, self._kept if kept is None else tuple(kept),
                   self._reachable if reachable is None else reachable)
            if now != (self._events, self._kept, self._reachable):
                self._events, self._kept, self._reachable = now
                self._version += 1

    def events(self) -> tuple[JoinableEvent, ...]:
        """The frame loop: the events a player can join now (as the hub last said)."""
        with self._lock:
            return self._events

    def reachable(self) -> bool:
        """Whether the hub answered the worker's last round."""
        with self._lock:
            return self._reachable

    def queue(self, join: Join) -> None:
        """The frame loop: a player's join, for the worker to keep in the journal and send."""
        with self._lock:
            self._queued.append(join)
            self._version += 1
        wake = self.wake
        if wake is not None:
            wake()

    def take_queued(self) -> list[Join]:
        """The worker: the joins pressed since (given back with ``put_back`` when keeping them failed)."""
        with self._lock:
            taken, self._queued = self._queued, []
            return taken

    def put_back(self, joins: list[Join]) -> None:
        with self._lock:
            self._queued = joins + self._queued

    def shown(self) -> list[Join]:
        """The frame loop: the joins to show, oldest first (the journal's, then those not in it yet)."""
        with self._lock:
            kept = {j.key for j in self._kept}
            return [*self._kept, *(j for j in self._queued if j.key not in kept)]
