"""Resuming an unfinished match at start-up under the clock rules of RULES.md §7.

Same boot: the running clock continues from its recorded start, so the time the kiosk was down is
charged (and may end the match on time). Another boot (or a monotonic clock that went backwards)
while a clock ran: the match is aborted without a rated result, and the journal says why. No clock
running: play continues. The restart is itself a journal row (``restart`` with ``same_boot``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import EndReason, Event, MatchConfig, Outcome, SnapshotError
from engine.snapshot import restore_text
from kiosk.i18n import N_, T, Text, duration
from kiosk.store.errors import ResumeFailed, StoreUnavailable, StoreUsageError
from kiosk.store.journal import Journal
from kiosk.store.losses import aborted_match, after_loss, loss_message, lost_commits
from kiosk.store.players import Players
from kiosk.store.recorder import MatchRecorder, RecordingMatch, _t_ms
from kiosk.store.records import Entry, ResumePoint


@dataclass
class Resumed:
    """The restored match, ready to go into ``session.match``, and what to tell the players."""

    match: RecordingMatch
    recorder: MatchRecorder
    """Already watching ``match``; the restart row is committed."""
    events: list[Event]
    """What the restore caused (a loss on time while down, an abort)."""
    message: Text
    """What to tell the players (a message value: message id and parameters)."""
    match_id: int
    players: tuple[int | None, int | None]
    seq: int
    """The last good row restored (0: no command had been recorded)."""
    down_ns: int | None
    """From the last recorded command to ``now_ns`` in the same boot (None: not measurable)."""
    dropped: tuple[int, ...] = field(default=())
    """Damaged rows after ``seq`` that were set aside."""
    computer_level: int | None = None
    """A practice match: the computer's level (it plays ``computer_seat``); None: two people."""
    saved: bool = True
    """False when the restart row could not be written (the disk refused): it is pending in
    ``recorder`` and the next ``sync`` writes it."""

    @property
    def computer_seat(self) -> int:
        """The seat the computer plays in a practice match (kept with the match's configuration)."""
        return self.recorder.computer_seat

    @property
    def aborted(self) -> bool:
        """True when the restart aborted the match."""
        o = self.match.outcome
        return o is not None and o.reason is EndReason.ABORTED


Who = Callable[[int], "Text | str"]
"""Who sits in a seat, for the messages: a named player's name, or "Player 2" (a ``Text``; at the table
a practice match's computer is called by its name there, ``kiosk.ui.scenes.naming``)."""


def seat_names(names: tuple[str | None, str | None]) -> Who:
    """``Who`` for a match whose named players are ``names`` (None: a guest or the computer)."""
    def who(seat: int) -> Text | str:
        name = names[seat]
        return name if name else T("Player {number}", number=seat + 1)
    return who


def _seconds(ns: int) -> Text:
    """A downtime as the messages write it ("12 s", "3.5 s"), in each reader's language (``kiosk.i18n.duration``)."""
    return duration(ns)


def resume(journal: Journal, boot_id: str, now_ns: int, *,
           wall_clock: Callable[[], float] = time.time, complete: bool = True) -> Resumed | None:
    """Restore the journal's unfinished match at ``now_ns`` in boot ``boot_id``, or None if none.

    Damaged rows after the last good one are moved to ``discarded_entries`` first. Raises
    ``ResumeFailed`` (after closing the match as aborted in the journal) when the saved state
    cannot be restored at all, e.g. a snapshot from an incompatible engine version; other store
    errors as the journal raises them (``JournalDamaged`` for a damaged page). The recorder holds
    every row of the match read back, so the match can be written whole into another file later.
    A restart row the disk refuses stays pending (``Resumed.saved`` False).

    ``complete`` False: the journal may lack moves the previous process showed (its fault log was
    not found): a running clock's time cannot be proven, so the match is aborted without a result,
    and a stopped one continues without the claim that nothing was lost.
    """
    point = journal.unfinished()
    if point is None:
        return None
    if point.damaged:
        journal.discard_after(point.match_id, point.seq, "damaged: failed its checksum at start-up",
                              wall_s=wall_clock())
    lost = lost_commits(journal)  # the file lost acknowledged rows: abort unrated, never resume from there
    if point.snapshot is None:
        return _not_started(journal, point, boot_id, wall_clock, now_ns)
    try:
        if lost is None:
            match, events, running, same_boot, same_base = _restore(point.snapshot, boot_id, now_ns, complete)
        else:  # the file lost acknowledged rows: aborted unrated from where it stands, nothing charged
            restored, events = after_loss(point.snapshot, lost, boot_id, now_ns)
            match, running, same_boot, same_base = RecordingMatch.adopt(restored), None, False, False
    except (SnapshotError, ValueError, KeyError, TypeError) as exc:
        template = N_("the saved match could not be restored: {error}")
        detail = Outcome(None, EndReason.ABORTED, False, template.format(error=exc), template, (("error", str(exc)),))
        journal.finish(point.match_id, detail, wall_s=wall_clock())
        raise ResumeFailed(T(
            "The kiosk restarted but the unfinished match could not be restored ({error}); it was closed without "
            "a result.", error=str(exc))) from exc
    down_ns = now_ns - point.arrival_ns if same_base and point.arrival_ns is not None else None
    recorder = _recorder(journal, point, boot_id, wall_clock)
    recorder.watch(match)
    _note_restart(recorder, match, same_base, now_ns)
    saved = _write(recorder, match, now_ns)
    message = _message(match, running, same_boot, down_ns, point.damaged, complete,
                       seat_names(recorder.names)) if lost is None else loss_message(lost)
    return Resumed(match, recorder, events, message, point.match_id, point.match.players, point.seq, down_ns,
                   point.damaged, recorder.computer_level, saved)


def resume_logged(recorder: MatchRecorder, boot_id: str, now_ns: int, *, complete: bool,
                  recovered: int = 0) -> Resumed:
    """Restore the match whose rows ``recorder`` holds (read from the fault log: the journal cannot
    be written now, or lacks them) from its last row, under the same rules as ``resume``; the
    restart row is pending in ``recorder``. Raises ``ResumeFailed`` for a snapshot that cannot be
    restored. ``recovered``: rows the journal did not hold (said in the message)."""
    last = recorder.rows[-1]
    try:
        match, events, running, same_boot, same_base = _restore(last.snapshot, boot_id, now_ns, complete)
    except (SnapshotError, ValueError, KeyError, TypeError) as exc:
        raise ResumeFailed(T(
            "The kiosk restarted but the unfinished match could not be restored ({error}); it was closed without "
            "a result.", error=str(exc))) from exc
    down_ns = now_ns - last.arrival_ns if same_base else None
    recorder.watch(match)
    _note_restart(recorder, match, same_base, now_ns)
    message = _message(match, running, same_boot, down_ns, (), complete, seat_names(recorder.names))
    if recovered:
        message = T("{message} The moves not yet on the card were recovered from the kiosk's memory (moves: "
                    "{count}).", message=message, count=recovered)
    seq = recorder.first_seq + len(recorder.rows) - 2
    return Resumed(match, recorder, events, message, recorder.match_id or 0, recorder.players, seq, down_ns, (),
                   recorder.computer_level, False)


def _restore(snapshot: str, boot_id: str, now_ns: int, complete: bool
             ) -> tuple[RecordingMatch, list[Event], int | None, bool, bool]:
    """The match restored from ``snapshot``: (match, events, the seat whose clock ran, same boot, same time base).
    An incomplete journal with a clock running is restored as after another boot (aborted, nothing charged)."""
    data = json.loads(snapshot)
    old_boot = data["boot_id"]
    clock = data["clock"]
    running = clock["running"]
    last_ns = data["last_ns"]
    started = clock["started_ns"]
    proven = complete or running is None
    restored, events = restore_text(snapshot, boot_id=boot_id if proven else f"{boot_id}/unproven", now_ns=now_ns)
    restored.boot_id = boot_id
    same_base = proven and old_boot == boot_id and now_ns >= max(last_ns or 0, started or 0)
    return RecordingMatch.adopt(restored), events, running, proven and old_boot == boot_id, same_base


def _note_restart(recorder: MatchRecorder, match: RecordingMatch, same_base: bool, now_ns: int) -> None:
    step: dict[str, object] = {"do": "restart", "same_boot": same_base, "t": _t_ms(now_ns)}
    if match.is_over and match.outcome is not None and match.outcome.reason is EndReason.ABORTED:
        step["reason"] = match.outcome.detail
    recorder.note(match, step, now_ns)


def _write(recorder: MatchRecorder, match: RecordingMatch, now_ns: int) -> bool:
    try:
        recorder.sync(match, now_ns)
    except StoreUnavailable:
        return False
    return True


def _recorder(journal: Journal, point: ResumePoint, boot_id: str, wall_clock: Callable[[], float]) -> MatchRecorder:
    """The resumed match's recorder, holding the rows read back (the intact ones up to the resume point)."""
    rows: list[Entry] = []
    expected = point.seq
    for stored in reversed([e for e in journal.commands(point.match_id) if e.seq <= point.seq]):
        if stored.seq != expected or not stored.intact or stored.snapshot is None:
            break
        rows.append(Entry(stored.step, stored.snapshot, stored.arrival_ns, stored.boot_id, stored.wall_s))
        expected -= 1
    rows.reverse()
    names: list[str | None] = []
    players = Players(journal)
    for pid in point.match.players:
        try:
            names.append(None if pid is None else players.get(pid).name)
        except StoreUsageError:
            names.append(None)
    return MatchRecorder(journal, point.match_id, boot_id, next_seq=point.seq + 1, wall_clock=wall_clock,
                         config=point.match.config, players=point.match.players, names=names,
                         created_wall=point.match.created_wall, rows=rows,
                         computer_level=journal.computer_levels([point.match_id]).get(point.match_id))


def _not_started(journal: Journal, point: ResumePoint, boot_id: str,
                 wall_clock: Callable[[], float], now_ns: int) -> Resumed:
    try:
        config = MatchConfig.from_dict(point.match.config)
    except (ValueError, KeyError, TypeError) as exc:
        raise ResumeFailed(T("The kiosk restarted but the unfinished match could not be restored ({error}); it was "
                             "closed without a result.", error=str(exc))) from exc
    recorder = _recorder(journal, point, boot_id, wall_clock)
    match = recorder.watch(RecordingMatch(config, boot_id=boot_id))
    lost = lost_commits(journal)
    if lost is not None:  # its first rows may be what was lost: no result from a guess
        events = aborted_match(match, lost, boot_id, now_ns)
        step: dict[str, object] = {"do": "restart", "same_boot": False, "t": _t_ms(now_ns),
                                   "reason": match.outcome.detail if match.outcome is not None else None}
        recorder.note(match, step, now_ns)
        saved = _write(recorder, match, now_ns)
        return Resumed(match, recorder, events, loss_message(lost), point.match_id, point.match.players, 0, None,
                       point.damaged, recorder.computer_level, saved)
    message = T("The kiosk restarted before the match began; press Start when ready.")
    if point.damaged:
        message = T("{message} The first command was damaged by the power cut and was dropped.", message=message)
    return Resumed(match, recorder, [], message, point.match_id, point.match.players, 0, None, point.damaged,
                   recorder.computer_level)


def _message(match: RecordingMatch, running: int | None, same_boot: bool, down_ns: int | None,
             damaged: tuple[int, ...], complete: bool, who: Who) -> Text:
    if not complete:
        message = _unproven_message(match, running, who)
    else:
        message = _restart_message(match, running, same_boot, down_ns, who)
    if damaged:
        return T("{message} The last command before the power cut was damaged and was dropped.", message=message)
    return message


def _restart_message(match: RecordingMatch, running: int | None, same_boot: bool, down_ns: int | None,
                     who: Who) -> Text:
    o = match.outcome
    if running is None:
        if o is not None:
            return T("The kiosk restarted; the match had already ended.")
        return T("The kiosk restarted; no clock was running, so nothing was lost.")
    player = who(running)
    if o is not None and o.reason is EndReason.ABORTED:
        if not same_boot:
            return T("The machine restarted while {player}'s clock was running: the match is aborted without "
                     "a result.", player=player)
        return T("The kiosk's clock went backwards while {player}'s clock was running: the match is aborted "
                 "without a result.", player=player)
    if o is not None and o.reason is EndReason.TIME:
        if down_ns is None:
            return T("The kiosk restarted; {player}'s time ran out while it was down: {other} wins on time.",
                     player=player, other=who(1 - running))
        return T("The kiosk restarted; {player}'s time ran out while it was down ({down}): {other} wins on time.",
                 player=player, down=_seconds(down_ns), other=who(1 - running))
    if down_ns is None:
        return T("The kiosk restarted; the match continues on {player}'s clock.", player=player)
    return T("The kiosk restarted; the match continues — the {down} it was down were charged to {player}.",
             down=_seconds(down_ns), player=player)


def _unproven_message(match: RecordingMatch, running: int | None, who: Who) -> Text:
    """A restart that cannot tell whether the journal holds every move shown before it."""
    if match.outcome is not None and running is None:
        return T("The kiosk restarted; the match had already ended.")
    if running is not None:
        return T("The kiosk restarted while {player}'s clock was running, and it cannot tell whether the last "
                 "moves reached the card: the match is aborted without a result.", player=who(running))
    return T("The kiosk restarted; no clock was running. The match continues from the last move saved on the card.")
