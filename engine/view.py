"""``PlayerView``: everything one seat may know about a match at an instant, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .events import Outcome
from .history import Turn, TurnKind
from .layout import Layout, Placement
from .match import Match
from .state import AuctionView, Phase
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``seat`` sees: its own hand, the table, the counts, the clocks and the round's public history.

    Frozen and comparable: two matches that differ only in tiles the seat has not seen (the other
    hand, the boneyard's order and contents, the other player's drawn tiles) give equal views.
    """

    seat: int
    phase: Phase
    pending_phase: Phase | None
    """In a hand-over, the phase that continues after the reveal."""
    round: int
    to_act: int | None
    balances: tuple[int, int]
    hand: tuple[Tile, ...]
    """The seat's own tiles, sorted by name."""
    hand_sizes: tuple[int, int]
    boneyard_count: int
    placements: tuple[Placement, ...]
    """The layout: every placed tile in placing order."""
    end_count: int
    jockey: int | None
    auction: AuctionView | None
    legal: tuple[Action, ...]
    """The seat's legal actions (empty when the other player is to act; Resign is never listed)."""
    banks_ns: tuple[int, int]
    """Both banks at the instant of the view."""
    delay_left_ns: int
    """What is left of the running decision's free delay at the instant (0 when no clock runs)."""
    delay_ns: int
    """The fresh delay every decision gets."""
    clock_running: int | None
    drawn_tile: Tile | None
    """A tile the seat drew that fits and must be played now."""
    opening_tile: Tile | None
    """The tile the seat must open with in a ranked opening (None when the other player opens)."""
    ranked: bool
    """True when the current round opens (or opened) by rank, False after an auction."""
    history: tuple[Turn, ...]
    """The current round's commands in order; the other player's draws without their tiles."""
    outcome: Outcome | None

    @classmethod
    def of(cls, match: Match, seat: int, now_ns: int) -> PlayerView:
        """What ``seat`` may know of ``match`` at ``now_ns``."""
        to_act = match.to_act
        hand = match.hand(seat)
        opening = match.opening_tile
        return cls(
            seat=seat,
            phase=match.phase,
            pending_phase=match.pending_phase,
            round=match.round,
            to_act=to_act,
            balances=match.balances,
            hand=hand,
            hand_sizes=match.hand_sizes(),
            boneyard_count=match.boneyard_count,
            placements=match.layout.placements,
            end_count=match.end_count,
            jockey=match.jockey,
            auction=match.auction(),
            legal=match.legal_actions() if to_act == seat else (),
            banks_ns=(match.bank_ns(0, now_ns), match.bank_ns(1, now_ns)),
            delay_left_ns=match.delay_left_ns(now_ns),
            delay_ns=match.config.delay_ns,
            clock_running=match.clock_running,
            drawn_tile=match.drawn_tile if to_act == seat else None,
            opening_tile=opening if opening is not None and opening in hand else None,
            ranked=match.ranked_round,
            history=match.round_history(seat),
            outcome=match.outcome,
        )

    @property
    def other(self) -> int:
        """The other seat."""
        return 1 - self.seat

    def layout(self) -> Layout:
        """A fresh ``Layout`` holding the view's placements."""
        layout = Layout()
        for placement in self.placements:
            layout.place(placement.tile, placement.at)
        return layout

    def turns(self, kind: TurnKind) -> tuple[Turn, ...]:
        """The history's entries of one kind."""
        return tuple(turn for turn in self.history if turn.kind is kind)
