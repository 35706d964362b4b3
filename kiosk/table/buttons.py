"""What a physical button asks for: the intent a tap on the screen carries for the same choice, and
whether the match would take it now (its LED), both read from the match (no pygame here).

GPIO buttons, the serial panel's buttons and the simulator's keys arrive as ``hardware.events``
presses; ``button_intent`` makes each the game intent the controller's one dispatch table carries
out, as it does a tap's. ``accepts`` says whether that intent would be taken (read from the engine's
legal actions): a player's game button is lit exactly then (``lit``). What the buttons mean is in
docs/hardware.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine import Accept, Decline, Draw, Phase, Play, Reveal
from engine import Bid as EngineBid
from hardware.events import GAME_BUTTONS, Button
from hardware.state import PanelState, PlayerPanel
from hardware.state import Phase as PanelPhase
from kiosk.table import intents as do
from kiosk.table.dispatch import MATCH
from kiosk.table.due import LOW_BANK_NS
from kiosk.table.session import GameSession

STARTS = (Button.ACCEPT, Button.START_CONTINUE)
"""The buttons that start a match (at home) or a round (ready, between rounds)."""
REVEALS = (Button.ACCEPT, Button.REVEAL)
"""The buttons that reveal the tiles at a hand-over."""


def button_intent(s: GameSession, player: int | None, button: Button) -> do.Intent:
    """What ``player``'s ``button`` (None: a kiosk button) asks of the match at the table now.

    Ready and between rounds: ACCEPT and START/CONTINUE start; a hand-over: ACCEPT and REVEAL reveal
    (a kiosk button for the player to act); the auction: ACCEPT accepts, DECLINE declines, RAISE bids
    what the screen shows; play: ACCEPT draws when drawing is the only move; the match over: RAISE is
    the player's Review (taken only when there is one, ``review_desk``). Any other player's
    button means nothing, and the screen says where to act (``ButtonUnused``)."""
    m = s.match
    phase = m.phase
    if phase is Phase.READY and button in STARTS:
        return do.Start(player)
    if phase is Phase.HANDOVER and button in REVEALS:
        to_act = m.to_act if player is None else player
        return do.Noop() if to_act is None else do.Reveal(to_act)
    if player is None or button is Button.HELP:
        return do.Noop()
    if phase is Phase.AUCTION:
        if button is Button.RAISE:
            return do.PlaceBid(player)
        return do.Decline(player) if button is Button.DECLINE else do.Accept(player)
    if phase is Phase.PLAY and button is Button.ACCEPT and player == m.to_act and s.only_draw():
        return do.DrawTile(player)
    if phase is Phase.MATCH_OVER and button is Button.RAISE:
        return do.OpenReview(player)  # the result card's Review; on the review, the player's next decision
    return do.ButtonUnused(player)


def accepts(s: GameSession, intent: do.Intent) -> bool:
    """Whether the match would take ``intent`` now (a command the engine allows, or the bid the
    screen asks about first), as opposed to a refusal or nothing."""
    m = s.match
    legal = m.legal_actions()
    waiting = s.all_in is not None  # a bid that takes the whole balance waits for Yes or No
    match intent:
        case do.Start():
            return m.phase is Phase.READY
        case do.Reveal(player):
            return Reveal(player) in legal
        case do.Accept(player):
            return not waiting and Accept(player) in legal
        case do.Decline(player):
            return not waiting and Decline(player) in legal
        case do.PlaceBid(player):
            return not waiting and player == m.to_act and any(isinstance(a, EngineBid) for a in legal)
        case do.DrawTile(player):
            return m.phase is Phase.PLAY and player == m.to_act and any(isinstance(a, Draw) for a in legal) \
                and not any(isinstance(a, Play) for a in legal)
    return False


def lit(s: GameSession, player: int) -> frozenset[Button]:
    """The game buttons of ``player`` whose intent the match would take now."""
    return frozenset(b for b in GAME_BUTTONS if accepts(s, button_intent(s, player, b)))


PANEL_PHASES = {Phase.READY: PanelPhase.IDLE, Phase.AUCTION: PanelPhase.AUCTION, Phase.PLAY: PanelPhase.PLAY,
                Phase.HANDOVER: PanelPhase.HAND_OVER, Phase.MATCH_OVER: PanelPhase.MATCH_OVER}


def panel_state(s: GameSession, now_ns: int, active: tuple[frozenset[Button], frozenset[Button]]) -> PanelState:
    """What the LEDs and the serial panel show now, with each seat's ``active`` (lit) buttons."""
    m = s.match
    players = tuple(
        PlayerPanel(
            active=active[p],
            low_bank=m.clock_running == p and m.bank_ns(p, now_ns) < LOW_BANK_NS,
            clock_ms=m.bank_ns(p, now_ns) // 1_000_000,
            balance=m.balances[p],
        )
        for p in (0, 1)
    )
    auction = m.auction()
    return PanelState(
        players=players,  # type: ignore[arg-type]
        turn=m.to_act,
        standing_bid=None if auction is None else auction.bid,
        bidder=None if auction is None else auction.bidder,
        phase=PANEL_PHASES[m.phase],
    )


class Guarded(Protocol):
    """What decides whether a press is taken beyond the match (the controller)."""

    @property
    def session(self) -> GameSession | None: ...
    @property
    def routes(self) -> Mapping[type[do.Intent], object]: ...
    def button_intent(self, player: int | None, button: Button) -> do.Intent: ...
    def refusal(self, intent: do.Intent, button: bool = False) -> str | None: ...


def takes(c: Guarded, player: int | None, button: Button) -> bool:
    """Whether a press of ``button`` by ``player`` now would be taken: no guard refuses its intent, and
    the match (if the intent is the match's) would accept it."""
    intent = c.button_intent(player, button)
    if type(intent) not in c.routes or c.refusal(intent, button=True) is not None:
        return False
    return c.session is None or type(intent) not in MATCH or accepts(c.session, intent)


def panel_of(c: Guarded, now_ns: int) -> PanelState:
    """What the LEDs and the serial panel show (at home: no match, only lit buttons): each player's game
    buttons lit exactly when their press would be taken (``takes``)."""
    active = tuple(frozenset(b for b in GAME_BUTTONS if takes(c, p, b)) for p in (0, 1))
    if c.session is None:
        return PanelState(players=(PlayerPanel(active=active[0]), PlayerPanel(active=active[1])))
    return panel_state(c.session, now_ns, (active[0], active[1]))
