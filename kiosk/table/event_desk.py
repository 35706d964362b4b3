"""A club event's pairing at the table (issue 25; no pygame): the home screen's Start, the ready screen's
seats, settings and berserk, and the match's link to its pairing.

The hub's pairing reaches the table through a ``PairingBox`` that the club's assignment worker fills
(``kiosk.club.assignment``); nothing here waits for the network. Start on the home screen claims the
pairing shown and opens the ready screen with its players in their seats (the pickers closed to
them) and the event's settings instead of the owner's. In an arena with berserk each player may halve
their own bank before the first Start; the match is then entered in the journal with its pairing and
berserk seats (``EventLink``), and from then on played to the end whatever the hub says. Leaving the
ready screen before the first Start gives the pairing back to the home screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Match, Phase
from kiosk.club.pairing import Pairing, match_config
from kiosk.club.table_pairing import PairingBox
from kiosk.config import MatchSettings
from kiosk.store.errors import KioskStoreError
from kiosk.store.event_schema import EventLink
from kiosk.store.keeper import JournalKeeper
from kiosk.table import intents as do
from kiosk.table.join_desk import JoinDesk
from kiosk.table.players import PlayerDesk
from kiosk.table.session import GameSession
from kiosk.table.state import UiState


class Table(Protocol):
    """What the event desk uses of the controller."""

    session: GameSession | None
    desk: PlayerDesk
    ui: UiState
    boot_id: str
    keeper: JournalKeeper | None

    def new_match(self, computer_level: int | None = None) -> None: ...


@dataclass
class EventMatch:
    """The pairing of the match at the table, and the seats that chose berserk so far."""

    pairing: Pairing
    session: GameSession
    """The match at the table that plays it (another session at the table: the event match was left)."""
    berserk: set[int] = field(default_factory=set)
    link: EventLink | None = None
    """What the journal's match row keeps, once asked for (``EventDesk.link``)."""
    entered: bool = False


class EventDesk:
    """The table's side of a club event: what the home screen offers, the ready screen's choices.

    It follows the controller (``table``) rather than being told: whenever it is asked, it first notes
    whether the event match was left (another session, or none: an unstarted pairing is offered again)
    or entered in the journal (the keeper's newest match carries its link: the pairing is played).
    """

    def __init__(self, table: Table, box: PairingBox | None = None) -> None:
        self.table = table
        self.box = box
        """Filled by the club's assignment worker (None: no club, no event ever)."""
        self._match: EventMatch | None = None
        self.joins = JoinDesk(table, lambda: self.box)
        """The other way into an event: a player joins at the home screen (``kiosk.table.join_desk``)."""

    @property
    def match(self) -> EventMatch | None:
        """The event match at the table (None: none, or an ordinary match)."""
        self._settle()
        return self._match

    def _settle(self) -> None:
        e = self._match
        if e is None:
            return
        if self.table.session is not e.session:
            self._match = None
            if not e.entered and self.box is not None:
                self.box.release(e.pairing.uuid)
            return
        keeper = self.table.keeper
        recorder = keeper.current if keeper is not None else None
        if not e.entered and e.link is not None and recorder is not None and recorder.event is e.link:
            e.entered = True
            if self.box is not None and recorder.uuid is not None:
                self.box.started(e.pairing.uuid, recorder.uuid, e.link.berserk)

    def offered(self) -> Pairing | None:
        """The pairing the home screen shows (None: none)."""
        self._settle()
        return self.box.pending() if self.box is not None else None

    def version(self) -> int:
        """Moves when what the home screen shows of the event changes."""
        self._settle()
        return self.box.version if self.box is not None else 0

    def home_intent(self) -> do.Intent | None:
        """The home screen's Start for the pairing shown (None: no pairing shown, or not at home)."""
        p = self.offered() if self.table.session is None else None
        return None if p is None else do.StartPairing(p.uuid)

    def meaning(self) -> tuple[object, ...]:
        """What a press at the home screen means of club events: the pairing's Start, the event to join."""
        return (self.home_intent(), *self.joins.meaning())

    def refusal(self, intent: do.Intent) -> str | None:
        """Why ``intent`` is not taken at the table's club screens (None: it is): a name picked or a keyboard's
        OK that seats, while the picker is a join's (it shows Join for each name, and OK joins)."""
        if isinstance(intent, do.ConfirmName | do.PickPlayer) and self.joins.joining is not None:
            return "a join's picker"
        return None

    def routes(self) -> dict[type[do.Intent], Callable[[Any, int], object]]:
        """The events' intents and what they do (a part of the controller's one dispatch table)."""
        return {do.StartPairing: self.start, do.Berserk: self.toggle_berserk, do.JoinEvent: self.joins.open,
                do.JoinAs: self.joins.join_as, do.JoinNamed: self.joins.join_named}

    def home_press(self, start: bool) -> do.Intent:
        """What a press at the home screen asks for: ``start`` (ACCEPT or START) is the pairing's Start when
        one is shown, else a new match; any other press (or any while a name is picked to join) nothing."""
        if self.joins.joining is not None:
            return do.Noop()
        return (self.home_intent() or do.NewMatch()) if start else do.Noop()

    def seats_fixed(self) -> bool:
        """Whether the seats are the event's (the ready screen opens no picker)."""
        return self.match is not None

    def berserk_offered(self) -> bool:
        """Whether the ready screen offers berserk now (an arena that allows it, before the first Start)."""
        e, session = self.match, self.table.session
        return (e is not None and e.pairing.berserk and not e.entered and session is not None
                and session.match.phase is Phase.READY and session.match.round == 0)

    def berserk(self, seat: int) -> bool:
        """Whether ``seat`` chose berserk for the match at the table."""
        e = self.match
        return e is not None and seat in e.berserk

    # -- what the intents do -----------------------------------------------------------------

    def start(self, intent: do.StartPairing, now: int) -> None:
        """Start on the home screen: the ready screen with the pairing's players and the event's settings
        (nothing if the pairing shown changed meanwhile)."""
        table = self.table
        if self.box is None or table.session is not None or self.match is not None:
            return
        pairing = self.box.claim(intent.pairing)
        if pairing is None:
            return
        table.new_match()
        session = table.session
        assert session is not None
        session.settings = MatchSettings(handover=session.settings.handover, bank_seconds=pairing.bank_seconds,
                                         delay_seconds=pairing.delay_seconds, balances=pairing.balances)
        self._match = EventMatch(pairing, session)
        self._adopt(session)
        try:
            table.desk.seat_names_from(pairing.local_ids)
        except KioskStoreError as exc:  # the journal failed under it: the seats stay guests, the banner says why
            table.ui.warnings = (*table.ui.warnings, exc.text)

    def toggle_berserk(self, intent: do.Berserk, now: int) -> None:
        """A player's berserk at the ready screen: their own bank halved (or whole again)."""
        e, session = self.match, self.table.session
        if e is None or session is None or not self.berserk_offered() or intent.player not in (0, 1):
            return
        e.berserk ^= {intent.player}
        self._adopt(session)

    def _adopt(self, session: GameSession) -> None:
        e = self._match
        assert e is not None
        config = match_config(e.pairing, tuple(sorted(e.berserk)), handover=session.settings.handover)
        session.adopt(Match(config, boot_id=self.table.boot_id))

    def link(self) -> EventLink | None:
        """What the match entered now keeps of its pairing (None: an ordinary match)."""
        e = self.match
        if e is None or e.entered:
            return None
        e.link = EventLink(e.pairing.uuid, tuple(sorted(e.berserk)))
        return e.link
