"""``python -m club.bench`` at a tiny size, and the simulated kiosks it is made of: real pooled matches,
re-keyed per kiosk, still verify; upload batches keep within the hub's limits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from club.bench import main
from club.fleet import BATCH_ROWS, play_pool, sim_kiosk
from club.verify import verify
from club.wire import MAX_BODY_BYTES, parse_upload


def test_pooled_matches_rekeyed_for_two_kiosks_still_verify_and_batch_within_the_limits(journals) -> None:
    pool = [dict(m, header=dict(m["header"], players=["seat0", "seat1"]))
            for m in journals["table-1"]["matches"][:2]]
    kiosks = [sim_kiosk(i, pool, 6) for i in range(2)]
    keys = [m["uuid"] for k in kiosks for m in k.matches]
    assert len(set(keys)) == 12
    assert {p["uuid"] for p in kiosks[0].players}.isdisjoint(p["uuid"] for p in kiosks[1].players)
    for kiosk in kiosks:
        walls = [m["header"]["ended_wall"] for m in kiosk.matches]
        assert walls == sorted(walls)
        bodies = list(kiosk.batches(per_upload=4))
        assert [len(b["matches"]) for b in bodies] == [4, 2] and bodies[0]["players"] and not bodies[1]["players"]
        for body in bodies:
            raw = json.dumps(body).encode()
            assert len(raw) <= MAX_BODY_BYTES and sum(len(m["rows"]) for m in body["matches"]) <= BATCH_ROWS
            for match in parse_upload(raw).matches:
                verdict = verify(match)
                assert verdict.verified and verdict.rated, verdict.rejection
    tampered = dict(kiosks[0].matches[0], claimed=dict(kiosks[0].matches[0]["claimed"], balances=[1, 2]))
    (bad,) = parse_upload(json.dumps({"matches": [tampered]}).encode()).matches
    assert not verify(bad).verified  # the verification above could fail


@pytest.mark.slow
def test_a_pool_is_real_matches_played_by_the_computer_into_a_real_journal(tmp_path: Path) -> None:
    pool = play_pool(tmp_path / "pool.sqlite3", 2, seed=5)
    assert len(pool) == 2 and all(len(m["rows"]) > 20 and m["header"]["players"] == ["seat0", "seat1"]
                                  for m in pool)
    assert {m["claimed"]["reason"] for m in pool} <= {"balance", "time"}
    for i, m in enumerate(pool):
        body = {"matches": [dict(m, uuid=f"00000000-0000-4000-8000-00000000000{i}",
                                 header=dict(m["header"], players=[None, None]))]}
        assert verify(parse_upload(json.dumps(body).encode()).matches[0]).verified


@pytest.mark.slow
def test_the_benchmark_at_a_tiny_size_prints_its_figures_with_nothing_lost(dsn: str, tmp_path: Path, capsys) -> None:
    args = ["--kiosks", "3", "--matches", "4", "--pool", "2", "--pool-file", str(tmp_path / "pool.sqlite3"),
            "--database", dsn]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "3 kiosks x 4 matches = 12 matches" in out
    assert "12 stored of 12 sent, 12 verified, lost 0, duplicated 0, 24 player-games rated" in out
    assert re.search(r"[\d.]+ matches verified per second", out)
    assert re.search(r"p50 \d+ ms, p99 \d+ ms", out)
    assert re.search(r"hub [\d.]+ ms \(checksums, scenario, replay, comparison\), table engine.replay [\d.]+ ms", out)
