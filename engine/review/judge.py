"""One decision judged on what the deciding seat knew: the expected points of each action over the
same sampled worlds, the chosen action's loss against the best with a paired 95 % interval, a class.

A *world* fills the hidden tiles in from the seat's ``PlayerView`` alone (``engine.bots.determinize``:
tile counting from the view's public history, never the real match). Every action is applied to a
copy of the same world and the round is played to its end by the level-2 rollout
(``engine.rollout.play_out_round``) with the same tie-break numbers for every action (common random
numbers). An action's value in a world is the seat's change of balance up to the round's end.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ..actions import Accept, Action, Bid, Decline
from ..bots import Knowledge, determinize
from ..match import Phase
from ..rollout import play_out_round
from ..scenario import action_step
from ..view import PlayerView

DEFAULT_SAMPLES = 200
"""Worlds per decision unless the caller says otherwise (docs/review.md, "Speed")."""
Z95 = 1.96
"""The normal quantile of a two-sided 95 % interval."""
INACCURACY = 2.5
MISTAKE = 5.0
BLUNDER = 10.0
"""A decision's class: the lower end of its loss interval, in points, at or above ``BLUNDER`` is a
blunder, else at or above ``MISTAKE`` a mistake, else at or above ``INACCURACY`` an inaccuracy, else
good (docs/review.md, "Thresholds": the smallest score is 5 points)."""
CLASSES = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class Judgement:
    """One reviewed decision: the actions compared with their mean values, the chosen and the best,
    the chosen action's mean loss and its 95 % interval (paired over the shared worlds), the class."""

    options: tuple[Action, ...]
    means: tuple[float, ...]
    chosen: int
    best: int
    loss: float
    loss_low: float
    loss_high: float
    klass: str
    samples: int


def is_genuine(view: PlayerView) -> bool:
    """Whether the seat has a real choice: its turn to play or bid, with more than one option."""
    if view.to_act != view.seat or view.phase not in (Phase.PLAY, Phase.AUCTION):
        return False
    return len(view.legal) > 1


def options_for(view: PlayerView, chosen: Action) -> tuple[Action, ...]:
    """The actions compared: every legal play; in the auction decline / accept, the smallest bid and
    the chosen bid (under the rollout the other player always accepts, so a larger bid is the
    smallest one plus its extra payment: never better, docs/review.md)."""
    legal = view.legal
    if view.phase is not Phase.AUCTION:
        return tuple(legal)
    stay = [a for a in legal if isinstance(a, Decline | Accept)]
    bids = [a for a in legal if isinstance(a, Bid)]
    picked: list[Action] = [*stay[:1], *bids[:1]]
    if chosen not in picked:
        picked.append(chosen)
    return tuple(picked)


def classify(loss_low: float) -> str:
    """The class of a decision whose loss interval starts at ``loss_low`` points."""
    if loss_low >= BLUNDER:
        return "blunder"
    if loss_low >= MISTAKE:
        return "mistake"
    if loss_low >= INACCURACY:
        return "inaccuracy"
    return "good"


def world_values(view: PlayerView, options: tuple[Action, ...], samples: int, rng: random.Random) -> list[list[float]]:
    """For each option, its value (the seat's points to the round's end) in each of ``samples``
    worlds drawn from the view, every option played in the same worlds with the same tie-breaks."""
    seat = view.seat
    before = view.balances[seat]
    know = Knowledge.of(view)
    values: list[list[float]] = [[] for _ in options]
    for _ in range(samples):
        world = determinize(view, rng, know)
        seed = rng.getrandbits(64)
        for row, action in zip(values, options, strict=True):
            m = world.clone()
            m.apply(action, 0)
            play_out_round(m, random.Random(seed).random)
            row.append(float(m.balances[seat] - before))
    return values


def paired_interval(diffs: list[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its 95 % interval (normal approximation)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, mean, mean
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def judge(view: PlayerView, chosen: Action, samples: int, rng: random.Random) -> Judgement:
    """The judgement of ``chosen`` (one of ``view.legal``) over ``samples`` worlds from ``rng``."""
    options = options_for(view, chosen)
    values = world_values(view, options, samples, rng)
    means = tuple(sum(v) / samples for v in values)
    c = options.index(chosen)
    best = c
    for i, m in enumerate(means):
        if m > means[best]:
            best = i
    if best == c:
        loss = low = high = 0.0
    else:
        loss, low, high = paired_interval([b - x for b, x in zip(values[best], values[c], strict=True)])
    return Judgement(options, means, c, best, loss, low, high, classify(low), samples)


def action_json(action: Action) -> dict[str, Any]:
    """An action as a scenario step without its time and player (``{"do": "play", "tile": ...}``)."""
    step = action_step(action, 0)
    step.pop("t", None)
    step.pop("player", None)
    return step
