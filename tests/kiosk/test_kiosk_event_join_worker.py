"""A player's join at the table (issue 25), the worker's side, against a hub on 127.0.0.1 that speaks
docs/events-protocol.md (``event_hub_support``): the events taking entries kept and shown, a join kept
in a real journal before it is sent, sent once with its key, retried with the same key after the hub
was away, refusals kept, a restart with the hub away, and the journal of the version before migrated."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from event_hub_support import TOKEN, EventHub
from journal_support import journal_before

from engine import NS_PER_S
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient
from kiosk.club.joins import JoinableEvent, kept_joinable, new_join, unsent_joins
from kiosk.club.sync import DirectAccess
from kiosk.club.table_pairing import PairingBox
from kiosk.store.journal import Journal
from kiosk.store.schema import EVENT_JOINS, SCHEMA_VERSION

S = NS_PER_S
R = TypeVar("R")
ANNA = "11111111-1111-4111-8111-111111111111"
SWISS: dict[str, Any] = {"uuid": "0192aaaa-0000-7000-8000-000000000009", "name": "Friday Swiss", "format": "swiss", "round": 2}
EVENT = JoinableEvent(SWISS["uuid"], "Friday Swiss", "swiss", 2)


@pytest.fixture
def hub() -> Iterator[EventHub]:
    h = EventHub().start()
    yield h
    h.close()


def worker(journal: Journal, hub: EventHub, box: PairingBox | None = None,
           wall: list[float] | None = None) -> AssignmentWorker:
    at = wall if wall is not None else [1_764_690_000.0]
    return AssignmentWorker(DirectAccess(journal.database), HubClient(hub.url, TOKEN, timeout_s=5), box or PairingBox(),
                            clock=lambda: 0, wall_clock=lambda: at[0])


def rows(journal: Journal, sql: str, *args: object) -> list[tuple[object, ...]]:
    with journal.database.read() as conn:
        return [tuple(r) for r in conn.execute(sql, args)]


def test_the_events_taking_entries_are_kept_and_shown(journal: Journal, hub: EventHub) -> None:
    hub.joinable = [SWISS]
    w = worker(journal, hub)
    assert w.run_once(0).failures == 0
    assert w.box.joins.events() == (EVENT,) and w.box.joins.reachable()
    with journal.database.read() as conn:
        assert kept_joinable(conn) == (EVENT,)
    hub.down = True  # a restart with the hub away offers the last list the hub gave
    again = worker(journal, hub)
    again.load()
    assert again.box.joins.events() == (EVENT,) and not again.box.joins.reachable()
    assert again.run_once(0).failures == 1 and again.box.joins.events() == (EVENT,)
    hub.down, hub.joinable = False, None  # an older hub says nothing of joining: nothing offered
    assert again.run_once(0).failures == 0 and again.box.joins.events() == ()
    hub.joinable = [{"uuid": "not-a-uuid", "name": "X", "format": "swiss", "round": 1}]  # said, the last kept
    hub.joinable = [SWISS]
    again.run_once(0)
    hub.joinable = [{"uuid": "not-a-uuid", "name": "X", "format": "swiss", "round": 1}]
    state = again.run_once(0)
    assert state.failures == 0 and again.box.joins.events() == (EVENT,)


def test_a_join_is_kept_in_the_journal_then_sent_once_with_its_key(journal: Journal, hub: EventHub) -> None:
    hub.joinable = [SWISS]
    w = worker(journal, hub)
    w.run_once(0)
    woken: list[bool] = []
    w.box.joins.wake = lambda: woken.append(True)
    join = new_join(EVENT, 1, ANNA, "Anna", 1, 1_764_690_001.0)
    w.box.joins.queue(join)
    assert woken == [True] and [j.key for j in w.box.joins.shown()] == [join.key]  # shown before the worker runs
    hub.join_answer = {"result": "joined", "reason": None, "message": "joined", "round": 3,
                       "event": {"uuid": SWISS["uuid"], "name": "Friday Swiss", "format": "swiss"},
                       "player": {"uuid": ANNA, "name": "Anna"}}
    assert w.run_once(5 * S).failures == 0
    assert hub.joins == [(SWISS["uuid"], {"player": {"uuid": ANNA, "name": "Anna"}, "key": join.key})]
    assert rows(journal, "SELECT key, event_uuid, player_uuid, seat, result, reason, round, answered_wall"
                         " FROM event_joins") == [(join.key, SWISS["uuid"], ANNA, 1, "joined", None, 3, 1_764_690_000.0)]
    [shown] = w.box.joins.shown()
    assert (shown.result, shown.round, shown.seat) == ("joined", 3, 1)
    w.run_once(10 * S)  # answered: never sent again
    assert len(hub.joins) == 1


def test_a_join_pressed_with_the_hub_away_waits_in_the_journal_and_goes_with_the_same_key(
        journal: Journal, hub: EventHub, tmp_path: Path) -> None:
    hub.joinable = [SWISS]
    w = worker(journal, hub)
    w.run_once(0)
    hub.down = True
    join = new_join(EVENT, 1, ANNA, "Anna", 0, 1_764_690_001.0)
    w.box.joins.queue(join)
    assert w.run_once(5 * S).failures == 1
    with journal.database.read() as conn:
        assert [j.key for j in unsent_joins(conn)] == [join.key]  # kept before the hub was asked
    [shown] = w.box.joins.shown()
    assert shown.result is None and not w.box.joins.reachable()
    hub.down = False
    hub.join_status = 503  # the assignment answers, the join does not: the round fails, the join stays
    assert w.run_once(10 * S).failures == 2
    hub.join_status = 200
    again = worker(journal, hub)  # a restart: the journal's join goes, with its key
    again.load()
    assert [j.key for j in again.box.joins.shown()] == [join.key]
    assert again.run_once(0).failures == 0
    assert [body["key"] for _, body in hub.joins] == [join.key, join.key]  # the 503's try and the one answered
    assert len(hub.answers) == 1
    assert rows(journal, "SELECT result FROM event_joins") == [("joined",)]


class Watched(DirectAccess):
    """The journal on the caller's thread; ``written`` is set after each write."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal.database)
        self.written = threading.Event()

    def write(self, fn: Callable[[sqlite3.Connection], R]) -> R:
        value = super().write(fn)
        self.written.set()
        return value


def test_a_join_is_kept_at_once_while_the_round_waits_for_a_hub_that_hangs(journal: Journal, hub: EventHub) -> None:
    hub.joinable = [SWISS]
    access = Watched(journal)
    w = AssignmentWorker(access, HubClient(hub.url, TOKEN, timeout_s=30), PairingBox(), clock=time.monotonic_ns,
                         wall_clock=lambda: 1_764_690_000.0)
    hub.hold.set()
    w.start()
    try:
        assert hub.held.wait(10)  # the round waits for the hub's answer
        access.written.clear()
        join = new_join(EVENT, 1, ANNA, "Anna", 0, 1_764_690_001.0)
        w.box.joins.queue(join)
        assert access.written.wait(10)
        with journal.database.read() as conn:
            assert [j.key for j in unsent_joins(conn)] == [join.key]
        assert not hub.release.is_set() and hub.joins == []  # kept while the round still waits
    finally:
        hub.hold.clear()
        hub.release.set()
        w.stop()


def test_refusals_are_kept_with_their_reason_and_not_sent_again(journal: Journal, hub: EventHub) -> None:
    hub.joinable = [SWISS]
    w = worker(journal, hub)
    w.run_once(0)
    hub.join_answer = {"result": "refused", "reason": "withdrawn", "message": "this player withdrew", "round": None,
                       "event": None, "player": {"uuid": ANNA, "name": "Anna"}}
    w.box.joins.queue(new_join(EVENT, 1, ANNA, "Anna", 0, 1_764_690_001.0))
    w.run_once(5 * S)
    [shown] = w.box.joins.shown()
    assert (shown.result, shown.reason, shown.message) == ("refused", "withdrawn", "this player withdrew")
    w.run_once(10 * S)
    assert len(hub.joins) == 1


def test_an_answered_join_is_shown_for_two_minutes(journal: Journal, hub: EventHub) -> None:
    hub.joinable = [SWISS]
    wall = [1_764_690_000.0]
    w = worker(journal, hub, wall=wall)
    w.box.joins.queue(new_join(EVENT, 1, ANNA, "Anna", 0, wall[0]))
    w.run_once(0)
    assert len(w.box.joins.shown()) == 1
    wall[0] += 119
    w.run_once(5 * S)
    assert len(w.box.joins.shown()) == 1
    wall[0] += 2
    w.run_once(10 * S)
    assert w.box.joins.shown() == []


def test_a_journal_of_the_version_before_takes_the_joins_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = journal_before(path, EVENT_JOINS)
    conn.commit()
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION and journal.warnings == []
        with journal.database.read() as c:
            assert unsent_joins(c) == [] and kept_joinable(c) == ()
