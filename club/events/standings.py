"""Standings: scores and the published tiebreaks, computed from the list of results alone.

The standings are a pure function of the entrants, the verified games and the byes: recomputing
them from the same results gives the same table. Players are ordered by score, then each tiebreak
in the published order (higher first), then by name and uuid so the order is total; players level
on score and every tiebreak share a rank.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from club.events.model import Bye, Entrant, Game, check_results
from club.events.rules import EventRules, Tiebreak


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: uuid.UUID
    name: str
    score: int
    tiebreaks: tuple[int, ...]
    """The values of the event's tiebreaks, in its published order."""
    games: int


def round_scores(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye], rules: EventRules
) -> dict[uuid.UUID, int]:
    """Each player's score in a Swiss or round-robin: the win's points per game won, the bye's per bye."""
    check_results(entrants, games, byes)
    scores = {e.player: 0 for e in entrants}
    for game in games:
        scores[game.seats[game.winner]] += rules.win_points
    for bye in byes:
        scores[bye.player] += rules.bye_points
    return scores


def _plain_tiebreak(tiebreak: Tiebreak, player: uuid.UUID, played: Sequence[Game], scores: Mapping[uuid.UUID, int]) -> int:
    if tiebreak is Tiebreak.BUCHHOLZ:
        return sum(scores[g.opponent(player)] for g in played)
    if tiebreak is Tiebreak.SONNEBORN_BERGER:
        return sum(scores[g.opponent(player)] for g in played if g.won(player))
    if tiebreak is Tiebreak.WINS:
        return sum(1 for g in played if g.won(player))
    if tiebreak is Tiebreak.POINTS_TRANSFERRED:
        return sum(g.transferred(player) for g in played)
    raise AssertionError(tiebreak)  # direct encounter depends on the group, computed by the caller


def rank(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    scores: Mapping[uuid.UUID, int],
    tiebreaks: Sequence[Tiebreak],
) -> list[Standing]:
    """The standings for ``scores`` (from any format's scoring) with ``tiebreaks`` in order."""
    check_results(entrants, games)
    played: dict[uuid.UUID, list[Game]] = defaultdict(list)
    for game in games:
        for player in game.seats:
            played[player].append(game)
    values: dict[uuid.UUID, list[int]] = {e.player: [] for e in entrants}
    for tiebreak in tiebreaks:
        if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
            groups: dict[tuple[int, ...], set[uuid.UUID]] = defaultdict(set)
            for e in entrants:
                groups[(scores[e.player], *values[e.player])].add(e.player)
            for e in entrants:
                level = groups[(scores[e.player], *values[e.player])]
                wins = sum(1 for g in played[e.player] if g.won(e.player) and g.opponent(e.player) in level)
                values[e.player].append(wins)
        else:
            for e in entrants:
                values[e.player].append(_plain_tiebreak(tiebreak, e.player, played[e.player], scores))
    order = sorted(
        entrants,
        key=lambda e: ([-scores[e.player]] + [-v for v in values[e.player]], e.name, e.player.int),
    )
    table: list[Standing] = []
    for position, e in enumerate(order, start=1):
        key = (scores[e.player], tuple(values[e.player]))
        previous = table[-1] if table else None
        shared = previous is not None and (previous.score, previous.tiebreaks) == key
        table.append(
            Standing(
                rank=previous.rank if shared and previous is not None else position,
                player=e.player,
                name=e.name,
                score=scores[e.player],
                tiebreaks=tuple(values[e.player]),
                games=len(played[e.player]),
            )
        )
    return table


def round_standings(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye], rules: EventRules
) -> list[Standing]:
    """The standings of a Swiss or round-robin from its results."""
    return rank(entrants, games, round_scores(entrants, games, byes, rules), rules.tiebreaks)


def standings_json(event: uuid.UUID, rules: EventRules, table: Sequence[Standing]) -> dict[str, Any]:
    """The body of ``GET /api/v1/events/ID/standings``: the tiebreaks' names in order, then one row per player."""
    return {
        "event": str(event),
        "format": rules.format.value,
        "tiebreaks": [t.value for t in rules.tiebreaks],
        "standings": [
            {
                "rank": row.rank,
                "player": str(row.player),
                "name": row.name,
                "score": row.score,
                "tiebreaks": list(row.tiebreaks),
                "games": row.games,
            }
            for row in table
        ],
    }
