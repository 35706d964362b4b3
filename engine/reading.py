"""What a match shows: ``MatchReading`` adds the read-only properties and clock readings to the
state record (``state.py``); ``Match`` (``match.py``) adds the rules."""

from __future__ import annotations

from .auction import max_affordable_bid
from .events import Outcome
from .history import K_BID, K_DRAW, K_PLAY, KIND_CODES, Turn
from .layout import Layout
from .rules import pips
from .state import AuctionView, MatchState, Phase
from .tiles import ALL_TILES, POINTS, Point, Tile


class MatchReading(MatchState):
    """A match's state as its readers see it (read only: every change goes through ``Match.apply``)."""

    __slots__ = ()

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
        return (pips(self._hands[0]), pips(self._hands[1]))

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
