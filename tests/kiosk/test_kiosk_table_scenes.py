"""The table's own screens, headless through the real app at 800 x 480: the auction's quick bids, the
resign confirmation (No the default), the hand-over recap, a forced pass announced on both halves,
the replay without reveal steps and with named hands."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import Closing, kiosk_app, playing, spot_for, tap

from engine import ALL_TILES, NS_PER_S, Bid, Match, MatchConfig, Phase, Play, Point, Tile, Transfer, TransferReason
from kiosk.app import App
from kiosk.i18n import translator
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.table.recap import recap_text
from kiosk.timesource import FakeClock
from kiosk.ui import layout, theme
from kiosk.ui.scenes.replay import placed_score

S = NS_PER_S


def make_app(orientation: str = "table", journal: Journal | None = None, **match: object) -> tuple[App, FakeClock]:
    return kiosk_app(orientation=orientation, match={"handover": False, **match}, seed=5, journal=journal,
                     boot_id="boot-1", step=True)


def recorded(app: App, clock: FakeClock) -> layout.LayoutRecorder:
    """Draw the whole screen with the layout record on."""
    recorder = layout.LayoutRecorder()
    with app.stage.context.recorded(layout=recorder):
        recorder.clear(app.screen)
        app.draw(clock.now(), full=True)
    return recorder


def play_by_taps(app: App, clock: FakeClock, until: object, turns: int = 400) -> None:
    """Real play by taps (first legal move) until ``until(session)`` holds."""
    s = playing(app)
    for _ in range(turns):
        if until(s):  # type: ignore[operator]
            return
        m = s.match
        clock.advance(1)
        player = m.to_act
        if m.phase is Phase.READY:
            tap(app, do.Start(0))
        elif m.phase is Phase.HANDOVER:
            tap(app, do.Reveal(player))
        elif m.phase is Phase.AUCTION:
            tap(app, do.Decline(player) if m.auction().bid is None else do.Accept(player))
        else:
            play = next((a for a in m.legal_actions() if isinstance(a, Play)), None)
            if play is None:
                tap(app, do.DrawTile)
            else:
                tap(app, do.TapTile(play.player, play.tile))
                if s.selected == play.tile and play.at is not None:
                    tap(app, do.TapPoint(play.at))
    raise AssertionError("the match never got there")


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_quick_bids_by_tap_and_every_auction_button_is_48_px(orientation: str) -> None:
    app, clock = make_app(orientation, balances=60)
    tap(app, do.NewMatch())
    playing(app).adopt(Match(MatchConfig(balances=(60, 60), jockey=0)))
    app.step(wait=False)  # the frame that shows the match adopted
    tap(app, do.Start(0))
    s = playing(app)
    assert s.match.phase is Phase.AUCTION and s.match.to_act == 1
    tap(app, do.StepBid(5))  # +25
    assert s.bid_draft == 40
    tap(app, do.MaxBid())
    assert s.bid_draft == 55  # the most that keeps the player in the match
    tap(app, do.StepBid(1))  # +5: the whole balance
    assert s.bid_draft == max(a.amount for a in s.match.legal_actions() if isinstance(a, Bid)) == 60
    auction = (do.Decline, do.Accept, do.StepBid, do.MaxBid, do.PlaceBid)
    spots = [spot for spot in app.hotspots if isinstance(spot.intent, auction)]
    assert len(spots) == 4  # Decline, Bid, -5 and All I can afford: at the most, +5 and +25 are off
    assert all(min(spot.rect.size) >= 48 for spot in spots)
    texts = [x.text for x in recorded(app, clock).texts]
    assert "Your bid of 60 would cost you 60 if accepted" in " ".join(texts)
    assert "you lose the match" in " ".join(texts)  # the whole balance: said before it is placed
    assert all(x.px >= 16 for x in recorded(app, clock).texts if "bid" in x.text.lower())
    tap(app, do.StepBid(-1))
    assert {min(spot.rect.size) >= 48 for spot in app.hotspots if isinstance(spot.intent, auction)} == {True}
    assert len([spot for spot in app.hotspots if isinstance(spot.intent, auction)]) == 5  # All I can afford: there
    tap(app, do.PlaceBid(1))
    assert s.match.auction().bid == 55 and s.match.to_act == 0


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_resign_confirmation_no_is_the_default_and_yes_is_apart(orientation: str) -> None:
    app, _ = make_app(orientation)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    for player in (0, 1):
        resign = spot_for(app, do.Resign(player))
        assert resign is not None
        tap(app, do.Resign(player))
        no, yes = spot_for(app, do.CancelResign(player)), spot_for(app, do.ConfirmResign(player))
        assert no is not None and yes is not None
        assert no.rect.collidepoint(resign.rect.center)  # a second tap where Resign was keeps playing
        assert no.rect.width * no.rect.height > 2 * yes.rect.width * yes.rect.height
        assert min(yes.rect.size) >= 48 and min(no.rect.size) >= 48
        gap = max(no.rect.left - yes.rect.right, yes.rect.left - no.rect.right)
        assert gap >= 200
        inside = (no.rect.x + 4, no.rect.centery)
        assert app.screen.get_at(inside)[:3] == theme.BUTTON_PRIMARY  # No is lit, Yes is not
        assert app.screen.get_at((yes.rect.x + 4, yes.rect.centery))[:3] == theme.BUTTON
        tap(app, do.CancelResign(player))
        assert not playing(app).match.is_over
    tap(app, do.Resign(1))
    tap(app, do.ConfirmResign(1))
    assert playing(app).match.outcome.winner == 0


def test_the_returning_player_reads_what_the_opponent_did_in_their_language() -> None:
    app, clock = make_app("table", handover=True)
    tap(app, do.NewMatch())
    tap(app, do.PlayerLanguage(1))  # player 2 reads Korean
    s = playing(app)

    def drew_then_played(session: object) -> bool:
        m = s.match
        if m.phase is not Phase.HANDOVER:
            return False
        seen = s.recap.for_player(m.to_act)
        return any(x.kind == "draw" for x in seen) and any(x.kind == "play" for x in seen)

    play_by_taps(app, clock, drew_then_played)
    reader = s.match.to_act
    t = translator(app.ui.player_language(reader))
    line = recap_text(t, t._("Player {number}", number=2 - reader), s.recap.for_player(reader))
    assert line
    record = recorded(app, clock)
    mine = " ".join(x.text for x in record.texts if x.seat == reader)
    assert line.split(":")[0] in mine and str(s.recap.for_player(reader)[-1].tile) in mine
    assert all(x.facing == reader for x in record.texts if x.seat == reader)
    tap(app, do.Reveal(reader))
    assert s.recap.for_player(reader) == ()


def test_a_forced_pass_is_announced_on_both_halves_and_play_goes_on_without_a_hand_over() -> None:
    app, clock = make_app("table", handover=True)
    tap(app, do.NewMatch())
    s = playing(app)
    m = Match(MatchConfig(jockey=0, handover=True))
    data = m.to_dict()
    others = [str(t) for t in ALL_TILES if str(t) not in ("1|4", "2|3")]
    now = clock.now()
    data.update(phase="play", round=1, hands=[others, ["2|3"]], boneyard=[], layout=[["1|4", None]], to_act=0,
                jockey=None, last_actor=0, last_ns=now, clock={**data["clock"], "running": 0, "started_ns": now})
    s.adopt(Match.from_dict(data))
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.TapTile(0, Tile.parse("0|1")))
    if s.selected is not None:
        tap(app, do.TapPoint(Point.parse("1|4", "low")))
    assert s.match.phase is Phase.PLAY and s.match.to_act == 0 and s.screen == "play"
    record = recorded(app, clock)
    said = [x for x in record.texts if "cannot play and passes" in x.text]
    assert {x.facing for x in said} == {0, 1}
    for x in said:  # each copy on its reader's half
        centre = x.rect[1] + x.rect[3] / 2
        assert (centre > 240) if x.facing == 0 else (centre < 240)


def test_the_replay_steps_over_the_reveals_and_names_the_hands(closing: Closing, tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    app, clock = make_app("upright", journal=journal, handover=True)
    closing.later(journal.close)
    tap(app, do.NewMatch())
    play_by_taps(app, clock, lambda s: len(s.match.layout) >= 4 and s.match.phase is Phase.PLAY and any(
        isinstance(e, Transfer) and e.reason is TransferReason.SCORE for e in s.events))
    tap(app, do.Resign(0))
    tap(app, do.ConfirmResign(0))
    app.step(wait=False)
    match_id = journal.matches()[0].id
    steps = [e.step["do"] for e in journal.commands(match_id)]
    assert "reveal" in steps
    app.controller.handle(do.OpenReplay(match_id), clock.now())
    app.step(wait=False)
    r = app.ui.records
    seen = []
    for _ in range(len(steps)):
        seen.append(r.replay[r.replay_at].step["do"])
        texts = {x.text for x in recorded(app, clock).texts}
        assert {"Player 1", "Player 2"} <= texts  # each hand named
        if spot_for(app, do.ReplayTo(r.replay_at + 1)) is None and not any(
                isinstance(spot.intent, do.ReplayTo) and spot.intent.step > r.replay_at for spot in app.hotspots):
            break
        nxt = min(spot.intent.step for spot in app.hotspots
                  if isinstance(spot.intent, do.ReplayTo) and spot.intent.step > r.replay_at)
        tap(app, do.ReplayTo(nxt))
    assert "reveal" not in seen
    scores = [placed_score(r.replay, i) for i in range(len(r.replay))]
    assert all((score is not None) == (item.step["do"] == "play" and i > 0)
               for i, (score, item) in enumerate(zip(scores, r.replay, strict=True)))
    paid = [e.points for e in playing(app).events if isinstance(e, Transfer) and e.reason is TransferReason.SCORE]
    assert [x for x in scores if x] == paid  # each score where the live match paid it
    admin = app.stage.regions.admin_area
    assert not any(spot.rect.colliderect(admin) for spot in app.hotspots if isinstance(spot.intent, do.ReplayTo))
    assert all(min(spot.rect.size) >= 48 for spot in app.hotspots if isinstance(spot.intent, (do.ReplayTo, do.Back)))

