"""Results by the director's hand, in the database: a pairing scored as a forfeit and the half-point byes
Swiss players ask for (docs/club.md, "Club nights"; docs/events.md for how they score).

Each runs in one transaction holding the events' advisory lock (as ``club.eventstore``'s writes do), is
logged in ``event_log`` with who and why, and is refused with the hub's reason, changing nothing, when it
does not fit: a pairing already played or settled, a player not in the pairing, a bye for a round
already paired or the last round, a second bye.
"""

from __future__ import annotations

import uuid
from dataclasses import replace

from club.errors import BadRequest, Conflict, NotFound
from club.eventdb import Conn, checked_reason, event_key, event_row, lock_events, log_action, save_pairings
from club.events.rules import Format
from club.events.scheduler import OPEN
from club.eventstore import find_player, load_view

MAX_REQUESTED_BYES = 1
"""Requested byes a player may have in one event (the table's key keeps it to one)."""


def forfeit(conn: Conn, event: uuid.UUID | str, pairing: uuid.UUID | str, winner: uuid.UUID | str | None,
            now: float, actor: str = "director", why: str | None = None) -> None:
    """Score an unplayed or aborted pairing by hand: a win by forfeit for ``winner`` (one of its two players),
    or with ``winner`` None a double forfeit (both lose, nobody scores). The reason is required and logged.
    A pairing already played, settled, moved on or cancelled is refused."""
    event = event_key(event, "event")
    key = event_key(pairing, "pairing")
    with conn.transaction():
        lock_events(conn)
        state, _, _, _ = event_row(conn, event)
        reason = checked_reason(why)
        if state == "open":
            raise Conflict("the event has not started")
        view = load_view(conn, event)
        row = next((r for r in view.rows if r.uuid == key), None)
        if row is None:
            raise NotFound(f"no pairing {key} in this event")
        if row.player1 is None:
            raise Conflict("a bye has no opponent to forfeit against")
        if row.state not in (*OPEN, "aborted"):
            raise Conflict(f"the pairing is {row.state}" + (f" ({row.note})" if row.note else "")
                           + "; only an unplayed or aborted pairing is scored by hand")
        seat: int | None = None
        if winner is not None and str(winner).strip():
            who = find_player(conn, str(winner))
            if who not in row.players:
                raise BadRequest("the winner by forfeit must be one of the pairing's two players")
            seat = row.players.index(who)
        note = (f"forfeit: {reason}" if seat is None else f"won by forfeit: {reason}")
        save_pairings(conn, event, [replace(row, state="forfeit", forfeit_winner=seat, finished_at=now, note=note)])
        log_action(conn, event, now, actor, "forfeit", row.uuid, why=reason,
             winner=None if seat is None else str(row.players[seat]), players=[str(p) for p in row.players])


def request_bye(conn: Conn, event: uuid.UUID | str, player: uuid.UUID | str, round_number: int, now: float,
                actor: str = "director", why: str | None = None) -> None:
    """Give ``player`` a half-point bye in a future round of a Swiss (as they asked): the pairing of that
    round leaves them out. Refused in a round-robin or arena, for a round already paired or the last
    round, for a player not entered, withdrawn or not yet playing then, and for a second bye."""
    event = event_key(event, "event")
    if round_number < 1:
        raise BadRequest("give the round of the bye: a number from 1")
    with conn.transaction():
        lock_events(conn)
        state, kind, current, _ = event_row(conn, event)
        if kind != Format.SWISS.value:
            raise Conflict("a requested bye is for a Swiss: a round-robin's byes follow from its tables, "
                           "and an arena has no rounds (a player just waits)")
        if state == "finished":
            raise Conflict("the event is over")
        reason = checked_reason(why, required=False)
        view = load_view(conn, event)
        total = view.total_rounds
        assert total is not None
        if not current < round_number < total:
            if round_number <= current:
                raise Conflict(f"round {round_number} is already paired")
            raise Conflict("not in the last round" if round_number == total else
                           f"the Swiss has {total} rounds: a bye is asked for one of rounds 1 to {total - 1}")
        who = find_player(conn, str(player))
        entrant = next((e for e in view.entrants if e.player == who), None)
        if entrant is None:
            raise Conflict("this player is not entered")
        if entrant.withdrawn_after is not None:
            raise Conflict("this player withdrew")
        if round_number < entrant.joined_round:
            raise Conflict(f"this player plays from round {entrant.joined_round}")
        held = conn.execute("SELECT round FROM event_bye_requests WHERE event = %s AND player = %s",
                            (event, who)).fetchone()
        if held is not None:
            raise Conflict(f"{entrant.name} already has a requested bye (round {held[0]}): "
                           f"at most {MAX_REQUESTED_BYES} an event")
        conn.execute("INSERT INTO event_bye_requests (event, player, round, requested_at, why)"
                     " VALUES (%s,%s,%s,%s,%s)", (event, who, round_number, now, reason))
        log_action(conn, event, now, actor, "bye-requested", why=reason, player=str(who), round=round_number)


def cancel_bye(conn: Conn, event: uuid.UUID | str, player: uuid.UUID | str, now: float, actor: str = "director",
               why: str | None = None) -> None:
    """Take back a requested bye whose round is not paired yet (logged)."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        _, _, current, _ = event_row(conn, event)
        reason = checked_reason(why, required=False)
        who = find_player(conn, str(player))
        held = conn.execute("SELECT round FROM event_bye_requests WHERE event = %s AND player = %s",
                            (event, who)).fetchone()
        if held is None:
            raise Conflict("this player has no requested bye")
        if held[0] <= current:
            raise Conflict(f"round {held[0]} is already paired: the bye stands")
        conn.execute("DELETE FROM event_bye_requests WHERE event = %s AND player = %s", (event, who))
        log_action(conn, event, now, actor, "bye-withdrawn", why=reason, player=str(who), round=int(held[0]))
