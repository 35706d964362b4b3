"""``python -m kiosk.devtools.sync_bench --hub URL --token-file F``: what one kiosk's club sync costs the table.

The real app, headless (SDL's dummy driver), 800x480, its journal through the keeper with commits on
the store's writer thread (as ``python -m kiosk`` runs it), a match played at 30 frames a second with
a command every third frame. First without the sync (the baseline), then while the sync worker
uploads a backlog of ``--matches`` finished matches to the hub (and downloads the roster). Prints
the frame time (``App.step``) and the commit latency (a commit handed to the writer until it is on
disk) of both phases: median, 99th percentile and worst; and the upload round's time. Timings, not
tests. A hub to try it against: ``make hub`` (its token is in ``.hub/demo-token``).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from engine import NS_PER_S
from kiosk.app import App
from kiosk.club.client import HubClient, read_token
from kiosk.club.worker import SyncWorker
from kiosk.config import KioskConfig, MatchSettings
from kiosk.store.keeper import JournalKeeper
from kiosk.store.players import Players
from kiosk.table.session import GameSession, match_config
from kiosk.timesource import MonotonicClock

FRAME_S = 1 / 30
COMMAND_EVERY = 3


@dataclass
class Phase:
    """One phase's timings (seconds)."""

    frames: list[float] = field(default_factory=list)
    commits: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def line(self, name: str) -> str:
        return (f"{name}: {len(self.frames)} frames in {self.seconds:.1f} s; frame time {_stats(self.frames)}; "
                f"commit latency ({len(self.commits)} commits) {_stats(self.commits)}")


def _stats(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
            f"worst {ordered[-1] * 1000:.2f} ms")


def backlog(keeper: JournalKeeper, matches: int, seed: int) -> None:
    """``matches`` finished rated matches between two named players, random legal commands (the outbox)."""
    assert keeper.players is not None
    players: Players = keeper.players
    ids = [players.create(name).id for name in ("Ann", "Bo")]
    rng = random.Random(seed)
    now = 1_000 * NS_PER_S
    settings = MatchSettings(handover=False, bank_seconds=600, delay_seconds=10, balances=40)
    for n in range(matches):
        session = GameSession(settings, rng, boot_id=keeper.boot_id)
        session.match = keeper.begin(match_config(settings), (ids[n % 2], ids[1 - n % 2]), now)
        while not session.match.is_over:
            now += rng.randrange(1, 3 * NS_PER_S)
            session.command(rng.choice(session.match.legal_actions()), now)
            keeper.sync(session.match, now)
        keeper.sync(None, now)
    assert keeper.writer is not None
    keeper.writer.wait_idle(60)
    keeper.sync(None, now)
    keeper.writer.wait_idle(60)


def timed_commits(keeper: JournalKeeper, into: Callable[[], list[float]], sync_jobs: list[float]) -> None:
    """Every job the frame's thread hands to the writer is timed from the hand-over to its end; the sync
    worker's jobs (its bookkeeping) by how long each holds the writer."""
    writer = keeper.writer
    assert writer is not None
    submit = writer.submit
    main = threading.current_thread()

    def timed(job: Callable[[], None], now_ns: int) -> bool:
        if threading.current_thread() is not main:  # the sync worker's bookkeeping: not a table commit
            def held() -> None:
                begun = time.perf_counter()
                job()
                sync_jobs.append(time.perf_counter() - begun)

            return submit(held, now_ns)
        handed = time.perf_counter()

        def run() -> None:
            job()
            into().append(time.perf_counter() - handed)

        return submit(run, now_ns)

    writer.submit = timed  # type: ignore[method-assign]


def play(app: App, rng: random.Random, phase: Phase, until: Callable[[], bool]) -> None:
    """Frames at 30 fps, a command every third frame, a new match when one ends, until ``until()``."""
    started = time.perf_counter()
    frame = 0
    while not until():
        due = started + frame * FRAME_S
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        session = app.session
        if session is None or session.match.is_over:
            app.controller.new_match()
            app.controller.enter_match()  # in the journal, as the first Start does
            session = app.session
            assert session is not None
        if frame % COMMAND_EVERY == 0:
            legal = session.match.legal_actions()
            if legal:
                session.command(rng.choice(legal), app.clock.now())
        begun = time.perf_counter()
        app.step(wait=False)
        phase.frames.append(time.perf_counter() - begun)
        frame += 1
    phase.seconds = time.perf_counter() - started


def run(hub: str, token_file: Path, matches: int, seconds: float, seed: int) -> int:
    folder = Path(tempfile.mkdtemp(prefix="sync-bench-"))
    clock = MonotonicClock()
    keeper = JournalKeeper.open(folder / "journal.sqlite3", "bench", clock.now(), threaded=True)
    backlog(keeper, matches, seed)
    config = replace(KioskConfig(), match=MatchSettings(handover=False, balances=40, bank_seconds=600))
    app = App(config, clock=clock, size=(800, 480), hardware_backend="mock", keeper=keeper, boot_id="bench",
              rng=random.Random(seed))
    phases = {"baseline": Phase(), "sync": Phase()}
    current = ["baseline"]
    sync_jobs: list[float] = []
    timed_commits(keeper, lambda: phases[current[0]].commits, sync_jobs)
    rng = random.Random(seed)
    worker = SyncWorker(keeper, HubClient(hub, read_token(token_file)), clock=clock.now)
    reads: list[float] = []
    read = worker.access.read

    def timed_read(fn: Callable[[sqlite3.Connection], object]) -> object:
        def inner(conn: sqlite3.Connection) -> object:
            begun = time.perf_counter()
            try:
                return fn(conn)
            finally:
                reads.append(time.perf_counter() - begun)

        return read(inner)

    worker.access.read = timed_read  # type: ignore[method-assign,assignment]
    try:
        end = time.perf_counter() + seconds
        play(app, rng, phases["baseline"], lambda: time.perf_counter() >= end)
        current[0] = "sync"
        began = time.perf_counter()
        worker.start()
        end = time.perf_counter() + seconds
        finished: list[float] = []

        def done() -> bool:
            if worker.state.rounds >= 1 and not finished:
                finished.append(time.perf_counter() - began)
            return bool(finished) and time.perf_counter() >= end

        play(app, rng, phases["sync"], done)
        state = worker.state
        uploaded = finished[0]
    finally:
        worker.stop()
        app.close()
        keeper.close()
    print(f"journal: {folder / 'journal.sqlite3'}; backlog {matches} finished matches")
    for name, phase in phases.items():
        print(phase.line(name))
    if state.error is not None or state.last is None:
        print(f"sync: failed: {state.error}", file=sys.stderr)
        return 1
    print(f"the sync's reads held the journal's lock: {len(reads)} reads, {_stats(reads)}; its writer jobs: "
          f"{len(sync_jobs)}, {_stats(sync_jobs)}")
    print(f"sync: {state.last.line()}; the round took {uploaded:.2f} s (seen from the frame loop), "
          f"{keeper.writer.jobs if keeper.writer else 0} writer jobs in all")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.sync_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--hub", required=True, help="the hub's URL, e.g. http://127.0.0.1:8022 (make hub)")
    parser.add_argument("--token-file", required=True, type=Path, help="a kiosk token of that hub (.hub/demo-token)")
    parser.add_argument("--matches", type=int, default=50, help="finished matches waiting to be uploaded")
    parser.add_argument("--seconds", type=float, default=10.0, help="at least this long per phase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return run(args.hub, args.token_file, args.matches, args.seconds, args.seed)


if __name__ == "__main__":
    sys.exit(main())
