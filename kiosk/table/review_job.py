"""The table's post-match review, computed in the background (issue 24 #4; no pygame here).

After a match the kiosk starts a ``ReviewJob`` with the match's scenario (the audit export,
``kiosk.store.audit.export_scenario``): a separate process (``spawn``: nothing of the kiosk's
pygame state is inherited) reviews seat 0, then seat 1 (a practice match: the person's only), with ``engine.review`` and sends its progress
and each seat's review back over a queue. A process rather than a thread: the review is pure Python
and would hold the interpreter's lock for seconds at a time, stalling the frame loop; on a
Raspberry Pi 4 it gets a core of its own. The frame loop calls ``poll()`` once a frame (it never
waits); ``cancel()`` ends the process at once (the players left the review, or a new match starts:
a review never runs while a match clock runs). ``costliest(seat)`` gives the three decisions that
cost the seat most, ``luck(seat)`` its luck; the review screen shows them.
"""

from __future__ import annotations

import multiprocessing
import queue
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from typing import Any

from engine.review import review_scenario
from engine.scenario import parse_scenario

REVIEW_SAMPLES = 100
"""Worlds per decision at the table: a whole match in well under a minute on the development
machine, a few minutes at most on a Raspberry Pi 4 (docs/review.md, "Speed")."""
SHOWN = 3
"""The costliest decisions shown to each player."""


@dataclass(frozen=True, slots=True)
class Costly:
    """One of a seat's costliest decisions: the scenario step, the round, what was played, what was
    better, the points lost (mean, and the 95 % interval's lower end) and the class."""

    step: int
    round: int
    chosen: dict[str, Any]
    best: dict[str, Any]
    loss: float
    loss_low: float
    klass: str


@dataclass(frozen=True, slots=True)
class Luck:
    """A seat's luck over the match: the real result, the luck, the luck-adjusted result (points)."""

    result: int
    luck: float
    adjusted: float


class _Progress:
    """Sends ("progress", done, total) for the whole job whenever the percentage changes."""

    def __init__(self, out: Any, total: int) -> None:
        self.out = out
        self.total = max(1, total)
        self.base = 0
        self.sent = -1

    def __call__(self, done: int, _steps: int) -> None:
        percent = 100 * (self.base + done) // self.total
        if percent != self.sent:
            self.sent = percent
            self.out.put(("progress", self.base + done, self.total))


def _work(scenario: dict[str, Any], seats: tuple[int, ...], samples: int, seed: int, out: Any) -> None:
    """The review process: each of ``seats`` in turn, with the progress of them all."""
    try:
        parsed = parse_scenario(scenario)
        progress = _Progress(out, len(seats) * len(parsed.steps))
        for n, seat in enumerate(seats):
            progress.base = n * len(parsed.steps)
            out.put(("seat", seat, review_scenario(parsed, seat, samples=samples, seed=seed, progress=progress)))
    except Exception as exc:  # reported to the kiosk, which shows no review
        out.put(("error", repr(exc)))


class ReviewJob:
    """One match's review running in its own process (module description)."""

    def __init__(self, scenario: dict[str, Any], *, samples: int = REVIEW_SAMPLES, seed: int = 0,
                 seats: tuple[int, ...] = (0, 1)) -> None:
        context = multiprocessing.get_context("spawn")
        self.seats = seats
        """The seats reviewed (a practice match: only the person's)."""
        self._queue: Any = context.Queue()
        self._reviews: dict[int, dict[str, Any]] = {}
        self.done_steps = 0
        self.total_steps = 1
        self.error: str | None = None
        self.cancelled = False
        self._process: SpawnProcess = context.Process(target=_work, args=(scenario, seats, samples, seed, self._queue),
                                                      name="review", daemon=True)
        self._process.start()

    @property
    def progress(self) -> float:
        """The share of the work done, 0 to 1."""
        return 1.0 if self.done else min(1.0, self.done_steps / self.total_steps)

    @property
    def done(self) -> bool:
        """Whether every seat's review is in."""
        return len(self._reviews) == len(self.seats)

    def poll(self) -> None:
        """Take in what the process has sent so far, without waiting."""
        while True:
            try:
                message = self._queue.get_nowait()
            except queue.Empty:
                return
            self._take(message)

    def wait(self, timeout: float) -> bool:
        """Take in messages until every review is in, an error came, or ``timeout`` seconds without
        a message passed (for tests and command lines; the frame loop uses ``poll``); whether done."""
        while not self.done and self.error is None and not self.cancelled:
            try:
                message = self._queue.get(timeout=timeout)
            except queue.Empty:
                break
            self._take(message)
        if self.done or self.error is not None:
            self._process.join(timeout=timeout)  # the process ends once its last message is sent
        return self.done

    def _take(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "progress":
            self.done_steps, self.total_steps = message[1], max(1, message[2])
        elif kind == "seat":
            self._reviews[message[1]] = message[2]
        elif kind == "error":
            self.error = message[1]

    def cancel(self) -> None:
        """End the review at once (nothing more will come in)."""
        self.cancelled = True
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=5.0)

    @property
    def running(self) -> bool:
        """Whether the review process is still alive."""
        return self._process.is_alive()

    def review(self, seat: int) -> dict[str, Any] | None:
        """The seat's whole review (``engine.review``'s JSON object), once it is in."""
        return self._reviews.get(seat)

    def costliest(self, seat: int, n: int = SHOWN) -> list[Costly] | None:
        """The seat's ``n`` decisions that lost most (a positive loss only; ties: the earlier step)."""
        review = self._reviews.get(seat)
        return None if review is None else costliest(review, n)

    def luck(self, seat: int) -> Luck | None:
        """The seat's luck over the match, once its review is in."""
        review = self._reviews.get(seat)
        if review is None or review.get("luck") is None:
            return None
        luck = review["luck"]
        return Luck(luck["result"], luck["luck"], luck["adjusted"])


class InlineReviewJob(ReviewJob):
    """The same review made at once in this process (tests, screenshots; the kiosk uses a process)."""

    def __init__(self, scenario: dict[str, Any], *, samples: int = REVIEW_SAMPLES, seed: int = 0,
                 seats: tuple[int, ...] = (0, 1)) -> None:
        self.seats = seats
        self._reviews = {}
        self.error = None
        self.cancelled = False
        parsed = parse_scenario(scenario)
        self.done_steps = self.total_steps = max(1, len(seats) * len(parsed.steps))
        for seat in seats:
            self._reviews[seat] = review_scenario(parsed, seat, samples=samples, seed=seed)

    def poll(self) -> None:
        """Nothing comes in: the review was made at once."""

    def wait(self, timeout: float) -> bool:
        return self.done

    def cancel(self) -> None:
        self.cancelled = True

    @property
    def running(self) -> bool:
        return False


def costliest(review: dict[str, Any], n: int = SHOWN) -> list[Costly]:
    """The ``n`` decisions of ``review`` with the largest positive loss, largest first."""
    lost = [d for d in review["decisions"] if d["loss"] > 0]
    lost.sort(key=lambda d: (-d["loss"], d["step"]))
    return [Costly(d["step"], d["round"], d["chosen"], d["best"], d["loss"], d["loss_low"], d["class"])
            for d in lost[:n]]
