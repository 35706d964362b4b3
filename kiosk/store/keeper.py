"""``JournalKeeper``: the journal as the kiosk uses it, where no storage fault can stop the table.

The controller talks to the keeper only: ``JournalKeeper.open`` at start-up, ``resume``, ``begin``
at a match's first Start, ``sync`` every frame, ``players`` for the player screens. None of these
raises: a full disk, a read-only card, an I/O error, a damaged page, a deleted file or a journal
that cannot be opened become a ``SavingState`` (``problem``: the banner, "Results are not being
saved: …") and notices (``take_notices``: what happened, once). The match goes on in memory — the
recorders keep every row of every match not yet known to be in a backup — and the keeper tries
again with a back-off (1 s, doubling up to 60 s, on the clock the caller passes in); when writing
works again everything since the last good write is written ("the match so far") and a notice
says saving resumed.

What the keeper does on each fault (docs/journal.md, "Faults"):

- cannot open (read-only or missing folder, full disk, in use, newer schema): no journal yet; the
  next attempts open it and write the match in progress into it; ``start_fresh`` sets the old file
  aside and starts a new one (e.g. a journal from a newer program);
- full disk, read-only card, I/O error while writing: rows stay pending, retried with back-off;
- a damaged page met by a write, by ``resume`` or by a player screen's query
  (``JournalDamaged``; the database remembers it): the file is moved aside, the newest good backup
  restored (or a new file started) under the same ``Journal`` object, and the matches since that
  backup, the one in progress included, are written into it again;
- the file deleted (or replaced) while the kiosk runs: noticed at the next commit and written
  again from the connection that still holds it (``Database``), nothing lost;
- after each finished match: the write-ahead log is folded into the file and a rotating backup
  written (``Journal.after_finish``); a backup that fails is retried with the same back-off.

With a fault log (``RunLog``, issue 26) every row is appended to it on the frame's thread before
``sync`` returns — the acknowledgment: the screen shows a move once it is in the log (a tmpfs,
safe from a crash of the process) — and the commits run on a writer thread (``StoreWriter``), so
a slow or frozen card never stops the frame loop. The log's rows are folded into the journal at
the next start; a journal that cannot be written then resumes the match from the log. The banner
says what is and is not safe while rows are not on the card (a fault, or a card slower than
``slow_ns``). Without a fault log the keeper commits on the caller's thread, as before.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import NS_PER_S, Match, MatchConfig
from hardware.backoff import Backoff
from kiosk.i18n import T, Text
from kiosk.store.errors import (
    KioskStoreError,
    ResumeFailed,
    StoreDamaged,
    StoreUnavailable,
    StoreUsageError,
)
from kiosk.store.event_schema import EventLink
from kiosk.store.files import move_aside
from kiosk.store.journal import Journal
from kiosk.store.lineage import ask_fresh
from kiosk.store.players import Players
from kiosk.store.recorder import MatchRecorder, RecordingMatch
from kiosk.store.resume import Resumed, resume, resume_logged
from kiosk.store.runlog import RunLog, find_entered
from kiosk.store.writer import StoreWriter

SLOW_NS = 1 * NS_PER_S
"""Rows waiting longer than this for the card: the banner says the card is slow."""


def retry_backoff() -> Backoff:
    """The journal's retries: a second after one failure, doubling with each further one, at most a minute."""
    return Backoff(1.0, 2.0, 60.0)


def _delay_ns(backoff: Backoff, failures: int) -> int:
    return round(backoff.delay(failures) * NS_PER_S)


@dataclass(frozen=True, slots=True)
class SavingState:
    """Whether results are being saved, as the screen shows it (compare states to redraw)."""

    saving: bool = True
    """False while results are not reaching the disk (or no journal could be opened)."""
    problem: Text | None = None
    """While not saving: what is wrong and that results are not being saved (the banner)."""
    unsaved: int = 0
    """Journal rows kept in memory only."""
    retry_ns: int | None = None
    """When the keeper tries again (on the caller's monotonic clock)."""
    enabled: bool = True
    """False when the kiosk runs without a journal on purpose (``--no-journal``): nothing to show."""
    in_memory: int = 0
    """Rows safe from a crash of the process (in the fault log) but not on the card yet."""


class JournalKeeper:
    """The journal, its recorders and its faults, behind calls that never raise (see the module doc)."""

    def __init__(self, path: str | os.PathLike[str] | None, boot_id: str, *, journal: Journal | None = None,
                 wall_clock: Callable[[], float] = time.time, backoff: Backoff | None = None,
                 check: bool = True, runlog: RunLog | None = None, threaded: bool | None = None) -> None:
        """Usually ``JournalKeeper.open``; ``path`` None: no journal at all (nothing is kept).
        ``runlog``: the fault log; ``threaded`` (default: with a fault log) commits on a writer thread."""
        self.path = Path(path) if path is not None else (journal.path if journal is not None else None)
        self.boot_id = boot_id
        self.journal = journal
        """The open journal, or None while it cannot be opened."""
        self.wall_clock = wall_clock
        self.backoff = backoff or retry_backoff()
        self.check = check
        self.generation = 0
        """Bumped whenever the journal or the file under it changed (opened late, restored from a
        backup, started afresh): player ids read before may be stale, read the screens again."""
        self._notices: list[Text] = list(journal.warnings) if journal is not None else []
        self._recorders: list[MatchRecorder] = []
        """Matches not known to be in a backup, oldest first (the one in progress last)."""
        self._current: MatchRecorder | None = None
        self._problem: Text | None = None
        self._failures = 0
        self._retry_ns: int | None = None
        self._backup_due = False
        self._backup_failures = 0
        self._backup_retry_ns: int | None = None
        self._seen_generation = journal.database.generation if journal is not None else 0
        self._players: Players | None = None
        self.runlog = runlog
        """The fault log (None: rows not on the card are in this process's memory only)."""
        self.writer = StoreWriter() if (runlog is not None if threaded is None else threaded) else None
        """The thread the commits run on (None: on the caller's thread)."""
        self._lock = threading.RLock()
        """Held while the keeper's own lists change (the writer thread and the frame's thread)."""
        self._logged: list[MatchRecorder] = []
        """Recorders made from the fault log at start-up (their rows are folded into the journal)."""
        self._now = 0
        if runlog is not None:
            self._take_log(runlog)

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None, boot_id: str, now_ns: int, *,
             wall_clock: Callable[[], float] = time.time, backoff: Backoff | None = None,
             check: bool = True, runlog: RunLog | None = None, threaded: bool | None = None) -> JournalKeeper:
        """Open the journal at ``path`` (None: keep nothing); never raises. Warnings from opening (a
        file moved aside, a backup restored, a write-ahead log repaired) are notices; a journal that
        cannot be opened is the state's problem, and opening is tried again by ``sync``. The rows a
        fault log holds that the journal lacks are written now (or kept, and written later)."""
        keeper = cls(path, boot_id, wall_clock=wall_clock, backoff=backoff, check=check, runlog=runlog,
                     threaded=threaded)
        if keeper.path is not None:
            keeper._attempt(now_ns)
        return keeper

    # -- what the controller reads -----------------------------------------------------------

    @property
    def state(self) -> SavingState:
        """Whether results are being saved now."""
        if self.path is None:
            return SavingState(enabled=False)
        unsaved = sum(len(r.pending) for r in list(self._recorders))
        in_memory = unsaved if self.runlog is not None and self.runlog.problem is None else 0
        saving = self._problem is None and self.journal is not None
        problem = self._problem
        if problem is not None and in_memory:
            problem = T("{problem} Every move is kept in memory: a restart of the kiosk loses nothing, but a power "
                        "cut would lose the moves not yet on the card (moves: {count}).", problem=problem,
                        count=in_memory)
        elif problem is None and saving and in_memory and self._slow():
            problem = T("The card is slow: the moves not yet on it are kept in memory only, and a power cut would "
                        "lose them (moves: {count}). Play on.", count=in_memory)
        return SavingState(saving, problem, unsaved, self._retry_ns, in_memory=in_memory)

    @property
    def now_ns(self) -> int:
        """The caller's monotonic time at the last ``sync`` (what the writer's jobs are stamped with)."""
        return self._now

    def _slow(self) -> bool:
        since = self.writer.busy_since_ns if self.writer is not None else None
        return since is not None and self._now - since > SLOW_NS

    @property
    def current(self) -> MatchRecorder | None:
        """The recorder of the match begun or resumed last (tests and tools look at its rows)."""
        return self._current

    @property
    def players(self) -> Players | None:
        """The named players (None while there is no journal). Its calls raise only store errors;
        a damaged page they meet is repaired at the next ``sync``."""
        if self.journal is None:
            return None
        if self._players is None:
            self._players = Players(self.journal, wall_clock=self.wall_clock)
        return self._players

    def take_notices(self) -> list[Text]:
        """What happened since the last call (message values, each to be shown once)."""
        if self.journal is not None and self.writer is None:  # the writer collects them itself (the file's lock)
            self._collect()
        with self._lock:
            notices, self._notices = self._notices, []
        return notices

    # -- the match -----------------------------------------------------------------------------

    def resume(self, now_ns: int) -> Resumed | None:
        """The journal's unfinished match restored (``kiosk.store.resume``), or None; never raises.

        A match that cannot be restored is a notice (``ResumeFailed``'s text); a damaged page
        moves the file aside (the newest good backup restored) and the unfinished match is lost,
        which the notice says; a journal that cannot be written leaves the restart row pending.
        """
        self._idle()
        logged = self._logged_unfinished()
        complete = self.runlog.known if self.runlog is not None else True
        if logged is not None and (self.journal is None or not logged.up_to_date):
            return self._resume_logged(logged, now_ns, complete)
        journal = self.journal
        if journal is None:
            return None
        try:
            resumed = resume(journal, self.boot_id, now_ns, wall_clock=self.wall_clock, complete=complete)
        except ResumeFailed as exc:
            self._notices.append(exc.text)
            return None
        except StoreDamaged:
            try:
                message = journal.database.recover()
            except KioskStoreError as exc:
                self._fail(exc, now_ns)
                return None
            self._notices.append(T("{message} The unfinished match in it could not be read and is lost.",
                                   message=message))
            self._changed()
            return None
        except KioskStoreError as exc:
            self._fail(exc, now_ns)
            return None
        if resumed is None:
            return None
        resumed.recorder.housekeeping = False
        self._current = resumed.recorder
        with self._lock:
            self._recorders.append(resumed.recorder)
        if not resumed.saved:
            self._attempt(now_ns)
        self._log()
        return resumed

    def _logged_unfinished(self) -> MatchRecorder | None:
        for recorder in reversed(self._logged):
            if recorder.rows and recorder.outcome is None and recorder.watched is None:
                return recorder
        return None

    def _resume_logged(self, recorder: MatchRecorder, now_ns: int, complete: bool) -> Resumed | None:
        """The match on the table when the last process ended, from the fault log (the journal lacks
        rows of it, or cannot be opened or written now)."""
        try:
            resumed = resume_logged(recorder, self.boot_id, now_ns, complete=complete, recovered=len(recorder.pending))
        except ResumeFailed as exc:
            self._notices.append(exc.text)
            return None
        recorder.housekeeping = False
        self._current = recorder
        self._attempt(now_ns)
        self._log()
        return resumed

    def _take_log(self, runlog: RunLog) -> None:
        """Recorders for the matches the previous process logged: written into the journal when it opens."""
        for found in runlog.found:
            recorder = found.recorder(self.boot_id, self.wall_clock)
            recorder.housekeeping = False
            runlog.adopt(recorder, found)
            self._logged.append(recorder)
            self._recorders.append(recorder)
        runlog.found = []

    def begin(self, config: MatchConfig, players: Sequence[int | None], now_ns: int, *,
              computer_level: int | None = None, computer_seat: int = 1,
              event: EventLink | None = None) -> RecordingMatch:
        """A new match for the table (put it in ``session.match``), entered in the journal now when it
        can be, else kept in memory and entered later with everything played; never raises.
        ``computer_level``: a practice match, the computer at that level in ``computer_seat``;
        ``event``: the club event's pairing it plays."""
        busy = self.writer is not None and self.writer.busy  # its names only when no commit holds the file
        recorder = MatchRecorder(self.journal, None, self.boot_id, wall_clock=self.wall_clock, config=config,
                                 players=players, names=(None, None) if busy else self._names(players),
                                 computer_level=computer_level, computer_seat=computer_seat, event=event)
        recorder.housekeeping = False
        match = recorder.watch(RecordingMatch(config, boot_id=self.boot_id))
        self._current = recorder
        with self._lock:
            self._recorders.append(recorder)
        if self.path is not None and self._retry_ns is None:
            self._work(now_ns)
        self._log()
        return match

    def sync(self, match: Match | None, now_ns: int) -> SavingState:
        """Every frame, after the frame's input and ``session.tick`` (``match``: the match on the table,
        or None): what happened is committed now, or kept and tried again when the back-off allows.
        Never raises; returns the state for the screen."""
        self._now = now_ns
        for recorder in list(self._recorders):
            watched: Match | None = recorder.watched
            if match is not None and watched is match:
                recorder.observe(match, now_ns)
        if self.path is None:
            return SavingState(enabled=False)
        self._log()  # the acknowledgment: in the fault log before the screen shows it
        self._work(now_ns)
        return self.state

    def _work(self, now_ns: int, force: bool = False) -> None:
        """What is due (a write, a repair, a backup): now on this thread, or handed to the writer."""
        if self.writer is not None:
            if not self.writer.busy and (force or self._due(now_ns)):
                self.writer.submit(lambda: self._write_due(now_ns, force), now_ns)
            return
        self._write_due(now_ns, force)

    def _due(self, now_ns: int) -> bool:
        due = self._retry_ns is None or now_ns >= self._retry_ns
        damaged = self.journal is not None and self.journal.database.damage is not None
        if (due or damaged) and (self.journal is None or damaged or self._problem is not None
                                 or not all(r.up_to_date for r in list(self._recorders))):
            return True
        return self._backup_due and self._problem is None and (
            self._backup_retry_ns is None or now_ns >= self._backup_retry_ns)

    def _write_due(self, now_ns: int, force: bool = False) -> None:
        due = force or self._retry_ns is None or now_ns >= self._retry_ns
        damaged = self.journal is not None and self.journal.database.damage is not None
        if (due or damaged) and (self.journal is None or damaged or self._problem is not None
                                 or not all(r.up_to_date for r in list(self._recorders))):
            self._attempt(now_ns)
        if self._backup_due and self._problem is None and (
                self._backup_retry_ns is None or now_ns >= self._backup_retry_ns):
            self._housekeep(now_ns)

    def _log(self) -> None:
        """Every row not in the fault log yet appended to it; finished matches on the card dropped from it."""
        runlog = self.runlog
        if runlog is None:
            return
        with self._lock:
            recorders = list(self._recorders)
        runlog.forget(recorders)
        runlog.record(recorders)

    def _idle(self, timeout_s: float | None = None) -> bool:
        """Wait for the writer's job to end (start-up, an owner's action, exit); True when idle."""
        return self.writer.wait_idle(timeout_s) if self.writer is not None else True

    def retry(self, now_ns: int) -> SavingState:
        """Try again now, whatever the back-off says (an owner's "try again" button)."""
        self._retry_ns = None
        self._backup_retry_ns = None
        return self.sync(None, now_ns)  # with a writer: its next job (a job still stuck on the card is not waited for)

    def start_fresh(self, now_ns: int) -> SavingState:
        """Set the journal file aside (``<name>.old-<time>``) and start a new, empty one; the matches
        kept in memory (the one in progress included) are written into it. Never raises."""
        if self.path is None:
            return self.state
        self._idle()
        if self.journal is not None:
            self.journal.close()
            self.journal = None
            self._players = None
        try:
            moved = move_aside(self.path, float(self.wall_clock()), kind="old")
            ask_fresh(self.path)  # a new history: the old one's backups stay beside it, not restored
        except StoreUnavailable as exc:
            self._fail(exc, now_ns)
            return self.state
        self._notices.append(T("A new match journal was started; the old one was moved aside to {moved}.",
                               moved=moved.name))
        self._retry_ns = None
        self._attempt(now_ns)
        return self.state

    def close(self, timeout_s: float | None = 5.0) -> None:
        """A last attempt to write what is pending (opening the journal first if it never could be
        opened, whatever the back-off says), then close the journal; never raises. A writer still
        stuck on the card after ``timeout_s`` is left (the rows are in the fault log)."""
        self._log()
        if self.writer is not None and not self.writer.stop(timeout_s):
            return
        if self.runlog is not None:
            self.runlog.close()
        if self.journal is None and self.path is not None and self._recorders:
            try:
                self._open()
            except KioskStoreError:
                return
        if self.journal is not None:
            with contextlib.suppress(KioskStoreError):  # what cannot be written now is lost with the process
                self._write_all()
            self.journal.close()

    # -- inside ----------------------------------------------------------------------------------

    def _attempt(self, now_ns: int) -> None:
        """Open the journal if needed, repair a damaged file, write everything pending."""
        try:
            if self.journal is None:
                self._open()
            self._write_all()
        except KioskStoreError as exc:
            self._fail(exc, now_ns)
            return
        self._succeed()

    def _open(self) -> None:
        assert self.path is not None
        journal = Journal.open(self.path, wall_clock=self.wall_clock, check=self.check)
        self.journal = journal
        self._players = None
        self._seen_generation = journal.database.generation
        self._notices.extend(journal.warnings)
        for recorder in list(self._recorders):
            if recorder in self._logged:
                find_entered(journal, recorder)
            recorder.attach(journal)
        self._changed()

    def _write_all(self) -> None:
        journal = self.journal
        assert journal is not None
        for attempt in range(2):
            try:
                if journal.database.damage is not None:
                    self._recover(journal)
                elif journal.database.generation != self._seen_generation:  # the file changed under us
                    for recorder in self._recorders:
                        recorder.attach(journal)
                    self._collect()
                recorders = list(self._recorders)
                finished_before = sum(r.finished for r in recorders)
                for recorder in recorders:
                    try:
                        recorder.flush()
                    except StoreUsageError:
                        # the file and the recorder disagree (a row number, a match finished): write it again
                        recorder.reenter()
                        recorder.flush()
                if sum(r.finished for r in recorders) > finished_before:
                    self._backup_due = True
                self._drop_folded()
                self._collect()
                return
            except StoreDamaged:
                if attempt:
                    raise

    def _recover(self, journal: Journal) -> None:
        message = journal.database.recover()
        current = self._current
        if current is not None and current.outcome is None and current.watched is not None:
            message = T("{message} The match in progress goes on and is saved in the new journal.", message=message)
        self._notices.append(message)
        for recorder in self._recorders:
            recorder.attach(journal)
        self._changed()

    def _housekeep(self, now_ns: int) -> None:
        """Checkpoint and back up after finished matches; then the matches written are in a backup."""
        journal = self.journal
        if journal is None:
            return
        if journal.after_finish():
            self._backup_due = False
            self._backup_failures = 0
            self._backup_retry_ns = None
            # everything written is in the backup now; the match in progress goes on being recorded
            with self._lock:
                kept = [r for r in self._recorders if not r.up_to_date or (r is self._current and r.outcome is None)]
                for done in self._recorders:
                    if done not in kept:  # written, backed up and over: the match needs hearing no more
                        done.release()
                self._recorders = kept
        else:
            self._backup_failures += 1
            self._backup_retry_ns = now_ns + _delay_ns(self.backoff, self._backup_failures)
        self._collect()

    def _drop_folded(self) -> None:
        """Matches from the fault log that the journal now holds whole and that are not on the table: done."""
        with self._lock:
            done = [r for r in self._logged if r.up_to_date and r.watched is None]
            for recorder in done:
                self._logged.remove(recorder)
                self._recorders.remove(recorder)

    def _collect(self) -> None:
        journal = self.journal
        if journal is None:
            return
        self._notices.extend(journal.take_notices())
        if journal.database.generation != self._seen_generation:
            self._seen_generation = journal.database.generation
            self.generation += 1

    def _changed(self) -> None:
        if self.journal is not None:
            self._seen_generation = self.journal.database.generation
        self.generation += 1

    def _fail(self, exc: KioskStoreError, now_ns: int) -> None:
        self._failures += 1
        self._retry_ns = now_ns + _delay_ns(self.backoff, self._failures)
        self._problem = T("Results are not being saved: {why}. Matches can still be played; the kiosk keeps trying "
                          "to save them.", why=exc.why)
        if self.journal is not None:
            self._collect()

    def _succeed(self) -> None:
        if self._problem is not None:
            self._notices.append(T("Results are being saved again; nothing played in the meantime was lost."))
        self._problem = None
        self._failures = 0
        self._retry_ns = None

    def _names(self, players: Sequence[int | None]) -> tuple[str | None, str | None]:
        names: list[str | None] = []
        for pid in players:
            name = None
            if pid is not None and self.players is not None:
                try:
                    name = self.players.get(pid).name
                except KioskStoreError:
                    name = None
            names.append(name)
        return names[0], names[1]

