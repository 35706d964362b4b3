"""A round's deal: two hands of seven and a fourteen-tile boneyard drawn in order."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import Malformed
from .tiles import ALL_TILES, Tile

_ALL_TILES_SET = frozenset(ALL_TILES)
_PERMUTATIONS = math.factorial(len(ALL_TILES))
_PERMUTATION_BITS = _PERMUTATIONS.bit_length()
HAND_SIZE = 7
BONEYARD_SIZE = len(ALL_TILES) - 2 * HAND_SIZE


@dataclass(frozen=True, slots=True)
class Deal:
    """Both hands and the boneyard (first tile drawn first); together exactly the 28 tiles."""

    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]

    def __post_init__(self) -> None:
        sizes = (len(self.hands[0]), len(self.hands[1]), len(self.boneyard))
        if sizes != (HAND_SIZE, HAND_SIZE, BONEYARD_SIZE):
            raise Malformed(
                f"a deal needs hands of {HAND_SIZE} and {HAND_SIZE} tiles and a boneyard of "
                f"{BONEYARD_SIZE}, not {sizes[0]}, {sizes[1]} and {sizes[2]}"
            )
        every = {*self.hands[0], *self.hands[1], *self.boneyard}
        if every != _ALL_TILES_SET:
            missing = sorted(_ALL_TILES_SET - every)
            raise Malformed(
                "a deal must use each of the 28 tiles once; missing: " + ", ".join(map(str, missing))
            )

    @classmethod
    def from_names(
        cls, hands: Sequence[Sequence[str | Tile]], boneyard: Sequence[str | Tile]
    ) -> Deal:
        """A deal from tile names such as ``"1|4"``."""
        if len(hands) != 2:
            raise Malformed(f"a deal has two hands, not {len(hands)}")
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
            raise Malformed('a deal is {"hands": [[7 tiles], [7 tiles]], "boneyard": [14 tiles]}')
        return cls.from_names(data["hands"], data["boneyard"])

    def to_dict(self) -> dict[str, Any]:
        """The deal as plain data, in dealt order."""
        return {
            "hands": [[str(t) for t in self.hands[0]], [str(t) for t in self.hands[1]]],
            "boneyard": [str(t) for t in self.boneyard],
        }


def shuffle_deal(rng: random.Random) -> Deal:
    """A fresh deal of all 28 tiles in a uniformly random order drawn from ``rng``.

    One uniformly random number below 28! (by rejection sampling on ``getrandbits``) picks the
    permutation through its factorial-base digits: exact, and far cheaper than 27 separate draws.
    """
    while True:
        code = rng.getrandbits(_PERMUTATION_BITS)
        if code < _PERMUTATIONS:
            break
    pool = list(ALL_TILES)
    order = []
    for size in range(len(pool), 0, -1):
        code, digit = divmod(code, size)
        order.append(pool.pop(digit))
    return Deal((tuple(order[:HAND_SIZE]), tuple(order[HAND_SIZE : 2 * HAND_SIZE])), tuple(order[2 * HAND_SIZE :]))
