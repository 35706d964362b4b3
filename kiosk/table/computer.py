"""The computer in a practice match (no pygame): it plays one seat with ``engine.bots.choose``.

The frame loop never waits for it. When the computer's seat is to act, the controller's ``update``
calls ``ComputerPlayer.update`` each frame: the first call hands the seat's ``PlayerView`` to a
worker (an ``Executor``: a thread in the kiosk, ``InlineExecutor`` in tests and screenshots, which
runs the job at once); a later call, once the answer is in and the computer's pause has passed since
the turn began (``min_move_ns``: ``[computer] think_seconds``, default ``MIN_MOVE_NS``, so that
each move can be followed), applies it through the session at that frame's time, as a tap would be
(journalled the same way). Level 4 searches for what is left of that pause when it is asked (less
one frame, ``ANSWER_MARGIN_NS``, for the answer to be picked up): a slower machine plays weaker in
the same pause, not slower. An answer is applied
only if the match is still what it was asked about (same match, same view at the instant of the
question); otherwise it is dropped (the person resigned meanwhile, the owner stopped the match).

The hint (practice matches only) asks level 4 what it would play for the person's seat, in the
same worker; the table raises that tile in the hand and rings its point on the board.

Time comes from the controller's clock only (``kiosk.timesource``), which the search also reads
for its budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any

from engine import NS_PER_S, Accept, Action, Bid, Decline, Draw, Match, Phase, Play, PlayerView, bots
from kiosk.i18n import N_, T, Text
from kiosk.table.session import GameSession

COMPUTER_SEAT = 1
"""The computer's seat unless the person started the match from Player 2's half (then it plays seat 0)."""
PERSON_SEAT = 0
MIN_MOVE_NS = NS_PER_S
"""The computer's move is applied no sooner than this after its turn began (the default of
``[computer] think_seconds``)."""
ANSWER_MARGIN_NS = NS_PER_S // 30
"""Level 4 stops searching this long before the pause ends: the frame loop looks for the answer once
a frame."""
MIN_BUDGET_NS = 20 * NS_PER_S // 1000
"""Level 4's budget when the pause is (nearly) over at the question (it then falls back to level 3
if even this is too short)."""
HINT_LEVEL = 4
LEVEL_NAMES: dict[int, str] = {1: N_("Beginner"), 2: N_("Casual"), 3: N_("Club"), 4: N_("Expert")}
"""The levels as players name them (``engine.bots`` levels 1 to 4)."""


def level_name(level: int) -> Text:
    """The level's name as a translatable text ("Club")."""
    return Text(LEVEL_NAMES[level])


def computer_name(level: int) -> Text:
    """The computer's name at ``level``: "Computer (Club)"."""
    return T("Computer ({level})", level=level_name(level))


class InlineExecutor(Executor):
    """Runs each job at once in the caller's thread (tests, screenshots, tools)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the future carries it to whoever asks for the result
            future.set_exception(exc)
        return future


@dataclass
class Question:
    """A decision handed to the worker: for which match and view, since when."""

    match_id: int
    view: PlayerView
    asked_ns: int
    turn_began_ns: int
    future: Future[Action]


class ComputerPlayer:
    """One seat played by ``engine.bots`` at ``level``, and the person's level-4 hint."""

    def __init__(self, level: int, clock: Callable[[], int], executor: Executor, rng: random.Random, *,
                 seat: int = COMPUTER_SEAT, samples: int | None = None, budget_ns: int | None = None,
                 min_move_ns: int = MIN_MOVE_NS) -> None:
        if level not in bots.LEVELS:
            raise ValueError(f"no computer level {level!r}")
        self.level = level
        self.seat = seat
        self.clock = clock
        self.executor = executor
        self.rng = rng
        self.samples = samples
        """Level 4's fixed amount of work (tests); None: the budget on ``clock`` bounds it."""
        self.budget_ns = budget_ns
        """Level 4's fixed thinking time per decision (None: what is left of the pause, ``budget_for``)."""
        self.min_move_ns = min_move_ns
        """The pause before each move (``[computer] think_seconds``)."""
        self.question: Question | None = None
        self.hint_question: Question | None = None
        self.hint: tuple[Question, Action] | None = None
        """The answered hint: the question (match, view and its instant) and the action."""
        self._news: Action | None = None
        self.dropped = 0
        """Answers dropped because the match had changed meanwhile."""
        self.moves = 0
        """Actions the computer applied."""

    # -- what the table shows -------------------------------------------------------------

    def again(self) -> tuple[int, int]:
        """(level, the person's seat): a rematch the same way."""
        return self.level, self.person

    @property
    def person(self) -> int:
        """The person's seat."""
        return 1 - self.seat

    def thinking(self, match: Match) -> bool:
        """Whether the computer is to decide now (its side says so)."""
        return (not match.is_over and match.to_act == self.seat
                and match.phase in (Phase.AUCTION, Phase.PLAY, Phase.HANDOVER))

    def hint_for(self, match: Match) -> Action | None:
        """The level-4 hint for the person, while the match is still where it was asked."""
        if self.hint is None:
            return None
        question, action = self.hint
        return action if self._same(match, question) else None

    def hint_pending(self, match: Match) -> bool:
        """A hint was asked for and is being worked out."""
        q = self.hint_question
        return q is not None and self._same(match, q)

    # -- the frame loop -------------------------------------------------------------------

    def due_ns(self, match: Match | None, now: int) -> int | None:
        """When the loop must next call ``update`` for the computer (None: nothing to wait for)."""
        if match is None:
            return None
        due: list[int] = []
        for q in (self.question, self.hint_question):
            if q is not None and not q.future.done():
                due.append(now + NS_PER_S // 30)  # the worker's answer: looked for every frame
        q = self.question
        if q is not None and q.future.done():
            due.append(max(now, q.turn_began_ns + self.min_move_ns))
        elif q is None and self.thinking(match):
            due.append(now)
        return min(due) if due else None

    def update(self, match: Match, now: int, apply: Callable[[Action, int], bool]) -> bool:
        """Ask, or apply the answer when it is in and due (``apply(action, now)``: the session's
        command path); True when an action was applied."""
        self._take_hint(match)
        q = self.question
        if q is not None and not self._same(match, q):
            self.question = None  # asked about a match that has moved on: the answer means nothing now
            self.dropped += 1
            q = None
        if not self.thinking(match):
            return False
        if q is None:
            self.question = self._ask(match, self.seat, self.level, now)
            q = self.question
        if not q.future.done() or now < q.turn_began_ns + self.min_move_ns:
            return False
        self.question = None
        action = self._answer(q)
        applied = apply(action, now)
        self.moves += int(applied)
        return applied

    def ask_hint(self, match: Match, now: int) -> bool:
        """The person asked what level 4 would play; False when it is not their decision."""
        legal = match.legal_actions()
        if match.is_over or match.to_act != self.person or match.phase not in (Phase.AUCTION, Phase.PLAY) or not legal:
            return False
        if self.hint_for(match) is None and not self.hint_pending(match):
            self.hint_question = self._ask(match, self.person, HINT_LEVEL, now)
        return True

    def cancel(self) -> None:
        """Forget the questions (the match is left); a running job's answer is ignored."""
        for q in (self.question, self.hint_question):
            if q is not None:
                q.future.cancel()
        self.question = self.hint_question = None
        self.hint = None

    # -- internals ----------------------------------------------------------------------------

    def budget_for(self, turn_began_ns: int, now: int) -> int:
        """Level 4's thinking time for a question asked at ``now`` about a turn that began at
        ``turn_began_ns``: the fixed ``budget_ns``, else what is left of the pause less
        ``ANSWER_MARGIN_NS`` (at least ``MIN_BUDGET_NS``)."""
        if self.budget_ns is not None:
            return self.budget_ns
        return max(MIN_BUDGET_NS, turn_began_ns + self.min_move_ns - ANSWER_MARGIN_NS - now)

    def _ask(self, match: Match, seat: int, level: int, now: int) -> Question:
        view = PlayerView.of(match, seat, now)
        rng = random.Random(self.rng.getrandbits(64))  # the worker's own: nothing shared across threads
        began = match.decision_started_ns()
        turn_began = now if began is None or seat != self.seat else min(began, now)  # a hint: from the asking
        future = self.executor.submit(bots.choose, view, level, rng, samples=self.samples,
                                      budget_ns=self.budget_for(turn_began, now), clock=self.clock)
        return Question(id(match), view, now, now if began is None else min(began, now), future)

    def _answer(self, q: Question) -> Action:
        """The worker's action; should the worker fail, a level-1 choice (a legal action at once)."""
        try:
            return q.future.result()
        except Exception:
            return bots.choose(q.view, 1, random.Random(q.asked_ns))

    def _take_hint(self, match: Match) -> None:
        q = self.hint_question
        if q is None or not q.future.done():
            return
        self.hint_question = None
        if self._same(match, q):
            self.hint = (q, self._answer(q))
            self._news = self.hint[1]

    def take_news(self) -> Action | None:
        """The hint that came in since the last call (once), or None."""
        news, self._news = self._news, None
        return news

    @staticmethod
    def _same(match: Match, q: Question) -> bool:
        """Whether ``match`` is still the one ``q`` asked about, unchanged for its seat (the seat's
        view at the instant of the question is the same)."""
        if id(match) != q.match_id:
            return False
        try:
            return PlayerView.of(match, q.view.seat, q.asked_ns) == q.view
        except Exception:  # a view the engine cannot make now is not the same view
            return False


def show_hint(session: GameSession, action: Action, player: int, now: int) -> None:
    """Show ``player`` the hint: the tile picked up in the hand (its points lit, the hinted one
    ringed by the play scene) and the hint in words, until the next move."""
    if isinstance(action, Play):
        session.selected = action.tile
    session.say(hint_text(action), now, player, "hint")


def hint_text(action: Action) -> Text:
    """What the hint says (the board and the hand show a tile's place)."""
    match action:
        case Play(tile=tile):
            return T("Hint: play [{tile}]", tile=tile)
        case Draw():
            return T("Hint: draw a tile")
        case Bid(amount=amount):
            return T("Hint: bid {amount}", amount=amount)
        case Accept():
            return T("Hint: accept the bid")
        case Decline():
            return T("Hint: decline")
    return T("Hint: pass")  # the hint is asked only to bid or play: nothing else comes back
