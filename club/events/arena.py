"""Arena: scoring with streaks and berserk, and pairing the waiting pool by a minimum-cost matching.

Scoring (as lichess arenas): a win scores 2, a loss 0. After two wins in a row a player is *on
fire*: each further win scores double (4) until a game that is not a win ends the streak. A win
by a player who went berserk (halved their own bank at the ready screen) scores one point more,
added after the doubling (2+1, or 4+1 on fire); a berserk loss scores 0. A forfeit the director
scored is not a game: its winner scores a plain win's 2, and it neither extends nor breaks a streak.

Pairing: the players waiting when the hub pairs are matched so the pool's total cost is least,
among the matchings that pair as many players as possible. The cost of a pair is its rank distance
(places apart in the current standings) times ``rank_weight``, plus its rating distance per 100
points times ``rating_weight``, plus ``rematch_penalty`` for every earlier game between the two
(and ``repeat_penalty`` more when they played each other in either's last game). With an odd pool
one player waits for the next pairing. Seat 0 goes to the player with fewer seat-0 games so far.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from club.events.errors import BadResult, BadSettings
from club.events.model import Entrant, Forfeit, Game, Pairing, check_results, unordered
from club.events.rules import EventRules, Format
from club.events.standings import Standing, rank

WIN = 2
LOSS = 0
STREAK = 2
"""Wins in a row after which each further win is doubled."""
BERSERK_BONUS = 1


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the waiting pool: their place in the standings and rating."""

    player: uuid.UUID
    rank: int
    rating: float


@dataclass(frozen=True, slots=True)
class Weights:
    """The costs the arena's matching minimises (integers, so the matching is exact)."""

    rank_weight: int = 10
    rating_weight: int = 5
    rematch_penalty: int = 200
    repeat_penalty: int = 1000

    def __post_init__(self) -> None:
        if min(self.rank_weight, self.rating_weight, self.rematch_penalty, self.repeat_penalty) < 0:
            raise BadSettings("arena pairing weights are not negative")


def game_points(won: bool, on_fire: bool, berserk: bool) -> int:
    """What one game scores for a player."""
    if not won:
        return LOSS
    return WIN * (2 if on_fire else 1) + (BERSERK_BONUS if berserk else 0)


def arena_scores(entrants: Sequence[Entrant], games: Sequence[Game],
                 forfeits: Sequence[Forfeit] = ()) -> dict[uuid.UUID, float]:
    """Every player's arena score from the games, taken in the order they ended, and the forfeits won."""
    check_results(entrants, games, (), forfeits)
    scores: dict[uuid.UUID, float] = {e.player: 0 for e in entrants}
    for forfeit in forfeits:
        if forfeit.winner is not None:
            scores[forfeit.seats[forfeit.winner]] += WIN
    streak: dict[uuid.UUID, int] = defaultdict(int)
    for game in sorted(games, key=lambda g: (g.ended, g.match.int)):
        for seat, player in enumerate(game.seats):
            won = game.winner == seat
            scores[player] += game_points(won, streak[player] >= STREAK, game.berserk[seat])
            streak[player] = streak[player] + 1 if won else 0
    return scores


def on_fire(player: uuid.UUID, games: Sequence[Game]) -> bool:
    """Whether ``player``'s next win is doubled (their last two games were wins)."""
    mine = sorted((g for g in games if player in g.seats), key=lambda g: (g.ended, g.match.int))
    return len(mine) >= STREAK and all(g.won(player) for g in mine[-STREAK:])


def arena_standings(entrants: Sequence[Entrant], games: Sequence[Game], rules: EventRules,
                    forfeits: Sequence[Forfeit] = ()) -> list[Standing]:
    """The arena's standings: arena score, then the published tiebreaks (performance, as lichess, by default)."""
    if rules.format is not Format.ARENA:
        raise BadSettings(f"arena standings for an event of format {rules.format}")
    return rank(entrants, games, arena_scores(entrants, games, forfeits), rules.tiebreaks, forfeits)


def pair_cost(a: Waiting, b: Waiting, met: int, just_met: bool, weights: Weights) -> int:
    """The cost of pairing ``a`` with ``b`` (lower is better)."""
    rating_gap = int(abs(a.rating - b.rating) * weights.rating_weight) // 100
    return (
        abs(a.rank - b.rank) * weights.rank_weight
        + rating_gap
        + met * weights.rematch_penalty
        + (weights.repeat_penalty if just_met else 0)
    )


def _history(
    games: Sequence[Game],
) -> tuple[dict[tuple[uuid.UUID, uuid.UUID], int], dict[uuid.UUID, uuid.UUID], dict[uuid.UUID, int]]:
    """From the games so far: how often each pair met, each player's last opponent, their seat-0 games."""
    met: dict[tuple[uuid.UUID, uuid.UUID], int] = defaultdict(int)
    last: dict[uuid.UUID, uuid.UUID] = {}
    seat0: dict[uuid.UUID, int] = defaultdict(int)
    for game in sorted(games, key=lambda g: (g.ended, g.match.int)):
        met[unordered(*game.seats)] += 1
        last[game.seats[0]], last[game.seats[1]] = game.seats[1], game.seats[0]
        seat0[game.seats[0]] += 1
    return met, last, seat0


def pair_waiting(
    waiting: Sequence[Waiting],
    games: Sequence[Game],
    weights: Weights = Weights(),
    first_table: int = 1,
) -> list[Pairing]:
    """Pairs for the waiting pool by a minimum-cost maximum matching (tables numbered from ``first_table``)."""
    import networkx as nx

    players = sorted(waiting, key=lambda w: (w.rank, w.player.int))
    if len({w.player for w in players}) != len(players):
        raise BadResult("a player waits twice in the pool")
    met, last, seat0 = _history(games)
    costs: dict[tuple[int, int], int] = {}
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            just = last.get(a.player) == b.player or last.get(b.player) == a.player
            costs[(i, j)] = pair_cost(a, b, met[unordered(a.player, b.player)], just, weights)
    ceiling = max(costs.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for (i, j), cost in costs.items():
        graph.add_edge(i, j, weight=ceiling - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    boards = sorted((min(i, j), max(i, j)) for i, j in matching)
    out: list[Pairing] = []
    for table, (i, j) in enumerate(boards, start=first_table):
        a, b = players[i].player, players[j].player
        if seat0[b] < seat0[a]:
            a, b = b, a
        out.append(Pairing(table=table, seats=(a, b)))
    return out


def total_cost(pairs: Sequence[Pairing], pool: Mapping[uuid.UUID, Waiting], games: Sequence[Game], weights: Weights) -> int:
    """The summed cost of ``pairs`` (for checks: a matching's cost as ``pair_waiting`` counts it)."""
    met, last, _ = _history(games)
    total = 0
    for p in pairs:
        a, b = p.seats
        just = last.get(a) == b or last.get(b) == a
        total += pair_cost(pool[a], pool[b], met[unordered(a, b)], just, weights)
    return total
