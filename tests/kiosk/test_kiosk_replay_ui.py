"""The replay of a stored match, headless: auto-play on the injected clock and jumps to a round
(real SQLite, fake clock, posted clicks)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from journal_support import new_table, play_until
from kiosk_support import draw_recorded, open_app, spot_for, tap

from engine import NS_PER_S
from kiosk.app import App
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.players import REPLAY_STEP_NS, next_step, round_starts
from kiosk.timesource import FakeClock

S = NS_PER_S


@pytest.fixture
def replaying(journal: Journal) -> tuple[App, FakeClock]:
    """The app at the replay of a finished match of at least three rounds between Anna and Ben."""
    players = Players(journal)
    anna, ben = players.create("Anna", wall_s=1), players.create("Ben", wall_s=1)
    table = new_table(journal, seed=5, players=(anna.id, ben.id), bank_s=3600, balances=120)
    play_until(table, lambda m: m.is_over, limit=5000)
    assert table.match.is_over and table.match.round >= 3
    clock = FakeClock(10 * S)
    app = open_app(journal, clock)
    app.step(wait=False)
    tap(app, do.OpenLeaderboard())
    tap(app, do.OpenHistory(anna.id))
    tap(app, do.OpenReplay(app.ui.records.history[0].match_id))
    assert app.ui.screen == "replay"
    return app, clock


def test_play_steps_the_replay_on_by_itself_on_the_clock_until_pause(replaying: tuple[App, FakeClock]) -> None:
    app, clock = replaying
    r = app.ui.records
    assert r.replay_at == 0 and not r.replay_playing
    tap(app, do.ReplayPlay())
    assert r.replay_playing
    assert "Pause" in {f.text for f in draw_recorded(app, clock)}
    shown = [r.replay_at]
    for _ in range(4):
        clock.advance(REPLAY_STEP_NS / S)
        app.step(wait=False)
        shown.append(r.replay_at)
    expected = [0]
    for _ in range(4):
        following = next_step(r.replay, expected[-1])
        assert following is not None
        expected.append(following)
    assert shown == expected  # one step per 1.5 s, the reveals stepped over
    clock.advance(0.5)
    app.step(wait=False)
    assert r.replay_at == expected[-1]  # not before the step is due
    assert app.controller.next_due_ns(clock.now()) <= r.replay_due_ns  # the loop wakes for it
    tap(app, do.ReplayPlay())  # Pause
    assert not r.replay_playing
    clock.advance(10)
    app.step(wait=False)
    assert r.replay_at == expected[-1]
    assert "Play" in {f.text for f in draw_recorded(app, clock)}


def test_auto_play_stops_at_the_last_step_and_play_there_starts_again(replaying: tuple[App, FakeClock]) -> None:
    app, clock = replaying
    r = app.ui.records
    last = max(i for i, s in enumerate(r.replay) if s.step.get("do") != "reveal")
    tap(app, do.ReplayTo(last))  # ▶|
    before = max(i for i in range(last) if r.replay[i].step.get("do") != "reveal")
    tap(app, do.ReplayTo(before))  # Previous
    tap(app, do.ReplayPlay())
    for _ in range(3):
        clock.advance(REPLAY_STEP_NS / S)
        app.step(wait=False)
    assert r.replay_at == last and not r.replay_playing
    tap(app, do.ReplayPlay())
    assert r.replay_playing and r.replay_at == 0


def test_the_round_buttons_jump_to_the_deal_of_the_next_and_previous_round(replaying: tuple[App, FakeClock]) -> None:
    app, clock = replaying
    r = app.ui.records
    starts = round_starts(r.replay)
    assert [n for n, _ in starts][:3] == [1, 2, 3]
    assert spot_for(app, do.ReplayTo(starts[1][1])) is not None
    texts = {f.text for f in draw_recorded(app, clock)}
    assert "Round 2 ▶" in texts
    tap(app, do.ReplayTo(starts[1][1]))  # Round 2 ▶
    assert r.replay_at == starts[1][1]
    texts = {f.text for f in draw_recorded(app, clock)}
    assert {"Round 3 ▶", "◀ Round 1", "Round 2: the tiles are dealt"} <= texts
    tap(app, do.ReplayTo(starts[2][1]))
    assert r.replay_at == starts[2][1]
    tap(app, do.ReplayTo(starts[1][1]))  # ◀ Round 2
    assert r.replay_at == starts[1][1]


def test_leaving_the_replay_stops_auto_play(replaying: tuple[App, FakeClock]) -> None:
    app, clock = replaying
    tap(app, do.ReplayPlay())
    tap(app, do.Back())
    clock.advance(5)
    app.step(wait=False)
    assert app.ui.screen == "history" and not app.ui.records.replay_playing
