"""A whole Spectacular Bid match: rounds, openings, the auction, play, settlement and the clock.

``Match`` is the engine's one stateful object. Every command comes in as an action with its
arrival time in integer nanoseconds of the monotonic clock; the engine never reads a clock and
never draws random numbers (deals come in with the Start action). Its fields are one record
(``state.py``), its read-only side is ``reading.py``, the shared tables of legal actions ``rules.py``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Any

from .actions import Accept, Action, Bid, Decline, Draw, Pass, Play, Resign, Reveal, Start
from .auction import Auction, max_affordable_bid, net_payment
from .clock import MatchClock
from .deal import HAND_SIZE
from .errors import (
    BAD_AMOUNT,
    BONEYARD_EMPTY,
    CANNOT_DRAW_NOW,
    CANNOT_PASS_NOW,
    DECLINE_FIRST_ONLY,
    DRAW_FIRST,
    NO_BID_TO_ACCEPT,
    NO_DEAL,
    NO_HANDOVER,
    NOT_A_COMMAND,
    NOT_A_TIME,
    NOT_IN_HAND,
    OTHER_PLAYER_REVEALS,
    OUT_OF_ORDER,
    SNAPSHOT_DAMAGED,
    SNAPSHOT_WRONG_VERSION,
    START_BETWEEN_ROUNDS,
    UNAFFORDABLE,
    BadAmount,
    CannotDraw,
    CannotPass,
    IllegalPlay,
    Malformed,
    NoDeal,
    NotYourTurn,
    SnapshotError,
    Unaffordable,
    WrongPhase,
)
from .events import (
    CLOCK_WENT_BACKWARDS,
    RESTARTED_WHILE_RUNNING,
    TIMING_FAILURE,
    EndReason,
    Event,
    MatchEnded,
    Outcome,
    RoundEnded,
    Transfer,
    TransferReason,
)
from .history import K_ACCEPT, K_BID, K_DECLINE, K_DRAW, K_PASS, K_PLAY
from .layout import Layout
from .refusals import MatchRefusals
from .rules import (
    ACCEPT,
    DECLINE,
    FITS,
    ONLY_DRAW,
    ONLY_PASS,
    OPENING_PLAY,
    PASS,
    PLAY_AT,
    PLAYERS,
    REVEAL,
    SCORES,
    START,
    bids,
    opening_rank_index,
    ranked_opener,
    ranked_opener_index,
    round_to_five,
)
from .state import (
    SNAPSHOT_VERSION,
    AuctionView,
    MatchConfig,
    MatchState,
    Phase,
    copy_fields,
    state_from_dict,
    state_to_dict,
)

__all__ = [
    "PLAYERS",
    "SNAPSHOT_VERSION",
    "AuctionView",
    "Match",
    "MatchConfig",
    "Phase",
    "opening_rank_index",
    "ranked_opener",
    "round_to_five",
]

_READY, _AUCTION, _PLAY, _HANDOVER, _MATCH_OVER = (
    Phase.READY, Phase.AUCTION, Phase.PLAY, Phase.HANDOVER, Phase.MATCH_OVER
)
_SCORE, _BLOCKED, _AUCTION_PAID = TransferReason.SCORE, TransferReason.BLOCKED, TransferReason.AUCTION
"""The transfer reasons as plain names (an enum member's lookup through its class is slow)."""

_DEFAULT_CONFIG = MatchConfig()
_DEFAULT_CLOCK = MatchClock(_DEFAULT_CONFIG.bank_ns, _DEFAULT_CONFIG.delay_ns)
"""A stopped clock for the default configuration (in ``_FRESH``: copied, never changed itself)."""


class Match(MatchRefusals):
    """One match between players 0 and 1 (RULES.md). Illegal commands raise and change nothing."""

    __slots__ = ()

    def __init__(self, config: MatchConfig | None = None, *, boot_id: str = "") -> None:
        if config is None or config is _DEFAULT_CONFIG:
            copy_fields(_FRESH, self)  # a copy of the fresh default match: cheaper than building one
            self.boot_id = boot_id
            return
        MatchState.__init__(self, config=config, boot_id=boot_id, _balances=list(config.balances),
                            _jockey=config.jockey, _clock=MatchClock(config.bank_ns, config.delay_ns),
                            _handover=config.handover)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the player to act, in a fixed order (Resign, always open, not listed).

        Ready: Start. Hand-over: Reveal. Auction: Decline or Accept first, then each legal bid
        upward. Play: each tile in hand (name order) at each of its points (point order); or Draw;
        or Pass. For Start the listed action carries no deal: give one when applying it.
        """
        legal = self._legal
        if legal is not None:
            return legal
        layout = self._layout
        points = layout.open_indices
        if self._phase is not _PLAY or not points or self._drawn >= 0:
            legal = self._legal = self._other_legal()
            return legal
        # the usual turn of play (here rather than in a helper: it is listed before nearly every command)
        player = self.to_act
        assert player is not None
        table = PLAY_AT[player]
        fits = FITS[layout.open_values_mask]
        plays: list[Action] = []
        for t in self._hands[player]:
            if fits[t]:
                row = table[t]
                for p in points:
                    action = row[p]
                    if action is not None:
                        plays.append(action)
        if plays:
            legal = self._legal = tuple(plays)
        else:
            legal = self._legal = ONLY_DRAW[player] if self._boneyard else ONLY_PASS[player]
        return legal

    def must_pass(self) -> bool:
        """Whether the player to act can only pass on this turn of play: no tile in hand fits and the
        boneyard is empty (in play, or in the hand-over before that turn)."""
        player = self.to_act
        if player is None:
            return False
        if self._phase is _PLAY:
            return self.legal_actions() == (PASS[player],)
        layout = self._layout
        return (self._phase is _HANDOVER and self._after_reveal is _PLAY and not layout.is_empty
                and not self._boneyard and not any(layout.can_place(t) for t in self.hand(player)))

    def _other_legal(self) -> tuple[Action, ...]:
        """``legal_actions`` outside the usual turn of play: the opening, a drawn tile, the other phases."""
        phase = self._phase
        player = self.to_act
        if phase is _PLAY:
            assert player is not None
            points = self._layout.open_indices
            if not points:  # the opening
                openings = OPENING_PLAY[player]
                if self._opening_tile >= 0:
                    return (openings[self._opening_tile],)
                return tuple([openings[t] for t in self._hands[player]])
            row = PLAY_AT[player][self._drawn]  # a drawn tile that fits: it must be played
            return tuple([row[p] for p in points if row[p] is not None])  # type: ignore[misc]
        if phase is _AUCTION:
            assert player is not None and self._auction is not None
            a = self._auction
            first: Action = DECLINE[player] if a.bid is None else ACCEPT[player]
            top = max_affordable_bid(self._balances[player], player, a.jockey)
            return (first, *bids(player, a.min_bid, top))
        if phase is _HANDOVER:
            assert player is not None
            return (REVEAL[player],)
        if phase is _READY:
            return (START,)
        return ()

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` would be accepted now (Start: if it carries a deal)."""
        if isinstance(action, Resign):
            return self._outcome is None and action.player in PLAYERS
        if isinstance(action, Start):
            return self._phase is _READY and action.deal is not None
        return action in self.legal_actions()

    # ------------------------------------------------------------------ applying

    def advance(self, now_ns: int) -> list[Event]:
        """Let time pass to ``now_ns``: a running clock at or past its deadline ends the match on time.

        Apply every command that arrived before ``now_ns`` first: a command counts by its arrival.
        A reading older than the last accepted command changes nothing.
        """
        events: list[Event] = []
        if self._outcome is None and (self._last_ns is None or now_ns >= self._last_ns):
            self._flag_if_late(now_ns, events)
        return events

    def apply(self, action: Action, now_ns: int) -> list[Event]:
        """Apply ``action`` that arrived at ``now_ns`` and return what happened.

        Raises an ``IllegalAction`` subclass (with ``code`` and a message) and changes nothing
        when the action is refused. A running clock whose deadline is at or before ``now_ns``
        first ends the match on time; the action is then refused with ``MatchIsOver``.
        """
        if type(now_ns) is not int:
            raise Malformed(NOT_A_TIME, now=now_ns)
        last_ns = self._last_ns
        if last_ns is not None and now_ns < last_ns:
            raise Malformed(OUT_OF_ORDER, now=now_ns, last=last_ns)
        events: list[Event] = []
        deadline = self._clock.deadline
        if deadline is not None and now_ns >= deadline:
            self._flag_if_late(now_ns, events)
        if self._outcome is not None:
            raise self.over_refusal()
        try:
            handler = _HANDLERS[type(action)]
        except KeyError:
            raise Malformed(NOT_A_COMMAND, action=action) from None
        handler(self, action, now_ns, events)
        self._last_ns = now_ns
        self._legal = None
        return events

    def abort(self, now_ns: int, why: str = TIMING_FAILURE, **params: object) -> list[Event]:
        """End the match without a winner or rated result after a proven timing failure.

        ``why`` is a message template (a message id) and ``params`` fill its placeholders; the
        outcome keeps both and the English ``detail``. The running decision is charged nothing:
        its time cannot be proven.
        """
        if self._outcome is not None:
            return []
        values = tuple(sorted((name, str(value)) for name, value in params.items()))
        try:
            detail = why.format(**dict(values))
        except (KeyError, IndexError, ValueError):
            detail = why
        events: list[Event] = []
        self._clock.drop()
        self._end(Outcome(None, EndReason.ABORTED, False, detail, why, values), now_ns, events)
        return events

    # ------------------------------------------------------------------ handlers

    def _start(self, action: Start, now_ns: int, events: list[Event]) -> None:
        if self._phase is not _READY:
            raise WrongPhase(START_BETWEEN_ROUNDS)
        deal = action.deal
        if deal is None:
            raise NoDeal(NO_DEAL)
        self._round += 1
        order = deal.tile_indices
        self._hands = [sorted(order[:HAND_SIZE]), sorted(order[HAND_SIZE : 2 * HAND_SIZE])]
        self._boneyard = list(order[2 * HAND_SIZE :])
        if not self._layout.is_empty:  # a fresh match's layout serves its first round
            self._layout = Layout()
        self._drawn = -1
        self._passes = 0
        self._last_actor = None
        self._history = []
        self._ranked = self._jockey is None
        if self._jockey is None:
            opener, self._opening_tile = ranked_opener_index(self._hands)
            self._begin(opener, now_ns, _PLAY)
        else:
            self._opening_tile = -1
            self._auction = Auction(self._jockey)
            self._begin(1 - self._jockey, now_ns, _AUCTION)

    def _reveal(self, action: Reveal, now_ns: int, events: list[Event]) -> None:
        if self._phase is not _HANDOVER:
            raise WrongPhase(NO_HANDOVER)
        if action.player != self.to_act:
            raise NotYourTurn(OTHER_PLAYER_REVEALS)
        assert self._after_reveal is not None
        self._phase = self._after_reveal
        self._after_reveal = None
        self._clock.start(action.player, now_ns)

    def _play(self, action: Play, now_ns: int, events: list[Event]) -> None:
        player = action.player
        if self._phase is not _PLAY or player != self.to_act:
            self._check_turn(player, _PLAY)
        t = action.tile_index  # a Play always names one of the 28 tiles
        p = action.point_index
        layout = self._layout
        if (self._drawn >= 0 or self._opening_tile >= 0 or p not in layout.open_indices  # NO_POINT is never open
                or PLAY_AT[player][t][p] is None):
            self._check_play(action)  # the opening, a tile that must be played, or a refusal
            self._opening_tile = self._drawn = -1  # played now: the play cannot be refused any more
        hand = self._hands[player]
        try:
            hand.remove(t)  # the usual play's last check
        except ValueError:
            raise IllegalPlay(NOT_IN_HAND, tile=action.tile) from None
        self._history.append((player, K_PLAY, t, p))
        self._last_actor = player
        # the player's decision ends here: charged by _end, by the stop in _lay, or by the switch
        if not self._lay(player, t, p, now_ns, events):
            return
        if self._handover:
            self._begin(1 - player, now_ns, _PLAY)
        else:
            self.to_act = player = 1 - player  # _begin without a hand-over: the phase stays
            self._clock.switch(player, now_ns)

    def _lay(self, player: int, t: int, p: int, now_ns: int, events: list[Event]) -> bool:
        """The move of a play (the search's rollout makes its plays with it too): tile ``t``, already
        taken from ``player``'s hand, placed at point index ``p``; its score; the round's end when that
        hand is empty. True while the round goes on (the turn not yet passed on)."""
        count = self._layout.place_index(t, p)
        self._passes = 0
        if SCORES[count]:
            self._transfer(1 - player, player, count, _SCORE, now_ns, events)
            if self._outcome is not None:
                return False
        if not self._hands[player]:
            self._clock.stop(now_ns)
            self._phase = _READY
            self.to_act = None
            self._jockey = player
            events.append(RoundEnded(self._round, False, player, self.pip_totals(), now_ns))
            return False
        return True

    def _draw(self, action: Draw, now_ns: int, events: list[Event]) -> None:
        player = action.player
        if self._legal is not ONLY_DRAW[player]:  # else listed as the only legal action just now
            self._check_turn(player, _PLAY)
            self._check_nothing_fits(player, CannotDraw, CANNOT_DRAW_NOW)
            if not self._boneyard:
                raise CannotDraw(BONEYARD_EMPTY)
        drawn = self._boneyard.pop(0)
        insort(self._hands[player], drawn)
        self._history.append((player, K_DRAW, drawn, -1))
        if FITS[self._layout.open_values_mask][drawn]:
            self._drawn = drawn

    def _pass(self, action: Pass, now_ns: int, events: list[Event]) -> None:
        player = action.player
        if self._legal is not ONLY_PASS[player]:  # else listed as the only legal action just now
            self._check_turn(player, _PLAY)
            self._check_nothing_fits(player, CannotPass, CANNOT_PASS_NOW)
            if self._boneyard:
                raise CannotPass(DRAW_FIRST)
        self._last_actor = player
        self._history.append((player, K_PASS, -1, -1))
        self._passes += 1
        if self._passes >= 2:
            self._clock.stop(now_ns)
            self._settle_blocked(now_ns, events)
        else:
            self._begin(1 - player, now_ns, _PLAY)

    def _decline(self, action: Decline, now_ns: int, events: list[Event]) -> None:
        auction = self._check_auction_turn(action.player)
        if auction.bid is not None:
            raise WrongPhase(DECLINE_FIRST_ONLY)
        self._last_actor = action.player
        self._history.append((action.player, K_DECLINE, -1, -1))
        self._open_by(auction.jockey, now_ns)

    def _bid(self, action: Bid, now_ns: int, events: list[Event]) -> None:
        player = action.player
        auction = self._check_auction_turn(player)
        amount = action.amount
        least = auction.min_bid
        if amount < least or amount % 5:
            raise BadAmount(BAD_AMOUNT, least=least, amount=amount)
        cost = net_payment(amount, player, auction.jockey)
        if cost > self._balances[player]:
            raise Unaffordable(UNAFFORDABLE, amount=amount, cost=cost, balance=self._balances[player])
        self._last_actor = player
        self._history.append((player, K_BID, amount, -1))
        auction.bid = amount
        auction.bidder = player
        self._begin(1 - player, now_ns, _AUCTION)

    def _accept(self, action: Accept, now_ns: int, events: list[Event]) -> None:
        player = action.player
        auction = self._check_auction_turn(player)
        if auction.bid is None or auction.bidder is None:
            raise WrongPhase(NO_BID_TO_ACCEPT)
        self._last_actor = player
        self._history.append((player, K_ACCEPT, -1, -1))
        bidder = auction.bidder
        cost = net_payment(auction.bid, bidder, auction.jockey)
        self._auction = None
        self._jockey = None
        self._transfer(bidder, player, cost, _AUCTION_PAID, now_ns, events)
        if self._outcome is None:
            self._open_by(bidder, now_ns)

    def _resign(self, action: Resign, now_ns: int, events: list[Event]) -> None:
        self._end(Outcome(1 - action.player, EndReason.RESIGN, True), now_ns, events)

    def _begin(self, player: int, now_ns: int, phase: Phase) -> None:
        """End the running decision (if any) at ``now_ns`` and begin a new one for ``player``.

        On a shared screen a change of player goes through a hand-over (no clock runs until the
        reveal); otherwise the new decision's clock starts at once.
        """
        self.to_act = player
        if self._handover and player != self._last_actor:
            self._clock.stop(now_ns)
            self._phase = _HANDOVER
            self._after_reveal = phase
        else:
            self._phase = phase
            self._clock.switch(player, now_ns)

    def _open_by(self, opener: int, now_ns: int) -> None:
        self._auction = None
        self._jockey = None
        self._opening_tile = -1
        self._begin(opener, now_ns, _PLAY)

    def _transfer(
        self, payer: int, payee: int, points: int, reason: TransferReason, now_ns: int, events: list[Event]
    ) -> None:
        balances = self._balances
        amount = points if points < balances[payer] else balances[payer]
        if amount <= 0:
            return
        balances[payer] -= amount
        balances[payee] += amount
        events.append(Transfer(payer, payee, amount, reason, now_ns))
        if balances[payer] == 0:
            self._end(Outcome(payee, EndReason.BALANCE, True), now_ns, events)

    def _settle_blocked(self, now_ns: int, events: list[Event]) -> None:
        pips = self.pip_totals()
        self._phase = _READY
        self.to_act = None
        self._jockey = None
        events.append(RoundEnded(self._round, True, None, pips, now_ns))
        if pips[0] != pips[1]:
            lighter = 0 if pips[0] < pips[1] else 1
            heavier = 1 - lighter
            self._transfer(heavier, lighter, round_to_five(pips[heavier]), _BLOCKED, now_ns, events)

    def _flag_if_late(self, now_ns: int, events: list[Event]) -> None:
        deadline = self._clock.deadline_ns()
        if deadline is not None and now_ns >= deadline:
            loser = self._clock.running
            assert loser is not None
            self._end(Outcome(1 - loser, EndReason.TIME, True), deadline, events)

    def _end(self, outcome: Outcome, now_ns: int, events: list[Event]) -> None:
        self._clock.stop(now_ns)
        self._outcome = outcome
        self._phase = _MATCH_OVER
        self.to_act = None
        self._after_reveal = None
        self._drawn = -1
        self._legal = None
        events.append(MatchEnded(outcome, now_ns))

    # ------------------------------------------------------------------ copies for search

    def clone(self) -> Match:
        """An independent copy of the whole match (hidden tiles included), cheaper than saving."""
        m = Match.__new__(Match)
        copy_fields(self, m)
        return m

    # ------------------------------------------------------------------ saving and restoring

    def to_dict(self) -> dict[str, Any]:
        """The whole match state as plain JSON-ready data (restored exactly by ``from_dict``)."""
        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match saved by ``to_dict``, exactly (no clock checks: see ``restore``)."""
        try:
            if data.get("version") != SNAPSHOT_VERSION:
                raise SnapshotError(SNAPSHOT_WRONG_VERSION, found=data.get("version"), expected=SNAPSHOT_VERSION)
            m = cls(MatchConfig.from_dict(data["config"]), boot_id=str(data["boot_id"]))
            state_from_dict(m, data)
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise SnapshotError(SNAPSHOT_DAMAGED, why=str(exc)) from exc
        m._check_consistent()
        return m

    @classmethod
    def restore(cls, data: dict[str, Any], *, boot_id: str, now_ns: int) -> tuple[Match, list[Event]]:
        """Restore a saved match after a restart, applying the clock rules of RULES.md §7.

        Same boot: a running clock continues from its recorded start (the time while down is
        charged, and may end the match on time). Another boot, or a monotonic clock that went
        backwards, while a clock was running: the match is aborted unrated. No clock running:
        nothing is lost.
        """
        m = cls.from_dict(data)
        events: list[Event] = []
        clock_unusable = m.boot_id != boot_id or now_ns < max(m._last_ns or 0, m._clock.started_ns or 0)
        if m._outcome is None and m._clock.running is not None:
            if m.boot_id != boot_id:
                events = m.abort(now_ns, RESTARTED_WHILE_RUNNING)
            elif clock_unusable:
                events = m.abort(now_ns, CLOCK_WENT_BACKWARDS)
            else:
                events = m.advance(now_ns)
        if clock_unusable:
            m._last_ns = None  # earlier timestamps belong to another clock
        m.boot_id = boot_id
        return m, events


_FRESH = Match.__new__(Match)
MatchState.__init__(_FRESH, config=_DEFAULT_CONFIG, _balances=list(_DEFAULT_CONFIG.balances), _jockey=None,
                    _clock=_DEFAULT_CLOCK, _handover=False)
"""A match with the default configuration before its first command (only ever copied, never changed)."""

_HANDLERS: dict[type, Callable[[Match, Any, int, list[Event]], None]] = {
    Start: Match._start,
    Reveal: Match._reveal,
    Play: Match._play,
    Draw: Match._draw,
    Pass: Match._pass,
    Decline: Match._decline,
    Bid: Match._bid,
    Accept: Match._accept,
    Resign: Match._resign,
}
