"""The owner's player management in the real app headless, behind the owner PIN: ratings in the picker
and the leaderboard (provisional "1500?"), rename, delete and merge (real SQLite, fake clock, posted clicks)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import draw_recorded, kiosk_app, spot_for, tap

from engine import NS_PER_S, EndReason, MatchConfig, Outcome
from kiosk.app import App
from kiosk.owner import LoadedPin, OwnerPin
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S
PIN = "4821"
LOADED = LoadedPin(OwnerPin.new(PIN, iterations=10_000))


def play(journal: Journal, p0: int | None, p1: int | None, winner: int, wall: float) -> int:
    mid = journal.begin_match(MatchConfig(), (p0, p1), wall_s=wall)
    journal.finish(mid, Outcome(winner, EndReason.BALANCE, True), wall_s=wall + 60)
    return mid


@pytest.fixture
def kiosk(journal: Journal) -> tuple[App, FakeClock, Journal]:
    players = Players(journal)
    anna, ben, anna2 = (players.create(n, wall_s=1) for n in ("Anna", "Ben", "Anna K"))
    for i in range(8):
        play(journal, anna.id, ben.id, i % 3 == 0, wall=1000 + 100 * i)
    play(journal, anna2.id, ben.id, 0, wall=3000)
    app, clock = kiosk_app(match={"handover": False}, owner_pin=LOADED, journal=journal, boot_id="boot-1", step=True)
    return app, clock, journal


def shown(app: App, clock: FakeClock) -> set[str]:
    return {f.text for f in draw_recorded(app, clock)}


def to_management(app: App, clock: FakeClock) -> None:
    tap(app, do.OpenLeaderboard())
    tap(app, do.ManagePlayers())
    assert app.ui.owner.keypad == "players" and app.ui.screen == "leaderboard"  # the PIN first
    for digit in "1111":
        tap(app, do.PinDigit(digit))
    tap(app, do.PinOk())
    assert app.ui.screen == "leaderboard" and app.ui.owner.error  # a wrong PIN opens nothing
    for digit in PIN:
        tap(app, do.PinDigit(digit))
    tap(app, do.PinOk())
    assert app.ui.screen == "players"


def test_ratings_show_in_the_picker_and_the_leaderboard_with_the_provisional_mark(kiosk) -> None:
    app, clock, journal = kiosk
    players = Players(journal)
    anna2 = players.find("Anna K")
    assert anna2 is not None and anna2.provisional  # one rated match: RD far above 110
    tap(app, do.OpenLeaderboard())
    texts = shown(app, clock)
    assert f"{anna2.rating:.0f}?" in texts and "?: provisional rating" in texts
    tap(app, do.GoHome())
    tap(app, do.NewMatch())
    tap(app, do.OpenPicker(0))
    labels = shown(app, clock)
    for p in players.list():
        assert f"{p.name}  {p.rating_text}" in labels


def test_rename_behind_the_pin_keeps_the_history(kiosk) -> None:
    app, clock, journal = kiosk
    players = Players(journal)
    ben = players.find("Ben")
    assert ben is not None
    history = players.history(ben.id)
    to_management(app, clock)
    tap(app, do.ChooseManaged(ben.id))
    tap(app, do.ManageAction("rename"))
    assert app.ui.records.typing == "Ben" and "New name for Ben" in shown(app, clock)
    for _ in range(3):
        tap(app, do.Backspace())
    tap(app, do.Key("A"))  # the taken name is refused with its reason, nothing changes
    for ch in "nna":
        tap(app, do.Key(ch.upper()))
    tap(app, do.ConfirmName())
    assert app.ui.records.error and players.get(ben.id).name == "Ben"
    tap(app, do.Key(" "))
    tap(app, do.Key("B"))
    tap(app, do.ConfirmName())
    assert players.get(ben.id).name == "Anna B" and app.ui.records.typing is None
    assert players.history(ben.id) == history
    assert "Ben is now Anna B." in shown(app, clock)


def test_merge_behind_the_pin_moves_the_matches_and_recomputes_the_ratings(kiosk) -> None:
    app, clock, journal = kiosk
    players = Players(journal)
    anna, anna2 = players.find("Anna"), players.find("Anna K")
    assert anna is not None and anna2 is not None
    matches = len(journal.matches(limit=100))
    to_management(app, clock)
    tap(app, do.ChooseManaged(anna2.id))
    tap(app, do.ManageAction("merge"))
    assert spot_for(app, do.ChooseManaged(anna2.id)) is None  # not into themselves
    tap(app, do.ChooseManaged(anna.id))
    assert "Merge Anna K into Anna? Anna K's matches become Anna's; the ratings are recomputed." in shown(app, clock)
    tap(app, do.ManageAction("confirm"))
    assert players.find("Anna K") is None and len(journal.matches(limit=100)) == matches
    merged = players.get(anna.id)
    assert merged.games == 9 and len(players.history(anna.id)) == 9
    assert "Anna K was merged into Anna; the ratings were recomputed." in shown(app, clock)
    assert [p.name for p in app.ui.records.manage] == ["Anna", "Ben"]


def test_delete_behind_the_pin_asks_first_and_keeps_the_matches(kiosk) -> None:
    app, clock, journal = kiosk
    players = Players(journal)
    ben = players.find("Ben")
    assert ben is not None
    to_management(app, clock)
    tap(app, do.ChooseManaged(ben.id))
    tap(app, do.ManageAction("delete"))
    assert players.find("Ben") is not None  # asked, not done
    tap(app, do.ManageAction("cancel"))  # No
    assert app.ui.records.manage_action == "" and players.find("Ben") is not None
    tap(app, do.ManageAction("delete"))
    tap(app, do.ManageAction("confirm"))
    assert players.find("Ben") is None and len(journal.matches(limit=100)) == 9
    anna = players.find("Anna")
    assert anna is not None and anna.games == 0 and anna.rating == 1500  # no rated match is left
    assert all(h.opponent_id is None for h in players.history(anna.id))
    assert "Ben was deleted; their 9 matches stay, with a guest in their seat." in shown(app, clock)
    tap(app, do.Back())
    assert app.ui.screen == "leaderboard"
