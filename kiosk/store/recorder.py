"""From the engine to the journal: every accepted action becomes a journal row, committed in one go.

``RecordingMatch`` is an engine ``Match`` that tells its listener about every accepted action
(``GameSession`` applies commands and automatic passes through ``match.apply``, so nothing in the
session has to change: the app puts a ``RecordingMatch`` in ``session.match``). ``MatchRecorder``
collects those rows and ``sync`` commits them in one transaction — call it after each command,
tick or abort and before the frame shows the result ("committed before shown").

The recorder keeps every row of its match in memory (a match is some hundred rows), not only the
ones still to write, so the match can be written whole into another file: when the journal was
unavailable when the match began, when a damaged journal was replaced by its backup or a new
file, or when the disk comes back after being full. ``attach`` points the recorder at a journal
and checks whether the journal already holds the match as the recorder wrote it; if not, the next
``flush`` enters the match again (``begin_match``, its players found again by name) and writes
all its rows, in one transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import NS_PER_MS, Action, EndReason, Event, Match, MatchConfig, Outcome, Start
from engine.scenario import action_step
from engine.snapshot import save_text
from kiosk.store.errors import PlayerNameError, StoreUsageError
from kiosk.store.event_schema import EventLink
from kiosk.store.identity import new_match_uuid
from kiosk.store.journal import COMPUTER_SEAT_KEY, Journal, computer_seat_of
from kiosk.store.players import Players
from kiosk.store.records import Entry, entry_row


class RecordingMatch(Match):
    """A ``Match`` that reports each accepted action to ``listener`` (after it was applied)."""

    listener: Callable[[Match, Action, int], None] | None = None

    def apply(self, action: Action, now_ns: int) -> list[Event]:
        """``Match.apply``, then the listener hears of the accepted action."""
        events = super().apply(action, now_ns)
        listener = self.listener
        if listener is not None:
            listener(self, action, now_ns)
        return events

    @classmethod
    def adopt(cls, match: Match) -> RecordingMatch:
        """The same match (restored exactly from its snapshot) as a ``RecordingMatch``."""
        if isinstance(match, RecordingMatch):
            return match
        return cls.from_dict(match.to_dict())  # type: ignore[return-value]


def _t_ms(arrival_ns: int) -> int | float:
    whole, rest = divmod(arrival_ns, NS_PER_MS)
    return whole if rest == 0 else arrival_ns / NS_PER_MS


def command_step(action: Action, arrival_ns: int) -> dict[str, Any]:
    """The journal's step for an accepted action: ``action_step`` plus the deal of a Start."""
    step = action_step(action, _t_ms(arrival_ns))  # type: ignore[arg-type]
    if isinstance(action, Start):
        assert action.deal is not None, "an accepted Start always carries its deal"
        step["deal"] = action.deal.to_dict()
    return step


class MatchRecorder:
    """One match's journal rows: all of them in memory, and how many the journal holds.

    ``match_id`` None with a ``config``: the match is entered in the journal by the next ``flush``
    (with all its rows). With ``journal`` None rows are only kept (``sync`` writes nothing) until
    ``attach`` gives a journal.
    """

    def __init__(self, journal: Journal | None, match_id: int | None, boot_id: str, *, next_seq: int = 1,
                 wall_clock: Callable[[], float] = time.time, finished: bool = False,
                 config: MatchConfig | dict[str, Any] | None = None,
                 players: Sequence[int | None] = (None, None), names: Sequence[str | None] = (None, None),
                 created_wall: float | None = None, rows: Sequence[Entry] = (),
                 computer_level: int | None = None, computer_seat: int | None = None,
                 event: EventLink | None = None) -> None:
        self.journal = journal if (match_id is not None or config is not None) else None
        self.match_id = match_id
        self.boot_id = boot_id
        self.wall_clock = wall_clock
        self.config: dict[str, Any] | None = config.to_dict() if isinstance(config, MatchConfig) else config
        self.players: tuple[int | None, int | None] = (players[0], players[1])
        """Named player ids in the journal the match is in (None: a guest)."""
        self.names: tuple[str | None, str | None] = (names[0], names[1])
        """Their names, to find them again in another file (None: unknown or a guest)."""
        self.computer_level = computer_level
        """A practice match: the computer's level (it plays ``computer_seat``); None: two people."""
        self.event = event
        """A club event's match: its pairing and the seats that chose berserk (None: no event)."""
        if computer_level is not None and computer_seat == 0 and self.config is not None:
            self.config = {**self.config, COMPUTER_SEAT_KEY: 0}  # kept with the match: a resume seats it again
        self.created_wall = float(wall_clock()) if created_wall is None else float(created_wall)
        self.uuid: str | None = new_match_uuid(self.created_wall) if match_id is None else None
        """The match's UUID when the recorder enters it (kept when it enters it again in another file, so
        the club hub never counts it twice); None for a match read back from a journal."""
        self.first_seq = next_seq - len(rows)
        """The sequence number of ``rows[0]`` (1 unless rows before it could not be read back)."""
        self.rows: list[Entry] = list(rows)
        """Every row of the match known to the recorder, from ``first_seq`` on."""
        self.saved = len(rows)
        """How many of ``rows`` the journal holds."""
        self.finished = finished
        """True once the journal knows the match's outcome."""
        self.outcome: Outcome | None = None
        """The outcome once the match is over (written with the last rows)."""
        self.watched: RecordingMatch | None = None
        """The match ``watch`` listens to."""
        self.housekeeping = True
        """Whether ``flush`` calls ``Journal.after_finish`` itself once the match is finished
        (``JournalKeeper`` turns it off and does it after each round of writes)."""
        self._last_over = finished

    # -- hearing the match -----------------------------------------------------------------

    @property
    def next_seq(self) -> int:
        """The sequence number the next row written takes."""
        return self.first_seq + self.saved

    @property
    def pending(self) -> list[Entry]:
        """The rows the journal does not hold yet."""
        return self.rows[self.saved:]

    @property
    def entered(self) -> bool:
        """True when the journal holds the match (perhaps not all its rows)."""
        return self.journal is not None and self.match_id is not None

    @property
    def up_to_date(self) -> bool:
        """True when the journal holds everything the recorder knows (nothing to flush)."""
        return self.entered and not self.pending and (self.outcome is None or self.finished)

    def watch(self, match: RecordingMatch) -> RecordingMatch:
        """Hear every action ``match`` accepts from now on; returns ``match``."""
        match.listener = self._applied
        self.watched = match
        return match

    def release(self) -> None:
        """Stop hearing the match watched (a recorder done with: the match and it are freed at once,
        not at the next full garbage collection)."""
        if self.watched is not None:
            self.watched.listener = None
        self.watched = None

    def _applied(self, match: Match, action: Action, arrival_ns: int) -> None:
        self.rows.append(Entry(command_step(action, arrival_ns), save_text(match), arrival_ns, self.boot_id,
                               self.wall_clock()))
        self._last_over = match.is_over

    def note(self, match: Match, step: dict[str, Any], now_ns: int) -> None:
        """Queue a row that is not an engine action (``restart``, ``tick``, ``abort``)."""
        self.rows.append(Entry(step, save_text(match), now_ns, self.boot_id, self.wall_clock()))
        self._last_over = match.is_over

    def observe(self, match: Match, now_ns: int) -> None:
        """Take in how ``match`` stands: a match that ended without an action (lost on time seen by a
        tick, aborted by the kiosk) gets a ``tick`` or ``abort`` row at ``now_ns``; the outcome is kept."""
        if match.is_over and not self._last_over:
            outcome = match.outcome
            assert outcome is not None
            if outcome.reason is EndReason.ABORTED:
                self.note(match, {"do": "abort", "reason": outcome.detail, "t": _t_ms(now_ns)}, now_ns)
            else:
                self.note(match, {"do": "tick", "t": _t_ms(now_ns)}, now_ns)
        if match.is_over and self.outcome is None:
            self.outcome = match.outcome

    # -- writing ---------------------------------------------------------------------------

    def sync(self, match: Match, now_ns: int) -> int:
        """Commit what happened to ``match`` since the last call; returns the rows written.

        ``observe`` then ``flush``. Raises a ``JournalError`` when the disk refuses; nothing of the
        batch is then committed and the rows stay pending, so a later ``sync`` (or ``flush``) writes
        them. Without a journal the rows are only kept.
        """
        self.observe(match, now_ns)
        return self.flush()

    def flush(self) -> int:
        """Write the pending rows (entering the match first when the journal does not hold it) and,
        once the match is over, finish it (and rate it) in the same transaction; after that the
        journal checkpoints and writes a backup (``Journal.after_finish``). Returns the rows written."""
        journal = self.journal
        if journal is None or self.up_to_date or (self.match_id is None and self.config is None):
            return 0
        outcome = self.outcome if not self.finished else None  # first: once set, every row is in ``rows``
        entries = tuple(self.pending)
        with journal.database.transaction():
            match_id = self.match_id if self.match_id is not None else self._enter(journal)
            if entries or outcome is not None:
                journal.record_many(match_id, self.next_seq, entries, outcome=outcome, wall_s=self.wall_clock())
        self.match_id = match_id
        self.saved += len(entries)
        if outcome is not None:
            self.finished = True
            if self.housekeeping:
                journal.after_finish()
        return len(entries)

    def _enter(self, journal: Journal) -> int:
        """Enter the match (inside the caller's transaction), its players found by name when known."""
        assert self.config is not None
        seats: list[int | None] = []
        players = Players(journal)
        for pid, name in zip(self.players, self.names, strict=True):
            found = None
            if name is not None:
                known = players.find(name)
                try:
                    found = known.id if known is not None else players.create(name, wall_s=self.created_wall).id
                except PlayerNameError:
                    found = None
            elif pid is not None:
                try:
                    found = players.get(pid).id
                except StoreUsageError:
                    found = None
            seats.append(found)
        if seats[0] is not None and seats[0] == seats[1]:
            seats[1] = None
        if self.computer_level is not None:
            seats[self.computer_seat] = None  # the computer's seat has no player id
        self.players = (seats[0], seats[1])
        return journal.begin_match(self.config, self.players, wall_s=self.created_wall,
                                   computer_level=self.computer_level, uuid=self.uuid, event=self.event)

    @property
    def computer_seat(self) -> int:
        """The seat the computer plays in a practice match: 1, or 0 when the person sat at Player 2's edge."""
        return computer_seat_of(self.config)

    def attach(self, journal: Journal | None) -> None:
        """Write into ``journal`` from now on (None: keep the rows only).

        When ``journal`` holds this match as the recorder wrote it — the same match (id and time
        entered) and, as its last row, one of the recorder's rows (a backup taken mid-match holds
        the first rows only) — writing continues after that row; otherwise the whole match is
        written again by the next ``flush`` (entered anew, every row renumbered from 1).
        """
        self.journal = journal
        if journal is None or (self.config is None and self.match_id is None):
            return
        held = self._held(journal) if self.match_id is not None else None
        if held is None:
            self.reenter()
            return
        self.saved, self.finished = held

    def reenter(self) -> None:
        """Write the whole match again at the next ``flush`` (entered anew, rows renumbered from 1)."""
        if self.config is None:  # a recorder made without its configuration cannot enter its match again
            self.journal = None
            return
        self.match_id = None
        self.first_seq = 1
        self.saved = 0
        self.finished = False

    def _held(self, journal: Journal) -> tuple[int, bool] | None:
        """(how many of ``rows`` ``journal`` holds, whether it has the match finished), or None when
        it does not hold this match as a prefix of the recorder's rows."""
        match_id = self.match_id
        assert match_id is not None
        with journal.database.read() as conn:
            row = conn.execute("SELECT created_wall, finished FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None or float(row[0]) != self.created_wall:
                return None
            last = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE match_id = ?",
                                    (match_id,)).fetchone()[0])
            stored = conn.execute("SELECT checksum FROM entries WHERE match_id = ? AND seq = ?",
                                  (match_id, last)).fetchone()
        finished = bool(row[1])
        held = last - self.first_seq + 1 if last else 0
        if held < 0 or held > len(self.rows) or (held == 0 and last) or (finished and held < len(self.rows)):
            return None
        if held and (stored is None or str(stored[0]) != str(entry_row(match_id, last, self.rows[held - 1])[-1])):
            return None
        return held, finished


def new_recorded_match(journal: Journal | None, config: MatchConfig, players: tuple[int | None, int | None],
                       boot_id: str, *, wall_clock: Callable[[], float] = time.time, computer_level: int | None = None
                       ) -> tuple[RecordingMatch, MatchRecorder]:
    """A fresh match entered in the journal (when there is one) and its recorder, already watching.

    ``computer_level``: a practice match, the computer at that level in seat 1. Raises a
    ``JournalError`` when the journal refuses the match (``JournalKeeper.begin`` never
    raises: it keeps the match and enters it when it can).
    """
    recorder = MatchRecorder(journal, None, boot_id, wall_clock=wall_clock, config=config, players=players,
                             computer_level=computer_level)
    recorder.flush()
    match = recorder.watch(RecordingMatch(config, boot_id=boot_id))
    return match, recorder
