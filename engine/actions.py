"""The commands a player (or either player) can give the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .deal import Deal
from .tiles import POINT_INDEX, TILE_INDEX, Point, Tile


@dataclass(frozen=True, slots=True)
class Start:
    """Start (first round) or Continue (later rounds): deal ``deal`` and begin the round.

    Either player may press it; ``player`` records who did. ``deal`` is None only in the
    listing of legal actions, which says that Start is possible.
    """

    player: int | None = None
    deal: Deal | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """The hand-over is over: ``player`` shows their hand and their clock starts."""

    player: int


@dataclass(frozen=True, slots=True)
class Play:
    """Place ``tile`` at connection point ``at`` (None for the opening tile)."""

    player: int
    tile: Tile
    at: Point | None = None
    tile_index: int = field(default=-1, init=False, compare=False, repr=False)
    """Index of ``tile`` in ALL_TILES, or -1 when it is not a tile."""
    point_index: int = field(default=-1, init=False, compare=False, repr=False)
    """Index of ``at`` in POINTS, -1 for no point (the opening), -2 when it is not a point."""

    def __post_init__(self) -> None:
        try:
            tile_index = TILE_INDEX.get(self.tile, -1)
            point_index = -1 if self.at is None else POINT_INDEX.get(self.at, -2)
        except TypeError:  # unhashable values
            tile_index, point_index = -1, -2
        object.__setattr__(self, "tile_index", tile_index)
        object.__setattr__(self, "point_index", point_index)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one tile from the boneyard."""

    player: int


@dataclass(frozen=True, slots=True)
class Pass:
    """The required pass: nothing can be placed and the boneyard is empty."""

    player: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline to bid (first auction action only): the jockey opens free."""

    player: int


@dataclass(frozen=True, slots=True)
class Bid:
    """The first bid, or a raise, to ``amount`` points."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the standing bid."""

    player: int


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` resigns; allowed to either player at any time before the match is over."""

    player: int


Action = Union[Start, Reveal, Play, Draw, Pass, Decline, Bid, Accept, Resign]
