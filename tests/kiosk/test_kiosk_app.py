"""The kiosk app, headless: whole matches through posted pygame events, mock GPIO and a fake clock."""

from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import Closing, draw_recorded, intents_on_screen, kiosk_app, playing, spot_for, tap

from engine import NS_PER_S, Draw, EndReason, Phase, Play
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S


def make_app(size: tuple[int, int] = (800, 480), orientation: str = "table", **match: object) -> tuple[App, FakeClock]:
    return kiosk_app(orientation=orientation, match={"handover": False, **match}, size=size, simulator=True)


@pytest.fixture
def app_clock() -> tuple[App, FakeClock]:
    app, clock = make_app()
    return app, clock


def frame(app: App) -> None:
    app.step(wait=False)


def pass_time(app: App, clock: FakeClock, seconds: float) -> None:
    """Let ``seconds`` pass with the loop running (a frame every half second, as the real loop wakes)."""
    end = clock.now() + int(seconds * S)
    while clock.now() < end:
        clock.t = min(end, clock.now() + S // 2)
        frame(app)


def key(app: App, name: str) -> None:
    """Press and release a simulator key (drives a gpiozero mock pin), then run a frame."""
    code = pygame.key.key_code(name)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=name, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode=name, scancode=0))
    frame(app)


def play_turn(app: App, clock: FakeClock) -> None:
    """The player to act plays their first legal play by tapping, or draws by tapping the boneyard."""
    s = playing(app)
    assert s is not None
    m = s.match
    legal = m.legal_actions()
    clock.advance(1)
    if m.phase is Phase.HANDOVER:
        tap(app, do.Reveal(m.to_act))
        return
    play = next((a for a in legal if isinstance(a, Play)), None)
    if play is None:
        assert any(isinstance(a, Draw) for a in legal)
        tap(app, do.DrawTile)
        return
    tap(app, do.TapTile(play.player, play.tile))
    if m.layout.tiles()[-1:] != [play.tile] and s.selected == play.tile and play.at is not None:
        tap(app, do.TapPoint(play.at))


def test_first_frame_is_the_home_screen(app_clock: tuple[App, FakeClock]) -> None:
    app, _ = app_clock
    frame(app)
    assert app.ui.screen == "home" and app.full_redraws == 1
    assert set(intents_on_screen(app)) >= {do.NewMatch(), do.OpenHelp(), do.OpenSettings()}


def test_whole_match_by_touch_and_buttons_until_someone_wins(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    assert app.session is not None and playing(app).screen == "ready"
    key(app, "j")  # player 2's ACCEPT key starts the match through the mock GPIO pin
    s = playing(app)
    assert s.match.round == 1
    rounds_seen = set()
    for _ in range(4000):
        m = s.match
        if m.is_over:
            break
        rounds_seen.add(m.round)
        if m.phase is Phase.READY:
            clock.advance(1)
            key(app, "a")  # Continue
        elif m.phase is Phase.AUCTION:
            clock.advance(1)
            keys = ("s", "k") if m.auction().bid is None else ("a", "j")  # RAISE first, then ACCEPT
            key(app, keys[m.to_act])
        else:
            play_turn(app, clock)
    assert s.match.is_over and s.match.outcome.reason is EndReason.BALANCE
    assert len(rounds_seen) >= 2
    assert s.screen == "match_over"
    tap(app, do.Rematch())
    assert app.session is not s and playing(app).screen == "ready"


def test_time_loss_is_shown_within_a_frame(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    loser = s.match.to_act
    deadline = s.match.deadline_ns()
    pass_time(app, clock, (deadline - clock.now()) / S)
    assert clock.now() == deadline
    assert s.match.outcome.reason is EndReason.TIME and s.match.outcome.winner == 1 - loser
    assert spot_for(app, do.Rematch()) is not None


def test_resign_needs_a_confirmation(app_clock: tuple[App, FakeClock]) -> None:
    app, _ = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(1))
    tap(app, do.Resign(1))
    assert not playing(app).match.is_over
    tap(app, do.CancelResign(1))
    tap(app, do.Resign(1))
    tap(app, do.ConfirmResign(1))
    assert playing(app).match.outcome.winner == 0 and playing(app).match.outcome.reason is EndReason.RESIGN


def test_handover_screen_shows_no_tile_faces() -> None:
    app, _ = make_app(handover=True)
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    assert s.screen == "handover"
    from kiosk.ui.board.render import IVORY as TILE_FACE

    face = pygame.Color(*TILE_FACE)
    for rect in app.stage.regions.panels:
        region = app.screen.subsurface(rect)
        w, h = region.get_size()
        assert all(region.get_at((x, y)) != face for x in range(0, w, 2) for y in range(0, h, 2))
    tap(app, do.Reveal(s.match.to_act))
    assert s.screen == "play"
    hand_rect = app.stage.regions.panels[s.match.to_act]
    region = app.screen.subsurface(hand_rect)
    assert any(region.get_at((x, y)) == face for x in range(0, hand_rect.width, 2) for y in range(0, hand_rect.height, 2))


def test_hot_seat_auction_shows_a_hand_only_after_its_player_revealed() -> None:
    """Issue 20: on a shared screen every auction decision (the first one too) begins with a hand-over,
    and no tile face is in either panel until the player to act reveals; bids by RAISE and by tap."""
    from kiosk.ui.board.render import IVORY as TILE_FACE

    app, clock = make_app(handover=True)
    face = pygame.Color(*TILE_FACE)

    def faces(player: int) -> bool:
        region = app.screen.subsurface(app.stage.regions.panels[player])
        w, h = region.get_size()
        return any(region.get_at((x, y)) == face for x in range(0, w, 2) for y in range(0, h, 2))

    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    decisions = reveals = 0
    revealed: int | None = None
    while not s.match.is_over and decisions < 12:
        m = s.match
        if m.phase is Phase.READY:
            clock.advance(1)
            key(app, "a")
            revealed = None
        elif m.phase is Phase.HANDOVER and m.to_act is not None and m.auction() is not None:
            assert not faces(0) and not faces(1)
            revealed = m.to_act
            reveals += 1
            tap(app, do.Reveal(m.to_act))
        elif m.phase is Phase.AUCTION:
            player = m.to_act
            assert player is not None and revealed == player  # a hand-over before every decision
            assert faces(player) and not faces(1 - player)
            decisions += 1
            clock.advance(1)
            standing = m.auction()
            assert standing is not None
            if standing.bid is not None and standing.bid >= 30:
                key(app, ("a", "j")[player])  # ACCEPT
            elif decisions % 2:
                key(app, ("s", "k")[player])  # RAISE
            else:
                tap(app, do.PlaceBid)
            revealed = None
        else:
            play_turn(app, clock)
    assert decisions >= 4 and reveals == decisions


def test_touch_arrives_once_and_finger_coordinates_map_to_the_screen(app_clock: tuple[App, FakeClock]) -> None:
    app, _ = app_clock
    frame(app)
    spot = spot_for(app, do.NewMatch())
    assert spot is not None
    w, h = app.screen.get_size()
    # SDL sends a finger event and an emulated mouse click marked as touch: only one must count
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=spot.rect.centerx / w, y=spot.rect.centery / h,
                                         finger_id=1, touch_id=1, dx=0, dy=0, pressure=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=True))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=spot.rect.centerx / w, y=spot.rect.centery / h,
                                         finger_id=1, touch_id=1, dx=0, dy=0, pressure=0))
    frame(app)
    first = app.session
    assert first is not None and app.ui.screen == "match"
    frame(app)
    assert app.session is first


def test_admin_exit_needs_a_long_hold_in_the_corner(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.stage.regions.admin_area.center, button=1, touch=False))
    frame(app)
    clock.advance(2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=app.stage.regions.admin_area.center, button=1, touch=False))
    frame(app)
    clock.advance(10)
    frame(app)
    assert app.running  # a short touch never exits
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.stage.regions.admin_area.center, button=1, touch=False))
    frame(app)
    clock.advance(4.9)
    frame(app)
    assert app.running
    clock.advance(0.2)
    frame(app)
    assert not app.running


def test_a_clock_digit_redraws_only_the_clocks(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    assert app.draw(clock.now()) == "none"
    clock.advance(0.5)
    assert app.draw(clock.now()) == "clocks"  # the delay rounds down: 10 -> 9 after half a second
    clock.advance(0.3)
    assert app.draw(clock.now()) == "none"  # still 9
    clock.advance(0.6)
    assert app.draw(clock.now()) == "clocks"  # 8
    assert app.draw(clock.now()) == "none"


def test_rules_help_keeps_the_clock_running(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    s = playing(app)
    player = s.match.to_act
    tap(app, do.OpenHelp(player))  # the Rules on the acting player's half
    assert app.ui.help_open and s.match.clock_running == player
    before = s.match.bank_ns(player, clock.now())
    pass_time(app, clock, 15)
    assert s.match.bank_ns(player, clock.now()) < before
    assert any(c.player == player for c in app.stage.clocks)  # clocks stay on screen under the help
    tap(app, do.CloseHelp())
    assert not app.ui.help_open


LINE_TO_BLOCK = (  # one line of 24 tiles from [0|0]; its ends: [0|0] lineA (0) and [1|1] lineB (1)
    "0|0 0|6 6|6 5|6 5|5 4|5 4|6 1|6 1|5 3|5 3|4 4|4 2|4 2|5 0|5 0|4 1|4 1|3 3|3 0|3 0|2 2|2 1|2 1|1"
)


def blocked_soon(app: App, clock: FakeClock) -> None:
    """Player 1 to play [0|1] (from [0|1] [2|3]); player 2 holds [2|6] [3|6]; the boneyard is empty."""
    from engine import ALL_TILES, Layout, Match, Tile

    layout = Layout()
    data_layout: list[list[object]] = []
    names = LINE_TO_BLOCK.split()
    end = None
    for name in names:
        tile = Tile.parse(name)
        layout.place(tile, end)
        data_layout.append([name, None if end is None else [str(end.tile), end.slot.value]])
        end = next(p for p, _ in layout.open_points() if p.tile == tile and p.slot.value in ("high", "low", "lineB"))
    s = playing(app)
    data = s.match.to_dict()
    now = clock.now()
    data.update(
        phase="play", round=1, hands=[["0|1", "2|3"], ["2|6", "3|6"]], boneyard=[], layout=data_layout,
        to_act=0, opening_tile=None, drawn=None, passes=0, auction=None, after_reveal=None, last_actor=1,
        jockey=None, last_ns=now, clock={**data["clock"], "running": 0, "started_ns": now},
    )
    assert len(names) + 4 == len(ALL_TILES)
    s.adopt(Match.from_dict(data))


def test_blocked_round_after_automatic_passes_shows_the_settlement(app_clock: tuple[App, FakeClock]) -> None:
    from engine import Point, Tile

    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    blocked_soon(app, clock)
    frame(app)
    tap(app, do.TapTile(0, Tile.parse("0|1")))
    assert playing(app).selected == Tile.parse("0|1")  # two points: pick one
    tap(app, do.TapPoint(Point.parse("1|1", "lineB")))
    s = playing(app)
    assert s.screen == "settlement" and s.match.round == 1
    assert s.match.balances == (165, 135)  # 5 pips against 17: player 1 receives 15
    passes = [m.text for m in s.messages if "cannot play and passes" in m.text]
    assert len(passes) == 2
    assert spot_for(app, do.Start(1)) is not None  # Continue on both sides


def test_a_stalled_loop_aborts_the_match_without_a_result(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    pass_time(app, clock, 1.5)
    assert not playing(app).match.is_over
    clock.advance(2.5)  # the loop could not take commands for longer than the 2 s stall limit
    frame(app)
    outcome = playing(app).match.outcome
    assert outcome is not None and outcome.winner is None and not outcome.rated
    reason = "the kiosk could not take commands for 2.5 s while a clock ran (the limit is 2.0 s)"
    assert outcome.detail == reason
    assert [m.text for m in playing(app).live_messages(clock.now())] == [f"Match aborted: {reason}"]  # and says why


def test_no_clock_running_means_no_stall(app_clock: tuple[App, FakeClock]) -> None:
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    clock.advance(60)  # ready screen: clocks stopped, a long pause costs nothing
    frame(app)
    tap(app, do.Start(0))
    assert not playing(app).match.is_over and playing(app).match.clock_running is not None


def test_matches_are_journalled_and_resumed_after_a_restart(closing: Closing, tmp_path) -> None:
    from kiosk.store.journal import Journal

    journal = Journal.open(tmp_path / "journal.sqlite3")
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    clock = FakeClock(10 * S)
    app, _ = kiosk_app(config, clock=clock, journal=journal, boot_id="boot-1")
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    play_turn(app, clock)
    before = playing(app).match.to_dict()
    app.close()
    journal.close()
    clock.advance(1)  # the kiosk was down for a second: the running clock keeps running
    journal = Journal.open(tmp_path / "journal.sqlite3")
    again, _ = kiosk_app(config, clock=clock, journal=journal, boot_id="boot-1")
    closing.later(journal.close)
    frame(again)
    assert again.session is not None and again.ui.screen == "match"
    restored = playing(again).match.to_dict()
    for key in ("hands", "layout", "balances", "round", "to_act", "phase", "boneyard"):
        assert restored[key] == before[key], key
    assert restored["clock"]["started_ns"] == before["clock"]["started_ns"]
    assert any("restart" in m.text.lower() for m in playing(again).messages)


def test_the_serial_panel_state_is_shown_during_a_match() -> None:
    from hardware.config import HardwareConfig, SerialConfig

    config = replace(KioskConfig(), match=MatchSettings(handover=False),
                     hardware=replace(HardwareConfig(), serial=SerialConfig(enabled=True, url="loop://")))
    app, _ = kiosk_app(config, simulator=True)
    frame(app)
    tap(app, do.NewMatch())
    frame(app)
    assert app.ports.panel is not None
    assert app.ui.panel == app.ports.panel_status.value.lower()
    assert app.ui.panel in ("disconnected", "handshaking", "connected", "incompatible")
    app.close()
    plain, _ = make_app()
    frame(plain)
    assert plain.ui.panel is None  # no serial panel configured: nothing shown


def test_home_from_the_ready_screen(app_clock: tuple[App, FakeClock]) -> None:
    app, _ = app_clock
    frame(app)
    tap(app, do.NewMatch())
    assert playing(app).screen == "ready"
    tap(app, do.GoHome())
    assert app.session is None and app.ui.screen == "home"


def test_the_result_card_keeps_the_winner_and_the_reason_together_above_the_messages(
        app_clock: tuple[App, FakeClock]) -> None:
    """In table orientation the newest messages go into the result card: after the winner and why,
    never between them."""
    app, clock = app_clock
    frame(app)
    tap(app, do.NewMatch())
    tap(app, do.Start(1))
    tap(app, do.Resign(1))
    tap(app, do.ConfirmResign(1))
    playing(app).say("Blocked: both players passed", clock.now())
    drawn = [fit.text for fit in draw_recorded(app, clock)]
    title = drawn.index("Player 1 wins")
    assert drawn[title + 1] == "because the other player resigned"
    assert "Blocked: both players passed" in drawn[title + 2:title + 4]
