"""The hub's HTTP API as the kiosk calls it: ``urllib`` from the standard library, a token file, timeouts.

Every failure is a ``kiosk.club.errors`` error: no answer, a cut connection or a 5xx is
``HubUnreachable`` (try again later), a 409 is ``HubConflict`` with the conflicting keys, any other
4xx is ``HubRefused``. No message ever holds the token.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from kiosk.club.errors import HubConflict, HubRefused, HubUnreachable, SyncSetupError

TIMEOUT_S = 20.0
"""How long a request may wait for the hub (connecting, then each read)."""
MAX_ANSWER_BYTES = 16 * 1024 * 1024
"""The largest answer read (a roster of every club player is far smaller)."""


def hub_url(text: str) -> str:
    """``text`` as the hub's base URL (``http://host:port`` or ``https://…``, no query); SyncSetupError if not."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise SyncSetupError(f"the hub's address must be an http:// or https:// URL with a host, not {text!r}")
    try:
        parts.port  # noqa: B018 - raises on a port out of range
    except ValueError as exc:
        raise SyncSetupError(f"the hub's address has a bad port: {text!r}") from exc
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def read_token(path: str | Path) -> str:
    """The kiosk's token from its file (one line); SyncSetupError naming the file (never the token) if unusable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise SyncSetupError(f"the token file {path} does not exist") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise SyncSetupError(f"the token file {path} cannot be read ({getattr(exc, 'strerror', None) or exc})") from exc
    token = text.strip()
    if not token or any(c.isspace() or ord(c) < 33 or ord(c) > 126 for c in token):
        raise SyncSetupError(f"the token file {path} does not hold one token (one line of printable characters)")
    return token


class HubClient:
    """Requests to one hub with one kiosk token."""

    def __init__(self, url: str, token: str, *, timeout_s: float = TIMEOUT_S) -> None:
        self.url = hub_url(url)
        self._token = token
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"HubClient({self.url!r})"

    def upload(self, body: bytes) -> dict[str, Any]:
        """``POST /api/v1/uploads``: the hub's receipt."""
        return self._request("POST", "/api/v1/uploads", body)

    def roster(self, since: int) -> dict[str, Any]:
        """``GET /api/v1/roster?since=…``: the players changed after version ``since``."""
        return self._request("GET", f"/api/v1/roster?since={int(since)}", None)

    def assignment(self) -> dict[str, Any]:
        """``GET /api/v1/kiosk/assignment``: this table's club-event pairing (``{"pairing": null}``: none)."""
        return self._request("GET", "/api/v1/kiosk/assignment", None)

    def acknowledge(self, pairing_uuid: str) -> dict[str, Any]:
        """``POST /api/v1/kiosk/assignment/{uuid}/ack``: the table has stored the pairing (409: moved or
        cancelled; 404: not this table's)."""
        return self._request("POST", f"/api/v1/kiosk/assignment/{urllib.parse.quote(pairing_uuid, safe='')}/ack",
                             b"{}")

    def join(self, event_uuid: str, player_uuid: str, player_name: str, key: str) -> dict[str, Any]:
        """``POST /api/v1/kiosk/events/{uuid}/entrants``: a player's join at this table, with its idempotency
        key (answered joined, already-joined or refused with a reason)."""
        body = json.dumps({"player": {"uuid": player_uuid, "name": player_name}, "key": key}).encode()
        return self._request("POST", f"/api/v1/kiosk/events/{urllib.parse.quote(event_uuid, safe='')}/entrants", body)

    def _request(self, method: str, path: str, body: bytes | None) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, data=body, method=method, headers={
            "Authorization": f"Bearer {self._token}", "Accept": "application/json",
            **({"Content-Type": "application/json"} if body is not None else {})})
        where = f"{method} {self.url}{path.partition('?')[0]}"
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as answer:
                raw = answer.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as exc:
            raise _refusal(where, exc) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
            reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            raise HubUnreachable(f"{where}: the hub did not answer ({_why(reason)})") from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise HubUnreachable(f"{where}: the answer is larger than {MAX_ANSWER_BYTES} bytes")
        try:
            data = json.loads(raw)
        except ValueError:
            raise HubUnreachable(f"{where}: the answer is not JSON (cut short?)") from None
        if not isinstance(data, dict):
            raise HubUnreachable(f"{where}: the answer is not a JSON object")
        return data


def _why(reason: object) -> str:
    if isinstance(reason, socket.timeout | TimeoutError):
        return "timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__


def _refusal(where: str, exc: urllib.error.HTTPError) -> Exception:
    """The error for an HTTP error status, with the hub's own message when it sent one."""
    try:
        raw = exc.read(65536)
        error = json.loads(raw).get("error", {})
    except (OSError, ValueError, AttributeError, http.client.HTTPException):
        error = {}
    error = error if isinstance(error, dict) else {}
    message = str(error.get("message") or exc.reason)
    code = str(error.get("code") or "")
    status = int(exc.code)
    if status >= 500:
        return HubUnreachable(f"{where}: the hub answered {status} ({message})")
    if status == 409:
        conflicts = error.get("conflicts")
        return HubConflict(f"{where}: 409 {message}", conflicts if isinstance(conflicts, list) else [])
    return HubRefused(f"{where}: the hub refused it with {status} {code}: {message}".replace(" : ", ": "), status, code)
