"""Every store call the kiosk makes, under real storage faults, raises only the store's own errors
(each with a message value), never a raw ``sqlite3`` or ``OSError`` — the defect behind the
outside tester's crash loops."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from journal_support import S, damage_table_page, new_table, play_until, read_only_storage

from engine import EndReason, MatchConfig, Outcome
from kiosk.i18n import Text
from kiosk.store.audit import replay_states
from kiosk.store.errors import KioskStoreError, StoreDamaged, StoreUnavailable
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.recorder import new_recorded_match
from kiosk.store.resume import resume

Call = Callable[[Journal, dict[str, int]], Any]

CALLS: dict[str, Call] = {
    "begin_match": lambda j, ids: j.begin_match(MatchConfig(), (ids["ann"], None)),
    "new_recorded_match": lambda j, ids: new_recorded_match(j, MatchConfig(), (None, None), "boot-a"),
    "record": lambda j, ids: j.record(ids["open"], ids["next"], {"do": "tick"}, "snapshot", 1, "boot-a", 1.0),
    "finish": lambda j, ids: j.finish(ids["open"], Outcome(0, EndReason.RESIGN, True)),
    "resume": lambda j, ids: resume(j, "boot-a", ids["now"]),
    "unfinished": lambda j, ids: j.unfinished(),
    "commands": lambda j, ids: j.commands(ids["done"]),
    "matches": lambda j, ids: j.matches(player_id=ids["ann"]),
    "players.create": lambda j, ids: Players(j).create("Cy"),
    "players.rename": lambda j, ids: Players(j).rename(ids["ann"], "Anna"),
    "players.list": lambda j, ids: Players(j).list(),
    "players.leaderboard": lambda j, ids: Players(j).leaderboard(),
    "players.history": lambda j, ids: Players(j).history(ids["ann"]),
    "replay": lambda j, ids: list(replay_states(j, ids["done"])),
    "export": lambda j, ids: j.export_scenario(ids["done"]),
    "after_finish": lambda j, ids: j.after_finish(),
}
WRITES = {"begin_match", "new_recorded_match", "record", "finish", "players.create", "players.rename"}
"""Calls that must write (and so fail on read-only storage). ``resume`` keeps its restart row
pending instead (``Resumed.saved`` False): the resumed match is not lost for want of a write."""
READS_ENTRIES = {"record", "finish", "resume", "unfinished", "commands", "replay", "export"}
"""Calls that read the journal's rows (and so meet a damaged ``entries`` page)."""
READS_PLAYERS = {"begin_match", "players.create", "players.rename", "players.list", "players.leaderboard",
                 "players.history"}
"""Calls that read the players (and so meet a damaged ``players`` page)."""


def _journal(tmp_path: Path) -> tuple[Journal, dict[str, int]]:
    j = Journal.open(tmp_path / "journal.sqlite3")
    players = Players(j)
    ann, bo = players.create("Ann"), players.create("Bo")
    done = new_table(j, seed=1, players=(ann.id, bo.id))
    play_until(done, lambda m: False)
    open_match = new_table(j, seed=2, now=done.now + S, balances=150, bank_s=600)
    play_until(open_match, lambda m: len(open_match.recorder.rows) >= 4 and m.clock_running is None)
    assert not open_match.match.is_over
    j.database.connection.execute("SELECT COUNT(*) FROM entries").fetchone()  # the log is open
    return j, {"ann": ann.id, "done": done.recorder.match_id, "open": open_match.recorder.match_id,
               "next": open_match.recorder.next_seq, "now": open_match.now + S}


def _outcome(call: Call, j: Journal, ids: dict[str, int]) -> KioskStoreError | None:
    try:
        call(j, ids)
    except KioskStoreError as exc:
        assert isinstance(exc.text, Text) and isinstance(exc.why, Text) and str(exc)
        return exc
    return None


@pytest.mark.parametrize("name", list(CALLS))
def test_on_a_card_turned_read_only_writes_fail_as_store_errors_and_reads_work(tmp_path: Path, name: str) -> None:
    j, ids = _journal(tmp_path)
    with read_only_storage(j.path):
        error = _outcome(CALLS[name], j, ids)
        if name == "resume":
            resumed = CALLS[name](j, ids)
            assert resumed is not None and not resumed.saved and resumed.recorder.pending[-1].step["do"] == "restart"
    if name in WRITES:
        assert isinstance(error, StoreUnavailable) and isinstance(error, OSError)
        assert isinstance(error.__cause__, sqlite3.OperationalError)
        assert error.__cause__.sqlite_errorname == "SQLITE_IOERR_WRITE"
        assert error.why.msgid == "the storage reported an input/output error"
    elif name != "after_finish":  # a backup may or may not need a write to fail: never raises either way
        assert error is None, error
    j.close()


@pytest.mark.parametrize("table", ["entries", "players"])
@pytest.mark.parametrize("name", list(CALLS))
def test_a_damaged_page_met_by_any_call_is_a_store_error_that_asks_for_recovery(tmp_path: Path, name: str,
                                                                              table: str) -> None:
    j, ids = _journal(tmp_path)
    damage_table_page(j, table)
    error = _outcome(CALLS[name], j, ids)
    if name in (READS_ENTRIES if table == "entries" else READS_PLAYERS):
        assert isinstance(error, StoreDamaged) and isinstance(error, ValueError)
        assert isinstance(error.__cause__, sqlite3.DatabaseError)
        assert j.database.damage == "database disk image is malformed"
    assert error is None or isinstance(error, StoreDamaged), error
    j.close()


def test_recover_puts_a_good_file_under_the_same_journal(tmp_path: Path) -> None:
    j, ids = _journal(tmp_path)
    players = Players(j)  # held across the recovery, as the player screens hold theirs
    damage_table_page(j, "players")
    with pytest.raises(StoreDamaged):
        players.list()
    message = j.database.recover()
    assert message.msgid.startswith("The match journal {name} could not be read ({reason}); it was moved aside")
    assert j.database.damage is None and j.database.generation == 1
    assert [p.name for p in players.list()] == ["Ann", "Bo"]  # from the backup after the finished match
    assert j.match(ids["done"]).finished
    j.close()


def test_a_stored_configuration_that_no_longer_makes_a_scenario_is_a_store_error(tmp_path: Path) -> None:
    j, ids = _journal(tmp_path)
    with j.database.transaction() as conn:  # parses as JSON, but is not a match configuration
        conn.execute("UPDATE matches SET config = '{}' WHERE id = ?", (ids["done"],))
    for call in (CALLS["export"], CALLS["replay"]):
        error = _outcome(call, j, ids)
        assert error is not None and error.text.msgid == "match {match}: its stored rows do not make a scenario: {error}"
    j.close()
