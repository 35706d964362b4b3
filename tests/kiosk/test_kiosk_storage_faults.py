"""The table never goes dark on storage: a full disk or a damaged journal during a match, through the
real app (real SQLite files, a fake clock): the match goes on, both players read that results are
not being saved, and saving resumes with the match so far."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from journal_support import damage_table_page, database_full
from kiosk_support import Closing, kiosk_app, playing, tap

from engine import NS_PER_S, Draw, Phase, Play
from kiosk.app import App
from kiosk.i18n import translator
from kiosk.store.keeper import JournalKeeper
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S


def make_app(tmp_path: Path) -> tuple[App, FakeClock, JournalKeeper]:
    clock = FakeClock(10 * S)
    keeper = JournalKeeper.open(tmp_path / "journal.sqlite3", "boot-1", clock.now())
    app, _ = kiosk_app(match={"handover": False}, clock=clock, keeper=keeper, boot_id="boot-1", simulator=True)
    return app, clock, keeper


def turn(app: App, clock: FakeClock) -> None:
    """The player to act plays the first legal tile by tapping, or draws."""
    m = playing(app).match
    clock.advance(1)
    if m.phase is Phase.READY:  # between rounds: Continue
        tap(app, do.Start(0))
        return
    play = next((a for a in m.legal_actions() if isinstance(a, Play)), None)
    if play is None:
        assert any(isinstance(a, Draw) for a in m.legal_actions())
        tap(app, do.DrawTile)
        return
    tap(app, do.TapTile(play.player, play.tile))
    if playing(app).selected == play.tile and play.at is not None:  # picked up: now its place
        tap(app, do.TapPoint(play.at))


def test_a_full_disk_mid_match_keeps_the_match_going_with_a_banner_and_saves_it_all_later(closing: Closing,
                                                                                          tmp_path: Path) -> None:
    app, clock, keeper = make_app(tmp_path)
    closing.later(keeper.close)
    app.step(wait=False)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    turn(app, clock)
    app.step(wait=False)
    journal = keeper.journal
    assert journal is not None
    [record] = journal.matches()
    with database_full(journal):
        for _ in range(40):  # until the last free space in the file's pages is used up
            turn(app, clock)
            app.step(wait=False)
            if app.ui.saving is not None:
                break
        saved = len(journal.commands(record.id))
        for _ in range(3):
            turn(app, clock)
            app.step(wait=False)
        assert app.ui.saving is not None and not keeper.state.saving  # the match went on unsaved
        assert playing(app).match.phase in (Phase.PLAY, Phase.READY)
        assert str(app.ui.saving).startswith("Results are not being saved:")
        drawn = [scene.__class__.__name__ for scene in app.stage.stack()]
        assert "SavingBanner" in drawn  # over the board, for both players
        assert translator("uk")(app.ui.saving) != str(app.ui.saving)
        assert len(journal.commands(record.id)) == saved
    clock.advance(120)  # the disk has room again; the keeper tries at its next back-off step
    app.step(wait=False)
    assert app.ui.saving is None and keeper.state.saving
    assert "SavingBanner" not in [scene.__class__.__name__ for scene in app.stage.stack()]
    assert len(journal.commands(record.id)) > saved  # the match so far, written
    assert any("saved again" in m.text for m in playing(app).messages)


def test_a_damaged_page_met_mid_match_moves_the_journal_aside_and_the_match_goes_on(closing: Closing,
                                                                                    tmp_path: Path) -> None:
    app, clock, keeper = make_app(tmp_path)
    closing.later(keeper.close)
    app.step(wait=False)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    turn(app, clock)
    app.step(wait=False)
    assert keeper.journal is not None
    damage_table_page(keeper.journal, "entries")
    for _ in range(3):
        turn(app, clock)
        clock.advance(2)
        app.step(wait=False)
    assert app.running and app.session is not None  # the table kept going
    assert keeper.state.saving and app.ui.saving is None
    journal = keeper.journal
    [record] = journal.matches()
    assert len(journal.commands(record.id)) >= 4  # the whole match so far, in the fresh file
    assert list(tmp_path.glob("journal.sqlite3.corrupt-*"))  # the damaged one, moved aside


def test_a_journal_that_cannot_be_opened_at_start_up_is_a_banner_not_a_crash(closing: Closing, tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the journal's folder should be")
    clock = FakeClock(10 * S)
    keeper = JournalKeeper.open(blocked / "journal.sqlite3", "boot-1", clock.now())
    app, _ = kiosk_app(clock=clock, keeper=keeper, boot_id="boot-1", simulator=True)
    closing.later(keeper.close)
    app.step(wait=False)
    assert app.ui.saving is not None and keeper.journal is None
    assert "Banner" in [scene.__class__.__name__ for scene in app.stage.stack()]
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    app.step(wait=False)
    assert playing(app).match.round == 1  # the match is played in memory
