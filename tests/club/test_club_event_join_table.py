"""Joining a club event at a table, end to end (issue 25): the real hub on 127.0.0.1 (uvicorn, a real
PostgreSQL) lists a running Swiss; at a table, through the real app and its real worker, a player only
this table knows (named in the join's picker, New player) and a club player from the roster join; the
hub enters the first from the next round (created as an upload creates a player, logged as joined at
the table, sent once) and refuses the second, who withdrew; each answer is shown on the half it was
pressed on."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import httpx
import psycopg
from club_sync_support import live_hub
from kiosk_support import draw_recorded, open_app, tap

from club import eventstore
from engine import NS_PER_S
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient, read_token
from kiosk.club.roster import download_roster
from kiosk.club.sync import SyncRound
from kiosk.club.table_pairing import PairingBox
from kiosk.club.worker import KeeperAccess
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S


def test_a_walk_in_joins_a_running_swiss_at_the_table_and_a_withdrawn_player_is_refused(dsn: str,
                                                                                        tmp_path: Path) -> None:
    with live_hub(dsn) as hub, Journal.open(tmp_path / "journal.sqlite3") as journal:
        registry = read_token(hub.kiosk("registry", tmp_path))
        club = [{"uuid": str(uuid.uuid4()), "name": n} for n in ("Anna", "Ben", "Chloé")]
        got = httpx.post(f"{hub.url}/api/v1/uploads", json={"players": club, "matches": []},
                         headers={"Authorization": f"Bearer {registry}"}, timeout=30)
        assert got.status_code == 200, got.text
        with psycopg.connect(dsn) as conn:
            event = str(eventstore.create_event(conn, name="Friday Swiss", format="swiss", now=time.time(), rounds=3))
            for p in club:
                eventstore.join(conn, event, p["uuid"], time.time())
            eventstore.start(conn, event, time.time())
            eventstore.withdraw(conn, event, club[1]["uuid"], time.time(), why="went home")
        client = HubClient(hub.url, read_token(hub.kiosk("table-1", tmp_path)), timeout_s=30)
        app = open_app(journal, FakeClock(10 * S))
        keeper = app.controller.keeper
        assert keeper is not None
        access = KeeperAccess(keeper)
        download_roster(access, client)  # the club's players at this table (Ben among them)
        worker = AssignmentWorker(access, client, PairingBox(), clock=app.clock.now)
        app.controller.events.box = worker.box
        assert worker.run_once(app.clock.now()).failures == 0
        app.step(wait=False)
        tap(app, do.JoinEvent(0, event))  # a walk-in names themselves in the join's picker: New player
        tap(app, do.NewPlayer(0))
        for ch in "DANA":
            tap(app, do.Key(ch))
        tap(app, do.JoinNamed())
        assert Players(journal).find("Dana") is not None  # named at this table, not yet known to the hub
        ben = Players(journal).find("Ben")
        assert ben is not None
        tap(app, do.JoinEvent(1, event))
        tap(app, do.JoinAs(ben.id))
        state = worker.run_once(app.clock.now())
        assert state.failures == 0, state
        with journal.database.read() as conn:
            joins = dict(conn.execute("SELECT player_name, result || ':' || coalesce(reason, '') FROM event_joins"))
            [(key, dana_uuid)] = conn.execute("SELECT key, player_uuid FROM event_joins WHERE player_name = 'Dana'")
        assert joins == {"Dana": "joined:", "Ben": "refused:withdrawn"}
        [(joined_round, name, kiosk)] = hub.rows(
            "SELECT x.joined_round, p.name, k.name FROM event_entrants x JOIN players p ON p.uuid = x.player"
            " JOIN kiosks k ON k.uuid = p.kiosk WHERE x.event = %s AND x.player = %s", event, dana_uuid)
        [(current,)] = hub.rows("SELECT current_round FROM events WHERE uuid = %s", event)
        assert (joined_round, name, kiosk) == (current + 1, "Dana", "table-1")  # from the next round (Ben's
        # withdrawal settled round 1 with a bye, so the poll paired round 2 first)
        logged = hub.rows("SELECT actor, detail->>'key', detail->>'table' FROM event_log WHERE event = %s"
                          " AND action = 'joined' AND detail->>'player' = %s", event, dana_uuid)
        assert logged == [("table table-1", key, "table-1")]
        shown = [f.text for f in draw_recorded(app, app.clock)]
        assert f"Dana joined Friday Swiss, from round {current + 1}" in shown
        assert "Ben withdrew from Friday Swiss and cannot join again" in shown
        worker.run_once(app.clock.now())  # answered: nothing sent again
        assert client.join(event, dana_uuid, "Dana", key)["result"] == "joined"  # the same key: the same answer
        assert len(hub.rows("SELECT 1 FROM event_log WHERE event = %s AND action = 'joined'", event)) == 4
        summary = SyncRound(access, client).run()  # Dana's own upload later: the hub holds her already
        assert summary.line() and hub.rows("SELECT count(*) FROM conflicts") == [(0,)]
        app.close()
