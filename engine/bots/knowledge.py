"""Tile counting from a ``PlayerView``: which tiles are unseen, what the other hand cannot hold, and
filling the hidden tiles in (determinization) consistently with draws, passes and a ranked opening.

Reasoning used (all sound: the real deal always satisfies it):

- a player who draws or passes holds no tile matching any open value at that moment; a tile they
  drew and kept did not match the values open while they drew;
- a tile still in that hand now was held at every later draw or pass of theirs, so it avoids the
  open values of all of them. Of the ``n`` tiles held now, at least ``n`` minus the tiles kept from
  later draw sequences were held before each sequence;
- in a ranked round the opening tile outranked every other tile of both first hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..auction import Auction
from ..clock import MatchClock
from ..errors import BAD_FILL, BotError
from ..history import K_PASS, KIND_CODES, TurnKind
from ..layout import Layout
from ..match import Match
from ..rules import opening_rank_index, ranked_opener_index
from ..state import MatchConfig, MatchState, Phase
from ..tiles import ALL_TILES, POINT_INDEX, TILE_INDEX, TILE_MASK, Point, Tile
from ..view import PlayerView

_ALL = frozenset(range(len(ALL_TILES)))


@dataclass(frozen=True, slots=True)
class Group:
    """At least ``need`` more tiles of the other hand come from ``allowed`` (tile indices)."""

    need: int
    allowed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat can infer about the hidden tiles."""

    unseen: tuple[int, ...]
    """Tile indices the seat has not seen (the other hand and the boneyard), ascending."""
    other_size: int
    boneyard_size: int
    groups: tuple[Group, ...]
    """Constraints on the other hand, most constrained first, ``allowed`` sets nested."""
    void_mask: int
    """Values (bit v) the other player is known to hold nothing of, on tiles held since their first
    draw or pass: the union of the open values at their draws and passes."""

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Everything the view's seat can count."""
        seen = {TILE_INDEX[t] for t in view.hand} | {TILE_INDEX[p.tile] for p in view.placements}
        unseen = tuple(sorted(_ALL - seen))
        other = view.other
        other_size = view.hand_sizes[other]
        # walk the history: the open values at each of the other player's draw sequences and passes
        layout = Layout()
        events: list[tuple[int, int]] = []  # (open values mask, tiles kept) per draw sequence / pass
        drawing = False
        first_tile = -1
        for turn in view.history:
            if turn.kind is TurnKind.PLAY:
                assert turn.tile is not None
                if first_tile < 0:
                    first_tile = TILE_INDEX[turn.tile]
                if turn.player == other and drawing:
                    mask, kept = events[-1]
                    events[-1] = (mask, kept - 1)  # the last drawn tile fitted and was played
                drawing = False
                layout.place(turn.tile, turn.at)
            elif turn.player != other:
                drawing = False
            elif turn.kind is TurnKind.DRAW:
                if not drawing:
                    events.append((layout.open_values_mask, 0))
                    drawing = True
                mask, kept = events[-1]
                events[-1] = (mask, kept + 1)
            elif turn.kind is TurnKind.PASS:
                events.append((layout.open_values_mask, 0))
                drawing = False
        # suffix unions: a tile held since event j avoids the values of events j, j+1, ...
        avoid = [0] * (len(events) + 1)
        for j in range(len(events) - 1, -1, -1):
            avoid[j] = avoid[j + 1] | events[j][0]
        later_kept = [0] * (len(events) + 1)
        for j in range(len(events) - 1, -1, -1):
            later_kept[j] = later_kept[j + 1] + events[j][1]
        rank_limit = opening_rank_index(first_tile) if view.ranked and first_tile >= 0 else None
        if view.ranked and first_tile < 0 and view.opening_tile is not None:
            rank_limit = opening_rank_index(TILE_INDEX[view.opening_tile])
        groups: list[Group] = []
        placed = 0
        # (tiles of the other hand held since then, values they avoid, whether the rank limit holds):
        # the first hand, then the tiles held since each draw sequence or pass
        thresholds = [(other_size - later_kept[0], avoid[0], True)]
        thresholds += [(other_size - later_kept[j + 1], avoid[j], False) for j in range(len(events))]
        for held, mask, first in thresholds:
            need = held - placed
            if need <= 0:
                continue
            allowed = tuple(
                t for t in unseen
                if not TILE_MASK[t] & mask and (not first or rank_limit is None or opening_rank_index(t) < rank_limit)
            )
            groups.append(Group(need, allowed))
            placed += need
        if placed < other_size:
            groups.append(Group(other_size - placed, unseen))
        return cls(unseen, other_size, view.boneyard_count, tuple(groups), avoid[0])

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One filling of the hidden tiles: (the other hand, the boneyard in drawing order)."""
        taken: set[int] = set()
        hand: list[int] = []
        for group in self.groups:
            free = [t for t in group.allowed if t not in taken]
            if len(free) < group.need:  # only when the view is inconsistent: relax the constraint
                free = [t for t in self.unseen if t not in taken]
            for t in rng.sample(free, group.need):
                taken.add(t)
                hand.append(t)
        rest = [t for t in self.unseen if t not in taken]
        rng.shuffle(rest)
        return hand, rest

    def hold_odds(self, rng: random.Random, samples: int = 32) -> dict[int, float]:
        """For each unseen tile, the share of ``samples`` fillings in which the other hand holds it."""
        counts = dict.fromkeys(self.unseen, 0)
        for _ in range(samples):
            for t in self.sample(rng)[0]:
                counts[t] += 1
        return {t: c / samples for t, c in counts.items()}


def determinize(view: PlayerView, rng: random.Random, knowledge: Knowledge | None = None) -> Match:
    """A whole match consistent with ``view``: its hidden tiles drawn from what the seat can infer."""
    know = knowledge or Knowledge.of(view)
    hand, rest = know.sample(rng)
    return match_from_view(view, [ALL_TILES[t] for t in hand], [ALL_TILES[t] for t in rest])


def match_from_view(view: PlayerView, other_hand: Sequence[Tile], boneyard: Sequence[Tile]) -> Match:
    """A match that ``view``'s seat cannot tell from the real one, the hidden tiles filled in.

    ``other_hand`` is the other player's hand, ``boneyard`` the tiles left to draw (first drawn
    first). The copy has no hand-over (a pending hand-over is already revealed) and its clock reads
    the view's banks at time 0, the running decision's delay as the view left it. Fields the view
    says nothing of keep their defaults (``MatchState``). Raises ``BotError`` when the tiles do not
    complete the view.
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
    config = MatchConfig(balances=(max(1, view.balances[0]), max(1, view.balances[1])),
                         bank_ns=(max(1, view.banks_ns[0]), max(1, view.banks_ns[1])),
                         delay_ns=view.delay_ns, handover=False, jockey=view.jockey)
    hands = [sorted(mine), sorted(theirs)] if seat == 0 else [sorted(theirs), sorted(mine)]
    history = [_history_entry(turn.player, KIND_CODES.index(turn.kind), turn.tile, turn.at, turn.amount)
               for turn in view.history]
    passes = 0
    for entry in reversed(history):
        if entry[1] != K_PASS:
            break
        passes += 1
    opening = -1
    if view.ranked and layout.is_empty and hands[0] and hands[1]:
        opening = ranked_opener_index(hands)[1]
    a = view.auction
    clock = MatchClock(config.bank_ns, config.delay_ns)
    if view.to_act is not None and view.phase is not Phase.READY:
        clock.start(view.to_act, view.delay_left_ns - view.delay_ns)
    match = Match.__new__(Match)
    MatchState.__init__(
        match, config=config, _balances=list(view.balances), _jockey=view.jockey, _clock=clock, _handover=False,
        _phase=view.pending_phase if view.phase is Phase.HANDOVER and view.pending_phase is not None else view.phase,
        _round=view.round, _hands=hands, _boneyard=rest, _layout=layout, to_act=view.to_act, _ranked=view.ranked,
        _opening_tile=opening, _drawn=-1 if view.drawn_tile is None else TILE_INDEX[view.drawn_tile],
        _history=history, _passes=passes, _last_actor=history[-1][0] if history else None,
        _auction=None if a is None else Auction(a.jockey, a.bid, a.bidder), _outcome=view.outcome,
    )
    return match


def _history_entry(player: int, code: int, tile: Tile | None, at: Point | None, amount: int | None) -> tuple[int, int, int, int]:
    """One history entry as the match records it (see ``MatchState._history``)."""
    x = p = -1
    if tile is not None:
        x = TILE_INDEX[tile]
    if at is not None:
        p = POINT_INDEX[at]
    if amount is not None:
        x = amount
    return (player, code, x, p)

