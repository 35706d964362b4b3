"""``PairingBox``: the club-event pairing between the assignment worker's thread and the frame loop.

The worker (``kiosk.club.assignment``) puts in the pairing the journal keeps open (``show``); the
frame loop reads it without waiting for anything (``pending``, ``version``) and tells the worker what
the players did with it: Start on the home screen claims it (the hub can no longer take it away: the
players are at the table), Home before the match's first Start gives it back, the first Start marks it
started (the worker then links it to the match in the journal). A claimed or started pairing is never
shown again, whatever the worker puts in.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

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
        self._lock = threading.Lock()
        self._shown: Pairing | None = None
        self._claimed: str | None = None
        self._done: set[str] = set()
        self._started: list[Started] = []
        self._version = 0

    @property
    def version(self) -> int:
        """Moves whenever what ``pending`` gives changes (the frame loop redraws)."""
        return self._version

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
