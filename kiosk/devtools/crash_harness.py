"""Crash harness: random matches in a child process, SIGKILLed at random points, then resumed.

``python -m kiosk.devtools.crash_harness bench [--kills 200] [--seed 1]`` runs the harness and prints the
figures; ``python -m kiosk.devtools.crash_harness child --db PATH --seed N --boot-id B --now-ns T`` is the
child it starts.

The child plays random legal commands through a real ``GameSession`` (automatic passes included)
into the journal, exactly as the kiosk does (``RecordingMatch`` + ``MatchRecorder.sync``), and
prints one JSON line per committed batch (``ack``) only after the commit returned.

**Time base.** The child never reads a clock: its monotonic time starts at ``--now-ns`` and each
command arrives a seeded random gap later. The harness chooses the restart instant itself (the
last recorded arrival plus a random downtime of up to 30 s, or a fresh time base for a new boot)
and passes it to the next child, so the downtime check is exact: from the last good snapshot the
harness computes, with its own arithmetic, what the running player's bank must read at that
instant (``bank − max(0, T − t0 − delay)``, or a loss on time at ``t0 + delay + bank``) and
compares it with what the resumed child reports. With the real monotonic clock the downtime would
be the process restart time and only a range could be checked.

After each kill the harness checks that every acknowledged row is in the journal with the same
snapshot (SHA-256) — a missing or different one counts as a lost command — and that the match
resumes from at least the last acknowledged row. A row committed but not yet acknowledged when
the kill came is allowed (it was applied; the screen had not shown it yet) and counted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.store.journal import Journal

NS_PER_S = 1_000_000_000
BANK_S = 20
DELAY_S = 3
CHILD_TIMEOUT_S = 30.0


# ---------------------------------------------------------------------------------------- the child


def _emit(kind: str, value: Any) -> None:
    sys.stdout.write(json.dumps({kind: value}, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def child(db: str, seed: int, boot_id: str, now_ns: int, limit: int | None = None, runtime: str | None = None) -> int:
    """Resume the journal's unfinished match at ``now_ns`` and play random commands until killed.

    Everything goes through ``JournalKeeper`` as in the kiosk: ``open``, ``resume``, ``begin`` at
    each new match, ``sync`` after each command (which, after a finished match, also folds the log
    into the file and rotates the backups — so kills land there too). ``runtime``: the keeper keeps
    its fault log there and commits on its writer thread (as ``python -m kiosk``); an ``ack`` then
    means "in the fault log" (what the kiosk shows).
    """
    from engine import Resign
    from engine.snapshot import save_text
    from kiosk.config import MatchSettings
    from kiosk.store.keeper import JournalKeeper
    from kiosk.store.recorder import MatchRecorder, RecordingMatch
    from kiosk.table.session import GameSession, match_config

    rng = random.Random(seed)
    wall = lambda: 1_700_000_000.0 + now_ns / NS_PER_S  # noqa: E731 - a wall clock as fake as the monotonic one
    from kiosk.store.runlog import RunLog

    runlog = RunLog.open([Path(runtime)], boot_id) if runtime is not None else None
    keeper = JournalKeeper.open(db, boot_id, now_ns, wall_clock=wall, runlog=runlog)
    players = keeper.players
    if players is None or not keeper.state.saving:
        raise RuntimeError(f"the journal did not open: {keeper.state.problem}")
    named = [players.find(n) or players.create(n) for n in ("Ann", "Bo")]

    resumed = keeper.resume(now_ns)
    session: GameSession | None = None
    recorder: MatchRecorder | None = None
    if resumed is None:
        _emit("resumed", None)
    else:
        m = resumed.match
        o = m.outcome
        _emit("resumed", {
            "match": resumed.match_id, "seq": resumed.seq, "phase": m.phase.value, "round": m.round,
            "running": m.clock_running, "banks": [m.bank_ns(p, now_ns) for p in (0, 1)],
            "balances": list(m.balances),
            "outcome": None if o is None else {"winner": o.winner, "reason": o.reason.value, "rated": o.rated},
            "message": resumed.message, "next_seq": resumed.recorder.next_seq,
        })
        if not m.is_over:
            session = GameSession(MatchSettings(), rng, boot_id=boot_id)
            session.match = m
            recorder = resumed.recorder

    def sync() -> None:
        """Commit through the keeper; an ``ack`` line once new rows are on disk."""
        assert recorder is not None and session is not None
        if runlog is not None:  # in the fault log once sync returns: acknowledged
            keeper.sync(session.match, now)
            n = len(recorder.rows)
            if n > shown[0]:
                shown[0] = n
                _emit("ack", {"match": recorder.created_wall, "seq": recorder.first_seq + n - 1,
                              "sha": hashlib.sha256(save_text(session.match).encode()).hexdigest(), "t": now})
            return
        before = recorder.next_seq
        state = keeper.sync(session.match, now)
        if not state.saving or state.unsaved:
            raise RuntimeError(f"the journal refused a commit: {state.problem}")
        if recorder.next_seq > before:
            _emit("ack", {"match": recorder.match_id, "seq": recorder.next_seq - 1,
                          "sha": hashlib.sha256(save_text(session.match).encode()).hexdigest(), "t": now})

    now = now_ns
    done = 0
    shown = [len(recorder.rows) if recorder is not None else 0]
    while limit is None or done < limit:
        if session is None or session.match.is_over:
            settings = MatchSettings(handover=rng.random() < 0.5, bank_seconds=BANK_S, delay_seconds=DELAY_S,
                                     balances=rng.choice((30, 40, 60)))
            seats = rng.choice(((None, None), (named[0].id, named[1].id), (named[1].id, named[0].id),
                                (named[0].id, None)))
            session = GameSession(settings, rng, boot_id=boot_id)
            session.match = keeper.begin(match_config(settings), seats, now)
            recorder = keeper.current
            assert recorder is not None and (recorder.match_id is not None or runlog is not None)
            shown[0] = 0
            _emit("begin", {"match": recorder.match_id})
        assert recorder is not None and isinstance(session.match, RecordingMatch)
        r = rng.random()
        now += 0 if r < 0.15 else rng.randrange(0, (DELAY_S + 2) * NS_PER_S)
        session.tick(now)
        if session.match.is_over:
            sync()
            continue
        if rng.random() < 0.004:
            action: Any = Resign(rng.randrange(2))
        else:
            action = rng.choice(session.match.legal_actions())
        if not session.command(action, now):
            raise AssertionError(f"a legal action was refused: {action!r}")
        sync()
        done += 1
    keeper.close()
    return 0


# ---------------------------------------------------------------------------------------- the harness


@dataclass
class HarnessReport:
    """What a harness run did and found. ``lost`` and ``resume_mismatches`` must be 0."""

    kills: int = 0
    acked: int = 0
    """Acknowledged commits (batches) read from the children."""
    lost: int = 0
    """Acknowledged rows missing from the journal or different from what was acknowledged."""
    resume_mismatches: int = 0
    """Resumes whose state did not match the harness's own expectation."""
    committed_unacked: int = 0
    """Kills that landed between a commit and its acknowledgement (allowed)."""
    resumed: int = 0
    downtime_charged: int = 0
    """Same-boot resumes with a running clock whose bank was checked to the nanosecond."""
    lost_on_time_while_down: int = 0
    aborted_other_boot: int = 0
    continued_other_boot: int = 0
    matches: int = 0
    exported: int = 0
    """Finished matches exported to a scenario and replayed to the stored final state."""
    export_mismatches: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing acknowledged was lost and every check held."""
        return not (self.lost or self.resume_mismatches or self.export_mismatches or self.problems)

    def summary(self) -> str:
        """The figures on one line."""
        return (
            f"kills {self.kills}, acknowledged commits {self.acked}, lost commands {self.lost}, "
            f"resume mismatches {self.resume_mismatches}, committed-unacknowledged {self.committed_unacked}, "
            f"downtime charged {self.downtime_charged}, lost on time while down {self.lost_on_time_while_down}, "
            f"other boot: aborted {self.aborted_other_boot} / continued {self.continued_other_boot}, "
            f"matches {self.matches}, exported+replayed {self.exported} (mismatches {self.export_mismatches}), "
            f"{self.seconds:.1f} s"
        )


def _expectation(snapshot: str | None, seq: int, boot_same: bool, now_ns: int) -> dict[str, Any]:
    """What the resumed child must report, computed from the snapshot's clock fields alone."""
    if snapshot is None:
        return {"other_boot": not boot_same, "seq": seq, "phase": "ready", "running": None, "outcome": None, "kind": "not_started"}
    data = json.loads(snapshot)
    clock = data["clock"]
    banks = list(clock["bank_ns"])
    running = clock["running"]
    base = {"other_boot": not boot_same, "seq": seq, "balances": data["balances"], "round": data["round"]}
    if data["outcome"] is not None:
        return {**base, "kind": "over"}
    if running is None:
        return {**base, "phase": data["phase"], "running": None, "banks": banks, "outcome": None,
                "kind": "stopped"}
    if not boot_same or now_ns < max(data["last_ns"] or 0, clock["started_ns"]):
        return {**base, "phase": "match_over", "running": None, "banks": banks,
                "outcome": {"winner": None, "reason": "aborted", "rated": False}, "kind": "aborted"}
    t0 = clock["started_ns"]
    delay = clock["delay_ns"]
    deadline = t0 + delay + banks[running]
    if now_ns >= deadline:
        banks[running] = 0
        return {**base, "phase": "match_over", "running": None, "banks": banks,
                "outcome": {"winner": 1 - running, "reason": "time", "rated": True}, "kind": "time"}
    banks[running] -= max(0, now_ns - t0 - delay)
    return {**base, "phase": data["phase"], "running": running, "banks": banks, "outcome": None,
            "kind": "charged"}


class _Lines:
    """Complete lines from a child's stdout, with a timeout."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.buf = b""
        self.sel = selectors.DefaultSelector()
        assert proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.sel.register(self.fd, selectors.EVENT_READ)
        self.eof = False

    def next(self, timeout_s: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self.buf:
            if self.eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0 or not self.sel.select(left):
                raise TimeoutError("the child printed nothing in time")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
                continue
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        value: dict[str, Any] = json.loads(line)
        return value

    def rest(self) -> list[dict[str, Any]]:
        """Every complete line left after the child died (a torn last line is dropped)."""
        while not self.eof:
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
            self.buf += chunk
        *lines, _torn = self.buf.split(b"\n")
        self.buf = b""
        self.sel.close()
        return [json.loads(x) for x in lines if x]


def run_harness(kills: int, *, seed: int = 1, workdir: str | os.PathLike[str] | None = None,
                other_boot: float = 0.12, max_acks: int = 25, fault_log: bool = False,
                log: Callable[[str], None] | None = None) -> HarnessReport:
    """Kill ``kills`` children at random points and check every restart (see the module doc).
    ``fault_log``: the children keep a fault log and commit on a writer thread; after each kill the
    log is folded into the journal (as the next start does) before the checks, and an
    acknowledged row is one the fault log held."""
    from kiosk.store.audit import replays_as_recorded
    from kiosk.store.journal import Journal

    started = time.monotonic()
    rng = random.Random(seed)
    report = HarnessReport()
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="crash-harness-")
        workdir = tmp.name
    db = str(Path(workdir) / "journal.sqlite3")
    runtime = str(Path(workdir) / "run") if fault_log else None
    acked: dict[tuple[int, int], str] = {}
    last_ack: dict[int, int] = {}
    boot = "boot-0"
    now = 1_000 * NS_PER_S
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]),
                                                       env.get("PYTHONPATH", "")]))
    try:
        for cycle in range(kills + 1):
            expectation: dict[str, Any] | None = None
            if cycle:
                if runtime is not None:
                    with Journal.open(db) as journal:
                        _check_warnings(journal, report)
                    _fold(db, runtime, boot)
                with Journal.open(db) as journal:
                    if runtime is None:
                        _check_warnings(journal, report)
                        _check_acks(journal, acked, report)
                    else:
                        _check_shas(journal, acked, report)
                    point = journal.unfinished()
                    latest = _latest_arrival(journal, boot)
                if rng.random() < other_boot:
                    boot = f"boot-{cycle}"
                    now = rng.randrange(1, 100) * NS_PER_S
                else:
                    now = max(now, latest) + rng.choice((0, rng.randrange(0, 30 * NS_PER_S)))
                if point is not None:
                    same = point.boot_id in (None, boot)
                    if runtime is not None:
                        pass  # the acks name no journal ids: every acknowledged snapshot was checked above
                    elif point.seq < last_ack.get(point.match_id, 0):
                        report.lost += 1
                        report.problems.append(f"match {point.match_id} resumes at row {point.seq}, "
                                               f"acknowledged {last_ack[point.match_id]}")
                    elif point.seq > last_ack.get(point.match_id, 0):
                        report.committed_unacked += 1
                    expectation = _expectation(point.snapshot, point.seq, same, now)
            proc = subprocess.Popen(
                [sys.executable, "-m", "kiosk.devtools.crash_harness", "child", "--db", db, "--seed",
                 str(rng.randrange(2**32)), "--boot-id", boot, "--now-ns", str(now),
                 *(["--runtime-dir", runtime] if runtime is not None else [])],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            )
            lines = _Lines(proc)
            try:
                first = lines.next(CHILD_TIMEOUT_S)
                if first is None or "resumed" not in first:
                    raise RuntimeError(f"the child did not start: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
                _check_resume(first["resumed"], expectation, report)
                if cycle == kills:
                    proc.kill()
                    proc.wait()
                    lines.rest()
                    break
                want = rng.randint(1, max_acks)
                seen = 0
                while seen < want:
                    line = lines.next(CHILD_TIMEOUT_S)
                    if line is None:
                        raise RuntimeError(f"the child died: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
                    seen += _take(line, acked, last_ack, report)
            except BaseException:
                proc.kill()
                proc.wait()
                raise
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            for line in lines.rest():
                _take(line, acked, last_ack, report)
            proc.stdout.close()  # type: ignore[union-attr]
            proc.stderr.close()  # type: ignore[union-attr]
            report.kills += 1
            if log is not None and report.kills % 25 == 0:
                log(f"  {report.kills} kills, {report.acked} acknowledged commits, {report.lost} lost")
        if runtime is not None:
            _fold(db, runtime, boot)
        with Journal.open(db) as journal:
            if runtime is None:
                _check_acks(journal, acked, report)
            else:
                _check_shas(journal, acked, report)
            finished = journal.matches(finished=True)
            report.matches = len(journal.matches())
            for record in finished:
                agrees = replays_as_recorded(journal, record.id)
                if agrees is None:
                    continue
                if not agrees:
                    report.export_mismatches += 1
                    report.problems.append(f"match {record.id}: the exported scenario replays differently")
                report.exported += 1
    finally:
        if tmp is not None:
            tmp.cleanup()
    report.seconds = time.monotonic() - started
    return report


def _check_warnings(journal: Journal, report: HarnessReport) -> None:
    """Opening after a kill finds nothing to say: a torn last write is not damage (no file moved
    aside, no backup restored, no write-ahead log "repaired")."""
    for warning in journal.warnings:
        report.problems.append(f"opening after a kill warned: {warning}")


def _take(line: dict[str, Any], acked: dict[tuple[int, int], str], last_ack: dict[int, int],
          report: HarnessReport) -> int:
    if "ack" not in line:
        return 0
    a = line["ack"]
    acked[(a["match"], a["seq"])] = a["sha"]
    last_ack[a["match"]] = max(last_ack.get(a["match"], 0), a["seq"])
    report.acked += 1
    return 1


def _check_acks(journal: Journal, acked: dict[tuple[int, int], str], report: HarnessReport) -> None:
    """Every acknowledged row must be in the journal, intact, with the acknowledged snapshot."""
    by_match: dict[int, dict[int, Any]] = {}
    lost = 0
    for (match_id, seq), sha in acked.items():
        if match_id not in by_match:
            by_match[match_id] = {e.seq: e for e in journal.commands(match_id)}
        entry = by_match[match_id].get(seq)
        if entry is None or not entry.intact or entry.snapshot_sha != sha:
            lost += 1
            report.problems.append(f"acknowledged row {seq} of match {match_id} is missing or different")
    report.lost = max(report.lost, lost)


def _fold(db: str, runtime: str, boot: str) -> None:
    """What the next start does first: the fault log's rows written into the journal."""
    from kiosk.store.keeper import JournalKeeper
    from kiosk.store.runlog import RunLog

    keeper = JournalKeeper.open(db, boot, 0, runlog=RunLog.open([Path(runtime)], boot), threaded=False)
    keeper.take_notices()
    keeper.close()


def _check_shas(journal: Journal, acked: dict[tuple[int, int], str], report: HarnessReport) -> None:
    """Every acknowledged snapshot must be in the journal, intact."""
    stored = {e.snapshot_sha for record in journal.matches() for e in journal.commands(record.id) if e.intact}
    lost = 0
    for key, sha in acked.items():
        if sha not in stored:
            lost += 1
            report.problems.append(f"acknowledged row {key} is missing from the journal")
    report.lost = max(report.lost, lost)


def _latest_arrival(journal: Journal, boot: str) -> int:
    """The latest arrival recorded in ``boot`` (the restart instant must not be earlier)."""
    with journal.database.read() as conn:
        row = conn.execute("SELECT MAX(arrival_ns) FROM entries WHERE boot_id = ?", (boot,)).fetchone()
    return int(row[0] or 0)


def _check_resume(got: dict[str, Any] | None, want: dict[str, Any] | None, report: HarnessReport) -> None:
    if want is None or want["kind"] == "over":
        if got is not None and want is None:
            report.resume_mismatches += 1
            report.problems.append(f"a match was resumed where none was unfinished: {got}")
        return
    report.resumed += 1
    if got is None:
        report.resume_mismatches += 1
        report.problems.append(f"nothing was resumed; expected {want}")
        return
    keys = [k for k in ("seq", "phase", "running", "banks", "outcome", "balances", "round") if k in want]
    diff = {k: (want[k], got.get(k)) for k in keys if want[k] != got.get(k)}
    if diff:
        report.resume_mismatches += 1
        report.problems.append(f"resume differs ({want['kind']}): {diff}")
        return
    kind = want["kind"]
    if kind == "charged":
        report.downtime_charged += 1
    elif kind == "time":
        report.lost_on_time_while_down += 1
    elif kind == "aborted":
        report.aborted_other_boot += 1
    elif kind == "stopped" and want["other_boot"]:
        report.continued_other_boot += 1


# ---------------------------------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """``child`` (what the harness starts) or ``bench`` (run the harness, print the figures)."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.crash_harness", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("child", help="play random matches into the journal until killed")
    c.add_argument("--db", required=True)
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--boot-id", default="boot-0")
    c.add_argument("--now-ns", type=int, default=1_000 * NS_PER_S)
    c.add_argument("--limit", type=int, default=None, help="stop after this many commands")
    c.add_argument("--runtime-dir", default=None, help="keep a fault log there (commits on a writer thread)")
    b = sub.add_parser("bench", help="run the harness and print the figures")
    b.add_argument("--kills", type=int, default=200)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--dir", default=None, help="keep the journal in this folder (default: a temporary one)")
    b.add_argument("--json", action="store_true", help="print the report as JSON")
    b.add_argument("--fault-log", action="store_true",
                   help="the children keep a fault log and commit on a writer thread (as python -m kiosk)")
    args = parser.parse_args(argv)
    if args.command == "child":
        return child(args.db, args.seed, args.boot_id, args.now_ns, args.limit, args.runtime_dir)
    report = run_harness(args.kills, seed=args.seed, workdir=args.dir, fault_log=args.fault_log,
                         log=lambda s: print(s, flush=True))
    if args.json:
        print(json.dumps(asdict(report), indent=2))
    print(report.summary())
    for problem in report.problems[:20]:
        print("PROBLEM:", problem)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
