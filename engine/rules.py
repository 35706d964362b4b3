"""The rules' shared tables: the legal actions as shared immutable objects, looked up by index, the
ranked-opening order and the scoring counts. ``Match`` and the rollout (``rollout.py``) both use them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Accept, Bid, Decline, Draw, Pass, Play, Reveal, Start
from .errors import NO_TILES, Malformed
from .tiles import ALL_TILES, POINT_VALUE, POINTS, TILE_HALVES, TILE_MASK, TILE_PIPS, Tile

PLAYERS = (0, 1)


def opening_rank(t: Tile) -> tuple[int, int, int]:
    """A sort key of the ranked-opening order: doubles first (the higher double higher), then the pip total, then the greater half."""
    return (1, t.low, 0) if t.low == t.high else (0, t.low + t.high, t.high)


_RANK: tuple[int, ...] = tuple(
    sorted(range(len(ALL_TILES)), key=lambda i: opening_rank(ALL_TILES[i])).index(i) for i in range(len(ALL_TILES))
)
"""Each tile index's place in the ranked-opening order (higher opens first)."""
_BY_RANK: tuple[int, ...] = tuple(sorted(range(len(ALL_TILES)), key=_RANK.__getitem__, reverse=True))
"""The tile indices in ranked-opening order, the [6|6] that opens first first."""


def opening_rank_index(t: int) -> int:
    """Tile index ``t``'s place in the ranked-opening order (0 lowest, 27 the [6|6] that opens first)."""
    return _RANK[t]


def ranked_opener(hands: Sequence[Sequence[Tile]]) -> tuple[int, Tile]:
    """Who must open a ranked round, and with which tile (RULES.md §3).

    The highest double; if neither hand holds one, the greatest pip total, ties broken by the
    greater half.
    """
    candidates = [(opening_rank(t), player, t) for player in PLAYERS for t in hands[player]]
    if not candidates:
        raise Malformed(NO_TILES)
    _, player, tile_ = max(candidates)
    return player, tile_


def ranked_opener_index(hands: list[list[int]]) -> tuple[int, int]:
    """``ranked_opener`` for hands of tile indices: (player, tile index)."""
    first, second = hands
    for t in _BY_RANK:
        if t in first:
            return 0, t
        if t in second:
            return 1, t
    raise Malformed(NO_TILES)


def _play_table(player: int) -> list[list[Play | None]]:
    """For each tile index, the Play of that tile at each point index where it would match."""
    table: list[list[Play | None]] = []
    for t, tile_ in enumerate(ALL_TILES):
        low, high = TILE_HALVES[t]
        table.append(
            [Play(player, tile_, POINTS[p]) if POINT_VALUE[p] in (low, high) else None for p in range(len(POINTS))]
        )
    return table


PLAY_AT = (_play_table(0), _play_table(1))
"""Shared, immutable Play actions, so that listing legal actions creates none."""
FITS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(bool(TILE_MASK[t] & mask) for t in range(len(ALL_TILES))) for mask in range(1 << 7)
)
"""By open-values mask, then tile index: whether the tile matches some open point (a lookup is cheaper than ``&``)."""
OPENING_PLAY = tuple(tuple(Play(player, t, None) for t in ALL_TILES) for player in PLAYERS)
DRAW = (Draw(0), Draw(1))
PASS = (Pass(0), Pass(1))
ONLY_DRAW = ((DRAW[0],), (DRAW[1],))
ONLY_PASS = ((PASS[0],), (PASS[1],))
"""The legal actions when nothing fits: shared, so that a draw or pass can tell it was listed as legal."""
DECLINE = (Decline(0), Decline(1))
ACCEPT = (Accept(0), Accept(1))
REVEAL = (Reveal(0), Reveal(1))
START = Start()
_SHARED_BIDS_UP_TO = 1000
_BIDS = tuple(tuple(Bid(player, amount) for amount in range(0, _SHARED_BIDS_UP_TO + 1, 5)) for player in PLAYERS)
"""Shared Bid actions by amount // 5, so that listing the usual bids creates none."""


def bids(player: int, least: int, top: int) -> Sequence[Bid]:
    """``player``'s bids from ``least`` up to ``top`` in steps of 5."""
    if least % 5 == 0 and top <= _SHARED_BIDS_UP_TO:
        return _BIDS[player][least // 5 : top // 5 + 1]
    return [Bid(player, amount) for amount in range(least, top + 1, 5)]


def pips(hand: list[int]) -> int:
    """The pip total of a hand of tile indices."""
    total = 0
    for t in hand:
        total += TILE_PIPS[t]
    return total


SCORES: tuple[bool, ...] = tuple(count > 0 and count % 5 == 0 for count in range(4 * 12 + 1))
"""By end count: whether it scores (a multiple of 5, not 0). At most four ends count, 12 each at most."""


def round_to_five(points: int) -> int:
    """``points`` rounded to the nearest multiple of 5 (17 -> 15, 18 -> 20)."""
    return 5 * ((points + 2) // 5)

