"""A club event's match kept only in the fault log (issue 25 with issue 26's faults): begun while the
journal could not be opened, the process dies; the next start enters it from the log with its pairing
and berserk seats, so its upload still names the pairing."""

from __future__ import annotations

import random
from pathlib import Path

from journal_support import S, Table, Wall, play_until

from engine import NS_PER_S, MatchConfig
from kiosk.config import MatchSettings
from kiosk.store.event_schema import EventLink
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.runlog import RunLog
from kiosk.table.session import GameSession

PAIRING = "0192dddd-0000-7000-8000-000000000001"


def open_keeper(path: Path, logs: Path, now: int) -> JournalKeeper:
    runlog = RunLog.open([logs], "boot-a")
    assert runlog is not None
    return JournalKeeper.open(path, "boot-a", now, wall_clock=Wall(), runlog=runlog)


def test_an_event_match_only_in_the_fault_log_is_entered_later_with_its_pairing(tmp_path: Path) -> None:
    path, logs = tmp_path / "journal.sqlite3", tmp_path / "run"
    Journal.open(path).close()
    config = MatchConfig(balances=(40, 40), bank_ns=(60 * NS_PER_S, 30 * NS_PER_S), delay_ns=3 * NS_PER_S,
                         handover=False)
    blocker = Journal.open(path)  # another holder: this start cannot open its journal
    try:
        keeper = open_keeper(path, logs, 1000 * S)
        assert keeper.journal is None
        session = GameSession(MatchSettings(handover=False), random.Random(4), boot_id="boot-a")
        session.match = keeper.begin(config, (None, None), 1000 * S, event=EventLink(PAIRING, (1,)))
        recorder = keeper.current
        assert recorder is not None
        table = Table(session, recorder, 1000 * S, random.Random(4), keeper)
        play_until(table, lambda m: len(recorder.rows) >= 3 and m.clock_running is not None)
        assert keeper.journal is None  # the process dies with the match in the log only
        if keeper.writer is not None:
            keeper.writer.stop(5)
    finally:
        blocker.close()
    assert keeper.journal is None
    again = open_keeper(path, logs, 1100 * S)
    resumed = again.resume(1100 * S)
    assert resumed is not None
    again.sync(resumed.match, 1101 * S)
    assert again.journal is not None
    with again.journal.database.read() as conn:
        assert conn.execute("SELECT event_pairing, berserk, config FROM matches").fetchone()[:2] == (PAIRING, "[1]")
    again.close()
