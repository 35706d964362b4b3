"""The post-match review at the table (issue 24 #4; no pygame): when the result card offers it, its
background job, leaving it, and what each player's half of the review screen shows.

Review on the result card (or the player's RAISE) opens the review screen; the review itself runs
in its own process (``kiosk.table.review_job``) and is started by the controller's next ``update``,
only while the match at the table is over: **never while a clock runs**. Leaving the screen (Back)
goes back to the result card and the review **goes on** (its progress on the card's Review
button; Review again shows it, finished or not): nothing else runs then. A new match (Rematch, Home
then New match, a practice match), Home itself or the idle return replace the match at the table,
and the next ``update`` **cancels** the job (the process is ended at once), before any clock of a
new match can run: a press on its ready screen is only taken once a frame showed it.

The match's steps come from the journal's recorder, which keeps every row of the match in memory
(``kiosk.store.recorder``); without a journal (``--no-journal``) there is nothing to review and the
card offers no Review. In a practice match only the person's seat is reviewed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine import NS_PER_MS, IllegalAction, Match
from engine.scenario import parse_scenario, step_action
from engine.snapshot import restore_text, save_text
from kiosk.store.audit import scenario_of_entries
from kiosk.store.errors import StoreCorrupt
from kiosk.store.keeper import JournalKeeper
from kiosk.store.records import StoredEntry
from kiosk.table import intents as do
from kiosk.table.players import Seat
from kiosk.table.review_job import REVIEW_SAMPLES, SHOWN, Costly, Luck, ReviewJob
from kiosk.table.session import GameSession
from kiosk.table.state import Screen, UiState

REVIEW_POLL_NS = 250 * 1_000_000
"""While a review runs the frame loop wakes this often to take in its progress."""


class Job(Protocol):
    """A review at work (``ReviewJob``, or ``InlineReviewJob`` for tests and screenshots)."""

    seats: tuple[int, ...]
    error: str | None

    @property
    def progress(self) -> float: ...
    @property
    def done(self) -> bool: ...
    @property
    def running(self) -> bool: ...
    def poll(self) -> None: ...
    def cancel(self) -> None: ...
    def costliest(self, seat: int, n: int = SHOWN) -> list[Costly] | None: ...
    def luck(self, seat: int) -> Luck | None: ...


JobMaker = Callable[[dict[str, Any], tuple[int, ...], int], Job]
"""Starts a review of ``scenario`` for ``seats`` with ``samples`` worlds per decision."""


def process_job(scenario: dict[str, Any], seats: tuple[int, ...], samples: int) -> Job:
    """The kiosk's review: a separate process."""
    return ReviewJob(scenario, samples=samples, seats=seats)


class AtTable(Protocol):
    """What the review reads of the controller."""

    @property
    def session(self) -> GameSession | None: ...
    @property
    def keeper(self) -> JournalKeeper | None: ...
    @property
    def ui(self) -> UiState: ...
    def seat(self, number: int) -> Seat: ...


REVIEW_INTENTS = (do.OpenReview, do.ReviewPick, do.CloseReview)


class ReviewDesk:
    """The review of the match at the table: offered or not, its job, each seat's chosen decision."""

    def __init__(self, samples: int = REVIEW_SAMPLES, start: JobMaker = process_job) -> None:
        self.samples = samples
        """Worlds per decision (tests use a few)."""
        self.start = start
        """How a review is started (tests and screenshots: in place, ``InlineReviewJob``)."""
        self.job: Job | None = None
        self.wanted = False
        """Review was asked for: the job starts at the next ``update`` (never in the press itself)."""
        self.picked = [0, 0]
        """Each seat's decision on screen (0: the costliest)."""
        self._for: GameSession | None = None
        """The match the scenario, the job and the states are for."""
        self._scenario: dict[str, Any] | None = None
        self._before: dict[int, Match] = {}
        self._shown: tuple[object, ...] = ()

    # -- what the screens ask ------------------------------------------------------------------

    def scenario(self, c: AtTable) -> dict[str, Any] | None:
        """The match at the table as a scenario, once it is over (None: not over, or no journal)."""
        s = c.session
        if s is None or not s.match.is_over or s.match.round == 0:
            return None
        if self._for is not s:
            self._reset()
            self._for, self._scenario = s, recorded_scenario(c.keeper, s.match)
        return self._scenario

    def offered(self, c: AtTable) -> bool:
        """Whether the result card offers Review."""
        return self.scenario(c) is not None and bool(self.seats(c))

    def seats(self, c: AtTable) -> tuple[int, ...]:
        """The seats reviewed: both, or in a practice match the person's."""
        return tuple(n for n in (0, 1) if c.seat(n).person)

    def refusal(self, c: AtTable, intent: do.Intent) -> str | None:
        """Why a review intent is not taken now (None: it is, as is any other intent)."""
        if not isinstance(intent, REVIEW_INTENTS):
            return None
        player = getattr(intent, "player", None)
        if not self.offered(c):
            return "no review"
        if player is not None and player not in self.seats(c):
            return "the computer's"
        if isinstance(intent, (do.ReviewPick, do.CloseReview)) and c.ui.screen != Screen.REVIEW:
            return "the review is not on screen"
        return None

    def costly(self, c: AtTable, seat: int) -> list[tuple[Costly, Match]] | None:
        """The seat's costliest decisions with the match just before each (None: not in yet)."""
        job = self.job
        found = None if job is None else job.costliest(seat)
        scenario = self.scenario(c)
        if found is None or scenario is None:
            return None
        missing = {d.step for d in found} - set(self._before)
        if missing:
            self._before.update(states_before(scenario, missing))
        return [(d, self._before[d.step]) for d in found]

    def luck(self, seat: int) -> Luck | None:
        """The seat's luck over the match, once its review is in."""
        return None if self.job is None else self.job.luck(seat)

    @property
    def progress(self) -> float | None:
        """The job's progress, 0 to 1 (None: no job)."""
        return None if self.job is None else self.job.progress

    # -- what the intents do --------------------------------------------------------------------

    def routes(self, c: AtTable) -> dict[type[do.Intent], Callable[[Any, int], object]]:
        """The review's part of the controller's dispatch table (after ``refusal``)."""
        return {do.OpenReview: lambda i, now: self.open(i, c), do.ReviewPick: lambda i, now: self.pick(i),
                do.CloseReview: lambda i, now: self.close(c)}

    def open(self, intent: do.OpenReview, c: AtTable) -> None:
        """Show the review (its job starts at the next ``update``); on it, the player's next decision."""
        if c.ui.screen == Screen.REVIEW:
            if intent.player is not None:
                count = len(self.costly(c, intent.player) or []) or 1
                self.picked[intent.player] = (self.picked[intent.player] + 1) % count
            return
        c.ui.screen = Screen.REVIEW
        self.wanted = True

    def pick(self, intent: do.ReviewPick) -> None:
        """Show the player's decision number ``index``."""
        self.picked[intent.player] = max(0, min(SHOWN - 1, intent.index))

    def close(self, c: AtTable) -> None:
        """Back to the result card; the review goes on."""
        c.ui.screen = Screen.MATCH

    # -- time ------------------------------------------------------------------------------

    def update(self, c: AtTable) -> bool:
        """Start the job when asked and the match is over, cancel it when the match at the table is
        no longer the one reviewed, take in its progress; True if the screen shows something new."""
        s = c.session
        if self._for is not None and (s is not self._for or not s.match.is_over):
            self._reset()
            return False
        if self.wanted and self.job is None and s is not None and s.match.clock_running is None:
            scenario = self.scenario(c)
            if scenario is not None:
                self.job = self.start(scenario, self.seats(c), self.samples)
        job = self.job
        if job is None:
            return False
        job.poll()
        shown = (round(job.progress * 100), job.done, job.error)
        changed, self._shown = shown != self._shown, shown
        return changed

    @property
    def running(self) -> bool:
        """Whether a review is at work (the frame loop wakes to take in its progress)."""
        return self.job is not None and not self.job.done and self.job.error is None

    def _reset(self) -> None:
        """Forget the match reviewed (its job is ended at once)."""
        if self.job is not None:
            self.job.cancel()
        self.job, self.wanted, self.picked = None, False, [0, 0]
        self._for, self._scenario, self._before, self._shown = None, None, {}, ()


def recorded_scenario(keeper: JournalKeeper | None, match: Match) -> dict[str, Any] | None:
    """``match`` as a scenario from the rows its recorder keeps (None: the keeper's latest recorder is not
    this match's, or its first rows are not in memory). The recorder may have let go of the finished
    match already (written and backed up): its last row's snapshot is then the match's."""
    recorder = None if keeper is None else keeper.current
    if recorder is None or recorder.first_seq != 1 or not recorder.rows or recorder.config is None:
        return None
    if recorder.watched is not match and recorder.rows[-1].snapshot != save_text(match):
        return None
    entries = [StoredEntry(recorder.match_id or 0, seq, e.step, None, "", e.arrival_ns, e.boot_id, e.wall_s, True)
               for seq, e in enumerate(recorder.rows, start=1)]
    try:
        return scenario_of_entries(recorder.config, entries, recorder.match_id or 0)
    except StoreCorrupt:  # a recording the audit cannot export: no review (the match itself is unharmed)
        return None


def states_before(scenario: dict[str, Any], steps: set[int]) -> dict[int, Match]:
    """The match just before each of ``steps`` (indices in the scenario's steps), each a copy of its own."""
    parsed = parse_scenario(scenario)
    boot = 0
    match = Match(parsed.config, boot_id="review-boot-0")
    found: dict[int, Match] = {}
    for i, step in enumerate(parsed.steps):
        if i > max(steps, default=-1):
            break
        now = round(step["t"] * NS_PER_MS)
        match.advance(now)
        if i in steps:
            found[i] = match.clone()
        kind = step["do"]
        if kind == "restart":
            boot += 0 if step.get("same_boot", True) else 1
            match, _ = restore_text(save_text(match), boot_id=f"review-boot-{boot}", now_ns=now)
        elif kind != "tick" and not match.is_over:
            try:
                match.apply(step_action(step, match, parsed.deals), now)
            except (IllegalAction, KeyError, TypeError, ValueError):  # refused: nothing changes, as in the review
                continue
    return found
