"""The club sync's errors: one hierarchy, each with the message an owner or an operator reads."""

from __future__ import annotations

from typing import Any


class ClubSyncError(Exception):
    """Anything that stops a sync round; ``str()`` is one line for a person (never holding a token)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SyncSetupError(ClubSyncError):
    """A setting that cannot work: a hub URL that is not http(s), a token file that cannot be read."""


class HubUnreachable(ClubSyncError):
    """The hub did not answer, the connection was cut, or it answered 5xx: try again later (back-off)."""


class HubRefused(ClubSyncError):
    """The hub refused the request for good (401, 413, 422, another 4xx): retrying the same is useless."""

    def __init__(self, message: str, status: int, code: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class HubConflict(ClubSyncError):
    """A 409: keys the hub holds with other content (or from another kiosk); nothing of the upload stored."""

    def __init__(self, message: str, conflicts: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.conflicts = conflicts
