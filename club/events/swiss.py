"""Swiss pairings: FIDE Dutch System by the pinned ``caissify-pairings`` library, behind ``SwissPairer``.

The hub keeps the history (games and byes by round); each round is handed to the engine as the
snapshot FIDE engines read from a TRF file: starting numbers by rating, each player's score,
colour history (seat 0 is White), float history and bye count, derived as
``caissify_pairings.fpc`` derives them from a TRF (the same derivation bbpPairings and JaVaFo use).
Withdrawn players, players not yet entered and players who asked for a bye in the round are left out
of it. Forbidden pairings are handed to the engine as pairs that already met. Unplayed rounds are
given as bbpPairings reads them from a TRF: a forfeit adds no colour and no opponent (the two may be
paired again), a forfeit win scores 1 and is a downfloat and keeps its winner off the pairing's bye,
a requested bye (``H``) scores ½ and is a downfloat but does not keep its player off the pairing's bye. The engine's answer is checked before it is
returned: everyone active placed once, no repeat or forbidden pairing, at most one bye, and no
second bye for a player while someone without one could take it.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Any, Protocol

from club.events.errors import BadSettings, PairingFailed
from club.events.model import Bye, Entrant, Forfeit, Game, Pairing, RoundPairing, check_results, met_pairs, unordered

ENGINE = "caissify-pairings"
SYSTEM = "dutch"

Pair = tuple[uuid.UUID, uuid.UUID]


class SwissPairer(Protocol):
    """Pairs the next round of a Swiss from its entrants and history."""

    def pair(
        self,
        entrants: Sequence[Entrant],
        games: Sequence[Game],
        byes: Sequence[Bye],
        round_number: int,
        total_rounds: int,
        forbidden: Iterable[Pair] = (),
        forfeits: Sequence[Forfeit] = (),
        absent: Collection[uuid.UUID] = (),
    ) -> RoundPairing:
        """The pairings of ``round_number`` (``absent``: players who asked for a bye in it)."""
        ...


def starting_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Entrants by starting number: rating (highest first), then name, then uuid."""
    return sorted(entrants, key=lambda e: (-e.rating, e.name, e.player.int))


def _history(
    entrants: Sequence[Entrant], games: Sequence[Game], byes: Sequence[Bye], round_number: int,
    forfeits: Sequence[Forfeit] = (),
) -> dict[uuid.UUID, dict[str, Any]]:
    """Each player's score, colours, floats and byes before ``round_number``, as the engine takes them."""
    by_round: dict[int, dict[uuid.UUID, Game | Bye | Forfeit]] = defaultdict(dict)
    for game in games:
        for player in game.seats:
            by_round[game.round][player] = game
    for forfeit in forfeits:
        for player in forfeit.seats:
            by_round[forfeit.round][player] = forfeit
    for bye in byes:
        by_round[bye.round][bye.player] = bye
    score = {e.player: 0.0 for e in entrants}
    out: dict[uuid.UUID, dict[str, Any]] = {
        e.player: {"color_hist": [], "float_history": [], "bye_count": 0, "forfeit_win_count": 0} for e in entrants
    }
    for rnd in range(1, round_number):
        before = dict(score)
        for player, entry in by_round.get(rnd, {}).items():
            record = out[player]
            if isinstance(entry, Bye):
                record["float_history"].append("down")
                if entry.half:  # FIDE's half-point bye: not the pairing-allocated bye
                    score[player] += 0.5
                else:
                    record["bye_count"] += 1
                    score[player] += 1.0
                continue
            if isinstance(entry, Forfeit):
                won = entry.won(player)
                record["float_history"].append("down" if won else "none")
                if won:
                    record["forfeit_win_count"] += 1
                    score[player] += 1.0
                continue
            seat = entry.seat_of(player)
            record["color_hist"].append("white" if seat == 0 else "black")
            mine, theirs = before[player], before[entry.opponent(player)]
            record["float_history"].append("down" if mine > theirs else "up" if mine < theirs else "none")
            if entry.won(player):
                score[player] += 1.0
    for player, record in out.items():
        record["score"] = score[player]
    return out


class DutchPairer:
    """FIDE Dutch System pairings from ``caissify-pairings`` (cross-checked by its authors against bbpPairings)."""

    def pair(
        self,
        entrants: Sequence[Entrant],
        games: Sequence[Game],
        byes: Sequence[Bye],
        round_number: int,
        total_rounds: int,
        forbidden: Iterable[Pair] = (),
        forfeits: Sequence[Forfeit] = (),
        absent: Collection[uuid.UUID] = (),
    ) -> RoundPairing:
        """The pairings of ``round_number`` (``absent``: players who asked for a bye in it, left out);
        ``PairingFailed`` when no legal pairing exists."""
        if not 1 <= round_number <= total_rounds:
            raise BadSettings(f"round {round_number} is outside the Swiss's rounds 1..{total_rounds}")
        check_results(entrants, games, byes, forfeits)
        if any(r >= round_number for r in [*(g.round for g in games), *(b.round for b in byes),
                                           *(f.round for f in forfeits)]):
            raise BadSettings(f"results already given for round {round_number} or later")
        order = starting_order(entrants)
        active = [e for e in order if e.active_in(round_number) and e.player not in absent]
        if len(active) < 2:
            raise PairingFailed(f"round {round_number} has {len(active)} player(s) to pair")
        number = {e.player: i for i, e in enumerate(order, start=1)}
        by_number = {n: player for player, n in number.items()}
        history = _history(entrants, games, byes, round_number, forfeits)
        banned = met_pairs(games) | {unordered(a, b) for a, b in forbidden}
        players = [
            {
                "id": number[e.player],
                "name": e.name,
                "rating": e.rating,
                "starting_number": number[e.player],
                **history[e.player],
            }
            for e in active
        ]
        previous = {(number[a], number[b]) for a, b in banned if a in number and b in number}
        try:
            from caissify_pairings import generate_pairings

            answer = generate_pairings(
                system=SYSTEM,
                players=players,
                previous_pairings=previous,
                round_number=round_number,
                total_rounds=total_rounds,
            )
        except Exception as exc:  # the engine's own errors: no pairing for this round
            raise PairingFailed(f"round {round_number} cannot be paired: {exc}") from exc
        boards: list[Pair] = []
        bye: uuid.UUID | None = None
        for row in sorted(answer, key=lambda r: int(r["table"])):
            white = by_number[int(row["white_id"])]
            if row.get("black_id") is None:
                if bye is not None:
                    raise PairingFailed(f"round {round_number}: the engine gave two byes")
                bye = white
            else:
                boards.append((white, by_number[int(row["black_id"])]))
        result = RoundPairing(
            round=round_number,
            pairings=tuple(Pairing(table=i, seats=seats) for i, seats in enumerate(boards, start=1)),
            bye=bye,
        )
        check_round(result, [e.player for e in active], banned, byes, forfeits)
        return result


def check_round(
    pairing: RoundPairing, active: Sequence[uuid.UUID], banned: set[Pair], byes: Sequence[Bye],
    forfeits: Sequence[Forfeit] = (),
) -> None:
    """Refuse a round that misplaces a player, repeats or forbids a pairing, or gives the bye needlessly to a
    player who had it or won by forfeit (a requested half-point bye does not count)."""
    placed = pairing.players()
    if sorted(placed, key=lambda p: p.int) != sorted(active, key=lambda p: p.int):
        raise PairingFailed(f"round {pairing.round}: not every active player is placed exactly once")
    for board in pairing.pairings:
        if unordered(*board.seats) in banned:
            raise PairingFailed(f"round {pairing.round}: {board.seats[0]} and {board.seats[1]} already met or are forbidden")
    if (pairing.bye is None) != (len(active) % 2 == 0):
        raise PairingFailed(f"round {pairing.round}: a bye is needed exactly when the count is odd")
    had_bye = {b.player for b in byes if not b.half} | {f.seats[f.winner] for f in forfeits if f.winner is not None}
    if pairing.bye in had_bye and not set(active) <= had_bye:
        raise PairingFailed(f"round {pairing.round}: a second bye while others have had none")
