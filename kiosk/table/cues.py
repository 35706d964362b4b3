"""What the table should sound like: the cues a match gives, frame by frame (no pygame).

``CueWatcher.observe`` is given the match at the table (``controller.session``) and the time once
a frame and returns what happened since its previous call, each thing once:

- ``YOUR_TURN`` (for the player): the turn passed to a player — a round's first decision, the next
  bid, the next tile, also the hand-over that waits for that player's reveal (the reveal itself is
  the same turn and says nothing); a turn that comes back to the same player after the other's
  forced pass counts as a new turn.
- ``SCORE`` (for the scorer): a placement scored (a ``Transfer`` of reason ``SCORE``).
- ``LOW_BANK_20`` / ``LOW_BANK_10`` (for the player whose clock runs): the bank is draining (the
  decision's delay is used up) and is below 20 s / 10 s; each at most once per clock run (a
  decision), and a run that is already below 10 s gives only ``LOW_BANK_10``.
- ``FLAG`` (for the player who lost on time): the match ended on time.
- ``MATCH_END`` (for the winner, None after an abort): the match ended otherwise (points, a
  resignation, an abort).

The match the watcher is made with (a match resumed from the journal at start-up) counts as heard:
nothing that happened before is replayed. A match that appears later (a new match) is heard from its
beginning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine import LOW_BANK_NS, NS_PER_S, EndReason, Match, Phase, Transfer, TransferReason
from kiosk.table.session import GameSession

LOW_BANK_THRESHOLDS_NS = (10 * NS_PER_S, LOW_BANK_NS)
"""The low-bank warnings, most urgent first (the second: where the bank turns low, ``engine.LOW_BANK_NS``)."""
TURN_PHASES = (Phase.AUCTION, Phase.PLAY, Phase.HANDOVER)


class CueKind(StrEnum):
    """A kind of sound the table makes."""

    YOUR_TURN = "your_turn"
    SCORE = "score"
    LOW_BANK_20 = "low_bank_20"
    LOW_BANK_10 = "low_bank_10"
    FLAG = "flag"
    MATCH_END = "match_end"


LOW_BANK_CUES = {10 * NS_PER_S: CueKind.LOW_BANK_10, LOW_BANK_NS: CueKind.LOW_BANK_20}


@dataclass(frozen=True, slots=True)
class Cue:
    """One thing to be heard, and the player it concerns (None: nobody in particular)."""

    kind: CueKind
    player: int | None = None


TurnKey = tuple[int, int, int]
"""Who is to act, in which round, with how many tiles on the table."""
RunKey = tuple[int, int]
"""Whose clock runs and since when (one decision)."""


def turn_key(match: Match) -> TurnKey | None:
    """What identifies a turn: a player to act in the auction, the play or a hand-over (else None)."""
    player = match.to_act
    if player is None or match.phase not in TURN_PHASES:
        return None
    return (player, match.round, len(match.layout))


def run_key(match: Match) -> RunKey | None:
    """What identifies a clock run (None: no clock runs)."""
    player, since = match.clock_running, match.decision_started_ns()
    if player is None or since is None or match.is_over:
        return None
    return (player, since)


class CueWatcher:
    """Turns the state of the match at the table into cues, each heard once."""

    def __init__(self, session: GameSession | None = None, now_ns: int = 0) -> None:
        self._session: GameSession | None = None
        self._events_seen = 0
        self._turn: TurnKey | None = None
        self._run: RunKey | None = None
        self._warned: set[int] = set()
        """The low-bank thresholds already heard in this clock run."""
        self._over = False
        """Whether the match's end was heard."""
        if session is not None:  # already there (a resumed match): what it did so far counts as heard
            self._session = session
            self._events_seen = len(session.events)
            self._turn = turn_key(session.match)
            self._over = session.match.is_over
            self._low_bank(session.match, now_ns)

    def observe(self, session: GameSession | None, now_ns: int) -> list[Cue]:
        """The cues since the previous call, in the order they happened (scores, the end, the turn, the
        bank)."""
        if session is not self._session:
            self._session = session
            self._events_seen, self._turn, self._run, self._warned, self._over = 0, None, None, set(), False
        if session is None:
            return []
        cues = self._scores(session)
        match = session.match
        outcome = match.outcome
        if outcome is not None and not self._over:  # (an abort is not among the session's events)
            if outcome.reason is EndReason.TIME and outcome.winner is not None:
                cues.append(Cue(CueKind.FLAG, 1 - outcome.winner))
            else:
                cues.append(Cue(CueKind.MATCH_END, outcome.winner))
        self._over = outcome is not None
        turn = turn_key(match)
        if turn is not None and turn != self._turn:
            cues.append(Cue(CueKind.YOUR_TURN, turn[0]))
        self._turn = turn
        cues.extend(self._low_bank(match, now_ns))
        return cues

    def _scores(self, session: GameSession) -> list[Cue]:
        """The scores among the session's new events."""
        events = session.events
        if len(events) < self._events_seen:  # never shrinks; were it replaced, hear only what comes next
            self._events_seen = len(events)
        cues = [Cue(CueKind.SCORE, event.payee) for event in events[self._events_seen :]
                if isinstance(event, Transfer) and event.reason is TransferReason.SCORE]
        self._events_seen = len(events)
        return cues

    def _low_bank(self, match: Match, now_ns: int) -> list[Cue]:
        """The low-bank warning crossed in the running decision, if any (one per threshold and run)."""
        run = run_key(match)
        if run != self._run:
            self._run, self._warned = run, set()
        if run is None or match.delay_left_ns(now_ns) > 0:
            return []
        player = run[0]
        bank = match.bank_ns(player, now_ns)
        for threshold in LOW_BANK_THRESHOLDS_NS:
            if bank < threshold and threshold not in self._warned:
                self._warned.update(t for t in LOW_BANK_THRESHOLDS_NS if t >= threshold)
                return [Cue(LOW_BANK_CUES[threshold], player)]
        return []
