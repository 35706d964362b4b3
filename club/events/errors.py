"""The events' errors: one family under the hub's ``ClubError``, each with its status and short code."""

from __future__ import annotations

from club.errors import ClubError


class EventError(ClubError):
    """Anything an event refuses: bad settings, bad results, a round that cannot be paired."""

    status = 422
    code = "event_invalid"


class BadSettings(EventError):
    """Event settings that cannot work (unknown tiebreak, a repeated one, rounds out of range)."""

    code = "event_settings"


class TiebreaksLocked(EventError):
    """Tiebreaks changed after round 1 was paired: they are published before the first round."""

    status = 409
    code = "tiebreaks_locked"


class BadResult(EventError):
    """A game or bye that is not a result (same player twice, no winner, a player not entered, a duplicate)."""

    code = "bad_result"


class PairingFailed(EventError):
    """No legal pairing exists for the round (or the pairing engine returned an illegal one)."""

    status = 409
    code = "pairing_failed"
