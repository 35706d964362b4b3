"""A whole Spectacular Bid match: rounds, openings, the auction, play, settlement and the clock.

``Match`` is the engine's one stateful object. Every command comes in as an action with its
arrival time in integer nanoseconds of the monotonic clock; the engine never reads a clock and
never draws random numbers (deals come in with the Start action).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .actions import Accept, Action, Bid, Decline, Draw, Pass, Play, Resign, Reveal, Start
from .auction import Auction, max_affordable_bid, net_payment
from .clock import NS_PER_S, MatchClock
from .deal import HAND_SIZE
from .errors import (
    BAD_AMOUNT,
    BAD_DELAY,
    BAD_FILL,
    BAD_HANDOVER,
    BAD_JOCKEY,
    BAD_PAIR,
    BONEYARD_EMPTY,
    CANNOT_DRAW_NOW,
    CANNOT_PASS_NOW,
    DECLINE_FIRST_ONLY,
    DRAW_FIRST,
    MATCH_ABORTED,
    MATCH_OVER,
    MUST_PLAY_DRAWN,
    NO_BID_TO_ACCEPT,
    NO_DEAL,
    NO_HANDOVER,
    NO_TILES,
    NOT_A_COMMAND,
    NOT_A_TIME,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    OTHER_PLAYER_REVEALS,
    OUT_OF_ORDER,
    RANKED_OPENING,
    REVEAL_FIRST,
    SNAPSHOT_BALANCES,
    SNAPSHOT_DAMAGED,
    SNAPSHOT_TILES,
    SNAPSHOT_WRONG_VERSION,
    START_BETWEEN_ROUNDS,
    UNAFFORDABLE,
    WRONG_PHASE,
    BadAmount,
    BotError,
    CannotDraw,
    CannotPass,
    IllegalPlay,
    Malformed,
    MatchIsOver,
    MustPlayDrawn,
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
from .history import K_ACCEPT, K_BID, K_DECLINE, K_DRAW, K_PASS, K_PLAY, KIND_CODES, Turn
from .layout import NO_POINT, Layout
from .tiles import (
    ALL_TILES,
    POINT_INDEX,
    POINT_VALUE,
    POINTS,
    TILE_HALVES,
    TILE_INDEX,
    TILE_MASK,
    TILE_PIPS,
    Point,
    Tile,
)

if TYPE_CHECKING:
    from .view import PlayerView

SNAPSHOT_VERSION = 1
PLAYERS = (0, 1)


class Phase(StrEnum):
    """Where the match stands."""

    READY = "ready"
    """Between rounds (and before the first): clocks stopped until Start / Continue."""
    AUCTION = "auction"
    """Bidding for the opening after a domino."""
    PLAY = "play"
    """Tiles are being placed (the opening turn included)."""
    HANDOVER = "handover"
    """Shared screen: waiting for the next player to reveal their hand; clocks stopped."""
    MATCH_OVER = "match_over"
    """The match has ended."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """How a match begins: balances, banks, the delay, hand-over mode and an optional first jockey."""

    balances: tuple[int, int] = (150, 150)
    bank_ns: tuple[int, int] = (120 * NS_PER_S, 120 * NS_PER_S)
    delay_ns: int = 10 * NS_PER_S
    handover: bool = False
    jockey: int | None = None

    def __post_init__(self) -> None:
        for name, pair in (("balances", self.balances), ("bank_ns", self.bank_ns)):
            if len(pair) != 2 or not all(_is_int(v) and v > 0 for v in pair):
                raise Malformed(BAD_PAIR, name=name, value=pair)
        if not _is_int(self.delay_ns) or self.delay_ns < 0:
            raise Malformed(BAD_DELAY, value=self.delay_ns)
        if self.jockey is not None and not (_is_int(self.jockey) and self.jockey in (0, 1)):
            raise Malformed(BAD_JOCKEY, value=self.jockey)
        if not isinstance(self.handover, bool):
            raise Malformed(BAD_HANDOVER, value=self.handover)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saving."""
        return {
            "balances": list(self.balances),
            "bank_ns": list(self.bank_ns),
            "delay_ns": self.delay_ns,
            "handover": self.handover,
            "jockey": self.jockey,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchConfig:
        """The configuration saved by ``to_dict``."""
        return cls(
            balances=(data["balances"][0], data["balances"][1]),
            bank_ns=(data["bank_ns"][0], data["bank_ns"][1]),
            delay_ns=data["delay_ns"],
            handover=data["handover"],
            jockey=data["jockey"],
        )


@dataclass(frozen=True, slots=True)
class AuctionView:
    """What a screen needs to show of the auction in progress."""

    jockey: int
    bid: int | None
    bidder: int | None
    min_bid: int
    max_bid: tuple[int, int]
    """The largest bid each player can afford (below ``min_bid``: that player cannot bid)."""

    def cost(self, bidder: int, amount: int) -> int:
        """What ``bidder`` pays if their bid of ``amount`` is accepted (the jockey's credit applied)."""
        return net_payment(amount, bidder, self.jockey)


_READY, _AUCTION, _PLAY, _HANDOVER, _MATCH_OVER = (
    Phase.READY, Phase.AUCTION, Phase.PLAY, Phase.HANDOVER, Phase.MATCH_OVER
)
_SCORE, _BLOCKED, _AUCTION_PAID = TransferReason.SCORE, TransferReason.BLOCKED, TransferReason.AUCTION
"""The transfer reasons as plain names (an enum member's lookup through its class is slow)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_DEFAULT_CONFIG = MatchConfig()
_DEFAULT_CLOCK = MatchClock(_DEFAULT_CONFIG.bank_ns, _DEFAULT_CONFIG.delay_ns)
"""A stopped clock for the default configuration, copied by each new match that uses it (never changed itself)."""


def _opening_rank(t: Tile) -> tuple[int, int, int]:
    return (1, t.low, 0) if t.low == t.high else (0, t.low + t.high, t.high)


_RANK: tuple[int, ...] = tuple(
    sorted(range(len(ALL_TILES)), key=lambda i: _opening_rank(ALL_TILES[i])).index(i) for i in range(len(ALL_TILES))
)
"""Each tile index's place in the ranked-opening order (higher opens first)."""
_BY_RANK: tuple[int, ...] = tuple(sorted(range(len(ALL_TILES)), key=_RANK.__getitem__, reverse=True))
"""The tile indices in ranked-opening order, the [6|6] that opens first first."""


def opening_rank_index(t: int) -> int:
    """Tile index ``t``'s place in the ranked-opening order (0 lowest, 27 the [6|6] that opens first)."""
    return _RANK[t]


def ranked_opener(hands: Sequence[Sequence[Tile]]) -> tuple[int, Tile]:
    """Who must open a ranked round, and with which tile (RULES.md §3).

    The highest double; if neither hand holds one, the greatest pip total, ties broken by the
    greater half.
    """
    candidates = [(_opening_rank(t), player, t) for player in PLAYERS for t in hands[player]]
    if not candidates:
        raise Malformed(NO_TILES)
    _, player, tile_ = max(candidates)
    return player, tile_


def _ranked_opener_index(hands: list[list[int]]) -> tuple[int, int]:
    """``ranked_opener`` for hands of tile indices: (player, tile index)."""
    first, second = hands
    for t in _BY_RANK:
        if t in first:
            return 0, t
        if t in second:
            return 1, t
    raise Malformed(NO_TILES)


def _play_table(player: int) -> list[list[Play | None]]:
    """For each tile index, the Play of that tile at each point index where it would match."""
    table: list[list[Play | None]] = []
    for t, tile_ in enumerate(ALL_TILES):
        low, high = TILE_HALVES[t]
        table.append(
            [Play(player, tile_, POINTS[p]) if POINT_VALUE[p] in (low, high) else None for p in range(len(POINTS))]
        )
    return table


_PLAY_AT = (_play_table(0), _play_table(1))
"""Shared, immutable Play actions, so that listing legal actions creates none."""
_FITS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(bool(TILE_MASK[t] & mask) for t in range(len(ALL_TILES))) for mask in range(1 << 7)
)
"""By open-values mask, then tile index: whether the tile matches some open point (a lookup is cheaper than ``&``)."""
_OPENING_PLAY = tuple(tuple(Play(player, t, None) for t in ALL_TILES) for player in PLAYERS)
_DRAW = (Draw(0), Draw(1))
_PASS = (Pass(0), Pass(1))
_ONLY_DRAW = ((_DRAW[0],), (_DRAW[1],))
_ONLY_PASS = ((_PASS[0],), (_PASS[1],))
"""The legal actions when nothing fits: shared, so that a draw or pass can tell it was listed as legal."""
_DECLINE = (Decline(0), Decline(1))
_ACCEPT = (Accept(0), Accept(1))
_REVEAL = (Reveal(0), Reveal(1))
_START = Start()
_SHARED_BIDS_UP_TO = 1000
_BIDS = tuple(tuple(Bid(player, amount) for amount in range(0, _SHARED_BIDS_UP_TO + 1, 5)) for player in PLAYERS)
"""Shared Bid actions by amount // 5, so that listing the usual bids creates none."""


def _bids(player: int, least: int, top: int) -> Sequence[Bid]:
    """``player``'s bids from ``least`` up to ``top`` in steps of 5."""
    if least % 5 == 0 and top <= _SHARED_BIDS_UP_TO:
        return _BIDS[player][least // 5 : top // 5 + 1]
    return [Bid(player, amount) for amount in range(least, top + 1, 5)]


def _pips(hand: list[int]) -> int:
    """The pip total of a hand of tile indices."""
    total = 0
    for t in hand:
        total += TILE_PIPS[t]
    return total


_SCORES: tuple[bool, ...] = tuple(count > 0 and count % 5 == 0 for count in range(4 * 12 + 1))
"""By end count: whether it scores (a multiple of 5, not 0). At most four ends count, 12 each at most."""


def round_to_five(points: int) -> int:
    """``points`` rounded to the nearest multiple of 5 (17 -> 15, 18 -> 20)."""
    return 5 * ((points + 2) // 5)


class Match:
    """One match between players 0 and 1 (RULES.md). Illegal commands raise and change nothing."""

    def __init__(self, config: MatchConfig | None = None, *, boot_id: str = "") -> None:
        self.config = config or _DEFAULT_CONFIG
        self.boot_id = boot_id
        """The boot the clock's timestamps were measured in."""
        self._handover = self.config.handover
        self._balances = list(self.config.balances)
        self._phase = _READY
        self._round = 0
        self._jockey: int | None = self.config.jockey
        self._hands: list[list[int]] = [[], []]
        """Tile indices, kept sorted."""
        self._boneyard: list[int] = []
        self._layout = Layout()
        self.to_act: int | None = None
        """The player who must act next (in a hand-over: who must reveal), or None.

        Read only: the match changes it (a plain attribute, not a property, for the speed of the
        loops that ask it before every command).
        """
        self._opening_tile = -1
        """Index of the tile a ranked opening must use, or -1."""
        self._drawn = -1
        """Index of a drawn tile that fits and must be played, or -1."""
        self._passes = 0
        self._auction: Auction | None = None
        self._after_reveal: Phase | None = None
        self._last_actor: int | None = None
        self._clock = (
            _DEFAULT_CLOCK.copy() if self.config is _DEFAULT_CONFIG else MatchClock(self.config.bank_ns, self.config.delay_ns)
        )
        self._outcome: Outcome | None = None
        self._last_ns: int | None = None
        self._legal: tuple[Action, ...] | None = None
        self._history: list[tuple[int, int, int, int]] = []
        """The round's commands: (player, kind code, tile index / bid amount / -1, point index / -1)."""
        self._ranked = False
        """Whether the current round opened (or opens) by rank."""

    # ------------------------------------------------------------------ reading

    @property
    def phase(self) -> Phase:
        """Where the match stands."""
        return self._phase

    @property
    def round(self) -> int:
        """The number of the current (or last finished) round; 0 before the first Start."""
        return self._round

    @property
    def balances(self) -> tuple[int, int]:
        """Both balances; they always add up to what they started with."""
        return (self._balances[0], self._balances[1])

    @property
    def jockey(self) -> int | None:
        """The player who dominoed last, from the domino until the next opening begins."""
        return self._jockey

    @property
    def layout(self) -> Layout:
        """The tiles on the table (read only: change it through ``apply``)."""
        return self._layout

    @property
    def end_count(self) -> int:
        """The layout's current end count (0 before the opening)."""
        return self._layout.end_count

    @property
    def boneyard_count(self) -> int:
        """How many tiles are left to draw."""
        return len(self._boneyard)

    @property
    def drawn_tile(self) -> Tile | None:
        """A drawn tile that fits and so must be placed now, or None."""
        return None if self._drawn < 0 else ALL_TILES[self._drawn]

    @property
    def opening_tile(self) -> Tile | None:
        """The tile a ranked opening must be made with, until it is placed."""
        return ALL_TILES[self._opening_tile] if self._opening_tile >= 0 and self._layout.is_empty else None

    @property
    def pending_phase(self) -> Phase | None:
        """In a hand-over, the phase that continues after the reveal."""
        return self._after_reveal

    @property
    def outcome(self) -> Outcome | None:
        """The result once the match is over."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self._outcome is not None

    @property
    def clock_running(self) -> int | None:
        """The player whose clock runs, or None."""
        return self._clock.running

    @property
    def last_command_ns(self) -> int | None:
        """Arrival time of the last accepted command."""
        return self._last_ns

    def hand(self, player: int) -> tuple[Tile, ...]:
        """``player``'s tiles, sorted by name."""
        return tuple(ALL_TILES[t] for t in self._hands[player])

    def hand_sizes(self) -> tuple[int, int]:
        """How many tiles each player holds."""
        return (len(self._hands[0]), len(self._hands[1]))

    def pip_totals(self) -> tuple[int, int]:
        """Each hand's pip total."""
        return (_pips(self._hands[0]), _pips(self._hands[1]))

    def auction(self) -> AuctionView | None:
        """The auction in progress (also during its hand-overs), or None."""
        a = self._auction
        if a is None:
            return None
        return AuctionView(
            jockey=a.jockey,
            bid=a.bid,
            bidder=a.bidder,
            min_bid=a.min_bid,
            max_bid=(
                max_affordable_bid(self._balances[0], 0, a.jockey),
                max_affordable_bid(self._balances[1], 1, a.jockey),
            ),
        )

    @property
    def ranked_round(self) -> bool:
        """True when the current round opens (or opened) by rank, False after an auction."""
        return self._ranked

    def round_history(self, viewer: int | None = None) -> tuple[Turn, ...]:
        """The current round's commands in order, as ``viewer`` may know them.

        Draws show their tile only to the drawer (every tile when ``viewer`` is None).
        """
        turns = []
        for player, code, x, p in self._history:
            kind = KIND_CODES[code]
            if code == K_PLAY:
                turns.append(Turn(player, kind, ALL_TILES[x], None if p < 0 else POINTS[p]))
            elif code == K_DRAW:
                turns.append(Turn(player, kind, ALL_TILES[x] if viewer is None or viewer == player else None))
            elif code == K_BID:
                turns.append(Turn(player, kind, amount=x))
            else:
                turns.append(Turn(player, kind))
        return tuple(turns)

    def placements_for(self, tile: Tile) -> list[Point]:
        """Where ``tile`` may go now (an empty list for the opening tile: it needs no point)."""
        return [] if self._layout.is_empty else self._layout.points_for(tile)

    # ------------------------------------------------------------------ clock readings

    def deadline_ns(self) -> int | None:
        """The instant the running player loses on time (commands must arrive before it), or None."""
        return self._clock.deadline_ns()

    def bank_ns(self, player: int, now_ns: int) -> int:
        """What is left of ``player``'s bank at ``now_ns``."""
        deadline = self._clock.deadline_ns()
        if deadline is not None and now_ns > deadline:
            now_ns = deadline
        return self._clock.bank_ns(player, now_ns)

    def delay_left_ns(self, now_ns: int) -> int:
        """What is left of the running decision's free delay at ``now_ns``."""
        return self._clock.delay_left_ns(now_ns)

    def decision_started_ns(self) -> int | None:
        """When the running decision began, or None when no clock runs."""
        return self._clock.started_ns

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
        table = _PLAY_AT[player]
        fits = _FITS[layout.open_values_mask]
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
            legal = self._legal = _ONLY_DRAW[player] if self._boneyard else _ONLY_PASS[player]
        return legal

    def must_pass(self) -> bool:
        """Whether the player to act can only pass on this turn of play: no tile in hand fits and the
        boneyard is empty (in play, or in the hand-over before that turn)."""
        player = self.to_act
        if player is None:
            return False
        if self._phase is _PLAY:
            return self.legal_actions() == (_PASS[player],)
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
                openings = _OPENING_PLAY[player]
                if self._opening_tile >= 0:
                    return (openings[self._opening_tile],)
                return tuple([openings[t] for t in self._hands[player]])
            row = _PLAY_AT[player][self._drawn]  # a drawn tile that fits: it must be played
            return tuple([row[p] for p in points if row[p] is not None])  # type: ignore[misc]
        if phase is _AUCTION:
            assert player is not None and self._auction is not None
            a = self._auction
            first: Action = _DECLINE[player] if a.bid is None else _ACCEPT[player]
            top = max_affordable_bid(self._balances[player], player, a.jockey)
            return (first, *_bids(player, a.min_bid, top))
        if phase is _HANDOVER:
            assert player is not None
            return (_REVEAL[player],)
        if phase is _READY:
            return (_START,)
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
            opener, self._opening_tile = _ranked_opener_index(self._hands)
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
                or _PLAY_AT[player][t][p] is None):
            self._check_play(action)  # the opening, a tile that must be played, or a refusal
            self._opening_tile = self._drawn = -1  # played now: the play cannot be refused any more
        hand = self._hands[player]
        try:
            hand.remove(t)  # the usual play's last check
        except ValueError:
            raise IllegalPlay(NOT_IN_HAND, tile=action.tile) from None
        self._history.append((player, K_PLAY, t, p))
        count = layout.place_index(t, p)
        self._passes = 0
        self._last_actor = player
        # the player's decision ends here: charged by _end, by the stop below, or by the switch
        if _SCORES[count]:
            self._transfer(1 - player, player, count, _SCORE, now_ns, events)
            if self._outcome is not None:
                return
        if not hand:
            self._clock.stop(now_ns)
            self._phase = _READY
            self.to_act = None
            self._jockey = player
            events.append(RoundEnded(self._round, False, player, self.pip_totals(), now_ns))
        elif self._handover:
            self._begin(1 - player, now_ns, _PLAY)
        else:
            self.to_act = player = 1 - player  # _begin without a hand-over: the phase stays
            self._clock.switch(player, now_ns)

    def _draw(self, action: Draw, now_ns: int, events: list[Event]) -> None:
        player = action.player
        if self._legal is not _ONLY_DRAW[player]:  # else listed as the only legal action just now
            self._check_turn(player, _PLAY)
            self._check_nothing_fits(player, CannotDraw, CANNOT_DRAW_NOW)
            if not self._boneyard:
                raise CannotDraw(BONEYARD_EMPTY)
        drawn = self._boneyard.pop(0)
        insort(self._hands[player], drawn)
        self._history.append((player, K_DRAW, drawn, -1))
        if _FITS[self._layout.open_values_mask][drawn]:
            self._drawn = drawn

    def _pass(self, action: Pass, now_ns: int, events: list[Event]) -> None:
        player = action.player
        if self._legal is not _ONLY_PASS[player]:  # else listed as the only legal action just now
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

    # ------------------------------------------------------------------ helpers

    def _check_turn(self, player: int, phase: Phase) -> None:
        if self._phase is not phase:
            if self._phase is _HANDOVER and self._after_reveal is phase:
                raise WrongPhase(REVEAL_FIRST)
            raise WrongPhase(WRONG_PHASE, phase=self._phase.value)
        if player != self.to_act:
            raise NotYourTurn(NOT_YOUR_TURN)

    def _check_play(self, action: Play) -> None:
        """Refuse ``action`` (the player's turn of play checked) with the first reason that applies: the
        tile is not in hand, another tile must be played (drawn, or the ranked opening's), the point."""
        t = action.tile_index
        if t not in self._hands[action.player]:
            raise IllegalPlay(NOT_IN_HAND, tile=action.tile)
        if self._drawn >= 0 and t != self._drawn:
            raise MustPlayDrawn(MUST_PLAY_DRAWN, tile=ALL_TILES[self._drawn])
        if self._opening_tile >= 0 and t != self._opening_tile:
            raise IllegalPlay(RANKED_OPENING, tile=ALL_TILES[self._opening_tile])
        self._layout.check_index(t, action.point_index)

    def _check_auction_turn(self, player: int) -> Auction:
        self._check_turn(player, _AUCTION)
        assert self._auction is not None
        return self._auction

    def _check_nothing_fits(self, player: int, error: type[CannotDraw | CannotPass], template: str) -> None:
        """Refuse a draw or pass (``error`` with ``template``) while the opening is due or a tile fits."""
        if self._layout.is_empty:
            raise error(template)
        if self._drawn >= 0:
            raise MustPlayDrawn(MUST_PLAY_DRAWN, tile=ALL_TILES[self._drawn])
        mask = self._layout.open_values_mask
        for t in self._hands[player]:
            if TILE_MASK[t] & mask:
                raise error(template)

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

    def over_refusal(self) -> MatchIsOver:
        """The refusal of any command once the match is over (the match must be over)."""
        o = self._outcome
        assert o is not None
        if o.winner is None:
            return MatchIsOver(MATCH_ABORTED)
        return MatchIsOver(MATCH_OVER, reason=o.reason.value)

    # ------------------------------------------------------------------ copies for search

    def clone(self) -> Match:
        """An independent copy of the whole match (hidden tiles included), cheaper than saving."""
        m = Match.__new__(Match)
        m.config = self.config
        m.boot_id = self.boot_id
        m._handover = self._handover
        m._balances = list(self._balances)
        m._phase = self._phase
        m._round = self._round
        m._jockey = self._jockey
        m._hands = [list(self._hands[0]), list(self._hands[1])]
        m._boneyard = list(self._boneyard)
        m._layout = self._layout.copy()
        m.to_act = self.to_act
        m._opening_tile = self._opening_tile
        m._drawn = self._drawn
        m._passes = self._passes
        a = self._auction
        m._auction = None if a is None else Auction(a.jockey, a.bid, a.bidder)
        m._after_reveal = self._after_reveal
        m._last_actor = self._last_actor
        m._clock = self._clock.copy()
        m._outcome = self._outcome
        m._last_ns = self._last_ns
        m._legal = self._legal
        m._history = list(self._history)
        m._ranked = self._ranked
        return m

    def play_out_round(self, random: Callable[[], float]) -> None:
        """Play the current round to its end with level-2 policies for both players: the highest
        immediate score, then the heaviest tile, ties broken by ``random()`` (a float in [0, 1)).

        The search's fast rollout, for copies (``clone``, ``from_view``): the same moves and
        transfers as applying the level-2 choices one by one (``engine.bots``), without the clock,
        the history or events. An auction in progress is first settled as level 2 does (decline or
        accept). Does nothing unless a round is being played.
        """
        now = self._last_ns or 0
        while self._phase is _AUCTION and self._outcome is None:
            player = self.to_act
            assert player is not None and self._auction is not None
            action: Action = _DECLINE[player] if self._auction.bid is None else _ACCEPT[player]
            _HANDLERS[type(action)](self, action, now, [])
            self._legal = None
        if self._phase is not _PLAY or self.to_act is None:
            return
        events: list[Event] = []
        hands = self._hands
        boneyard = self._boneyard
        layout = self._layout
        count_after = layout.count_after_index
        player = self.to_act
        assert player is not None
        while True:
            hand = hands[player]
            ties: list[tuple[int, int]] = []
            best = -1
            if not layout.open_indices:  # the opening
                if self._opening_tile >= 0:
                    ties = [(self._opening_tile, NO_POINT)]
                else:
                    for t in hand:
                        count = count_after(t, NO_POINT)
                        key = (count if count > 0 and count % 5 == 0 else 0) * 16 + TILE_PIPS[t]
                        if key > best:
                            best = key
                            ties = [(t, NO_POINT)]
                        elif key == best:
                            ties.append((t, NO_POINT))
            else:
                mask = layout.open_values_mask
                points = layout.open_indices
                for t in hand if self._drawn < 0 else (self._drawn,):
                    if not TILE_MASK[t] & mask:
                        continue
                    low, high = TILE_HALVES[t]
                    pips = TILE_PIPS[t]
                    for p in points:
                        v = POINT_VALUE[p]
                        if v in (low, high):
                            count = count_after(t, p)
                            key = (count if count > 0 and count % 5 == 0 else 0) * 16 + pips
                            if key > best:
                                best = key
                                ties = [(t, p)]
                            elif key == best:
                                ties.append((t, p))
            if not ties:
                if boneyard:
                    drawn = boneyard.pop(0)
                    insort(hand, drawn)
                    if TILE_MASK[drawn] & layout.open_values_mask:
                        self._drawn = drawn
                    continue
                self._passes += 1
                if self._passes >= 2:
                    self._clock.stop(now)
                    self._settle_blocked(now, events)
                    break
                player = 1 - player
                continue
            t, p = ties[0] if len(ties) == 1 else ties[int(random() * len(ties))]
            hand.remove(t)
            count = layout.place_index(t, p)
            self._opening_tile = self._drawn = -1
            self._passes = 0
            if count > 0 and count % 5 == 0:
                self._transfer(1 - player, player, count, _SCORE, now, events)
                if self._outcome is not None:
                    break
            if not hand:
                self._clock.stop(now)
                self._phase = _READY
                self._jockey = player
                break
            player = 1 - player
        self.to_act = None if self._phase is not _PLAY else player
        self._legal = None

    @classmethod
    def from_view(cls, view: PlayerView, other_hand: Sequence[Tile], boneyard: Sequence[Tile]) -> Match:
        """A match that ``view``'s seat cannot tell from the real one, the hidden tiles filled in.

        ``other_hand`` is the other player's hand, ``boneyard`` the tiles left to draw (first
        drawn first). The copy has no hand-over (a pending hand-over is already revealed) and its
        clock reads the view's banks at time 0, the running decision's delay as the view left it.
        Raises ``BotError`` when the tiles do not complete the view.
        """
        seat = view.seat
        other = 1 - seat
        layout = view.layout()
        mine = [TILE_INDEX[t] for t in view.hand]
        theirs = [TILE_INDEX[t] for t in other_hand]
        rest = [TILE_INDEX[t] for t in boneyard]
        every = mine + theirs + rest + [TILE_INDEX[t] for t in layout.tiles()]
        if len(theirs) != view.hand_sizes[other] or len(rest) != view.boneyard_count:
            raise BotError(BAD_FILL, why="the other hand or the boneyard has the wrong size")
        if view.round > 0 and sorted(every) != list(range(len(ALL_TILES))):
            raise BotError(BAD_FILL, why="the 28 tiles are not all accounted for")
        banks = (max(1, view.banks_ns[0]), max(1, view.banks_ns[1]))
        m = cls(MatchConfig(balances=(max(1, view.balances[0]), max(1, view.balances[1])), bank_ns=banks,
                            delay_ns=view.delay_ns, handover=False, jockey=view.jockey))
        m._balances = list(view.balances)
        m._phase = view.pending_phase if view.phase is _HANDOVER and view.pending_phase is not None else view.phase
        m._round = view.round
        m._hands[seat] = sorted(mine)
        m._hands[other] = sorted(theirs)
        m._boneyard = rest
        m._layout = layout
        m.to_act = view.to_act
        m._ranked = view.ranked
        if view.ranked and layout.is_empty and m._hands[0] and m._hands[1]:
            m._opening_tile = _ranked_opener_index(m._hands)[1]
        m._drawn = -1 if view.drawn_tile is None else TILE_INDEX[view.drawn_tile]
        history = []
        for turn in view.history:
            code = KIND_CODES.index(turn.kind)
            x = p = -1
            if turn.tile is not None:
                x = TILE_INDEX[turn.tile]
            if turn.at is not None:
                p = POINT_INDEX[turn.at]
            if turn.amount is not None:
                x = turn.amount
            history.append((turn.player, code, x, p))
        m._history = history
        passes = 0
        for entry in reversed(history):
            if entry[1] != K_PASS:
                break
            passes += 1
        m._passes = passes
        m._last_actor = history[-1][0] if history else None
        a = view.auction
        m._auction = None if a is None else Auction(a.jockey, a.bid, a.bidder)
        if view.to_act is not None and view.phase is not _READY:
            m._clock.start(view.to_act, view.delay_left_ns - view.delay_ns)
        m._outcome = view.outcome
        return m

    # ------------------------------------------------------------------ saving and restoring

    def to_dict(self) -> dict[str, Any]:
        """The whole match state as plain JSON-ready data (restored exactly by ``from_dict``)."""
        o = self._outcome
        return {
            "version": SNAPSHOT_VERSION,
            "config": self.config.to_dict(),
            "boot_id": self.boot_id,
            "last_ns": self._last_ns,
            "phase": self._phase.value,
            "round": self._round,
            "balances": list(self._balances),
            "jockey": self._jockey,
            "hands": [[str(ALL_TILES[t]) for t in h] for h in self._hands],
            "boneyard": [str(ALL_TILES[t]) for t in self._boneyard],
            "layout": self._layout.to_list(),
            "to_act": self.to_act,
            "opening_tile": None if self._opening_tile < 0 else str(ALL_TILES[self._opening_tile]),
            "drawn": None if self._drawn < 0 else str(ALL_TILES[self._drawn]),
            "passes": self._passes,
            "auction": None if self._auction is None else self._auction.to_dict(),
            "after_reveal": None if self._after_reveal is None else self._after_reveal.value,
            "last_actor": self._last_actor,
            "history": [list(entry) for entry in self._history],
            "ranked": self._ranked,
            "clock": self._clock.to_dict(),
            "outcome": None
            if o is None
            else {"winner": o.winner, "reason": o.reason.value, "rated": o.rated, "detail": o.detail,
                  "detail_template": o.detail_template, "detail_params": dict(o.detail_params)},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match saved by ``to_dict``, exactly (no clock checks: see ``restore``)."""
        try:
            if data.get("version") != SNAPSHOT_VERSION:
                raise SnapshotError(SNAPSHOT_WRONG_VERSION, found=data.get("version"), expected=SNAPSHOT_VERSION)
            m = cls(MatchConfig.from_dict(data["config"]), boot_id=str(data["boot_id"]))
            m._last_ns = data["last_ns"]
            m._phase = Phase(data["phase"])
            m._round = int(data["round"])
            m._balances = [int(data["balances"][0]), int(data["balances"][1])]
            m._jockey = data["jockey"]
            m._hands = [sorted(TILE_INDEX[Tile.parse(t)] for t in h) for h in data["hands"]]
            m._boneyard = [TILE_INDEX[Tile.parse(t)] for t in data["boneyard"]]
            m._layout = Layout.from_list(data["layout"])
            m.to_act = data["to_act"]
            m._opening_tile = -1 if data["opening_tile"] is None else TILE_INDEX[Tile.parse(data["opening_tile"])]
            m._drawn = -1 if data["drawn"] is None else TILE_INDEX[Tile.parse(data["drawn"])]
            m._passes = int(data["passes"])
            m._auction = None if data["auction"] is None else Auction.from_dict(data["auction"])
            m._after_reveal = None if data["after_reveal"] is None else Phase(data["after_reveal"])
            m._last_actor = data["last_actor"]
            m._history = [(int(e[0]), int(e[1]), int(e[2]), int(e[3])) for e in data.get("history", [])]
            m._ranked = bool(data.get("ranked", False))
            m._clock = MatchClock.from_dict(data["clock"])
            o = data["outcome"]
            m._outcome = None if o is None else _outcome_from_dict(o)
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise SnapshotError(SNAPSHOT_DAMAGED, why=str(exc)) from exc
        m._check_consistent()
        return m

    def _check_consistent(self) -> None:
        tiles = [*self._hands[0], *self._hands[1], *self._boneyard, *(TILE_INDEX[t] for t in self._layout.tiles())]
        if self._round > 0 and (len(tiles) != 28 or len(set(tiles)) != 28):
            raise SnapshotError(SNAPSHOT_TILES)
        if sum(self._balances) != sum(self.config.balances) or min(self._balances) < 0:
            raise SnapshotError(SNAPSHOT_BALANCES)

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


def _outcome_from_dict(o: dict[str, Any]) -> Outcome:
    """An outcome saved by ``Match.to_dict`` (older snapshots have no detail template: the detail is one)."""
    detail = str(o.get("detail", ""))
    params = o.get("detail_params") or {}
    return Outcome(
        o["winner"], EndReason(o["reason"]), bool(o["rated"]), detail, str(o.get("detail_template", detail)),
        tuple(sorted((str(k), str(v)) for k, v in dict(params).items())),
    )
