"""The club sync's faults, each against a real hub over HTTP on 127.0.0.1 (issue 22): nothing lost,
nothing twice, the table never waited. A hub away all evening, the network cut mid-upload at random
byte counts (a TCP proxy that cuts), a cloned SD card, a tampered journal."""

from __future__ import annotations

import random
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from club_support import play_journal
from club_sync_support import CuttingProxy, journal_keys, live_hub
from journal_support import S, Wall, kept_table

from kiosk.club import outbox
from kiosk.club.cli import main
from kiosk.club.client import HubClient, read_token
from kiosk.club.errors import HubUnreachable
from kiosk.club.sync import DirectAccess, SyncRound
from kiosk.club.worker import HUB_BACKOFF, SyncWorker, delay_ns
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000 * S

    def __call__(self) -> int:
        return self.now


def _hub_holds_each_once(hub, journal: Path) -> None:
    """Every finished match and player of the journal is at the hub exactly once, nothing refused."""
    matches, players = journal_keys(journal)
    held = [str(u) for (u,) in hub.rows("SELECT uuid FROM matches")]
    assert sorted(held) == sorted(matches) and len(held) == len(set(held))
    assert sorted(str(u) for (u,) in hub.rows("SELECT uuid FROM players")) == sorted(players)
    assert hub.count("conflicts") == 0
    assert {s for (s,) in hub.rows("SELECT status FROM matches")} <= {"verified"}
    conn = sqlite3.connect(journal)
    try:
        acks = dict(conn.execute("SELECT uuid, result FROM club_acks"))
    finally:
        conn.close()
    assert {u: acks.get(u) for u in matches} == {u: "verified" for u in matches}


def test_hub_away_all_evening_then_back_every_match_arrives_once(dsn: str, tmp_path: Path) -> None:
    """The hub box is unplugged all evening (nothing listens): the worker backs off 5 s, 10 s, … up to
    5 minutes on the kiosk's clock while matches are played; when the hub is back, one round sends all."""
    path = tmp_path / "journal.sqlite3"
    with live_hub(dsn) as hub:
        token = read_token(hub.kiosk("table-1", tmp_path))
        proxy = CuttingProxy(hub.port)
        proxy.target_port = _closed_port()  # the hub is away: every connection is closed at once
        keeper = JournalKeeper.open(path, "boot-a", 1_000 * S, wall_clock=Wall())
        assert keeper.players is not None
        ann, bo = keeper.players.create("Ann").id, keeper.players.create("Bo").id
        clock = FakeClock()
        worker = SyncWorker(keeper, HubClient(proxy.url, token, timeout_s=5), clock=clock)
        delays = []
        for hour in range(4):  # four hours of play, a match each hour, the worker trying when due
            table = kept_table(keeper, seed=hour, players=(ann, bo) if hour % 2 else (bo, ann), now=clock.now)
            while table.step():
                pass
            keeper.sync(None, table.now)
            end = clock.now + 3600 * S
            while True:
                state = worker.run_once(clock.now)
                assert state.error is not None and "did not answer" in state.error
                assert state.retry_ns is not None
                delays.append(state.retry_ns - clock.now)
                if state.retry_ns > end:
                    break
                clock.now = state.retry_ns
            clock.now = end
        assert delays[:7] == [delay_ns(HUB_BACKOFF, n) for n in range(1, 8)] == [
            5 * S, 10 * S, 20 * S, 40 * S, 80 * S, 160 * S, 300 * S]
        assert set(delays[7:]) == {300 * S} and len(delays) >= 4 * 3600 // 300
        assert hub.count("matches") == 0
        proxy.target_port = hub.port  # back
        state = worker.run_once(clock.now)
        assert state.error is None and state.last is not None and state.last.complete
        assert state.last.verified == 4 and state.last.players == 2 and state.last.roster is not None
        assert state.retry_ns == clock.now + worker.interval_ns
        again = worker.run_once(clock.now + worker.interval_ns)
        assert again.last is not None and again.last.uploads == 0
        keeper.close()
        _hub_holds_each_once(hub, path)
        proxy.close()


def test_the_table_never_waits_for_a_hub_that_hangs(dsn: str, tmp_path: Path) -> None:
    """A hub that takes connections and never answers: the worker's thread is stuck in a request while
    matches are played and committed through the store's writer thread; every frame's ``sync`` returns at
    once. Then the hub answers again and everything arrives once."""
    path = tmp_path / "journal.sqlite3"
    with live_hub(dsn) as hub:
        token = read_token(hub.kiosk("table-1", tmp_path))
        proxy = CuttingProxy(hub.port)
        proxy.hold = True
        keeper = JournalKeeper.open(path, "boot-a", 1_000 * S, wall_clock=Wall(), threaded=True)
        assert keeper.players is not None and keeper.writer is not None
        ann, bo = keeper.players.create("Ann").id, keeper.players.create("Bo").id
        clock = FakeClock()
        worker = SyncWorker(keeper, HubClient(proxy.url, token, timeout_s=300), clock=clock).start()
        try:
            while proxy.connections == 0:  # the worker's first request is in the hanging hub
                time.sleep(0.01)
            longest = 0.0
            frames = 0
            for n in range(5):
                table = kept_table(keeper, seed=10 + n, players=(ann, bo), now=clock.now)
                more = True
                while more:
                    started = time.perf_counter()
                    more = table.step()
                    longest = max(longest, time.perf_counter() - started)
                    frames += 1
                clock.now = table.now
                while not keeper.writer.wait_idle(10) or keeper.state.unsaved:
                    keeper.sync(None, clock.now)
            assert worker.state.rounds == 0  # the worker was stuck in its request all along
            assert keeper.state.saving and keeper.state.unsaved == 0 and frames > 100
            # waiting for the hub would take until the request's 300 s timeout; the kiosk's stall limit is 2 s
            assert longest < 1.0, f"a frame's step took {longest * 1000:.0f} ms"
            proxy.release()  # the hanging requests are cut; the hub answers again
            state = worker.wait_round(0, 30)
            if state.error is not None:
                worker.poke()
                state = worker.wait_round(state.rounds, 60)
            assert state.error is None and state.last is not None and state.last.complete, state
        finally:
            worker.stop()
            keeper.close()
            proxy.close()
        _hub_holds_each_once(hub, path)


@pytest.mark.parametrize("answer_side", [False, True], ids=["request-cut", "answer-cut"])
def test_network_cut_mid_upload_at_random_byte_counts(dsn: str, tmp_path: Path, monkeypatch, answer_side) -> None:
    """The connection is cut after a random number of bytes of the upload (or of the hub's answer: the hub
    stored it, the kiosk never heard): round after round, until one gets through; 0 lost, 0 twice."""
    monkeypatch.setattr(outbox, "MAX_MATCHES", 2)  # several uploads a round
    path = tmp_path / "journal.sqlite3"
    play_journal(path, seed=7, matches=5, guests=1)
    rng = random.Random(22 + answer_side)
    with live_hub(dsn) as hub:
        token = read_token(hub.kiosk("table-1", tmp_path))
        proxy = CuttingProxy(hub.port)
        journal = Journal.open(path)
        access = DirectAccess(journal.database)
        first = access.read(lambda c: len(outbox.Batch(
            matches=[outbox.match_upload(c, m) for m in outbox.unsent_matches(c, 2)]).body()))
        failures = 0
        for _ in range(12):
            proxy.arm(rng.randrange(1, first if not answer_side else 1_500), answer_side=answer_side)
            try:
                SyncRound(access, HubClient(proxy.url, token, timeout_s=10)).run()
            except HubUnreachable:
                failures += 1
            if proxy.armed:  # the round ended before the budget was spent: nothing was left to send
                break
        assert failures >= 3 and proxy.cuts >= 3
        last = SyncRound(access, HubClient(proxy.url, token, timeout_s=10)).run()
        assert last.complete
        journal.close()
        proxy.close()
        _hub_holds_each_once(hub, path)


def test_a_cloned_card_is_refused_and_listed(dsn: str, tmp_path: Path, capsys) -> None:
    """The same journal uploaded by two kiosks: the second is refused (409), its refusals recorded in its
    journal (never sent again) and listed at the hub; its own new matches still go through."""
    from journal_support import new_table

    first, clone = tmp_path / "t1.sqlite3", tmp_path / "t1-clone.sqlite3"
    play_journal(first, seed=8, matches=3)
    shutil.copy(first, clone)
    with live_hub(dsn) as hub:
        t1, t2 = hub.kiosk("table-1", tmp_path), hub.kiosk("table-2", tmp_path)
        assert main(["sync", "--journal", str(first), "--hub", hub.url, "--token-file", str(t1)]) == 0
        capsys.readouterr()
        with Journal.open(clone) as j:  # the clone plays on
            table = new_table(j, 99, players=(1, 2), now=50_000 * S)
            while table.step():
                pass
        assert main(["sync", "--journal", str(clone), "--hub", hub.url, "--token-file", str(t2)]) == 1
        out = capsys.readouterr()
        assert "1 matches acknowledged (1 verified, 0 rejected)" in out.out and "3 refused in" in out.out
        assert out.err.count("refused match") == 3 and "uploaded first by kiosk 'table-1'" in out.err
        listed = hub.rows("SELECT c.key, k.name FROM conflicts c JOIN kiosks k ON k.uuid = c.kiosk")
        assert len(listed) == 3 and {k for _, k in listed} == {"table-2"}
        assert main(["sync", "--journal", str(clone), "--hub", hub.url, "--token-file", str(t2)]) == 0
        assert "in 0 uploads" in capsys.readouterr().out  # refused keys are not sent again
        assert hub.count("matches") == 4
        assert hub.rows("SELECT sum(times) FROM conflicts")[0][0] == 3


def test_a_tampered_journal_is_rejected_with_its_reason(dsn: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "t1.sqlite3"
    play_journal(path, seed=9, matches=3)
    conn = sqlite3.connect(path)
    match_id, key, winner = conn.execute(
        "SELECT id, uuid, winner FROM matches WHERE finished = 1 AND winner IS NOT NULL ORDER BY id").fetchone()
    conn.execute("UPDATE matches SET winner = ? WHERE id = ?", (1 - winner, match_id))  # the claimed winner changed
    conn.commit()
    conn.close()
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        assert main(["sync", "--journal", str(path), "--hub", hub.url, "--token-file", str(token)]) == 0
        out = capsys.readouterr()
        assert "3 matches acknowledged (2 verified, 1 rejected)" in out.out
        assert f"rejected match {key}: the replay does not reproduce the claimed result" in out.err
        status, rejection = hub.rows("SELECT status, rejection FROM matches WHERE uuid = %s", key)[0]
        assert status == "rejected" and f"winner seat {1 - winner} claimed, seat {winner} on replay" in rejection
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT result FROM club_acks WHERE uuid = ?", (key,)).fetchone() == ("rejected",)
    conn.close()


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
