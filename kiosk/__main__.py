"""``python -m kiosk``: the table kiosk (fullscreen); ``--simulator`` runs it in a window.

Every start is recorded in the state directory (``kiosk.startguard``): when the kiosk failed to
start ``SAFE_AFTER`` (3) times within a minute, this start is in safe mode — the default
configuration, no journal, and a banner saying why and what to do — instead of failing again.
An exception on the way out is recorded as the last error and raised again (so systemd sees the
failure); a clean exit (admin exit, SIGTERM, closing the simulator's window) clears the record.
"""

from __future__ import annotations

import signal
from typing import Any


class StopRequest:
    """systemd's stop (SIGTERM) at any moment of the start: remembered until the app exists, then
    passed to it; a start stopped this way is a clean exit, never a failed start."""

    def __init__(self) -> None:
        self.requested = False
        self._app: Any = None

    def install(self) -> None:
        """Take SIGTERM from now on (the first thing ``python -m kiosk`` does, before the slow imports)."""
        signal.signal(signal.SIGTERM, self)

    def __call__(self, signum: int = signal.SIGTERM, frame: object = None) -> None:
        self.requested = True
        if self._app is not None:
            self._app.running = False

    def attach(self, app: Any) -> None:
        """From now on a stop leaves ``app``'s loop; one that came earlier leaves it at once."""
        self._app = app
        if self.requested:
            app.running = False


STOP = StopRequest()
if __name__ == "__main__":
    STOP.install()

import argparse  # noqa: E402  (after the SIGTERM handler: a stop during these imports is a clean exit)
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass, replace  # noqa: E402
from pathlib import Path  # noqa: E402

from kiosk.config import KioskConfig, load_config, screen_size  # noqa: E402
from kiosk.owner import load_pin  # noqa: E402
from kiosk.sdnotify import Notifier  # noqa: E402
from kiosk.startguard import START_FILE, StartDecision, StartGuard  # noqa: E402
from kiosk.store.journal import journal_path, state_dir  # noqa: E402
from kiosk.store.keeper import JournalKeeper  # noqa: E402
from kiosk.store.runlog import RunLog, log_name, runtime_dir  # noqa: E402
from kiosk.table.pin_lock import LOCK_FILE  # noqa: E402
from kiosk.timesource import MonotonicClock  # noqa: E402


def _size(value: str) -> tuple[int, int]:
    size = screen_size(value)
    if size is None:
        raise argparse.ArgumentTypeError(f"{value!r}: a size like 800x480, width and height from 480")
    return size


def boot_id() -> str:
    """This boot's id (Linux), or "" where the system has none."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m kiosk``."""
    parser = argparse.ArgumentParser(prog="python -m kiosk", description=__doc__.splitlines()[0])
    parser.add_argument("--simulator", action="store_true", help="run in a window with keyboard and mouse")
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window or screen size, e.g. 800x480")
    parser.add_argument("--orientation", choices=("table", "upright"), help="override the configuration")
    parser.add_argument("--journal", metavar="FILE", help="the match journal (default: the state directory)")
    parser.add_argument("--no-journal", action="store_true", help="keep no match journal")
    parser.add_argument("--runtime-dir", metavar="DIR", action="append",
                        help="where the fault log keeps moves not yet on the card (a tmpfs; default: systemd's "
                             "RUNTIME_DIRECTORY, else $XDG_RUNTIME_DIR/spectacular-bid, else /dev/shm); given "
                             "twice, the log is kept in both places")
    return parser


@dataclass(frozen=True, slots=True)
class StartPlan:
    """What this start runs with: the configuration, the banner's warnings, whether to keep a journal."""

    config: KioskConfig
    warnings: tuple[object, ...]
    journal: bool
    safe_mode: bool = False


def plan_start(args: argparse.Namespace, decision: StartDecision) -> StartPlan:
    """The configuration and journal for this start: the configured ones, or in safe mode the
    defaults, no journal and the reason (command-line overrides apply in both)."""
    if decision.safe_mode:
        plan = StartPlan(KioskConfig(), (decision.warning,), journal=False, safe_mode=True)
    else:
        loaded = load_config(args.config)
        plan = StartPlan(loaded.config, loaded.warnings, journal=not args.no_journal)
    if args.orientation:
        config = plan.config
        plan = replace(plan, config=replace(config, display=replace(config.display, orientation=args.orientation)))
    return plan


def _ended_cleanly(exc: BaseException) -> bool:
    """Whether leaving by ``exc`` is an ordinary exit (Ctrl-C, ``sys.exit(0)``), not a failure."""
    return isinstance(exc, KeyboardInterrupt) or (isinstance(exc, SystemExit) and exc.code in (0, None))


def main(argv: Sequence[str] | None = None, stop: StopRequest = STOP) -> int:
    """Parse the command line, record the start, and run the kiosk (in safe mode after a crash loop)."""
    args = build_parser().parse_args(argv)
    guard = StartGuard(state_dir(args.simulator) / START_FILE, boot=boot_id())
    decision = guard.begin()
    try:
        status = 0 if stop.requested else run(args, decision, stop)
    except BaseException as exc:
        if _ended_cleanly(exc):
            guard.finished()
        else:
            guard.failed(exc)
        raise
    guard.finished()
    return status


def run(args: argparse.Namespace, decision: StartDecision, stop: StopRequest = STOP) -> int:
    """Read the configuration, open the journal and run the app until it leaves; its exit status."""
    plan = plan_start(args, decision)
    for warning in plan.warnings:
        print(f"{'safe mode' if plan.safe_mode else 'configuration'}: {warning}", file=sys.stderr)
    if args.simulator:
        os.environ.setdefault("SDL_VIDEO_WINDOW_POS", "centered")
    notifier = Notifier.from_environment(unset=True)
    clock = MonotonicClock()
    keeper = None
    if plan.journal:  # never raises: a journal that cannot be opened is the saving banner, retried
        path = Path(args.journal) if args.journal else journal_path(args.simulator)
        folders = [Path(d) for d in args.runtime_dir] if args.runtime_dir else [runtime_dir()]
        runlog = RunLog.open(folders, boot_id(), log_name(path))
        if runlog is None:
            print("journal: no runtime folder for the fault log; commits run on the frame loop", file=sys.stderr)
        keeper = JournalKeeper.open(path, boot_id(), clock.now(), runlog=runlog)
        if keeper.state.problem is not None:
            print(f"journal: {keeper.state.problem}", file=sys.stderr)
        for warning in keeper.journal.warnings if keeper.journal is not None else ():  # also on the screen
            print(f"journal: {warning}", file=sys.stderr)
    sync = events = None
    if keeper is not None and plan.config.club.url:  # the club sync on its own thread (docs/club.md)
        from kiosk.club.assignment import start_events
        from kiosk.club.worker import start_sync

        sync = start_sync(plan.config.club.url, plan.config.club.token_file, keeper, clock.now,
                          lambda line: print(line, file=sys.stderr, flush=True))
        events = start_events(plan.config.club.url, plan.config.club.token_file, keeper, clock.now,  # club nights
                              lambda line: print(line, file=sys.stderr, flush=True))
    live = None
    if plan.config.club.url and not plan.safe_mode:  # the club page's live table (docs/club-page.md)
        from kiosk.club.live_feed import start_live

        live = start_live(plan.config.club.url, plan.config.club.token_file,
                          lambda line: print(line, file=sys.stderr, flush=True))
    owner_pin = load_pin(plan.config.kiosk.owner_pin_file)  # never raises: no PIN locks the owner screens
    if not plan.safe_mode:  # the keypad's lock after wrong PINs outlives this start
        owner_pin = replace(owner_pin, lock_file=state_dir(args.simulator) / LOCK_FILE)
    if owner_pin.warning is not None:
        print(f"owner PIN: {owner_pin.warning}", file=sys.stderr)
    try:
        if stop.requested:  # stopped while the journal opened: nothing to show
            return 0
        from kiosk.app import App  # imports pygame: after the configuration is read

        app = App(plan.config, warnings=plan.warnings, simulator=args.simulator, size=args.size, clock=clock,
                  notifier=notifier, boot_id=boot_id(), keeper=keeper, owner_pin=owner_pin,
                  config_path=None if plan.safe_mode else args.config,
                  live=None if live is None else live[1])  # safe mode read no file: saves none
        if events is not None:
            app.controller.events.box = events.box  # the pairing the hub gives this table (docs/club.md)
        stop.attach(app)  # systemd's stop: leave cleanly (one during the start leaves at once)
        return app.run()
    finally:
        if live is not None:
            live[0].close()
        if sync is not None:
            sync.stop()
        if events is not None:
            events.stop()
        if keeper is not None:
            keeper.close()


if __name__ == "__main__":
    sys.exit(main())
