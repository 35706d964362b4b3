"""What happened when a command was applied: transfers, round ends, the match's end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import N_

TIMING_FAILURE = N_("timing failure")
"""Why a match is aborted when the caller gives no reason."""
RESTARTED_WHILE_RUNNING = N_("the machine restarted while a clock was running")
"""Why a restore on another boot aborts a match whose clock was running."""
CLOCK_WENT_BACKWARDS = N_("the monotonic clock went backwards")
"""Why a restore whose monotonic clock is behind the match's last time aborts a running match."""
ABORT_REASONS = (TIMING_FAILURE, RESTARTED_WHILE_RUNNING, CLOCK_WENT_BACKWARDS)
"""The engine's own abort reasons (message ids a player can meet on the match-over screen)."""


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
    """For an abort, what failed, in words (English: ``detail_template`` filled with its params)."""
    detail_template: str = ""
    """For an abort, the message id of ``detail`` (a template with ``{placeholders}``)."""
    detail_params: tuple[tuple[str, str], ...] = ()
    """The template's parameters, as (name, value) pairs."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``points`` moved from one player to the other at ``at_ns``."""

    payer: int
    payee: int
    points: int
    reason: TransferReason
    at_ns: int

    def __init__(self, payer: int, payee: int, points: int, reason: TransferReason, at_ns: int) -> None:
        _TRANSFER_PAYER(self, payer)  # see slot_setters
        _TRANSFER_PAYEE(self, payee)
        _TRANSFER_POINTS(self, points)
        _TRANSFER_REASON(self, reason)
        _TRANSFER_AT(self, at_ns)


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended by a domino (``dominoer`` set) or blocked; ``pips`` are the hands' totals."""

    round: int
    blocked: bool
    dominoer: int | None
    pips: tuple[int, int]
    at_ns: int

    def __init__(self, round: int, blocked: bool, dominoer: int | None, pips: tuple[int, int], at_ns: int) -> None:
        _ROUND_ENDED_ROUND(self, round)  # see slot_setters
        _ROUND_ENDED_BLOCKED(self, blocked)
        _ROUND_ENDED_DOMINOER(self, dominoer)
        _ROUND_ENDED_PIPS(self, pips)
        _ROUND_ENDED_AT(self, at_ns)


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match ended with ``outcome`` at ``at_ns``."""

    outcome: Outcome
    at_ns: int


Event = Transfer | RoundEnded | MatchEnded
"""Any event."""


def slot_setters(cls: type, *names: str) -> list[Callable[[Any, Any], None]]:
    """The setters of frozen dataclass ``cls``'s slots ``names``.

    The engine creates some of its frozen dataclasses on its hot path (Transfer, RoundEnded, Start);
    the ``__init__`` a frozen dataclass is given stores each field through ``object.__setattr__``,
    several times slower than the slot's own setter, so these write their ``__init__`` with the
    setters instead: same signature, same checks, same objects.
    """
    return [cls.__dict__[name].__set__ for name in names]


_TRANSFER_PAYER, _TRANSFER_PAYEE, _TRANSFER_POINTS, _TRANSFER_REASON, _TRANSFER_AT = slot_setters(
    Transfer, "payer", "payee", "points", "reason", "at_ns"
)
_ROUND_ENDED_ROUND, _ROUND_ENDED_BLOCKED, _ROUND_ENDED_DOMINOER, _ROUND_ENDED_PIPS, _ROUND_ENDED_AT = slot_setters(
    RoundEnded, "round", "blocked", "dominoer", "pips", "at_ns"
)
