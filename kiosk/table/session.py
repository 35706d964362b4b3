"""One match at the table: commands from touch and buttons applied to the engine, with messages.

No pygame here. The session turns inputs (with their arrival times) into engine actions, applies
the meaning of the physical buttons, makes required passes automatically, and keeps the short
messages the screen shows (refusals with their reason, scores, passes).

It also keeps what the table shows after a move (``kiosk.table.recap``): the last tile placed
(``last_placement``) and, for the hand-over card, what the opponent did since a player last had the
board (``recap``). A forced pass (nothing fits, the boneyard is empty) is made by the kiosk: on a
shared screen without asking for a reveal, and the player who just played goes on without one
(the device never changed hands); each step is an engine action at the same arrival, journalled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import (
    NS_PER_S,
    Accept,
    Action,
    Bid,
    Decline,
    Draw,
    EndReason,
    EngineError,
    Event,
    IllegalAction,
    Match,
    MatchConfig,
    MatchEnded,
    Pass,
    Phase,
    Play,
    Point,
    Resign,
    Reveal,
    RoundEnded,
    Start,
    Tile,
    Transfer,
    TransferReason,
    shuffle_deal,
)
from engine.auction import max_affordable_bid
from kiosk.config import MatchSettings
from kiosk.i18n import N_, TN, T, Text
from kiosk.i18n.messages import as_text
from kiosk.table.recap import LastPlacement, Recap, scored
from kiosk.table.state import Screen

MESSAGE_NS = 4 * NS_PER_S
"""How long a message stays on screen."""


@dataclass(frozen=True, slots=True)
class Message:
    """A short text for one player (None: both) shown until ``until_ns``."""

    text: str
    """English; a ``kiosk.i18n.Text``, which the screen shows in the reader's language."""
    player: int | None
    kind: str  # "info", "refused", "score", "hint" (a practice hint: gone once a move is made)
    until_ns: int


def match_config(settings: MatchSettings) -> MatchConfig:
    """The engine configuration for the kiosk's match settings."""
    return MatchConfig(
        balances=(settings.balances, settings.balances),
        bank_ns=(int(settings.bank_seconds * NS_PER_S),) * 2,
        delay_ns=int(settings.delay_seconds * NS_PER_S),
        handover=settings.handover,
    )


def guest_name(seat: int) -> Text:
    """A seat without a name: "Player 2"."""
    return T("Player {number}", number=seat + 1)


class GameSession:
    """A match, its messages and the tile the acting player has picked up."""

    def __init__(self, settings: MatchSettings, rng: random.Random, *, boot_id: str = "") -> None:
        self.settings = settings
        self.rng = rng
        self.match = Match(match_config(settings), boot_id=boot_id)
        self.messages: list[Message] = []
        self.selected: Tile | None = None
        self.bid_draft: int = 0
        self.all_in: int | None = None
        """A bid that would take the whole balance of the player to act, waiting for their Yes or No."""
        self.events: list[Event] = []
        """Everything the engine reported, in order (the screen animates from it)."""
        self.last_placement: LastPlacement | None = None
        """The newest tile placed this round, with its score, until the next placement (None: none
        yet this round). For the board renderer's "last placement" outline."""
        self.recap = Recap()
        """What each player has not seen the opponent do yet (the hand-over card's summary line)."""
        self._delay_told = False
        self.namer: Callable[[int], str] = guest_name
        """Who sits in a seat, for the messages: a name, or "Player 2" (the controller gives the seats' names)."""
        self.abort_reason: Text | None = None
        """Why the kiosk aborted this match (its parameters still texts: "2,5 s" in Ukrainian), or None."""

    # -- what the screen shows -----------------------------------------------------

    @property
    def screen(self) -> Screen:
        """The table's scene for the match's state: ready, settlement, auction, play, handover, match_over."""
        phase = self.match.phase
        if phase is Phase.READY:
            return Screen.READY if self.match.round == 0 else Screen.SETTLEMENT
        return Screen(phase.value)

    def shown(self) -> tuple[object, ...]:
        """What the table shows of the session, but the clocks and the messages' ends (the frame loop
        redraws when it differs): the match and its moves, the tile picked up, the bid being set,
        the newest message."""
        m = self.match
        last = self.messages[-1] if self.messages else None
        return (id(m), m.phase, m.to_act, m.round, m.last_command_ns, len(m.layout), m.balances, m.is_over,
                len(self.events), self.selected, self.bid_draft, self.all_in, id(last))

    def live_messages(self, now_ns: int) -> list[Message]:
        """Messages still on screen at ``now_ns``."""
        return [m for m in self.messages if m.until_ns > now_ns]

    def say(self, text: str, now_ns: int, player: int | None = None, kind: str = "info") -> None:
        """Show ``text`` to ``player`` (None: both)."""
        self.messages = [m for m in self.messages if m.until_ns > now_ns][-5:]
        self.messages.append(Message(text, player, kind, now_ns + MESSAGE_NS))

    def adopt(self, match: Match) -> None:
        """Play on with ``match`` instead (a resumed or journalled copy of the match on screen)."""
        self.match = match

    def abort(self, reason: Text, now_ns: int) -> None:
        """Abort the match without a result (the stall watch) and say why (the match keeps the message
        id and its parameters, so the match-over screen and the journal can say it in any language)."""
        self.match.abort(now_ns, reason.msgid, **{name: str(value) for name, value in reason.params.items()})
        self.abort_reason = reason
        self.say(T("Match aborted: {reason}", reason=reason), now_ns)

    # -- commands ------------------------------------------------------------------

    def command(self, action: Action, arrival_ns: int) -> bool:
        """Apply ``action`` that arrived at ``arrival_ns``; a refusal becomes a message. True if applied."""
        if isinstance(action, Start) and action.deal is None:
            action = Start(action.player, shuffle_deal(self.rng))
        try:
            events = self.match.apply(action, arrival_ns)
        except IllegalAction as refusal:
            who = getattr(action, "player", None)
            self.say(refusal_text(refusal), arrival_ns, who, "refused")
            return False
        self.selected = None
        self.all_in = None
        self.messages = [m for m in self.messages if m.kind != "hint"]  # it was for the decision just made
        self._noted(action, events)
        self._record(events, arrival_ns)
        self._pass_if_required(arrival_ns)
        self._tell_delay(arrival_ns)
        self._reset_bid_draft()
        return True

    def tick(self, now_ns: int) -> bool:
        """Let time pass: a player whose deadline has come loses on time; True if anything happened."""
        events = self.match.advance(now_ns)
        if events:
            self._record(events, now_ns)
        last = self.match.last_command_ns
        if self.forced_pass_due() and (last is None or now_ns >= last):  # e.g. a resumed match
            self._pass_if_required(now_ns)
            return True
        return bool(events)

    def start(self, player: int | None, arrival_ns: int) -> bool:
        """Start (round 1) or Continue (between rounds)."""
        return self.command(Start(player), arrival_ns)

    def reveal(self, player: int, arrival_ns: int) -> bool:
        """The hand-over's Reveal my tiles."""
        return self.command(Reveal(player), arrival_ns)

    def accept(self, player: int, arrival_ns: int) -> bool:
        """``player`` accepts the standing bid (with none yet, the player to act is told what to do)."""
        m = self.match
        auction = m.auction()
        if self._asking(player, arrival_ns):
            return False
        if auction is not None and auction.bid is None and player == m.to_act:
            self.say(T("No bid to accept yet: RAISE bids 15, DECLINE lets the jockey open."), arrival_ns, player,
                     "refused")
            return False
        return self.command(Accept(player), arrival_ns)

    def decline(self, player: int, arrival_ns: int) -> bool:
        """``player`` declines to bid."""
        return not self._asking(player, arrival_ns) and self.command(Decline(player), arrival_ns)

    def place_bid(self, player: int, arrival_ns: int) -> bool:
        """``player`` bids the amount the screen shows (by anyone else: refused, and told why)."""
        m = self.match
        auction = m.auction()
        if auction is not None and player != m.to_act:
            return self.command(Bid(player, auction.min_bid), arrival_ns)
        return not self._asking(player, arrival_ns) and self.submit_bid(arrival_ns)

    def unused_button(self, player: int, arrival_ns: int) -> None:
        """A button of ``player`` that means nothing now: say where to act instead."""
        m = self.match
        if m.phase is Phase.PLAY:
            self.say(T("Tiles are played on the screen."), arrival_ns, player)
        elif m.phase is Phase.MATCH_OVER:
            self.say(T("The match is over."), arrival_ns, player)
        elif m.phase is Phase.HANDOVER:
            self.say(T("Waiting for {player} to reveal.", player=self.namer(m.to_act) if m.to_act is not None else "?"),
                     arrival_ns, player)

    def _asking(self, player: int, arrival_ns: int) -> bool:
        """Whether the screen asks ``player`` about a bid that takes their whole balance (then only
        its Yes or No answers, and they are told so)."""
        if self.all_in is None or player != self.match.to_act or self.match.phase is not Phase.AUCTION:
            return False
        self.say(T("Tap Yes or No on the screen."), arrival_ns, player, "refused")
        return True

    def select(self, tile: Tile, arrival_ns: int) -> bool:
        """The acting player tapped a tile in hand: pick it up, or place it when it has one point."""
        m = self.match
        player = m.to_act
        if m.phase is not Phase.PLAY or player is None:
            return False
        plays = [a for a in m.legal_actions() if isinstance(a, Play) and a.tile == tile]
        if not plays:
            if m.drawn_tile is not None:
                self.say(T("You drew [{tile}], which fits: play that tile.", tile=m.drawn_tile), arrival_ns, player,
                         "refused")
            elif m.opening_tile is not None:
                self.say(T("This round opens by rank: play [{tile}].", tile=m.opening_tile), arrival_ns, player,
                         "refused")
            else:
                self.say(T("[{tile}] does not fit anywhere.", tile=tile), arrival_ns, player, "refused")
            self.selected = None
            return False
        if len(plays) == 1 and (self.selected == tile or plays[0].at is None):
            return self.command(plays[0], arrival_ns)
        if len(plays) == 1 and self.selected != tile:
            self.selected = tile
            return False
        self.selected = None if self.selected == tile else tile
        return False

    def place_at(self, point: Point, arrival_ns: int) -> bool:
        """The acting player tapped a highlighted point: place the picked-up tile there."""
        player = self.match.to_act
        if self.selected is None or player is None:
            return False
        return self.command(Play(player, self.selected, point), arrival_ns)

    def targets(self) -> list[Point]:
        """The points where the picked-up tile may go."""
        if self.selected is None or self.match.phase is not Phase.PLAY:
            return []
        return [a.at for a in self.match.legal_actions() if isinstance(a, Play) and a.tile == self.selected and a.at]

    def playable_tiles(self) -> set[Tile]:
        """Tiles of the acting player that can be played now."""
        return {a.tile for a in self.match.legal_actions() if isinstance(a, Play)}

    def only_draw(self) -> bool:
        """In play: whether drawing is the only move of the player to act (nothing in hand fits)."""
        legal = self.match.legal_actions() if self.match.phase is Phase.PLAY else []
        return any(isinstance(a, Draw) for a in legal) and not any(isinstance(a, Play) for a in legal)

    def draw(self, arrival_ns: int) -> bool:
        """The acting player tapped the boneyard."""
        player = self.match.to_act
        if player is None:
            return False
        return self.command(Draw(player), arrival_ns)

    def resign(self, player: int, arrival_ns: int) -> bool:
        """``player`` resigns (after the screen's confirmation)."""
        return self.command(Resign(player), arrival_ns)

    def shown_bid(self) -> int:
        """The bid the screen shows for the player to act (the Bid button's; RAISE bids it too): the
        stepper's amount, or the minimum bid while the stepper holds none allowed now."""
        auction = self.match.auction()
        player = self.match.to_act
        if auction is None or player is None:
            return self.bid_draft
        top = max(auction.max_bid[player], auction.min_bid)
        return self.bid_draft if auction.min_bid <= self.bid_draft <= top else auction.min_bid

    def safe_top(self) -> int | None:
        """The largest bid the player to act can pay and stay in the match if it is accepted (None:
        every bid they can afford would take their whole balance)."""
        auction = self.match.auction()
        player = self.match.to_act
        if auction is None or player is None:
            return None
        top = max_affordable_bid(self.match.balances[player] - 1, player, auction.jockey)
        return top if top >= auction.min_bid else None

    def step_bid(self, steps: int) -> None:
        """Move the on-screen bid stepper by ``steps`` multiples of 5 within what is allowed."""
        auction = self.match.auction()
        player = self.match.to_act
        if auction is None or player is None:
            return
        top = max(auction.max_bid[player], auction.min_bid)
        self.bid_draft = min(max(self.shown_bid() + 5 * steps, auction.min_bid), top)
        self.all_in = None

    def bid_most(self) -> None:
        """Set the stepper to the largest bid the player to act can pay and stay in the match ("All I
        can afford"; a bid that takes the whole balance, legal and lost at once by RULES.md §6, is
        reached with +5 and asks for its own confirmation)."""
        top = self.safe_top()
        if top is None:
            return
        self.bid_draft, self.all_in = top, None

    def submit_bid(self, arrival_ns: int) -> bool:
        """Bid the amount the screen shows for the player to act; a bid that would take their whole
        balance if accepted is not placed but asked about first (``all_in``)."""
        m = self.match
        auction = m.auction()
        player = m.to_act
        if player is None:
            return False
        amount = self.shown_bid()
        if auction is not None and auction.min_bid <= amount <= auction.max_bid[player] \
                and auction.cost(player, amount) >= m.balances[player]:
            self.all_in = amount
            return False
        return self.command(Bid(player, amount), arrival_ns)

    def confirm_all_in(self, arrival_ns: int) -> bool:
        """Yes: place the bid that takes the whole balance if accepted."""
        player, amount = self.match.to_act, self.all_in
        if player is None or amount is None:
            return False
        self.all_in = None
        return self.command(Bid(player, amount), arrival_ns)

    def cancel_all_in(self) -> None:
        """No: back to the auction card, the stepper one step below the all-in."""
        if self.all_in is not None:
            self.bid_draft, self.all_in = self.safe_top() or self.bid_draft, None

    # -- internals -----------------------------------------------------------------------

    def _record(self, events: list[Event], now_ns: int) -> None:
        for event in events:
            self.events.append(event)
            if isinstance(event, Transfer):
                if event.reason is TransferReason.SCORE:
                    self.say(TN("{player} scores {n}", "{player} scores {n}", event.points,
                                player=self.namer(event.payee)), now_ns, None, "score")
                elif event.reason is TransferReason.AUCTION:
                    self.say(TN("{player} pays {n} for the opening", "{player} pays {n} for the opening",
                                event.points, player=self.namer(event.payer)), now_ns, None, "score")
            elif isinstance(event, RoundEnded) and event.blocked:
                self.say(T("Blocked: both players passed"), now_ns)
            elif isinstance(event, RoundEnded):
                self.say(T("Domino! {player} played the last tile", player=self.namer(event.dominoer or 0)), now_ns)
            elif isinstance(event, MatchEnded) and event.outcome.reason is EndReason.TIME:
                self.say(T("Time is up"), now_ns)

    def forced_pass_due(self) -> bool:
        """In a hand-over before a turn of play: whether the player to act can only pass (no tile in
        hand fits and the boneyard is empty), so that the kiosk passes for them without a reveal."""
        return self.match.phase is Phase.HANDOVER and self.match.must_pass()

    def _pass_if_required(self, now_ns: int) -> None:
        """Pass for each player who can only pass (RULES.md §5), announced to both players; on a shared
        screen without a reveal, and the player who played before goes on without one either."""
        m = self.match
        passed: int | None = None
        while not m.is_over and m.to_act is not None:
            player = m.to_act
            if self.forced_pass_due():
                self._auto(Reveal(player), now_ns, saw=False)
            elif m.phase is Phase.HANDOVER and passed is not None and player != passed:
                self._auto(Reveal(player), now_ns, saw=True)  # the device never changed hands
            elif m.phase is Phase.PLAY and m.must_pass():
                self._auto(Pass(player), now_ns, saw=False)
                self.say(T("{player} cannot play and passes", player=self.namer(player)), now_ns)
                passed = player
            else:
                return

    def _auto(self, action: Action, now_ns: int, *, saw: bool) -> None:
        """Apply ``action`` made by the kiosk (``saw``: its player has the board in front of them)."""
        events = self.match.apply(action, now_ns)
        self.recap.acted(action, events, by_hand=saw)
        self._record(events, now_ns)

    def _noted(self, action: Action, events: list[Event]) -> None:
        """Keep the last placement and the players' recaps after ``action`` (applied by a player)."""
        m = self.match
        if isinstance(action, Start):
            self.recap.clear()
            self.last_placement = None
        elif isinstance(action, Reveal):
            self.recap.saw(action.player)
        elif isinstance(action, Play):
            placed = len(m.layout.placements) - 1
            self.last_placement = LastPlacement(action.player, action.tile, action.at, placed,
                                                scored(events, action.player), m.round)
        if not isinstance(action, (Start, Reveal)):
            self.recap.acted(action, events)

    def _tell_delay(self, now_ns: int) -> None:
        """The first time a clock runs in this match, say what the "+10s" beside it means."""
        m = self.match
        if self._delay_told or m.clock_running is None or self.settings.delay_seconds <= 0:
            return
        self._delay_told = True
        seconds = format(self.settings.delay_seconds, "g")
        self.say(T("+{seconds}s beside a running clock: free seconds before the bank is used", seconds=seconds), now_ns)

    def _reset_bid_draft(self) -> None:
        auction = self.match.auction()
        if auction is not None:
            self.bid_draft = auction.min_bid


PHASES = {"ready": N_("ready"), "auction": N_("auction"), "play": N_("play"), "handover": N_("hand-over"),
          "match_over": N_("match over")}
"""The engine's phase values as a refusal names them ("... the match is in its {phase} phase.")."""
END_REASONS = {"balance": N_("points ran out"), "time": N_("time ran out"), "resign": N_("resigned"),
               "aborted": N_("aborted")}
"""The engine's end reasons as a refusal names them ("The match is over ({reason}).")."""
POINT_NAMES = {"low": N_("the low end of [{tile}]"), "high": N_("the high end of [{tile}]"),
               "lineA": N_("a line end of [{tile}]"), "lineB": N_("a line end of [{tile}]"),
               "branchA": N_("a side of the spinner [{tile}]"), "branchB": N_("a side of the spinner [{tile}]")}
"""The engine's connection points (a tile and a slot, ``3|4 low``) as a refusal names them, in the help's
words ("[2|5] does not match the 4 at the high end of [3|4]."). Used only as that ``{point}``: a
translation may carry the case and preposition its refusal needs (docs/i18n.md)."""


def refusal_text(refusal: EngineError) -> Text:
    """The engine's refusal as a ``Text`` every kiosk language can show: its template (a message id
    of the catalogs) and parameters, with phase and end-reason values and connection points as
    translated words."""
    found = as_text(refusal)
    params = dict(found.params)
    for key, names in (("phase", PHASES), ("reason", END_REASONS)):
        value = getattr(params.get(key), "value", params.get(key))
        if isinstance(value, str) and value in names:
            params[key] = Text(names[value])
    for key, value in params.items():
        if isinstance(value, Point):
            params[key] = Text(POINT_NAMES[value.slot.value], {"tile": value.tile})
    return Text(found.msgid, params, found.plural, found.n)
