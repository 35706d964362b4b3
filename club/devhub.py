"""``python -m club.devhub`` (``make hub``): a hub to try out on this machine.

Without ``--database`` it runs the embedded default: a private PostgreSQL cluster under ``.hub/``
(made with ``initdb`` the first time, started with ``pg_ctl`` on a unix socket there, stopped again
on exit), the database ``club`` in it, and a kiosk ``demo`` whose token is printed the first time
(and kept in ``.hub/demo-token``). Then it serves like ``python -m club serve --reviews`` (the review
worker reviews each verified match in the background).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from club.cli import main as club_main
from club.database import connect, migrate
from club.errors import ClubError
from club.localdb import LocalCluster
from club.tokens import add_kiosk


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m club.devhub", description=__doc__.splitlines()[0])
    parser.add_argument("--database", metavar="DSN", help="an existing database (default: a private cluster)")
    parser.add_argument("--dir", default=".hub", type=Path, help="the private cluster's folder (default .hub)")
    parser.add_argument("--listen", default="127.0.0.1:8022", metavar="HOST:PORT")
    args = parser.parse_args(argv)
    cluster = None
    try:
        dsn = args.database
        if dsn is None:
            cluster = LocalCluster(args.dir)
            if cluster.init():
                print(f"made a PostgreSQL cluster in {args.dir}/data")
            cluster.start()
            cluster.create_database("club")
            dsn = cluster.dsn("club")
        migrate(dsn)
        token_file = args.dir / "demo-token"
        with connect(dsn) as conn:
            known = conn.execute("SELECT 1 FROM kiosks WHERE name = 'demo'").fetchone()
            if not known:
                _, token = add_kiosk(conn, "demo")
                args.dir.mkdir(parents=True, exist_ok=True)
                token_file.write_text(token + "\n", encoding="utf-8")
                os.chmod(token_file, 0o600)
                print(f"kiosk 'demo' registered; its token is in {token_file}")
        print(f"the hub: http://{args.listen}/api/v1/leaderboard  (database: {dsn})", flush=True)
        return club_main(["serve", "--database", dsn, "--listen", args.listen, "--reviews"])
    except ClubError as exc:
        print(f"python -m club.devhub: {exc.message}", file=sys.stderr)
        return 2
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
