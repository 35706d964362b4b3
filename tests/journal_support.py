"""Helpers for the journal tests: random matches played through a GameSession into a journal."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import NS_PER_S, Resign
from kiosk.config import MatchSettings
from kiosk.store.journal import Journal
from kiosk.store.recorder import MatchRecorder, new_recorded_match
from kiosk.table.session import GameSession, match_config

S = NS_PER_S
WALL = 1_700_000_000.0


@dataclass
class Table:
    """A session playing into the journal, with a fake monotonic time."""

    session: GameSession
    recorder: MatchRecorder
    now: int
    rng: random.Random

    @property
    def match(self):
        return self.session.match

    def step(self, gap_ns: int | None = None) -> bool:
        """One random legal command (or a tick that flags); True while the match goes on."""
        self.now += self.rng.randrange(0, 5 * S) if gap_ns is None else gap_ns
        self.session.tick(self.now)
        if not self.match.is_over:
            action = Resign(self.rng.randrange(2)) if self.rng.random() < 0.003 else self.rng.choice(
                self.match.legal_actions())
            assert self.session.command(action, self.now)
        self.recorder.sync(self.match, self.now)
        return not self.match.is_over


def new_table(journal: Journal | None, seed: int = 1, *, players: tuple[int | None, int | None] = (None, None),
              boot: str = "boot-a", now: int = 1000 * S, handover: bool = False, bank_s: float = 20,
              delay_s: float = 3, balances: int = 40) -> Table:
    """A new recorded match on a fresh session."""
    rng = random.Random(seed)
    settings = MatchSettings(handover=handover, bank_seconds=bank_s, delay_seconds=delay_s, balances=balances)
    session = GameSession(settings, rng, boot_id=boot)
    match, recorder = new_recorded_match(journal, match_config(settings), players, boot, wall_clock=lambda: WALL)
    session.match = match
    return Table(session, recorder, now, rng)


def play_until(table: Table, predicate, limit: int = 2000) -> None:
    """Random commands until ``predicate(match)`` holds (or the match ends)."""
    for _ in range(limit):
        if predicate(table.match) or not table.step():
            return
    raise AssertionError("the predicate never held")
