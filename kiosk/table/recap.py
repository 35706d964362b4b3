"""What the table needs to show after a move: the last tile placed, and what the opponent did while
a player was away from the board (no pygame here).

``LastPlacement`` is the newest tile placed this round (the board outlines it with its score until
the next placement). ``Recap`` keeps, for each player, the opponent's plays, draws and passes since
that player last acted or revealed their tiles; the hand-over card shows it to the returning player
in one line ("Player 2 since your last turn: drew 2, played [6|4] (+10)").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Action, Draw, Event, Pass, Play, Point, Tile, Transfer, TransferReason
from kiosk.i18n import Translator


@dataclass(frozen=True, slots=True)
class LastPlacement:
    """The newest tile placed in the round on the table (``GameSession.last_placement``)."""

    player: int
    """Who placed it (0 or 1)."""
    tile: Tile
    at: Point | None
    """The connection point it was placed at (None: the round's opening tile)."""
    index: int
    """Its position in ``match.layout.placements`` (the layout's newest entry when it was placed)."""
    score: int
    """The points it moved to its player (0: it scored nothing; capped at the payer's balance)."""
    round: int
    """The round it was placed in."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One thing the opponent did: ``kind`` "play" (``tile``, ``score``), "draw" (``count`` tiles) or "pass"."""

    kind: str
    tile: Tile | None = None
    score: int = 0
    count: int = 0


def scored(events: list[Event], player: int) -> int:
    """The points a placement by ``player`` moved to them (its SCORE transfer in ``events``, or 0)."""
    return sum(e.points for e in events if isinstance(e, Transfer) and e.reason is TransferReason.SCORE
               and e.payee == player)


@dataclass
class Recap:
    """For each player, the opponent's moves since that player last acted or revealed."""

    unseen: tuple[list[Seen], list[Seen]] = field(default_factory=lambda: ([], []))

    def clear(self) -> None:
        """A new round: nothing to tell."""
        for log in self.unseen:
            log.clear()

    def saw(self, player: int) -> None:
        """``player`` has the board in front of them (they acted or revealed): their recap is told."""
        self.unseen[player].clear()

    def acted(self, action: Action, events: list[Event], *, by_hand: bool = True) -> None:
        """``action`` was applied (``by_hand`` False: the kiosk made it, a forced pass): the actor saw
        the board, and the opponent's recap gets a play, a draw or a pass."""
        player = getattr(action, "player", None)
        if player is None:
            return
        if by_hand:
            self.saw(player)
        log = self.unseen[1 - player]
        if isinstance(action, Play):
            log.append(Seen("play", action.tile, scored(events, player)))
        elif isinstance(action, Draw):
            if log and log[-1].kind == "draw":
                log[-1] = Seen("draw", count=log[-1].count + 1)
            else:
                log.append(Seen("draw", count=1))
        elif isinstance(action, Pass):
            log.append(Seen("pass"))

    def for_player(self, player: int) -> tuple[Seen, ...]:
        """What ``player`` has not seen yet, in order."""
        return tuple(self.unseen[player])


def recap_text(t: Translator, opponent: str, seen: tuple[Seen, ...]) -> str:
    """One line in ``t``'s language: "{opponent} since your last turn: drew 2, played [6|4] (+10)"
    ("" when there is nothing to tell)."""
    parts: list[str] = []
    for item in seen:
        if item.kind == "play" and item.score > 0:
            parts.append(t._("played [{tile}] (+{points})", tile=item.tile, points=item.score))
        elif item.kind == "play":
            parts.append(t._("played [{tile}]", tile=item.tile))
        elif item.kind == "draw":
            parts.append(t.n_("drew {n} tile", "drew {n} tiles", item.count))
        else:
            parts.append(t._("passed"))
    if not parts:
        return ""
    return t._("{player} since your last turn: {actions}", player=opponent, actions=", ".join(parts))
