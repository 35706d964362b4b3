"""What happened when a command was applied: transfers, round ends, the match's end."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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
