"""Random legal and illegal commands at random times keep every invariant of the match (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine import (
    ALL_TILES,
    NS_PER_MS,
    Accept,
    Bid,
    Decline,
    Draw,
    IllegalAction,
    Match,
    MatchConfig,
    Pass,
    Play,
    Point,
    Resign,
    Reveal,
    Slot,
    Start,
    shuffle_deal,
)
from engine.snapshot import restore_text, save_text

players = st.integers(0, 1)
delays_ms = st.integers(0, 25_000)


class MatchMachine(RuleBasedStateMachine):
    """One match driven by hypothesis; invariants are checked after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.match = Match()
        self.now = 0
        self.boot = 0
        self.total = 300
        self.banks = [0, 0]
        self.stopped_banks = [0, 0]
        self.rng = random.Random(0)

    @initialize(
        handover=st.booleans(),
        jockey=st.sampled_from([None, 0, 1]),
        balance0=st.integers(1, 60).map(lambda n: n * 5),
        bank_s=st.integers(1, 60),
        seed=st.integers(0, 2**32),
    )
    def new_match(self, handover: bool, jockey: int | None, balance0: int, bank_s: int, seed: int) -> None:
        config = MatchConfig(
            balances=(balance0, 300 - balance0) if balance0 < 300 else (150, 150),
            bank_ns=(bank_s * 1_000_000_000, bank_s * 1_000_000_000),
            handover=handover,
            jockey=jockey,
        )
        self.match = Match(config, boot_id="boot-0")
        self.total = sum(config.balances)
        self.banks = list(config.bank_ns)
        self.stopped_banks = list(config.bank_ns)
        self.rng = random.Random(seed)

    def _apply(self, action: object, dt_ms: int) -> None:
        """Apply at now + dt; a refusal must leave the state exactly as it was."""
        self.now += dt_ms * NS_PER_MS
        self.match.advance(self.now)
        before = self.match.to_dict()
        try:
            self.match.apply(action, self.now)  # type: ignore[arg-type]
        except IllegalAction as refusal:
            assert refusal.code and refusal.message
            assert self.match.to_dict() == before, f"refused {action!r} changed the state"

    @rule(choice=st.integers(0, 10_000), dt=delays_ms)
    def legal_action(self, choice: int, dt: int) -> None:
        legal = self.match.legal_actions()
        if not legal:
            return
        action = legal[choice % len(legal)]
        if isinstance(action, Start):
            action = Start(choice % 2, shuffle_deal(self.rng))
        assert self.match.is_legal(action)
        self.now += dt * NS_PER_MS
        over_before = self.match.is_over
        events = self.match.advance(self.now)
        if self.match.is_over and not over_before:
            assert events, "a loss on time is reported"
            return
        self.match.apply(action, self.now)

    @rule(
        kind=st.sampled_from(["play", "draw", "pass", "decline", "bid", "accept", "reveal", "start"]),
        player=players,
        tile=st.sampled_from(ALL_TILES),
        at_tile=st.sampled_from(ALL_TILES),
        slot=st.sampled_from(list(Slot)),
        opening=st.booleans(),
        amount=st.integers(-5, 320),
        dt=delays_ms,
    )
    def any_action(
        self, kind: str, player: int, tile, at_tile, slot: Slot, opening: bool, amount: int, dt: int
    ) -> None:
        at = None if opening else Point(at_tile, slot)
        action = {
            "play": Play(player, tile, at),
            "draw": Draw(player),
            "pass": Pass(player),
            "decline": Decline(player),
            "bid": Bid(player, amount),
            "accept": Accept(player),
            "reveal": Reveal(player),
            "start": Start(player, None),
        }[kind]
        self._apply(action, dt)

    @rule(dt=st.integers(0, 200_000))
    def time_passes(self, dt: int) -> None:
        self.now += dt * NS_PER_MS
        self.match.advance(self.now)

    @rule(same_boot=st.booleans(), dt=st.integers(0, 30_000))
    def restart(self, same_boot: bool, dt: int) -> None:
        self.now += dt * NS_PER_MS
        self.match.advance(self.now)
        was_running = self.match.clock_running is not None and not self.match.is_over
        if not same_boot:
            self.boot += 1
        self.match, _ = restore_text(save_text(self.match), boot_id=f"boot-{self.boot}", now_ns=self.now)
        if was_running and not same_boot:
            assert self.match.outcome is not None and not self.match.outcome.rated

    @rule(player=players, dt=delays_ms, roll=st.integers(0, 19))
    def resign(self, player: int, dt: int, roll: int) -> None:
        if roll == 0:  # rarely, so that most matches run for a while
            self._apply(Resign(player), dt)

    @invariant()
    def balances_add_up(self) -> None:
        balances = self.match.balances
        assert sum(balances) == self.total and min(balances) >= 0
        outcome = self.match.outcome
        if outcome is not None and outcome.reason.value == "balance":
            assert 0 in balances

    @invariant()
    def tiles_are_partitioned(self) -> None:
        m = self.match
        if m.round == 0:
            return
        tiles = [*m.hand(0), *m.hand(1), *m.layout.tiles()]
        assert len(tiles) + m.boneyard_count == 28
        assert len(set(tiles)) == len(tiles)

    @invariant()
    def banks_never_grow(self) -> None:
        """A bank only shrinks; an abort charges nothing for the unproven running decision."""
        m = self.match
        aborted = m.outcome is not None and not m.outcome.rated
        for p in (0, 1):
            bank = m.bank_ns(p, self.now)
            assert 0 <= bank <= (self.stopped_banks[p] if aborted else self.banks[p])
            self.banks[p] = bank
            if m.clock_running != p:
                self.stopped_banks[p] = bank

    @invariant()
    def snapshot_round_trip_is_exact(self) -> None:
        data = self.match.to_dict()
        assert Match.from_dict(data).to_dict() == data

    @invariant()
    def end_count_is_the_sum_of_scoring_ends(self) -> None:
        layout = self.match.layout
        assert layout.end_count == sum(v for _, v in layout.scoring_ends())

    @invariant()
    def open_values_mask_matches_the_open_points(self) -> None:
        layout = self.match.layout
        mask = 0
        for _, value in layout.open_points():
            mask |= 1 << value
        assert layout.open_values_mask == mask
        assert layout.open_indices == sorted(layout.open_indices)
        assert len(layout.open_indices) <= 4 and layout.end_count <= 4 * 12  # the match's score table's bound

    @invariant()
    def only_one_clock_runs(self) -> None:
        m = self.match
        if m.clock_running is not None:
            assert m.clock_running == m.to_act and m.phase.value in ("auction", "play")
        if m.phase.value in ("ready", "handover", "match_over"):
            assert m.clock_running is None


MatchMachine.TestCase.settings = settings(
    max_examples=150, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestMatchMachine = MatchMachine.TestCase
TestMatchMachine.pytestmark = [pytest.mark.slow]  # type: ignore[attr-defined]
