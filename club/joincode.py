"""A player's self-join guarded by a short code (docs/club.md, "Joining from a phone"): the director
opens joining by code for an event, the director's screen and the TV show the six-digit code, and a
player at the club picks their name on ``/join`` and types it.

The code is never in the public pages or the API; a wrong code changes nothing. Guessing is slowed by
``Guard``: after ``MAX_WRONG`` wrong codes for an event within ``WINDOW_S`` seconds, every try for it
is refused until the window has passed. The director can give a new code (the old one stops working)
or close joining by code. Joining itself is ``eventstore.join``'s, with its refusals (entries closed,
already entered, withdrew) and its log line (actor ``player (join code)``).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import uuid
from collections import defaultdict, deque

from club.errors import BadRequest, Conflict, TooManyTries, WrongCode
from club.eventdb import Conn, event_key, event_row, lock_events, log_action
from club.events.rules import Format
from club.eventstore import join

DIGITS = 6
MAX_WRONG = 10
WINDOW_S = 60.0
SELF = "player (join code)"
"""The actor the log names for a self-join."""


class Guard:
    """Wrong codes per event in the last ``WINDOW_S`` seconds (in memory: a restart forgets them). Only
    events with a code to guess are counted, so what it holds is bounded by the club's events."""

    def __init__(self) -> None:
        self._wrong: dict[uuid.UUID, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def tracked(self) -> int:
        """How many events it holds wrong codes for now."""
        with self._lock:
            return len(self._wrong)

    def check(self, event: uuid.UUID, now: float) -> None:
        """Refuse (TooManyTries) while ``MAX_WRONG`` wrong codes for ``event`` lie within the window."""
        with self._lock:
            recent = self._wrong.get(event)
            if recent is None:
                return
            while recent and recent[0] <= now - WINDOW_S:
                recent.popleft()
            if not recent:
                del self._wrong[event]
            elif len(recent) >= MAX_WRONG:
                raise TooManyTries(f"too many wrong codes for this event: try again in a minute "
                                   f"(at most {MAX_WRONG} a minute)")

    def wrong(self, event: uuid.UUID, now: float) -> None:
        """Count a wrong code."""
        with self._lock:
            self._wrong[event].append(now)


def accepting(state: str, format: str, current_round: int, rounds: int | None) -> bool:
    """Whether an event takes new entries (as at a table, ``club.eventjoin``): open, a running arena, a
    running Swiss with a round left to pair; a round-robin's close at its start."""
    if state == "open":
        return True
    if state != "running":
        return False
    return format == Format.ARENA.value or (format == Format.SWISS.value and current_round < (rounds or 0))


_EVENT = "SELECT join_code, state, format, current_round, rounds FROM events"


def new_code(conn: Conn, event: uuid.UUID | str, now: float, actor: str = "director") -> str:
    """Open joining by code for ``event`` with a fresh code (any earlier one stops working); the code."""
    key = event_key(event, "event")
    code = f"{secrets.randbelow(10 ** DIGITS):0{DIGITS}d}"
    with conn.transaction():
        lock_events(conn)
        state, kind, current, _ = event_row(conn, key)
        rounds = conn.execute("SELECT rounds FROM events WHERE uuid = %s", (key,)).fetchone()
        if not accepting(state, kind, current, None if rounds is None else rounds[0]):
            raise Conflict("this event takes no more entries")
        conn.execute("UPDATE events SET join_code = %s WHERE uuid = %s", (code, key))
        log_action(conn, key, now, actor, "join-code", why="players may join with the code shown at the club")
    return code


def close(conn: Conn, event: uuid.UUID | str, now: float, actor: str = "director") -> None:
    """Close joining by code for ``event``."""
    key = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        event_row(conn, key)
        conn.execute("UPDATE events SET join_code = NULL WHERE uuid = %s", (key,))
        log_action(conn, key, now, actor, "join-code-closed")


def code_of(conn: Conn, event: uuid.UUID | str) -> str | None:
    """The event's join code while it takes entries (None: closed), for the director's screen and the TV."""
    row = conn.execute(_EVENT + " WHERE uuid = %s", (event_key(event, "event"),)).fetchone()
    if row is None or row[0] is None or not accepting(row[1], row[2], row[3], row[4]):
        return None
    return str(row[0])


def open_events(conn: Conn) -> list[tuple[uuid.UUID, str]]:
    """The events players can join by code now: (uuid, name), newest first."""
    rows = conn.execute("SELECT uuid, name, state, format, current_round, rounds FROM events"
                        " WHERE join_code IS NOT NULL ORDER BY created_at DESC, uuid").fetchall()
    return [(r[0], r[1]) for r in rows if accepting(r[2], r[3], r[4], r[5])]


def self_join(conn: Conn, guard: Guard, event: uuid.UUID | str, player: str, code: str, now: float) -> None:
    """Enter ``player`` in ``event`` when ``code`` is the event's join code; WrongCode (counted by
    ``guard``), TooManyTries, or ``eventstore.join``'s refusals otherwise, changing nothing."""
    key = event_key(event, "event")
    guard.check(key, now)
    typed = "".join(code.split())
    if not player.strip():
        raise BadRequest("pick your name")
    held = code_of(conn, key)
    if held is None or not typed.isdigit() or not hmac.compare_digest(typed.encode(), held.encode()):
        if held is not None:  # no code (an unknown event, joining closed): nothing to guess, nothing counted
            guard.wrong(key, now)
        raise WrongCode("that is not this event's code: it is shown on the club's screen")
    join(conn, key, player, now, actor=SELF)
