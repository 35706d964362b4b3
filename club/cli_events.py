"""``python -m club events create|list|join|withdraw|start|next-round|repair|forbid|standings|show``: a
club night from the command line (``club.eventstore``); docs/club.md, "Club nights"."""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from club import eventstore
from club.cli_players import _who
from club.database import connect, migrate


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
    forbid = esub.add_parser("forbid", help="never pair these two in this event")
    forbid.add_argument("event")
    forbid.add_argument("a")
    forbid.add_argument("b")
    forbid.add_argument("--why", required=True)
    for p in (create, listing, show, table, join, withdraw, begin, nxt, repair, forbid):
        p.add_argument("--database", required=True, metavar="DSN")
    for p in (create, join, withdraw, begin, nxt, repair, forbid):
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
            print("  ".join(["rank", "score", *body["tiebreaks"], "games", "name"]))
            for r in body["standings"]:
                print("  ".join(str(v) for v in [r["rank"], r["score"], *r["tiebreaks"], r["games"], r["name"]]))
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
                print(f"  {where}: {' vs '.join(names)}  {p['state']}{'  at ' + p['table'] if p['table'] else ''}{won}")
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
