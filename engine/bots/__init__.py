"""Computer opponents for one seat, from what that seat may know (a ``PlayerView``) only.

``choose(view, level, rng)`` returns the seat's next action. Levels: 1 random legal play;
2 greedy (highest immediate score, then the heaviest tile); 3 heuristic (score minus the other
player's likely best reply from tile counting, blocking, follow-ups); 4 information-set Monte Carlo
tree search over sampled hidden hands (``ismcts``), falling back to level 3 when its time budget
runs out (the determinization search it replaced is ``search.search``). In the auction levels 1,
2 and 4 never bid (decline, or accept as the jockey: the *baseline auction*; level 4's search
reached the same decisions in every measured position, docs/bots.md), level 3 bids only when its
measured value of leading exceeds the bid's cost (which it has not, so far); no level makes a bid whose payment would
leave the bot at 0; bots never resign.

Pure and thread-safe: no module state changes, no clock read except the ``clock`` the caller
passes, randomness only from the caller's ``rng``. The same view, level, ``rng`` state and
``samples`` always give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Action, Reveal
from ..errors import BAD_LEVEL, NOTHING_TO_DECIDE, BotError
from ..match import Phase
from ..view import PlayerView
from .ismcts import DEFAULT_ITERATIONS as DEFAULT_SAMPLES
from .ismcts import ismcts_search
from .knowledge import Knowledge, determinize
from .policy import first_auction_action, greedy_play, heuristic_auction, heuristic_play, random_choice, safe_actions
from .search import DEFAULT_BUDGET_NS

LEVELS = (1, 2, 3, 4)

__all__ = ["DEFAULT_BUDGET_NS", "DEFAULT_SAMPLES", "LEVELS", "Knowledge", "choose", "determinize"]


def choose(
    view: PlayerView,
    level: int,
    rng: random.Random,
    *,
    samples: int | None = None,
    budget_ns: int | None = None,
    clock: Callable[[], int] | None = None,
) -> Action:
    """The action a level-``level`` bot takes for ``view``'s seat.

    Level 4 only: ``samples`` fixes the work (reproducible: that many search iterations, each on
    its own sample of the hidden tiles); otherwise ``clock`` (a callable returning nanoseconds)
    with ``budget_ns`` (default ``DEFAULT_BUDGET_NS``) bounds it; with neither,
    ``DEFAULT_SAMPLES`` iterations. Raises ``BotError`` for an unknown level or when the
    seat has nothing to decide.
    """
    if type(level) is not int or level not in LEVELS:
        raise BotError(BAD_LEVEL, level=level)
    legal = view.legal
    if not legal or view.phase is Phase.READY or view.phase is Phase.MATCH_OVER:
        raise BotError(NOTHING_TO_DECIDE, seat=view.seat)
    if isinstance(legal[0], Reveal):
        return legal[0]
    safe = safe_actions(view)
    in_auction = view.phase is Phase.AUCTION
    if level == 1:
        return first_auction_action(view) if in_auction else random_choice(safe, rng)
    if level == 2:
        return first_auction_action(view) if in_auction else greedy_play(view.layout(), safe)
    if level == 3:
        return heuristic_auction(view) if in_auction else heuristic_play(view, rng)
    if in_auction:
        return first_auction_action(view)
    return ismcts_search(view, rng, samples, budget_ns, clock).action
