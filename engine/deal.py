"""A round's deal: two hands of seven and a fourteen-tile boneyard drawn in order."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import Malformed
from .tiles import ALL_TILES, Tile

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
        every = (*self.hands[0], *self.hands[1], *self.boneyard)
        if set(every) != set(ALL_TILES):
            missing = sorted(set(ALL_TILES) - set(every))
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
    """A fresh deal of all 28 tiles shuffled with the given random source."""
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    return Deal((tuple(tiles[:HAND_SIZE]), tuple(tiles[HAND_SIZE : 2 * HAND_SIZE])), tuple(tiles[2 * HAND_SIZE :]))
