"""The table's club-event worker (issue 25) against a hub on 127.0.0.1 that speaks docs/events-protocol.md
(``event_hub_support``): a pairing stored in a real journal, then acknowledged; 409, 404 and ``null``;
a pairing the players claimed is kept; the back-off while the hub is away; a restart; the migration."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from event_hub_support import TOKEN, EventHub, pairing_body
from journal_support import journal_before

from engine import NS_PER_S, MatchConfig
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient
from kiosk.club.pairing import BadPairing, open_pairing, parse_pairing, status
from kiosk.club.sync import DirectAccess
from kiosk.club.table_pairing import PairingBox
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.schema import EVENTS, SCHEMA_VERSION

S = NS_PER_S
ANNA = "11111111-1111-4111-8111-111111111111"
BEN = "22222222-2222-4222-8222-222222222222"


@pytest.fixture
def hub() -> Iterator[EventHub]:
    h = EventHub().start()
    yield h
    h.close()


def worker(journal: Journal, hub: EventHub, box: PairingBox | None = None, clock: list[int] | None = None,
           lines: list[str] | None = None) -> AssignmentWorker:
    now = clock if clock is not None else [0]
    return AssignmentWorker(DirectAccess(journal.database), HubClient(hub.url, TOKEN, timeout_s=5), box or PairingBox(),
                            clock=lambda: now[0], wall_clock=lambda: 1_764_690_000.0,
                            log=None if lines is None else lines.append)


def rows(journal: Journal, sql: str, *args: object) -> list[tuple[object, ...]]:
    with journal.database.read() as conn:
        return [tuple(r) for r in conn.execute(sql, args)]


def test_a_new_pairing_is_stored_then_acknowledged_and_its_missing_player_added(journal: Journal,
                                                                                 hub: EventHub) -> None:
    anna = Players(journal).create("Anna")
    with journal.database.transaction() as conn:
        conn.execute("UPDATE players SET uuid = ? WHERE id = ?", (ANNA, anna.id))
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(body)
    w = worker(journal, hub)
    state = w.run_once(0)
    assert state.failures == 0 and state.did == "stored" and state.shown == body["uuid"]
    assert state.retry_ns == 5 * S  # every 5 s while the hub answers
    assert hub.acks == [body["uuid"]]
    [(stored, acked)] = rows(journal, "SELECT body, acked_wall FROM event_pairings")
    assert json.loads(str(stored)) == body and acked == 1_764_690_000.0
    ben = Players(journal).find("Ben")
    assert ben is not None and rows(journal, "SELECT uuid FROM players WHERE id = ?", ben.id) == [(BEN,)]
    assert rows(journal, "SELECT result FROM club_acks WHERE uuid = ?", BEN) == [("roster",)]  # never uploaded back
    shown = w.box.pending()
    assert shown is not None and shown.uuid == body["uuid"] and shown.local_ids == (anna.id, ben.id) and shown.acked
    assert (shown.event_name, shown.round, shown.bank_seconds, shown.delay_seconds, shown.balances) == \
        ("Friday Swiss", 3, 90.0, 5.0, 60)
    # asked again: the same pairing is neither stored nor acknowledged twice
    assert w.run_once(5 * S).did == "" and hub.acks == [body["uuid"]]
    assert len(rows(journal, "SELECT uuid FROM event_pairings")) == 1


def test_a_pairing_moved_before_its_acknowledgement_is_dropped(journal: Journal, hub: EventHub) -> None:
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(body)
    hub.moved.add(body["uuid"])
    w = worker(journal, hub)
    state = w.run_once(0)
    assert state.failures == 0 and state.shown is None and w.box.pending() is None
    [(why,)] = rows(journal, "SELECT dropped_why FROM event_pairings")
    assert "409" in str(why) and "moved to table 2" in str(why)


def test_null_drops_an_unstarted_pairing_but_not_one_the_players_claimed(journal: Journal, hub: EventHub) -> None:
    first = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(first)
    w = worker(journal, hub)
    w.run_once(0)
    assert w.box.pending() is not None
    hub.give(None)
    assert w.run_once(5 * S).did == "dropped" and w.box.pending() is None
    with journal.database.read() as conn:
        assert status(conn, first["uuid"]) == "dropped"
    # the hub gives it again (moved back): open again; the players press Start; then the hub says null
    hub.give(first)
    w.run_once(10 * S)
    assert w.box.claim(first["uuid"]) is not None
    hub.give(None)
    assert w.run_once(15 * S).did == ""
    with journal.database.read() as conn:
        assert status(conn, first["uuid"]) == "open"  # kept: the players are at the table


def test_a_different_pairing_replaces_the_kept_one_only_when_the_hub_refuses_the_kept_one(journal: Journal,
                                                                                          hub: EventHub) -> None:
    first = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    second = pairing_body(players=((BEN, "Ben"), (ANNA, "Anna")), round_=4)
    hub.give(first)
    w = worker(journal, hub)
    w.run_once(0)
    hub.give(second)  # the hub moved the first (its ack is no longer this table's: 404) and gives another
    state = w.run_once(5 * S)
    assert state.did == "stored" and state.shown == second["uuid"]
    assert hub.acks == [first["uuid"], first["uuid"], second["uuid"]]
    with journal.database.read() as conn:
        assert status(conn, first["uuid"]) == "dropped" and status(conn, second["uuid"]) == "open"
    # while the players are at the table with the second, a third is not taken
    third = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")), round_=5)
    assert w.box.claim(second["uuid"]) is not None
    hub.give(third)
    assert w.run_once(10 * S).did == "kept"
    with journal.database.read() as conn:
        assert status(conn, third["uuid"]) is None


def test_the_hub_away_backs_off_then_polls_every_5_s_again(journal: Journal, hub: EventHub) -> None:
    lines: list[str] = []
    w = worker(journal, hub, lines=lines)
    hub.down = True
    now = 0
    waits = []
    for _ in range(4):
        state = w.run_once(now)
        assert state.failures > 0 and state.retry_ns is not None
        waits.append((state.retry_ns - now) // S)
        now = state.retry_ns
    assert waits == [5, 10, 20, 40]
    assert any("503" in line for line in lines)
    hub.down = False
    hub.give(pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))))
    state = w.run_once(now)
    assert state.failures == 0 and state.retry_ns == now + 5 * S and state.did == "stored"


def test_an_answer_that_is_not_a_pairing_stores_nothing(journal: Journal, hub: EventHub) -> None:
    body = pairing_body(players=((ANNA, "Anna"), (ANNA, "Anna")))
    hub.give(body)
    state = worker(journal, hub).run_once(0)
    assert state.failures == 1 and "same player in both seats" in str(state.error)
    assert rows(journal, "SELECT uuid FROM event_pairings") == [] and hub.acks == []
    for broken, why in (({"bank_seconds": 0, "delay_seconds": 5, "balances": 60}, "bank_seconds"),
                        ({"bank_seconds": 60, "delay_seconds": -1, "balances": 60}, "delay_seconds"),
                        ({"bank_seconds": 60, "delay_seconds": 5, "balances": 1.5}, "balances")):
        bad = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben"))) | {"settings": broken}
        with pytest.raises(BadPairing, match=why):
            parse_pairing(bad)
    # berserk is an arena's only
    swiss = parse_pairing(pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")), berserk=True))
    assert not swiss.berserk


def test_a_restart_shows_the_stored_pairing_before_the_hub_answers(tmp_path: Path, hub: EventHub) -> None:
    path = tmp_path / "journal.sqlite3"
    body = pairing_body(players=((ANNA, "Anna"), (BEN, "Ben")))
    hub.give(body)
    with Journal.open(path) as journal:
        worker(journal, hub).run_once(0)
    hub.close()  # the hub is gone after the restart
    with Journal.open(path) as journal:
        again = worker(journal, hub)
        again.load()
        shown = again.box.pending()
        assert shown is not None and shown.uuid == body["uuid"] and shown.acked
        assert again.run_once(0).failures == 1 and again.box.pending() is not None  # kept while the hub is away


def test_a_journal_of_the_version_before_takes_the_event_columns(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = journal_before(path, EVENTS)  # the journal as the version before the events' left it
    conn.execute("INSERT INTO players (name, created_wall, rating, rd, volatility, uuid) VALUES ('Ann', 1, 1500, 350, "
                 "0.06, ?)", (ANNA,))
    conn.execute("INSERT INTO matches (player0, created_wall, config, uuid) VALUES (1, 2, ?, ?)",
                 (json.dumps(MatchConfig().to_dict()), "0192bbbb-0000-7000-8000-000000000001"))
    conn.commit()
    conn.close()
    with Journal.open(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION and journal.warnings == []
        assert rows(journal, "SELECT event_pairing, berserk FROM matches") == [(None, None)]
        with journal.database.read() as c:
            assert open_pairing(c) is None
        assert rows(journal, "SELECT uuid FROM players") == [(ANNA,)]
