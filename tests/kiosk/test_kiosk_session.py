"""The table session: button meanings, taps on tiles and points, automatic passes, messages."""

from __future__ import annotations

import random

from engine import ALL_TILES, NS_PER_S, Deal, Decline, Match, MatchConfig, Phase, Play, Point, Start, Tile
from hardware.events import Button
from hardware.state import PanelState
from hardware.state import Phase as PanelPhase
from kiosk.config import MatchSettings
from kiosk.table.buttons import button_intent, lit, panel_state
from kiosk.table.dispatch import MATCH
from kiosk.table.session import GameSession
from kiosk.table.state import UiState

S = NS_PER_S
CHAIN = Deal.from_names(
    [["1|4", "4|4", "1|2", "5|5", "1|3", "2|6", "0|6"], ["1|1", "3|4", "1|5", "0|5", "2|3", "6|6", "0|0"]],
    ["0|1", "0|2", "0|3", "0|4", "1|6", "2|2", "2|4", "2|5", "3|3", "3|5", "3|6", "4|5", "4|6", "5|6"],
)


def press(s: GameSession, player: int | None, button: Button, at: int) -> bool:
    """A physical button on the session alone (no controller, no guards): its intent carried out."""
    intent = button_intent(s, player, button)
    handler = MATCH.get(type(intent))
    return handler is not None and bool(handler(s, UiState(), intent, at))


def panel(s: GameSession, now: int) -> PanelState:
    """What the LEDs and the serial panel show for the session alone."""
    return panel_state(s, now, (lit(s, 0), lit(s, 1)))


def current_bid(s: GameSession) -> int | None:
    """The bid of the auction under way (there must be one)."""
    auction = s.match.auction()
    assert auction is not None, "no auction"
    return auction.bid


def session(handover: bool = False) -> GameSession:
    return GameSession(MatchSettings(handover=handover), random.Random(4))


def started() -> GameSession:
    """Player 0 is the jockey, player 1 declined: player 0 opens with any tile of the seeds' chain."""
    s = session()
    s.match = Match(MatchConfig(jockey=0))
    s.match.apply(Start(None, CHAIN), 0)
    s.match.apply(Decline(1), 0)
    return s


def test_accept_button_starts_the_match_from_either_player() -> None:
    s = session()
    assert s.screen == "ready"
    assert press(s, 1, Button.ACCEPT, 1 * S)
    assert s.match.round == 1 and s.screen == "play"


def test_raise_bids_the_minimum_and_accept_accepts_in_the_auction() -> None:
    s = GameSession(MatchSettings(handover=False), random.Random(1))
    s.match = Match(MatchConfig(jockey=0))
    press(s, None, Button.START_CONTINUE, 0)
    assert s.screen == "auction" and s.match.to_act == 1
    assert press(s, 1, Button.RAISE, 1 * S)
    assert current_bid(s) == 15 and s.match.to_act == 0
    assert press(s, 0, Button.RAISE, 2 * S)
    assert current_bid(s) == 20
    assert not press(s, 0, Button.ACCEPT, 3 * S)  # out of turn: refused with a message for player 0
    refused = s.live_messages(3 * S)[-1]
    assert refused.player == 0 and refused.kind == "refused" and "other player" in refused.text
    assert press(s, 1, Button.ACCEPT, 4 * S)
    assert s.screen == "play" and s.match.to_act == 0
    assert s.match.balances == (145, 155)  # the jockey's 20 costs 5


def test_accept_without_a_bid_explains_what_the_buttons_do() -> None:
    s = GameSession(MatchSettings(handover=False), random.Random(1))
    s.match = Match(MatchConfig(jockey=0))
    press(s, 0, Button.ACCEPT, 0)
    assert not press(s, 1, Button.ACCEPT, 1 * S)
    assert "RAISE bids 15" in s.live_messages(1 * S)[-1].text
    assert press(s, 1, Button.DECLINE, 2 * S)
    assert s.screen == "play" and s.match.to_act == 0


def test_accept_reveals_in_a_hand_over_only_for_the_player_to_act() -> None:
    s = session(handover=True)
    press(s, 0, Button.ACCEPT, 0)
    assert s.screen == "handover"
    waiting = s.match.to_act
    assert waiting is not None
    assert not press(s, 1 - waiting, Button.ACCEPT, 1 * S)
    assert s.screen == "handover"
    assert press(s, waiting, Button.ACCEPT, 2 * S)
    assert s.screen == "play" and s.match.clock_running == waiting


def test_tap_tile_then_point_places_it_and_a_single_point_needs_a_second_tap() -> None:
    s = started()
    assert s.select(Tile.parse("1|4"), 1 * S)  # opening tile: placed at once
    assert s.match.layout.tiles() == [Tile.parse("1|4")]
    one_point = Tile.parse("1|1")  # fits only the low end (1)
    assert not s.select(one_point, 2 * S)
    assert s.selected == one_point and s.targets() == [Point.parse("1|4", "low")]
    assert s.select(one_point, 3 * S)  # second tap places it
    assert s.match.end_count == 6
    s.select(Tile.parse("4|4"), 4 * S)
    assert s.place_at(Point.parse("1|4", "high"), 5 * S)
    assert s.match.balances == (165, 135)  # 5 for the opening, 10 for [4|4]


def test_tapping_a_tile_that_does_not_fit_says_so() -> None:
    s = started()
    s.select(Tile.parse("1|4"), 1 * S)
    assert not s.select(Tile.parse("2|3"), 2 * S)
    assert "does not fit" in s.live_messages(2 * S)[-1].text


def test_required_pass_is_made_automatically_and_announced() -> None:
    s = started()
    data = s.match.to_dict()
    others = [str(t) for t in ALL_TILES if str(t) not in ("1|4", "2|3")]
    data.update(layout=[["1|4", None]], boneyard=[], hands=[others, ["2|3"]], to_act=0, opening_tile=None)
    s.match = Match.from_dict(data)
    assert s.command(Play(0, Tile.parse("0|1"), Point.parse("1|4", "low")), 1 * S)
    assert s.match.to_act == 0 and s.match.hand(1) == (Tile.parse("2|3"),)
    assert any("Player 2 cannot play and passes" in msg.text for msg in s.live_messages(1 * S))


def test_bid_stepper_stays_within_what_the_player_can_afford() -> None:
    s = GameSession(MatchSettings(handover=False, balances=30), random.Random(1))
    s.match = Match(MatchConfig(balances=(30, 30), jockey=0))
    press(s, 0, Button.ACCEPT, 0)
    assert s.bid_draft == 15
    s.step_bid(10)
    assert s.bid_draft == 30  # player 1 (not the jockey) can pay at most 30
    s.step_bid(-10)
    assert s.bid_draft == 15
    s.step_bid(2)
    assert s.submit_bid(1 * S) and current_bid(s) == 25


def test_panel_state_lights_the_meaningful_buttons() -> None:
    s = session()
    ready = panel(s, 0)
    assert ready.phase is PanelPhase.IDLE
    assert all(ready.player(p).active == {Button.ACCEPT} for p in (0, 1))
    press(s, 0, Button.ACCEPT, 0)
    playing = panel(s, 1 * S)
    assert playing.phase is PanelPhase.PLAY and playing.turn == s.match.to_act
    assert playing.player(0).active == frozenset() and playing.player(0).balance == 150
    assert s.match.to_act is not None and playing.player(s.match.to_act).clock_ms == 120_000


def test_time_loss_is_announced_by_tick() -> None:
    s = session()
    press(s, 0, Button.ACCEPT, 0)
    loser = s.match.to_act
    assert loser is not None
    s.tick(131 * S)
    outcome = s.match.outcome
    assert s.match.phase is Phase.MATCH_OVER and outcome is not None and outcome.winner == 1 - loser
    assert s.screen == "match_over"
