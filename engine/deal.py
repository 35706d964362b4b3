"""A round's deal: two hands of seven and a fourteen-tile boneyard drawn in order."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from .errors import (
    BAD_DEAL_DATA,
    BAD_DEAL_SIZES,
    BAD_DEAL_TILES,
    BAD_HAND_COUNT,
    BAD_PERMUTATION,
    NOT_A_TILE,
    Malformed,
)
from .events import slot_setters
from .tiles import ALL_TILES, TILE_INDEX, Tile

HAND_SIZE = 7
BONEYARD_SIZE = len(ALL_TILES) - 2 * HAND_SIZE
_ALL_TILES_SET = frozenset(ALL_TILES)

# A uniformly random deal is a uniformly random permutation of the 28 tiles. Its factorial-base
# digits are split in two numbers that each fit a machine word: one below 28 * 27 * ... * 15 for
# the first fourteen picks, one below 14! for the rest.
_FIRST_PICKS = range(len(ALL_TILES), len(ALL_TILES) - 14, -1)
_LAST_PICKS = range(14, 0, -1)
_FIRST_CODES = math.prod(_FIRST_PICKS)
_LAST_CODES = math.factorial(14)


@dataclass(frozen=True, slots=True)
class Deal:
    """Both hands and the boneyard (first tile drawn first); together exactly the 28 tiles."""

    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]
    tile_indices: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)
    """The tiles' indices in ALL_TILES: first hand, second hand, boneyard."""

    def __post_init__(self) -> None:
        hands, boneyard = self.hands, self.boneyard
        if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != 2:
            raise Malformed(BAD_HAND_COUNT, count=len(hands) if isinstance(hands, Sequence) else hands)
        parts = (hands[0], hands[1], boneyard)
        if not all(isinstance(part, Sequence) and not isinstance(part, str) for part in parts):
            raise Malformed(BAD_DEAL_DATA)
        sizes = tuple(map(len, parts))
        if sizes != (HAND_SIZE, HAND_SIZE, BONEYARD_SIZE):
            raise Malformed(BAD_DEAL_SIZES, first=sizes[0], second=sizes[1], boneyard=sizes[2])
        every = [*parts[0], *parts[1], *parts[2]]
        for t in every:
            if not isinstance(t, Tile):
                raise Malformed(NOT_A_TILE, what="A deal's tile", value=t)
        if set(every) != _ALL_TILES_SET:
            missing = sorted(_ALL_TILES_SET - set(every))
            raise Malformed(BAD_DEAL_TILES, missing=", ".join(map(str, missing)))
        object.__setattr__(self, "hands", (tuple(parts[0]), tuple(parts[1])))
        object.__setattr__(self, "boneyard", tuple(parts[2]))
        object.__setattr__(self, "tile_indices", tuple(TILE_INDEX[t] for t in every))

    @classmethod
    def from_indices(cls, order: list[int]) -> Deal:
        """The deal of a permutation of the 28 tile indices (hands first, then the boneyard)."""
        if sorted(order) != list(range(len(ALL_TILES))):
            raise Malformed(BAD_PERMUTATION)
        return cls._of_permutation(order)

    @classmethod
    def _of_permutation(cls, order: list[int]) -> Deal:
        tiles: tuple[Tile, ...] = itemgetter(*order)(ALL_TILES)  # 28 indices: a tuple
        deal = object.__new__(cls)
        _DEAL_HANDS(deal, (tiles[:HAND_SIZE], tiles[HAND_SIZE : 2 * HAND_SIZE]))  # see events.slot_setters
        _DEAL_BONEYARD(deal, tiles[2 * HAND_SIZE :])
        _DEAL_TILE_INDICES(deal, tuple(order))
        return deal

    @classmethod
    def from_names(
        cls, hands: Sequence[Sequence[str | Tile]], boneyard: Sequence[str | Tile]
    ) -> Deal:
        """A deal from tile names such as ``"1|4"``."""
        if len(hands) != 2:
            raise Malformed(BAD_HAND_COUNT, count=len(hands))
        return cls(
            (tuple(map(Tile.parse, hands[0])), tuple(map(Tile.parse, hands[1]))),
            tuple(map(Tile.parse, boneyard)),
        )

    @classmethod
    def from_dict(cls, data: Any) -> Deal:
        """A deal from ``{"hands": [[...], [...]], "boneyard": [...]}``."""
        if not isinstance(data, dict) or not isinstance(data.get("hands"), list) or not isinstance(
            data.get("boneyard"), list
        ):
            raise Malformed(BAD_DEAL_DATA)
        return cls.from_names(data["hands"], data["boneyard"])

    def to_dict(self) -> dict[str, Any]:
        """The deal as plain data, in dealt order."""
        return {
            "hands": [[str(t) for t in self.hands[0]], [str(t) for t in self.hands[1]]],
            "boneyard": [str(t) for t in self.boneyard],
        }


_DEAL_HANDS, _DEAL_BONEYARD, _DEAL_TILE_INDICES = slot_setters(Deal, "hands", "boneyard", "tile_indices")


def _uniform_below(rng: random.Random, bound: int) -> int:
    """A uniformly random whole number in [0, bound), by rejection on ``getrandbits``."""
    bits = bound.bit_length()
    while True:
        value = rng.getrandbits(bits)
        if value < bound:
            return value


def shuffle_deal(rng: random.Random) -> Deal:
    """A fresh deal of all 28 tiles in a uniformly random order drawn from ``rng``.

    Exactly uniform: two uniform numbers give the permutation's factorial-base digits (far cheaper
    than 27 separate draws).
    """
    first = _uniform_below(rng, _FIRST_CODES)
    last = _uniform_below(rng, _LAST_CODES)
    pool = list(range(len(ALL_TILES)))
    order = []
    for size in _FIRST_PICKS:
        first, digit = divmod(first, size)
        order.append(pool.pop(digit))
    for size in _LAST_PICKS:
        last, digit = divmod(last, size)
        order.append(pool.pop(digit))
    return Deal._of_permutation(order)
