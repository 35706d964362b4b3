"""The display model the kiosk hands to the hardware: plain data, no engine types.

The kiosk computes a :class:`PanelState` from the engine each frame; the LEDs
and the serial panel only ever read this model.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .errors import InvalidValue
from .events import GAME_BUTTONS, Button


class Phase(enum.Enum):
    """What the table is doing, as far as the panel needs to know."""

    IDLE = "IDLE"
    AUCTION = "AUCTION"
    PLAY = "PLAY"
    HAND_OVER = "HAND_OVER"
    MATCH_OVER = "MATCH_OVER"


@dataclass(frozen=True, slots=True)
class PlayerPanel:
    """One player's side of the panel.

    ``active`` holds the game buttons that mean something right now;
    ``low_bank`` makes that player's lit buttons blink; ``clock_ms`` is the
    player's remaining match clock and ``balance`` the player's bank.
    """

    active: frozenset[Button] = frozenset()
    low_bank: bool = False
    clock_ms: int = 0
    balance: int = 0

    def __post_init__(self) -> None:
        if not self.active <= frozenset(GAME_BUTTONS):
            raise InvalidValue("only ACCEPT, RAISE and DECLINE can be active on a player panel")


@dataclass(frozen=True, slots=True)
class PanelState:
    """Everything the LEDs and the serial panel show.

    ``turn`` is the seat to act (None when nobody is); ``standing_bid`` and
    ``bidder`` describe the auction's current bid (both None when there is none).
    """

    players: tuple[PlayerPanel, PlayerPanel] = field(
        default_factory=lambda: (PlayerPanel(), PlayerPanel())
    )
    turn: int | None = None
    standing_bid: int | None = None
    bidder: int | None = None
    phase: Phase = Phase.IDLE

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise InvalidValue("a panel state has exactly two players")
        for name in ("turn", "bidder"):
            value = getattr(self, name)
            if value not in (None, 0, 1):
                raise InvalidValue(f"{name} must be 0, 1 or None, not {value!r}")

    def player(self, seat: int) -> PlayerPanel:
        """The panel of seat 0 or 1."""
        return self.players[seat]
