"""Club events in the database: the thin I/O around ``club.events`` (docs/club.md, "Club nights").

Every write runs in one transaction holding the events' advisory lock, so the scheduler (``tick``,
run on each table's assignment poll and after each upload), a table's acknowledgement, an upload's
link to its pairing and the director's actions take turns and never overwrite each other. The
decisions are ``club.events.scheduler.decide``'s; this module loads what it needs, writes its plan
and logs every director's action with its reason (``event_log``). Refusals are the hub's errors
(``NotFound`` 404, ``BadRequest`` 422, ``Conflict`` 409, the events' own ``EventError``s) and
change nothing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

from club.errors import BadRequest, Conflict, NotFound
from club.eventdb import (
    PAIRING_COLUMNS,
    Conn,
    checked_reason,
    event_key,
    event_row,
    lock_events,
    log_action,
    pairing_row,
    save_pairings,
)
from club.events.arena import arena_standings
from club.events.errors import EventError
from club.events.model import Bye, Entrant, Forfeit, Game, unordered
from club.events.rules import EventRules, Format, default_tiebreaks, parse_tiebreaks
from club.events.scheduler import OPEN, PRESENCE_S, EventView, Plan, Row, decide, legal_repair
from club.events.standings import Standing, round_standings, standings_json

log = logging.getLogger("club.events")



# -- creating and entering -----------------------------------------------------------------------


def create_event(conn: Conn, *, name: str, format: str, now: float, rounds: int | None = None,
                 minutes: int | None = None, bank_seconds: int = 120, delay_seconds: int = 10, balances: int = 150,
                 berserk: bool = False, tiebreaks: Sequence[str] | None = None, ack_timeout_s: int = 120,
                 auto_advance: bool = True, actor: str = "director") -> uuid.UUID:
    """A new event (open for entries); its uuid. The tiebreaks are published with it and never change."""
    name = name.strip()
    if not 1 <= len(name) <= 80 or any(ord(c) < 32 for c in name):
        raise BadRequest("an event's name has 1 to 80 characters and no control characters")
    try:
        kind = Format(format)
    except ValueError:
        raise BadRequest(f"unknown format {format!r} (arena, swiss or round-robin)") from None
    rules = EventRules(kind, default_tiebreaks(kind) if tiebreaks is None else parse_tiebreaks(tiebreaks),
                       rounds=rounds, minutes=minutes)
    checks = ((10 <= bank_seconds <= 3600, "the bank is 10 to 3600 seconds"),
              (0 <= delay_seconds <= 60, "the delay is 0 to 60 seconds"),
              (10 <= balances <= 10_000, "the starting balance is 10 to 10000 points"),
              (10 <= ack_timeout_s <= 3600, "the acknowledgement timeout is 10 to 3600 seconds"),
              (not berserk or kind is Format.ARENA, "berserk is for arenas only"),
              (bank_seconds % 2 == 0 or not berserk, "a berserk arena needs an even bank (it is halved)"))
    for ok, why in checks:
        if not ok:
            raise BadRequest(why)
    key = uuid.uuid4()
    with conn.transaction():
        conn.execute(
            "INSERT INTO events (uuid, name, format, rounds, minutes, bank_seconds, delay_seconds, balances, berserk,"
            " tiebreaks, ack_timeout_s, auto_advance, created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (key, name, kind.value, rules.rounds, rules.minutes, bank_seconds, delay_seconds, balances, berserk,
             [t.value for t in rules.tiebreaks], ack_timeout_s, auto_advance, now))
        log_action(conn, key, now, actor, "created", tiebreaks=[t.value for t in rules.tiebreaks])
    return key


def find_player(conn: Conn, text: str) -> uuid.UUID:
    """A player by uuid or by exact name (case-insensitive, not merged into another); NotFound, or
    BadRequest when the name is two players'."""
    try:
        key = uuid.UUID(text)
    except ValueError:
        rows = conn.execute("SELECT uuid FROM players WHERE lower(name) = lower(%s) AND merged_into IS NULL",
                            (text.strip(),)).fetchall()
        if len(rows) > 1:
            raise BadRequest(f"{len(rows)} players are called {text!r}: give the uuid") from None
        if not rows:
            raise NotFound(f"no player called {text!r}") from None
        return uuid.UUID(str(rows[0][0]))
    row = conn.execute("SELECT coalesce(merged_into, uuid) FROM players WHERE uuid = %s", (key,)).fetchone()
    if row is None:
        raise NotFound(f"no player {key}")
    return uuid.UUID(str(row[0]))


def join(conn: Conn, event: uuid.UUID | str, player: uuid.UUID | str, now: float, actor: str = "director",
         **detail: object) -> None:
    """Enter ``player``: before the start, or late in a running Swiss (from the next round) or arena
    (``detail``: more for the log's row, e.g. the table a player joined at and the join's key)."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        state, kind, current, _ = event_row(conn, event)
        who = find_player(conn, str(player))
        if state == "finished":
            raise Conflict("the event is over")
        if state == "running" and kind == Format.ROUND_ROBIN.value:
            raise Conflict("a round-robin's entries close when it starts")
        held = conn.execute("SELECT withdrawn_after FROM event_entrants WHERE event = %s AND player = %s",
                            (event, who)).fetchone()
        if held is not None:
            raise Conflict("this player is already entered" if held[0] is None else "this player withdrew")
        rating = conn.execute("SELECT rating FROM players WHERE uuid = %s", (who,)).fetchone()
        draw = conn.execute("SELECT coalesce(max(draw), 0) + 1 FROM event_entrants WHERE event = %s",
                            (event,)).fetchone()
        assert rating is not None and draw is not None
        joined_round = current + 1 if state == "running" and kind == Format.SWISS.value else 1
        conn.execute("INSERT INTO event_entrants (event, player, draw, rating, joined_at, joined_round)"
                     " VALUES (%s,%s,%s,%s,%s,%s)", (event, who, draw[0], rating[0], now, joined_round))
        log_action(conn, event, now, actor, "joined", None, None, player=str(who), round=joined_round, **detail)


def withdraw(conn: Conn, event: uuid.UUID | str, player: uuid.UUID | str, now: float, actor: str = "director",
             why: str | None = None) -> None:
    """Withdraw ``player``: an unplayed pairing of theirs is cancelled (in a Swiss or round-robin the
    opponent scores a bye for it); they are paired no more. Before the start, the entry is removed."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        state, kind, current, _ = event_row(conn, event)
        who = find_player(conn, str(player))
        held = conn.execute("SELECT withdrawn_after FROM event_entrants WHERE event = %s AND player = %s",
                            (event, who)).fetchone()
        if held is None or held[0] is not None:
            raise Conflict("this player is not entered" if held is None else "this player already withdrew")
        if state == "open":
            conn.execute("DELETE FROM event_entrants WHERE event = %s AND player = %s", (event, who))
            log_action(conn, event, now, actor, "removed", why=checked_reason(why, False), player=str(who))
            return
        view = load_view(conn, event)
        last = current
        # an arena's game already at a table is played and counts; a Swiss or round-robin board is cancelled
        cancel = ("waiting", "offered") if kind == Format.ARENA.value else OPEN
        for row in view.rows:
            if who in row.players and row.state in cancel:
                save_pairings(conn, event, [replace(row, state="cancelled", finished_at=now, note="a player withdrew")])
                log_action(conn, event, now, actor, "cancelled", row.uuid, why="a player withdrew")
                if row.round is not None:
                    last = min(last, row.round - 1)
                    other = row.player1 if row.player0 == who else row.player0
                    if other is not None:
                        board = max(r.board for r in view.rows if r.round == row.round) + 1
                        save_pairings(conn, event, [Row(uuid.uuid4(), row.round, board, other, None, "bye", now,
                                                finished_at=now, note="the opponent withdrew")])
        conn.execute("UPDATE event_entrants SET withdrawn_at = %s, withdrawn_after = %s WHERE event = %s AND player = %s",
                     (now, max(0, last), event, who))
        log_action(conn, event, now, actor, "withdrew", why=checked_reason(why, False), player=str(who), after_round=max(0, last))


def start(conn: Conn, event: uuid.UUID | str, now: float, actor: str = "director") -> None:
    """Start the event: a Swiss or round-robin pairs round 1 now (refused whole when it cannot be
    paired); an arena's clock starts."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        state, kind, _, _ = event_row(conn, event)
        if state != "open":
            raise Conflict(f"the event is {state}, not open")
        count = conn.execute("SELECT count(*) FROM event_entrants WHERE event = %s", (event,)).fetchone()
        assert count is not None
        if count[0] < 2:
            raise Conflict("an event needs at least two players to start")
        if kind == Format.ROUND_ROBIN.value and count[0] > 64:
            raise Conflict("a round-robin takes at most 64 players")
        conn.execute("UPDATE events SET state = 'running', started_at = %s,"
                     " ends_at = CASE WHEN minutes IS NULL THEN NULL ELSE %s + minutes * 60 END WHERE uuid = %s",
                     (now, now, event))
        log_action(conn, event, now, actor, "started", players=int(count[0]))
        if kind != Format.ARENA.value:
            _apply(conn, load_view(conn, event), decide(load_view(conn, event), [], now), now)


def next_round(conn: Conn, event: uuid.UUID | str, now: float, actor: str = "director", why: str | None = None) -> int:
    """Pair the next round of a Swiss or round-robin now; before the current round's results are all in
    only with a reason (an override, logged: its unplayed pairings are cancelled). The round paired."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        state, kind, current, _ = event_row(conn, event)
        if kind == Format.ARENA.value:
            raise Conflict("an arena has no rounds")
        if state != "running":
            raise Conflict(f"the event is {state}, not running")
        view = load_view(conn, event)
        total = view.total_rounds
        assert total is not None
        if current >= total:
            raise Conflict(f"all {total} rounds are paired")
        settled = view.round_settled(current)
        reason = checked_reason(why, required=not settled)
        plan = decide(view, [], now, force_next=True)
        _apply(conn, view, plan, now)
        log_action(conn, event, now, actor, "next-round" if settled else "override", why=reason, round=current + 1)
        return int(current) + 1


def repair(conn: Conn, event: uuid.UUID | str, pairing: uuid.UUID | str, players: Sequence[uuid.UUID | str],
           now: float, actor: str = "director", why: str | None = None) -> uuid.UUID:
    """Re-pair by hand: the pairing ``pairing`` (unplayed) is cancelled and ``players`` (two, seat 0
    first; or one, who gets a bye in a Swiss or round-robin) are paired instead in its round. Logged
    with the reason; the new pairing's uuid."""
    event = event_key(event, "event")
    key = event_key(pairing, "pairing")
    with conn.transaction():
        lock_events(conn)
        event_row(conn, event)
        reason = checked_reason(why)
        view = load_view(conn, event)
        row = next((r for r in view.rows if r.uuid == key), None)
        if row is None:
            raise NotFound(f"no pairing {key} in this event")
        if row.state not in (*OPEN, "aborted"):
            raise Conflict(f"the pairing is {row.state}; only an unplayed one is re-paired")
        chosen = [find_player(conn, str(p)) for p in players]
        if not 1 <= len(chosen) <= 2 or (len(chosen) == 1 and row.round is None):
            raise BadRequest("re-pair with two players (or one for a bye in a Swiss or round-robin)")
        try:
            legal_repair(view, chosen, row.round, row.uuid)
        except EventError as exc:
            raise Conflict(exc.message) from None
        new = Row(uuid.uuid4(), row.round, row.board, chosen[0], chosen[1] if len(chosen) == 2 else None,
                  "waiting" if len(chosen) == 2 else "bye", now, finished_at=None if len(chosen) == 2 else now,
                  note=f"re-paired by hand: {reason}")
        save_pairings(conn, event, [replace(row, state="cancelled", finished_at=now, note=f"re-paired by hand: {reason}"), new])
        log_action(conn, event, now, actor, "re-paired", row.uuid, why=reason, new=str(new.uuid),
             players=[str(p) for p in chosen])
        return new.uuid


def cancel(conn: Conn, event: uuid.UUID | str, pairing: uuid.UUID | str, now: float, actor: str = "director",
           why: str | None = None) -> None:
    """Cancel an unplayed pairing (logged with the reason): nobody scores it."""
    event = event_key(event, "event")
    key = event_key(pairing, "pairing")
    with conn.transaction():
        lock_events(conn)
        reason = checked_reason(why)
        view = load_view(conn, event)
        row = next((r for r in view.rows if r.uuid == key), None)
        if row is None:
            raise NotFound(f"no pairing {key} in this event")
        if row.state not in (*OPEN, "aborted"):
            raise Conflict(f"the pairing is {row.state}; only an unplayed one is cancelled")
        save_pairings(conn, event, [replace(row, state="cancelled", finished_at=now, note=f"cancelled: {reason}")])
        log_action(conn, event, now, actor, "cancelled", row.uuid, why=reason)


def forbid(conn: Conn, event: uuid.UUID | str, a: uuid.UUID | str, b: uuid.UUID | str, now: float,
           actor: str = "director", why: str | None = None) -> None:
    """Forbid two entrants to be paired in this event (logged with the reason)."""
    event = event_key(event, "event")
    with conn.transaction():
        lock_events(conn)
        event_row(conn, event)
        reason = checked_reason(why)
        first, second = find_player(conn, str(a)), find_player(conn, str(b))
        if first == second:
            raise BadRequest("a player cannot be forbidden from themselves")
        lo, hi = unordered(first, second)
        conn.execute("INSERT INTO event_forbidden (event, player_a, player_b, why) VALUES (%s,%s,%s,%s)"
                     " ON CONFLICT DO NOTHING", (event, lo, hi, reason))
        log_action(conn, event, now, actor, "forbidden", why=reason, players=[str(lo), str(hi)])


# -- loading ---------------------------------------------------------------------------------------


def load_view(conn: Conn, event: uuid.UUID) -> EventView:
    """The event as the scheduler and the standings see it."""
    ev = conn.execute("SELECT format, rounds, minutes, tiebreaks, state, current_round, ack_timeout_s, auto_advance,"
                      " ends_at, balances FROM events WHERE uuid = %s", (event,)).fetchone()
    if ev is None:
        raise NotFound(f"no event {event}")
    kind, rounds, minutes, tiebreaks, state, current, timeout, auto, ends_at, balances = ev
    rules = EventRules(Format(kind), parse_tiebreaks(tiebreaks), rounds=rounds, minutes=minutes)
    entrants = tuple(Entrant(r[0], r[1], float(r[2]), int(r[3]), None if r[4] is None else int(r[4]))
                     for r in conn.execute(
                         "SELECT e.player, p.name, e.rating, e.joined_round, e.withdrawn_after FROM event_entrants e"
                         " JOIN players p ON p.uuid = e.player WHERE e.event = %s ORDER BY e.draw", (event,)))
    rows = tuple(pairing_row(r) for r in conn.execute(
        f"SELECT {PAIRING_COLUMNS} FROM event_pairings WHERE event = %s ORDER BY created_at, round, board", (event,)))
    games = tuple(
        Game(r[0], (r[1], r[2]), int(r[3]), (int(r[4][0]), int(r[4][1])), int(r[5] or 0), float(r[6]),
             (bool(r[7][0]), bool(r[7][1])), start=int(balances))
        for r in conn.execute(
            "SELECT p.match, m.player0, m.player1, m.winner, m.balances, p.round, m.ended_wall,"
            " CASE WHEN m.player0 = p.player0 THEN p.berserk ELSE ARRAY[p.berserk[2], p.berserk[1]] END"
            " FROM event_pairings p JOIN matches m ON m.uuid = p.match"
            " WHERE p.event = %s AND p.state = 'played' AND m.status = 'verified' AND m.winner IS NOT NULL"
            " ORDER BY m.ended_wall, p.match", (event,)))
    byes = tuple(Bye(int(r.round), r.player0, r.half_bye) for r in rows if r.state == "bye" and r.round is not None)
    forfeits = tuple(Forfeit(r.uuid, (r.player0, r.player1), r.forfeit_winner, r.round or 0) for r in rows
                     if r.state == "forfeit" and r.player1 is not None)
    requested = tuple(Bye(int(r[1]), r[0], True) for r in conn.execute(
        "SELECT player, round FROM event_bye_requests WHERE event = %s AND round > %s ORDER BY round, player",
        (event, current)))
    forbidden = frozenset((r[0], r[1]) for r in conn.execute(
        "SELECT player_a, player_b FROM event_forbidden WHERE event = %s", (event,)))
    return EventView(event, rules, state, int(current), float(timeout), bool(auto), ends_at, entrants, rows, games,
                     byes, forbidden, forfeits, requested)


def table_of(view: EventView) -> list[Standing]:
    """The event's standings from its verified games and byes."""
    if view.rules.format is Format.ARENA:
        return arena_standings(view.entrants, view.games, view.rules, view.forfeits)
    return round_standings(view.entrants, view.games, view.byes, view.rules, view.forfeits)


def standings(conn: Conn, event: uuid.UUID | str) -> dict[str, Any]:
    """``GET /api/v1/events/ID/standings``: the tiebreaks' names, then rank, player, name, score,
    tiebreaks in order and games per player."""
    key = event_key(event, "event")
    view = load_view(conn, key)
    return standings_json(key, view.rules, table_of(view))


def list_events(conn: Conn) -> list[dict[str, Any]]:
    """Every event, newest first: uuid, name, format, rounds or minutes, state, round, players."""
    rows = conn.execute(
        "SELECT e.uuid, e.name, e.format, e.rounds, e.minutes, e.state, e.current_round, e.created_at, e.started_at,"
        " e.ends_at, (SELECT count(*) FROM event_entrants x WHERE x.event = e.uuid AND x.withdrawn_after IS NULL),"
        " e.bank_seconds, e.delay_seconds, e.balances, e.berserk, e.tiebreaks, e.ack_timeout_s"
        " FROM events e ORDER BY e.created_at DESC, e.uuid").fetchall()
    return [{"uuid": str(r[0]), "name": r[1], "format": r[2], "rounds": r[3], "minutes": r[4], "state": r[5],
             "round": None if r[2] == Format.ARENA.value else r[6], "created_at": r[7], "started_at": r[8], "ends_at": r[9], "players": int(r[10]),
             "settings": {"bank_seconds": r[11], "delay_seconds": r[12], "balances": r[13]}, "berserk": r[14],
             "tiebreaks": list(r[15]), "ack_timeout_s": r[16]} for r in rows]


def event_detail(conn: Conn, event: uuid.UUID | str) -> dict[str, Any]:
    """An event with its entrants, pairings (names and tables), log and standings, for the pages."""
    key = event_key(event, "event")
    summary = next((e for e in list_events(conn) if e["uuid"] == str(key)), None)
    if summary is None:
        raise NotFound(f"no event {key}")
    view = load_view(conn, key)
    names = {r[0]: r[1] for r in conn.execute(
        "SELECT p.uuid, p.name FROM players p JOIN event_entrants e ON e.player = p.uuid WHERE e.event = %s", (key,))}
    tables = {r[0]: r[1] for r in conn.execute("SELECT uuid, name FROM kiosks")}
    results = {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in conn.execute(
        "SELECT m.uuid, m.winner, m.reason, m.balances, m.player0, m.player1 FROM event_pairings p JOIN matches m"
        " ON m.uuid = p.match WHERE p.event = %s", (key,))}
    pairings = []
    for r in sorted(view.rows, key=lambda r: (-(r.round or 0), -r.created_at, r.board)):
        winner = balances = reason = None
        if r.match is not None and r.match in results:
            seat, reason, final, p0, p1 = results[r.match]
            if seat is not None and (p0, p1)[seat] in r.players:
                winner = r.players.index((p0, p1)[seat])  # in the pairing's seat order
            if final is not None:
                balances = list(final) if p0 == r.player0 else [final[1], final[0]]
        pairings.append({"uuid": str(r.uuid), "round": r.round, "board": r.board, "state": r.state,
                         "players": [{"uuid": str(p), "name": names.get(p, "?")} for p in r.players],
                         "table": tables.get(r.kiosk) if r.kiosk else None, "match": str(r.match) if r.match else None,
                         "winner": winner, "reason": reason, "balances": balances, "berserk": list(r.berserk),
                         "note": r.note, "acknowledge_by": r.acknowledge_by, "forfeit_winner": r.forfeit_winner,
                         "half_bye": r.half_bye})
    entrants = [{"uuid": str(e.player), "name": e.name, "rating": e.rating, "joined_round": e.joined_round,
                 "withdrawn": e.withdrawn_after is not None} for e in view.entrants]
    history = [{"at": r[0], "actor": r[1], "action": r[2], "pairing": str(r[3]) if r[3] else None, "why": r[4],
                "detail": r[5]} for r in conn.execute(
        "SELECT at, actor, action, pairing, why, detail FROM event_log WHERE event = %s ORDER BY id DESC LIMIT 200",
        (key,))]
    forbidden = [{"players": [names.get(r[0], "?"), names.get(r[1], "?")], "why": r[2]} for r in conn.execute(
        "SELECT player_a, player_b, why FROM event_forbidden WHERE event = %s", (key,))]
    asked = [{"player": str(r[0]), "name": names.get(r[0], "?"), "round": r[1], "why": r[2]} for r in conn.execute(
        "SELECT player, round, why FROM event_bye_requests WHERE event = %s ORDER BY round, player", (key,))]
    return {**summary, "entrants": entrants, "pairings": pairings, "log": history, "forbidden": forbidden,
            "bye_requests": asked,
            "standings": standings_json(key, view.rules, table_of(view)),
            "round_settled": view.round_settled(view.current_round), "total_rounds": view.total_rounds}


# -- the scheduler and the tables ------------------------------------------------------------------


def _apply(conn: Conn, view: EventView, plan: Plan, now: float) -> None:
    # rows a move copies refer to the rows they replace: write those first
    ordered = sorted(plan.rows.values(), key=lambda r: r.moved_from is not None)
    save_pairings(conn, view.uuid, ordered)
    if plan.current_round is not None:
        conn.execute("UPDATE events SET current_round = %s WHERE uuid = %s", (plan.current_round, view.uuid))
    if plan.finished:
        conn.execute("UPDATE events SET state = 'finished', finished_at = %s WHERE uuid = %s AND state = 'running'",
                     (now, view.uuid))
    for action, pairing, detail in plan.log:
        rest = dict(detail)
        why = rest.pop("why", None)
        log_action(conn, view.uuid, now, "hub", action, pairing, None if why is None else str(why), **rest)


def seen(conn: Conn, kiosk: uuid.UUID, now: float) -> None:
    """A table asked for its assignment at ``now``: it is alive."""
    with conn.transaction():
        conn.execute("INSERT INTO kiosk_presence (kiosk, last_seen) VALUES (%s, %s) ON CONFLICT (kiosk)"
                     " DO UPDATE SET last_seen = EXCLUDED.last_seen", (kiosk, now))


def free_tables(conn: Conn, now: float, busy: Collection[uuid.UUID] = ()) -> list[uuid.UUID]:
    """The tables that can be given a pairing: seen within ``PRESENCE_S``, not revoked, with no open
    pairing, and not in ``busy`` (playing a live match), by name."""
    rows = conn.execute(
        "SELECT k.uuid FROM kiosks k JOIN kiosk_presence s ON s.kiosk = k.uuid WHERE k.revoked_at IS NULL"
        " AND s.last_seen >= %s AND NOT EXISTS (SELECT 1 FROM event_pairings p WHERE p.kiosk = k.uuid"
        " AND p.state IN ('offered', 'acknowledged')) ORDER BY k.name, k.uuid", (now - PRESENCE_S,)).fetchall()
    return [r[0] for r in rows if r[0] not in busy]


def tick(conn: Conn, now: float, busy: Collection[uuid.UUID] = ()) -> int:
    """Run the scheduler over every running event at ``now``; the number of pairing rows written. An
    event that cannot be paired now is logged (once in a row) and left as it is."""
    written = 0
    with conn.transaction():
        lock_events(conn)
        running = [r[0] for r in conn.execute("SELECT uuid FROM events WHERE state = 'running' ORDER BY created_at")]
        if not running:
            return 0
        free = free_tables(conn, now, busy)
        for event in running:
            view = load_view(conn, event)
            try:
                with conn.transaction():
                    plan = decide(view, free, now)
                    _apply(conn, view, plan, now)
            except EventError as exc:
                last = conn.execute("SELECT action, why FROM event_log WHERE event = %s ORDER BY id DESC LIMIT 1",
                                    (event,)).fetchone()
                if last is None or tuple(last) != ("pairing-failed", exc.message):
                    log_action(conn, event, now, "hub", "pairing-failed", why=exc.message)
                log.warning("event %s: %s", event, exc.message)
                continue
            written += len(plan.rows)
            free = [k for k in free if k not in plan.taken]
    return written


def assignment(conn: Conn, kiosk: uuid.UUID) -> dict[str, Any] | None:
    """The pairing this table is given (offered or acknowledged), as ``GET /api/v1/kiosk/assignment``
    answers it (docs/events-protocol.md), or None."""
    row = conn.execute(
        "SELECT p.uuid, p.round, p.player0, a.name, p.player1, b.name, p.acknowledge_by, e.uuid, e.name, e.format,"
        " e.bank_seconds, e.delay_seconds, e.balances, e.berserk FROM event_pairings p"
        " JOIN events e ON e.uuid = p.event JOIN players a ON a.uuid = p.player0 JOIN players b ON b.uuid = p.player1"
        " WHERE p.kiosk = %s AND p.state IN ('offered', 'acknowledged') ORDER BY p.offered_at, p.uuid LIMIT 1",
        (kiosk,)).fetchone()
    if row is None:
        return None
    return {"uuid": str(row[0]), "event": {"uuid": str(row[7]), "name": row[8], "format": row[9]},
            "round": row[1], "players": [{"uuid": str(row[2]), "name": row[3]}, {"uuid": str(row[4]), "name": row[5]}],
            "settings": {"bank_seconds": row[10], "delay_seconds": row[11], "balances": row[12]},
            "berserk": bool(row[13]) and row[9] == Format.ARENA.value, "acknowledge_by": row[6]}


def acknowledge(conn: Conn, kiosk: uuid.UUID, pairing: str, now: float) -> None:
    """The table stored its pairing. NotFound for a pairing not given to this table; Conflict (with the
    reason) when it was moved to another table or cancelled; acknowledging twice is fine."""
    key = event_key(pairing, "pairing")
    with conn.transaction():
        lock_events(conn)
        row = conn.execute("SELECT state, kiosk, note, event FROM event_pairings WHERE uuid = %s", (key,)).fetchone()
        if row is None or row[1] != kiosk:
            raise NotFound(f"no pairing {key} for this table")
        state, _, note, event = row
        if state == "offered":
            conn.execute("UPDATE event_pairings SET state = 'acknowledged', acknowledged_at = %s WHERE uuid = %s",
                         (now, key))
            log_action(conn, event, now, "hub", "acknowledged", key)
        elif state in ("moved", "cancelled", "forfeit"):
            raise Conflict(f"the pairing was {'scored by forfeit' if state == 'forfeit' else state}" + (f" ({note})" if note else ""), state=state)
