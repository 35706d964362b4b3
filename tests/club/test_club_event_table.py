"""A kiosk as an event table against a real hub on 127.0.0.1 (issue 25, docs/events-protocol.md): the
table's assignment worker stores and acknowledges the hub's pairing, the players start it on the home
screen through the real app (berserk in an arena), and the normal upload settles the pairing at the
hub, once, with the berserk point counted."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import httpx
import psycopg
import pytest
from club_page_support import SseReader
from club_sync_support import live_hub
from kiosk_support import intents_on_screen, open_app, playing, tap

from club import eventstore
from engine import NS_PER_S
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient, read_token
from kiosk.club.live import LiveSender
from kiosk.club.live_feed import LiveFeed
from kiosk.club.sync import SyncRound
from kiosk.club.table_pairing import PairingBox
from kiosk.club.worker import KeeperAccess
from kiosk.devtools.soak import main as soak_main
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S
T = TypeVar("T")


def test_an_arena_pairing_from_the_hub_is_played_at_the_table_and_settled_by_its_upload(dsn: str,
                                                                                           tmp_path: Path) -> None:
    with live_hub(dsn) as hub, Journal.open(tmp_path / "journal.sqlite3") as journal:
        client = HubClient(hub.url, read_token(hub.kiosk("table-1", tmp_path)), timeout_s=30)
        app = open_app(journal, FakeClock(10 * S))
        keeper = app.controller.keeper
        assert keeper is not None
        access = KeeperAccess(keeper)
        anna, ben = Players(journal).create("Anna"), Players(journal).create("Ben")
        SyncRound(access, client).run()  # the table's players reach the hub as every new player does
        with psycopg.connect(dsn) as conn:
            event = eventstore.create_event(conn, name="Arena night", format="arena", now=time.time(), minutes=30,
                                            bank_seconds=90, delay_seconds=5, balances=50, berserk=True)
            for p in (anna, ben):
                [(key,)] = conn.execute("SELECT uuid FROM players WHERE name = %s", (p.name,)).fetchall()
                eventstore.join(conn, event, key, time.time())
            eventstore.start(conn, event, time.time())
        worker = AssignmentWorker(access, client, PairingBox(), clock=app.clock.now)
        app.controller.events.box = worker.box
        state = worker.run_once(app.clock.now())
        assert state.failures == 0 and state.did == "stored", state
        [(pairing, hub_state)] = hub.rows("SELECT uuid, state FROM event_pairings WHERE event = %s", event)
        assert hub_state == "acknowledged" and state.shown == str(pairing)
        app.step(wait=False)
        starts = intents_on_screen(app, do.StartPairing)
        assert starts == [do.StartPairing(str(pairing))] * 2
        tap(app, starts[0])
        s = playing(app)
        seated = [p.id if p else None for p in app.ui.records.chosen]
        assert sorted(x for x in seated if x is not None) == sorted([anna.id, ben.id])
        assert s.match.config.bank_ns == (90 * S, 90 * S) and s.match.config.balances == (50, 50)
        tap(app, do.Berserk(0))
        assert s.match.config.bank_ns == (45 * S, 90 * S)
        tap(app, do.Start(0))
        s.resign(1, app.clock.now())  # seat 1 resigns: seat 0, berserk, wins
        app.step(wait=False)
        assert s.match.is_over
        worker.run_once(app.clock.now())  # the pairing is played: the hub still lists it, the table keeps it
        assert worker.box.pending() is None
        summary = SyncRound(access, client).run()
        assert summary.verified == 1, summary.line()
        [(after, match, flags)] = hub.rows("SELECT state, match, berserk FROM event_pairings WHERE uuid = %s", pairing)
        assert after == "played" and match is not None
        seat0 = (anna if seated[0] == anna.id else ben).name
        assert flags == [True, False]
        standings = httpx.get(f"{hub.url}/api/v1/events/{event}/standings", timeout=30).json()
        scores = {row["name"]: row["score"] for row in standings["standings"]}
        assert scores[seat0] == 3 and sum(scores.values()) == 3, standings  # 2 for the win, 1 for berserk
        assert SyncRound(access, client).run().verified == 0  # sent once
        app.close()


@pytest.mark.slow
def test_a_soak_as_an_event_table_plays_the_arena_pairings_the_hub_gives(dsn: str, tmp_path: Path, capsys) -> None:
    """``soak --event-table --hub URL --token-file F``: the soak waits for the hub's pairings, plays each
    through the app with its computer players (berserk now and then) and uploads it; the hub settles them."""
    journal = tmp_path / "soak.sqlite3"
    with live_hub(dsn) as hub:
        token = hub.kiosk("soak-table", tmp_path)
        other = read_token(hub.kiosk("registry", tmp_path))
        players = [{"uuid": str(uuid.uuid4()), "name": n} for n in ("Anna", "Ben")]
        got = httpx.post(f"{hub.url}/api/v1/uploads", json={"players": players, "matches": []},
                         headers={"Authorization": f"Bearer {other}"}, timeout=30)
        assert got.status_code == 200, got.text
        with psycopg.connect(dsn) as conn:
            event = eventstore.create_event(conn, name="Soak arena", format="arena", now=time.time(), minutes=30,
                                            bank_seconds=30, delay_seconds=1, balances=10, berserk=True)
            for p in players:
                eventstore.join(conn, event, p["uuid"], time.time())
            eventstore.start(conn, event, time.time())
        assert soak_main(["--minutes", "0.7", "--seed", "3", "--journal", str(journal), "--event-table",
                          "--hub", hub.url, "--token-file", str(token)]) == 0
        out = capsys.readouterr().out
        assert "exceptions: 0" in out and "event table:" in out, out
        played = hub.rows("SELECT p.match, m.status, m.event_pairing FROM event_pairings p JOIN matches m "
                          "ON m.uuid = p.match WHERE p.event = %s AND p.state IN ('played', 'aborted')", event)
        assert played and all(status == "verified" for _, status, _ in played), (played, out)
        assert all(pairing is not None for _, _, pairing in played)
    conn2 = sqlite3.connect(journal)
    local = conn2.execute("SELECT uuid FROM matches WHERE event_pairing IS NOT NULL AND finished = 1").fetchall()
    others = conn2.execute("SELECT count(*) FROM matches WHERE event_pairing IS NULL").fetchone()[0]
    conn2.close()
    assert {str(m) for (m,) in local} >= {str(m) for m, _, _ in played} and others == 0  # the hub's pairings only


def test_the_running_kiosk_stores_and_acknowledges_its_pairing(dsn: str, tmp_path: Path) -> None:
    """``python -m kiosk`` with ``[club] url``: the assignment worker runs beside the sync's; the hub's
    pairing is in the journal and acknowledged while the frame loop runs."""
    (tmp_path / "run").mkdir()
    journal = tmp_path / "journal.sqlite3"
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        other = read_token(hub.kiosk("registry", tmp_path))
        players = [{"uuid": str(uuid.uuid4()), "name": n} for n in ("Anna", "Ben")]
        assert httpx.post(f"{hub.url}/api/v1/uploads", json={"players": players, "matches": []},
                          headers={"Authorization": f"Bearer {other}"}, timeout=30).status_code == 200
        with psycopg.connect(dsn) as conn:
            event = eventstore.create_event(conn, name="Arena night", format="arena", now=time.time(), minutes=30)
            for p in players:
                eventstore.join(conn, event, p["uuid"], time.time())
            eventstore.start(conn, event, time.time())
        config = tmp_path / "config.toml"
        config.write_text(f'[club]\nurl = "{hub.url}"\ntoken_file = "{token}"\n')
        env = {key: value for key, value in os.environ.items()
               if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "DISPLAY", "WAYLAND_DISPLAY")}
        env.update(STATE_DIRECTORY=str(tmp_path / "state"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        child = subprocess.Popen([sys.executable, "-P", "-m", "kiosk", "--runtime-dir", str(tmp_path / "run"),
                                  "--config", str(config), "--journal", str(journal)], cwd=tmp_path, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 90
            while hub.rows("SELECT state FROM event_pairings WHERE event = %s", event) != [("acknowledged",)]:
                assert child.poll() is None, child.communicate()[1]  # polling the hub, not waiting for time
                assert time.monotonic() < deadline, "the kiosk acknowledged no pairing within 90 s"
                time.sleep(0.05)
        finally:
            child.send_signal(signal.SIGTERM)
            _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        [(pairing,)] = hub.rows("SELECT uuid FROM event_pairings WHERE event = %s", event)
        assert f"club event: pairing {pairing} stored" in err and token.read_text().strip() not in err
    conn2 = sqlite3.connect(journal)
    try:
        assert conn2.execute("SELECT uuid, acked_wall IS NOT NULL, dropped_wall FROM event_pairings").fetchall() == \
            [(str(pairing), 1, None)]
    finally:
        conn2.close()


def test_a_table_that_goes_home_from_the_ready_screen_is_free_at_once_and_leaves_the_live_pages(
        dsn: str, tmp_path: Path) -> None:
    """The hub counts a table with a fresh unfinished live projection as playing (no pairing for two
    minutes); a table whose players go back home from the ready screen says so through its live feed,
    and the hub frees it at once: its next poll gets the pairing, and the live pages drop the table."""
    with live_hub(dsn) as hub, Journal.open(tmp_path / "journal.sqlite3") as journal:
        token = read_token(hub.kiosk("table-1", tmp_path))
        client = HubClient(hub.url, token, timeout_s=30)
        sender = LiveSender(hub.url, token)
        sender.start()
        app = open_app(journal, FakeClock(10 * S))
        app.live = LiveFeed(sender)
        other = read_token(hub.kiosk("registry", tmp_path))
        players = [{"uuid": str(uuid.uuid4()), "name": n} for n in ("Anna", "Ben")]
        assert httpx.post(f"{hub.url}/api/v1/uploads", json={"players": players, "matches": []},
                          headers={"Authorization": f"Bearer {other}"}, timeout=30).status_code == 200
        with psycopg.connect(dsn) as conn:
            event = eventstore.create_event(conn, name="Swiss", format="swiss", now=time.time(), rounds=1)
            for p in players:
                eventstore.join(conn, event, p["uuid"], time.time())
            eventstore.start(conn, event, time.time())
        stream = SseReader(f"{hub.url}/live/events").start()
        try:
            app.step(wait=False)
            tap(app, do.NewMatch())  # an ordinary match at the ready screen, not started
            key = _until(lambda: httpx.get(f"{hub.url}/api/v1/live", timeout=30).json())[0]["key"]
            assert client.assignment()["pairing"] is None  # busy: a live match of its own
            tap(app, do.GoHome)
            assert _until(lambda: httpx.get(f"{hub.url}/api/v1/live", timeout=30).json() == [])
            assert sender.stats.refused == 0
            pairing = client.assignment()["pairing"]
            assert pairing is not None and {p["name"] for p in pairing["players"]} == {"Anna", "Ben"}
            assert _until(lambda: [e for e in stream.events if e.get("event") == "gone"])
            gone = [json.loads(e["data"]) for e in stream.events if e.get("event") == "gone"]
            assert [g["key"] for g in gone] == [key]
            for page in ("/", "/tv"):  # nor on the pages
                assert key not in httpx.get(hub.url + page, timeout=30).text
        finally:
            stream.close()
            sender.close()
            app.close()


def _until(check: Callable[[], T], within_s: float = 30.0) -> T:
    """``check()``'s first true answer, asked until ``within_s`` (waiting for the hub's threads, not for time)."""
    deadline = time.monotonic() + within_s
    while not (answer := check()):
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)
    return answer
