"""An event's published rules: its format, scoring and tiebreaks, fixed before round 1."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from club.events.errors import BadSettings, TiebreaksLocked


class Format(enum.StrEnum):
    """How an event pairs its players."""

    ARENA = "arena"
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


class Tiebreak(enum.StrEnum):
    """The tiebreaks an event can publish, in the order it lists them."""

    BUCHHOLZ = "buchholz"
    """Sum of the scores of every opponent met."""
    SONNEBORN_BERGER = "sonneborn-berger"
    """Sum of the scores of the opponents beaten."""
    DIRECT_ENCOUNTER = "direct-encounter"
    """Wins against the players still level on score and every earlier tiebreak."""
    WINS = "wins"
    """Games won over the board (byes do not count)."""
    POINTS_TRANSFERRED = "points-transferred"
    """Net points taken from opponents over all games (final balance minus 150, summed)."""
    PERFORMANCE = "performance"
    """Lichess's arena performance: the mean over games of the opponent's rating, +500 for a win, -500 for a loss."""


DEFAULT_TIEBREAKS = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.POINTS_TRANSFERRED,
)
"""Buchholz, Sonneborn–Berger, direct encounter, and points transferred as the last tiebreak (Swiss, round-robin)."""

ARENA_TIEBREAKS = (Tiebreak.PERFORMANCE, Tiebreak.POINTS_TRANSFERRED)
"""An arena's: performance (as lichess breaks its ties), then points transferred."""

ROUND_ONLY = frozenset({Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, Tiebreak.DIRECT_ENCOUNTER})
"""Tiebreaks that compare the opponents met in rounds: meaningless in an arena, where who meets whom is the
pool's chance and players play different numbers of games."""


def default_tiebreaks(format: Format) -> tuple[Tiebreak, ...]:
    """The tiebreaks an event of ``format`` publishes unless told otherwise."""
    return ARENA_TIEBREAKS if format is Format.ARENA else DEFAULT_TIEBREAKS

MAX_ROUNDS = 30
MAX_MINUTES = 24 * 60


@dataclass(frozen=True, slots=True)
class EventRules:
    """What a director publishes before round 1."""

    format: Format
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS
    """In order; an arena given the Swiss default gets ``ARENA_TIEBREAKS`` instead."""
    rounds: int | None = None
    """The Swiss's fixed number of rounds (a round-robin's follows from its players; none in an arena)."""
    minutes: int | None = None
    """The arena's length."""
    win_points: int = 1
    """Points for a win in a Swiss or round-robin (an arena scores 2, see ``arena``)."""
    bye_points: int = 1
    """Points for a bye in a Swiss or round-robin (a bye the player asked for scores half a win)."""

    def __post_init__(self) -> None:
        if self.format is Format.ARENA and self.tiebreaks == DEFAULT_TIEBREAKS:
            object.__setattr__(self, "tiebreaks", ARENA_TIEBREAKS)
        if self.format is Format.ARENA and ROUND_ONLY & set(self.tiebreaks):
            names = ", ".join(t.value for t in self.tiebreaks if t in ROUND_ONLY)
            raise BadSettings(f"an arena has no rounds to compare opponents by ({names}): use performance, wins "
                              "or points-transferred")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise BadSettings("a tiebreak is listed twice")
        if self.format is Format.SWISS and (self.rounds is None or not 1 <= self.rounds <= MAX_ROUNDS):
            raise BadSettings(f"a Swiss needs 1..{MAX_ROUNDS} rounds")
        if self.format is Format.ARENA and (self.minutes is None or not 1 <= self.minutes <= MAX_MINUTES):
            raise BadSettings(f"an arena needs 1..{MAX_MINUTES} minutes")
        if self.format is not Format.SWISS and self.rounds is not None:
            raise BadSettings(f"an event of format {self.format} does not take a number of rounds")
        if self.format is not Format.ARENA and self.minutes is not None:
            raise BadSettings(f"an event of format {self.format} does not take minutes")
        if not 0 <= self.bye_points <= self.win_points or self.win_points < 1:
            raise BadSettings("a win scores at least 1 and a bye between 0 and a win")

    def with_tiebreaks(self, tiebreaks: Sequence[str], rounds_paired: int) -> EventRules:
        """These rules with other tiebreaks: refused once round 1 is paired (they are published before it)."""
        if rounds_paired > 0:
            raise TiebreaksLocked("the tiebreaks were published before round 1 and cannot change now")
        return replace(self, tiebreaks=parse_tiebreaks(tiebreaks))


def parse_tiebreaks(names: Sequence[str]) -> tuple[Tiebreak, ...]:
    """Tiebreaks by name, in order; an unknown name is refused with the known ones listed."""
    out: list[Tiebreak] = []
    for name in names:
        try:
            out.append(Tiebreak(name))
        except ValueError:
            known = ", ".join(t.value for t in Tiebreak)
            raise BadSettings(f"unknown tiebreak {name!r} (known: {known})") from None
    return tuple(out)
