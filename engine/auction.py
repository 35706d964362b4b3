"""The opening auction after a domino (RULES.md §6): bids, raises, the jockey's credit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIN_BID = 15
"""The smallest first bid."""
RAISE_STEP = 5
"""Bids are multiples of this, and a raise adds at least this much."""
JOCKEY_CREDIT = 15
"""What the jockey's own accepted bid is reduced by (never below a payment of 0)."""


def net_payment(amount: int, bidder: int, jockey: int) -> int:
    """What ``bidder`` pays if a bid of ``amount`` is accepted."""
    if bidder == jockey:
        return max(0, amount - JOCKEY_CREDIT)
    return amount


def max_affordable_bid(balance: int, bidder: int, jockey: int) -> int:
    """The largest bid (a multiple of 5) whose net payment ``bidder`` can cover with ``balance``."""
    top = balance + JOCKEY_CREDIT if bidder == jockey else balance
    return top - top % RAISE_STEP


@dataclass(slots=True)
class Auction:
    """The auction in progress: the jockey and the standing bid, if any."""

    jockey: int
    bid: int | None = None
    bidder: int | None = None

    @property
    def min_bid(self) -> int:
        """The smallest bid allowed now: 15 first, then the standing bid + 5."""
        return MIN_BID if self.bid is None else self.bid + RAISE_STEP

    def cost(self, bidder: int, amount: int) -> int:
        """What ``bidder`` would pay if their bid of ``amount`` were accepted."""
        return net_payment(amount, bidder, self.jockey)

    def copy(self) -> Auction:
        """An independent copy."""
        return Auction(self.jockey, self.bid, self.bidder)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saving."""
        return {"jockey": self.jockey, "bid": self.bid, "bidder": self.bidder}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Auction:
        """The auction saved by ``to_dict``."""
        return cls(int(data["jockey"]), data["bid"], data["bidder"])
