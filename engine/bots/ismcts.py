"""Level 4: single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse 2012)
for one seat's decision.

One tree, keyed by actions, is grown over many determinizations: each iteration fills the hidden
tiles in (``knowledge``), walks down the tree choosing by UCB among the children whose actions are
legal in that filling (a child's exploration counts the iterations in which it was available, not
its parent's visits), adds one node, plays the rest of the round out with level-2 policies
(``engine.rollout.play_out_round``) and backs the round's value up: from the deciding seat's view at its own
moves, negated at the other player's. The root offers level 4's ``candidates`` (so the auction is
searched the same way); below it every legal action, the auction limited to decline / accept and the
smallest bid that does not lose the match on the spot. The most visited root action is chosen;
the search stops as soon as no other root action could catch up with its visits in the iterations
left (estimated from the pace so far when a clock bounds the work), or when no other root action
is plausibly better by more than half the smallest score (``settled``, like level 4's search).

Reward: the round's points for the deciding seat (a won or lost match ``MATCH_VALUE``), divided
by ``REWARD_SCALE`` and clipped to [-1, 1] (see ``reward``).

``engine.bots.choose`` uses it for level 4 (it beat the determinization search of ``search``,
which the arena keeps as ``--determinized-a``, at the same budget: docs/bots.md). With a clock,
fewer than ``MIN_ITERATIONS`` iterations (or two per root action) fall back to level 3. Pure: the
rng and the clock passed in are its only sources of randomness and time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..actions import Accept, Action, Bid, Decline, Reveal
from ..errors import NOTHING_TO_DECIDE, BotError
from ..match import Match, Phase
from ..rollout import play_out_round
from ..view import PlayerView
from .knowledge import Knowledge, determinize
from .policy import heuristic_auction, heuristic_play
from .search import DEFAULT_BUDGET_NS, candidates, outcome_value

DEFAULT_ITERATIONS = 1000
"""Iterations per decision when neither ``iterations`` nor a clock is given."""
MAX_ITERATIONS = 20_000
"""At most this many iterations with a budget (a clock that stops advancing cannot keep it searching)."""
MIN_ITERATIONS = 8
"""With a budget, fewer iterations than this (or than two per root action) fall back to level 3."""
EXPLORATION = 0.7
"""UCB's exploration constant, for rewards in [-1, 1]."""
STOP_CHECK_EVERY = 16
"""Iterations between two checks whether the most visited root action can still be caught up."""
SETTLE_AFTER = 512
"""Iterations before the search may stop because its choice is settled (see ``settled``)."""
SETTLE_MIN_VISITS = 6
"""A root action visited fewer times than this keeps the search going."""
SETTLE_Z = 3.0
SETTLE_MARGIN = 2.5
"""The search stops when no other root action is, ``SETTLE_Z`` standard errors above its mean,
more than ``SETTLE_MARGIN`` points better than the most visited one (level 4's
``INDIFFERENT_POINTS``: half the smallest score)."""
SETTLE_VARIANCE_FLOOR = (1.0 / 40.0) ** 2
"""The smallest reward variance assumed for a root action (one point), so that a few equal
rollouts do not look certain."""
REWARD_SCALE = 40.0
"""Points that count as a whole unit of reward (a round's swing of this many points or more, or a
decided match, is clipped to ±1)."""


@dataclass(slots=True, eq=False)
class Node:
    """One action in the tree, reached from its parent's information set; the root has no action.

    ``total`` is the sum of rewards from the view of ``player``, who took ``action``.
    """

    action: Action | None
    player: int
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    """The sum of the squared rewards (for the stopping rule's standard errors)."""
    available: int = 0
    """Iterations in which this action was legal when its parent was reached."""
    children: dict[Action, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        """The child's mean reward plus its exploration bonus (over its availability)."""
        return self.total / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


@dataclass(frozen=True, slots=True)
class IsmctsResult:
    """The chosen action and the iterations searched (0 when the choice needed no search)."""

    action: Action
    iterations: int


def reward(value: float) -> float:
    """A round's value in points (``outcome_value``) as a UCB reward in [-1, 1].

    Divided by ``REWARD_SCALE`` and clipped: a typical round moves a few tens of points, so UCB's
    exploration stays balanced against the differences between plays; a won or lost match
    (±``MATCH_VALUE``) counts as the largest swing, ±1.
    """
    return max(-1.0, min(1.0, value / REWARD_SCALE))


def tree_actions(match: Match) -> tuple[Action, ...]:
    """The actions below the root for the player to act in ``match``: every legal one, except that
    the auction offers only decline / accept and the smallest bid that would not leave the bidder
    at 0."""
    legal = match.legal_actions()
    if match.phase is not Phase.AUCTION:
        return legal
    auction = match.auction()
    player = match.to_act
    assert auction is not None and player is not None
    balance = match.balances[player]
    stay = [a for a in legal if isinstance(a, Decline | Accept)]
    bids = [a for a in legal if isinstance(a, Bid) and auction.cost(player, a.amount) < balance]
    return (*stay, *bids[:1])


def in_round(match: Match) -> bool:
    """Whether a player still has to act in the round being played (neither ended nor the match)."""
    return match.to_act is not None and (match.phase is Phase.PLAY or match.phase is Phase.AUCTION)


def ismcts(
    view: PlayerView,
    rng: random.Random,
    iterations: int | None = None,
    budget_ns: int | None = None,
    clock: Callable[[], int] | None = None,
) -> Action:
    """The SO-ISMCTS choice for ``view``'s seat (see the module's description).

    ``iterations`` fixes the work (reproducible, no clock read); otherwise ``clock`` (nanoseconds)
    with ``budget_ns`` (default level 4's ``DEFAULT_BUDGET_NS``) bounds it; with neither,
    ``DEFAULT_ITERATIONS``. Raises ``BotError`` when the seat has nothing to decide.
    """
    return ismcts_search(view, rng, iterations, budget_ns, clock).action


def ismcts_search(
    view: PlayerView,
    rng: random.Random,
    iterations: int | None = None,
    budget_ns: int | None = None,
    clock: Callable[[], int] | None = None,
    *,
    stop_early: bool = True,
) -> IsmctsResult:
    """``ismcts``'s choice together with the number of iterations it searched; ``stop_early=False``
    uses all the work even when the choice can no longer change."""
    if not view.legal or view.phase is Phase.READY or view.phase is Phase.MATCH_OVER:
        raise BotError(NOTHING_TO_DECIDE, seat=view.seat)
    if isinstance(view.legal[0], Reveal):
        return IsmctsResult(view.legal[0], 0)
    options = candidates(view)
    if len(options) == 1:
        return IsmctsResult(options[0], 0)
    know = Knowledge.of(view)
    started = deadline = 0
    timed = iterations is None and clock is not None
    if iterations is None:
        if clock is None:
            iterations = DEFAULT_ITERATIONS
        else:
            started = clock()
            deadline = started + (DEFAULT_BUDGET_NS if budget_ns is None else budget_ns)
    limit = MAX_ITERATIONS if iterations is None else iterations
    root = Node(None, view.other)
    done = 0
    now = started
    while done < limit:
        if timed and clock is not None:
            now = clock()
            if now >= deadline:
                break
        iterate(root, view, rng, know, options)
        done += 1
        if stop_early and done % STOP_CHECK_EVERY == 0:
            left = limit - done
            if timed and now > started:
                left = min(left, done * (deadline - now) // (now - started))
            if decided(root, left) or (done >= SETTLE_AFTER and settled(root)):
                break
    if timed and done < max(MIN_ITERATIONS, 2 * len(options)):
        fallback = heuristic_auction(view) if view.auction is not None else heuristic_play(view, rng, know)
        return IsmctsResult(fallback, done)
    return IsmctsResult(most_visited(root, options), done)


def iterate(root: Node, view: PlayerView, rng: random.Random, know: Knowledge, options: list[Action]) -> None:
    """One iteration: determinize, select, expand one node, play the round out, back the value up."""
    seat = view.seat
    before = view.balances[seat]
    match = determinize(view, rng, know)
    exploration = EXPLORATION
    node = root
    path = [root]
    actions: tuple[Action, ...] | list[Action] = options
    while True:
        player = match.to_act
        assert player is not None
        children = node.children
        untried = [a for a in actions if a not in children]
        for a in actions:
            child = children.get(a)
            if child is not None:
                child.available += 1
        if untried:
            action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            node = children[action] = Node(action, player, available=1)
            path.append(node)
            match.apply(action, 0)
            break
        node = max((children[a] for a in actions), key=lambda c: c.ucb(exploration))
        path.append(node)
        assert node.action is not None
        match.apply(node.action, 0)
        if not in_round(match):
            break
        actions = tree_actions(match)
    play_out_round(match, rng.random)
    r = reward(outcome_value(match, seat, before))
    square = r * r
    for visited in path:
        visited.visits += 1
        visited.total += r if visited.player == seat else -r
        visited.squares += square


def decided(root: Node, left: int) -> bool:
    """Whether the most visited root action is more than ``left`` visits ahead of every other one."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > left


def settled(root: Node) -> bool:
    """Whether more iterations would not change the choice in a way that matters: for every other
    root action, its mean reward minus the most visited one's is, ``SETTLE_Z`` standard errors
    above, at most ``SETTLE_MARGIN`` points (both searched at least ``SETTLE_MIN_VISITS`` times)."""
    children = list(root.children.values())
    leader = max(children, key=lambda c: c.visits)
    if leader.visits < SETTLE_MIN_VISITS:
        return False
    margin = SETTLE_MARGIN / REWARD_SCALE
    lead_mean = leader.total / leader.visits
    lead_error = _variance(leader) / leader.visits
    for child in children:
        if child is leader:
            continue
        if child.visits < SETTLE_MIN_VISITS:
            return False
        gap = child.total / child.visits - lead_mean
        if gap + SETTLE_Z * math.sqrt(lead_error + _variance(child) / child.visits) > margin:
            return False
    return True


def _variance(node: Node) -> float:
    """The sample variance of a node's rewards (at least ``SETTLE_VARIANCE_FLOOR``)."""
    n = node.visits
    mean = node.total / n
    return max(SETTLE_VARIANCE_FLOOR, (node.squares - n * mean * mean) / (n - 1))


def most_visited(root: Node, options: list[Action]) -> Action:
    """The root action searched most (then the better mean, then the first in ``options``)."""
    best = options[0]
    best_key = (-1, -math.inf)
    for a in options:
        child = root.children.get(a)
        if child is None or child.visits == 0:
            continue
        key = (child.visits, child.total / child.visits)
        if key > best_key:
            best, best_key = a, key
    return best
