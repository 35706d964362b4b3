"""The current round's history as a table sees it: who played what where, drew, passed, bid."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .tiles import Point, Tile


class TurnKind(StrEnum):
    """What one history entry records."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    DECLINE = "decline"
    BID = "bid"
    ACCEPT = "accept"


KIND_CODES: tuple[TurnKind, ...] = (
    TurnKind.PLAY, TurnKind.DRAW, TurnKind.PASS, TurnKind.DECLINE, TurnKind.BID, TurnKind.ACCEPT
)
"""The match records each entry's kind as its index in this tuple."""
K_PLAY, K_DRAW, K_PASS, K_DECLINE, K_BID, K_ACCEPT = range(len(KIND_CODES))


class Turn(NamedTuple):
    """One command of the current round, as far as the viewer may know it.

    ``tile``: the tile played, or the tile drawn when the viewer is the drawer (None for the other
    player's draws). ``at``: where a tile was played (None for the opening). ``amount``: a bid.
    """

    player: int
    kind: TurnKind
    tile: Tile | None = None
    at: Point | None = None
    amount: int | None = None
