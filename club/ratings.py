"""Club ratings: a pure function of the verified rated matches in the canonical order.

The canonical order is (end wall time, kiosk uuid, match uuid): the same set of matches gives the
same ratings to the last bit, whatever order they were uploaded in. Each match is one Glicko-2
rating period for its two players, both updated from their ratings before it, exactly as on the
table (``kiosk.store.ratings.rate_match``, pure arithmetic). A match that arrives late (it sorts
before the last one already counted) makes the hub recompute everything from the start
(``standings``); one that sorts last is folded onto the stored ratings, which gives the same numbers.
A director's merge counts an alias's matches for its canonical player (``mapped``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.store.ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, Rating, rate_match

PROVISIONAL_RD = 110.0
"""A rating whose deviation is above this is provisional (too few games to say much)."""

OrderKey = tuple[float, str, str]


@dataclass(frozen=True, slots=True)
class Result:
    """A verified rated match as the ratings see it."""

    ended_wall: float
    kiosk: uuid.UUID
    match: uuid.UUID
    players: tuple[uuid.UUID, uuid.UUID]
    winner: int
    """0 or 1: the seat that won."""

    @property
    def key(self) -> OrderKey:
        """Its place in the canonical order."""
        return order_key(self.ended_wall, self.kiosk, self.match)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's club rating and record."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    wins: int = 0
    losses: int = 0

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (RD above ``PROVISIONAL_RD``)."""
        return self.rd > PROVISIONAL_RD


def order_key(ended_wall: float, kiosk: uuid.UUID, match: uuid.UUID) -> OrderKey:
    """The canonical order's key (uuids compared as their lowercase text, as PostgreSQL compares uuid)."""
    return (float(ended_wall), str(kiosk), str(match))


def fold(results: Iterable[Result], start: Mapping[uuid.UUID, Standing] | None = None) -> dict[uuid.UUID, Standing]:
    """Everyone's standing after ``results`` (sorted into the canonical order here), from ``start``
    (everyone at the default when None). Pure: no input is changed."""
    table = dict(start or {})
    for r in sorted(results, key=lambda r: r.key):
        a, b = r.players
        sa, sb = table.get(a, Standing()), table.get(b, Standing())
        ra, rb = rate_match(Rating(sa.rating, sa.rd, sa.volatility), Rating(sb.rating, sb.rd, sb.volatility),
                            1.0 if r.winner == 0 else 0.0)
        table[a] = _after(sa, ra, r.winner == 0)
        table[b] = _after(sb, rb, r.winner == 1)
    return table


def mapped(results: Iterable[Result], aliases: Mapping[uuid.UUID, uuid.UUID]) -> list[Result]:
    """``results`` with each merged player's uuid replaced by its canonical one (``aliases``: alias ->
    canonical); a match whose two seats then name one player is left out (it counts for nothing
    while that merge holds). Pure."""
    out = []
    for r in results:
        a, b = (aliases.get(p, p) for p in r.players)
        if a != b:
            out.append(r if (a, b) == r.players else Result(r.ended_wall, r.kiosk, r.match, (a, b), r.winner))
    return out


def _after(before: Standing, rating: Rating, won: bool) -> Standing:
    return Standing(rating.rating, rating.rd, rating.volatility, before.games + 1,
                    before.wins + int(won), before.losses + int(not won))
