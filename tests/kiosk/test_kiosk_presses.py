"""A press means what was on screen when it was pressed; the serial panel is fed at home; no phantom
matches; the message of a resume is shown whatever the uptime (mock pins, a serial panel on a pty,
a real journal)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from kiosk_support import Closing, kiosk_app, playing, tap

from engine import NS_PER_S, Match, Phase
from hardware.config import HardwareConfig, SerialConfig
from hardware.events import Button
from hardware.ptyboard import PtyBoard
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.table.session import match_config
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock

S = NS_PER_S
MS = 1_000_000
KEYS = {0: {"accept": "a", "raise": "s", "decline": "d"}, 1: {"accept": "j", "raise": "k", "decline": "l"}}
WAIT = 5.0


def make_app(config: KioskConfig | None = None, *, start_s: float = 10, **kwargs: object) -> tuple[App, FakeClock]:
    return kiosk_app(config or replace(KioskConfig(), match=MatchSettings(handover=True)), start_s=start_s,
                     simulator=True, **kwargs)


def frame(app: App, clock: FakeClock, ms: float = 10) -> None:
    """The loop takes the inputs in ``ms`` after the last press and shows a frame."""
    clock.advance(0, ns=int(ms * MS))
    app.step(wait=False)


def press(app: App, player: int, button: str) -> None:
    """Press and release a player's button on its gpiozero mock pin, now."""
    keys = app.ports.keys
    assert keys is not None
    name = KEYS[player][button]
    keys.key_down(name)
    keys.key_up(name)


def auction_handover_with_a_bid(app: App, clock: FakeClock) -> tuple[int, int]:
    """A match in its auction: the first player bid 15, and the hand-over screen waits for the other."""
    frame(app, clock)
    tap(app, do.NewMatch())
    session = playing(app)
    session.adopt(Match(replace(match_config(app.config.match), jockey=0), boot_id=""))  # round 1 opens with an auction
    frame(app, clock)
    tap(app, do.Start(0))
    frame(app, clock)
    m = session.match
    assert m.phase is Phase.HANDOVER
    first = m.to_act
    press(app, first, "accept")  # reveal
    frame(app, clock)
    clock.advance(0.5)
    press(app, first, "raise")  # bids 15
    frame(app, clock)
    assert m.phase is Phase.HANDOVER and m.to_act == 1 - first
    assert m.auction() is not None and m.auction().bid == 15
    return first, 1 - first


def test_two_accepts_150_ms_apart_at_an_auction_hand_over_reveal_and_do_not_accept() -> None:
    app, clock = make_app()
    _first, second = auction_handover_with_a_bid(app, clock)
    m = playing(app).match
    clock.advance(1)
    press(app, second, "accept")  # reveals the hand
    frame(app, clock)  # the auction card shows 10 ms later
    assert m.phase is Phase.AUCTION and m.to_act == second
    clock.advance(0, ns=140 * MS)
    press(app, second, "accept")  # 150 ms after the first: a repeat, not "accept the bid"
    frame(app, clock)
    assert m.phase is Phase.AUCTION and m.to_act == second and m.auction().bid == 15
    clock.advance(0.5)
    press(app, second, "accept")  # a deliberate press later on does accept it
    frame(app, clock)
    assert m.phase is not Phase.AUCTION and m.auction() is None


def test_the_opponents_accept_in_the_same_frame_means_nothing() -> None:
    app, clock = make_app()
    first, second = auction_handover_with_a_bid(app, clock)
    m = playing(app).match
    clock.advance(1)
    press(app, second, "accept")  # reveals
    clock.advance(0, ns=20 * MS)
    press(app, first, "accept")  # arrives before any frame showed the auction card
    frame(app, clock)
    assert m.phase is Phase.AUCTION and m.to_act == second and m.auction().bid == 15
    assert not [msg for msg in playing(app).messages if msg.player == first]  # not even a refusal


def test_a_press_that_arrived_before_the_frame_showing_the_new_turn_does_not_act_in_it() -> None:
    app, clock = make_app()
    first, second = auction_handover_with_a_bid(app, clock)
    m = playing(app).match
    clock.advance(1)
    press(app, second, "accept")  # reveal
    frame(app, clock)
    clock.advance(0.5)
    press(app, second, "decline")  # an illegal decline: refused, the turn stays
    frame(app, clock)
    clock.advance(0.5)
    press(app, second, "raise")  # bids 20: the turn goes to the first player (hand-over)
    press(app, first, "accept")  # pressed at once, before the frame that shows the hand-over
    frame(app, clock)
    assert m.phase is Phase.HANDOVER and m.to_act == first and m.auction().bid == 20


def test_a_tap_taken_in_after_a_button_changed_the_screen_in_the_same_frame_means_nothing() -> None:
    app, clock = make_app(replace(KioskConfig(), match=MatchSettings(handover=False)))
    frame(app, clock)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    frame(app, clock)
    m = playing(app).match
    assert m.phase is Phase.PLAY
    spot = next(s for s in app.hotspots if isinstance(s.intent, do.TapTile))  # the opening tile, as drawn
    clock.advance(1)
    app.ports.queue.push(None, Button.HELP, "test")  # the help button, pressed just before the finger
    clock.advance(0, ns=5 * MS)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
    frame(app, clock)
    assert app.ui.help_open and playing(app).match.layout.tiles() == []  # the tile was not played under the help
    assert playing(app).selected is None


def test_a_serial_panel_that_connects_while_the_kiosk_idles_at_home_gets_the_state(closing: Closing,
                                                                                   tmp_path: Path) -> None:
    board = PtyBoard(tmp_path / "panel", name="TESTBOARD")
    serial = SerialConfig(enabled=True, url=str(tmp_path / "panel"), reconnect_max_s=0.05)
    config = replace(KioskConfig(), hardware=replace(HardwareConfig(), serial=serial))
    app, clock = make_app(config)
    closing.later(board.unplug)
    frame(app, clock)  # the home screen; no board yet
    assert app.session is None and app.ui.screen == Screen.HOME
    board.plug()  # the panel is plugged in while nobody touches anything
    assert board.wait_for(lambda lines: b"STATE IDLE" in lines and b"LIT 0 A-- 0" in lines, WAIT), board.lines


def test_a_stray_raise_on_the_ready_screen_enters_no_match_in_the_journal(closing: Closing, tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    app, clock = make_app(journal=journal, boot_id="boot-1")
    closing.later(journal.close)
    frame(app, clock)
    tap(app, do.NewMatch())
    frame(app, clock)
    press(app, 0, "raise")
    press(app, 1, "decline")
    frame(app, clock)
    assert playing(app).match.phase is Phase.READY and playing(app).match.round == 0
    assert journal.matches() == []
    clock.advance(1)
    press(app, 1, "accept")  # a real Start enters the match
    frame(app, clock)
    assert len(journal.matches()) == 1 and playing(app).match.phase is Phase.HANDOVER


def test_the_resume_message_is_shown_even_when_the_machine_has_been_up_for_hours(closing: Closing,
                                                                                 tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    app, clock = make_app(config, start_s=5 * 3600, journal=journal, boot_id="boot-1")
    frame(app, clock)
    tap(app, do.NewMatch())
    tap(app, do.Start(0))
    frame(app, clock)
    assert playing(app).match.clock_running is not None
    app.close()
    journal.close()
    clock.advance(60)
    journal = Journal.open(path)  # another boot: the running match is aborted, and the players are told
    again, _ = kiosk_app(config, clock=clock, journal=journal, boot_id="boot-2")
    closing.later(journal.close)
    again.step(wait=False)  # the first frame, five hours after the machine started
    assert again.ui.screen == Screen.MATCH and again.session is not None and playing(again).match.is_over
    assert any("restarted" in m.text for m in playing(again).live_messages(clock.now()))
    clock.advance(again.config.kiosk.idle_return_seconds + 1)
    again.step(wait=False)
    assert again.ui.screen == Screen.HOME  # and the idle return comes, counted from the start
