"""From the engine to the journal: every accepted action becomes a journal row, committed in one go.

``RecordingMatch`` is an engine ``Match`` that tells its listener about every accepted action
(``GameSession`` applies commands and automatic passes through ``match.apply``, so nothing in the
session has to change: the app puts a ``RecordingMatch`` in ``session.match``). ``MatchRecorder``
collects those rows and ``sync`` commits them in one transaction — call it after each command,
tick or abort and before the frame shows the result ("committed before shown").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import NS_PER_MS, Action, EndReason, Event, Match, MatchConfig, Start
from engine.scenario import action_step
from engine.snapshot import save_text
from kiosk.store.journal import Journal
from kiosk.store.records import Entry


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
    """The journal rows of one match not yet committed, and the next sequence number.

    With ``journal`` None (the kiosk runs without a journal) everything is a no-op.
    """

    def __init__(self, journal: Journal | None, match_id: int | None, boot_id: str, *, next_seq: int = 1,
                 wall_clock: Callable[[], float] = time.time, finished: bool = False) -> None:
        self.journal = journal if match_id is not None else None
        self.match_id = match_id
        self.boot_id = boot_id
        self.next_seq = next_seq
        self.wall_clock = wall_clock
        self.pending: list[Entry] = []
        self.finished = finished
        """True once the journal knows the match's outcome."""
        self._last_over = finished

    def watch(self, match: RecordingMatch) -> RecordingMatch:
        """Hear every action ``match`` accepts from now on; returns ``match``."""
        match.listener = self._applied
        return match

    def _applied(self, match: Match, action: Action, arrival_ns: int) -> None:
        if self.journal is None:
            return
        self.pending.append(Entry(command_step(action, arrival_ns), save_text(match), arrival_ns, self.boot_id,
                                  self.wall_clock()))
        self._last_over = match.is_over

    def note(self, match: Match, step: dict[str, Any], now_ns: int) -> None:
        """Queue a row that is not an engine action (``restart``, ``tick``, ``abort``)."""
        if self.journal is None:
            return
        self.pending.append(Entry(step, save_text(match), now_ns, self.boot_id, self.wall_clock()))
        self._last_over = match.is_over

    def sync(self, match: Match, now_ns: int) -> int:
        """Commit what happened to ``match`` since the last call; returns the rows written.

        A match that ended without an action (lost on time seen by a tick, or aborted by the
        kiosk) gets a ``tick`` or ``abort`` row at ``now_ns``; a finished match is finished (and
        rated) in the journal in the same transaction. Raises a ``JournalError`` when the disk
        refuses; nothing of the batch is then committed and the recorder is as it was before the
        call (its rows still pending, so a later ``sync`` writes them).
        """
        if self.journal is None or self.match_id is None or self.finished:
            self.pending.clear()
            return 0
        before = (list(self.pending), self._last_over)
        if match.is_over and not self._last_over:
            outcome = match.outcome
            assert outcome is not None
            if outcome.reason is EndReason.ABORTED:
                self.note(match, {"do": "abort", "reason": outcome.detail, "t": _t_ms(now_ns)}, now_ns)
            else:
                self.note(match, {"do": "tick", "t": _t_ms(now_ns)}, now_ns)
        if not self.pending and not match.is_over:
            return 0
        entries = tuple(self.pending)
        outcome = match.outcome if match.is_over else None
        try:
            self.journal.record_many(self.match_id, self.next_seq, entries, outcome=outcome,
                                     wall_s=self.wall_clock())
        except BaseException:
            self.pending, self._last_over = before
            raise
        self.pending.clear()
        self.next_seq += len(entries)
        self.finished = outcome is not None
        return len(entries)


def new_recorded_match(journal: Journal | None, config: MatchConfig, players: tuple[int | None, int | None],
                       boot_id: str, *, wall_clock: Callable[[], float] = time.time
                       ) -> tuple[RecordingMatch, MatchRecorder]:
    """A fresh match entered in the journal (when there is one) and its recorder, already watching."""
    match_id = None if journal is None else journal.begin_match(config, players, wall_s=wall_clock())
    recorder = MatchRecorder(journal, match_id, boot_id, wall_clock=wall_clock)
    match = recorder.watch(RecordingMatch(config, boot_id=boot_id))
    return match, recorder
