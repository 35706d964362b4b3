"""A player joins a club event at the table (issue 25), headless through the real app: "Join <event>" on
both halves while the hub lists an event taking entries, the named-player picker turned to the half it
was pressed on, the join kept in the journal and sent by the real worker (against a hub on 127.0.0.1
that speaks docs/events-protocol.md, ``event_hub_support``), its answer on that half in that player's
language, and a press meaning what was on screen."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from event_hub_support import TOKEN, EventHub
from kiosk_support import drawn_texts, event_table, intents_on_screen, open_app, poll, spot_for, tap

from engine import NS_PER_S
from hardware.events import Button, InputEvent
from kiosk.app import App
from kiosk.club.assignment import AssignmentWorker
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock
from kiosk.ui.scenes.keyboard import Keyboard
from kiosk.ui.scenes.picker import Picker

S = NS_PER_S
SWISS: dict[str, Any] = {"uuid": "0192aaaa-0000-7000-8000-000000000009", "name": "Friday Swiss", "format": "swiss", "round": 2}
ARENA: dict[str, Any] = {"uuid": "0192aaaa-0000-7000-8000-00000000000a", "name": "Arena night", "format": "arena", "round": None}


@pytest.fixture
def hub() -> Iterator[EventHub]:
    h = EventHub().start()
    yield h
    h.close()


def at_table(journal: Journal, hub: EventHub, orientation: str = "table") -> tuple[App, AssignmentWorker]:
    """The app on ``journal`` (Anna and Ben named at this table) with the club-event worker run by hand."""
    Players(journal).create("Anna")
    Players(journal).create("Ben")
    return event_table(journal, hub.url, TOKEN, FakeClock(10 * S), orientation)


texts = drawn_texts


def uuid_of(journal: Journal, name: str) -> str:
    with journal.database.read() as conn:
        return str(conn.execute("SELECT uuid FROM players WHERE name = ?", (name,)).fetchone()[0])


def player_id(journal: Journal, name: str) -> int:
    found = Players(journal).find(name)
    assert found is not None
    return found.id


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_join_is_offered_on_both_halves_while_the_hub_lists_an_event(journal: Journal, hub: EventHub,
                                                                     orientation: str) -> None:
    app, w = at_table(journal, hub, orientation)
    assert intents_on_screen(app, do.JoinEvent) == []
    hub.joinable = [SWISS, ARENA]
    poll(app, w)
    joins = intents_on_screen(app, do.JoinEvent)
    if orientation == "table":
        assert joins == [do.JoinEvent(0, SWISS["uuid"]), do.JoinEvent(1, SWISS["uuid"])]
        assert texts(app).count("Join Friday Swiss") == 2
    else:
        assert joins == [do.JoinEvent(0, SWISS["uuid"])]
    for spot in app.hotspots:
        if isinstance(spot.intent, do.JoinEvent):
            assert min(spot.rect.width, spot.rect.height) >= 48
    hub.joinable = []  # the event closed: gone from the screen
    poll(app, w)
    assert intents_on_screen(app, do.JoinEvent) == []


def test_a_player_picks_their_name_and_the_join_is_kept_then_sent_and_answered_on_their_half(
        journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    app.ui.player_languages = [None, "uk"]  # Player 2 reads Ukrainian
    tap(app, do.JoinEvent(1, SWISS["uuid"]))
    assert app.ui.records.picker == 1 and isinstance(app.stage.stack()[-1], Picker)
    assert app.stage.context.facing(1)  # turned to the half it was opened from
    assert "Запис на «Friday Swiss»: хто ви?" in texts(app)
    anna, ben = player_id(journal, "Anna"), player_id(journal, "Ben")
    assert set(intents_on_screen(app, do.JoinAs)) == {do.JoinAs(anna), do.JoinAs(ben)}
    assert intents_on_screen(app, do.PickPlayer) == [] and intents_on_screen(app, do.NewPlayer) == [do.NewPlayer(1)]
    tap(app, do.JoinAs(ben))
    assert app.ui.records.picker is None and app.ui.screen == Screen.HOME and app.session is None
    assert "Ben: запис на «Friday Swiss» надсилається…" in texts(app)  # shown before the worker ran
    poll(app, w)
    assert hub.joins == [(SWISS["uuid"], {"player": {"uuid": uuid_of(journal, "Ben"), "name": "Ben"},
                                          "key": hub.joins[0][1]["key"]})]
    with journal.database.read() as conn:
        assert conn.execute("SELECT player_name, seat, result FROM event_joins").fetchall() == [("Ben", 1, "joined")]
    shown = texts(app)
    assert "Ben: записано на «Friday Swiss»" in shown and "Ben joined Friday Swiss" not in shown
    poll(app, w)
    assert len(hub.joins) == 1  # sent once


def test_with_the_hub_away_the_join_waits_and_says_so(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [ARENA]
    poll(app, w)
    hub.down = True
    poll(app, w)  # the hub is away: the last list is still offered
    tap(app, do.JoinEvent(0, ARENA["uuid"]))
    tap(app, do.JoinAs(player_id(journal, "Anna")))
    poll(app, w)
    assert "Anna joins Arena night: will be sent when the club is reachable" in texts(app)
    with journal.database.read() as conn:
        assert conn.execute("SELECT player_name, result FROM event_joins").fetchall() == [("Anna", None)]
    hub.down = False
    hub.join_answer = {"result": "refused", "reason": "closed", "message": "the event is over", "round": None,
                       "event": None, "player": {"uuid": uuid_of(journal, "Anna"), "name": "Anna"}}
    poll(app, w)
    assert "Anna cannot join: Arena night takes no more entries" in texts(app)


def test_a_press_means_the_event_that_was_on_screen(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    hub.joinable = [ARENA]
    w.run_once(app.clock.now())  # the list changed; a press for the event shown before does nothing
    app.do(do.JoinEvent(0, SWISS["uuid"]), app.clock.now())
    assert app.ui.records.picker is None
    app.step(wait=False)
    tap(app, do.JoinEvent(0, ARENA["uuid"]))
    assert app.ui.records.picker == 0
    hub.joinable = [SWISS]
    poll(app, w)  # the list changes while the picker is open: the picker's event is the one joined
    assert "Join Arena night: who are you?" in texts(app)
    tap(app, do.JoinAs(player_id(journal, "Anna")))
    poll(app, w)
    assert [event for event, _ in hub.joins] == [ARENA["uuid"]]


def test_cancel_closes_the_picker_and_a_match_starts_as_before(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.JoinEvent(0, SWISS["uuid"]))
    app.controller.press(InputEvent(0, Button.ACCEPT, app.clock.now(), "gpio"))  # a button while a name is picked: nothing
    assert app.session is None and app.ui.records.picker == 0
    tap(app, do.ClosePicker())
    assert app.ui.records.picker is None and app.controller.events.joins.joining is None
    assert intents_on_screen(app, do.JoinEvent) != []
    tap(app, do.NewMatch())
    assert app.session is not None and intents_on_screen(app, do.JoinEvent) == []  # not offered beside a match
    assert hub.joins == []


def test_the_join_picker_closes_after_a_while_without_input(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.JoinEvent(0, SWISS["uuid"]))
    assert app.ui.records.picker == 0
    assert isinstance(app.clock, FakeClock)
    app.clock.advance(app.config.kiosk.idle_return_seconds + 1)
    app.step(wait=False)
    assert app.ui.records.picker is None and app.controller.events.joins.joining is None
    assert intents_on_screen(app, do.JoinEvent) != [] and hub.joins == []


def test_no_club_no_join(journal: Journal) -> None:
    app = open_app(journal, FakeClock(10 * S))
    app.step(wait=False)
    assert intents_on_screen(app, do.JoinEvent) == []
    app.do(do.JoinEvent(0, SWISS["uuid"]), app.clock.now())
    assert app.ui.records.picker is None


def to_latin(app: App) -> None:
    """The keyboard's layout key pressed until it types Latin letters."""
    for _ in range(3):
        if app.ui.records.layout == "latin":
            return
        tap(app, do.KeyboardLayout)
    assert app.ui.records.layout == "latin"


def type_name(app: App, name: str) -> None:
    """Type ``name`` on the open keyboard, key by key (a capital at the start comes by itself)."""
    for ch in name:
        tap(app, do.Key(ch.upper()))


def typed_for_a_join(journal: Journal, hub: EventHub, name: str) -> tuple[App, AssignmentWorker]:
    """The table with Friday Swiss taking entries, Player 1's join picker open on New player's keyboard
    and ``name`` typed in Latin letters."""
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.JoinEvent(0, SWISS["uuid"]))
    tap(app, do.NewPlayer(0))
    to_latin(app)
    type_name(app, name)
    return app, w


def test_a_walk_in_names_themselves_in_the_join_picker_and_is_joined(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    app.ui.player_languages = [None, "uk"]
    tap(app, do.JoinEvent(1, SWISS["uuid"]))
    tap(app, do.NewPlayer(1))
    assert isinstance(app.stage.stack()[-1], Keyboard) and app.stage.context.facing(1)
    assert "Запис на «Friday Swiss»: ваше ім'я" in texts(app)
    to_latin(app)
    type_name(app, "Cleo")
    assert intents_on_screen(app, do.ConfirmName) == [] and intents_on_screen(app, do.JoinNamed) == [do.JoinNamed()]
    tap(app, do.JoinNamed())
    cleo = Players(journal).find("Cleo")
    assert cleo is not None  # made as at a ready screen, with the table's UUID for them
    assert app.ui.records.picker is None and app.ui.records.typing is None and app.session is None
    assert app.ui.records.chosen == [None, None]  # joined, not seated
    assert "Cleo: запис на «Friday Swiss» надсилається…" in texts(app)
    poll(app, w)
    assert hub.joins == [(SWISS["uuid"], {"player": {"uuid": uuid_of(journal, "Cleo"), "name": "Cleo"},
                                          "key": hub.joins[0][1]["key"]})]
    with journal.database.read() as conn:
        assert conn.execute("SELECT player_name, seat, result FROM event_joins").fetchall() == [("Cleo", 1, "joined")]


def test_a_seat_press_the_join_picker_never_showed_seats_no_one(journal: Journal, hub: EventHub) -> None:
    """The join picker's names carry JoinAs and its keyboard's OK JoinNamed: a PickPlayer or a ConfirmName
    reaching the table then (not from that screen) seats no one and makes no player; the join goes on."""
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.JoinEvent(0, SWISS["uuid"]))
    app.do(do.PickPlayer(0, player_id(journal, "Anna")), app.clock.now())
    assert app.ui.records.chosen == [None, None] and app.ui.records.picker == 0
    tap(app, do.NewPlayer(0))
    to_latin(app)
    type_name(app, "Cleo")
    app.do(do.ConfirmName(), app.clock.now())
    assert Players(journal).find("Cleo") is None
    assert app.ui.records.chosen == [None, None] and app.ui.records.typing == "Cleo"
    tap(app, do.JoinNamed())
    assert Players(journal).find("Cleo") is not None and app.ui.records.chosen == [None, None]
    poll(app, w)
    assert [j[1]["player"]["name"] for j in hub.joins] == ["Cleo"]


def test_a_taken_or_empty_name_in_the_join_picker_says_why_and_joins_no_one(journal: Journal, hub: EventHub) -> None:
    app, w = typed_for_a_join(journal, hub, "anna")  # Anna is named here already, whatever the case
    tap(app, do.JoinNamed())
    assert 'The name "Anna" is taken: pick it from the list or choose another.' in texts(app)
    assert app.ui.records.typing == "Anna" and app.ui.records.picker == 0
    app.do(do.JoinNamed(), app.clock.now())  # OK again: still refused
    assert [p.name for p in Players(journal).list()] == ["Anna", "Ben"]
    tap(app, do.CancelName())  # back to the list: the join's picker still
    assert isinstance(app.stage.stack()[-1], Picker) and "Join Friday Swiss: who are you?" in texts(app)
    tap(app, do.JoinAs(player_id(journal, "Anna")))
    poll(app, w)
    assert [body["player"]["name"] for _, body in hub.joins] == ["Anna"]


def test_with_no_named_player_yet_the_join_picker_offers_new_player(journal: Journal, hub: EventHub) -> None:
    app, w = event_table(journal, hub.url, TOKEN, FakeClock(10 * S))
    hub.joinable = [ARENA]
    poll(app, w)
    tap(app, do.JoinEvent(0, ARENA["uuid"]))
    assert "No named players yet: tap New player to add one." in texts(app)
    tap(app, do.NewPlayer(0))
    to_latin(app)
    type_name(app, "Dara")
    tap(app, do.JoinNamed())
    poll(app, w)
    assert [body["player"]["name"] for _, body in hub.joins] == ["Dara"]


def test_the_keyboards_ok_outside_a_join_seats_the_new_player_as_before(journal: Journal, hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.NewMatch())
    tap(app, do.OpenPicker(0))
    tap(app, do.NewPlayer(0))
    to_latin(app)
    type_name(app, "Eve")
    assert intents_on_screen(app, do.JoinNamed) == [] and intents_on_screen(app, do.ConfirmName) == [do.ConfirmName()]
    app.do(do.JoinNamed(), app.clock.now())  # a join's OK without a join's picker: nothing
    assert Players(journal).find("Eve") is None
    tap(app, do.ConfirmName())
    eve = Players(journal).find("Eve")
    assert eve is not None and app.ui.records.chosen[0] == eve and hub.joins == []


def test_a_join_for_a_player_the_journal_does_not_know_is_a_warning_not_a_crash(journal: Journal,
                                                                                 hub: EventHub) -> None:
    app, w = at_table(journal, hub)
    hub.joinable = [SWISS]
    poll(app, w)
    tap(app, do.JoinEvent(0, SWISS["uuid"]))
    app.do(do.JoinAs(9999), app.clock.now())  # no such player (deleted meanwhile): the journal says so
    assert app.ui.records.picker is None and app.controller.events.joins.joining is None
    assert app.ui.warnings and app.session is None
    poll(app, w)
    assert hub.joins == []
    with journal.database.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM event_joins").fetchone() == (0,)


def test_a_double_tap_on_ok_makes_and_joins_the_walk_in_once(journal: Journal, hub: EventHub) -> None:
    app, w = typed_for_a_join(journal, hub, "Cleo")
    spot = spot_for(app, do.JoinNamed())
    assert spot is not None
    assert isinstance(app.clock, FakeClock)
    app.clock.advance(1)
    for _ in range(2):  # both in one frame: the second meant the keyboard, gone after the first
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1, touch=False))
    app.step(wait=False)
    poll(app, w)
    assert [p.name for p in Players(journal).list()].count("Cleo") == 1
    assert [body["player"]["name"] for _, body in hub.joins] == ["Cleo"]
    assert app.ui.records.error == "" and app.ui.warnings == ()
