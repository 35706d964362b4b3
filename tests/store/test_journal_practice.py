"""Practice matches in the journal: the computer's level (schema v3), never rated, kept through a
re-entry into another file and through resume; a version-2 journal migrates with its matches."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from engine import NS_PER_S, EndReason, MatchConfig, Outcome, Start, shuffle_deal
from kiosk.store.errors import StoreUsageError
from kiosk.store.journal import COMPUTER_SEAT_KEY, Journal
from kiosk.store.players import Players
from kiosk.store.recorder import MatchRecorder, RecordingMatch, new_recorded_match
from kiosk.store.resume import resume
from kiosk.store.schema import SCHEMA_VERSION, V1, V2

S = NS_PER_S
WIN_0 = Outcome(0, EndReason.RESIGN, True)


def test_a_version_2_journal_gains_the_computer_level_and_keeps_its_matches(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    for statement in (*V1, *V2):
        conn.execute(statement)
    conn.execute("INSERT INTO matches (player0, player1, created_wall, config) VALUES (NULL, NULL, 2, ?)",
                 (json.dumps(MatchConfig().to_dict()),))
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    with Journal.open(path) as j:
        assert j.schema_version == SCHEMA_VERSION and j.warnings == []
        assert j.match(1).id == 1 and j.computer_levels([1]) == {}  # a match between people
        practice = j.begin_match(MatchConfig(), (None, None), computer_level=2)
        assert j.computer_levels([1, practice]) == {practice: 2}


def test_the_computer_sits_in_seat_2_at_a_known_level(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as j:
        anna = Players(j).create("Anna").id
        bogdan = Players(j).create("Bogdan").id
        with pytest.raises(StoreUsageError):
            j.begin_match(MatchConfig(), (anna, bogdan), computer_level=3)  # seat 2 is the computer's
        with pytest.raises(StoreUsageError):
            j.begin_match(MatchConfig(), (anna, None), computer_level=5)
        assert j.matches() == []


def test_a_practice_match_won_by_a_named_player_is_not_rated(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as j:
        players = Players(j)
        anna = players.create("Anna")
        mid = j.begin_match(MatchConfig(), (anna.id, None), computer_level=4)
        j.finish(mid, WIN_0)
        record = j.match(mid)
        assert record.finished and record.winner == 0 and not record.rated
        after = players.get(anna.id)
        assert (after.rating, after.rd, after.games) == (anna.rating, anna.rd, 0)
        (row,) = players.history(anna.id)
        assert row.result == "win" and not row.rated and row.rating_change is None


def test_the_level_goes_with_the_match_into_another_file_and_comes_back_on_resume(tmp_path: Path) -> None:
    first = Journal.open(tmp_path / "a.sqlite3")
    match, recorder = new_recorded_match(first, MatchConfig(handover=False), (None, None), "boot-1",
                                         computer_level=3)
    match.apply(Start(None, shuffle_deal(random.Random(4))), 10 * S)
    recorder.sync(match, 10 * S)
    assert recorder.match_id is not None and first.computer_levels([recorder.match_id]) == {recorder.match_id: 3}
    second = Journal.open(tmp_path / "b.sqlite3")
    recorder.attach(second)  # written whole into a fresh file (the keeper's start afresh)
    recorder.flush()
    (record,) = second.matches()
    assert second.computer_levels([record.id]) == {record.id: 3}
    resumed = resume(second, "boot-1", 11 * S)
    assert resumed is not None and resumed.computer_level == 3 and resumed.recorder.computer_level == 3
    assert isinstance(resumed.match, RecordingMatch) and isinstance(resumed.recorder, MatchRecorder)
    first.close()
    second.close()


def test_the_computer_may_sit_in_seat_1_when_the_configuration_says_so_and_a_resume_keeps_it(
        tmp_path: Path) -> None:
    """Issue 20: a practice match started from Player 2's edge puts the computer in seat 0 (Player 1)."""
    with Journal.open(tmp_path / "journal.sqlite3") as j:
        anna = Players(j).create("Anna").id
        seat_0 = {**MatchConfig().to_dict(), COMPUTER_SEAT_KEY: 0}
        with pytest.raises(StoreUsageError):
            j.begin_match(seat_0, (anna, None), computer_level=2)  # seat 0 is the computer's now
        with pytest.raises(StoreUsageError):
            j.begin_match(seat_0, (None, anna))  # the key belongs to a practice match
        with pytest.raises(StoreUsageError):
            j.begin_match({**seat_0, COMPUTER_SEAT_KEY: 2}, (None, anna), computer_level=2)
        assert j.matches() == []
        recorder = MatchRecorder(j, None, "boot-1", config=MatchConfig(handover=False), players=(None, anna),
                                 computer_level=3, computer_seat=0)
        match = recorder.watch(RecordingMatch(MatchConfig(handover=False), boot_id="boot-1"))
        match.apply(Start(None, shuffle_deal(random.Random(4))), 10 * S)
        recorder.sync(match, 10 * S)
        (record,) = j.matches()
        assert record.players == (None, anna) and record.config[COMPUTER_SEAT_KEY] == 0
        assert MatchConfig.from_dict(record.config) == MatchConfig(handover=False)
        resumed = resume(j, "boot-1", 11 * S)
        assert resumed is not None and resumed.computer_level == 3 and resumed.computer_seat == 0
        plain = new_recorded_match(j, MatchConfig(handover=False), (anna, None), "boot-1", computer_level=1)[1]
        assert plain.computer_seat == 1 and COMPUTER_SEAT_KEY not in (plain.config or {})
