"""Named players in the kiosk, headless: the picker and its keyboard, rated and guest matches, the
leaderboard, a player's history and the step-through replay — real SQLite, fake clock, posted clicks."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import Closing, intents_on_screen, open_app, playing, spot_for, tap

from engine import NS_PER_S, EndReason, Phase
from kiosk.app import App
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.players import HISTORY_ROWS, change_text
from kiosk.timesource import FakeClock
from kiosk.ui import theme

S = NS_PER_S


@pytest.fixture
def kiosk(journal: Journal) -> tuple[App, FakeClock]:
    clock = FakeClock(10 * S)
    app = open_app(journal, clock)
    frame(app)
    return app, clock


def frame(app: App) -> None:
    app.step(wait=False)


def type_name(app: App, name: str) -> None:
    for ch in name:
        tap(app, do.Key(" " if ch == " " else ch.upper()))


def drawn_texts(app: App) -> set[str]:
    fits: list[theme.Fit] = []
    with app.stage.context.recorded(fits=fits):
        app.draw(app.clock.now(), full=True)
    return {f.text for f in fits}


def resign_after_start(app: App, clock: FakeClock, loser: int) -> None:
    clock.advance(1)
    tap(app, do.Start(0))
    assert playing(app).match.phase in (Phase.AUCTION, Phase.PLAY)
    clock.advance(1)
    tap(app, do.Resign(loser))
    tap(app, do.ConfirmResign(loser))
    assert playing(app).match.outcome.reason is EndReason.RESIGN


def test_two_named_players_one_typed_play_a_rated_match_then_leaderboard_history_and_replay(
        kiosk: tuple[App, FakeClock], journal: Journal) -> None:
    app, clock = kiosk
    players = Players(journal)
    anna = players.create("Anna", wall_s=1)
    assert spot_for(app, do.OpenLeaderboard()) is not None  # home offers the leaderboard
    tap(app, do.NewMatch())
    assert set(intents_on_screen(app, do.OpenPicker)) == {do.OpenPicker(0), do.OpenPicker(1)}
    tap(app, do.OpenPicker(0))  # player 1 picks Anna from the list
    tap(app, do.PickPlayer(0, anna.id))
    assert app.ui.records.chosen[0] == anna and app.ui.records.picker is None
    tap(app, do.OpenPicker(1))  # player 2 (turned picker and keyboard) types a new name
    assert spot_for(app, do.PickPlayer(1, anna.id)) is None  # Anna sits in the other seat
    tap(app, do.NewPlayer(1))
    type_name(app, "bem")
    tap(app, do.Backspace())
    type_name(app, "n")
    assert app.ui.records.typing == "Ben"  # a capital first, then small letters
    tap(app, do.ConfirmName())
    ben = players.find("Ben")
    assert ben is not None and app.ui.records.chosen == [anna, ben]
    assert {"Anna", "Ben"} <= drawn_texts(app)  # the panels show the names

    resign_after_start(app, clock, loser=1)  # Ben resigns: Anna wins
    frame(app)
    record = journal.matches(limit=1)[0]
    assert record.players == (anna.id, ben.id) and record.finished and record.rated and record.winner == 0
    assert len(journal.matches()) == 1  # the match was entered once, at its first Start
    anna2, ben2 = players.get(anna.id), players.get(ben.id)
    assert anna2.rating > 1500 > ben2.rating and anna2.games == ben2.games == 1
    live = playing(app).match
    live_state = (live.balances, live.round, live.layout.tiles(), live.hand(0), live.hand(1))

    tap(app, do.GoHome())
    tap(app, do.OpenLeaderboard())
    assert app.ui.screen == "leaderboard"
    board = app.ui.records.board
    assert [(r.rank, r.player.name, r.wins) for r in board] == [(1, "Anna", 1), (2, "Ben", 0)]
    texts = drawn_texts(app)
    assert {anna2.rating_text, ben2.rating_text, "Anna", "Ben"} <= texts  # "1662?": provisional after one match

    tap(app, do.OpenHistory(anna.id))
    assert app.ui.screen == "history"
    (row,) = app.ui.records.history
    assert row.opponent == "Ben" and row.result == "win" and row.reason == "resign" and row.rated
    assert row.rating_change == pytest.approx(anna2.rating - 1500)
    texts = drawn_texts(app)
    assert {"Ben", "Win", "resigned", change_text(row.rating_change)} <= texts
    assert change_text(row.rating_change).startswith("+")

    tap(app, do.OpenReplay(row.match_id))
    assert app.ui.screen == "replay"
    steps = app.ui.records.replay
    assert [s.step["do"] for s in steps][:1] == ["start"] and steps[-1].step["do"] == "resign"
    assert app.ui.records.replay_at == 0
    tap(app, do.ReplayTo(1))  # Next
    assert app.ui.records.replay_at == 1
    tap(app, do.ReplayTo(0))  # Previous
    assert app.ui.records.replay_at == 0
    tap(app, do.ReplayTo(len(steps) - 1))  # to the end
    final = steps[-1].match
    assert final.is_over and final.outcome is not None
    assert final.outcome.winner == 0 and final.outcome.reason is EndReason.RESIGN
    assert (final.balances, final.round, final.layout.tiles(), final.hand(0), final.hand(1)) == live_state
    assert {"Anna wins", "Ben resigns"} <= drawn_texts(app)
    assert spot_for(app, do.ReplayTo(len(steps))) is None  # no Next after the last step
    tap(app, do.Back())
    assert app.ui.screen == "history"
    tap(app, do.Back())
    assert app.ui.screen == "leaderboard"
    tap(app, do.GoHome())
    assert app.ui.screen == "home"


def test_a_match_with_a_guest_is_not_rated_but_is_in_the_history(kiosk: tuple[App, FakeClock],
                                                                  journal: Journal) -> None:
    app, clock = kiosk
    players = Players(journal)
    anna = players.create("Anna", wall_s=1)
    tap(app, do.NewMatch())
    tap(app, do.OpenPicker(1))
    tap(app, do.PickPlayer(1, anna.id))
    tap(app, do.OpenPicker(0))
    tap(app, do.PickPlayer(0, None))  # Guest
    assert app.ui.records.chosen == [None, anna]
    resign_after_start(app, clock, loser=0)  # the guest resigns: Anna wins
    frame(app)
    record = journal.matches(limit=1)[0]
    assert record.players == (None, anna.id) and record.finished and record.winner == 1
    assert players.get(anna.id).rating == 1500 and players.get(anna.id).games == 0
    tap(app, do.GoHome())
    tap(app, do.OpenLeaderboard())
    tap(app, do.OpenHistory(anna.id))
    (row,) = app.ui.records.history
    assert row.opponent_id is None and row.result == "win" and not row.rated and row.rating_change is None
    assert {"Guest", "–"} <= drawn_texts(app)


def test_rematch_keeps_the_names_and_home_makes_both_seats_guests(kiosk: tuple[App, FakeClock],
                                                                   journal: Journal) -> None:
    app, clock = kiosk
    players = Players(journal)
    anna, ben = players.create("Anna"), players.create("Ben")
    tap(app, do.NewMatch())
    for seat, who in ((0, anna), (1, ben)):
        tap(app, do.OpenPicker(seat))
        tap(app, do.PickPlayer(seat, who.id))
    resign_after_start(app, clock, loser=0)
    tap(app, do.Rematch())
    assert app.ui.records.chosen == [anna, ben]
    resign_after_start(app, clock, loser=1)
    frame(app)
    assert [m.rated for m in journal.matches()] == [True, True]
    assert players.get(anna.id).games == 2
    tap(app, do.GoHome())
    assert app.ui.records.chosen == [None, None]


def test_the_keyboard_says_why_a_name_is_refused_in_the_players_language(kiosk: tuple[App, FakeClock],
                                                                          journal: Journal) -> None:
    app, _ = kiosk
    Players(journal).create("Anna")
    tap(app, do.NewMatch())
    tap(app, do.PlayerLanguage(0))  # player 1 reads Korean
    tap(app, do.OpenPicker(0))
    tap(app, do.NewPlayer(0))
    assert app.ui.records.layout == "hangul"  # the keyboard opens in the player's script
    tap(app, do.KeyboardLayout("latin"))
    assert spot_for(app, do.ConfirmName()) is None  # nothing typed: OK is disabled
    type_name(app, "anna")
    tap(app, do.ConfirmName())
    assert app.ui.records.error == 'The name "Anna" is taken: pick it from the list or choose another.'
    assert app.ui.records.typing == "Anna" and app.ui.records.picker == 0
    assert '"Anna" 이름은 이미 있습니다: 목록에서 고르거나 다른 이름을 쓰세요.' in drawn_texts(app)
    for _ in range(4):
        tap(app, do.Backspace())
    type_name(app, "guest")
    tap(app, do.ConfirmName())
    assert "reserved" in app.ui.records.error
    tap(app, do.CancelName())  # back to the list
    assert app.ui.records.typing is None and spot_for(app, do.NewPlayer(0)) is not None
    tap(app, do.ClosePicker())
    assert app.ui.records.picker is None and app.ui.records.chosen == [None, None]


def test_picked_names_come_back_after_a_restart(closing: Closing, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    anna, ben = Players(journal).create("Anna"), Players(journal).create("Ben")
    clock = FakeClock(10 * S)
    app = open_app(journal, clock)
    frame(app)
    tap(app, do.NewMatch())
    for seat, who in ((0, anna), (1, ben)):
        tap(app, do.OpenPicker(seat))
        tap(app, do.PickPlayer(seat, who.id))
    clock.advance(1)
    tap(app, do.Start(1))
    app.close()
    journal.close()
    journal = Journal.open(path)
    again = open_app(journal, clock)
    closing.later(journal.close)
    frame(again)
    assert again.session is not None and again.ui.records.chosen == [anna, ben]
    assert {"Anna", "Ben"} <= drawn_texts(again)


def test_without_a_journal_no_names_are_offered() -> None:
    clock = FakeClock(10 * S)
    app = open_app(None, clock)
    frame(app)
    assert spot_for(app, do.OpenLeaderboard) is None  # no leaderboard on the home screen
    tap(app, do.NewMatch())
    assert spot_for(app, do.OpenPicker) is None  # no name buttons in the panels
    app.do(do.OpenPicker(0), clock.now())
    assert app.ui.records.picker is None


def test_long_lists_are_paged(kiosk: tuple[App, FakeClock], journal: Journal) -> None:
    app, clock = kiosk
    players = Players(journal)
    made = [players.create(f"Player {chr(65 + i)}") for i in range(14)]
    tap(app, do.NewMatch())
    tap(app, do.OpenPicker(1))
    on_page = {i.player_id for i in intents_on_screen(app, do.PickPlayer)} - {None}
    assert len(on_page) == 12 and spot_for(app, do.PickerPage(-1)) is None
    tap(app, do.PickerPage(1))
    on_page = {i.player_id for i in intents_on_screen(app, do.PickPlayer)} - {None}
    assert on_page == {made[12].id, made[13].id}
    tap(app, do.PickPlayer(1, made[13].id))
    tap(app, do.OpenPicker(0))
    tap(app, do.PickPlayer(0, made[0].id))
    for match in range(8):  # eight rated matches between the two: the history takes two pages
        resign_after_start(app, clock, loser=match % 2)
        tap(app, do.Rematch())
    app.controller.go_home()  # what the idle return does
    frame(app)
    tap(app, do.OpenLeaderboard())
    assert len(app.ui.records.board) == 14 and spot_for(app, do.LeaderboardPage(1)) is not None
    tap(app, do.OpenHistory(made[0].id))
    assert len(app.ui.records.history) == 8  # the last rematch was never begun: not listed
    shown = intents_on_screen(app, do.OpenReplay)
    assert len(shown) == HISTORY_ROWS == 5  # rows of 48 px at 800 x 480
    tap(app, do.HistoryPage(1))
    assert intents_on_screen(app, do.OpenReplay) == [do.OpenReplay(row.match_id) for row in app.ui.records.history[5:]]
    assert "Page 2 of 2" in drawn_texts(app)


def test_practice_results_are_summed_per_level_easiest_first() -> None:
    from kiosk.store.players import HistoryRow
    from kiosk.table.players import practice_summary

    def row(match_id: int, result: str) -> HistoryRow:
        return HistoryRow(match_id, 0.0, 0, None, "", result, None, None, False, None, None)

    rows = [row(1, "win"), row(2, "loss"), row(3, "loss"), row(4, "win"), row(5, "aborted"), row(6, "win")]
    levels = {1: 4, 2: 4, 3: 1, 5: 1, 6: 4}  # match 4 was against a person
    assert practice_summary(rows, levels) == [(1, 0, 1), (4, 2, 1)]
    assert practice_summary(rows, {}) == []
