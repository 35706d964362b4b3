"""The events' plain data: entrants, games, byes and pairings, validated where they are made."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from club.events.errors import BadResult

START_BALANCE = 150
"""Each player starts a match with 150 points; the two balances always add up to 300 (RULES.md §1)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player entered in an event: their uuid, name and rating when they joined."""

    player: uuid.UUID
    name: str
    rating: float
    joined_round: int = 1
    """The first round they can be paired in (late entry joins after round 1)."""
    withdrawn_after: int | None = None
    """The last round they played before withdrawing, or ``None`` while they play on."""

    def active_in(self, round_number: int) -> bool:
        """Whether they are paired in ``round_number`` (entered by then and not withdrawn before it)."""
        if round_number < self.joined_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


@dataclass(frozen=True, slots=True)
class Game:
    """A verified match of an event, as the standings and pairings see it."""

    match: uuid.UUID
    seats: tuple[uuid.UUID, uuid.UUID]
    winner: int
    """0 or 1: the seat that won."""
    balances: tuple[int, int] = (START_BALANCE, START_BALANCE)
    """The two final balances (they add up to 300)."""
    round: int = 0
    """The Swiss or round-robin round; 0 in an arena."""
    ended: float = 0.0
    """Wall time the match ended: orders an arena's games."""
    berserk: tuple[bool, bool] = (False, False)
    """Per seat: whether that player halved their bank for an extra point on a win (arena only)."""
    start: int = START_BALANCE
    """Each player's balance when the match began (the event's setting; the two always add up to twice it)."""

    def __post_init__(self) -> None:
        if self.seats[0] == self.seats[1]:
            raise BadResult(f"match {self.match}: one player on both seats", match=str(self.match))
        if self.winner not in (0, 1):
            raise BadResult(f"match {self.match}: the winner must be seat 0 or 1", match=str(self.match))
        if min(self.balances) < 0 or sum(self.balances) != 2 * self.start:
            raise BadResult(
                f"match {self.match}: final balances {self.balances} do not add up to {2 * self.start}",
                match=str(self.match),
            )
        if self.round < 0:
            raise BadResult(f"match {self.match}: negative round", match=str(self.match))

    def seat_of(self, player: uuid.UUID) -> int:
        """The seat ``player`` sat in (raises ``ValueError`` when they did not play it)."""
        return self.seats.index(player)

    def opponent(self, player: uuid.UUID) -> uuid.UUID:
        """The other player of the game."""
        return self.seats[1 - self.seat_of(player)]

    def won(self, player: uuid.UUID) -> bool:
        """Whether ``player`` won the game."""
        return self.seats[self.winner] == player

    def transferred(self, player: uuid.UUID) -> int:
        """Points ``player`` took from the opponent over the match (final balance minus the start; negative on a loss)."""
        return self.balances[self.seat_of(player)] - self.start


@dataclass(frozen=True, slots=True)
class Bye:
    """A round a player was not paired in and scored the bye's points for."""

    round: int
    player: uuid.UUID
    half: bool = False
    """A bye the player asked for (FIDE's half-point bye): half a win's points, and not the pairing's bye."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A pairing settled by the director without a game: a win for one seat, or nobody scores (``winner`` None)."""

    pairing: uuid.UUID
    seats: tuple[uuid.UUID, uuid.UUID]
    winner: int | None
    """0 or 1: the seat that wins by forfeit; ``None``: a double forfeit, both lose."""
    round: int = 0
    """The Swiss or round-robin round; 0 in an arena."""

    def __post_init__(self) -> None:
        if self.seats[0] == self.seats[1]:
            raise BadResult(f"forfeit {self.pairing}: one player on both seats")
        if self.winner not in (0, 1, None):
            raise BadResult(f"forfeit {self.pairing}: the winner must be seat 0, seat 1 or nobody")
        if self.round < 0:
            raise BadResult(f"forfeit {self.pairing}: negative round")

    def won(self, player: uuid.UUID) -> bool:
        """Whether ``player`` wins this forfeit."""
        return self.winner is not None and self.seats[self.winner] == player


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: the player in seat 0 and the one in seat 1."""

    table: int
    seats: tuple[uuid.UUID, uuid.UUID]


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """A round's pairings by board, and the player who has the bye (if any)."""

    round: int
    pairings: tuple[Pairing, ...]
    bye: uuid.UUID | None = None

    def players(self) -> list[uuid.UUID]:
        """Everyone the round places, on a board or on the bye."""
        placed = [p for pairing in self.pairings for p in pairing.seats]
        return placed + ([self.bye] if self.bye is not None else [])


def unordered(a: uuid.UUID, b: uuid.UUID) -> tuple[uuid.UUID, uuid.UUID]:
    """The pair ``{a, b}`` as a sorted tuple, for sets of who met whom."""
    return (a, b) if a.int <= b.int else (b, a)


def met_pairs(games: Iterable[Game]) -> set[tuple[uuid.UUID, uuid.UUID]]:
    """Every pair of players who met in ``games``."""
    return {unordered(*g.seats) for g in games}


def check_results(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye] = (), forfeits: Sequence[Forfeit] = ()
) -> None:
    """Refuse results naming a player not entered, a match or forfeit given twice, or a player placed twice in a
    round (two games, a game and a bye, a forfeit and anything else)."""
    known = {e.player for e in entrants}
    if len(known) != len(entrants):
        raise BadResult("a player is entered twice")
    seen: set[uuid.UUID] = set()
    for game in games:
        if game.match in seen:
            raise BadResult(f"match {game.match} is given twice", match=str(game.match))
        seen.add(game.match)
        for player in game.seats:
            if player not in known:
                raise BadResult(f"match {game.match}: player {player} is not entered", match=str(game.match))
    placed: set[tuple[int, uuid.UUID]] = set()
    for game in games:
        if game.round:
            for player in game.seats:
                if (game.round, player) in placed:
                    raise BadResult(f"player {player} plays twice in round {game.round}", player=str(player))
                placed.add((game.round, player))
    given: set[uuid.UUID] = set()
    for forfeit in forfeits:
        if forfeit.pairing in given:
            raise BadResult(f"forfeit {forfeit.pairing} is given twice")
        given.add(forfeit.pairing)
        for player in forfeit.seats:
            if player not in known:
                raise BadResult(f"forfeit {forfeit.pairing}: player {player} is not entered", player=str(player))
            if forfeit.round:
                if (forfeit.round, player) in placed:
                    raise BadResult(f"player {player} is placed twice in round {forfeit.round}", player=str(player))
                placed.add((forfeit.round, player))
    for bye in byes:
        if bye.player not in known:
            raise BadResult(f"bye for player {bye.player} who is not entered", player=str(bye.player))
        if (bye.round, bye.player) in placed:
            raise BadResult(f"player {bye.player} has a bye and a game in round {bye.round}", player=str(bye.player))
        placed.add((bye.round, bye.player))
