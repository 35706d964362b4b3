"""Luck: what the deal and each boneyard draw were worth to the reviewed seat against the average.

Luck is judged after the match, with every tile known (as a backgammon program judges the dice):

- **the deal**: the round played out by the level-2 rollout from the real two hands (the boneyard
  reshuffled) against the same from freshly shuffled deals, at the round's balances and jockey;
- **a draw** (by either player): the round played out from just after the draw (the other hand as
  it really was, the rest of the boneyard reshuffled) against the same from just before it (the
  drawn tile back among the boneyard's, so any of them could have come).

The values are the seat's points to the round's end; the same tie-break numbers are used on both
sides of each comparison (common random numbers).
"""

from __future__ import annotations

import random

from ..actions import Start
from ..bots import Knowledge
from ..bots.knowledge import Group, determinize
from ..deal import Deal, shuffle_deal
from ..match import Match, MatchConfig
from ..rollout import play_out_round
from ..tiles import ALL_TILES, TILE_INDEX
from ..view import PlayerView

_ALL = frozenset(range(len(ALL_TILES)))


def _round_value(m: Match, seat: int, seed: int) -> float:
    """The seat's points from ``m`` to the end of its round under the level-2 rollout."""
    before = m.balances[seat]
    play_out_round(m, random.Random(seed).random)
    return float(m.balances[seat] - before)


def deal_luck(ready: Match, deal: Deal, seat: int, samples: int, rng: random.Random) -> float:
    """What ``deal``'s two hands were worth to ``seat`` over an average deal, from the ``ready``
    match (between rounds) that received it."""
    config = MatchConfig(balances=ready.balances, jockey=ready.jockey)
    real_hands = deal.hands
    rest = list(deal.boneyard)
    total = 0.0
    for _ in range(samples):
        seed = rng.getrandbits(64)
        rng.shuffle(rest)
        actual = Match(config)
        actual.apply(Start(None, Deal(real_hands, tuple(rest))), 0)
        average = Match(config)
        average.apply(Start(None, shuffle_deal(rng)), 0)
        total += _round_value(actual, seat, seed) - _round_value(average, seat, seed)
    return total / samples


def _fixed_other(view: PlayerView, other_hand: tuple[int, ...]) -> Knowledge:
    """A filling of ``view``'s hidden tiles that puts ``other_hand`` in the other hand exactly and
    shuffles the boneyard."""
    seen = {TILE_INDEX[t] for t in view.hand} | {TILE_INDEX[p.tile] for p in view.placements}
    unseen = tuple(sorted(_ALL - seen))
    return Knowledge(unseen, len(other_hand), view.boneyard_count, (Group(len(other_hand), other_hand),), 0)


def draw_luck(before: PlayerView, after: PlayerView, other_hand: tuple[int, ...], seat: int, samples: int,
              rng: random.Random) -> float:
    """What one draw was worth to ``seat``: the drawer's views just before and just after it, the
    other player's real hand (tile indices) meanwhile."""
    know_before = _fixed_other(before, other_hand)
    know_after = _fixed_other(after, other_hand)
    total = 0.0
    for _ in range(samples):
        seed = rng.getrandbits(64)
        total += _round_value(determinize(after, rng, know_after), seat, seed)
        total -= _round_value(determinize(before, rng, know_before), seat, seed)
    return total / samples
