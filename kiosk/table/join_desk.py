"""Joining a club event at the table (issue 25; no pygame): the home screen's "Join <event>", the player
picker it opens, and the join handed to the club's worker.

The events come from the hub's assignment answer through the ``JoinBox`` the worker fills
(``kiosk.club.table_pairing``); nothing here waits for the network or the journal's writer. "Join
Friday Swiss" on a half opens the named-player picker (the ready screen's, turned to that half's
player) for that event; a name picked there is a ``Join`` (the event as the picker showed it, the
player's UUID in this journal, a fresh idempotency key) put in the box, which the worker keeps in the
journal first and then sends. What the worker keeps of each join (sent or not, the hub's answer) is
shown on the half it was pressed on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from kiosk.club.joins import Join, JoinableEvent, new_join
from kiosk.club.table_pairing import PairingBox
from kiosk.store.errors import KioskStoreError
from kiosk.store.keeper import JournalKeeper
from kiosk.store.players import Player
from kiosk.table import intents as do
from kiosk.table.players import PlayerDesk
from kiosk.table.session import GameSession
from kiosk.table.state import UiState


class Table(Protocol):
    """What the join desk uses of the controller."""

    session: GameSession | None
    desk: PlayerDesk
    ui: UiState
    keeper: JournalKeeper | None


class JoinDesk:
    """The events a player can join at the home screen, the picker's join, and what became of each join."""

    def __init__(self, table: Table, box_of: Callable[[], PairingBox | None],
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.box_of = box_of
        """The box the club's worker fills, as it is now (None: no club, no event ever)."""
        self.wall_clock = wall_clock
        self._joining: tuple[int, JoinableEvent] | None = None

    @property
    def box(self) -> PairingBox | None:
        return self.box_of()

    def offered(self) -> JoinableEvent | None:
        """The event the home screen offers to join (the first the hub listed; None: none, or no journal to name players in)."""
        if self.box is None or self.table.session is not None or not self.table.ui.records.available:
            return None
        events = self.box.joins.events()
        return events[0] if events else None

    @property
    def joining(self) -> tuple[int, JoinableEvent] | None:
        """The seat and the event of the picker open for a join (None: none; the picker closed, or a match began)."""
        if self._joining is not None and (self.table.ui.records.picker is None or self.table.session is not None):
            self._joining = None
        return self._joining

    def meaning(self) -> tuple[object, ...]:
        """What a press at the home screen means of joining: the event offered, the event being joined."""
        offered, joining = self.offered(), self.joining
        return (None if offered is None else offered.uuid, None if joining is None else joining[1].uuid)

    def notice(self, seat: int) -> tuple[Join, bool] | None:
        """The newest join pressed on ``seat``'s half that is still shown, and whether the hub answers now."""
        if self.box is None:
            return None
        mine = [j for j in self.box.joins.shown() if j.seat == seat]
        return (mine[-1], self.box.joins.reachable()) if mine else None

    # -- what the intents do -----------------------------------------------------------------

    def open(self, intent: do.JoinEvent, now: int) -> None:
        """"Join <event>": the picker on that half, for the event (nothing if it is no longer offered)."""
        offered = self.offered()
        if offered is None or offered.uuid != intent.event or intent.seat not in (0, 1):
            return
        self.table.desk.open_picker(intent.seat)
        if self.table.ui.records.picker == intent.seat:
            self._joining = (intent.seat, offered)

    def join_as(self, intent: do.JoinAs, now: int) -> None:
        """A name picked: that player's join for the picker's event, handed to the worker; the picker closes."""
        players = self.table.desk.players
        if self.joining is None or players is None:
            return
        self._guarded(lambda: self._queue(players.get(intent.player_id)))

    def join_named(self, intent: do.JoinNamed, now: int) -> None:
        """The keyboard's OK: the new player made as typed (or the keyboard says why not), then joined as a
        picked name is."""
        if self.joining is None or self.box is None or self.table.ui.records.typing is None:
            return

        def make_and_queue() -> None:
            player = self.table.desk.typed_player()
            if player is not None:
                self._queue(player)
        self._guarded(make_and_queue)

    def _queue(self, player: Player) -> None:
        joining, journal = self.joining, self.table.desk.journal
        if joining is None or journal is None or self.box is None:
            return
        seat, event = joining
        with journal.database.read() as conn:
            row = conn.execute("SELECT uuid FROM players WHERE id = ?", (player.id,)).fetchone()
        if row is None or not row[0]:
            return
        self.box.joins.queue(new_join(event, player.id, str(row[0]), player.name, seat, float(self.wall_clock())))
        self.table.desk.close_picker()
        self._joining = None

    def _guarded(self, work: Callable[[], None]) -> None:
        """``work`` on the journal; a journal that fails under it is a warning and the picker closes (the
        keeper repairs it at the next frame), as for the named players' screens."""
        try:
            work()
        except KioskStoreError as exc:
            self.table.ui.warnings = (*self.table.ui.warnings, exc.text)
            self.table.ui.records.picker, self.table.ui.records.typing = None, None
            self._joining = None
