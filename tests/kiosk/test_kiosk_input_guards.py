"""Input guards through the real app (headless, posted clicks, mock GPIO, a fake clock): taps obey
the repeat rule of the buttons, nothing on the computer's side takes a tap, RAISE bids what the
screen shows, All I can afford keeps the player in the match, the waiting player's help and the
owner's keypad over a running match leave the acting player's side alone (issues 20 and 26)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import draw_recorded, kiosk_app, playing, spot_for, tap

from engine import ALL_TILES, NS_PER_S, Deal, Draw, EndReason, Match, MatchConfig, Phase, Play, Start, Tile
from kiosk.app import App
from kiosk.devtools import double_taps
from kiosk.owner import LoadedPin, OwnerPin
from kiosk.table import intents as do
from kiosk.table.presses import Tap
from kiosk.timesource import FakeClock

S = NS_PER_S
MS = 1_000_000
KEYS = {0: {"accept": "a", "raise": "s", "decline": "d"}, 1: {"accept": "j", "raise": "k", "decline": "l"}}
PIN = "4821"


def bid_of(m: Match) -> int | None:
    """The bid of the auction under way (there must be one)."""
    auction = m.auction()
    assert auction is not None, "no auction"
    return auction.bid


def intent_at(app: App, pos: tuple[int, int]) -> object:
    """What a tap at ``pos`` means (something must be there)."""
    spot = app.stage.hit(pos)
    assert spot is not None, f"nothing to tap at {pos}"
    return spot.intent


def make_app(orientation: str = "table", handover: bool = False, pin: LoadedPin | None = None) -> tuple[App, FakeClock]:
    return kiosk_app(orientation=orientation, match={"handover": handover}, simulator=True, owner_pin=pin, bots=4,
                     step=True)


def click(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    app.step(wait=False)


def press(app: App, player: int, button: str) -> None:
    keys = app.ports.keys
    assert keys is not None
    keys.key_down(KEYS[player][button])
    keys.key_up(KEYS[player][button])
    app.step(wait=False)


def auction(app: App, clock: FakeClock, jockey: int = 0, balances: int = 150) -> Match:
    """A match whose round opens with an auction (``jockey`` dominoed): the other player bids first."""
    tap(app, do.NewMatch())
    playing(app).adopt(Match(MatchConfig(balances=(balances, balances), jockey=jockey, handover=False)))
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    assert m.phase is Phase.AUCTION and m.to_act == 1 - jockey
    return m


# -- 26.1 / 20.14: taps obey the repeat rule ---------------------------------------------------


def test_a_double_tap_on_reveal_does_not_act_on_the_screen_it_opened() -> None:
    app, clock = make_app("table", handover=True)
    tap(app, do.NewMatch())
    playing(app).adopt(Match(MatchConfig(jockey=0, handover=True)))  # an auction after the reveal
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    assert m.phase is Phase.HANDOVER
    clock.advance(1)
    reveal = [spot for spot in app.hotspots if spot.intent == do.Reveal(m.to_act)][-1]  # the card's
    pos = (reveal.rect.centerx, reveal.rect.bottom - 8)
    click(app, pos)  # reveals: the auction card is up, its Bid button under the finger
    assert m.phase is Phase.AUCTION
    under = app.stage.hit((pos[0] + 3, pos[1] + 2))
    assert under is not None and isinstance(under.intent, do.PlaceBid)
    before = (m.phase, m.to_act, m.auction(), playing(app).bid_draft, len(playing(app).messages))
    clock.advance(0, ns=150 * MS)
    click(app, (pos[0] + 3, pos[1] + 2))  # the second tap of the double tap: means nothing
    assert (m.phase, m.to_act, m.auction(), playing(app).bid_draft, len(playing(app).messages)) == before
    clock.advance(0, ns=400 * MS)
    shown = app.controller.screen_key(clock.now())
    click(app, (pos[0] + 3, pos[1] + 2))  # a deliberate tap later is taken
    assert app.controller.screen_key(clock.now()) != shown


def test_the_spot_that_became_another_button_takes_no_repeat_but_the_same_button_does() -> None:
    from kiosk.table.presses import PressTiming

    timing = PressTiming()
    timing.presented(("play",), 0)
    draw = Tap((100, 100), 1_000 * MS, do.DrawTile, (80, 80, 60, 60), timing.shown_count)
    assert not timing.tap_repeat(draw, 40)
    again = Tap((103, 98), 1_150 * MS, do.DrawTile, (80, 80, 60, 60), timing.shown_count)
    assert not timing.tap_repeat(again, 40)  # Draw, Draw: the same button on the same screen
    hint = Tap((101, 99), 1_300 * MS, do.Hint, (80, 80, 60, 60), timing.shown_count)
    assert timing.tap_repeat(hint, 40)  # Draw became Hint under the finger: a repeat
    timing.presented(("settlement",), 1_350 * MS)
    cont = Tap((100, 100), 1_450 * MS, do.Start, (80, 80, 60, 60), timing.shown_count)
    assert timing.tap_repeat(cont, 40)  # across a screen change: a repeat
    later = Tap((100, 100), 1_800 * MS, do.Start, (80, 80, 60, 60), timing.shown_count)
    assert not timing.tap_repeat(later, 40)  # 350 ms on: a new tap


def test_double_taps_on_random_screens_never_do_two_things() -> None:
    tally = double_taps.run(120, seed=7, orientation="table")
    assert tally.pairs == 120 and tally.both_taken > 0  # the taps reach screens that take them
    assert tally.two_things == 0, tally.examples


@pytest.mark.slow
@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_thousands_of_double_taps_never_do_two_things(orientation: str) -> None:
    tally = double_taps.run(1500, seed=11, orientation=orientation)
    assert tally.two_things == 0, tally.examples


def test_accept_draws_when_drawing_is_the_only_move() -> None:
    app, clock = make_app()
    tap(app, do.NewMatch())
    sixes = tuple(Tile(n, 6) for n in range(7))
    others = tuple(t for t in ALL_TILES if 6 not in t)
    playing(app).command(Start(0, Deal((sixes, others[:7]), others[7:])), clock.now())
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.TapTile(0, Tile(6, 6)))  # the opening tile, placed by the first tap
    m = playing(app).match
    assert m.to_act == 1 and m.boneyard_count == 14
    assert any(isinstance(a, Draw) for a in m.legal_actions()) and not any(
        isinstance(a, Play) for a in m.legal_actions())
    clock.advance(1)
    press(app, 1, "accept")
    assert m.boneyard_count == 13 and m.to_act == 1
    assert app.controller.panel_state(clock.now()).players[1].active == {do_button("ACCEPT")}  # lit: it draws


def do_button(name: str) -> object:
    from hardware.events import Button

    return Button[name]


# -- 20.1: nothing on the computer's side takes a tap ----------------------------------------------


def test_the_computers_auction_card_takes_no_tap() -> None:
    app, clock = make_app()
    tap(app, do.OpenPractice())
    tap(app, do.PlayComputer(2))
    playing(app).adopt(Match(MatchConfig(jockey=0, handover=False)))  # the computer (seat 1) bids first
    app.step(wait=False)
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    assert m.phase is Phase.AUCTION and m.to_act == 1
    for kind in (do.StepBid, do.MaxBid, do.PlaceBid, do.Decline, do.Accept):
        assert spot_for(app, kind) is None  # its card has no buttons
    clock.advance(0, ns=300 * MS)
    for intent in (do.MaxBid(), do.PlaceBid(1), do.StepBid(5), do.Decline(1), do.ConfirmAllIn(1)):
        app.do(intent, clock.now())  # even handed to the stage: refused
    assert m.phase is Phase.AUCTION and m.to_act == 1 and bid_of(m) is None
    assert playing(app).bid_draft == 15
    clock.advance(1)
    app.step(wait=False)  # the computer answers by itself
    assert m.to_act != 1 or m.phase is not Phase.AUCTION


# -- 20.5 / 20.6: RAISE bids what the screen shows; All I can afford stays in the match -------------


def test_raise_bids_what_the_bid_button_shows() -> None:
    app, clock = make_app()
    m = auction(app, clock)
    tap(app, do.StepBid(1))
    tap(app, do.StepBid(1))
    assert "Bid 25" in {fit.text for fit in draw_recorded(app, clock)}
    clock.advance(1)
    press(app, 1, "raise")
    assert bid_of(m) == 25 and m.to_act == 0


def test_all_i_can_afford_stays_in_the_match_and_a_losing_bid_asks_in_large_type() -> None:
    app, clock = make_app()
    m = auction(app, clock)
    tap(app, do.MaxBid())
    assert playing(app).bid_draft == 145  # of 150: the most that keeps Player 2 in the match
    tap(app, do.StepBid(1))
    clock.advance(1)
    tap(app, do.PlaceBid(1))  # 150, the whole balance: not placed, asked
    assert bid_of(m) is None and playing(app).all_in == 150
    fits = draw_recorded(app, clock)
    question = [f for f in fits if f.text.startswith("Bid 150?") or "lose the match" in f.text]
    assert question and min(f.used for f in question) >= 22
    clock.advance(1)
    press(app, 1, "raise")  # the button does not answer it either
    assert bid_of(m) is None
    clock.advance(1)
    tap(app, do.ConfirmAllIn(1))
    assert bid_of(m) == 150 and m.to_act == 0


# -- 20.2: the waiting player's help covers their half only ----------------------------------------


def test_the_waiting_players_help_leaves_the_acting_players_half_alone() -> None:
    app, clock = make_app()
    tap(app, do.NewMatch())
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    acting = m.to_act
    assert acting is not None and m.phase is Phase.PLAY
    waiting = 1 - acting
    tap(app, do.OpenHelp(waiting))
    halves = app.stage.tables[playing(app).screen].halves()
    own, theirs = halves[waiting], halves[acting]
    help_kinds = (do.Noop, do.CloseHelp, do.HelpPage, do.HelpLanguage)
    assert isinstance(intent_at(app, own.center), help_kinds)
    hit = app.stage.hit(theirs.center)
    assert hit is None or not isinstance(hit.intent, help_kinds)
    assert any(isinstance(s.intent, do.TapTile) and s.intent.player == acting for s in app.hotspots)
    bank = m.bank_ns(acting, clock.now())
    for _ in range(24):  # 12 s, a frame every half second
        clock.advance(0.5)
        app.step(wait=False)
    assert m.bank_ns(acting, clock.now()) < bank  # the acting player's clock runs: they can play
    tap(app, do.CloseHelp())
    tap(app, do.OpenHelp(acting))  # the acting player's own help: over the middle, as before
    assert isinstance(intent_at(app, theirs.center), help_kinds)


# -- 20.16 / 26.10: the keypad over a running match -------------------------------------------------


def hold_corner(app: App, clock: FakeClock) -> None:
    corner = app.stage.regions.admin_area.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1, touch=False))
    app.step(wait=False)
    end = clock.now() + int(app.config.kiosk.admin_exit_hold_seconds * S)
    while clock.now() < end:
        clock.t = min(end, clock.now() + S // 2)
        app.step(wait=False)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=corner, button=1, touch=False))
    app.step(wait=False)


def test_the_keypad_over_a_running_match_keeps_off_the_acting_side_and_stops_the_match() -> None:
    app, clock = make_app(pin=LoadedPin(OwnerPin.new(PIN, iterations=10_000)))
    tap(app, do.NewMatch())
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    acting = m.to_act
    assert acting is not None and m.clock_running == acting
    hold_corner(app, clock)
    assert app.ui.owner.keypad == "exit"
    texts = {fit.text for fit in draw_recorded(app, clock)}
    assert f"The match goes on: Player {acting + 1}'s clock is running." in texts
    acting_half = pygame.Rect(0, 0, 800, 240) if acting == 1 else pygame.Rect(0, 240, 800, 240)
    owner_kinds = (do.Noop, do.PinDigit, do.PinBackspace, do.PinCancel, do.PinOk, do.PinStopMatch)
    assert all(not s.rect.colliderect(acting_half) for s in app.hotspots if isinstance(s.intent, owner_kinds))
    assert any(isinstance(s.intent, do.TapTile) and s.intent.player == acting for s in app.hotspots)
    for digit in PIN:
        tap(app, do.PinDigit(digit))
    tap(app, do.PinStopMatch())
    assert app.running and m.is_over and m.outcome is not None
    assert m.outcome.reason is EndReason.ABORTED and not m.outcome.rated
    assert app.ui.owner.keypad is None
