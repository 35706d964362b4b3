"""The hub's review worker (issue 24 #5) against the real PostgreSQL: every verified match reviewed once,
the table's review exactly, stored and shown on the player's page and the archive replay (each flagged
decision with its board and the seat's own hand, nothing of the other hand), leases, failures, the
command line and the worker's priority."""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from club_support import Hub, journal_upload, match_uuid, play_journal

from club import review_worker
from club.review_worker import claim, load, review_one, run
from engine.review import review_scenario
from engine.scenario import parse_scenario
from kiosk.store.audit import export_scenario
from kiosk.store.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = 6
"""Few worlds per decision: the tests check the plumbing, docs/review.md measures the method."""
TILE = re.compile(r"[0-6]\|[0-6]")


def _rows(dsn: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return list(conn.execute(sql, args).fetchall())


@pytest.fixture
def uploaded(hub: Hub, journals) -> Hub:
    token = hub.kiosk("table-1")
    assert hub.upload(token, copy.deepcopy(journals["table-1"])).status_code == 200
    return hub


def test_the_worker_reviews_every_verified_match_once_and_stores_each_seat(uploaded: Hub) -> None:
    dsn = uploaded.dsn
    verified = _rows(dsn, "SELECT uuid FROM matches WHERE status = 'verified'")
    assert len(verified) == 5
    assert run(dsn, samples=SAMPLES, once=True) == 5
    assert run(dsn, samples=SAMPLES, once=True) == 0  # nothing twice
    heads = _rows(dsn, "SELECT status, samples, seed, cpu_seconds > 0 FROM reviews")
    assert heads == [("done", SAMPLES, 0, True)] * 5
    seats = _rows(dsn, "SELECT match, seat, player, decisions, mean_loss, good + inaccuracy + mistake + blunder,"
                       " flagged FROM seat_reviews ORDER BY match, seat")
    assert len(seats) == 10  # no computer: both seats of each match, the guests' too
    for match, seat, player, decisions, mean_loss, counted, flagged in seats:
        assert decisions == counted > 0 and mean_loss >= 0
        assert all(d["class"] != "good" and d["hand"] and TILE.fullmatch(d["hand"][0]) for d in flagged)
        with psycopg.connect(dsn) as conn:
            scenario, players, _ = load(conn, match)
        review = review_scenario(scenario, seat, samples=SAMPLES, seed=0)
        assert review["summary"]["decisions"] == decisions and review["summary"]["mean_loss"] == mean_loss
        assert [d["step"] for d in review["decisions"] if d["class"] != "good"] == [d["step"] for d in flagged]
        assert player == players[seat]


def test_the_hubs_review_is_the_tables_review(hub: Hub, tmp_path: Path) -> None:
    """The same samples and seed as the table's ReviewJob, on the scenario the table exports: the same review."""
    from kiosk.table.review_job import REVIEW_SAMPLES

    assert review_worker.HUB_REVIEW_SAMPLES == REVIEW_SAMPLES and review_worker.HUB_REVIEW_SEED == 0
    path = tmp_path / "table.sqlite3"
    play_journal(path, seed=7, matches=1)
    assert hub.upload(hub.kiosk("table-9"), journal_upload(path, "table-9")).status_code == 200
    assert run(hub.dsn, samples=SAMPLES, once=True) == 1
    with Journal.open(path) as journal:
        table = parse_scenario(export_scenario(journal, 1))
    for seat in (0, 1):
        at_table = review_scenario(table, seat, samples=SAMPLES, seed=0)
        stored = _rows(hub.dsn, "SELECT decisions, mean_loss, good, blunder, flagged, luck FROM seat_reviews"
                                " WHERE match = %s AND seat = %s", match_uuid("table-9", 1), seat)[0]
        summary = at_table["summary"]
        assert stored[:4] == (summary["decisions"], summary["mean_loss"], summary["good"], summary["blunder"])
        flagged = [{k: v for k, v in d.items() if k != "options"} for d in at_table["decisions"] if d["class"] != "good"]
        assert [{k: v for k, v in d.items() if k != "hand"} for d in stored[4]] == flagged
        assert stored[5] == at_table["luck"]["luck"]


def test_each_review_is_stored_at_once_and_no_transaction_stays_open_while_reviewing(uploaded: Hub) -> None:
    dsn = uploaded.dsn
    with psycopg.connect(dsn) as conn, pytest.raises(ValueError, match="autocommit"):
        review_one(conn, samples=SAMPLES)
    with psycopg.connect(dsn, autocommit=True) as conn, psycopg.connect(dsn, autocommit=True) as other:
        pid = conn.info.backend_pid
        for done in (1, 2):
            assert review_one(conn, samples=SAMPLES) is not None
            assert _rows(dsn, "SELECT count(*) FROM reviews WHERE status = 'done'") == [(done,)]  # seen at once
            state = other.execute("SELECT state FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
            assert state == ("idle",)


def test_a_claim_is_taken_again_only_when_its_lease_ran_out(uploaded: Hub) -> None:
    with psycopg.connect(uploaded.dsn, autocommit=True) as conn:
        first = claim(conn, samples=SAMPLES, seed=0, lease_s=600)
        assert first is not None
        others = {claim(conn, samples=SAMPLES, seed=0) for _ in range(4)}
        assert first not in others and len(others) == 4 and claim(conn, samples=SAMPLES, seed=0) is None
        conn.execute("UPDATE reviews SET lease_until = now() - interval '1 second' WHERE match = %s", (first,))
        assert claim(conn, samples=SAMPLES, seed=0) == first  # a killed worker's match
        assert review_one(conn, samples=SAMPLES) is None  # every match is claimed


def test_a_match_that_cannot_be_reviewed_is_stored_as_failed_with_the_reason(uploaded: Hub) -> None:
    dsn = uploaded.dsn
    newest = _rows(dsn, "SELECT uuid FROM matches WHERE status = 'verified' ORDER BY ended_wall DESC LIMIT 1")[0][0]
    with psycopg.connect(dsn) as conn:
        conn.execute("UPDATE match_rows SET checksum = repeat('0', 64) WHERE match = %s AND seq = 2", (newest,))
    assert run(dsn, samples=SAMPLES, once=True) == 5
    failed = _rows(dsn, "SELECT match, error FROM reviews WHERE status = 'failed'")
    assert [f[0] for f in failed] == [newest] and "row 2" in failed[0][1]
    assert _rows(dsn, "SELECT count(*) FROM seat_reviews WHERE match = %s", newest) == [(0,)]
    got = uploaded.client.get(f"/archive/{newest}")
    assert "This match could not be reviewed." in got.text


def test_the_pages_show_the_review_with_the_board_and_the_players_own_hand(uploaded: Hub) -> None:
    client, dsn = uploaded.client, uploaded.dsn
    for (key,) in _rows(dsn, "SELECT uuid FROM matches"):
        before = client.get(f"/archive/{key}")
        assert before.status_code == 200 and 'id="review"' not in before.text
        assert client.get(f"/api/v1/matches/{key}/review").status_code == 404
    assert run(dsn, samples=SAMPLES, once=True) == 5
    key, ann = _rows(dsn, "SELECT m.uuid, m.player0 FROM matches m JOIN seat_reviews s ON s.match = m.uuid"
                          " WHERE m.player0 IS NOT NULL AND s.seat = 0 AND jsonb_array_length(s.flagged) > 0"
                          " ORDER BY m.ended_wall DESC LIMIT 1")[0]
    review = client.get(f"/api/v1/matches/{key}/review").json()
    assert review["status"] == "done" and [s["seat"] for s in review["seats"]] == [0, 1]
    page = client.get(f"/archive/{key}").text
    assert 'id="review"' in page and 'id="review-0"' in page and 'id="review-1"' in page
    flagged = [d for s in review["seats"] for d in s["flagged"]]
    assert flagged, "no decision flagged in five random matches"
    decisions = page.split('<li class="decision ')[1:]
    assert len(decisions) == len(flagged)
    for d, html in zip(flagged, decisions, strict=True):
        assert f'data-step="{d["step"]}"' in html and f'href="?step={d["step"]}"' in html
        assert '<svg class="board"' in html and '<svg class="hand"' in html
        hand = re.search(r'<svg class="hand".*?</svg>', html, re.S)
        assert hand is not None and sorted(re.findall(r'data-tile="([0-6]\|[0-6])"', hand.group(0))) == sorted(d["hand"])
    # the hand shown is the reviewed seat's own: never a tile of the other hand at that decision
    with psycopg.connect(dsn) as conn:
        scenario, _, _ = load(conn, key)
    for seat in review["seats"]:
        for d in seat["flagged"]:
            other = review_worker.hands_before(scenario, 1 - seat["seat"], {d["step"]})[d["step"]]
            assert not set(d["hand"]) & set(other)
    player = client.get(f"/players/{ann}").text
    assert f'data-match="{key}"' in player and f'href="/archive/{key}#review-0"' in player
    assert "Mean loss per decision" in player
    assert client.get(f"/archive/{key}", headers={"Accept-Language": "ko"}).status_code == 200


def test_the_command_line_reviews_what_waits_at_the_lowest_priority(uploaded: Hub) -> None:
    done = subprocess.run([sys.executable, "-m", "club", "review-worker", "--database", uploaded.dsn, "--once",
                           "--samples", str(SAMPLES), "--log-level", "warning"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "5 matches reviewed"
    bad = subprocess.run([sys.executable, "-m", "club", "review-worker", "--database", uploaded.dsn, "--samples", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--samples" in bad.stderr
    probe = ("import os; from club.review_worker import lower_priority; got = lower_priority();"
             " print(got, os.sched_getscheduler(0) == os.SCHED_IDLE or os.getpriority(os.PRIO_PROCESS, 0) == 19)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.split()[1] == "True", out.stdout + out.stderr
    assert out.stdout.split()[0] in ("idle", "nice")


def test_serve_with_reviews_runs_the_worker_as_a_child_and_ends_it(dsn: str, journals, tmp_path: Path) -> None:
    import time

    import httpx

    from club.hubproc import HubProcess
    from club.tokens import add_kiosk

    hub = HubProcess(dsn, tmp_path / "hub.log", log_level="info", extra=["--reviews"])
    hub.start()
    try:
        with psycopg.connect(dsn) as conn:
            token = add_kiosk(conn, "table-1")[1]
        got = httpx.post(hub.url + "/api/v1/uploads", json=copy.deepcopy(journals["table-1"]),
                         headers={"Authorization": f"Bearer {token}"}, timeout=60)
        assert got.status_code == 200
        assert hub.proc is not None
        children = Path(f"/proc/{hub.proc.pid}/task/{hub.proc.pid}/children").read_text().split()
        assert len(children) == 1
        deadline = time.monotonic() + 300
        while _rows(dsn, "SELECT count(*) FROM reviews WHERE status = 'done'") != [(5,)]:
            assert time.monotonic() < deadline, (tmp_path / "hub.log").read_text()[-2000:]
            time.sleep(0.2)  # waiting for the worker's reviews, not for time to pass
        assert Path(f"/proc/{children[0]}/cmdline").read_bytes().split(b"\0")[2:4] == [b"club", b"review-worker"]
        assert _rows(dsn, "SELECT DISTINCT samples FROM reviews") == [(review_worker.HUB_REVIEW_SAMPLES,)]
    finally:
        assert hub.stop() == 0
    assert not Path(f"/proc/{children[0]}").exists() or "zombie" in Path(f"/proc/{children[0]}/status").read_text()
    assert f"review worker: {review_worker.HUB_REVIEW_SAMPLES} samples, priority" in (tmp_path / "hub.log").read_text()


def test_a_worker_refused_a_lower_priority_says_so_and_works_on(monkeypatch) -> None:
    def refused(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    asked: list[tuple[object, ...]] = []
    monkeypatch.setattr("club.review_worker.os.sched_setscheduler", refused)
    monkeypatch.setattr("club.review_worker.os.setpriority", lambda *args: asked.append(args))  # not this process
    assert review_worker.lower_priority() == "nice 19" and asked == [(os.PRIO_PROCESS, 0, 19)]
    monkeypatch.setattr("club.review_worker.os.setpriority", refused)
    assert review_worker.lower_priority() == "unchanged"
