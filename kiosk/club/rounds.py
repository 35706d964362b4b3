"""``RoundThread``: rounds of work on a daemon thread, each due at a time it sets itself.

The club's workers (the sync's uploads, the event pairing's polls) share it: ``start``, ``poke`` (a
round now), ``wait_round`` (tests), ``stop``, and ``run_once`` (one round at a given time, as tests
call it with a fake clock). A subclass makes one round in ``_round``, which returns the state after
it and sets ``_due_ns``, the next round's time (its interval, or its back-off).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, Protocol, Self, TypeVar

from engine import NS_PER_S


class RoundState(Protocol):
    """What every worker's state says: how many rounds ran."""

    @property
    def rounds(self) -> int: ...


S = TypeVar("S", bound=RoundState)


class RoundThread(Generic[S]):
    """Rounds on a daemon thread named ``name``, from ``state`` on, at the times of ``clock``; what they
    have to say goes to ``log`` (None: nowhere)."""

    def __init__(self, state: S, *, name: str, clock: Callable[[], int],
                 log: Callable[[str], None] | None = None) -> None:
        self.state = state
        self.clock = clock
        self.log = log
        self._name = name
        self._due_ns = 0
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._rounds = threading.Condition()
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        """Run rounds on a daemon thread until ``stop``."""
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        return self

    def poke(self) -> None:
        """A round now, whatever the interval or the back-off says."""
        self._due_ns = 0
        self._wake.set()

    def wait_round(self, after: int, timeout_s: float) -> S:
        """Block until more than ``after`` rounds ran (or ``timeout_s`` passed); the state then."""
        with self._rounds:
            self._rounds.wait_for(lambda: self.state.rounds > after, timeout_s)
            return self.state

    def stop(self, timeout_s: float = 5.0) -> None:
        """End the thread (a request in flight ends by its timeout at the latest; the thread is a daemon)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def run_once(self, now_ns: int) -> S:
        """One round; the state after it, with the next round's time."""
        state = self._round(now_ns)
        with self._rounds:
            self.state = state
            self._rounds.notify_all()
        return state

    def _say(self, line: str) -> None:
        if self.log is not None:
            self.log(line)

    def _before_rounds(self) -> None:
        """What the thread does once before its first round (nothing here)."""

    def _round(self, now_ns: int) -> S:
        raise NotImplementedError

    def _run(self) -> None:
        self._before_rounds()
        while not self._stop.is_set():
            now = self.clock()
            if now >= self._due_ns:
                self.run_once(now)
            wait_s = max(0.01, (self._due_ns - self.clock()) / NS_PER_S)
            self._wake.wait(min(wait_s, 60.0))
            self._wake.clear()
