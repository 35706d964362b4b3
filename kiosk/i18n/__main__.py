"""``python -m kiosk.i18n``: extract, update, compile and check the translation catalogs (Babel)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kiosk.i18n import catalogs


def main(argv: Sequence[str] | None = None) -> int:
    """Run one catalog command; the exit status is 1 when ``check`` finds problems."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.i18n", description="The kiosk's translation catalogs.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="compile every .po into the .mo beside it (or under --out)")
    c.add_argument("--out", type=Path, default=None)
    e = sub.add_parser("extract", help="add the code's new message ids to every .po (English filled in, others empty)")
    e.add_argument("--drop-obsolete", action="store_true", help="also delete the entries the code no longer uses")
    sub.add_parser("check", help="report missing or untranslated ids, placeholder mismatches, stale .mo files "
                                 "and (as warnings) obsolete entries")
    args = parser.parse_args(argv)
    if args.command == "compile":
        for path in catalogs.compile_catalogs(out=args.out):
            print(f"wrote {path}")
        return 0
    if args.command == "extract":
        for language, count in catalogs.update(drop_obsolete=args.drop_obsolete).items():
            print(f"{language}: {count} entries added or dropped")
        return 0
    problems = catalogs.check()
    for p in problems:
        print(p)
    unused = [p for p in catalogs.check(obsolete=True) if p not in problems]
    for p in unused:
        print(f"warning: {p}")
    print(f"{len(problems)} problems, {len(unused)} obsolete entries")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
