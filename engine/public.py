"""The public projection of a running match: what anyone watching the table may see, as plain JSON data.

``project(match, now_ns)`` is what a kiosk sends the club hub after every accepted command, and what
the hub's archive shows at each step of a replay. It holds the players' balances, both banks and the
free delay, whose turn it is, the auction's standing bid, the layout with its open ends and end
count, how many tiles each hand and the boneyard hold, and the last move. It never holds a tile of
a hand or of the boneyard while a round runs, nor a drawn tile: the only tiles in it are the placed
ones (and the played tile of the last move, which is placed). The hands go with it only at the
settlement of a blocked round, when the rules compare them (RULES.md §5) and both hands are what is
left of the 28 tiles after the layout; a round ended by a domino reveals nothing.
"""

from __future__ import annotations

from typing import Any

from .history import TurnKind
from .match import Match, Phase

PROJECTION_VERSION = 1
"""The shape of ``project``'s answer (the hub refuses another)."""
_NOBODY = 2
"""A viewer that is neither seat: the history shows it no drawn tile."""


def project(match: Match, now_ns: int) -> dict[str, Any]:
    """The public state of ``match`` at ``now_ns`` (plain data: str, int, bool, None, lists and dicts)."""
    history = match.round_history(_NOBODY)
    last = history[-1] if history else None
    auction = match.auction()
    outcome = match.outcome
    revealed = blocked_settlement(match)
    return {
        "v": PROJECTION_VERSION,
        "phase": match.phase.value,
        "round": match.round,
        "to_act": match.to_act,
        "balances": list(match.balances),
        "banks_ns": [match.bank_ns(0, now_ns), match.bank_ns(1, now_ns)],
        "delay_ns": match.config.delay_ns,
        "delay_left_ns": match.delay_left_ns(now_ns),
        "clock_running": match.clock_running,
        "jockey": match.jockey,
        "auction": None if auction is None else {
            "jockey": auction.jockey, "bid": auction.bid, "bidder": auction.bidder, "min_bid": auction.min_bid},
        "layout": match.layout.to_list(),
        "open_ends": [[str(p.tile), p.slot.value, v] for p, v in match.layout.open_points()],
        "end_count": match.end_count,
        "hand_counts": list(match.hand_sizes()),
        "boneyard_count": match.boneyard_count,
        "last_move": None if last is None else {
            "player": last.player, "kind": last.kind.value,
            "tile": str(last.tile) if last.kind is TurnKind.PLAY and last.tile is not None else None,
            "at": None if last.at is None else [str(last.at.tile), last.at.slot.value],
            "amount": last.amount},
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason.value},
        "hands": [[str(t) for t in match.hand(p)] for p in (0, 1)] if revealed else None,
    }


def blocked_settlement(match: Match) -> bool:
    """Whether the round just ended blocked (both players passed in a row), so the hands were compared."""
    if match.phase not in (Phase.READY, Phase.MATCH_OVER) or match.round < 1 or match.boneyard_count:
        return False
    history = match.round_history(_NOBODY)
    return len(history) >= 2 and history[-1].kind is TurnKind.PASS and history[-2].kind is TurnKind.PASS
