"""The soak as a club-event table (``python -m kiosk.devtools.soak --event-table --hub URL --token-file F``):
the kiosk's own club workers against the hub — the assignment worker asking for a pairing every 5 s,
the sync worker uploading each finished match (every 5 s here, not 30) — and the soak's computer
players pressing what people would: Start on the home screen when a pairing is shown (and nothing
else there: the table waits for the hub), berserk now and then in an arena, Start, the match played
through the app's inputs, Home at its end. So a hub's simulated evening can use soaks as its tables.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine import NS_PER_S, Phase
from kiosk.app import App
from kiosk.club.assignment import AssignmentWorker
from kiosk.club.client import HubClient, hub_url, read_token
from kiosk.club.errors import SyncSetupError
from kiosk.club.table_pairing import PairingBox
from kiosk.club.worker import KeeperAccess, SyncWorker
from kiosk.table import intents as do

BERSERK_CHANCE = 0.3
"""How often a soak player halves their own bank when the arena allows it."""
SYNC_INTERVAL_NS = 5 * NS_PER_S
IDLE_WAIT_S = 0.05
"""How long the soak's player waits at the home screen when no pairing is shown."""


@dataclass
class EventTable:
    """The club workers of a soak acting as an event table."""

    assignment: AssignmentWorker
    sync: SyncWorker
    berserk_asked: set[tuple[str, int]]

    def stop(self) -> None:
        self.assignment.stop()
        self.sync.poke()  # a last upload of what finished
        self.sync.wait_round(self.sync.state.rounds, 30.0)
        self.sync.stop()

    def lines(self, journal_matches: Callable[[], int]) -> list[str]:
        a, s = self.assignment.state, self.sync.state
        return [f"event table: {a.rounds} assignment asks ({a.failures} failing now), {journal_matches()} pairings "
                f"started; sync: {s.rounds} rounds, last: {s.last.line() if s.last else s.error or 'none'}"]


def start_event_table(app: App, url: str, token_file: str | Path, log: Callable[[str], None]) -> EventTable:
    """The app's club workers against ``url`` (SyncSetupError when the URL or the token cannot work)."""
    keeper = app.controller.keeper
    if keeper is None:
        raise SyncSetupError("an event table needs a journal")
    client = HubClient(hub_url(url), read_token(Path(token_file)))
    box = PairingBox()
    app.controller.events.box = box
    assignment = AssignmentWorker(KeeperAccess(keeper), client, box, clock=app.clock.now, log=log).start()
    sync = SyncWorker(keeper, client, clock=app.clock.now, interval_ns=SYNC_INTERVAL_NS, log=log).start()
    return EventTable(assignment, sync, set())


def event_step(app: App, table: EventTable, rng: random.Random, click: Callable[[do.Intent], bool]) -> bool:
    """The event table's part of a soak player's step; True when it did this step's work (else the
    ordinary play goes on: the match's decisions)."""
    session = app.session
    if session is None:
        offered = app.controller.events.offered()
        if offered is not None:
            click(do.StartPairing(offered.uuid))
        else:
            time.sleep(IDLE_WAIT_S)  # at home the table waits for the hub's pairing (not spinning: soaks share cores)
        return True
    events = app.controller.events
    m = session.match
    if m.is_over:
        click(do.GoHome())
        table.sync.poke()
        return True
    if m.phase is Phase.READY and m.round == 0:
        if events.match is None:  # not an event's match (a stray touch's): back home
            click(do.GoHome())
            return True
        if events.berserk_offered():
            for seat in (0, 1):
                key = (events.match.pairing.uuid, seat)
                if key not in table.berserk_asked:
                    table.berserk_asked.add(key)
                    if rng.random() < BERSERK_CHANCE:
                        click(do.Berserk(seat))
                        return True
    return False
