"""``python -m kiosk.club sync --journal FILE --hub URL --token-file FILE``: one round of uploads.

Exit status 0 when the hub acknowledged everything unsent (stored as verified or rejected, or
already held), with a one-line summary on stdout; 1 when the hub is away, refused the upload, refused
keys with a 409 in this round (each listed; they are recorded and never sent again) or something is
left unsent (the reason on stderr); 2 for a setting that cannot work (no
such journal, a journal in use by the running kiosk, a bad URL, an unreadable token file).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kiosk.club import outbox
from kiosk.club.client import TIMEOUT_S, HubClient, read_token
from kiosk.club.errors import ClubSyncError, SyncSetupError
from kiosk.club.roster import download_roster
from kiosk.club.sync import DirectAccess, SyncRound
from kiosk.store.errors import KioskStoreError
from kiosk.store.journal import Journal


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.club", description="The kiosk's side of the club sync")
    commands = parser.add_subparsers(dest="command", required=True)
    sync = commands.add_parser("sync", help="upload everything unsent to the hub once, then fetch the roster")
    sync.add_argument("--journal", required=True, type=Path, help="the kiosk's journal (journal.sqlite3)")
    sync.add_argument("--hub", required=True, help="the hub's address, e.g. http://hub.local:8022")
    sync.add_argument("--token-file", required=True, type=Path, help="the file holding this kiosk's token")
    sync.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds to wait for the hub per request")
    sync.add_argument("--no-roster", action="store_true", help="do not download the roster after the uploads")
    args = parser.parse_args(argv)
    return _sync(args)


def _sync(args: argparse.Namespace) -> int:
    try:
        client = HubClient(args.hub, read_token(args.token_file), timeout_s=args.timeout)
    except SyncSetupError as exc:
        print(f"sync: {exc.message}", file=sys.stderr)
        return 2
    if not args.journal.is_file():
        print(f"sync: there is no journal at {args.journal}", file=sys.stderr)
        return 2
    try:
        journal = Journal.open(args.journal)
    except KioskStoreError as exc:
        print(f"sync: the journal {args.journal} cannot be opened: {exc.why}", file=sys.stderr)
        return 2
    with journal:
        for warning in journal.warnings:
            print(f"sync: {warning}", file=sys.stderr)
        access = DirectAccess(journal.database)
        round_ = SyncRound(access, client, wall_clock=journal.wall_clock)
        try:
            summary = round_.run()
            if not args.no_roster:
                summary.roster = download_roster(access, client, wall_clock=journal.wall_clock)
        except ClubSyncError as exc:
            print(f"sync: {round_.summary.line()}")
            print(f"sync: stopped: {exc.message}", file=sys.stderr)
            return 1
        except KioskStoreError as exc:
            print(f"sync: {round_.summary.line()}")
            print(f"sync: stopped: the journal: {exc.why}", file=sys.stderr)
            return 1
        print(f"sync: {summary.line()}")
        for kind, key, why in access.read(outbox.refused):
            print(f"sync: refused {kind} {key}: {why}", file=sys.stderr)
        for key, why in access.read(outbox.rejected):
            print(f"sync: rejected match {key}: {why}", file=sys.stderr)
        return 0 if summary.complete and not summary.refused else 1
