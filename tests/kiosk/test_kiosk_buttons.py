"""One input vocabulary: a physical button makes the intent a tap makes, and its LED is lit exactly when
that intent would be taken (over random states, every game button of both seats; no pygame)."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

from kiosk_support import playing

from engine import NS_PER_S, Phase, Start, shuffle_deal
from hardware.events import GAME_BUTTONS, Button, InputEvent
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table import intents as do
from kiosk.table.buttons import button_intent
from kiosk.table.controller import Controller
from kiosk.timesource import FakeClock

S = NS_PER_S


def make(handover: bool) -> tuple[Controller, FakeClock]:
    config = replace(KioskConfig(), match=MatchSettings(handover=handover, balances=60))
    clock = FakeClock(10 * S)
    return Controller(config, clock, rng=random.Random(3), boot_id="boot-1"), clock


def what_it_shows(c: Controller) -> tuple[object, ...]:
    """What a taken press changes: the match at the table, its state, the bid asked about."""
    s = c.session
    if s is None:
        return (None,)
    m = s.match
    return (id(s), m.phase, m.to_act, m.round, m.last_command_ns, len(s.events), s.all_in)


def taken(c: Controller, player: int, button: Button, now: int) -> bool:
    """Whether a press of ``button`` by ``player`` would change what the table shows (on a copy)."""
    clone = copy.deepcopy(c)
    clone.routes = clone._routes()  # its handlers act on the copy
    before = what_it_shows(clone)
    clone.press(InputEvent(player, button, now, "test"))
    return what_it_shows(clone) != before


def random_state(c: Controller, clock: FakeClock, rng: random.Random) -> None:
    """Random legal play from a fresh match (now and then the computer in seat 2, a bid that takes the
    whole balance waiting for its answer, a name picker or the owner's keypad open), or home."""
    roll = rng.random()
    if roll < 0.05:
        c.go_home()
        return
    c.new_match(rng.choice((None, None, 1)))
    s = playing(c)
    assert s is not None
    m = s.match
    for _ in range(rng.randrange(0, 60)):
        legal = m.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        s.command(action, clock.advance(rng.choice((1, 2, 3))))
    if m.phase is Phase.AUCTION and rng.random() < 0.4:
        s.step_bid(100)  # the top of the stepper: a bid that takes the whole balance asks first
        s.submit_bid(clock.advance(1))
    extra = rng.random()
    if extra < 0.08:
        c.ui.records.picker = rng.choice((0, 1))
    elif extra < 0.12:
        c.ui.owner.keypad = "exit"


def test_a_button_is_lit_exactly_when_its_press_would_be_taken() -> None:
    rng = random.Random(21)
    seen: set[tuple[object, ...]] = set()
    for handover in (False, True):
        c, clock = make(handover)
        for _ in range(70):
            random_state(c, clock, rng)
            now = clock.advance(1)
            panel = c.panel_state(now)
            phase = None if c.session is None else playing(c).match.phase
            for player in (0, 1):
                for button in GAME_BUTTONS:
                    lit = button in panel.players[player].active
                    assert lit == taken(c, player, button, now), (phase, player, button, lit)
                    seen.add((phase, button, lit))
    lit_phases = {phase for phase, _, lit in seen if lit}
    assert {None, Phase.READY, Phase.AUCTION, Phase.HANDOVER, Phase.PLAY} <= lit_phases  # the states were varied
    assert any(not lit and phase is Phase.AUCTION for phase, _, lit in seen)


def test_a_button_makes_the_intent_of_the_tap_for_the_same_choice() -> None:
    c, clock = make(handover=False)
    c.new_match()
    s = playing(c)
    assert s is not None
    assert button_intent(s, 1, Button.ACCEPT) == do.Start(1)
    assert button_intent(s, None, Button.START_CONTINUE) == do.Start(None)
    assert button_intent(s, 0, Button.RAISE) == do.ButtonUnused(0)
    s.start(0, clock.advance(1))
    if s.match.phase is Phase.AUCTION:
        p = s.match.to_act
        assert p is not None
        assert button_intent(s, p, Button.RAISE) == do.PlaceBid(p)
        assert button_intent(s, p, Button.DECLINE) == do.Decline(p)
        assert button_intent(s, p, Button.ACCEPT) == do.Accept(p)
    assert c.button_intent(0, Button.HELP) == do.OpenHelp()
