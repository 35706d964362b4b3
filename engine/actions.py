"""The commands a player (or either player) can give the engine.

Every command checks the kinds of its fields when it is built and raises ``Malformed`` (or
``UnknownTile`` for a ``Tile`` that is not one of the 28) otherwise, so that a command that exists
is well formed: the match only has to ask whether the rules allow it. Players are the ints 0 and 1
(not ``True`` / ``False``), amounts are ints, tiles are ``Tile`` and points ``Point`` values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .deal import Deal
from .errors import (
    NOT_A_DEAL,
    NOT_A_PLAYER,
    NOT_A_POINT,
    NOT_A_STARTER,
    NOT_A_TILE,
    NOT_AN_AMOUNT,
    UNKNOWN_TILE,
    Malformed,
    UnknownTile,
)
from .events import slot_setters
from .tiles import POINT_INDEX, TILE_INDEX, Point, Slot, Tile


def _check_player(player: object) -> None:
    """Raise Malformed unless ``player`` is 0 or 1 (an ``int``, not a ``bool``)."""
    if type(player) is not int or (player != 0 and player != 1):
        raise Malformed(NOT_A_PLAYER, player=player)


@dataclass(frozen=True, slots=True)
class Start:
    """Start (first round) or Continue (later rounds): deal ``deal`` and begin the round.

    Either player may press it; ``player`` records who did (None: not known). ``deal`` is None only
    in the listing of legal actions, which says that Start is possible.
    """

    player: int | None = None
    deal: Deal | None = None

    def __init__(self, player: int | None = None, deal: Deal | None = None) -> None:
        if player is not None and (type(player) is not int or (player != 0 and player != 1)):
            raise Malformed(NOT_A_STARTER, player=player)
        if deal is not None and not isinstance(deal, Deal):
            raise Malformed(NOT_A_DEAL, deal=deal)
        _START_PLAYER(self, player)  # see events.slot_setters: every round begins with one
        _START_DEAL(self, deal)


@dataclass(frozen=True, slots=True)
class Reveal:
    """The hand-over is over: ``player`` shows their hand and their clock starts."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile`` at connection point ``at`` (None for the opening tile)."""

    player: int
    tile: Tile
    at: Point | None = None
    tile_index: int = field(default=-1, init=False, compare=False, repr=False)
    """Index of ``tile`` in ALL_TILES."""
    point_index: int = field(default=-1, init=False, compare=False, repr=False)
    """Index of ``at`` in POINTS, -1 for no point (the opening)."""

    def __post_init__(self) -> None:
        _check_player(self.player)
        tile = self.tile
        if not isinstance(tile, Tile):
            raise Malformed(NOT_A_TILE, what="A play's tile", value=tile)
        tile_index = TILE_INDEX.get(tile)
        if tile_index is None:
            raise UnknownTile(UNKNOWN_TILE, tile=tile)
        at = self.at
        point_index = -1
        if at is not None:
            if not isinstance(at, Point) or not isinstance(at.tile, Tile) or not isinstance(at.slot, Slot):
                raise Malformed(NOT_A_POINT, at=at)
            point_index = POINT_INDEX.get(at, -1)
            if point_index < 0:
                raise UnknownTile(UNKNOWN_TILE, tile=at.tile)
        object.__setattr__(self, "tile_index", tile_index)
        object.__setattr__(self, "point_index", point_index)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one tile from the boneyard."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Pass:
    """The required pass: nothing can be placed and the boneyard is empty."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline to bid (first auction action only): the jockey opens free."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Bid:
    """The first bid, or a raise, to ``amount`` points (whether the rules allow it is the match's call)."""

    player: int
    amount: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        if type(self.amount) is not int:
            raise Malformed(NOT_AN_AMOUNT, amount=self.amount)


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the standing bid."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` resigns; allowed to either player at any time before the match is over."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


_START_PLAYER, _START_DEAL = slot_setters(Start, "player", "deal")

Action = Start | Reveal | Play | Draw | Pass | Decline | Bid | Accept | Resign
"""Any command."""
