"""A verified match settles its event pairing, inside the upload's transaction (docs/club.md, "Club
nights"): once, or listed among the conflicts with the reason when it does not fit its pairing."""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace

from psycopg.types.json import Jsonb

from club.eventdb import NS, PAIRING_COLUMNS, Conn, lock_events, log_action, pairing_row, save_pairings
from club.events.rules import Format
from club.events.scheduler import OPEN
from club.verify import Verdict
from club.wire import MatchUpload

log = logging.getLogger("club.events")


def link_match(conn: Conn, kiosk: uuid.UUID, match: MatchUpload, verdict: Verdict, sha: str) -> None:
    """Inside the upload's transaction, after the match is stored: when its header names a pairing, the
    pairing is settled by it (played, or aborted when it ended unplayed) exactly once. A match that
    does not fit its pairing (other players, a pairing already settled or cancelled, unknown) stays an
    ordinary match and is listed among the conflicts with the reason."""
    header = match.header
    key = header.event_pairing
    if key is None:
        return
    berserk = sorted(set(header.berserk or ()))
    conn.execute("UPDATE matches SET event_pairing = %s, berserk = %s WHERE uuid = %s", (key, berserk, match.uuid))
    lock_events(conn)
    found = conn.execute(
        f"SELECT {PAIRING_COLUMNS}, event FROM event_pairings WHERE uuid = %s FOR UPDATE", (key,)).fetchone()

    def refuse(why: str, event: uuid.UUID | None = None) -> None:
        content = {"match": str(match.uuid), "event_pairing": str(key),
                   "players": [None if p is None else str(p) for p in header.players]}
        conn.execute(
            "INSERT INTO conflicts (kind, key, kiosk, content_sha256, why, content) VALUES ('event', %s, %s, %s, %s, %s)"
            " ON CONFLICT (kind, key, kiosk, content_sha256) DO UPDATE SET times = conflicts.times + 1,"
            " last_seen = now()", (match.uuid, kiosk, sha, why, Jsonb(content)))
        if event is not None:
            log_action(conn, event, header.ended_wall, "hub", "conflict", key, why=why, match=str(match.uuid))
        log.warning("match %s names event pairing %s: %s", match.uuid, key, why)

    if found is None:
        refuse("the match names an event pairing the hub does not know")
        return
    row, event = pairing_row(found[:-1]), found[-1]
    if not verdict.verified:
        log_action(conn, event, header.ended_wall, "hub", "rejected", key, why=verdict.rejection, match=str(match.uuid))
        return
    if set(header.players) != set(row.players):
        refuse("the match's players are not the pairing's", event)
        return
    target = row
    if row.state == "moved":  # played at the first table after all: the copy still open gives way
        follow = row
        while follow.state == "moved":
            nxt = conn.execute(f"SELECT {PAIRING_COLUMNS} FROM event_pairings WHERE moved_from = %s FOR UPDATE",
                               (follow.uuid,)).fetchone()
            if nxt is None:
                break
            follow = pairing_row(nxt)
        if follow.state not in OPEN:
            refuse(f"the pairing moved to another table and is {follow.state} there", event)
            return
        save_pairings(conn, event, [replace(follow, state="cancelled", finished_at=header.ended_wall,
                                    note="played at the table it was first given to")])
        log_action(conn, event, header.ended_wall, "hub", "cancelled", follow.uuid, why="played at the first table")
    elif row.state not in OPEN:
        refuse(f"the pairing is already {row.state}" + (f" ({row.note})" if row.note else ""), event)
        return
    settings = conn.execute("SELECT format, berserk, bank_seconds, delay_seconds, balances FROM events WHERE uuid = %s",
                            (event,)).fetchone()
    assert settings is not None
    kind, allowed, bank, delay, balances = settings
    config = header.config
    if config.delay_ns != delay * NS or list(config.balances) != [balances, balances] or any(
            b not in (bank * NS, bank * NS // 2) for b in config.bank_ns):
        # counted all the same (the replay verified the match as played); the director sees it
        log_action(conn, event, header.ended_wall, "hub", "settings-differ", key, match=str(match.uuid),
             why="the match was not played with the event's settings")
    flags = [False, False]
    for seat in berserk:
        halved = header.config.bank_ns[seat] * 2 == bank * NS
        if kind == Format.ARENA.value and allowed and halved:
            # the flags are kept in the pairing's seat order
            flags[row.players.index(header.players[seat])] = True
        else:
            log_action(conn, event, header.ended_wall, "hub", "berserk-refused", key, match=str(match.uuid), seat=seat,
                 why="berserk needs an arena that allows it and the seat's bank halved in the replayed match")
    aborted = verdict.winner is None or verdict.reason == "aborted"
    save_pairings(conn, event, [replace(target, state="aborted" if aborted else "played", match=match.uuid,
                                finished_at=header.ended_wall, berserk=(flags[0], flags[1]))])
    log_action(conn, event, header.ended_wall, "hub", "aborted" if aborted else "result", target.uuid,
         match=str(match.uuid), winner=verdict.winner)
