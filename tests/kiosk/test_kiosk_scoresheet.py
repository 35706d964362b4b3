"""The score sheet: each round's result and transfers from the engine's events, and the sheet in the
real app headless — one tap on the sidebar's round during the match and after it (fake clock, posted clicks)."""

from __future__ import annotations

import os
import random
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import draw_recorded, open_app, playing, spot_for, tap

from engine import NS_PER_S, Match, Phase, RoundEnded, Transfer, TransferReason
from kiosk.app import App
from kiosk.config import MatchSettings
from kiosk.devtools.random_play import play_until
from kiosk.table import intents as do
from kiosk.table.players import pages
from kiosk.table.scoresheet import score_sheet
from kiosk.table.session import GameSession, match_config
from kiosk.timesource import FakeClock

S = NS_PER_S


def played(seed: int, stop, balances: int = 300) -> GameSession:
    clock = FakeClock(10 * S)
    session = GameSession(MatchSettings(handover=False, balances=balances, bank_seconds=3600), random.Random(seed))
    assert play_until(session, clock, stop, seed=seed, limit=6000)
    return session


@pytest.mark.parametrize("seed", range(6))
def test_the_sheet_accounts_for_every_point_that_moved(seed: int) -> None:
    session = played(seed, lambda m: m.is_over, balances=120)
    m = session.match
    rows = score_sheet(m, session.events)
    assert [r.number for r in rows] == list(range(1, m.round + 1))
    assert rows[-1].balances == m.balances  # the last row's balances are the match's
    start = m.config.balances
    for seat in (0, 1):
        assert start[seat] + sum(r.received(seat) for r in rows) == m.balances[seat]
    transfers = [e for e in session.events if isinstance(e, Transfer)]
    on_sheet = sum(len(r.scores) + (r.auction is not None) + (r.blocked is not None) for r in rows)
    assert on_sheet == len(transfers)  # every transfer is on exactly one row
    ended = [e for e in session.events if isinstance(e, RoundEnded)]
    for row, end in zip(rows, ended):
        assert row.ended == ("blocked" if end.blocked else "domino") and row.number == end.round
        assert row.dominoer == end.dominoer
    assert all(r.ended for r in rows)  # finished: the last round ended, or the match ended in it


def test_a_blocked_round_pays_on_its_own_row_and_an_auction_opens_the_next() -> None:
    for seed in range(200):
        session = played(seed, lambda m: m.is_over or (m.phase is Phase.READY and m.round > 0 and m.jockey is None))
        if not session.match.is_over:
            break
    else:
        pytest.fail("no seed with a blocked round")
    m = session.match
    rows = score_sheet(m, session.events)
    assert rows[-1].ended == "blocked" and rows[-1].number == m.round
    paid = [e for e in session.events if isinstance(e, Transfer) and e.reason is TransferReason.BLOCKED]
    if paid:
        assert rows[-1].blocked == (paid[-1].payee, paid[-1].points)
    auctions = [r for r in rows if r.auction is not None]
    assert all(r.number > 1 for r in auctions)  # the first round opens by rank


def test_a_round_in_play_is_the_last_row_and_a_match_not_begun_has_none() -> None:
    fresh = Match(match_config(MatchSettings()))
    assert score_sheet(fresh, []) == []
    session = played(3, lambda m: m.round == 2 and m.phase is Phase.PLAY and len(m.layout) >= 3)
    rows = score_sheet(session.match, session.events)
    assert [r.number for r in rows] == [1, 2] and rows[0].ended and rows[1].ended == ""
    assert rows[1].balances == session.match.balances


# -- in the app --------------------------------------------------------------------------------------


@pytest.fixture
def app_clock() -> tuple[App, FakeClock]:
    clock = FakeClock(10 * S)
    app = open_app(None, clock)
    app.step(wait=False)
    return app, clock


def to_round(app: App, clock: FakeClock, stop) -> None:
    tap(app, do.NewMatch())
    s = playing(app)
    assert s is not None
    s.adopt(Match(replace(match_config(app.config.match), balances=(300, 300), bank_ns=(3600 * S, 3600 * S))))
    assert play_until(s, clock, stop, seed=5, limit=6000)
    app.controller.stall.reset(clock.now())  # the moves were made outside the frame loop
    app.controller.touched(clock.now())  # by people at the table: no idle return home
    app.step(wait=False)


def test_one_tap_on_the_round_opens_the_sheet_during_the_match_facing_the_player(app_clock) -> None:
    app, clock = app_clock
    to_round(app, clock, lambda m: m.round == 3 and m.phase is Phase.PLAY)
    assert spot_for(app, do.OpenScoreSheet(0)) is not None and spot_for(app, do.OpenScoreSheet(1)) is not None
    tap(app, do.OpenScoreSheet(1))  # Player 2, from their half of the sidebar
    assert app.ui.sheet_open and app.ui.sheet_facing == 1
    fits = draw_recorded(app, clock)
    shown = {f.text for f in fits}
    assert {"Score sheet", "Round", "Result", "Player 1", "Player 2", "In play", "1", "2", "3"} <= shown
    rows = score_sheet(playing(app).match, playing(app).events)
    assert f"{rows[0].balances[0]} ({rows[0].received(0):+d})" in shown
    assert all(f.fits for f in fits if f.text in shown)
    assert playing(app).match.clock_running is not None  # the clocks keep running under the sheet
    assert spot_for(app, do.Resign(0)) is not None  # and the panels stay in reach
    tap(app, do.CloseScoreSheet())
    assert not app.ui.sheet_open
    assert "Score sheet" not in {f.text for f in draw_recorded(app, clock)}


def test_the_sheet_after_the_match_shows_every_round(app_clock) -> None:
    app, clock = app_clock
    to_round(app, clock, lambda m: m.is_over)
    m = playing(app).match
    assert m.is_over and m.round >= 2
    tap(app, do.OpenScoreSheet(0))
    assert app.ui.sheet_open
    shown = {f.text for f in draw_recorded(app, clock)}
    rows = score_sheet(m, playing(app).events)
    per_page = app.stage.sheet.per_page(app.stage.sheet.rect)
    count = pages(len(rows), per_page)
    last_page = rows[(count - 1) * per_page:]
    assert {str(r.number) for r in last_page} <= shown  # it opens at the latest rounds
    assert any(t.startswith("Domino: ") or t in ("Blocked", "Match over") for t in shown)
    for page in range(count - 2, -1, -1):  # ▲ back to the first page
        tap(app, do.ScoreSheetPage(page))
        shown = {f.text for f in draw_recorded(app, clock)}
        assert {str(r.number) for r in rows[page * per_page:(page + 1) * per_page]} <= shown
    assert app.ui.sheet_page == 0 and spot_for(app, do.ScoreSheetPage(-1)) is None
    tap(app, do.CloseScoreSheet())
    assert not app.ui.sheet_open and spot_for(app, do.Rematch()) is not None


def test_after_a_restart_the_rounds_since_are_on_the_sheet_with_the_right_balances() -> None:
    """A resumed session's events begin at the restart: the later rounds, their numbers and balances stay right."""
    session = played(1, lambda m: m.is_over, balances=120)
    m = session.match
    full = score_sheet(m, session.events)
    ends = [i for i, e in enumerate(session.events) if isinstance(e, RoundEnded)]
    assert len(ends) >= 2
    late = session.events[ends[0] + 1:]  # the kiosk restarted after round 1's end
    rows = score_sheet(m, late)
    assert [r.number for r in rows] == [r.number for r in full[1:]]
    assert [r.balances for r in rows] == [r.balances for r in full[1:]]
