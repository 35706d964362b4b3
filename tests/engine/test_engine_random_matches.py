"""Thousands of random full matches through the public API end properly and keep the rules' totals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import NS_PER_MS, EndReason, Match, MatchConfig, Start, Transfer, shuffle_deal

MATCHES = 3000


def play_random_match(rng: random.Random) -> tuple[Match, int]:
    """A whole match of uniformly random legal actions at random times; returns it and its end time."""
    config = MatchConfig(
        balances=(150, 150),
        bank_ns=(rng.randint(5, 120) * 1000 * NS_PER_MS,) * 2,
        handover=rng.random() < 0.3,
        jockey=rng.choice([None, None, 0, 1]),
    )
    match = Match(config)
    now = 0
    moved = 0
    for _ in range(5000):
        now += rng.randint(0, 14_000) * NS_PER_MS
        match.advance(now)
        legal = match.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        if isinstance(action, Start):
            action = Start(rng.randint(0, 1), shuffle_deal(rng))
        for event in match.apply(action, now):
            if isinstance(event, Transfer):
                assert event.points > 0
                moved += event.points
        balances = match.balances
        assert balances[0] + balances[1] == 300 and min(balances) >= 0
    assert match.is_over, "a random match ends within 5000 commands"
    return match, now


@pytest.mark.slow
def test_thousands_of_random_matches_end_by_the_rules() -> None:
    rng = random.Random(20261129)
    reasons: Counter[str] = Counter()
    for _ in range(MATCHES):
        match, now = play_random_match(rng)
        outcome = match.outcome
        assert outcome is not None and outcome.rated and outcome.winner in (0, 1)
        loser = 1 - outcome.winner
        reasons[outcome.reason.value] += 1
        if outcome.reason is EndReason.BALANCE:
            assert match.balances[loser] == 0 and match.balances[outcome.winner] == 300
        else:
            assert outcome.reason is EndReason.TIME
            assert match.bank_ns(loser, now) == 0
        assert match.legal_actions() == ()
    assert reasons["balance"] > 100 and reasons["time"] > 100, reasons
