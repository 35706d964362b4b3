"""The hub's errors: one hierarchy, each with the HTTP status and the short code it answers with."""

from __future__ import annotations

from typing import Any, ClassVar


class ClubError(Exception):
    """Anything the hub refuses or cannot do; ``str()`` is the message a client or an operator reads."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "internal"

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail

    def body(self) -> dict[str, Any]:
        """The JSON error body: ``{"error": {"code", "message", ...detail}}``."""
        return {"error": {"code": self.code, "message": self.message, **self.detail}}


class BadRequest(ClubError):
    """A request that is not what the API takes (not JSON, wrong shape, unknown player)."""

    status = 422
    code = "malformed"


class TooLarge(ClubError):
    """A body over the size limit, or more rows, matches or players than one upload may carry."""

    status = 413
    code = "too_large"


class ClientGone(ClubError):
    """The client closed the connection before its whole body arrived (nothing was read or stored)."""

    status = 400
    code = "client_gone"


class NotAuthorized(ClubError):
    """No kiosk token, or one the hub does not know."""

    status = 401
    code = "not_authorized"


class NotFound(ClubError):
    """A player, kiosk or merge the hub does not hold."""

    status = 404
    code = "not_found"


class Conflict(ClubError):
    """A key already stored with other content (or by another kiosk): refused, recorded, never overwritten;
    or a director's operation the hub's state does not allow (a merge of two players who played each other)."""

    status = 409
    code = "conflict"


class HubUnavailable(ClubError):
    """The hub's database does not answer (down, restarting, out of connections)."""

    status = 503
    code = "unavailable"


class SetupError(ClubError):
    """A command's setting that cannot work (a DSN that does not connect, a bad --listen, a taken name)."""

    status = 500
    code = "setup"


class SchemaError(SetupError):
    """The database's schema is newer than this hub, or a migration failed (the database is left as it was)."""

    code = "schema"


class WrongCode(ClubError):
    """A join code that is not the event's (or joining by code is closed)."""

    status = 403
    code = "wrong_code"


class TooManyTries(ClubError):
    """Too many wrong codes for an event lately: wait."""

    status = 429
    code = "too_many_tries"
