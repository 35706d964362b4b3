"""Damage trials on real journal files (issue 26): how much of the history survives, and what is said.

``python -m kiosk.devtools.journal_trials sectors [--trials 30] [--seed 1]``: a journal with a
finished match and one in progress (the files copied as a power cut leaves them), then, per trial,
a 4 KiB block of zeros or 0xFF written at a random offset of the write-ahead log that is not in its
last three frames. Each trial opens the damaged copy through the store and resumes its match;
printed: the acknowledged rows that came back (salvaged), the rows lost and whether the loss was
reported, and whether a resume from lost data gave a loss on time or a rated result.

``python -m kiosk.devtools.journal_trials flips [--trials 30] [--seed 1]``: three finished matches,
then per trial one byte of an ``entries`` row of a finished match flipped in the file; printed: how
many flips ``PRAGMA quick_check`` sees, how many the start-up row check finds, and how many rows it
repaired from a backup.

``python -m kiosk.devtools.journal_trials rowcheck [--trials 200]``: a synthetic journal of that
many finished matches of 110 rows each; printed: the rows and the time the start-up row check takes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import NS_PER_S, EndReason

FRAME = 24 + 4096
BLOCK = 4096


@dataclass
class Base:
    """A journal folder as a power cut left it, and what had been acknowledged in it."""

    folder: Path
    match_id: int
    acked: int
    """Rows of the match in progress acknowledged (committed) before the cut."""
    now_ns: int


def _play(folder: Path, finished: int, current_rows: int, seed: int) -> Base:
    from engine import Resign
    from kiosk.config import MatchSettings
    from kiosk.store.keeper import JournalKeeper
    from kiosk.table.session import GameSession, match_config

    rng = random.Random(seed)
    live = folder / "live"
    live.mkdir()
    wall = [1_700_000_000.0]

    def clock() -> float:
        wall[0] += 60.0
        return wall[0]

    keeper = JournalKeeper.open(live / "journal.sqlite3", "boot-a", 1000 * NS_PER_S, wall_clock=clock)
    players = keeper.players
    assert players is not None
    ann, bo = players.create("Ann"), players.create("Bo")
    now = 1000 * NS_PER_S
    done = 0
    while True:
        last = done >= finished
        settings = MatchSettings(handover=False, bank_seconds=600 if last else 20, delay_seconds=3,
                                 balances=150 if last else 40)
        session = GameSession(settings, rng, boot_id="boot-a")
        session.match = keeper.begin(match_config(settings), (ann.id, bo.id), now)
        recorder = keeper.current
        assert recorder is not None
        while not session.match.is_over and (not last or len(recorder.rows) < current_rows):
            now += rng.randrange(0, 2 * NS_PER_S)
            session.tick(now)
            if not session.match.is_over:
                action = Resign(rng.randrange(2)) if not last and rng.random() < 0.003 else rng.choice(
                    session.match.legal_actions())
                session.command(action, now)
            keeper.sync(session.match, now)
        now += NS_PER_S
        if not session.match.is_over:
            match_id, rows = recorder.match_id or 0, len(recorder.rows)
            break
        done += 1
    cut = folder / "cut"
    shutil.copytree(live, cut)  # the files as a power cut leaves them: the writer never closed
    keeper.close()
    shutil.rmtree(live)
    return Base(cut, match_id, rows, now)


def _entries(path: Path, match_id: int) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM entries WHERE match_id = ?", (match_id,)).fetchone()[0])
    finally:
        conn.close()


def sectors(trials: int, seed: int) -> dict[str, int]:
    """The 4 KiB block trials (see the module doc); the figures by name."""
    from kiosk.store.journal import Journal
    from kiosk.store.resume import resume

    rng = random.Random(seed)
    figures = dict(trials=0, salvaged_whole=0, lost_reported=0, lost_silently=0, rows_acked=0, rows_back=0,
                   resumed_on_time=0, resumed_rated=0, resumed_aborted=0, said_nothing_lost=0)
    with tempfile.TemporaryDirectory(prefix="journal-trials-") as tmp:
        base = _play(Path(tmp), 1, 60, seed)
        wal = base.folder / "journal.sqlite3-wal"
        size = wal.stat().st_size
        for n in range(trials):
            trial = Path(tmp) / f"t{n}"
            shutil.copytree(base.folder, trial)
            offset = rng.randrange(32, size - 3 * FRAME - BLOCK)
            fill = b"\0" if rng.random() < 0.5 else b"\xff"
            with open(trial / "journal.sqlite3-wal", "r+b") as f:
                f.seek(offset)
                f.write(fill * BLOCK)
            path = trial / "journal.sqlite3"
            with Journal.open(path) as j:
                reported = bool(j.warnings)
                resumed = resume(j, "boot-a", base.now_ns + 30 * NS_PER_S)
            back = _entries(path, base.match_id) - (1 if resumed is not None else 0)  # the restart row
            back = min(back, base.acked)
            figures["trials"] += 1
            figures["rows_acked"] += base.acked
            figures["rows_back"] += back
            if back >= base.acked:
                figures["salvaged_whole"] += 1
            elif reported:
                figures["lost_reported"] += 1
            else:
                figures["lost_silently"] += 1
            if resumed is not None and back < base.acked:
                o = resumed.match.outcome
                figures["resumed_on_time"] += int(o is not None and o.reason is EndReason.TIME)
                figures["resumed_rated"] += int(o is not None and o.rated)
                figures["resumed_aborted"] += int(resumed.aborted)
                figures["said_nothing_lost"] += int("nothing was lost" in str(resumed.message))
            shutil.rmtree(trial)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.journal_trials", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=("sectors", "flips", "rowcheck"))
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.kind == "sectors":
        figures = sectors(args.trials, args.seed)
    elif args.kind == "rowcheck":
        figures = rowcheck(args.trials)
    else:
        figures = flips(args.trials, args.seed)
    for name, value in figures.items():
        print(f"{name}: {value}")
    return 0


def flips(trials: int, seed: int) -> dict[str, int]:
    """The byte flip trials (see the module doc); the figures by name."""
    import time

    from kiosk.store import integrity
    from kiosk.store.journal import Journal

    rng = random.Random(seed)
    figures = dict(trials=0, quick_check_saw=0, row_check_found=0, repaired_from_backup=0, reported=0,
                   missed=0, check_ms_max=0)
    with tempfile.TemporaryDirectory(prefix="journal-trials-") as tmp:
        base = _play(Path(tmp), 3, 5, seed)
        path = base.folder / "journal.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        steps = [str(r[0]) for r in conn.execute(
            "SELECT e.step FROM entries e JOIN matches m ON m.id = e.match_id WHERE m.finished = 1")]
        conn.close()
        raw = path.read_bytes()
        for n in range(trials):
            trial = Path(tmp) / f"t{n}"
            shutil.copytree(base.folder, trial)
            while True:
                step = rng.choice(steps).encode()
                at = raw.find(step)
                if at >= 0 and raw.find(step, at + 1) < 0:
                    break
            offset = at + rng.randrange(len(step))
            target = trial / "journal.sqlite3"
            data = bytearray(target.read_bytes())
            data[offset] ^= 1 << rng.randrange(8)
            target.write_bytes(bytes(data))
            check = sqlite3.connect(target)
            figures["quick_check_saw"] += int([r[0] for r in check.execute("PRAGMA quick_check")] != ["ok"])
            check.close()
            start = time.perf_counter()
            with Journal.open(target, check=False) as j:
                found = integrity.check_rows(j.database)
                figures["check_ms_max"] = max(figures["check_ms_max"], round((time.perf_counter() - start) * 1000))
                figures["row_check_found"] += int(bool(found.damaged))
                figures["repaired_from_backup"] += int(bool(found.damaged) and len(found.repaired) == len(found.damaged))
                figures["reported"] += int(integrity.report(found) is not None)
                figures["missed"] += int(not found.damaged)
            figures["trials"] += 1
            shutil.rmtree(trial)
    return figures


def rowcheck(matches: int) -> dict[str, int]:
    """The row check's time on a synthetic journal of ``matches`` finished matches (see the module doc)."""
    import time

    from engine import MatchConfig
    from kiosk.store import integrity
    from kiosk.store.journal import Journal
    from kiosk.store.records import Entry, entry_row

    with tempfile.TemporaryDirectory(prefix="journal-trials-") as tmp:
        path = Path(tmp) / "journal.sqlite3"
        with Journal.open(path) as j, j.database.transaction() as conn:
            for _ in range(matches):
                mid = j.begin_match(MatchConfig())
                rows = [entry_row(mid, s + 1, Entry({"do": "play", "t": s, "player": s % 2, "tile": [3, 4]},
                                                    "{}" if s == 109 else "", s, "boot-a", 1.0)) for s in range(110)]
                conn.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
                conn.execute("UPDATE matches SET finished = 1 WHERE id = ?", (mid,))
        with Journal.open(path, check=False) as j:
            start = time.perf_counter()
            found = integrity.check_rows(j.database)
            took = time.perf_counter() - start
        return dict(matches=matches, rows=found.checked, mb=round(path.stat().st_size / 1e6),
                    check_ms=round(took * 1000), us_per_row=round(took * 1e6 / max(found.checked, 1)))


if __name__ == "__main__":
    raise SystemExit(main())
