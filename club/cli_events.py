"""``python -m club events create|list|join|withdraw|start|next-round|repair|forfeit|bye|forbid|standings|show``: a
club night from the command line (``club.eventstore``); docs/club.md, "Club nights"."""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from club import eventhand, eventstore
from club.cli_players import _who
from club.database import connect, migrate
from club.errors import BadRequest


def add_parser(sub: Any) -> None:
    """The ``events`` command and its subcommands."""
    cmd = sub.add_parser("events", help="club nights: arena, Swiss and round-robin events")
    esub = cmd.add_subparsers(dest="events_command", required=True)
    create = esub.add_parser("create", help="a new event; prints its id")
    create.add_argument("--name", required=True)
    create.add_argument("--format", required=True, choices=["arena", "swiss", "round-robin"])
    create.add_argument("--rounds", type=int, help="a Swiss's number of rounds")
    create.add_argument("--minutes", type=int, help="an arena's length")
    create.add_argument("--bank", type=int, default=120, metavar="SECONDS", help="each player's bank (default 120)")
    create.add_argument("--delay", type=int, default=10, metavar="SECONDS", help="the delay per move (default 10)")
    create.add_argument("--balances", type=int, default=150, help="each player's starting points (default 150)")
    create.add_argument("--berserk", action="store_true", help="an arena's players may halve their bank for +1")
    create.add_argument("--tiebreaks", help="comma-separated, in order (default buchholz,sonneborn-berger,"
                                            "direct-encounter,points-transferred)")
    create.add_argument("--ack-timeout", type=int, default=120, metavar="SECONDS",
                        help="an unacknowledged pairing moves to another table after this (default 120)")
    create.add_argument("--manual-rounds", action="store_true",
                        help="the director starts each next round (default: paired once the results are in)")
    listing = esub.add_parser("list", help="every event")
    show = esub.add_parser("show", help="an event's entrants, pairings and log")
    show.add_argument("event")
    table = esub.add_parser("standings", help="an event's standings (as GET /api/v1/events/ID/standings)")
    table.add_argument("event")
    for p in (listing, show, table):
        p.add_argument("--json", action="store_true")
    join = esub.add_parser("join", help="enter players (uuid or exact name)")
    join.add_argument("event")
    join.add_argument("players", nargs="+")
    withdraw = esub.add_parser("withdraw", help="withdraw a player")
    withdraw.add_argument("event")
    withdraw.add_argument("player")
    withdraw.add_argument("--why", default="")
    begin = esub.add_parser("start", help="start the event (a Swiss or round-robin pairs round 1)")
    begin.add_argument("event")
    nxt = esub.add_parser("next-round", help="pair the next round (before the results are in: --why, logged)")
    nxt.add_argument("event")
    nxt.add_argument("--why", default="")
    repair = esub.add_parser("repair", help="re-pair an unplayed pairing by hand (one player: a bye)")
    repair.add_argument("event")
    repair.add_argument("pairing")
    repair.add_argument("players", nargs="+")
    repair.add_argument("--why", required=True)
    forfeit = esub.add_parser("forfeit", help="score an unplayed or aborted pairing by hand: a win by forfeit, or "
                                              "nobody scores")
    forfeit.add_argument("event")
    forfeit.add_argument("pairing")
    who = forfeit.add_mutually_exclusive_group(required=True)
    who.add_argument("--winner", metavar="PLAYER", help="the player who wins by forfeit (uuid or exact name)")
    who.add_argument("--none", action="store_true", help="a double forfeit: both lose")
    forfeit.add_argument("--why", required=True)
    bye = esub.add_parser("bye", help="a Swiss player's requested half-point bye in a round not paired yet")
    bye.add_argument("event")
    bye.add_argument("player")
    bye.add_argument("--round", type=int, metavar="R", help="the round (not the last one)")
    bye.add_argument("--cancel", action="store_true", help="take back the player's requested bye")
    bye.add_argument("--why", default="")
    forbid = esub.add_parser("forbid", help="never pair these two in this event")
    forbid.add_argument("event")
    forbid.add_argument("a")
    forbid.add_argument("b")
    forbid.add_argument("--why", required=True)
    for p in (create, listing, show, table, join, withdraw, begin, nxt, repair, forfeit, bye, forbid):
        p.add_argument("--database", required=True, metavar="DSN")
    for p in (create, join, withdraw, begin, nxt, repair, forfeit, bye, forbid):
        p.add_argument("--by", default=_who(), help="who does it (logged; default: the login name)")


def run(args: argparse.Namespace) -> int:
    """Run an ``events`` subcommand; ClubError propagates (the caller prints it, exit 2)."""
    migrate(args.database)
    now = time.time()
    command = args.events_command
    with connect(args.database) as conn:
        if command == "create":
            tiebreaks = None if args.tiebreaks is None else [t.strip() for t in args.tiebreaks.split(",") if t.strip()]
            key = eventstore.create_event(
                conn, name=args.name, format=args.format, now=now, rounds=args.rounds, minutes=args.minutes,
                bank_seconds=args.bank, delay_seconds=args.delay, balances=args.balances, berserk=args.berserk,
                tiebreaks=tiebreaks, ack_timeout_s=args.ack_timeout, auto_advance=not args.manual_rounds,
                actor=args.by)
            print(key)
            return 0
        if command == "list":
            rows = eventstore.list_events(conn)
            if args.json:
                print(json.dumps(rows, indent=2, ensure_ascii=False))
            for e in [] if args.json else rows:
                length = f"{e['rounds']} rounds" if e["rounds"] else f"{e['minutes']} minutes" if e["minutes"] else ""
                where = "" if e["format"] == "arena" else f" round {e['round']},"
                print(f"{e['uuid']}  {e['name']!r}  {e['format']} {length}  {e['state']},{where} {e['players']} players")
            return 0
        if command == "standings":
            body = eventstore.standings(conn, args.event)
            if args.json:
                print(json.dumps(body, indent=2, ensure_ascii=False))
                return 0
            print("  ".join(["rank", "score", *body["tiebreaks"], "games", "forfeits", "name"]))
            for r in body["standings"]:
                forfeits = f"{r['forfeit_wins']}/{r['forfeit_losses']}"
                values = [r["rank"], r["score"], *r["tiebreaks"], r["games"], forfeits, r["name"]]
                print("  ".join("—" if v is None else str(v) for v in values))  # —: a performance without a game
            return 0
        if command == "show":
            detail = eventstore.event_detail(conn, args.event)
            if args.json:
                print(json.dumps(detail, indent=2, ensure_ascii=False, default=str))
                return 0
            print(_headline(detail, now))
            for p in detail["pairings"]:
                names = [x["name"] for x in p["players"]]
                where = f"round {p['round']} board {p['board']}" if p["round"] is not None else f"board {p['board']}"
                won = f"  {names[p['winner']]} won" if p["winner"] is not None and p["winner"] < len(names) else ""
                if p["state"] == "forfeit":
                    won = "  nobody scores" if p["forfeit_winner"] is None else f"  {names[p['forfeit_winner']]} wins"
                elif p["half_bye"]:
                    won = "  half a point (asked for)"
                print(f"  {where}: {' vs '.join(names)}  {p['state']}{'  at ' + p['table'] if p['table'] else ''}{won}"
                      f"  (pairing {p['uuid']})")
            for asked in detail["bye_requests"]:
                print(f"  {asked['name']} asked for a bye in round {asked['round']}")
            return 0
        if command == "join":
            for player in args.players:
                eventstore.join(conn, args.event, player, now, actor=args.by)
            print(f"{len(args.players)} players entered")
            return 0
        if command == "withdraw":
            eventstore.withdraw(conn, args.event, args.player, now, actor=args.by, why=args.why)
            print("withdrawn")
            return 0
        if command == "start":
            eventstore.start(conn, args.event, now, actor=args.by)
            print("started")
            return 0
        if command == "next-round":
            print(f"round {eventstore.next_round(conn, args.event, now, actor=args.by, why=args.why)} paired")
            return 0
        if command == "repair":
            print(eventstore.repair(conn, args.event, args.pairing, args.players, now, actor=args.by, why=args.why))
            return 0
        if command == "forfeit":
            eventhand.forfeit(conn, args.event, args.pairing, None if args.none else args.winner, now, actor=args.by,
                              why=args.why)
            print("scored by forfeit" if not args.none else "a double forfeit: nobody scores")
            return 0
        if command == "bye":
            if args.cancel:
                eventhand.cancel_bye(conn, args.event, args.player, now, actor=args.by, why=args.why)
                print("the requested bye is taken back")
                return 0
            if args.round is None:
                raise BadRequest("give the round of the bye (--round R)")
            eventhand.request_bye(conn, args.event, args.player, args.round, now, actor=args.by, why=args.why)
            print(f"a half-point bye in round {args.round}")
            return 0
        eventstore.forbid(conn, args.event, args.a, args.b, now, actor=args.by, why=args.why)
        print("forbidden")
        return 0


def _headline(detail: dict[str, Any], now: float) -> str:
    """The event's first line in ``show``: its name, format, state, and where it stands (a round of so many, or
    an arena's minutes left)."""
    head = f"{detail['name']!r} ({detail['format']}), {detail['state']}"
    if detail["format"] != "arena":
        return head + (f", round {detail['round']} of {detail['rounds']}" if detail["rounds"] else
                       f", round {detail['round']}")
    if detail["state"] == "running" and detail.get("ends_at") is not None:
        left = min(detail["minutes"], max(0, math.ceil((detail["ends_at"] - now) / 60)))
        return head + f", {left} of {detail['minutes']} minutes left"
    return head + f", {detail['minutes']} minutes"
