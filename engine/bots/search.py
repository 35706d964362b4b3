"""The search over sampled hidden hands (determinization with shared samples) that level 4 used
before ``ismcts``; the arena's ``--determinized`` side. ``ismcts`` shares this module's budget,
candidates and values.

Each sample fills the hidden tiles in from what the seat can infer (``knowledge``); every candidate
action is tried on a copy of that same filled-in match and the round is played out to its end by
level-2 policies with random tie-breaks (the same random numbers for every candidate). The action
with the best total of points won (a won or lost match counts ``MATCH_VALUE``) is chosen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..actions import Action, Bid, Play
from ..clock import NS_PER_MS
from ..match import Match
from ..rollout import play_out_round
from ..view import PlayerView
from .knowledge import Knowledge, determinize
from .policy import first_auction_action, greedy_match_action, heuristic_auction, heuristic_play, safe_actions

DEFAULT_BUDGET_NS = 180 * NS_PER_MS
"""Thinking time per decision when the caller gives a clock but no budget (the p99 stays under
250 ms on the development machine; a Raspberry Pi 4 should be given about 800 ms)."""
DEFAULT_SAMPLES = 150
"""Samples per decision when neither ``samples`` nor a clock is given: about the work the default
budget allows on the development machine."""
MAX_SAMPLES = 4096
"""At most this many samples with a budget (a clock that stops advancing cannot keep it searching;
the development machine manages at most about 1,700 in the default budget)."""
MIN_SAMPLES = 4
"""Fewer completed samples than this when the budget runs out: fall back to level 3."""
EARLY_AFTER = 24
"""Samples before the search may stop early (then every ``EARLY_EVERY``) when its choice is settled."""
EARLY_EVERY = 8
EARLY_Z = 3.0
"""Standard errors by which the leader must beat the runner-up (paired over the shared samples)."""
INDIFFERENT_POINTS = 2.5
INDIFFERENT_Z = 2.0
"""The search also stops when the runner-up is, ``INDIFFERENT_Z`` standard errors above its mean,
at most ``INDIFFERENT_POINTS`` better than the leader (half the smallest score): the choice makes
no difference worth more time."""
MATCH_VALUE = 1000.0
"""What winning (or, negated, losing) the match is worth in a rollout, in points."""


def rollout(match: Match, rng: random.Random) -> None:
    """Play ``match`` to the end of its round with level-2 policies for both players, one command at
    a time through ``apply`` (every command at the time of the last one: no clock runs down).

    ``engine.rollout.play_out_round`` does the same moves several times faster; the search uses that.
    """
    apply = match.apply
    now = match.last_command_ns or 0
    while match.to_act is not None:
        apply(greedy_match_action(match, rng), now)


def outcome_value(match: Match, seat: int, before: int) -> float:
    """Points ``seat`` gained since its balance was ``before``, a decided match counting ``MATCH_VALUE``."""
    value = float(match.balances[seat] - before)
    outcome = match.outcome
    if outcome is not None and outcome.winner is not None:
        value += MATCH_VALUE if outcome.winner == seat else -MATCH_VALUE
    return value


def candidates(view: PlayerView) -> list[Action]:
    """The actions worth searching: every safe play, or in the auction decline / accept and the
    smallest safe bid."""
    safe = safe_actions(view)
    if isinstance(safe[0], Play):
        return list(safe)
    if view.auction is None:
        return [safe[0]]
    bids = [a for a in safe if isinstance(a, Bid)]
    return [first_auction_action(view), *bids[:1]]


def search(
    view: PlayerView,
    rng: random.Random,
    samples: int | None,
    budget_ns: int | None,
    clock: Callable[[], int] | None,
) -> Action:
    """Level 4's choice (see the module's description)."""
    options = candidates(view)
    if len(options) == 1:
        return options[0]
    know = Knowledge.of(view)
    seat = view.seat
    before = view.balances[seat]
    deadline: int | None = None
    if samples is None:
        if clock is None:
            samples = DEFAULT_SAMPLES
        else:
            deadline = clock() + (DEFAULT_BUDGET_NS if budget_ns is None else budget_ns)
    values: list[list[float]] = [[] for _ in options]
    done = 0
    limit = MAX_SAMPLES if samples is None else samples
    while done < limit:
        if deadline is not None and clock is not None and clock() >= deadline:
            break
        world = determinize(view, rng, know)
        seed = rng.getrandbits(64)
        results = []
        for action in options:
            m = world.clone()
            m.apply(action, 0)
            play_out_round(m, random.Random(seed).random)
            results.append(outcome_value(m, seat, before))
            if deadline is not None and clock is not None and clock() >= deadline:
                break  # an unfinished sample is left out
        if len(results) < len(options):
            break
        for i, value in enumerate(results):
            values[i].append(value)
        done += 1
        if done >= EARLY_AFTER and done % EARLY_EVERY == 0 and _settled(values):
            break
    if deadline is not None and done < MIN_SAMPLES:
        return heuristic_auction(view) if view.auction is not None else heuristic_play(view, rng, know)
    return options[_leader(values)]


def _leader(values: list[list[float]]) -> int:
    """The option with the best total (the first of equals)."""
    totals = [sum(v) for v in values]
    best = 0
    for i in range(1, len(totals)):
        if totals[i] > totals[best]:
            best = i
    return best


def _settled(values: list[list[float]]) -> bool:
    """Whether more samples would not change the choice in a way that matters: the leader is ahead
    of the runner-up beyond doubt (the paired differences' mean is ``EARLY_Z`` standard errors above
    0, or the two never differed), or the two are as good as equal (``INDIFFERENT_POINTS``)."""
    best = _leader(values)
    rest = [i for i in range(len(values)) if i != best]
    second = max(rest, key=lambda i: sum(values[i]))
    diffs = [a - b for a, b in zip(values[best], values[second], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return True
    error = math.sqrt(var / n)
    return mean - EARLY_Z * error > 0.0 or mean - INDIFFERENT_Z * error > -INDIFFERENT_POINTS
