"""What happened when a command was applied: transfers, round ends, the match's end."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TransferReason(StrEnum):
    """Why points moved."""

    SCORE = "score"
    BLOCKED = "blocked"
    AUCTION = "auction"


class EndReason(StrEnum):
    """Why a match ended."""

    BALANCE = "balance"
    TIME = "time"
    RESIGN = "resign"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished match: the winner (None after an abort), why, and whether it is rated."""

    winner: int | None
    reason: EndReason
    rated: bool
    detail: str = ""
    """For an abort, what failed, in words."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``points`` moved from one player to the other at ``at_ns``."""

    payer: int
    payee: int
    points: int
    reason: TransferReason
    at_ns: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended by a domino (``dominoer`` set) or blocked; ``pips`` are the hands' totals."""

    round: int
    blocked: bool
    dominoer: int | None
    pips: tuple[int, int]
    at_ns: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match ended with ``outcome`` at ``at_ns``."""

    outcome: Outcome
    at_ns: int


Event = Transfer | RoundEnded | MatchEnded
