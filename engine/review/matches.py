"""Bot matches recorded as conformance scenarios (the input of a review), for the validity figures,
the benchmark and the tests."""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action, Start
from ..bots import choose
from ..clock import NS_PER_MS
from ..deal import shuffle_deal
from ..match import Match
from ..scenario import action_step
from ..view import PlayerView

MAX_ROUNDS = 400
"""A match still running after this many rounds is cut there (its scenario simply stops)."""


def bot_scenario(levels: tuple[int, int], seed: int, *, iterations: int = 200,
                 name: str | None = None) -> dict[str, Any]:
    """A whole match between bots of ``levels`` (seat 0, seat 1) as a scenario; deals and decisions
    from ``seed``; level 4 with ``iterations`` fixed search iterations (reproducible). Every decision
    takes 1 ms of virtual time."""
    deals = random.Random(f"deals-{seed}")
    rngs = (random.Random(f"bot-{seed}-0"), random.Random(f"bot-{seed}-1"))
    match = Match()
    steps: list[dict[str, Any]] = []
    deal_list: list[dict[str, Any]] = []
    t = 0
    rounds = 0
    while not match.is_over and rounds < MAX_ROUNDS:
        deal = shuffle_deal(deals)
        deal_list.append(deal.to_dict())
        match.apply(Start(None, deal), t * NS_PER_MS)
        steps.append({"t": t, "do": "start"})
        rounds += 1
        while match.to_act is not None:
            seat = match.to_act
            t += 1
            view = PlayerView.of(match, seat, t * NS_PER_MS)
            action: Action = choose(view, levels[seat], rngs[seat], samples=iterations if levels[seat] == 4 else None)
            match.apply(action, t * NS_PER_MS)
            steps.append(action_step(action, t))
        t += 1
    return {"name": name or f"L{levels[0]}-vs-L{levels[1]}-{seed}", "config": {}, "deals": deal_list, "steps": steps}
