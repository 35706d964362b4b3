"""Levels 1 to 3 (random, greedy, heuristic) and the rules they share: safe bids, scoring a play."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Accept, Action, Bid, Decline, Play
from ..layout import NO_POINT, Layout
from ..match import AuctionView, Match
from ..tiles import POINT_VALUE, TILE_HALVES, TILE_INDEX, TILE_MASK, TILE_PIPS
from ..view import PlayerView
from .knowledge import Knowledge

LEAD_BASE = 4.5
LEAD_PER_POINT = 0.75
"""Level 3's measured value of opening a round instead of letting the other player open, in the
seat's own points: ``LEAD_BASE + LEAD_PER_POINT`` × the best opening score in hand (level-3 play
of the same deals both ways, ``python -m engine.bots.auction_value``: about 3.9 + 0.77 × the score
in the round, and about 1 more for the better chance of being the next round's jockey). At most
12, below every bid's cost (15 for the first bid, 5 + the 15 that accepting earns for the
jockey's raise), so level 3 does not bid."""


def safe_actions(view: PlayerView) -> tuple[Action, ...]:
    """The seat's legal actions without any bid whose accepted payment would leave it at 0."""
    auction = view.auction
    if auction is None:
        return view.legal
    balance = view.balances[view.seat]
    return tuple(a for a in view.legal if not isinstance(a, Bid) or auction.cost(view.seat, a.amount) < balance)


def score_of(count: int) -> int:
    """What an end count scores."""
    return count if count > 0 and count % 5 == 0 else 0


def play_score(layout: Layout, play: Play) -> int:
    """What ``play`` would score on ``layout``."""
    return score_of(layout.count_after_index(play.tile_index, play.point_index))


# -- level 1 ----------------------------------------------------------------------------------


def random_choice(actions: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random action."""
    return actions[rng.randrange(len(actions))]


# -- level 2 ----------------------------------------------------------------------------------


def greedy_play(layout: Layout, plays: Sequence[Action]) -> Action:
    """The highest immediate score, then the heaviest tile (the first such in legal order)."""
    best = plays[0]
    best_key = (-1, -1)
    for a in plays:
        if isinstance(a, Play):
            key = (score_of(layout.count_after_index(a.tile_index, a.point_index)), TILE_PIPS[a.tile_index])
            if key > best_key:
                best, best_key = a, key
    return best


def greedy_match_action(match: Match, rng: random.Random) -> Action:
    """Level 2 played from a whole match (the search's rollouts): greedy, ties broken at random.

    The auction: decline, or accept the standing bid.
    """
    legal = match.legal_actions()
    first = legal[0]
    if not isinstance(first, Play):
        return first  # Draw, Pass, Decline / Accept (the first auction action), Reveal, Start
    if len(legal) == 1:
        return first
    layout = match.layout
    count_after = layout.count_after_index
    best_key = -1
    ties: list[Action] = []
    for a in legal:
        assert isinstance(a, Play)
        count = count_after(a.tile_index, a.point_index)
        key = (count if count > 0 and count % 5 == 0 else 0) * 16 + TILE_PIPS[a.tile_index]
        if key > best_key:
            best_key = key
            ties = [a]
        elif key == best_key:
            ties.append(a)
    return ties[0] if len(ties) == 1 else ties[int(rng.random() * len(ties))]


def first_auction_action(view: PlayerView) -> Action:
    """Decline (first action) or accept the standing bid."""
    for a in view.legal:
        if isinstance(a, Decline | Accept):
            return a
    return view.legal[0]


# -- level 3 ----------------------------------------------------------------------------------


def expected_best(values: Sequence[tuple[float, float]]) -> float:
    """E[max] of independent offers (value, probability), 0 when none is there."""
    total = 0.0
    none_yet = 1.0
    for value, p in sorted(values, reverse=True):
        if value <= 0:
            break
        total += value * p * none_yet
        none_yet *= 1.0 - p
    return total


def best_score_on(layout: Layout, t: int) -> int:
    """The best score tile index ``t`` can make on ``layout`` (0 if it cannot score or fit)."""
    low, high = TILE_HALVES[t]
    best = 0
    for p in layout.open_indices:
        v = POINT_VALUE[p]
        if v in (low, high):
            s = score_of(layout.count_after_index(t, p))
            if s > best:
                best = s
    return best


def evaluate_play(layout: Layout, play: Play, hand: Sequence[int], odds: dict[int, float], other_size: int) -> float:
    """Level 3's value of ``play``: its score, minus the other player's likely best reply, plus
    blocking them, keeping scoring follow-ups and shedding pips."""
    t = play.tile_index
    score = score_of(layout.count_after_index(t, play.point_index))
    rest = [x for x in hand if x != t]
    if not rest:
        return 1000.0 + score  # domino: the round is won
    after = layout.copy()
    after.place_index(t, play.point_index)
    mask = after.open_values_mask
    replies: list[tuple[float, float]] = []
    no_fit = 1.0
    for x, p in odds.items():
        if p <= 0.0 or not TILE_MASK[x] & mask:
            continue
        no_fit *= 1.0 - p
        replies.append((float(best_score_on(after, x)), p))
    reply = expected_best(replies)
    follow = max((best_score_on(after, x) for x in rest), default=0)
    fits = sum(1 for x in rest if TILE_MASK[x] & mask)
    block = no_fit if other_size > 0 else 0.0
    return score - 0.9 * reply + 0.35 * follow + 0.6 * fits + 4.0 * block + 0.25 * TILE_PIPS[t]


def heuristic_play(view: PlayerView, rng: random.Random, knowledge: Knowledge | None = None) -> Action:
    """Level 3 for placing, drawing and passing."""
    legal = view.legal
    if len(legal) == 1 or not isinstance(legal[0], Play):
        return legal[0]
    know = knowledge or Knowledge.of(view)
    odds = know.hold_odds(rng)
    layout = view.layout()
    hand = [TILE_INDEX[t] for t in view.hand]
    best = legal[0]
    best_value = float("-inf")
    for a in legal:
        assert isinstance(a, Play)
        value = evaluate_play(layout, a, hand, odds, know.other_size)
        if value > best_value:
            best, best_value = a, value
    return best


def best_opening_score(view: PlayerView) -> int:
    """The best score an opening tile from the seat's hand would make (0, 5 or 10)."""
    return max((score_of(Layout().count_after_index(TILE_INDEX[t], NO_POINT)) for t in view.hand), default=0)


def lead_value(view: PlayerView) -> float:
    """Level 3's estimate of what opening the round is worth to the seat over letting the other
    player open, in points (``LEAD_BASE``, ``LEAD_PER_POINT``)."""
    return LEAD_BASE + LEAD_PER_POINT * best_opening_score(view)


def auction_by_value(view: PlayerView, lead_gain: float) -> Action:
    """The auction move for ``lead_gain`` = what opening is worth over letting the other player open.

    Bid the minimum when leading is worth more than the payment (assuming it is accepted), else
    decline or accept; never a bid whose payment would leave the seat at 0.
    """
    auction = view.auction
    assert auction is not None
    safe = safe_actions(view)
    bids = [a for a in safe if isinstance(a, Bid)]
    stay = first_auction_action(view)
    if not bids:
        return stay
    bid = bids[0]
    if _bid_worth(auction, view.seat, bid.amount, lead_gain):
        return bid
    return stay


def _bid_worth(auction: AuctionView, seat: int, amount: int, lead_gain: float) -> bool:
    """Whether bidding ``amount`` beats declining / accepting when leading is worth ``lead_gain``."""
    cost = auction.cost(seat, amount)
    if auction.bid is None:
        return lead_gain > cost  # decline: the jockey leads for free
    # accept: the other player pays its bid and leads; bid: we pay and lead
    their_cost = auction.cost(1 - seat, auction.bid)
    return lead_gain > cost + their_cost


def heuristic_auction(view: PlayerView) -> Action:
    """Level 3's auction rule: bid only when the measured value of leading exceeds what the bid
    costs (``auction_by_value`` with ``lead_value``)."""
    return auction_by_value(view, lead_value(view))
