"""``python -m club``: ``serve``, ``migrate``, ``kiosks add``, ``players ...``, ``events ...``, ``backup``, ``admin``
and ``review-worker`` (docs/club.md, "Running a hub"; docs/review.md, "On the hub").

Exit status 0 on success, 2 with a one-line reason on stderr when a setting cannot work (a DSN that
does not connect, a schema from a newer hub, a taken kiosk name, a bad --listen).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from club import cli_events, cli_players
from club.backup import backup
from club.database import connect, migrate
from club.errors import ClubError, SetupError
from club.tokens import add_kiosk


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; SetupError when it is not one."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SetupError(f"--listen wants HOST:PORT (such as 127.0.0.1:8022), not {text!r}")
    return host, int(port)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m club", description="The Spectacular Bid club hub.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the hub (migrates the database first)")
    serve.add_argument("--database", required=True, metavar="DSN", help="PostgreSQL connection string")
    serve.add_argument("--listen", default="127.0.0.1:8022", metavar="HOST:PORT")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.add_argument("--reviews", action="store_true",
                       help="also run the review worker (python -m club review-worker) as a child process")
    mig = sub.add_parser("migrate", help="bring the database to this hub's schema")
    mig.add_argument("--database", required=True, metavar="DSN")
    kiosks = sub.add_parser("kiosks", help="the registered kiosks (tables)")
    ksub = kiosks.add_subparsers(dest="kiosks_command", required=True)
    add = ksub.add_parser("add", help="register a kiosk; its token is the last line printed")
    add.add_argument("name")
    add.add_argument("--database", required=True, metavar="DSN")
    cli_players.add_parser(sub)
    cli_events.add_parser(sub)
    dump = sub.add_parser("backup", help="dump the database with pg_dump into a folder, keeping the newest")
    dump.add_argument("--database", required=True, metavar="DSN")
    dump.add_argument("--dir", required=True, type=Path, help="the folder of the dumps")
    dump.add_argument("--keep", type=int, default=14, help="how many dumps to keep (default 14)")
    admin = sub.add_parser("admin", help="set the club director's password (read from the terminal, or one line"
                                         " from stdin when it is not a terminal)")
    admin.add_argument("--database", required=True, metavar="DSN")
    worker = sub.add_parser("review-worker", help="review every verified match, one at a time, at the lowest"
                                                  " priority (docs/review.md)")
    worker.add_argument("--database", required=True, metavar="DSN")
    worker.add_argument("--samples", type=int, default=None, help="worlds per decision (default: the table's)")
    worker.add_argument("--every", type=float, default=None, metavar="SECONDS",
                        help="how often an idle worker looks for new matches")
    worker.add_argument("--once", action="store_true", help="review what is waiting, then exit")
    worker.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args.database, args.listen, args.log_level, reviews=args.reviews)
        if args.command == "review-worker":
            return _review_worker(args)
        if args.command == "migrate":
            before, after = migrate(args.database)
            print(f"schema version {after}" + ("" if before == after else f" (was {before})"))
            return 0
        if args.command == "players":
            return cli_players.run(args)
        if args.command == "events":
            return cli_events.run(args)
        if args.command == "backup":
            print(f"dumped to {backup(args.database, args.dir, keep=args.keep)}")
            return 0
        migrate(args.database)
        if args.command == "admin":
            return _admin(args.database)
        with connect(args.database) as conn:
            kiosk, token = add_kiosk(conn, args.name)
        print(f"kiosk {kiosk.name!r} registered as {kiosk.uuid}; its token (shown once, the hub keeps only a hash):")
        print(token)
        return 0
    except ClubError as exc:
        print(f"python -m club {args.command}: {exc.message}", file=sys.stderr)
        return 2


def _admin(dsn: str) -> int:
    from club.web.auth import set_password

    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass("the director's new password: ")
        if getpass.getpass("once more: ") != password:
            raise SetupError("the two passwords differ; nothing was changed")
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    with connect(dsn) as conn:
        set_password(conn, password)
    print("the director's password is set (the hub keeps only its scrypt hash); every session was ended")
    return 0


def _review_worker(args: argparse.Namespace) -> int:
    import threading

    from club import review_worker

    if args.samples is not None and args.samples < 2:
        raise SetupError("--samples wants at least 2 (an interval needs two worlds)")
    migrate(args.database)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    priority = review_worker.lower_priority()
    stop = threading.Event()

    def stopping(signum: int, frame: object) -> None:
        stop.set()
        raise KeyboardInterrupt  # a review in progress is given back, not finished

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stopping)
    samples = args.samples or review_worker.HUB_REVIEW_SAMPLES
    try:  # from here a SIGTERM ends the worker with status 0, wherever it lands
        logging.getLogger("club.review_worker").info("review worker: %d samples, priority %s", samples, priority)
        done = review_worker.run(args.database, samples=samples, idle_s=args.every or review_worker.IDLE_S,
                                 once=args.once, stop=stop)
    except KeyboardInterrupt:
        return 0
    if args.once:
        print(f"{done} matches reviewed")
    return 0


def _serve(dsn: str, listen: str, log_level: str, *, reviews: bool = False) -> int:
    host, port = parse_listen(listen)

    import uvicorn

    from club.app import create_app

    migrate(dsn)  # a DSN that does not work is said before uvicorn starts
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = uvicorn.Config(create_app(dsn), host=host, port=port, log_level=log_level, log_config=None,
                            proxy_headers=False, server_header=False)
    server = uvicorn.Server(config)
    # uvicorn shuts down on SIGTERM / SIGINT, then raises the signal again for the handler that was
    # there before it: this one keeps it, so the process ends normally (exit 0, ``finally`` blocks run)
    caught: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: caught.append(signum))
    worker = None
    if reviews:  # a process of its own at the lowest priority: the review never holds the hub's interpreter
        import subprocess

        worker = subprocess.Popen([sys.executable, "-m", "club", "review-worker", "--database", dsn,
                                   "--log-level", log_level])
    try:
        server.run()
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
    return 0 if server.started else 2
