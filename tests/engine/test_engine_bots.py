"""Computer opponents: the player's view hides exactly what it must, the bots are legal, deterministic
and respect their budget, the arena's figures add up, and the search's copies are faithful."""

from __future__ import annotations

import functools
import random
import sys
import threading
from collections.abc import Callable, Iterator

import pytest

from engine import (
    ALL_TILES,
    NS_PER_MS,
    Accept,
    Bid,
    BotError,
    Deal,
    Decline,
    Match,
    MatchConfig,
    Phase,
    Play,
    PlayerView,
    Start,
    TurnKind,
    shuffle_deal,
)
from engine.bots import LEVELS, Knowledge, choose, determinize
from engine.bots.arena import BotSpec, play_match, run, summary, wilson
from engine.bots.knowledge import match_from_view
from engine.bots.policy import greedy_match_action
from engine.bots.search import _leader, _settled, candidates, rollout, search
from engine.layout import Layout
from engine.rollout import play_out_round
from engine.tiles import TILE_INDEX, TILE_MASK


def bot_moves(match: Match, levels: tuple[int, int], rng: random.Random, stop: Callable[[Match], bool]) -> list[object]:
    """Play bots of ``levels`` (level 4 with 6 samples) from ``match`` until ``stop``; the actions and deals."""
    log: list[object] = []
    now = 0
    while not match.is_over and not stop(match):
        now += NS_PER_MS
        if match.to_act is None:
            action: object = Start(None, shuffle_deal(rng))
        else:
            seat = match.to_act
            action = choose(PlayerView.of(match, seat, now), levels[seat], rng, samples=6)
        match.apply(action, now)  # type: ignore[arg-type]
        log.append(action)
    return log


def _replay(deals: list[Deal], actions: list[object]) -> Match:
    """A fresh match fed ``actions``, its Start commands taking ``deals`` in order."""
    m = Match()
    deal_iter = iter(deals)
    for i, action in enumerate(actions):
        if isinstance(action, Start):
            action = Start(None, next(deal_iter))
        m.apply(action, (i + 1) * NS_PER_MS)  # type: ignore[arg-type]
    return m


def _twin_deal(match: Match, deal: Deal, seat: int, rng: random.Random) -> Deal:
    """``deal`` with the tiles ``seat`` has not seen in ``match`` permuted among their places."""
    seen = set(match.hand(seat)) | set(match.layout.tiles())
    order = [ALL_TILES[i] for i in deal.tile_indices]
    places = [i for i, t in enumerate(order) if t not in seen]
    moved = [order[i] for i in places]
    rng.shuffle(moved)
    for i, t in zip(places, moved, strict=True):
        order[i] = t
    return Deal.from_indices([TILE_INDEX[t] for t in order])


def test_twins_give_equal_views_and_equal_choices_at_every_level() -> None:
    rng = random.Random(13)
    twins_checked = 0
    for game in range(40):
        levels = (rng.choice(LEVELS), rng.choice(LEVELS))
        deals: list[Deal] = []
        actions: list[object] = []
        match = Match()
        target = rng.randint(3, 40)
        now = 0
        while not match.is_over and len(actions) < target:
            now += NS_PER_MS
            if match.to_act is None:
                deal = shuffle_deal(rng)
                deals.append(deal)
                action: object = Start(None, deal)
            else:
                seat = match.to_act
                action = choose(PlayerView.of(match, seat, now), levels[seat], rng, samples=4)
            match.apply(action, len(actions) * NS_PER_MS + NS_PER_MS)  # type: ignore[arg-type]
            actions.append(action)
        if match.to_act is None or (match.phase is not Phase.PLAY and match.phase is not Phase.AUCTION):
            continue
        seat = match.to_act
        original = _replay(deals, actions)
        for _ in range(30):  # twins whose public history replays exactly
            twin_deals = [*deals[:-1], _twin_deal(original, deals[-1], seat, rng)]
            try:
                twin = _replay(twin_deals, actions)
            except Exception:
                continue
            if twin.hand(1 - seat) == original.hand(1 - seat) and twin.to_dict()["boneyard"] == original.to_dict()["boneyard"]:
                continue
            now = len(actions) * NS_PER_MS + 7
            view, twin_view = PlayerView.of(original, seat, now), PlayerView.of(twin, seat, now)
            assert view == twin_view and hash(view.history) == hash(twin_view.history)
            for level in LEVELS:
                assert choose(view, level, random.Random(game), samples=5) == choose(
                    twin_view, level, random.Random(game), samples=5)
            twins_checked += 1
            break
    assert twins_checked >= 10


def test_a_view_shows_only_the_seats_own_tiles_and_the_other_players_draws_without_tiles() -> None:
    rng = random.Random(2)
    for _ in range(30):
        match = Match()
        bot_moves(match, (1, 1), rng, lambda m: any(t.kind is TurnKind.DRAW for t in m.round_history()))
        if match.is_over:
            continue
        drawer = next(t.player for t in match.round_history() if t.kind is TurnKind.DRAW)
        mine, theirs = PlayerView.of(match, drawer, 0), PlayerView.of(match, 1 - drawer, 0)
        assert any(t.kind is TurnKind.DRAW and t.tile is not None for t in mine.history)
        assert all(t.tile is None for t in theirs.history if t.kind is TurnKind.DRAW)
        assert (set(theirs.hand) == set(match.hand(1 - drawer)) and theirs.legal == ()) or theirs.to_act == theirs.seat
        return
    pytest.fail("no draw met")


def test_from_view_with_the_real_hidden_tiles_is_the_same_match() -> None:
    rng = random.Random(4)
    for _ in range(60):
        match = Match()
        bot_moves(match, (3, 2), rng, lambda m: rng.random() < 0.05)
        if match.to_act is None:
            continue
        seat = match.to_act
        view = PlayerView.of(match, seat, 0)
        real = match.to_dict()
        copy = match_from_view(view, match.hand(1 - seat), [ALL_TILES[TILE_INDEX_OF[t]] for t in real["boneyard"]])
        assert copy.legal_actions() == match.legal_actions()
        assert PlayerView.of(copy, seat, 0).history == view.history
        for key in ("phase", "round", "balances", "hands", "boneyard", "layout", "to_act", "drawn", "passes", "auction"):
            assert copy.to_dict()[key] == real[key], key
        clone = match.clone()
        assert clone.to_dict() == real
        rollout(clone, random.Random(1))
        assert match.to_dict() == real, "a rollout on a clone leaves the original alone"


TILE_INDEX_OF = {str(t): i for i, t in enumerate(ALL_TILES)}


def test_what_the_seat_infers_always_holds_for_the_real_hand() -> None:
    rng = random.Random(8)
    checked = 0
    for _ in range(300):
        match = Match()
        bot_moves(match, (2, 2), rng, lambda m: rng.random() < 0.08)
        if match.to_act is None or match.phase is not Phase.PLAY:
            continue
        seat = match.to_act
        know = Knowledge.of(PlayerView.of(match, seat, 0))
        hand = {TILE_INDEX[t] for t in match.hand(1 - seat)}
        total = 0
        for group in know.groups:  # nested: Hall's condition is one count per group
            total += group.need
            assert len(hand & set(group.allowed)) >= total
        if know.void_mask:
            checked += 1
        other_hand, boneyard = know.sample(rng)
        assert sorted(other_hand + boneyard) == list(know.unseen) and len(other_hand) == len(hand)
    assert checked > 20


def test_a_void_is_respected_by_every_sample() -> None:
    rng = random.Random(9)
    for _ in range(200):
        match = Match()
        bot_moves(match, (2, 2), rng, lambda m: any(t.kind is TurnKind.PASS for t in m.round_history()))
        if match.to_act is None or match.phase is not Phase.PLAY:
            continue
        passer = next(t.player for t in match.round_history() if t.kind is TurnKind.PASS)
        seat = 1 - passer
        if match.to_act != seat:
            continue
        view = PlayerView.of(match, seat, 0)
        know = Knowledge.of(view)
        assert know.void_mask
        for _ in range(20):
            world = determinize(view, rng, know)
            assert all(not TILE_MASK[TILE_INDEX[t]] & know.void_mask for t in world.hand(passer))
        return
    pytest.fail("no pass met")


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_level_and_rng_state_give_the_same_action(level: int) -> None:
    rng = random.Random(level)
    for _ in range(40):
        match = Match()
        bot_moves(match, (2, 3), rng, lambda m: rng.random() < 0.1)
        if match.to_act is None:
            continue
        view = PlayerView.of(match, match.to_act, 0)
        seed = rng.random()
        assert choose(view, level, random.Random(seed), samples=6) == choose(view, level, random.Random(seed), samples=6)


def test_level_2_takes_the_highest_score_then_the_heaviest_tile() -> None:
    rng = random.Random(3)
    for _ in range(200):
        match = Match()
        bot_moves(match, (1, 1), rng, lambda m: rng.random() < 0.1)
        if match.to_act is None or not isinstance(match.legal_actions()[0], Play):
            continue
        view = PlayerView.of(match, match.to_act, 0)
        action = choose(view, 2, random.Random(1))
        assert isinstance(action, Play)

        def key(p: Play, view: PlayerView = view) -> tuple[int, int]:
            layout = Layout()
            for placement in view.placements:
                layout.place(placement.tile, placement.at)
            count = layout.place(p.tile, p.at)
            return (count if count > 0 and count % 5 == 0 else 0, p.tile.pips)

        assert key(action) == max(key(p) for p in view.legal if isinstance(p, Play))


@pytest.mark.parametrize("level", LEVELS)
def test_no_bot_bids_its_whole_balance_away(level: int) -> None:
    deal = shuffle_deal(random.Random(21))
    for balance in (5, 10, 15, 20, 25, 40):
        for jockey in (0, 1):
            match = Match(MatchConfig(balances=(balance, 300 - balance), jockey=jockey))
            match.apply(Start(None, deal), 0)
            for step in range(6):
                if match.phase is not Phase.AUCTION:
                    break
                seat = match.to_act
                assert seat is not None
                action = choose(PlayerView.of(match, seat, 0), level, random.Random(step), samples=4)
                assert isinstance(action, Decline | Accept | Bid)
                if isinstance(action, Bid):
                    auction = match.auction()
                    assert auction is not None and auction.cost(seat, action.amount) < match.balances[seat]
                match.apply(action, step + 1)


def test_level_4_falls_back_to_level_3_when_the_budget_is_gone_and_uses_it_otherwise() -> None:
    rng = random.Random(5)
    compared = 0
    for _ in range(80):
        match = Match()
        bot_moves(match, (2, 2), rng, lambda m: rng.random() < 0.15)
        if match.to_act is None or len(match.legal_actions()) < 2 or match.phase is not Phase.PLAY:
            continue
        view = PlayerView.of(match, match.to_act, 0)
        ticks = iter(range(0, 10**12, 10 * NS_PER_MS))
        calls: list[int] = []

        def clock(ticks: Iterator[int] = ticks, calls: list[int] = calls) -> int:
            calls.append(1)
            return next(ticks)

        fallback = choose(view, 4, random.Random(1), budget_ns=5 * NS_PER_MS, clock=clock)
        assert fallback == choose(view, 3, random.Random(1))
        calls.clear()
        choose(view, 4, random.Random(1), budget_ns=2000 * NS_PER_MS, clock=clock)
        assert 4 < len(calls) <= 202, "the search stops at its budget (clock read between iterations)"
        calls.clear()
        choose(view, 4, random.Random(1), samples=5, clock=clock)
        assert calls == [], "a fixed number of iterations never reads the clock"
        compared += 1
    assert compared > 20


def test_the_determinization_search_stops_when_the_choice_is_clear_or_makes_no_difference() -> None:
    noise = random.Random(3)
    shared = [noise.choice((-40.0, 0.0, 40.0)) for _ in range(32)]
    clearly_ahead = [[v + 15.0 for v in shared], shared]
    assert _settled(clearly_ahead), "the leader is 15 points ahead on every sample"
    as_good = [[v + noise.choice((0.0, 0.5)) for v in shared], shared]
    assert _settled(as_good), "the two differ by at most half a point on any sample"
    close_and_noisy = [[v + noise.choice((-30.0, 32.0)) for v in shared], shared]
    assert not _settled(close_and_noisy), "a small lead among large differences is not settled"
    three = [shared, [v + 3.0 for v in shared], [v - 3.0 for v in shared]]
    assert _leader(three) == 1 and _settled(three)


def test_a_clock_that_stops_cannot_keep_the_determinization_search_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    search_module = sys.modules["engine.bots.search"]
    monkeypatch.setattr(search_module, "MAX_SAMPLES", 40)
    monkeypatch.setattr(search_module, "_settled", lambda values: False)
    match = Match()
    match.apply(Start(None, shuffle_deal(random.Random(8))), 0)
    bot_moves(match, (2, 2), random.Random(8), lambda m: m.phase is Phase.PLAY and len(m.legal_actions()) > 2)
    assert match.to_act is not None and len(match.legal_actions()) > 2
    view = PlayerView.of(match, match.to_act, 0)
    assert len(candidates(view)) > 1
    reads: list[int] = []
    most = 1 + 40 * (1 + len(view.legal))

    def stopped_clock() -> int:
        reads.append(0)
        assert len(reads) <= most, "more than 40 samples"
        return 0

    assert search(view, random.Random(1), None, NS_PER_MS, stopped_clock) in view.legal
    assert len(reads) > 40, "it searched until its limit"


def test_bad_requests_to_a_bot_are_bot_errors() -> None:
    with pytest.raises(BotError):
        choose(PlayerView.of(Match(), 0, 0), 1, random.Random(1))
    match = Match()
    match.apply(Start(None, shuffle_deal(random.Random(1))), 0)
    view = PlayerView.of(match, 0, 0)
    for level in (0, 5, True, 2.0):
        with pytest.raises(BotError):
            choose(view, level, random.Random(1))  # type: ignore[arg-type]
    assert isinstance(BotError("x"), ValueError)


def test_choose_is_thread_safe() -> None:
    rng = random.Random(6)
    views: list[PlayerView] = []
    while len(views) < 12:
        match = Match()
        bot_moves(match, (3, 3), rng, lambda m: rng.random() < 0.1)
        if match.to_act is not None:
            views.append(PlayerView.of(match, match.to_act, 0))
    expected = [choose(v, 4, random.Random(i), samples=8) for i, v in enumerate(views)]
    results: dict[int, list[object]] = {}

    def worker(k: int) -> None:
        results[k] = [choose(v, 4, random.Random(i), samples=8) for i, v in enumerate(views)]

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(3))


def test_arena_plays_duplicate_matches_legally_and_reports() -> None:
    sides = (BotSpec(2), BotSpec(1))
    results = run(sides, 10, 3)
    assert len(results) == 10 and all(r.illegal == 0 for r in results)
    assert sum(r.decisions for r in results) > 300
    again = play_match(sides, 3, 0)
    assert (again.winner, again.rounds, again.points_a) == (results[0].winner, results[0].rounds, results[0].points_a)
    text = summary(sides, results)
    assert "L2 vs L1: 10 matches" in text and "illegal actions 0" in text
    low, high = wilson(8, 10)
    assert 0.49 < low < 0.5 and 0.94 < high < 0.95
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.slow
def test_bots_make_no_illegal_action_in_many_decisions() -> None:
    decisions = illegal = 0
    for a, b in ((1, 2), (3, 1), (2, 3), (4, 1), (4, 3)):
        spec = (BotSpec(a, samples=3), BotSpec(b, samples=3))
        for result in run(spec, 12, 100 * a + b):
            decisions += result.decisions
            illegal += result.illegal
    assert decisions > 12_000 and illegal == 0


@pytest.mark.slow
def test_level_2_beats_level_1_and_level_3_beats_level_2() -> None:
    two = run((BotSpec(2), BotSpec(1)), 40, 7)
    assert sum(r.winner == 0 for r in two) >= 36
    three = run((BotSpec(3), BotSpec(2)), 60, 7)
    assert sum(r.winner == 0 for r in three) >= 42


def test_rollouts_end_the_round_with_legal_greedy_moves() -> None:
    rng = random.Random(11)
    for _ in range(50):
        match = Match()
        match.apply(Start(None, shuffle_deal(rng)), 0)
        while match.to_act is not None:
            action = greedy_match_action(match, rng)
            assert action in match.legal_actions() and not isinstance(action, Bid)
            match.apply(action, 0)
        assert match.phase in (Phase.READY, Phase.MATCH_OVER)


def test_the_fast_play_out_makes_the_same_moves_as_level_2_through_apply() -> None:
    rng = random.Random(12)
    compared = 0
    for i in range(300):
        match = Match(MatchConfig(balances=(rng.choice([10, 30, 150]),) * 2, jockey=rng.choice([None, 0, 1])))
        match.apply(Start(None, shuffle_deal(rng)), 0)
        for _ in range(rng.randint(0, 12)):
            if match.to_act is None:
                break
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))], 0)
        if match.to_act is None:
            continue
        world = determinize(PlayerView.of(match, match.to_act, 0), rng)
        slow, fast = world.clone(), world.clone()
        rollout(slow, random.Random(i))
        play_out_round(fast, random.Random(i).random)
        a, b = slow.to_dict(), fast.to_dict()
        for key in ("balances", "hands", "boneyard", "layout", "phase", "jockey", "outcome", "to_act"):
            assert a[key] == b[key], key
        compared += 1
    assert compared > 200


def test_a_hand_over_view_reveals_and_the_history_survives_a_snapshot() -> None:
    rng = random.Random(14)
    match = Match(MatchConfig(handover=True))
    match.apply(Start(None, shuffle_deal(rng)), 0)
    now = 0
    while len(match.round_history()) < 6 and match.to_act is not None:
        now += NS_PER_MS
        seat = match.to_act
        view = PlayerView.of(match, seat, now)
        action = choose(view, 3, rng)
        if match.phase is Phase.HANDOVER:
            assert type(action).__name__ == "Reveal" and view.legal == (action,)
            assert PlayerView.of(match, 1 - seat, now).legal == ()
        match.apply(action, now)
    data = match.to_dict()
    assert Match.from_dict(data).round_history() == match.round_history() != ()
    assert Match.from_dict(data).ranked_round is True
    old = {k: v for k, v in data.items() if k not in ("history", "ranked")}
    assert Match.from_dict(old).round_history() == (), "a snapshot from before the history still loads"
    view = PlayerView.of(match, 0, now)
    assert hash(view) == hash(PlayerView.of(match, 0, now))
    with pytest.raises(AttributeError):
        view.round = 3  # type: ignore[misc]


@functools.cache
def _auction_views(count: int) -> tuple[PlayerView, ...]:
    """Auction decisions at many balances, both roles, facing no bid, a bid and a raise."""
    from engine.bots.auction_value import auction_views

    return tuple(auction_views(count, 5))


def test_levels_1_to_3_decline_first_and_accept_as_the_jockey() -> None:
    from engine.bots.policy import first_auction_action

    views = _auction_views(120)
    assert any(v.auction is not None and v.auction.bid is not None for v in views)  # bids are faced too
    assert any(v.auction is not None and v.auction.bid is None for v in views)
    for view in views:
        for level in (1, 2, 3):
            assert choose(view, level, random.Random(1)) == first_auction_action(view), (level, view.balances)


def test_level_3_bids_exactly_when_its_measured_lead_value_exceeds_the_cost() -> None:
    from engine.bots.policy import LEAD_BASE, LEAD_PER_POINT, auction_by_value, best_opening_score, lead_value

    view = _auction_views(1)[0]
    assert view.auction is not None and view.auction.bid is None  # the first bidder: a bid of 15 costs 15
    assert lead_value(view) == LEAD_BASE + LEAD_PER_POINT * best_opening_score(view) <= 12.0
    assert best_opening_score(view) in (0, 5, 10)
    bid = auction_by_value(view, 15.5)
    assert isinstance(bid, Bid) and bid.amount == 15
    assert isinstance(auction_by_value(view, 15.0), Decline)  # not worth more than it costs
    facing = next(v for v in _auction_views(60) if v.auction is not None and v.auction.bid == 15
                  and v.auction.jockey == v.seat)
    # the jockey's raise to 20 costs 20 - 15 = 5, and accepting would have earned 15
    assert isinstance(auction_by_value(facing, 20.5), Bid) and isinstance(auction_by_value(facing, 20.0), Accept)


def test_the_baseline_auction_side_never_bids_and_plays_the_rest_as_its_level() -> None:
    from engine.bots.arena import _decide
    from engine.bots.policy import first_auction_action

    spec = BotSpec(4, samples=3, baseline_auction=True)
    assert spec.name == "L4/s3/base"
    for i, view in enumerate(_auction_views(40)):
        assert _decide(spec, view, random.Random(i), None, []) == first_auction_action(view)
    match = Match()
    match.apply(Start(None, shuffle_deal(random.Random(4))), 0)
    assert match.phase is Phase.PLAY
    view = PlayerView.of(match, match.to_act or 0, 0)
    assert _decide(BotSpec(3, baseline_auction=True), view, random.Random(2), None, []) == choose(view, 3, random.Random(2))


def test_with_seat_rngs_twins_that_decide_alike_split_every_pair_of_matches() -> None:
    sides = (BotSpec(1), BotSpec(1, baseline_auction=True))  # level 1 never bids: twins that decide alike
    results = run(sides, 6, 40, seat_rngs=True)
    for first, second in zip(results[::2], results[1::2], strict=True):
        assert first.winner != second.winner and first.points_a == -second.points_a
        assert first.rounds == second.rounds
    side_rngs = run((BotSpec(1), BotSpec(1)), 6, 40)
    assert any(a.rounds != b.rounds for a, b in zip(side_rngs[::2], side_rngs[1::2], strict=True))


def test_auction_value_plays_each_deal_both_ways() -> None:
    from engine.bots.auction_value import play_both_ways, table

    results = [play_both_ways(2, seed) for seed in range(6)]
    assert results == [play_both_ways(2, seed) for seed in range(6)]  # reproducible
    assert all(r.best_opening in (0, 5, 10) and r.jockey_gain in (-1, 0, 1) for r in results)
    assert len({r.gain for r in results}) > 1
    text = table(results)
    assert "all: 6 deals" in text and "bidding 15 (accepted)" in text


def test_level_4_decides_the_auction_as_the_baseline_without_searching() -> None:
    """Level 4 never bids (docs/bots.md, "The auction"): decline as the first bidder, accept as the
    jockey facing a bid, at once — no clock read, no random number drawn."""
    rng = random.Random(11)
    met = {"first": 0, "facing": 0}
    for _ in range(60):
        match = Match()
        bot_moves(match, (2, 2), rng, lambda m: m.phase is Phase.AUCTION and rng.random() < 0.3)
        if match.to_act is None or match.phase is not Phase.AUCTION:
            continue
        bids = [a for a in match.legal_actions() if isinstance(a, Bid)]
        if bids and rng.random() < 0.5:
            match.apply(bids[0], 10**9)  # the other player faces a bid
        view = PlayerView.of(match, match.to_act, 10**9)
        calls: list[int] = []

        def clock(calls: list[int] = calls) -> int:
            calls.append(1)
            return 0

        bot_rng = random.Random(3)
        before = bot_rng.getstate()
        action = choose(view, 4, bot_rng, budget_ns=1000 * NS_PER_MS, clock=clock)
        assert not isinstance(action, Bid)
        assert isinstance(action, Decline | Accept)
        assert calls == [] and bot_rng.getstate() == before
        met["facing" if isinstance(action, Accept) else "first"] += 1
    assert met["first"] > 0 and met["facing"] > 0, met
