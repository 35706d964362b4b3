"""Round-robin pairings by the FIDE Berger tables (Handbook C.05, Annex 1).

Players are numbered 1..n by their order in the entry list (the draw). For an even n, round 1 is
``1-n, 2-(n-1), 3-(n-2), ...`` with the first-named player in seat 0; each next round renumbers
every player but n by ``i -> i + n/2`` (mod n-1, in 1..n-1), and player n alternates seats on
board 1 (seat 1 in odd rounds, seat 0 in even ones). An odd n adds a dummy n+1: whoever the
tables pair with it has the bye that round. Everyone meets everyone once in n-1 rounds (n even)
or n rounds (n odd).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from club.events.errors import BadSettings
from club.events.model import Pairing, RoundPairing

MAX_PLAYERS = 64
"""The largest round-robin the hub pairs (63 rounds is already more than any club night)."""


def berger_numbers(n: int, round_number: int) -> list[tuple[int, int]]:
    """The Berger table of round ``round_number`` for ``n`` numbers (n even): (seat 0, seat 1) by board."""
    if n < 2 or n % 2:
        raise BadSettings(f"Berger tables need an even count of numbers, not {n}")
    if not 1 <= round_number <= n - 1:
        raise BadSettings(f"a round-robin of {n} has rounds 1..{n - 1}, not {round_number}")
    shift = (round_number - 1) * (n // 2)

    def moved(i: int) -> int:
        return (i - 1 + shift) % (n - 1) + 1

    boards: list[tuple[int, int]] = []
    for board in range(1, n // 2 + 1):
        a, b = board, n + 1 - board
        if b == n:
            first = moved(a)
            boards.append((n, first) if round_number % 2 == 0 else (first, n))
        else:
            boards.append((moved(a), moved(b)))
    return boards


def rounds_for(count: int) -> int:
    """How many rounds a round-robin of ``count`` players takes."""
    return count - 1 if count % 2 == 0 else count


def round_robin_round(players: Sequence[uuid.UUID], round_number: int) -> RoundPairing:
    """Round ``round_number`` of a single round-robin among ``players`` (in drawn order, 1 first)."""
    count = len(players)
    if not 2 <= count <= MAX_PLAYERS:
        raise BadSettings(f"a round-robin takes 2..{MAX_PLAYERS} players, not {count}")
    if len(set(players)) != count:
        raise BadSettings("a player is entered twice in the round-robin")
    n = count + (count % 2)
    bye: uuid.UUID | None = None
    pairings: list[Pairing] = []
    for a, b in berger_numbers(n, round_number):
        if max(a, b) > count:
            bye = players[min(a, b) - 1]
            continue
        pairings.append(Pairing(table=len(pairings) + 1, seats=(players[a - 1], players[b - 1])))
    return RoundPairing(round=round_number, pairings=tuple(pairings), bye=bye)


def round_robin(players: Sequence[uuid.UUID]) -> list[RoundPairing]:
    """Every round of a single round-robin among ``players``."""
    return [round_robin_round(players, r) for r in range(1, rounds_for(len(players)) + 1)]
