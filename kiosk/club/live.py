"""The kiosk's live sender: the public projection of the running match to the club hub, newest first.

``LiveSender.offer`` is called on the frame thread after every accepted command; it only replaces
the waiting projection and wakes the sender's own thread, so the table never waits for the hub.
The thread posts the newest projection (``POST /api/v1/live`` with the kiosk's token, as uploads do);
projections offered meanwhile replace one another, so a stale one is dropped, never queued. While
the hub does not answer, the thread backs off (doubling from ``backoff_s[0]`` up to ``backoff_s[1]``)
and then sends only the newest. What it sends is ``engine.public.project``: never a tile of a hand
or the boneyard while a round runs (docs/club-page.md). Self-contained: no pygame, stdlib HTTP.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Match
from engine.public import project

log = logging.getLogger("kiosk.club.live")
Post = Callable[[str, bytes, dict[str, str], float], int]
"""``post(url, body, headers, timeout_s)`` → the HTTP status; raises OSError when the hub is away."""


def projection_body(match: Match, now_ns: int, *, match_id: str, seq: int,
                    names: tuple[str | None, str | None], computer_level: int | None = None) -> dict[str, Any]:
    """The body of ``POST /api/v1/live`` for ``match`` at ``now_ns`` (``names``: None for a guest)."""
    return {"match": match_id, "seq": seq, "players": [{"name": names[0]}, {"name": names[1]}],
            "computer_level": computer_level, "state": project(match, now_ns)}


def urllib_post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
    """POST with the standard library; the status (an HTTP error's too), OSError when nothing answers."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@dataclass
class LiveStats:
    """What the sender did: projections sent, replaced before sending, refused by the hub; failed tries."""

    sent: int = 0
    dropped: int = 0
    refused: int = 0
    failures: int = 0


class LiveSender:
    """Sends the newest projection on its own thread; ``offer`` never blocks."""

    def __init__(self, hub_url: str, token: str, *, post: Post = urllib_post, timeout_s: float = 3.0,
                 backoff_s: tuple[float, float] = (1.0, 60.0)) -> None:
        self._url = hub_url.rstrip("/") + "/api/v1/live"
        self._headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self._post = post
        self._timeout_s = timeout_s
        self._backoff_s = backoff_s
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._pending: dict[str, Any] | None = None
        self._closing = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.stats = LiveStats()

    def start(self) -> None:
        """Start the sending thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="live-sender", daemon=True)
            self._thread.start()

    def offer(self, body: dict[str, Any]) -> None:
        """The newest projection: replaces one not yet sent (counted as dropped)."""
        with self._lock:
            if self._pending is not None:
                self.stats.dropped += 1
            self._pending = body
        self._wake.set()

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop the thread (a projection not yet sent is given up)."""
        self._closing = True
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def _take(self) -> dict[str, Any] | None:
        with self._lock:
            body, self._pending = self._pending, None
            self._wake.clear()
            return body

    def _run(self) -> None:
        delay = 0.0
        while not self._closing:
            if delay:
                self._sleep(delay)
            else:
                self._wake.wait()
            if self._closing:
                return
            body = self._take()
            if body is None:
                continue
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            try:
                status = self._post(self._url, data, self._headers, self._timeout_s)
            except OSError as exc:
                status = 0
                log.info("the club hub does not answer (%s); retrying in %.0f s", type(exc).__name__,
                         self._next(delay))
            if status == 200:
                self.stats.sent += 1
                delay = 0.0
            elif status in (0, 429, 502, 503, 504) or status >= 500:
                self.stats.failures += 1
                delay = self._next(delay)
                with self._lock:  # the projection waits for the next try unless a newer one came
                    if self._pending is None:
                        self._pending = body
            else:
                self.stats.refused += 1
                log.warning("the club hub refused a live projection: HTTP %d", status)
                delay = self._next(delay) if status == 401 else 0.0

    def _next(self, delay: float) -> float:
        low, high = self._backoff_s
        return min(high, max(low, delay * 2))

    def _sleep(self, seconds: float) -> None:
        """Back off; a close ends it at once (a new offer does not cut it short)."""
        self._stop.wait(seconds)
