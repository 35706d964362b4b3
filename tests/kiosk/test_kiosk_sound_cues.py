"""The table's cues without pygame: real engine matches, a fake clock; each cue heard once, nothing
replayed after a resume."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from kiosk_support import playing

from engine import NS_PER_S, EndReason, Phase, Play, Reveal, Start, Transfer, TransferReason
from kiosk.config import KioskConfig, MatchSettings
from kiosk.i18n import T
from kiosk.store.journal import Journal
from kiosk.table import intents as do
from kiosk.table.controller import Controller
from kiosk.table.cues import Cue, CueKind, CueWatcher
from kiosk.table.session import GameSession
from kiosk.timesource import FakeClock

S = NS_PER_S
YOUR_TURN, SCORE, LOW_20, LOW_10, FLAG, END = (CueKind.YOUR_TURN, CueKind.SCORE, CueKind.LOW_BANK_20,
                                               CueKind.LOW_BANK_10, CueKind.FLAG, CueKind.MATCH_END)


def test_the_cues_are_pygame_free() -> None:
    code = "import sys\nimport kiosk.table.cues\nassert 'pygame' not in sys.modules\n"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def session(seed: int = 3, **match: object) -> GameSession:
    settings = replace(MatchSettings(handover=False, delay_seconds=0), **match)  # type: ignore[arg-type]
    return GameSession(settings, random.Random(seed))


def kinds(cues: list[Cue]) -> list[CueKind]:
    return [c.kind for c in cues]


def scores_in(events: Sequence[object]) -> list[Cue]:
    return [Cue(SCORE, e.payee) for e in events if isinstance(e, Transfer) and e.reason is TransferReason.SCORE]


def play_one(s: GameSession, rng: random.Random, now: int) -> None:
    """The player to act makes a legal move: a tile when one fits (a random one), else draw."""
    legal = s.match.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    assert s.command(rng.choice(plays) if plays else legal[0], now)


def test_each_turn_and_each_score_of_a_real_match_is_heard_once_in_order() -> None:
    s, clock, rng = session(), FakeClock(), random.Random(5)
    watcher = CueWatcher(s, clock.now())
    assert watcher.observe(s, clock.now()) == []  # the ready screen: nobody's turn
    s.command(Start(0), clock.advance(1))
    assert watcher.observe(s, clock.now()) == [Cue(YOUR_TURN, s.match.to_act)]
    assert watcher.observe(s, clock.advance(1)) == []  # nothing new, nothing heard
    heard_scores = 0
    while s.match.round == 1 and not s.match.is_over:
        before_player, before_tiles, before_events = s.match.to_act, len(s.match.layout), len(s.events)
        play_one(s, rng, clock.advance(1))
        cues = watcher.observe(s, clock.now())
        new_scores = scores_in(s.events[before_events:])
        assert cues[: len(new_scores)] == new_scores  # what the events scored, first
        heard_scores += len(new_scores)
        rest = cues[len(new_scores):]
        m = s.match
        if m.to_act is None:  # the round ended (or the match): no turn to announce
            assert YOUR_TURN not in kinds(rest)
        elif m.to_act != before_player or len(m.layout) != before_tiles:  # the turn passed (or came back)
            assert rest == [Cue(YOUR_TURN, m.to_act)]
        else:  # a draw: the same turn goes on
            assert rest == []
        assert watcher.observe(s, clock.now()) == []
    assert heard_scores == len(scores_in(s.events)) > 0  # the seed's round scored at least once


def test_with_the_hand_over_the_turn_is_heard_at_the_hand_over_and_not_again_at_the_reveal() -> None:
    s, clock, rng = session(handover=True), FakeClock(), random.Random(1)
    watcher = CueWatcher(s, clock.now())
    s.command(Start(0), clock.advance(1))
    opener = s.match.to_act
    assert opener is not None and watcher.observe(s, clock.now()) == [Cue(YOUR_TURN, opener)]
    if s.match.phase is Phase.HANDOVER:
        s.command(Reveal(opener), clock.advance(1))
        assert watcher.observe(s, clock.now()) == []
    while s.match.to_act == opener:
        play_one(s, rng, clock.advance(1))
        cues = watcher.observe(s, clock.now())
    assert s.match.phase is Phase.HANDOVER and kinds(cues)[-1:] == [YOUR_TURN] and cues[-1].player == 1 - opener
    s.command(Reveal(1 - opener), clock.advance(1))
    assert [c for c in watcher.observe(s, clock.now()) if c.kind is YOUR_TURN] == []


def start_and_reach_the_bank(s: GameSession, clock: FakeClock) -> tuple[CueWatcher, int]:
    watcher = CueWatcher(s, clock.now())
    s.command(Start(0), clock.advance(1))
    player = s.match.to_act
    assert player is not None and watcher.observe(s, clock.now()) == [Cue(YOUR_TURN, player)]
    return watcher, player


def test_the_low_bank_is_heard_at_20_s_and_at_10_s_once_each_and_the_flag_when_time_is_up() -> None:
    bank, delay = 35, 3
    s, clock = session(bank_seconds=bank, delay_seconds=delay), FakeClock()
    watcher, p = start_and_reach_the_bank(s, clock)
    started = clock.now()

    def at(bank_left: float) -> list[Cue]:  # the running player's bank at ``bank_left`` seconds
        clock.t = started + int((delay + bank - bank_left) * S)
        s.tick(clock.now())
        return watcher.observe(s, clock.now())

    assert at(20.5) == [] and at(20.0) == []  # not yet below
    assert at(19.9) == [Cue(LOW_20, p)]
    assert at(15) == [] and at(10.001) == []
    assert at(9.99) == [Cue(LOW_10, p)]
    assert at(5) == [] and at(0.5) == []
    assert s.match.deadline_ns() == started + (delay + bank) * S
    assert at(0) == [Cue(FLAG, p)]  # the deadline: lost on time
    assert s.match.outcome is not None and s.match.outcome.reason is EndReason.TIME
    assert at(-5) == [] and watcher.observe(s, clock.advance(60)) == []


def test_nothing_low_is_heard_while_the_delay_runs_and_each_new_decision_warns_again_once() -> None:
    bank, delay = 25, 10
    s, clock = session(bank_seconds=bank, delay_seconds=delay), FakeClock()
    watcher, p = start_and_reach_the_bank(s, clock)
    clock.advance(delay - 0.001)
    assert watcher.observe(s, clock.now()) == []  # the bank is untouched during the delay
    assert watcher.observe(s, clock.advance(bank - 19)) == [Cue(LOW_20, p)]
    assert watcher.observe(s, clock.advance(9)) == []  # 10.001 s left
    assert watcher.observe(s, clock.advance(0.002)) == [Cue(LOW_10, p)]
    rng = random.Random(2)
    play_one(s, rng, clock.now())
    while s.match.to_act == p:  # a draw keeps the turn (and its run)
        assert watcher.observe(s, clock.now()) == []
        play_one(s, rng, clock.now())
    assert s.match.to_act == 1 - p and watcher.observe(s, clock.now()) == [Cue(YOUR_TURN, 1 - p)]
    while s.match.to_act == 1 - p:  # the other plays at once: their bank is whole
        play_one(s, rng, clock.advance(1))
    assert s.match.to_act == p and kinds(watcher.observe(s, clock.now()))[-1] is YOUR_TURN
    clock.advance(delay + 0.001)
    assert s.match.bank_ns(p, clock.now()) < 10 * S
    assert watcher.observe(s, clock.now()) == [Cue(LOW_10, p)]  # already below 10 s: only the urgent one
    assert watcher.observe(s, clock.advance(1)) == []


def test_the_match_end_is_heard_for_its_winner_after_the_score_that_ended_it() -> None:
    for seed in range(20):
        s, clock, rng = session(seed, balances=5), FakeClock(), random.Random(seed)
        watcher = CueWatcher(s, clock.now())
        s.command(Start(0), clock.advance(1))
        heard: list[Cue] = []
        while not s.match.is_over and s.match.round == 1:
            play_one(s, rng, clock.advance(1))
            heard += watcher.observe(s, clock.now())
        outcome = s.match.outcome
        if outcome is not None and outcome.reason is EndReason.BALANCE:
            assert heard[-2:] == [Cue(SCORE, outcome.winner), Cue(END, outcome.winner)]
            assert kinds(heard).count(END) == 1 and watcher.observe(s, clock.advance(1)) == []
            return
    pytest.fail("no seed ended a match on points in its first round")


def test_a_resignation_and_an_abort_are_heard_as_the_match_end() -> None:
    s, clock = session(), FakeClock()
    watcher = CueWatcher(s, clock.now())
    s.command(Start(0), clock.advance(1))
    watcher.observe(s, clock.now())
    assert s.resign(1, clock.advance(1)) and watcher.observe(s, clock.now()) == [Cue(END, 0)]
    s2 = session()
    s2.command(Start(0), clock.advance(1))
    s2.abort(T("stopped by the owner"), clock.advance(1))  # a new session: heard from its beginning
    cues = watcher.observe(s2, clock.now())
    assert cues == [Cue(END, None)] and s2.match.outcome is not None and s2.match.outcome.reason is EndReason.ABORTED
    assert watcher.observe(s2, clock.advance(1)) == []


def test_a_match_made_and_started_between_two_frames_is_heard_and_going_home_is_silent() -> None:
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    clock = FakeClock(10 * S)
    c = Controller(config, clock, rng=random.Random(3))
    watcher = CueWatcher(c.session, clock.now())
    c.handle(do.NewMatch(), clock.now())
    c.handle(do.Start(1), clock.advance(1))
    assert c.session is not None
    assert watcher.observe(c.session, clock.now()) == [Cue(YOUR_TURN, playing(c).match.to_act)]
    c.handle(do.GoHome(), clock.advance(1))
    assert watcher.observe(c.session, clock.now()) == []


def test_a_resumed_match_replays_nothing_and_is_heard_from_where_it_stands(journal: Journal) -> None:
    config = replace(KioskConfig(), match=MatchSettings(handover=False, delay_seconds=0, bank_seconds=600))
    clock, rng = FakeClock(10 * S), random.Random(4)
    c = Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1")
    c.handle(do.NewMatch(), clock.now())
    c.handle(do.Start(0), clock.advance(1))
    s = playing(c)
    assert s is not None
    while not scores_in(s.events) and s.match.round == 1:  # play on to the first score
        play_one(s, rng, clock.advance(1))
        c.update(clock.now())
    assert scores_in(s.events) and not s.match.is_over
    p = s.match.to_act
    assert p is not None
    clock.advance(ns=s.match.bank_ns(p, clock.now()) - 15 * S)  # the bank at 15 s
    c.update(clock.now())
    assert s.match.bank_ns(p, clock.now()) < 20 * S

    again = Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1")
    resumed = again.session
    assert resumed is not None and resumed is not s
    assert resumed.match.to_act == p and resumed.match.clock_running == p  # the same turn, its clock running
    watcher = CueWatcher(resumed, clock.now())
    assert watcher.observe(resumed, clock.now()) == []  # no old score, no turn, no 20 s warning again
    bank = resumed.match.bank_ns(p, clock.now())
    clock.advance(ns=bank - 10 * S + 1)
    assert watcher.observe(resumed, clock.now()) == [Cue(LOW_10, p)]  # a new crossing is heard
    before = len(resumed.events)
    play_one(resumed, rng, clock.now())
    cues = watcher.observe(resumed, clock.now())
    assert scores_in(resumed.events[before:]) == cues[: len(scores_in(resumed.events[before:]))]
    assert all(c.kind in (SCORE, YOUR_TURN) for c in cues)


def test_a_match_that_ran_out_of_time_while_the_kiosk_was_down_is_not_flagged_at_the_start(journal: Journal) -> None:
    config = replace(KioskConfig(), match=MatchSettings(handover=False, delay_seconds=0, bank_seconds=30))
    clock = FakeClock(10 * S)
    c = Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1")
    c.handle(do.NewMatch(), clock.now())
    c.handle(do.Start(0), clock.advance(1))
    c.update(clock.now())
    clock.advance(60)  # down past the deadline
    again = Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1")
    resumed = again.session
    outcome = resumed.match.outcome if resumed is not None else None
    assert resumed is not None and outcome is not None and outcome.reason is EndReason.TIME
    assert outcome.winner is not None
    watcher = CueWatcher(resumed, clock.now())
    assert watcher.observe(resumed, clock.now()) == [] and watcher.observe(resumed, clock.advance(1)) == []
    fresh = CueWatcher()  # a watcher that had not heard it would flag it
    assert fresh.observe(resumed, clock.now()) == [Cue(FLAG, 1 - outcome.winner)]
