"""Audit replay: every stored match exports to a conformance scenario that replays to its stored state."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from journal_support import new_table

from engine import NS_PER_S, Match
from engine.scenario import parse_scenario, play_scenario, state_json
from kiosk.store.audit import export_scenario, replay_states
from kiosk.store.journal import Journal, JournalCorrupt
from kiosk.store.resume import resume
from kiosk.store.stall import StallDetector

S = NS_PER_S
ROOT = Path(__file__).resolve().parents[2]


def stored_final_state(journal: Journal, match_id: int) -> dict:
    last = journal.commands(match_id)[-1]
    assert last.snapshot is not None
    return state_json(Match.from_dict(json.loads(last.snapshot)), last.arrival_ns)


def replayed(journal: Journal, match_id: int) -> dict:
    result = play_scenario(parse_scenario(journal.export_scenario(match_id)))
    assert all(step["ok"] for step in result["steps"]), result["steps"]
    return result


def play_with_restarts(journal: Journal, seed: int) -> int:
    """A random match with random same-boot and other-boot restarts, stalls and odd arrival times."""
    table = new_table(journal, seed=seed, handover=seed % 2 == 0, balances=30 + 10 * (seed % 3))
    rng = table.rng
    boot = "boot-a"
    stall = StallDetector(2 * S)
    for _ in range(400):
        roll = rng.random()
        if roll < 0.03:
            other = rng.random() < 0.3
            if other:
                boot = f"boot-{rng.randrange(10**6)}"
                table.now = rng.randrange(1, 50) * S + rng.randrange(S)
            else:
                table.now += rng.randrange(0, 20 * S)
            r = resume(journal, boot, table.now)
            assert r is not None
            table.session.match, table.recorder = r.match, r.recorder
            table.session.boot_id = boot
            if r.match.is_over:
                return r.match_id
            stall.reset(table.now)
            continue
        if roll < 0.035 and table.match.clock_running is not None:
            stall.beat(table.now, True)
            table.now += 3 * S + 17  # the loop was stuck
            reason = stall.beat(table.now, True)
            assert reason is not None and reason.msgid.startswith("the kiosk could not take commands for {gap}")
            table.match.abort(table.now, reason)
            table.recorder.sync(table.match, table.now)
            return table.recorder.match_id
        gap = rng.choice((0, 1, rng.randrange(0, 6 * S)))  # whole ns, not whole ms
        if not table.step(gap):
            return table.recorder.match_id
    return table.recorder.match_id


@pytest.mark.parametrize("seed", range(12))
def test_an_exported_match_replays_to_the_stored_final_state(tmp_path: Path, seed: int) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        match_id = play_with_restarts(journal, seed)
        assert replayed(journal, match_id)["state"] == stored_final_state(journal, match_id)


def test_the_export_is_a_valid_scenario_for_the_replay_command(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = new_table(journal, seed=11)
        while table.step():
            pass
        scenario = journal.export_scenario(table.recorder.match_id)
        expected = stored_final_state(journal, table.recorder.match_id)
        steps = [json.loads(json.dumps(s)) for s in scenario["steps"]]
    assert scenario["config"] == {"balances": [40, 40], "bank_ms": [20000, 20000], "delay_ms": 3000,
                                  "handover": False, "jockey": None}
    assert len(scenario["deals"]) == sum(1 for s in steps if s["do"] == "start")
    assert steps[0]["t"] == 0 and all(a["t"] <= b["t"] for a, b in itertools.pairwise(steps))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(scenario))
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["state"] == expected


def test_step_through_yields_the_state_after_each_step(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        match_id = play_with_restarts(journal, 3)
        states = list(replay_states(journal, match_id))
        assert len(states) == len(journal.commands(match_id))
        last_step, last_match = states[-1]
        assert state_json(last_match, round(last_step["t"] * 1_000_000)) == stored_final_state(journal, match_id)
        assert [s.match.to_dict() for s in journal.replay_states(match_id)] == [s.match.to_dict() for s in states]


def test_each_replayed_state_is_independent_of_the_steps_after_it(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = new_table(journal, seed=11)
        while table.step():
            pass
        match_id = table.recorder.match_id
        replay = replay_states(journal, match_id)
        first = next(replay)
        first_state = json.loads(json.dumps(first.match.to_dict()))
        first_step = json.loads(json.dumps(first.step))
        rest = list(replay)  # play every later step
        assert first.step == first_step and first.match.to_dict() == first_state
        assert first.match.round == 1 and rest[-1].match.is_over and not first.match.is_over
        assert len({id(s.match) for s in [first, *rest]}) == 1 + len(rest)
        # each yielded state equals a fresh replay stopped at that step
        for n in (0, len(rest) // 2):
            again = list(itertools.islice(replay_states(journal, match_id), n + 1))[-1]
            assert [first, *rest][n].match.to_dict() == again.match.to_dict()


def test_a_damaged_row_stops_the_export(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        table = new_table(journal, seed=1)
        for _ in range(5):
            table.step()
        with journal.database.transaction() as conn:
            conn.execute("UPDATE entries SET step = '{\"do\":\"pass\"}' WHERE seq = 2")
        with pytest.raises(JournalCorrupt) as info:
            export_scenario(journal, table.recorder.match_id)
        assert info.value.text.params == {"match": table.recorder.match_id, "seq": 2}
        assert str(info.value) == f"match {table.recorder.match_id}: row 2 is damaged; the match cannot be exported whole"
