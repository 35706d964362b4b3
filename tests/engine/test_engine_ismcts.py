"""Level 4's information-set MCTS (``engine.bots.ismcts``): legal, reproducible, bounded by its
clock, stopping when its choice is settled, blind to what the seat cannot see, and playable in the
arena beside the determinization search it replaced."""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Iterator

import pytest
from test_engine_bots import _replay, _twin_deal, bot_moves

from engine import (
    NS_PER_MS,
    Accept,
    Bid,
    BotError,
    Deal,
    Decline,
    Match,
    MatchConfig,
    Phase,
    PlayerView,
    Start,
    shuffle_deal,
)
from engine.bots import choose
from engine.bots.arena import BotSpec, main, run, summary
from engine.bots.ismcts import REWARD_SCALE, Node, ismcts, ismcts_search, settled, tree_actions
from engine.bots.search import candidates


def positions(seed: int, count: int) -> Iterator[PlayerView]:
    """``count`` views of the seat to act, from matches of level 2 against level 3 stopped at random,
    auctions favoured."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        match = Match()
        bot_moves(match, (2, 3), rng, lambda m: rng.random() < 0.08 or (m.phase is Phase.AUCTION and rng.random() < 0.5))
        if match.to_act is None:
            continue
        found += 1
        yield PlayerView.of(match, match.to_act, 0)


def counting_clock(step_ns: int, calls: list[int]) -> Callable[[], int]:
    """A clock reading 0, ``step_ns``, 2 × ``step_ns``, … (no time passes); each reading is appended
    to ``calls``."""
    ticks = itertools.count(0, step_ns)

    def clock() -> int:
        now = next(ticks)
        calls.append(now)
        return now

    return clock


def test_it_returns_a_legal_action_in_every_phase() -> None:
    phases: set[Phase] = set()
    searched = 0
    for view in positions(1, 60):
        result = ismcts_search(view, random.Random(7), iterations=40)
        assert result.action in view.legal
        if isinstance(result.action, Bid):
            assert view.auction is not None and view.auction.cost(view.seat, result.action.amount) < view.balances[view.seat]
        assert 0 < result.iterations <= 40 if len(candidates(view)) > 1 else result.iterations == 0
        searched += result.iterations > 0
        phases.add(view.phase)
    assert phases >= {Phase.PLAY, Phase.AUCTION} and searched > 20


def test_below_the_root_the_auction_offers_decline_or_accept_and_the_smallest_safe_bid() -> None:
    deal = shuffle_deal(random.Random(21))
    for balance in (10, 20, 40, 150):
        match = Match(MatchConfig(balances=(balance, 300 - balance), jockey=1))
        match.apply(Start(None, deal), 0)
        assert match.phase is Phase.AUCTION
        actions = tree_actions(match)
        assert isinstance(actions[0], Decline)
        bids = [a for a in actions[1:] if isinstance(a, Bid)]
        assert len(bids) == len(actions) - 1 <= 1
        auction = match.auction()
        assert auction is not None
        assert all(auction.cost(0, b.amount) < balance for b in bids)
        if bids:
            match.apply(bids[0], 1)
            assert isinstance(tree_actions(match)[0], Accept)


def test_the_same_view_rng_state_and_iterations_give_the_same_action() -> None:
    rng = random.Random(2)
    for view in positions(2, 25):
        seed = rng.random()
        first = ismcts_search(view, random.Random(seed), iterations=30)
        assert first == ismcts_search(view, random.Random(seed), iterations=30)


def test_fixed_iterations_never_read_the_clock_and_a_budget_stops_it() -> None:
    checked = 0
    for view in positions(3, 40):
        if len(candidates(view)) < 2:
            continue
        calls: list[int] = []
        clock = counting_clock(NS_PER_MS, calls)
        ismcts(view, random.Random(1), iterations=12, clock=clock)
        assert calls == [], "fixed iterations never read the clock"
        result = ismcts_search(view, random.Random(1), budget_ns=50 * NS_PER_MS, clock=clock, stop_early=False)
        assert result.iterations == 49 and len(calls) == 51, "one reading for the deadline, one per iteration"
        calls.clear()
        result = ismcts_search(view, random.Random(1), budget_ns=50 * NS_PER_MS, clock=clock)
        assert result.iterations <= 49 and len(calls) <= result.iterations + 2
        assert ismcts_search(view, random.Random(1), budget_ns=3 * NS_PER_MS, clock=clock).iterations == 2
        fallback = ismcts_search(view, random.Random(1), budget_ns=NS_PER_MS // 2, clock=clock)
        assert fallback.iterations == 0
        assert fallback.action == choose(view, 3, random.Random(1)), "too few iterations: level 3's choice"
        checked += 1
    assert checked > 10


def test_stopping_once_the_most_visited_action_cannot_be_caught_up_changes_no_choice() -> None:
    stopped = 0
    for view in positions(5, 40):
        early = ismcts_search(view, random.Random(3), iterations=160)
        full = ismcts_search(view, random.Random(3), iterations=160, stop_early=False)
        assert early.action == full.action and early.iterations <= full.iterations
        stopped += early.iterations < full.iterations
    assert stopped > 0


def test_a_clock_that_stops_cannot_keep_it_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules["engine.bots.ismcts"], "MAX_ITERATIONS", 25)
    for view in positions(4, 20):
        if len(candidates(view)) > 1:
            result = ismcts_search(view, random.Random(1), budget_ns=NS_PER_MS, clock=lambda: 0, stop_early=False)
            assert result.iterations == 25
            return
    pytest.fail("no decision with a choice met")


def test_twins_give_the_same_choice() -> None:
    rng = random.Random(13)
    twins_checked = 0
    for game in range(60):
        deals: list[Deal] = []
        actions: list[object] = []
        match = Match()
        target = rng.randint(3, 40)
        while not match.is_over and len(actions) < target:
            if match.to_act is None:
                deal = shuffle_deal(rng)
                deals.append(deal)
                action: object = Start(None, deal)
            else:
                action = choose(PlayerView.of(match, match.to_act, 0), 3, rng)
            match.apply(action, len(actions) * NS_PER_MS + NS_PER_MS)  # type: ignore[arg-type]
            actions.append(action)
        if match.to_act is None or (match.phase is not Phase.PLAY and match.phase is not Phase.AUCTION):
            continue
        seat = match.to_act
        original = _replay(deals, actions)
        for _ in range(30):
            try:
                twin = _replay([*deals[:-1], _twin_deal(original, deals[-1], seat, rng)], actions)
            except Exception:
                continue
            if twin.hand(1 - seat) == original.hand(1 - seat) and twin.to_dict()["boneyard"] == original.to_dict()["boneyard"]:
                continue
            now = len(actions) * NS_PER_MS + 7
            view, twin_view = PlayerView.of(original, seat, now), PlayerView.of(twin, seat, now)
            assert view == twin_view
            assert ismcts_search(view, random.Random(game), iterations=20) == ismcts_search(
                twin_view, random.Random(game), iterations=20)
            twins_checked += 1
            break
    assert twins_checked >= 10


def test_the_arena_plays_level_4_legally_and_reports_its_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    sides = (BotSpec(4, samples=8), BotSpec(4, samples=8, determinized=True))
    assert sides[0].name == "L4/s8" and sides[1].name == "L4/det/s8" and BotSpec(4, determinized=True).name == "L4/det"
    results = run(sides, 2, 5)
    assert all(r.illegal == 0 for r in results) and all(r.iterations[1] == [] for r in results)
    assert {c for r in results for c in r.iterations[0]} == {8}
    text = summary(sides, results)
    assert "L4/s8 vs L4/det/s8: 2 matches" in text and "L4/s8 iterations per searched decision: p10 8" in text
    assert "iterations" not in summary((BotSpec(3), BotSpec(2)), run((BotSpec(3), BotSpec(2)), 2, 5))
    with pytest.raises(SystemExit):
        main(["--a", "3", "--b", "2", "--determinized-a"])
    capsys.readouterr()


def test_level_4_is_this_search() -> None:
    for view in positions(21, 30):
        assert choose(view, 4, random.Random(2), samples=24) == ismcts(view, random.Random(2), iterations=24)


def root_with(*children: tuple[int, list[float]]) -> Node:
    """A root whose children were visited with these rewards (in points)."""
    root = Node(None, 1)
    for i, (visits, points) in enumerate(children):
        rewards = [points[k % len(points)] / REWARD_SCALE for k in range(visits)]
        root.children[Decline(0) if i == 0 else Bid(0, i)] = Node(
            None, 0, visits, sum(rewards), sum(r * r for r in rewards), visits)
    return root


def test_the_search_stops_when_no_other_action_is_plausibly_better() -> None:
    assert settled(root_with((600, [10.0, -10.0]), (40, [-20.0, -40.0]))), "the other action is clearly worse"
    assert settled(root_with((400, [5.0, 6.0]), (380, [5.0, 6.5]))), "the two are worth the same within half a point"
    assert not settled(root_with((400, [30.0, -30.0]), (300, [32.0, -30.0]))), "close and noisy is not settled"
    assert not settled(root_with((600, [10.0]), (5, [-40.0]))), "an action searched fewer than 6 times is not judged"
    assert not settled(root_with((600, [0.0]), (200, [20.0]))), "the less visited action looks better"


def test_a_hand_over_reveals_and_a_seat_with_nothing_to_decide_is_refused() -> None:
    rng = random.Random(14)
    match = Match(MatchConfig(handover=True))
    match.apply(Start(None, shuffle_deal(rng)), 0)
    now = 0
    revealed = 0
    while len(match.round_history()) < 8 and match.to_act is not None:
        now += NS_PER_MS
        seat = match.to_act
        view = PlayerView.of(match, seat, now)
        action = ismcts(view, random.Random(now), iterations=20)
        assert action in view.legal
        if match.phase is Phase.HANDOVER:
            assert type(action).__name__ == "Reveal"
            revealed += 1
        with pytest.raises(BotError):
            ismcts(PlayerView.of(match, 1 - seat, now), random.Random(1), iterations=20)
        match.apply(action, now)
    assert revealed >= 3
