"""A club event's pairing at the table (issue 25), headless through the real app: the home screen shows it on
both halves, Start opens the ready screen with its players and the event's settings, berserk halves a
player's own bank, the match names its pairing in the journal and in its upload, a restart shows the
pairing again or resumes the started match. The pairing arrives from a hub on 127.0.0.1 that speaks
docs/events-protocol.md (``event_hub_support``) through the real worker and the store's access."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from event_hub_support import TOKEN, EventHub, pairing_body
from kiosk_support import drawn_texts, event_table, intents_on_screen, open_app, playing, poll, tap

from engine import NS_PER_S, Phase
from hardware.events import Button, InputEvent
from kiosk.app import App
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient
from kiosk.club.outbox import match_upload
from kiosk.club.table_pairing import PairingBox
from kiosk.club.worker import KeeperAccess
from kiosk.config import KioskConfig, MatchSettings
from kiosk.store.audit import replays_as_recorded
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.table import intents as do
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock

S = NS_PER_S
ANNA = "11111111-1111-4111-8111-111111111111"
BEN = "22222222-2222-4222-8222-222222222222"
LINE = "Anna vs Ben — Friday Swiss, round 3"


@pytest.fixture
def hub() -> Iterator[EventHub]:
    h = EventHub().start()
    yield h
    h.close()


def at_table(journal: Journal, hub: EventHub, clock: FakeClock, orientation: str = "table"
             ) -> tuple[App, AssignmentWorker]:
    """The app on ``journal`` with a club-event worker (run by hand: ``run_once``) filling its box."""
    return event_table(journal, hub.url, TOKEN, clock, orientation)


texts = drawn_texts


def play_out(app: App) -> None:
    """Both players resign the match at once (the quickest end that is still a played match)."""
    s = playing(app)
    s.resign(0, app.clock.now())
    app.step(wait=False)
    assert s.match.is_over


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_the_home_screen_shows_the_pairing_for_both_seats_with_its_start(journal: Journal, hub: EventHub,
                                                                         orientation: str) -> None:
    app, w = at_table(journal, hub, FakeClock(10 * S), orientation)
    assert intents_on_screen(app, do.StartPairing) == []
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(body)
    poll(app, w)
    starts = intents_on_screen(app, do.StartPairing)
    assert starts == [do.StartPairing(body["uuid"])] * (2 if orientation == "table" else 1)
    shown = texts(app)
    assert shown.count(LINE) == (2 if orientation == "table" else 1)
    assert do.NewMatch() in intents_on_screen(app)  # beside the usual choices
    hub.give(None)  # the hub cancels it before anyone pressed Start: gone from the screen
    poll(app, w)
    assert intents_on_screen(app, do.StartPairing) == [] and LINE not in texts(app)


def test_start_opens_the_ready_screen_with_the_event_players_and_settings(journal: Journal, hub: EventHub) -> None:
    clock = FakeClock(10 * S)
    app, w = at_table(journal, hub, clock)
    hub.give(body := pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    poll(app, w)
    tap(app, do.StartPairing(body["uuid"]))
    s = playing(app)
    assert app.ui.screen == Screen.MATCH and s.screen == Screen.READY
    assert [p.name if p else None for p in app.ui.records.chosen] == ["Anna", "Ben"]
    config = s.match.config
    assert config.bank_ns == (90 * S, 90 * S) and config.delay_ns == 5 * S and config.balances == (60, 60)
    assert app.config.match.bank_seconds == 120  # the owner's settings are not the event's
    assert intents_on_screen(app, do.OpenPicker) == []  # the event's seats: no picker
    assert intents_on_screen(app, do.Berserk) == []  # a Swiss has no berserk
    assert "Friday Swiss, round 3" in texts(app)
    hub.give(None)  # the hub cancels it now: the players are at the table, it is kept
    poll(app, w)
    tap(app, do.Start(0))
    assert s.match.phase is not Phase.READY
    keeper = app.controller.keeper
    assert keeper is not None and keeper.current is not None
    match_uuid = keeper.current.uuid
    poll(app, w)  # the worker writes the pairing's link
    with journal.database.read() as conn:
        assert conn.execute("SELECT event_pairing, berserk FROM matches WHERE uuid = ?", (match_uuid,)).fetchone() \
            == (body["uuid"], "[]")
        assert conn.execute("SELECT match_uuid FROM event_pairings").fetchone() == (match_uuid,)
    play_out(app)
    tap(app, do.GoHome)
    assert intents_on_screen(app, do.StartPairing) == []  # played: never offered again
    hub.give(body)  # the hub still lists it until the result is in: not taken again
    poll(app, w)
    assert intents_on_screen(app, do.StartPairing) == [] and hub.acks == [body["uuid"]]
    with journal.database.read() as conn:
        record = conn.execute("SELECT id FROM matches WHERE uuid = ?", (match_uuid,)).fetchone()
        upload = match_upload(conn, int(record[0]))
    assert upload["header"]["event_pairing"] == body["uuid"] and upload["header"]["berserk"] == []
    assert upload["header"]["players"] == [ANNA, BEN]


def test_berserk_halves_the_players_own_bank_and_the_upload_says_so(journal: Journal, hub: EventHub) -> None:
    clock = FakeClock(10 * S)
    app, w = at_table(journal, hub, clock)
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")), name="Arena night", fmt="arena", round_=None,
                        bank=120, berserk=True)
    hub.give(body)
    poll(app, w)
    assert "Anna vs Ben — Arena night" in texts(app)
    tap(app, do.StartPairing(body["uuid"]))
    s = playing(app)
    assert sorted(intents_on_screen(app, do.Berserk), key=lambda i: i.player) == [do.Berserk(0), do.Berserk(1)]
    assert texts(app).count("Berserk: half my bank, +1 point for a win") == 2
    tap(app, do.Berserk(0))
    assert s.match.config.bank_ns == (60 * S, 120 * S)
    tap(app, do.Berserk(0))  # taken back
    assert s.match.config.bank_ns == (120 * S, 120 * S)
    tap(app, do.Berserk(1))
    assert s.match.config.bank_ns == (120 * S, 60 * S)
    assert "Berserk chosen: half the bank" in texts(app)
    tap(app, do.Start(1))
    assert intents_on_screen(app, do.Berserk) == []  # after the first Start: no more berserk
    assert s.match.bank_ns(1, clock.now()) <= 60 * S
    play_out(app)
    keeper = app.controller.keeper
    assert keeper is not None and keeper.current is not None
    with journal.database.read() as conn:
        match_id = int(conn.execute("SELECT id FROM matches WHERE uuid = ?", (keeper.current.uuid,)).fetchone()[0])
        upload = match_upload(conn, match_id)
    header = upload["header"]
    assert header["event_pairing"] == body["uuid"] and header["berserk"] == [1]
    assert header["config"]["bank_ns"] == [120 * S, 60 * S]  # the hub's replay starts from the halved bank
    assert replays_as_recorded(journal, match_id) is True


def test_home_before_the_first_start_offers_the_pairing_again(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub, FakeClock(10 * S))
    hub.give(body := pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    poll(app, w)
    tap(app, do.StartPairing(body["uuid"]))
    assert intents_on_screen(app, do.StartPairing) == []
    tap(app, do.GoHome)
    assert intents_on_screen(app, do.StartPairing) == [do.StartPairing(body["uuid"])] * 2
    tap(app, do.NewMatch)  # an ordinary match meanwhile: the owner's settings, any seats, no pairing
    s = playing(app)
    assert s.match.config.bank_ns == (120 * S, 120 * S) and do.OpenPicker(0) in intents_on_screen(app)
    tap(app, do.Start(0))
    keeper = app.controller.keeper
    assert keeper is not None and keeper.current is not None
    with journal.database.read() as conn:
        assert conn.execute("SELECT event_pairing FROM matches WHERE uuid = ?",
                            (keeper.current.uuid,)).fetchone() == (None,)


def test_accept_at_home_starts_the_pairing_shown(journal: Journal, hub: EventHub) -> None:
    clock = FakeClock(10 * S)
    app, w = at_table(journal, hub, clock)
    hub.give(body := pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    poll(app, w)
    assert app.controller.button_intent(0, Button.ACCEPT) == do.StartPairing(body["uuid"])
    clock.t += S
    app.controller.press(InputEvent(0, Button.ACCEPT, app.clock.now(), "gpio"))
    assert playing(app).screen == Screen.READY
    assert [p.name if p else None for p in app.ui.records.chosen] == ["Anna", "Ben"]


def test_a_press_for_a_pairing_no_longer_shown_does_nothing(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub, FakeClock(10 * S))
    hub.give(old := pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    poll(app, w)
    hub.moved.add(old["uuid"])
    hub.give(new := pairing_body(players=((BEN, "Ben"), (ANNA, "Anna")), round_=4))
    w.run_once(app.clock.now())  # the worker took the new one; the screen still shows the old one
    app.controller.handle(do.StartPairing(old["uuid"]), app.clock.now())
    assert app.session is None
    app.step(wait=False)
    assert intents_on_screen(app, do.StartPairing) == [do.StartPairing(new["uuid"])] * 2


def test_a_restart_shows_the_unstarted_pairing_or_resumes_the_started_match(tmp_path: Path, hub: EventHub) -> None:
    path = tmp_path / "journal.sqlite3"
    clock = FakeClock(10 * S)
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(body)
    with Journal.open(path) as journal:
        app, w = at_table(journal, hub, clock)
        poll(app, w)
        app.close()
    hub.give(None)
    hub.down = True  # the hub away after the restart: the table shows what it keeps
    with Journal.open(path) as journal:
        app, w = at_table(journal, hub, clock)
        assert intents_on_screen(app, do.StartPairing) == [do.StartPairing(body["uuid"])] * 2
        tap(app, do.StartPairing(body["uuid"]))
        tap(app, do.Start(0))
        started = playing(app).match.phase
        assert started is not Phase.READY
        poll(app, w)  # the hub still away: the match goes on
        app.close()
    hub.down = False  # back, and it says null: the started match is played to the end
    with Journal.open(path) as journal:
        app, w = at_table(journal, hub, clock)
        s = playing(app)
        assert not s.match.is_over and s.match.phase is not Phase.READY
        assert [p.name if p else None for p in app.ui.records.chosen] == ["Anna", "Ben"]
        poll(app, w)
        assert not playing(app).match.is_over and w.box.pending() is None
        with journal.database.read() as conn:
            assert conn.execute("SELECT dropped_wall FROM event_pairings").fetchone() == (None,)
        play_out(app)
        tap(app, do.GoHome)
        assert intents_on_screen(app, do.StartPairing) == []


def test_an_ordinary_match_upload_has_no_event_fields(journal: Journal) -> None:
    app = open_app(journal, FakeClock(10 * S))
    app.step(wait=False)
    tap(app, do.NewMatch)
    tap(app, do.Start(0))
    play_out(app)
    with journal.database.read() as conn:
        upload = match_upload(conn, 1)
    assert "event_pairing" not in upload["header"] and "berserk" not in upload["header"]


def test_the_worker_on_its_thread_writes_through_the_store_writer(tmp_path: Path, hub: EventHub) -> None:
    """The kiosk as it runs: the keeper's commits on its writer thread, the worker on its own thread
    (its bookkeeping as writer jobs), the frame loop reading the box only."""
    clock = FakeClock(10 * S)
    keeper = JournalKeeper.open(tmp_path / "journal.sqlite3", "boot-1", clock.now(), threaded=True)
    assert keeper.writer is not None
    config = KioskConfig()
    app = App(replace(config, match=MatchSettings(handover=False)), clock=clock, size=(800, 480),
              hardware_backend="mock", rng=random.Random(3), keeper=keeper, boot_id="boot-1")
    w = AssignmentWorker(KeeperAccess(keeper), HubClient(hub.url, TOKEN, timeout_s=5), PairingBox(), clock=clock.now)
    app.controller.events.box = w.box
    hub.give(body := pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    w.start()
    try:
        state = w.wait_round(0, 30)
        assert state.did == "stored" and state.failures == 0, state
        app.step(wait=False)
        tap(app, do.StartPairing(body["uuid"]))
        tap(app, do.Start(0))
        play_out(app)
        rounds = w.state.rounds
        w.poke()
        assert w.wait_round(rounds, 30).failures == 0
    finally:
        w.stop()
    for _ in range(100):  # the keeper hands its last commits to the writer at the next frames
        if keeper.writer.wait_idle(10) and not keeper.state.unsaved:
            break
        clock.advance(0.1)
        app.step(wait=False)
    assert not keeper.state.unsaved
    journal = keeper.journal
    assert journal is not None
    with journal.database.read() as conn:
        linked = conn.execute("SELECT e.match_uuid = m.uuid, m.event_pairing, m.finished FROM event_pairings e "
                              "JOIN matches m ON m.event_pairing = e.uuid").fetchall()
    assert linked == [(1, body["uuid"], 1)]
    app.close()
    keeper.close()
