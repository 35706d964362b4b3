"""``python -m club players list|duplicates|rename|merge|unmerge --database DSN ...``: the director's
operations on players from the command line (``club.players``); docs/club.md, "Renames and merges"."""

from __future__ import annotations

import argparse
import getpass
import json
import os
from typing import Any

from club import players
from club.database import connect, migrate


def add_parser(sub: Any) -> None:
    """The ``players`` command and its subcommands."""
    cmd = sub.add_parser("players", help="the club's players: list, duplicates, rename, merge, unmerge")
    psub = cmd.add_subparsers(dest="players_command", required=True)
    for name, text in (("list", "every player, merged ones too"),
                       ("duplicates", "likely duplicates: the same name, different uuids")):
        p = psub.add_parser(name, help=text)
        p.add_argument("--database", required=True, metavar="DSN")
        p.add_argument("--json", action="store_true", help="print JSON instead of lines")
    rename = psub.add_parser("rename", help="give a player another name")
    rename.add_argument("player", metavar="UUID")
    rename.add_argument("name")
    merge = psub.add_parser("merge", help="count ALIAS as CANONICAL from now on (undone by unmerge)")
    merge.add_argument("alias", metavar="ALIAS")
    merge.add_argument("canonical", metavar="CANONICAL")
    unmerge = psub.add_parser("unmerge", help="undo the merge of ALIAS")
    unmerge.add_argument("alias", metavar="ALIAS")
    for p in (rename, merge, unmerge):
        p.add_argument("--database", required=True, metavar="DSN")
        p.add_argument("--why", required=True, help="why (recorded with the change)")
        p.add_argument("--by", default=_who(), help="who does it (recorded; default: the login name)")
        p.add_argument("--json", action="store_true", help="print the record as JSON")


def run(args: argparse.Namespace) -> int:
    """Run a ``players`` subcommand; ClubError propagates (the caller prints it, exit 2)."""
    migrate(args.database)
    with connect(args.database) as conn:
        command = args.players_command
        if command == "list":
            return _show(args, players.list_players(conn), _player_line)
        if command == "duplicates":
            groups = players.duplicates(conn)
            if args.json:
                print(json.dumps(groups, ensure_ascii=False, indent=2))
            else:
                for group in groups:
                    print(f"{group['name']!r}: {len(group['players'])} players")
                    for p in group["players"]:
                        print("  " + _player_line(p))
                print(f"{len(groups)} names held by more than one player")
            return 0
        if command == "rename":
            done = players.rename(conn, args.player, args.name, director=args.by, why=args.why)
            return _record(args, done, f"renamed {done['player']}: {done['old_name']!r} -> {done['new_name']!r}")
        if command == "merge":
            done = players.merge(conn, args.alias, args.canonical, director=args.by, why=args.why)
        else:
            done = players.unmerge(conn, args.alias, director=args.by, why=args.why)
        verb = "merged" if done["in_force"] else "unmerged"
        return _record(args, done, f"{verb} {done['alias']['name']!r} ({done['alias']['uuid']}) "
                                   f"{'into' if done['in_force'] else 'from'} {done['canonical']['name']!r} "
                                   f"({done['canonical']['uuid']}); merge {done['id']}, roster version "
                                   f"{done['roster_version']}")


def _who() -> str:
    try:
        return os.environ.get("SUDO_USER") or getpass.getuser()
    except (KeyError, OSError):  # no name for this uid
        return "unknown"


def _show(args: argparse.Namespace, rows: list[dict[str, Any]], line: Any) -> int:
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            print(line(row))
        print(f"{len(rows)} players")
    return 0


def _record(args: argparse.Namespace, done: dict[str, Any], line: str) -> int:
    print(json.dumps(done, ensure_ascii=False, indent=2) if args.json else line)
    return 0


def _player_line(p: dict[str, Any]) -> str:
    merged = f"  merged into {p['merged_into']}" if p["merged_into"] else ""
    return (f"{p['uuid']}  {p['name']!r}  made at {p['kiosk']!r}  {p['games']} games  "
            f"rating {p['rating']:.0f} (RD {p['rd']:.0f}){merged}")
