"""Storage faults against the real kiosk process on real file systems (issue 26), as measurements.

The kiosk is a child process (``… storage_faults player``): the kiosk's app built as ``python -m
kiosk`` builds it (the journal's keeper with its fault log in a runtime folder, systemd's notifier
from ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``, which point at a socket of ours), headless, the real
monotonic clock, played by computer players through taps and buttons (``kiosk.devtools.soak``'s
``Player``), printing an ``ack`` line for every row a frame has shown. (The real panel cannot play
tiles, so a process of ``python -m kiosk`` could not be played past the first move.)

``python -m kiosk.devtools.storage_faults freeze --seconds 1 3 5 15 60`` mounts a 16 MiB ext4 image
(a loop device) for the journal and freezes it (``fsfreeze -f``) for each duration while a match is
played: it prints the rows shown during the freeze, the rows shown but not in the journal after
(lost), the longest gap between two watchdog pings and between two frames, and whether the match
was aborted.

``python -m kiosk.devtools.storage_faults fault-kill --fault readonly|full`` plays into the
journal, then makes its file system fail (ext4 mounted ``errors=remount-ro`` and an injected error
through ``/sys/fs/ext4/<dev>/trigger_fs_error``; or a tmpfs filled to the last byte), bids on,
SIGKILLs the kiosk, starts it again on the failed file system (it must resume the match), stops it,
repairs the file system (``e2fsck``, mounted again; the junk removed) and starts it a third time:
every row shown must be in the journal and the match not aborted. ``--legacy`` runs the keeper
without a fault log (commits on the frame loop), the way the kiosk ran before issue 26.

Needs root, ``mount``, ``losetup``, ``mkfs.ext4``, ``e2fsck``, ``fsfreeze``; every mount and freeze
is undone in a ``finally``. Not used by the running kiosk.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

TOOLS = ("mount", "umount", "losetup", "mkfs.ext4", "e2fsck", "fsfreeze")
WATCHDOG_USEC = 10_000_000
GAP_S = 0.45
"""Between two presses (closer presses of one button across a screen change count as repeats)."""
WAIT_S = 15.0


def missing_tools() -> list[str]:
    """What this machine lacks for the measurements (root, the tools); empty when all is there."""
    missing = [] if hasattr(os, "geteuid") and os.geteuid() == 0 else ["root"]
    return missing + [tool for tool in TOOLS if shutil.which(tool) is None]


def _run(*cmd: str) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip() or done.returncode}")


# -- file systems -------------------------------------------------------------------------------------


@contextlib.contextmanager
def ext4(image: Path, where: Path, size_mib: int = 16, options: str = "errors=remount-ro") -> Iterator[Path]:
    """A fresh ext4 image of ``size_mib`` MiB mounted at ``where`` through a loop device, unmounted
    (thawed first) when the block ends."""
    with open(image, "wb") as out:
        out.truncate(size_mib << 20)
    _run("mkfs.ext4", "-q", "-F", str(image))
    where.mkdir(parents=True, exist_ok=True)
    mount_ext4(image, where, options)
    try:
        yield where
    finally:
        unmount(where)


def mount_ext4(image: Path, where: Path, options: str = "errors=remount-ro") -> None:
    """Mount ``image`` at ``where`` (a loop device, released at unmount)."""
    _run("mount", "-o", f"loop,{options}", str(image), str(where))


def unmount(where: Path) -> None:
    """Thaw and unmount ``where`` (lazily when busy); never raises."""
    subprocess.run(["fsfreeze", "-u", str(where)], capture_output=True, check=False)
    if subprocess.run(["umount", str(where)], capture_output=True, check=False).returncode != 0:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "512k") -> Iterator[Path]:
    """A tmpfs of ``size`` at ``where`` for the block."""
    where.mkdir(parents=True, exist_ok=True)
    _run("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where))
    try:
        yield where
    finally:
        unmount(where)


@contextlib.contextmanager
def frozen(where: Path) -> Iterator[None]:
    """``fsfreeze -f`` for the block: every write to the file system blocks until it is thawed."""
    _run("fsfreeze", "-f", str(where))
    try:
        yield
    finally:
        _run("fsfreeze", "-u", str(where))


def fail_ext4(where: Path) -> None:
    """An injected ext4 error: mounted ``errors=remount-ro``, the file system turns read-only."""
    source = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(where)], capture_output=True, text=True,
                            check=True).stdout.strip()
    Path(f"/sys/fs/ext4/{Path(source).name}/trigger_fs_error").write_text("1\n")
    deadline = time.monotonic() + 5
    while "ro" not in _options(where) and time.monotonic() < deadline:
        time.sleep(0.05)


def _options(where: Path) -> list[str]:
    out = subprocess.run(["findmnt", "-n", "-o", "OPTIONS", str(where)], capture_output=True, text=True,
                         check=False).stdout
    return out.strip().split(",")


def fill(folder: Path) -> Path:
    """A junk file in ``folder`` until its file system has not a byte left."""
    junk = folder / "junk"
    fd = os.open(junk, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        chunk = 1 << 16
        while chunk:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                chunk //= 2
    finally:
        os.close(fd)
    return junk


# -- the kiosk ----------------------------------------------------------------------------------------


class Pings:
    """A ``NOTIFY_SOCKET`` of our own: when each ``WATCHDOG=1`` came."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.times: list[float] = []
        self.ready = threading.Event()
        self._stop = False
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            if b"WATCHDOG=1" in data.split(b"\n"):
                self.times.append(time.monotonic())
            if b"READY=1" in data.split(b"\n"):
                self.ready.set()

    def longest_gap(self, since: float, until: float) -> float:
        """The longest time without a ping in [since, until]."""
        marks = [since, *[t for t in self.times if since < t < until], until]
        return max(b - a for a, b in itertools.pairwise(marks))

    def close(self) -> None:
        self._stop = True
        self.sock.close()


def player(journal: Path, runtime: Path | None, seed: int, pace_s: float, bank_s: int) -> int:
    """The child: the kiosk's app as ``python -m kiosk`` builds it (the keeper, its fault log in
    ``runtime``, None: commits on the frame loop as before issue 26; systemd's notifier from the
    environment), played by computer players through taps and buttons, one decision every
    ``pace_s`` (0: nobody plays). Prints ``resumed`` once, then an ``ack`` line for every row once
    a frame has shown it, and ``beat`` lines (the longest frame-loop gap so far) every second."""
    import hashlib
    import random
    from dataclasses import replace

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from hardware.ptyboard import PtyBoard
    from kiosk.__main__ import boot_id
    from kiosk.app import App
    from kiosk.config import KioskConfig, MatchSettings
    from kiosk.devtools.soak import Player, SoakReport
    from kiosk.sdnotify import Notifier
    from kiosk.store.keeper import JournalKeeper
    from kiosk.store.runlog import RunLog, log_name
    from kiosk.timesource import MonotonicClock

    def emit(kind: str, value: object) -> None:
        sys.stdout.write(json.dumps({kind: value}) + "\n")
        sys.stdout.flush()

    clock = MonotonicClock()
    boot = boot_id()
    runlog = RunLog.open([runtime], boot, log_name(journal)) if runtime is not None else None
    keeper = JournalKeeper.open(journal, boot, clock.now(), runlog=runlog)
    config = replace(KioskConfig(), match=replace(MatchSettings(), handover=False, bank_seconds=bank_s))
    app = App(config, clock=clock, size=(800, 480), hardware_backend="mock", keeper=keeper, boot_id=boot,
              rng=random.Random(seed), notifier=Notifier.from_environment(unset=True), simulator=True)
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    session = app.session
    emit("resumed", None if session is None else {"message": str(session.messages[-1].text)
                                                   if getattr(session, "messages", None) else None,
                                                   "over": session.match.is_over})
    bot = Player(app, PtyBoard(None), random.Random(seed), SoakReport())
    shown: dict[int, int] = {}
    last_frame = time.monotonic()
    longest = 0.0
    next_act = next_beat = time.monotonic()
    try:
        while app.running:
            app.step()
            now = time.monotonic()
            longest, last_frame = max(longest, now - last_frame), now
            recorder = keeper.current
            if recorder is not None:
                done = shown.get(id(recorder), 0)
                for row in recorder.rows[done:]:
                    emit("ack", {"sha": hashlib.sha256(row.snapshot.encode()).hexdigest(), "do": row.step.get("do")})
                shown[id(recorder)] = len(recorder.rows)
            if pace_s > 0 and now >= next_act:
                next_act = now + pace_s
                bot.act()
            if now >= next_beat:
                next_beat = now + 1.0
                emit("beat", {"longest_gap_s": round(longest, 3), "saving": str(app.ui.saving or "")})
    finally:
        app.close()
        keeper.close()
    return 0


class Child:
    """A ``player`` child process, its stdout read on a thread, its watchdog pings on our socket."""

    def __init__(self, work: Path, journal: Path, runtime: Path | None, *, tag: str, seed: int = 1,
                 pace_s: float = 0.3, bank_s: int = 300, root: Path | None = None) -> None:
        self.pings = Pings(work / f"notify-{tag}.sock")
        code = root or Path(__file__).resolve().parents[2]
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WATCHDOG_PID")}
        env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", NOTIFY_SOCKET=str(self.pings.path),
                   WATCHDOG_USEC=str(WATCHDOG_USEC), PYTHONPATH=str(code))
        cmd = [sys.executable, "-m", "kiosk.devtools.storage_faults", "player", "--journal", str(journal),
               "--seed", str(seed), "--pace", str(pace_s), "--bank", str(bank_s)]
        if runtime is not None:
            cmd += ["--runtime-dir", str(runtime)]
        self.err_path = work / f"child-{tag}.stderr"
        with open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(cmd, cwd=code, env=env, stdout=subprocess.PIPE, stderr=err,
                                         stdin=subprocess.DEVNULL)
        self.acks: list[dict[str, Any]] = []
        self.beats: list[dict[str, Any]] = []
        self.resumed: dict[str, Any] | None = None
        self.started = time.monotonic()
        self._up = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if "ack" in line:
                self.acks.append({**line["ack"], "at": time.monotonic()})
            elif "beat" in line:
                self.beats.append(line["beat"])
            elif "resumed" in line:
                self.resumed = line["resumed"]
                self._up.set()

    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")

    def up(self, timeout: float = 60) -> None:
        if not self._up.wait(timeout):
            raise RuntimeError(f"the child did not start:\n{self.stderr()[-3000:]}")

    def until_acks(self, count: int, timeout: float = 60) -> None:
        """Wait until ``count`` rows were shown in all."""
        deadline = time.monotonic() + timeout
        while len(self.acks) < count:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"only {len(self.acks)} rows shown, wanted {count}:\n{self.stderr()[-3000:]}")
            time.sleep(0.05)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.close()

    def close(self) -> None:
        self._reader.join(timeout=5)
        self.pings.close()


def stored(journal: Path) -> tuple[set[str], list[dict[str, Any]]]:
    """Every row's snapshot digest in the journal, and the newest match's steps (with their snapshots)."""
    from kiosk.store.journal import Journal

    with Journal.open(journal) as opened:
        records = sorted(opened.matches(), key=lambda r: r.id)
        shas: set[str] = set()
        steps: list[dict[str, Any]] = []
        for record in records:
            rows = opened.commands(record.id)
            shas.update(e.snapshot_sha for e in rows if e.intact)
            steps = [{**e.step, "_snapshot": e.snapshot, "_arrival": e.arrival_ns} for e in rows]
        return shas, steps


def aborted(steps: list[dict[str, Any]]) -> bool:
    """Whether the newest match was aborted (a stall, an unprovable restart)."""
    return any(r.get("do") == "abort" or (r.get("do") == "restart" and "reason" in r) for r in steps)


# -- the measurements ---------------------------------------------------------------------------------


@dataclass
class FreezeResult:
    seconds: float
    shown_during: int
    lost: int
    longest_ping_gap_s: float
    longest_frame_gap_s: float
    aborted: bool
    exit_status: int | None = None

    @property
    def ok(self) -> bool:
        return (not self.aborted and not self.lost and self.exit_status == 0
                and self.longest_ping_gap_s < WATCHDOG_USEC / 1e6 and self.shown_during > 0)


def freeze(durations: Sequence[float], work: Path, *, legacy: bool = False,
           log: Callable[[str], None] = lambda s: None) -> list[FreezeResult]:
    """Each duration: a fresh child on a fresh ext4 image, playing; the file system frozen meanwhile.
    ``legacy``: no fault log (commits on the frame loop, as before issue 26)."""
    results = []
    for n, seconds in enumerate(durations):
        here = work / f"freeze-{n}"
        here.mkdir(parents=True)
        with ext4(here / "card.img", here / "card") as card:
            journal = card / "journal.sqlite3"
            child = Child(here, journal, None if legacy else here / "run", tag=str(n), seed=n + 1)
            try:
                child.up()
                child.until_acks(4)  # a match begun and played: a clock runs
                before = len(child.acks)
                with frozen(card):
                    t0 = time.monotonic()
                    time.sleep(seconds)
                during = len([a for a in child.acks[before:] if a["at"] <= t0 + seconds])
                time.sleep(2.0)  # the writer's commits go through; a stall abort would come now
                gap = child.pings.longest_gap(child.started + 5, time.monotonic())
                frame_gap = max((b["longest_gap_s"] for b in child.beats), default=0.0)
                status = child.stop()
            finally:
                child.kill()
            shas, steps = stored(journal)
            lost = len([a for a in child.acks if a["sha"] not in shas])
            result = FreezeResult(seconds, during, lost, round(gap, 3), frame_gap, aborted(steps), status)
            log(f"freeze {seconds:g} s{' (legacy)' if legacy else ''}: {json.dumps(asdict(result))}")
            results.append(result)
    return results


@dataclass
class FaultKillResult:
    fault: str
    shown: int
    shown_in_fault: int
    resumed_on_failed_card: bool
    resumed_message: str | None
    lost: int
    aborted: bool
    restarts: list[dict[str, Any]]

    @property
    def ok(self) -> bool:
        return self.resumed_on_failed_card and not self.lost and not self.aborted and self.shown_in_fault > 0


def fault_kill(fault: str, work: Path, *, legacy: bool = False,
               log: Callable[[str], None] = lambda s: None) -> FaultKillResult:
    """Play, fail the card, play on, SIGKILL, restart on the failed card, repair, restart (module doc)."""
    here = work / f"fault-{fault}"
    here.mkdir(parents=True)
    runtime = None if legacy else here / "run"
    image, card = here / "card.img", here / "card"
    with contextlib.ExitStack() as stack:
        stack.enter_context(ext4(image, card) if fault == "readonly" else tmpfs(card))
        stack.callback(unmount, card)
        journal = card / "journal.sqlite3"
        child = Child(here, journal, runtime, tag="1")
        try:
            child.up()
            child.until_acks(5)
            time.sleep(0.5)
            junk = None
            if fault == "readonly":
                fail_ext4(card)
            else:
                junk = fill(card)
            before = len(child.acks)
            child.until_acks(before + 6)
            time.sleep(0.3)
            in_fault = len(child.acks) - before
            child.kill()
            acks = list(child.acks)
            child = Child(here, journal, runtime, tag="2", pace_s=0)
            child.up()
            resumed = child.resumed
            time.sleep(1.0)
            child.stop()
            if fault == "readonly":  # the repair: checked, mounted again
                unmount(card)
                subprocess.run(["e2fsck", "-fy", str(image)], capture_output=True, check=False)
                mount_ext4(image, card)
            elif junk is not None:
                junk.unlink()
            child = Child(here, journal, runtime, tag="3", pace_s=0)
            child.up()
            time.sleep(1.5)
            child.stop()
        finally:
            child.kill()
        shas, steps = stored(journal)
    lost = len([a for a in acks if a["sha"] not in shas])
    restarts = [{k: v for k, v in r.items() if not k.startswith("_")} for r in steps if r.get("do") == "restart"]
    result = FaultKillResult(fault, len(acks), in_fault, resumed is not None and not resumed.get("over", True),
                             None if resumed is None else resumed.get("message"), lost, aborted(steps), restarts)
    log(f"fault-kill {fault}{' (legacy)' if legacy else ''}: {json.dumps(asdict(result))}")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """``freeze`` or ``fault-kill``: print the figures; exit 1 when a check failed."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.storage_faults",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("freeze", help="freeze the journal's file system while a clock runs")
    f.add_argument("--seconds", type=float, nargs="+", default=[1, 3, 5, 15, 60])
    k = sub.add_parser("fault-kill", help="a storage fault, then SIGKILL, then a restart on the failed card")
    k.add_argument("--fault", choices=("readonly", "full"), default="readonly")
    for p in (f, k):
        p.add_argument("--legacy", action="store_true", help="no fault log: commits on the frame loop (as before)")
    c = sub.add_parser("player", help="(the child) the kiosk's app played by computer players")
    c.add_argument("--journal", type=Path, required=True)
    c.add_argument("--runtime-dir", type=Path, default=None)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--pace", type=float, default=0.3)
    c.add_argument("--bank", type=int, default=300)
    args = parser.parse_args(argv)
    if args.command == "player":
        return player(args.journal, args.runtime_dir, args.seed, args.pace, args.bank)
    missing = missing_tools()
    if missing:
        print(f"storage_faults needs: {', '.join(missing)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="storage-faults-") as tmp:
        if args.command == "freeze":
            ok = all(r.ok for r in freeze(args.seconds, Path(tmp), legacy=args.legacy, log=print))
        else:
            ok = fault_kill(args.fault, Path(tmp), legacy=args.legacy, log=print).ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
