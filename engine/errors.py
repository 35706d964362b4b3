"""The engine's error hierarchy: every refusal carries a stable code and a message a person understands."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises."""

    code: str = "engine_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(EngineError, ValueError):
    """A request that the rules refuse; the match is left exactly as it was."""

    code = "illegal"


class WrongPhase(IllegalAction):
    """The request does not belong to the current phase of the match."""

    code = "wrong_phase"


class NotYourTurn(IllegalAction):
    """The request came from the player who is not to act."""

    code = "not_your_turn"


class IllegalPlay(IllegalAction):
    """The tile cannot be placed there (or is not in the player's hand)."""

    code = "illegal_play"


class MustPlayDrawn(IllegalAction):
    """A playable tile was drawn: that tile, and no other, must be placed now."""

    code = "must_play_drawn"


class CannotDraw(IllegalAction):
    """Drawing is allowed only when nothing in hand can be placed and the boneyard has tiles."""

    code = "cannot_draw"


class CannotPass(IllegalAction):
    """Passing is allowed only when nothing can be placed and the boneyard is empty."""

    code = "cannot_pass"


class BadAmount(IllegalAction):
    """A bid that is not a multiple of 5 or is below the minimum."""

    code = "bad_amount"


class Unaffordable(IllegalAction):
    """A bid whose net payment would exceed the bidder's balance."""

    code = "unaffordable"


class MatchIsOver(IllegalAction):
    """The match has ended; nothing more can be played."""

    code = "match_over"


class NoDeal(IllegalAction):
    """Start or Continue was requested without a deal to play."""

    code = "no_deal"


class UnknownTile(IllegalAction):
    """A tile name that is not one of the 28 double-six tiles."""

    code = "unknown_tile"


class Malformed(IllegalAction):
    """A request whose fields are missing or of the wrong kind."""

    code = "malformed"


class SnapshotError(EngineError, ValueError):
    """A saved match state that cannot be restored."""

    code = "bad_snapshot"


ERROR_CODES: tuple[str, ...] = (
    WrongPhase.code,
    NotYourTurn.code,
    IllegalPlay.code,
    MustPlayDrawn.code,
    CannotDraw.code,
    CannotPass.code,
    BadAmount.code,
    Unaffordable.code,
    MatchIsOver.code,
    NoDeal.code,
    UnknownTile.code,
    Malformed.code,
)
