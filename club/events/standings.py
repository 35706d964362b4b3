"""Standings: scores and the published tiebreaks, computed from the list of results alone.

The standings are a pure function of the entrants, the verified games, the byes and the forfeits:
recomputing them from the same results gives the same table. A forfeit scores (a win's points for its
winner) but is not a game: it adds no opponent to Buchholz or Sonneborn–Berger, no win over the board,
no direct encounter, no points transferred and no performance, and is not counted in ``games``. Players are ordered by score, then each tiebreak
in the published order (higher first; an undefined one, a performance without a game, after every
value), then by name and uuid so the order is total; players level on score and every tiebreak share
a rank.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from club.events.model import Bye, Entrant, Forfeit, Game, check_results
from club.events.rules import EventRules, Tiebreak


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: uuid.UUID
    name: str
    score: float
    """Whole unless a half-point bye made it half."""
    tiebreaks: tuple[float | None, ...]
    """The values of the event's tiebreaks, in its published order (None: undefined, a performance without
    a game)."""
    games: int
    """Games played over the board (forfeits and byes are not games)."""
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    """Pairings the director settled by forfeit: won, and lost (a double forfeit is a loss for both)."""


def round_scores(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye], rules: EventRules,
    forfeits: Sequence[Forfeit] = (),
) -> dict[uuid.UUID, float]:
    """Each player's score in a Swiss or round-robin: the win's points per game or forfeit won, the bye's per
    bye, half a win's per bye they asked for."""
    check_results(entrants, games, byes, forfeits)
    scores: dict[uuid.UUID, float] = {e.player: 0 for e in entrants}
    for game in games:
        scores[game.seats[game.winner]] += rules.win_points
    for forfeit in forfeits:
        if forfeit.winner is not None:
            scores[forfeit.seats[forfeit.winner]] += rules.win_points
    for bye in byes:
        scores[bye.player] += rules.win_points / 2 if bye.half else rules.bye_points
    return scores


PERFORMANCE_SPREAD = 500
"""Lichess's arena performance: a win counts the opponent's rating plus this, a loss minus this."""


def _plain_tiebreak(tiebreak: Tiebreak, player: uuid.UUID, played: Sequence[Game], scores: Mapping[uuid.UUID, float],
                    ratings: Mapping[uuid.UUID, float]) -> float | None:
    if tiebreak is Tiebreak.BUCHHOLZ:
        return sum(scores[g.opponent(player)] for g in played)
    if tiebreak is Tiebreak.SONNEBORN_BERGER:
        return sum(scores[g.opponent(player)] for g in played if g.won(player))
    if tiebreak is Tiebreak.WINS:
        return sum(1 for g in played if g.won(player))
    if tiebreak is Tiebreak.POINTS_TRANSFERRED:
        return sum(g.transferred(player) for g in played)
    if tiebreak is Tiebreak.PERFORMANCE:
        if not played:
            return None  # a mean over no games: undefined, not 0
        total = sum(ratings[g.opponent(player)] + (PERFORMANCE_SPREAD if g.won(player) else -PERFORMANCE_SPREAD)
                    for g in played)
        return int(total // len(played))
    raise AssertionError(tiebreak)  # direct encounter depends on the group, computed by the caller


def rank(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    scores: Mapping[uuid.UUID, float],
    tiebreaks: Sequence[Tiebreak],
    forfeits: Sequence[Forfeit] = (),
) -> list[Standing]:
    """The standings for ``scores`` (from any format's scoring) with ``tiebreaks`` in order."""
    check_results(entrants, games, (), forfeits)
    played: dict[uuid.UUID, list[Game]] = defaultdict(list)
    for game in games:
        for player in game.seats:
            played[player].append(game)
    ratings = {e.player: e.rating for e in entrants}
    forfeited: dict[uuid.UUID, list[int]] = defaultdict(lambda: [0, 0])
    for forfeit in forfeits:
        for player in forfeit.seats:
            forfeited[player][0 if forfeit.won(player) else 1] += 1
    values: dict[uuid.UUID, list[float | None]] = {e.player: [] for e in entrants}
    for tiebreak in tiebreaks:
        if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
            groups: dict[tuple[float | None, ...], set[uuid.UUID]] = defaultdict(set)
            for e in entrants:
                groups[(scores[e.player], *values[e.player])].add(e.player)
            for e in entrants:
                level = groups[(scores[e.player], *values[e.player])]
                wins = sum(1 for g in played[e.player] if g.won(e.player) and g.opponent(e.player) in level)
                values[e.player].append(wins)
        else:
            for e in entrants:
                values[e.player].append(_plain_tiebreak(tiebreak, e.player, played[e.player], scores, ratings))
    order = sorted(
        entrants,
        key=lambda e: (-scores[e.player], [_higher_first(v) for v in values[e.player]], e.name, e.player.int),
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
                forfeit_wins=forfeited[e.player][0] if e.player in forfeited else 0,
                forfeit_losses=forfeited[e.player][1] if e.player in forfeited else 0,
            )
        )
    return table


def round_standings(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye], rules: EventRules,
    forfeits: Sequence[Forfeit] = (),
) -> list[Standing]:
    """The standings of a Swiss or round-robin from its results."""
    return rank(entrants, games, round_scores(entrants, games, byes, rules, forfeits), rules.tiebreaks, forfeits)


def _higher_first(value: float | None) -> tuple[bool, float]:
    """A tiebreak's sort key: higher values first, an undefined one (None) after every value."""
    return (value is None, -(value or 0))


def number(value: float | None) -> int | float | None:
    """A score or tiebreak as JSON shows it: whole numbers as integers, halves as they are, undefined as null."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


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
                "score": number(row.score),
                "tiebreaks": [number(v) for v in row.tiebreaks],
                "games": row.games,
                "forfeit_wins": row.forfeit_wins,
                "forfeit_losses": row.forfeit_losses,
            }
            for row in table
        ],
    }
