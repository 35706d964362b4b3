"""Resuming an unfinished match from the journal under RULES.md §7's restart rules."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from journal_support import new_table, play_until

from engine import NS_PER_S, EndReason, Match, MatchConfig
from engine.snapshot import save_text
from kiosk.store.journal import Journal, ResumeFailed
from kiosk.store.players import Players
from kiosk.store.recorder import RecordingMatch
from kiosk.store.resume import resume

S = NS_PER_S


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


def running_table(journal: Journal, seed: int = 2, **kw):
    table = new_table(journal, seed=seed, **kw)
    play_until(table, lambda m: m.round >= 1 and m.layout.tiles() and m.clock_running is not None)
    return table


def test_same_boot_the_clock_continues_and_the_downtime_is_charged(journal: Journal) -> None:
    table = running_table(journal)
    m = table.match
    player = m.clock_running
    before = m.bank_ns(player, table.now)
    saved = save_text(m)
    down = 12 * S
    r = resume(journal, "boot-a", table.now + down)
    assert r is not None and r.match_id == table.recorder.match_id and r.seq == table.recorder.next_seq - 1
    assert r.match.clock_running == player and not r.match.is_over
    # the same state as the last acknowledged command …
    assert Match.from_dict(r.match.to_dict()).to_dict() | {"boot_id": ""} == json.loads(saved) | {"boot_id": ""}
    # … and the downtime charged: bank at the decision's start − (time past t0 + delay)
    t0 = m.decision_started_ns()
    used = max(0, table.now + down - t0 - m.config.delay_ns)
    assert r.match.bank_ns(player, table.now + down) == max(0, m._clock._banks[player] - used)
    assert used >= down - m.config.delay_ns > 0  # the decision began before the crash: 12 s − delay at least
    assert r.match.bank_ns(player, table.now + down) < before
    assert r.message.msgid == (
        "The kiosk restarted; the match continues — the {down} it was down were charged to {player}.")
    assert r.message.params["down"] == "12 s" and r.message.params["player"] == f"Player {player + 1}"
    assert r.message == f"The kiosk restarted; the match continues — the 12 s it was down were charged to Player {player + 1}."
    assert r.down_ns == down
    row = journal.commands(r.match_id)[-1]
    assert row.step == {"do": "restart", "same_boot": True, "t": row.step["t"]} and row.arrival_ns == table.now + down


def test_same_boot_a_long_downtime_ends_the_match_on_time(journal: Journal) -> None:
    table = running_table(journal)
    player = table.match.clock_running
    r = resume(journal, "boot-a", table.now + 10 * 60 * S)
    assert r is not None and r.match.is_over
    o = r.match.outcome
    assert o is not None
    assert o.reason is EndReason.TIME and o.winner == 1 - player and o.rated
    assert r.message.msgid == ("The kiosk restarted; {player}'s time ran out while it was down ({down}): "
                               "{other} wins on time.")
    assert r.message.params == {"player": f"Player {player + 1}", "down": "600 s", "other": f"Player {2 - player}"}
    record = journal.match(r.match_id)
    assert record.finished and record.reason == "time" and record.winner == 1 - player


def test_another_boot_while_a_clock_runs_aborts_unrated_and_records_why(journal: Journal) -> None:
    players = Players(journal)
    ann, bo = players.create("Ann"), players.create("Bo")
    table = running_table(journal, players=(ann.id, bo.id))
    player = table.match.clock_running
    bank = table.match._clock._banks[player]
    r = resume(journal, "boot-b", 5 * S)
    assert r is not None and r.aborted
    o = r.match.outcome
    assert o is not None
    assert o.winner is None and not o.rated and "machine restarted" in o.detail
    assert r.message.msgid == ("The machine restarted while {player}'s clock was running: "
                               "the match is aborted without a result.")
    name = ("Ann", "Bo")[player]  # named players by their names (issue 20)
    assert r.message.params == {"player": name}
    assert r.message == f"The machine restarted while {name}'s clock was running: the match is aborted without a result."
    assert r.match.bank_ns(player, 5 * S) == bank  # the unproven decision is charged nothing
    record = journal.match(r.match_id)
    assert record.finished and record.reason == "aborted" and record.rated is False
    assert record.detail is not None and "machine restarted" in record.detail
    row = journal.commands(r.match_id)[-1]
    assert row.step["do"] == "restart" and row.step["same_boot"] is False and "machine restarted" in row.step["reason"]
    assert players.get(ann.id).games == 0 and players.get(ann.id).rating == 1500  # never rated
    assert journal.unfinished() is None


def test_another_boot_with_no_clock_running_continues(journal: Journal) -> None:
    table = new_table(journal, seed=4, handover=True)
    play_until(table, lambda m: m.round >= 1 and m.clock_running is None and m.phase.value == "handover")
    state = table.match.to_dict()
    r = resume(journal, "boot-b", 3 * S)
    assert r is not None and not r.match.is_over
    assert r.message.msgid == "The kiosk restarted; no clock was running, so nothing was lost." and not r.message.params
    after = r.match.to_dict()
    for key in ("phase", "hands", "boneyard", "balances", "layout", "to_act", "clock"):
        assert after[key] == state[key]
    assert after["boot_id"] == "boot-b" and after["last_ns"] is None
    # play goes on in the new boot's time base, and is journaled there
    table.session.match = r.match
    table.recorder = r.recorder
    table.now = 3 * S
    for _ in range(5):
        if not table.step(1 * S):
            break
    rows = journal.commands(r.match_id)
    assert rows[-1].boot_id == "boot-b" and all(e.intact for e in rows)


def test_a_monotonic_clock_that_went_backwards_in_the_same_boot_aborts(journal: Journal) -> None:
    table = running_table(journal)
    r = resume(journal, "boot-a", table.now - 1 * S)
    assert r is not None and r.aborted and r.match.outcome is not None
    assert r.match.outcome.detail == "the monotonic clock went backwards"
    assert r.message.msgid == ("The kiosk's clock went backwards while {player}'s clock was running: "
                               "the match is aborted without a result.")
    assert r.message.params == {"player": f"Player {table.match.clock_running + 1}"}


def test_a_match_that_had_not_started_comes_back_ready(journal: Journal) -> None:
    mid = journal.begin_match(MatchConfig(balances=(50, 50)), (None, None))
    r = resume(journal, "boot-a", 1 * S)
    assert r is not None and r.match_id == mid and r.seq == 0 and r.match.phase.value == "ready"
    assert r.match.config.balances == (50, 50) and isinstance(r.match, RecordingMatch)
    assert r.message.msgid == "The kiosk restarted before the match began; press Start when ready."


def test_nothing_to_resume(journal: Journal) -> None:
    assert resume(journal, "boot-a", 1) is None


def test_a_snapshot_that_cannot_be_restored_closes_the_match(journal: Journal) -> None:
    mid = journal.begin_match(MatchConfig(), (None, None))
    journal.record(mid, 1, {"do": "start"}, '{"version": 999}', 1, "boot-a", 1.0)
    with pytest.raises(ResumeFailed) as info:
        resume(journal, "boot-a", 2)
    assert info.value.text.msgid == ("The kiosk restarted but the unfinished match could not be restored ({error}); "
                                     "it was closed without a result.")
    assert info.value.text.params == {"error": "'boot_id'"}  # the snapshot has no boot id: a KeyError
    assert str(info.value) == ("The kiosk restarted but the unfinished match could not be restored ('boot_id'); "
                               "it was closed without a result.")
    assert journal.match(mid).finished and journal.match(mid).reason == "aborted"
    assert journal.match(mid).detail == "the saved match could not be restored: 'boot_id'"


def test_resume_then_play_on_then_resume_again(journal: Journal) -> None:
    table = running_table(journal, seed=9)
    for _restart in range(3):
        r = resume(journal, "boot-a", table.now + 2 * S)
        if r is None or r.match.is_over:
            break
        table.session.match = r.match
        table.recorder = r.recorder
        table.now += 2 * S
        for _ in range(6):
            if not table.step():
                break
    rows = journal.commands(table.recorder.match_id)
    assert [e.seq for e in rows] == list(range(1, len(rows) + 1)) and all(e.intact for e in rows)
