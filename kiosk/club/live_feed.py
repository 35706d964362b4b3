"""The running match's public projection, offered to the club hub after every accepted command.

The frame loop calls ``LiveFeed.observe`` once a frame (after inputs and the computer's moves are
taken). When the match at the table has taken a command since the last call (its engine events
or anything public changed) or a new match sat down, the feed builds ``kiosk.club.live.projection_body`` and hands it to
the sender, which posts it on its own thread (newest wins, stale ones dropped). When the players go
back to the home screen from a match that is not over (the ready screen of an event's pairing, say),
the feed says so (``closed_body``): the hub takes the table off its live list, and its event
scheduler no longer counts the table as playing. A clock that only
counts down sends nothing: the club page counts down itself between projections. The feed never
raises into the frame loop: a failure is said once and the table plays on (docs/club-page.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, Protocol

from kiosk.club.client import read_token
from kiosk.club.errors import SyncSetupError
from kiosk.club.live import LiveSender, projection_body
from kiosk.table.players import Seat
from kiosk.table.session import GameSession

COUNTING = frozenset({"banks_ns", "delay_left_ns"})
"""What changes as a clock counts down: no reason for a projection (the page counts down itself)."""


class Offers(Protocol):
    """Where projections go (``kiosk.club.live.LiveSender``)."""

    def offer(self, body: dict[str, Any]) -> None: ...


class Table(Protocol):
    """What the feed reads of the kiosk: the match at the table and who sits where."""

    @property
    def session(self) -> GameSession | None: ...

    def seat(self, number: int) -> Seat: ...


class LiveFeed:
    """Turns the table's accepted commands into projections for ``sender``."""

    def __init__(self, sender: Offers, say: Callable[[str], None] = lambda line: None,
                 new_key: Callable[[], str] = lambda: uuid.uuid4().hex) -> None:
        self._sender = sender
        self._say = say
        self._new_key = new_key
        self._session: GameSession | None = None
        self._key = ""
        self._seen: object = None
        self._seq = 0
        self._failed = False
        self.offered = 0
        """Projections handed to the sender so far."""

    def observe(self, table: Table, now_ns: int) -> bool:
        """Offer a projection when the match took a command since the last call; whether one was offered."""
        try:
            return self._observe(table, now_ns)
        except Exception as exc:  # the table plays on whatever the feed does
            if not self._failed:
                self._failed = True
                self._say(f"club live: the projection failed ({type(exc).__name__}: {exc}); the table plays on")
            return False

    def _observe(self, table: Table, now_ns: int) -> bool:
        session = table.session
        if session is None:
            left, self._session = self._session, None
            if left is None or self._seq == 0 or left.match.is_over:
                return False
            self._seq += 1  # the players went home from a match not over: the hub takes the table off its list
            self._sender.offer(closed_body(self._key, self._seq))
            self.offered += 1
            return True
        if session is not self._session:
            self._session, self._key, self._seen, self._seq = session, self._new_key(), None, 0
        seats = (table.seat(0), table.seat(1))
        names = tuple(None if s.player is None else s.player.name for s in seats)
        level = next((s.computer.level for s in seats if s.computer is not None), None)
        body = projection_body(session.match, now_ns, match_id=self._key, seq=self._seq + 1,
                               names=(names[0], names[1]), computer_level=level)
        seen = (session.match.last_command_ns, {k: v for k, v in body["state"].items() if k not in COUNTING},
                body["players"])
        if seen == self._seen:
            return False
        self._seen = seen
        self._seq += 1
        self._sender.offer(body)
        self.offered += 1
        return True


def closed_body(match_id: str, seq: int) -> dict[str, Any]:
    """The body of ``POST /api/v1/live`` saying the table left match ``match_id`` unfinished."""
    return {"match": match_id, "seq": seq, "closed": True}


def start_live(url: str, token_file: str, say: Callable[[str], None] = print) -> tuple[LiveSender, LiveFeed] | None:
    """The club page's sender (started) and the feed the frame loop tells; None, said in one line, when the
    token cannot be read (the table plays on without the live page; the sync says the same)."""
    try:
        token = read_token(token_file)
    except SyncSetupError as exc:
        say(f"club live: {exc.message}; the club page will not show this table live")
        return None
    sender = LiveSender(url, token)
    sender.start()
    return sender, LiveFeed(sender, say)
