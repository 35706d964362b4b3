"""The score sheet of a match, without pygame: each round's result and the points it moved, from the
engine's events (``GameSession.events``: transfers, round ends), with the balances after each round.

Points move three ways (RULES.md): a play that makes the end count a multiple of 5 (``score``), the
accepted bid of an auction at the start of a round (``auction``) and the pips of a blocked round
(``blocked``, reported after the round's end). A round still being played is the last row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import Event, Match, MatchEnded, RoundEnded, Transfer, TransferReason


@dataclass
class SheetRound:
    """One round on the sheet."""

    number: int
    scores: list[tuple[int, int]] = field(default_factory=list)
    """(payee, points) of each scoring play, in order."""
    auction: tuple[int, int, int] | None = None
    """(payer, payee, points) of the accepted bid that opened the round (None: no auction, or a free opening)."""
    blocked: tuple[int, int] | None = None
    """(payee, points) a blocked round paid the lighter hand (None: nothing, or not blocked)."""
    ended: str = ""
    """"domino", "blocked", "over" (the match ended during it), "" (being played)."""
    dominoer: int | None = None
    balances: tuple[int, int] = (0, 0)
    """Both balances after the round (or now, for the round being played)."""

    def received(self, player: int) -> int:
        """What ``player`` gained in the round, less what they paid."""
        moved = [(payee, n) for payee, n in self.scores]
        if self.auction is not None:
            moved.append((self.auction[1], self.auction[2]))
        if self.blocked is not None:
            moved.append(self.blocked)
        return sum(n if payee == player else -n for payee, n in moved)


def score_sheet(match: Match, events: Sequence[Event]) -> list[SheetRound]:
    """Every round of ``match`` so far, from its ``events``, first round first. After a restart the
    session's events begin there: the rounds before it are not on the sheet, and the balances (counted
    back from the match's own) stay right."""
    balances = list(match.balances)  # counted back from now: right even when the events begin late
    for event in events:
        if isinstance(event, Transfer):
            balances[event.payer] += event.points
            balances[event.payee] -= event.points
    rows: list[SheetRound] = []
    current: SheetRound | None = None

    def pay(payer: int, payee: int, points: int) -> None:
        balances[payer] -= points
        balances[payee] += points

    for event in events:
        if isinstance(event, Transfer):
            if event.reason is TransferReason.BLOCKED and rows and current is None:
                rows[-1].blocked = (event.payee, event.points)
                pay(event.payer, event.payee, event.points)
                rows[-1].balances = (balances[0], balances[1])
                continue
            if current is None:
                current = SheetRound(rows[-1].number + 1 if rows else match.round)
            if event.reason is TransferReason.AUCTION:
                current.auction = (event.payer, event.payee, event.points)
            elif event.reason is TransferReason.BLOCKED:
                current.blocked = (event.payee, event.points)
            else:
                current.scores.append((event.payee, event.points))
            pay(event.payer, event.payee, event.points)
        elif isinstance(event, RoundEnded):
            row = current if current is not None else SheetRound(event.round)
            row.number = event.round
            row.ended, row.dominoer = ("blocked", None) if event.blocked else ("domino", event.dominoer)
            row.balances = (balances[0], balances[1])
            rows.append(row)
            current = None
        elif isinstance(event, MatchEnded) and current is not None:
            current.ended = "over"
    if current is None and match.round > (rows[-1].number if rows else 0) and not (rows and match.is_over):
        current = SheetRound(match.round)  # dealt, nothing moved yet
    if current is not None:
        current.number = max(current.number, match.round)
        current.balances = (balances[0], balances[1])
        if match.is_over and not current.ended:
            current.ended = "over"
        rows.append(current)
    return rows
