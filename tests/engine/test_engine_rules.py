"""One focused test per rule and per worked example of the rule texts (seeds), through the public API.

The seeds (``seeds/001_…`` English, ``003_…`` Ukrainian with the layout figures) are the authority;
RULES.md fixes the points they leave open. Every refusal is checked for its error class and code
AND for leaving ``Match.to_dict()`` exactly as it was.

Deals are literals (some copied from the public conformance scenarios); nothing is read from disk.
End-of-round positions are built either by real play or by ``Match.from_dict`` of a hand-edited
``to_dict()`` that keeps the 28-tile partition valid (``_edited`` below).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter

import pytest

from engine import (
    ALL_TILES,
    NS_PER_MS,
    NS_PER_S,
    Accept,
    Action,
    AuctionView,
    BadAmount,
    Bid,
    CannotDraw,
    CannotPass,
    Deal,
    Decline,
    Draw,
    EndReason,
    Event,
    IllegalAction,
    IllegalPlay,
    Layout,
    Malformed,
    Match,
    MatchConfig,
    MatchEnded,
    MatchIsOver,
    MustPlayDrawn,
    NoDeal,
    NotYourTurn,
    Outcome,
    Pass,
    Phase,
    Play,
    Point,
    Resign,
    Reveal,
    RoundEnded,
    SnapshotError,
    Start,
    Tile,
    Transfer,
    Unaffordable,
    UnknownTile,
    WrongPhase,
    ranked_opener,
    round_to_five,
    shuffle_deal,
)
from engine.errors import ERROR_CODES
from engine.snapshot import restore_text, save_text

S = NS_PER_S
MS = NS_PER_MS
BANK = 120 * S
DELAY = 10 * S

# ---------------------------------------------------------------------------------------------
# helpers


def T(name: str) -> Tile:
    return Tile.parse(name)


def P(tile_name: str, slot: str) -> Point:
    return Point.parse(tile_name, slot)


def deal(h0: str, h1: str, first: str = "") -> Deal:
    """A deal from space-separated names; the boneyard is ``first`` then every other tile in name order."""
    hands = [h0.split(), h1.split()]
    head = first.split()
    used = {T(n) for n in hands[0] + hands[1] + head}
    rest = [str(t) for t in ALL_TILES if t not in used]
    return Deal.from_names(hands, head + rest)


def refused(match: Match, action: Action, now_ns: int, exc: type[IllegalAction]) -> IllegalAction:
    """Apply ``action``; it must raise exactly ``exc`` (with its code) and change nothing."""
    before = copy.deepcopy(match.to_dict())
    legal_before = match.legal_actions()
    with pytest.raises(IllegalAction) as info:
        match.apply(action, now_ns)
    assert type(info.value) is exc, f"{type(info.value).__name__}: {info.value}"
    assert info.value.code == exc.code
    assert info.value.code in ERROR_CODES
    assert isinstance(info.value, ValueError)
    assert match.to_dict() == before
    assert match.legal_actions() == legal_before
    return info.value


def transfers(events: list[Event]) -> list[tuple[int, int, int, str]]:
    return [(e.payer, e.payee, e.points, e.reason.value) for e in events if isinstance(e, Transfer)]


def points_of(layout: Layout) -> list[tuple[str, str, int]]:
    return [(str(p.tile), p.slot.value, v) for p, v in layout.open_points()]


def line_layout(chain: str) -> list[list[object]]:
    """Layout data for a single line: the first tile opens, each next tile goes on the current right end."""
    names = chain.split()
    layout = Layout()
    first = T(names[0])
    layout.place(first, None)
    data: list[list[object]] = [[str(first), None]]
    end = P(names[0], "lineB" if first.is_double else "high")
    for name in names[1:]:
        tile = T(name)
        value = layout.value_at(end)
        assert value is not None
        layout.place(tile, end)
        data.append([str(tile), [str(end.tile), end.slot.value]])
        if tile.is_double:
            end = Point(tile, P(name, "lineB").slot)
        else:
            end = P(name, "high" if tile.low == value else "low")
    return data


def _edited(
    hands: tuple[str, str],
    layout: list[list[object]],
    *,
    boneyard: str | None = None,
    to_act: int = 0,
    balances: tuple[int, int] = (150, 150),
    banks: tuple[int, int] = (BANK, BANK),
    started_ns: int = 0,
    boot_id: str = "boot-A",
) -> Match:
    """A match in its play phase, built through ``from_dict`` of an edited ``to_dict``.

    ``boneyard`` None: every tile not in the hands or the layout, in name order.
    """
    m = Match(MatchConfig(balances=balances, bank_ns=banks), boot_id=boot_id)
    data = m.to_dict()
    h = [hands[0].split(), hands[1].split()]
    on_table = {T(row[0]) for row in layout}  # type: ignore[arg-type]
    if boneyard is None:
        taken = on_table | {T(n) for n in h[0] + h[1]}
        bone = [str(t) for t in ALL_TILES if t not in taken]
    else:
        bone = boneyard.split()
    data.update(
        phase="play", round=1, hands=h, boneyard=bone, layout=layout, to_act=to_act,
        opening_tile=None, drawn=None, passes=0, auction=None, after_reveal=None,
        last_actor=1 - to_act, jockey=None, last_ns=started_ns,
        clock={"bank_ns": list(banks), "delay_ns": DELAY, "running": to_act, "started_ns": started_ns},
    )
    return Match.from_dict(data)


def _partition_ok(m: Match) -> bool:
    tiles = [*m.hand(0), *m.hand(1), *m.layout.tiles()]
    data = m.to_dict()
    tiles += [T(n) for n in data["boneyard"]]
    return len(tiles) == 28 and set(tiles) == set(ALL_TILES)


# ---------------------------------------------------------------------------------------------
# deals (the first few copied from shared/conformance/public/*.json)

# seed-figures-chain.json
DEAL_CHAIN = Deal.from_names(
    [["1|4", "4|4", "1|2", "5|5", "1|3", "2|6", "0|6"], ["1|1", "3|4", "1|5", "0|5", "2|3", "6|6", "0|0"]],
    ["0|1", "0|2", "0|3", "0|4", "1|6", "2|2", "2|4", "2|5", "3|3", "3|5", "3|6", "4|5", "4|6", "5|6"],
)
# auction-jockey-credit.json / auction-all-in-loses.json / auction-cannot-afford-minimum.json
DEAL_AUCTION = Deal.from_names(
    [["0|1", "0|2", "1|2", "2|4", "3|6", "0|3", "1|6"], ["2|3", "1|3", "0|4", "1|4", "4|6", "2|5", "3|4"]],
    ["0|0", "0|5", "0|6", "1|1", "1|5", "2|2", "2|6", "3|3", "3|5", "4|4", "4|5", "5|5", "5|6", "6|6"],
)
# score-capped-by-balance.json / clock-delay-and-bank.json
DEAL_CAP = Deal.from_names(
    [["0|1", "0|2", "1|2", "2|4", "4|6", "0|3", "1|6"], ["2|3", "1|3", "0|4", "1|4", "3|6", "2|5", "3|4"]],
    ["0|0", "0|5", "0|6", "1|1", "1|5", "2|2", "2|6", "3|3", "3|5", "4|4", "4|5", "5|5", "5|6", "6|6"],
)
# ranked-opening-no-double.json
DEAL_NO_DOUBLE = Deal.from_names(
    [["5|6", "0|5", "3|4", "4|5", "2|5", "1|5", "1|2"], ["1|3", "0|6", "0|2", "0|3", "3|6", "1|6", "0|4"]],
    ["0|0", "0|1", "1|1", "1|4", "2|2", "2|3", "2|4", "2|6", "3|3", "3|5", "4|4", "4|6", "5|5", "6|6"],
)
# No doubles in hand; the heaviest tiles dealt are [3|5] (player 0) and [2|6] (player 1), both 8.
DEAL_TIE = deal("3|5 0|1 0|2 0|3 0|4 1|2 1|3", "2|6 1|4 0|5 0|6 1|5 2|3 2|4")
# Player 0 holds [6|6]; player 1 holds no 6 and draws [0|0], [2|2] (no fit), then [5|6] (fits).
DEAL_DRAW = deal("6|6 0|1 0|2 0|3 0|4 0|5 1|2", "1|3 1|4 1|5 2|3 2|4 2|5 3|4", "0|0 2|2 5|6 1|1")
# Player 1 holds [6|6], the highest double; player 0 holds [5|5].
DEAL_P1_SIXES = deal("5|5 0|1 0|2 0|3 0|4 1|2 1|3", "6|6 4|4 1|4 1|5 2|3 2|4 2|5")
# [6|6] is in the boneyard: the highest double in the hands is [5|5] (player 0) over [4|4] (player 1).
DEAL_NO_SIX_DOUBLE = deal("5|5 0|1 0|2 0|3 0|4 1|2 1|3", "4|4 1|4 1|5 2|3 2|4 2|5 3|4", "6|6")
# For [3|6] + [6|6] on high: player 1 (jockey) holds [3|6], player 0 holds [6|6].
DEAL_FIFTEEN = deal("6|6 0|1 0|2 0|3 0|4 1|2 1|3", "3|6 1|4 1|5 2|3 2|4 2|5 3|4")

# Blocked end positions: every tile not in the hands is on the table as one line; no hand tile fits.
# (A valid blocked position needs every value to appear an even number of times in the two hands.)
LINE_4_VS_18 = line_layout(  # hands [1|3] (4) and [1|4] [3|4] [3|3] (18): open ends 0 and 0
    "0|0 0|6 6|6 5|6 5|5 4|5 4|6 3|6 3|5 2|5 2|6 1|6 1|5 0|5 0|4 4|4 2|4 2|3 0|3 0|2 2|2 1|2 1|1 0|1"
)
LINE_17 = line_layout(  # hands [2|3] (5) and [2|6] [3|6] (17): open ends 0 and 0
    "0|0 0|6 6|6 5|6 5|5 4|5 4|6 1|6 1|5 3|5 3|4 4|4 2|4 2|5 0|5 0|4 1|4 1|3 3|3 0|3 0|2 2|2 1|2 1|1 0|1"
)
LINE_0_VS_2 = line_layout(  # hands [0|0] (0) and [1|1] (2): open ends 6 and 6
    "6|6 0|6 0|1 1|2 0|2 0|3 1|3 1|4 0|4 0|5 1|5 1|6 2|6 2|2 2|3 3|3 3|4 2|4 2|5 3|5 3|6 4|6 4|4 4|5 5|5 5|6"
)
LINE_6_VS_6 = line_layout(  # hands [2|4] (6) and [0|2] [0|4] (6): open ends 1 and 1
    "1|1 1|6 6|6 5|6 5|5 4|5 4|6 3|6 3|5 2|5 2|6 0|6 0|5 1|5 1|4 4|4 3|4 3|3 2|3 2|2 1|2 1|3 0|3 0|0 0|1"
)


def started(config: MatchConfig | None = None, d: Deal = DEAL_AUCTION, now: int = 0, player: int | None = None) -> Match:
    m = Match(config, boot_id="boot-A")
    m.apply(Start(player, d), now)
    return m


def _over(m: Match) -> Outcome:
    """The match's outcome (it must be over)."""
    assert m.outcome is not None
    return m.outcome


def _auction_of(m: Match) -> AuctionView:
    """The auction in progress (there must be one)."""
    view = m.auction()
    assert view is not None
    return view


def _deadline(m: Match) -> int:
    """The running clock's deadline (a clock must run)."""
    deadline = m.deadline_ns()
    assert deadline is not None
    return deadline


# =============================================================================================
# §1-2 tiles and the deal


def test_the_set_is_the_28_double_six_tiles() -> None:
    assert len(ALL_TILES) == 28 and len(set(ALL_TILES)) == 28
    assert T("0|0") in ALL_TILES and T("6|6") in ALL_TILES
    assert all(0 <= t.low <= t.high <= 6 for t in ALL_TILES)
    assert sum(t.low + t.high for t in ALL_TILES) == 168
    assert T("4|1") == T("1|4") == Tile(1, 4) and str(T("4|1")) == "1|4"
    with pytest.raises(UnknownTile):
        T("7|1")


def test_deal_is_7_7_and_a_boneyard_of_14_drawn_in_order() -> None:
    m = started(d=DEAL_DRAW)
    assert m.hand_sizes() == (7, 7) and m.boneyard_count == 14
    assert set(m.hand(0)) == set(DEAL_DRAW.hands[0]) and set(m.hand(1)) == set(DEAL_DRAW.hands[1])
    assert m.to_dict()["boneyard"] == [str(t) for t in DEAL_DRAW.boneyard]


def test_shuffle_deal_gives_valid_deterministic_and_varied_deals() -> None:
    seen = set()
    in_hand0: Counter[Tile] = Counter()
    for seed in range(2000):
        d = shuffle_deal(random.Random(seed))
        assert (len(d.hands[0]), len(d.hands[1]), len(d.boneyard)) == (7, 7, 14)
        assert sorted([*d.hands[0], *d.hands[1], *d.boneyard]) == sorted(ALL_TILES)
        seen.add(d)
        in_hand0.update(d.hands[0])
    assert shuffle_deal(random.Random(7)) == shuffle_deal(random.Random(7))
    assert len(seen) == 2000
    # every tile lands in hand 0 about a quarter of the time (expected 500, sd ~19)
    assert set(in_hand0) == set(ALL_TILES)
    assert all(400 < n < 600 for n in in_hand0.values()), in_hand0


def test_malformed_deals_are_refused() -> None:
    good = DEAL_AUCTION.to_dict()
    with pytest.raises(Malformed):  # a hand of 6
        Deal.from_names([good["hands"][0][:6], good["hands"][1]], good["boneyard"])
    with pytest.raises(Malformed):  # a tile twice, another missing
        Deal.from_names([[*good["hands"][0][:6], good["hands"][1][0]], good["hands"][1]], good["boneyard"])
    with pytest.raises(Malformed):  # three hands
        Deal.from_names([good["hands"][0], good["hands"][1], []], good["boneyard"])
    with pytest.raises(UnknownTile):
        Deal.from_names([[*good["hands"][0][:6], "7|7"], good["hands"][1]], good["boneyard"])
    with pytest.raises(Malformed):  # boneyard of 13
        Deal.from_names(good["hands"], good["boneyard"][:13])
    m = Match()
    refused(m, Start(0, None), 0, NoDeal)
    with pytest.raises(Malformed):  # not a Deal: refused when the command is built
        Start(0, good)  # type: ignore[arg-type]


# =============================================================================================
# §3 who opens


def test_ranked_opening_highest_double_must_open() -> None:
    m = started(d=DEAL_P1_SIXES)
    assert m.phase is Phase.PLAY and m.to_act == 1 and m.opening_tile == T("6|6")
    assert m.legal_actions() == (Play(1, T("6|6"), None),)
    refused(m, Play(1, T("4|4"), None), 0, IllegalPlay)  # another tile of the opener
    refused(m, Play(0, T("5|5"), None), 0, NotYourTurn)  # the other player
    refused(m, Draw(1), 0, CannotDraw)
    m.apply(Play(1, T("6|6"), None), 1 * S)
    assert m.layout.tiles() == [T("6|6")] and m.to_act == 0


def test_ranked_opening_counts_only_the_hands_not_the_boneyard() -> None:
    assert ranked_opener(DEAL_NO_SIX_DOUBLE.hands) == (0, T("5|5"))
    m = started(d=DEAL_NO_SIX_DOUBLE)
    assert m.to_act == 0 and m.legal_actions() == (Play(0, T("5|5"), None),)


def test_ranked_opening_without_doubles_greatest_pip_total() -> None:
    m = started(d=DEAL_NO_DOUBLE)
    assert m.to_act == 0 and m.opening_tile == T("5|6")
    refused(m, Play(1, T("1|3"), None), 1 * S, NotYourTurn)
    refused(m, Play(0, T("0|5"), None), 2 * S, IllegalPlay)
    m.apply(Play(0, T("5|6"), None), 3 * S)
    assert m.end_count == 11 and m.balances == (150, 150)


def test_ranked_opening_tie_goes_to_the_greater_half() -> None:
    # [2|6] beats [3|5] (both 8), whichever player holds it
    assert ranked_opener(DEAL_TIE.hands) == (1, T("2|6"))
    m = started(d=DEAL_TIE)
    assert m.to_act == 1 and m.legal_actions() == (Play(1, T("2|6"), None),)
    swapped = Deal((DEAL_TIE.hands[1], DEAL_TIE.hands[0]), DEAL_TIE.boneyard)
    m = started(d=swapped)
    assert m.to_act == 0 and m.opening_tile == T("2|6")


def test_opening_tile_scores_and_turn_passes_to_the_other_player() -> None:
    # ranked opening [5|5] alone: 10 -> 10 points; then the other player acts
    m = started(d=DEAL_NO_SIX_DOUBLE)
    events = m.apply(Play(0, T("5|5"), None), 1 * S)
    assert transfers(events) == [(1, 0, 10, "score")]
    assert m.to_act == 1 and m.clock_running == 1


# =============================================================================================
# §4 layout and end count: the worked figures


def _layout(*plays: tuple[str, tuple[str, str] | None]) -> tuple[Layout, list[int]]:
    layout = Layout()
    counts = []
    for name, at in plays:
        counts.append(layout.place(T(name), None if at is None else P(*at)))
    return layout, counts


def test_figure_1_4_alone_counts_5() -> None:
    layout, counts = _layout(("1|4", None))
    assert counts == [5]
    assert points_of(layout) == [("1|4", "high", 4), ("1|4", "low", 1)]


def test_figure_1_4_plus_1_1_on_low_counts_6() -> None:
    layout, counts = _layout(("1|4", None), ("1|1", ("1|4", "low")))
    assert counts == [5, 6]
    assert points_of(layout) == [("1|1", "lineB", 1), ("1|4", "high", 4)]
    assert layout.spinner == T("1|1")


def test_figure_3_6_plus_6_6_on_high_counts_15() -> None:
    layout, counts = _layout(("3|6", None), ("6|6", ("3|6", "high")))
    assert counts == [9, 15]
    assert points_of(layout) == [("3|6", "low", 3), ("6|6", "lineB", 6)]


def test_figure_0_0_alone_counts_0_and_moves_nothing() -> None:
    layout, counts = _layout(("0|0", None))
    assert counts == [0]
    assert points_of(layout) == [("0|0", "lineA", 0), ("0|0", "lineB", 0)]
    m = started(MatchConfig(jockey=0), d=deal("0|0 0|1 0|2 0|3 0|4 0|5 0|6", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"))
    m.apply(Decline(1), 1 * S)
    assert m.apply(Play(0, T("0|0"), None), 2 * S) == [] and m.balances == (150, 150)


def test_figure_2_2_alone_counts_4_and_moves_nothing() -> None:
    _, counts = _layout(("2|2", None))
    assert counts == [4]  # an opening double counts both halves once, not four times
    m = started(MatchConfig(jockey=1), d=deal("0|1 0|2 0|3 0|4 0|5 0|6 1|1", "2|2 1|2 1|3 1|4 1|5 1|6 2|3"))
    m.apply(Decline(0), 1 * S)
    assert m.apply(Play(1, T("2|2"), None), 2 * S) == [] and m.balances == (150, 150)
    assert m.end_count == 4


def test_opening_double_alone_counts_twice_its_value_not_four_times() -> None:
    assert _layout(("6|6", None))[1] == [12]
    assert _layout(("5|5", None))[1] == [10]


# The seed-figures chain (Korean/Ukrainian seeds): each play, the end count, the points scored and
# the available points exactly as the Ukrainian seed lists them after each placement.
CHAIN = [
    # player, tile, at, end count, open points after the placement, scoring ends
    (0, "1|4", None, 5, [("1|4", "high", 4), ("1|4", "low", 1)], {"1|4 high": 4, "1|4 low": 1}),
    (1, "1|1", ("1|4", "low"), 6, [("1|1", "lineB", 1), ("1|4", "high", 4)],
     {"1|1 lineB": 2, "1|4 high": 4}),
    (0, "4|4", ("1|4", "high"), 10, [("1|1", "lineB", 1), ("4|4", "lineB", 4)],
     {"1|1 lineB": 2, "4|4 lineB": 8}),
    (1, "3|4", ("4|4", "lineB"), 5, [("1|1", "lineB", 1), ("3|4", "low", 3)],
     {"1|1 lineB": 2, "3|4 low": 3}),
    (0, "1|2", ("1|1", "lineB"), 5,
     [("1|1", "branchA", 1), ("1|1", "branchB", 1), ("1|2", "high", 2), ("3|4", "low", 3)],
     {"1|2 high": 2, "3|4 low": 3}),
    (1, "1|5", ("1|1", "branchA"), 10,
     [("1|1", "branchB", 1), ("1|2", "high", 2), ("1|5", "high", 5), ("3|4", "low", 3)],
     {"1|2 high": 2, "1|5 high": 5, "3|4 low": 3}),
    (0, "5|5", ("1|5", "high"), 15,
     [("1|1", "branchB", 1), ("1|2", "high", 2), ("3|4", "low", 3), ("5|5", "lineB", 5)],
     {"1|2 high": 2, "3|4 low": 3, "5|5 lineB": 10}),
    (1, "0|5", ("5|5", "lineB"), 5,
     [("0|5", "low", 0), ("1|1", "branchB", 1), ("1|2", "high", 2), ("3|4", "low", 3)],
     {"0|5 low": 0, "1|2 high": 2, "3|4 low": 3}),
    (0, "1|3", ("1|1", "branchB"), 8,
     [("0|5", "low", 0), ("1|2", "high", 2), ("1|3", "high", 3), ("3|4", "low", 3)],
     {"0|5 low": 0, "1|2 high": 2, "1|3 high": 3, "3|4 low": 3}),
]


def test_figure_chain_5_0_10_5_5_10_15_5_0() -> None:
    m = started(MatchConfig(jockey=0), d=DEAL_CHAIN)
    m.apply(Decline(1), 1 * S)
    balances = [150, 150]
    scored = []
    now = 1 * S
    for player, name, at, count, points, scoring in CHAIN:
        now += 2 * S
        events = m.apply(Play(player, T(name), None if at is None else P(*at)), now)
        assert m.end_count == count, name
        assert points_of(m.layout) == points, name
        assert {str(p): v for p, v in m.layout.scoring_ends()} == scoring, name
        points_scored = count if count % 5 == 0 else 0
        scored.append(points_scored)
        expected = [(1 - player, player, points_scored, "score")] if points_scored else []
        assert transfers(events) == expected, name
        balances[player] += points_scored
        balances[1 - player] -= points_scored
        assert list(m.balances) == balances
        assert m.to_act == 1 - player  # also after a double and after a score
    assert scored == [5, 0, 10, 5, 5, 10, 15, 5, 0]
    assert m.balances == (165, 135)
    assert m.layout.spinner == T("1|1")


def test_spinner_is_the_first_double_even_when_played_later() -> None:
    layout, _ = _layout(("1|4", None))
    assert layout.spinner is None
    layout.place(T("4|4"), P("1|4", "high"))
    assert layout.spinner == T("4|4")
    layout.place(T("1|1"), P("1|4", "low"))
    assert layout.spinner == T("4|4")  # the later [1|1] does not take over
    layout.place(T("4|5"), P("4|4", "lineB"))
    assert ("4|4", "branchA", 4) in points_of(layout) and ("4|4", "branchB", 4) in points_of(layout)
    layout.place(T("1|2"), P("1|1", "lineB"))
    assert not [pt for pt in points_of(layout) if pt[0] == "1|1"]  # [1|1] never branches


def test_later_doubles_never_branch_and_count_both_halves_at_an_end() -> None:
    layout, counts = _layout(("1|4", None), ("1|1", ("1|4", "low")), ("4|4", ("1|4", "high")))
    assert counts[-1] == 2 + 8  # later double [4|4] exposed: both halves
    count = layout.place(T("3|4"), P("4|4", "lineB"))
    assert count == 2 + 3  # [4|4] covered: it adds nothing more
    assert all(pt[0] != "4|4" for pt in points_of(layout))
    with pytest.raises(IllegalPlay):
        layout.place(T("4|6"), P("4|4", "branchA"))


def test_branches_open_only_after_both_lines_are_occupied() -> None:
    layout, counts = _layout(("6|6", None), ("3|6", ("6|6", "lineA")))
    assert points_of(layout) == [("3|6", "low", 3), ("6|6", "lineB", 6)]
    assert counts == [12, 15]  # spinner still counts both halves while one line is open
    with pytest.raises(IllegalPlay):
        layout.place(T("5|6"), P("6|6", "branchA"))
    assert points_of(layout) == [("3|6", "low", 3), ("6|6", "lineB", 6)]
    count = layout.place(T("5|6"), P("6|6", "lineB"))
    assert points_of(layout) == [("3|6", "low", 3), ("5|6", "low", 5), ("6|6", "branchA", 6), ("6|6", "branchB", 6)]
    assert count == 8  # the two open branches add nothing


def test_open_branch_adds_nothing_a_branch_counts_through_its_tiles() -> None:
    layout, counts = _layout(("6|6", None), ("3|6", ("6|6", "lineA")), ("5|6", ("6|6", "lineB")))
    assert counts[-1] == 3 + 5
    assert layout.place(T("2|6"), P("6|6", "branchA")) == 3 + 5 + 2
    assert layout.place(T("4|6"), P("6|6", "branchB")) == 3 + 5 + 2 + 4


def test_opening_double_first_tile_may_go_on_either_line() -> None:
    for slot, other in (("lineA", "lineB"), ("lineB", "lineA")):
        layout, counts = _layout(("6|6", None), ("3|6", ("6|6", slot)))
        assert counts[-1] == 15
        assert points_of(layout) == [("3|6", "low", 3), ("6|6", other, 6)]
        # the other line is still open: a second tile there opens the branches
        layout.place(T("5|6"), P("6|6", other))
        assert ("6|6", "branchA", 6) in points_of(layout) and ("6|6", "branchB", 6) in points_of(layout)


def test_illegal_placements_are_refused() -> None:
    m = started(MatchConfig(jockey=0), d=DEAL_CHAIN)
    m.apply(Decline(1), 1 * S)
    refused(m, Play(0, T("1|4"), P("1|4", "low")), 2 * S, IllegalPlay)  # opening tile placed on something
    m.apply(Play(0, T("1|4"), None), 2 * S)
    refused(m, Play(1, T("1|1"), None), 3 * S, IllegalPlay)  # no point given
    refused(m, Play(1, T("0|5"), P("1|4", "low")), 3 * S, IllegalPlay)  # does not match
    refused(m, Play(1, T("4|4"), P("1|4", "high")), 3 * S, IllegalPlay)  # not in hand
    refused(m, Play(1, T("1|1"), P("1|1", "lineB")), 3 * S, IllegalPlay)  # no such point
    m.apply(Play(1, T("1|1"), P("1|4", "low")), 3 * S)
    refused(m, Play(0, T("1|2"), P("1|4", "low")), 4 * S, IllegalPlay)  # occupied
    refused(m, Play(0, T("1|2"), P("1|1", "branchA")), 4 * S, IllegalPlay)  # branch not open yet


def test_a_15_moves_15_points_150_150_becomes_165_135() -> None:
    m = started(MatchConfig(jockey=1), d=DEAL_FIFTEEN)
    m.apply(Decline(0), 1 * S)
    assert m.apply(Play(1, T("3|6"), None), 2 * S) == []  # 9: nothing
    events = m.apply(Play(0, T("6|6"), P("3|6", "high")), 3 * S)
    assert transfers(events) == [(1, 0, 15, "score")]
    assert m.balances == (165, 135)


# =============================================================================================
# §1 transfers are capped; reaching 0 loses at once


def test_score_transfer_capped_and_payer_at_zero_loses_at_once() -> None:
    m = started(MatchConfig(jockey=0, balances=(295, 5)), d=DEAL_CAP)
    m.apply(Decline(1), 1 * S)
    events = m.apply(Play(0, T("4|6"), None), 2 * S)  # 10, but player 1 has 5
    assert transfers(events) == [(1, 0, 5, "score")]
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].outcome.winner == 0 and ended[0].outcome.reason is EndReason.BALANCE
    assert ended[0].outcome.rated
    assert m.balances == (300, 0) and m.phase is Phase.MATCH_OVER and m.clock_running is None
    refused(m, Play(1, T("3|6"), P("4|6", "high")), 3 * S, MatchIsOver)


def test_blocked_settlement_capped_and_payer_at_zero_loses() -> None:
    m = _edited(("1|3", "1|4 3|4 3|3"), LINE_4_VS_18, balances=(290, 10))
    m.apply(Pass(0), 1 * S)
    events = m.apply(Pass(1), 2 * S)
    assert transfers(events) == [(1, 0, 10, "blocked")]
    assert m.balances == (300, 0) and m.is_over
    assert _over(m).winner == 0 and _over(m).reason is EndReason.BALANCE


def test_balances_always_sum_to_their_start_total_in_random_matches() -> None:
    for seed in range(6):
        start = (150, 150) if seed % 2 else (40, 260)
        for m, events, _ in _random_match(seed, MatchConfig(balances=start), steps=250):
            assert sum(m.balances) == sum(start) and min(m.balances) >= 0
            for e in events:
                if isinstance(e, Transfer):
                    assert e.points > 0 and e.payer != e.payee


# =============================================================================================
# §5 drawing, passing, domino, blocked


def _draw_position() -> Match:
    m = started(d=DEAL_DRAW)  # ranked: player 0 opens [6|6]; player 1 has no 6
    m.apply(Play(0, T("6|6"), None), 1 * S)
    return m


def test_draw_only_when_nothing_fits() -> None:
    m = started(d=DEAL_CHAIN, config=MatchConfig(jockey=0))
    m.apply(Decline(1), 1 * S)
    m.apply(Play(0, T("1|4"), None), 2 * S)
    refused(m, Draw(1), 3 * S, CannotDraw)  # [1|1], [3|4], [1|5] fit
    refused(m, Pass(1), 3 * S, CannotPass)
    assert Draw(1) not in m.legal_actions()


def test_draw_one_tile_at_a_time_in_boneyard_order() -> None:
    m = _draw_position()
    assert m.legal_actions() == (Draw(1),)
    refused(m, Pass(1), 2 * S, CannotPass)  # the boneyard is not empty
    m.apply(Draw(1), 2 * S)
    assert m.boneyard_count == 13 and T("0|0") in m.hand(1) and len(m.hand(1)) == 8
    assert m.drawn_tile is None and m.legal_actions() == (Draw(1),)
    m.apply(Draw(1), 3 * S)
    assert m.boneyard_count == 12 and T("2|2") in m.hand(1) and m.to_act == 1


def test_a_drawn_tile_that_fits_must_be_played_at_once() -> None:
    m = _draw_position()
    for t in (2, 3, 4):
        m.apply(Draw(1), t * S)
    assert m.drawn_tile == T("5|6") and m.boneyard_count == 11
    assert set(m.legal_actions()) == {Play(1, T("5|6"), P("6|6", "lineA")), Play(1, T("5|6"), P("6|6", "lineB"))}
    refused(m, Play(1, T("0|0"), P("6|6", "lineA")), 5 * S, MustPlayDrawn)  # another (non-fitting) tile
    refused(m, Draw(1), 5 * S, MustPlayDrawn)  # no further draw
    refused(m, Pass(1), 5 * S, MustPlayDrawn)
    m.apply(Play(1, T("5|6"), P("6|6", "lineB")), 6 * S)  # at the point of the player's choice
    assert m.end_count == 12 + 5 and m.to_act == 0 and m.drawn_tile is None


def test_draws_and_the_play_are_one_turn_with_one_delay() -> None:
    m = _draw_position()  # player 1's decision began at 1 s
    deadline = m.deadline_ns()
    assert deadline == 1 * S + DELAY + BANK
    for t in (4, 8, 10):
        m.apply(Draw(1), t * S)
        assert m.decision_started_ns() == 1 * S and m.deadline_ns() == deadline and m.clock_running == 1
    m.apply(Play(1, T("5|6"), P("6|6", "lineA")), 14 * S)  # 13 s after the turn began
    assert m.bank_ns(1, 14 * S) == BANK - 3 * S


def test_pass_only_when_nothing_fits_and_boneyard_empty() -> None:
    m = _edited(("1|3", "1|4 3|4 3|3"), LINE_4_VS_18)
    assert m.boneyard_count == 0 and m.legal_actions() == (Pass(0),)
    refused(m, Draw(0), 1 * S, CannotDraw)
    refused(m, Pass(1), 1 * S, NotYourTurn)
    assert m.apply(Pass(0), 1 * S) == []
    assert m.phase is Phase.PLAY and m.to_act == 1  # one pass does not end the round
    # a hand with a fitting tile and an empty boneyard cannot pass
    others = " ".join(str(t) for t in ALL_TILES if str(t) not in ("0|0", "0|6", "1|3"))
    m2 = _edited(("0|6 1|3", others), [["0|0", None]], boneyard="")
    assert m2.boneyard_count == 0 and _partition_ok(m2)
    refused(m2, Pass(0), 1 * S, CannotPass)
    refused(m2, Draw(0), 1 * S, CannotDraw)


def test_domino_ends_round_after_its_score_no_pip_bonus_dominoer_is_jockey() -> None:
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]])
    events = m.apply(Play(0, T("1|6"), P("1|4", "low")), 2 * S)  # 6 + 4 = 10
    assert transfers(events) == [(1, 0, 10, "score")]  # nothing for player 1's 47 pips
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1 and not ended[0].blocked and ended[0].dominoer == 0 and ended[0].pips == (0, 47)
    assert m.balances == (160, 140)
    assert m.phase is Phase.READY and m.to_act is None and m.jockey == 0 and m.clock_running is None
    assert m.legal_actions() == (Start(),)


def test_after_a_domino_the_next_round_opens_by_auction() -> None:
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]])
    m.apply(Play(0, T("1|6"), P("1|4", "low")), 2 * S)
    m.apply(Start(1, DEAL_P1_SIXES), 3 * S)  # player 1 holds [6|6] but there is no ranked opening
    assert m.phase is Phase.AUCTION and m.to_act == 1 and m.round == 2
    assert _auction_of(m).jockey == 0 and m.opening_tile is None
    m.apply(Decline(1), 4 * S)
    assert m.to_act == 0 and len(m.legal_actions()) == 7  # the jockey opens with any tile
    m.apply(Play(0, T("0|1"), None), 5 * S)
    assert m.jockey is None


@pytest.mark.parametrize(
    "hands, line, lighter, points",
    [
        (("1|3", "1|4 3|4 3|3"), LINE_4_VS_18, 0, 20),  # 4 vs 18 -> 20
        (("2|6 3|6", "2|3"), LINE_17, 1, 15),  # 17 vs 5 -> 15
        (("2|4", "0|2 0|4"), LINE_6_VS_6, None, 0),  # 6 vs 6 -> 0
        (("0|0", "1|1"), LINE_0_VS_2, None, 0),  # 0 vs 2: 2 rounds to 0, a zero transfer: no event
    ],
    ids=["4-vs-18-pays-20", "17-pays-15", "6-vs-6-pays-0", "0-vs-2-rounds-to-0"],
)
def test_blocked_round_lighter_hand_gets_heavier_total_rounded(hands, line, lighter, points) -> None:
    m = _edited(hands, line)
    assert _partition_ok(m) and m.boneyard_count == 0
    assert m.apply(Pass(0), 1 * S) == []
    events = m.apply(Pass(1), 2 * S)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1 and ended[0].blocked and ended[0].dominoer is None
    if lighter is None:
        assert transfers(events) == [] and m.balances == (150, 150)
    else:
        assert transfers(events) == [(1 - lighter, lighter, points, "blocked")]
        assert m.balances[lighter] == 150 + points
    assert m.phase is Phase.READY and m.jockey is None and m.clock_running is None


def test_round_to_nearest_five_examples() -> None:
    assert [round_to_five(n) for n in (18, 17, 6, 12, 13, 0, 2, 3)] == [20, 15, 5, 10, 15, 0, 0, 5]


def test_after_a_blocked_round_the_next_round_opens_by_rank() -> None:
    m = _edited(("1|3", "1|4 3|4 3|3"), LINE_4_VS_18)
    m.apply(Pass(0), 1 * S)
    m.apply(Pass(1), 2 * S)
    m.apply(Start(0, DEAL_P1_SIXES), 3 * S)
    assert m.phase is Phase.PLAY and m.auction() is None and m.jockey is None
    assert m.to_act == 1 and m.legal_actions() == (Play(1, T("6|6"), None),)
    refused(m, Play(1, T("1|4"), None), 4 * S, IllegalPlay)


def test_blocked_round_in_real_play_settles_then_next_round_ranked() -> None:
    """The public blocked-round-settlement scenario, played through."""
    d1 = Deal.from_names(
        [["5|6", "1|3", "1|6", "1|5", "2|2", "1|4", "3|6"], ["4|5", "3|5", "0|0", "1|2", "0|1", "0|2", "0|4"]],
        ["1|1", "0|3", "3|4", "2|4", "4|4", "0|5", "0|6", "3|3", "2|5", "5|5", "6|6", "4|6", "2|6", "2|3"],
    )
    d2 = Deal.from_names(
        [["1|5", "6|6", "2|4", "1|3", "2|2", "5|5", "0|5"], ["1|6", "4|5", "3|5", "3|6", "0|4", "2|6", "0|3"]],
        ["1|2", "4|4", "3|3", "1|4", "2|3", "0|0", "3|4", "1|1", "0|6", "4|6", "0|1", "0|2", "2|5", "5|6"],
    )
    steps = (
        "0 2|2 - -;1 1|2 2|2 lineA;0 1|3 1|2 low;1 3|5 1|3 high;0 5|6 3|5 high;1 0|2 2|2 lineB;"
        "0 1|6 5|6 high;1 0|0 0|2 low;0 1|5 1|6 low;1 4|5 1|5 high;0 1|4 4|5 low;1 0|1 0|0 lineB;"
        "0 D;0 1|1 0|1 high;1 D;1 D;1 D;1 2|4 2|2 branchA;0 D;0 4|4 2|4 high;1 0|4 4|4 lineB;0 D;"
        "0 0|5 0|4 low;1 D;1 D;1 D;1 2|5 0|5 high;0 D;0 D;0 D;0 D;0 2|6 2|2 branchB;1 0|6 2|6 high;"
        "0 D;0 2|3 2|5 low;1 0|3 0|6 low;0 3|6 0|3 high;1 3|4 2|3 high;0 6|6 3|6 high;1 X;"
        "0 4|6 3|4 high;1 X;0 X"
    )
    m = started(d=d1)
    all_events = []
    for i, step in enumerate(steps.split(";")):
        parts = step.split()
        player = int(parts[0])
        now = (i + 1) * S
        action: Action
        if parts[1] == "D":
            action = Draw(player)
        elif parts[1] == "X":
            action = Pass(player)
        else:
            at = None if parts[2] == "-" else P(parts[2], parts[3])
            action = Play(player, T(parts[1]), at)
        all_events += m.apply(action, now)
    assert transfers(all_events) == [
        (0, 1, 5, "score"), (1, 0, 10, "score"), (1, 0, 5, "score"),
        (0, 1, 5, "score"), (0, 1, 5, "score"), (0, 1, 10, "blocked"),
    ]
    assert m.pip_totals() == (10, 6) and m.phase is Phase.READY
    m.apply(Start(None, d2), 50 * S)
    assert m.phase is Phase.PLAY and m.to_act == 0 and m.opening_tile == T("6|6")
    assert m.balances == (140, 160) and m.round == 2


# =============================================================================================
# §6 the auction


def _auction(balances=(150, 150), jockey=0, d=DEAL_AUCTION) -> Match:
    return started(MatchConfig(jockey=jockey, balances=balances), d=d)


def test_auction_non_jockey_acts_first() -> None:
    m = _auction()
    assert m.phase is Phase.AUCTION and m.to_act == 1 and m.clock_running == 1
    refused(m, Bid(0, 15), 1 * S, NotYourTurn)
    refused(m, Decline(0), 1 * S, NotYourTurn)
    refused(m, Play(0, T("0|1"), None), 1 * S, WrongPhase)


def test_auction_legal_actions_decline_or_accept_first_then_bids_ascending() -> None:
    m = _auction()
    legal = m.legal_actions()
    assert legal[0] == Decline(1)
    assert list(legal[1:]) == [Bid(1, a) for a in range(15, 151, 5)]
    m.apply(Bid(1, 15), 1 * S)
    legal = m.legal_actions()
    assert legal[0] == Accept(0)
    assert list(legal[1:]) == [Bid(0, a) for a in range(20, 166, 5)]  # jockey: up to 150 + 15


def test_decline_lets_the_jockey_open_free_with_any_tile() -> None:
    m = _auction()
    assert m.apply(Decline(1), 1 * S) == []
    assert m.balances == (150, 150) and m.phase is Phase.PLAY and m.to_act == 0
    assert set(m.legal_actions()) == {Play(0, t, None) for t in DEAL_AUCTION.hands[0]}
    m.apply(Play(0, T("1|2"), None), 2 * S)  # not the "highest" tile: free choice
    assert m.layout.tiles() == [T("1|2")]


def test_bid_amounts_at_least_15_multiples_of_5_raise_at_least_5() -> None:
    m = _auction()
    refused(m, Bid(1, 10), 1 * S, BadAmount)
    refused(m, Bid(1, 17), 1 * S, BadAmount)
    refused(m, Bid(1, 0), 1 * S, BadAmount)
    m.apply(Bid(1, 15), 1 * S)
    refused(m, Bid(0, 15), 2 * S, BadAmount)  # not a raise
    refused(m, Bid(0, 17), 2 * S, BadAmount)
    m.apply(Bid(0, 25), 2 * S)  # a raise of 10 is fine
    refused(m, Bid(1, 28), 3 * S, BadAmount)
    assert _auction_of(m).bid == 25 and _auction_of(m).bidder == 0


def test_decline_only_as_the_first_auction_action() -> None:
    m = _auction()
    refused(m, Accept(1), 1 * S, WrongPhase)  # nothing to accept yet
    m.apply(Bid(1, 15), 1 * S)
    refused(m, Decline(0), 2 * S, WrongPhase)
    assert Decline(0) not in m.legal_actions()


def test_accepted_bidder_pays_and_opens_with_any_tile() -> None:
    m = _auction()
    m.apply(Bid(1, 25), 1 * S)
    events = m.apply(Accept(0), 2 * S)
    assert transfers(events) == [(1, 0, 25, "auction")]  # non-jockey pays in full
    assert m.balances == (175, 125) and m.phase is Phase.PLAY and m.to_act == 1
    assert set(m.legal_actions()) == {Play(1, t, None) for t in DEAL_AUCTION.hands[1]}
    assert m.jockey is None


def test_non_jockey_pays_the_full_raised_bid() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 1 * S)
    m.apply(Bid(0, 20), 2 * S)
    m.apply(Bid(1, 25), 3 * S)
    events = m.apply(Accept(0), 4 * S)
    assert transfers(events) == [(1, 0, 25, "auction")] and m.to_act == 1


def test_jockey_credit_accepted_20_costs_5_opponent_receives_5() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 2 * S)
    refused(m, Bid(0, 17), 3 * S, BadAmount)
    m.apply(Bid(0, 20), 4 * S)
    refused(m, Accept(0), 5 * S, NotYourTurn)
    refused(m, Decline(1), 6 * S, WrongPhase)
    events = m.apply(Accept(1), 7 * S)
    assert transfers(events) == [(0, 1, 5, "auction")]
    assert m.balances == (145, 155) and m.to_act == 0 and m.jockey is None
    m.apply(Play(0, T("1|6"), None), 9 * S)  # any tile
    assert sum(m.balances) == 300


def test_jockey_credit_only_for_the_jockeys_own_accepted_bid_and_expires() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 1 * S)
    m.apply(Accept(0), 2 * S)  # the non-jockey's 15: full price
    assert m.balances == (165, 135)
    m2 = _auction(jockey=1)
    m2.apply(Bid(0, 15), 1 * S)
    m2.apply(Bid(1, 15 + 5), 2 * S)
    m2.apply(Accept(0), 3 * S)
    assert m2.balances == (155, 145)
    m3 = _auction(jockey=1)
    m3.apply(Bid(0, 15), 1 * S)
    m3.apply(Bid(1, 20), 2 * S)
    m3.apply(Bid(0, 25), 3 * S)
    m3.apply(Bid(1, 30), 4 * S)
    assert transfers(m3.apply(Accept(0), 5 * S)) == [(1, 0, 15, "auction")]  # 30 - 15
    assert m3.jockey is None and m3.auction() is None


def test_auction_view_costs_apply_the_credit_only_to_the_jockey() -> None:
    # A jockey's bid is always a raise (>= 20); a 15 would cost 0, never less.
    m = _auction()
    m.apply(Bid(1, 15), 1 * S)
    view = _auction_of(m)
    assert view.cost(0, 15) == 0 and view.cost(0, 20) == 5 and view.cost(1, 20) == 20
    assert view.max_bid == (165, 150)


def test_unaffordable_bids_are_refused() -> None:
    m = _auction(balances=(150, 150))
    refused(m, Bid(1, 155), 1 * S, Unaffordable)  # non-jockey: 155 > 150
    m.apply(Bid(1, 150), 1 * S)  # all of it: legal
    refused(m, Bid(0, 170), 2 * S, Unaffordable)  # jockey: 170 - 15 = 155 > 150
    m.apply(Bid(0, 165), 2 * S)  # 165 - 15 = 150: legal
    assert m.legal_actions() == (Accept(1),)  # player 1 cannot afford a raise: accept only
    refused(m, Bid(1, 170), 3 * S, Unaffordable)


def test_player_who_cannot_afford_15_can_only_decline() -> None:
    m = _auction(balances=(10, 290), jockey=1)
    assert m.to_act == 0 and m.legal_actions() == (Decline(0),)
    refused(m, Bid(0, 15), 1 * S, Unaffordable)
    m.apply(Decline(0), 1500 * MS)
    assert m.to_act == 1 and m.phase is Phase.PLAY and m.balances == (10, 290)
    m.apply(Play(1, T("1|3"), None), 3 * S)


def test_all_in_payment_loses_at_once_before_the_opening() -> None:
    m = _auction(balances=(20, 280), jockey=1)
    m.apply(Bid(0, 20), 1 * S)
    events = m.apply(Accept(1), 2 * S)
    assert transfers(events) == [(0, 1, 20, "auction")]
    assert m.balances == (0, 300) and m.is_over and m.layout.is_empty
    assert _over(m).winner == 1 and _over(m).reason is EndReason.BALANCE and _over(m).rated
    refused(m, Play(0, T("2|4"), None), 3 * S, MatchIsOver)


def test_jockey_all_in_after_credit_loses_at_once() -> None:
    m = _auction(balances=(5, 295), jockey=0)
    m.apply(Bid(1, 15), 1 * S)
    assert m.legal_actions() == (Accept(0), Bid(0, 20))  # 20 costs 5: all of it
    refused(m, Bid(0, 25), 2 * S, Unaffordable)
    m.apply(Bid(0, 20), 2 * S)
    events = m.apply(Accept(1), 3 * S)
    assert transfers(events) == [(0, 1, 5, "auction")]
    assert m.is_over and _over(m).winner == 1 and m.layout.is_empty


# =============================================================================================
# §7 the match clock


def test_clock_8s_uses_no_bank_13s_uses_3s() -> None:
    m = _auction(d=DEAL_CAP)
    m.apply(Decline(1), 8 * S)
    assert m.bank_ns(1, 8 * S) == BANK
    m.apply(Play(0, T("0|1"), None), 21 * S)  # 13 s
    assert m.bank_ns(0, 21 * S) == BANK - 3 * S
    m.apply(Play(1, T("1|4"), P("0|1", "high")), 45 * S)  # 24 s
    assert m.bank_ns(1, 46 * S) == BANK - 14 * S
    assert m.bank_ns(0, 46 * S) == BANK - 3 * S
    assert m.delay_left_ns(46 * S) == DELAY - 1 * S


def test_clock_bank_is_never_refilled_between_rounds() -> None:
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]], banks=(100 * S, BANK))
    m.apply(Play(0, T("1|6"), P("1|4", "low")), 25 * S)  # 15 s over the delay: domino
    assert m.bank_ns(0, 25 * S) == 85 * S
    m.apply(Start(0, DEAL_AUCTION), 30 * S)
    m.apply(Decline(1), 31 * S)
    assert m.bank_ns(0, 31 * S) == 85 * S
    assert m.deadline_ns() == 31 * S + DELAY + 85 * S


def test_only_one_clock_runs() -> None:
    m = _auction()
    assert m.clock_running == 1
    assert m.bank_ns(0, 100 * S) == BANK  # the waiting player's bank does not move
    assert m.bank_ns(1, 100 * S) == BANK - 90 * S


def test_a_bid_switches_the_clock() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 12 * S)
    assert m.clock_running == 0 and m.decision_started_ns() == 12 * S
    assert m.deadline_ns() == 12 * S + DELAY + BANK
    assert m.bank_ns(1, 50 * S) == BANK - 2 * S  # player 1 was charged and stopped
    m.apply(Bid(0, 20), 14 * S)
    assert m.clock_running == 1 and m.deadline_ns() == 14 * S + DELAY + BANK - 2 * S


def test_accept_and_decline_start_the_openers_clock() -> None:
    m = _auction()
    m.apply(Decline(1), 3 * S)
    assert m.clock_running == 0 and m.decision_started_ns() == 3 * S
    m = _auction()
    m.apply(Bid(1, 15), 3 * S)
    m.apply(Accept(0), 5 * S)
    assert m.clock_running == 1 and m.decision_started_ns() == 5 * S
    assert m.deadline_ns() == 5 * S + DELAY + BANK
    m = _auction()
    m.apply(Bid(1, 15), 3 * S)
    m.apply(Bid(0, 20), 5 * S)
    m.apply(Accept(1), 7 * S)
    assert m.clock_running == 0 and m.decision_started_ns() == 7 * S


def test_clocks_are_stopped_in_the_ready_phase() -> None:
    m = Match()
    assert m.clock_running is None and m.deadline_ns() is None
    assert m.advance(10_000 * S) == [] and not m.is_over
    m.apply(Start(1, DEAL_P1_SIXES), 10_000 * S)  # start late: still a fresh clock
    assert m.deadline_ns() == 10_000 * S + DELAY + BANK
    # after a round ends, nothing runs until Continue
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]])
    m.apply(Play(0, T("1|6"), P("1|4", "low")), 2 * S)
    assert m.clock_running is None and m.deadline_ns() is None
    assert m.advance(5_000 * S) == [] and m.bank_ns(0, 5_000 * S) == BANK and m.bank_ns(1, 5_000 * S) == BANK


def test_clocks_are_stopped_in_the_handover_until_reveal() -> None:
    m = started(MatchConfig(handover=True), d=DEAL_P1_SIXES)
    assert m.phase is Phase.HANDOVER and m.to_act == 1 and m.clock_running is None
    assert m.legal_actions() == (Reveal(1),)
    refused(m, Play(1, T("6|6"), None), 1 * S, WrongPhase)
    refused(m, Reveal(0), 1 * S, NotYourTurn)
    assert m.advance(1_000 * S) == []
    m.apply(Reveal(1), 1_000 * S)
    assert m.phase is Phase.PLAY and m.clock_running == 1 and m.deadline_ns() == 1_000 * S + DELAY + BANK
    m.apply(Play(1, T("6|6"), None), 1_015 * S)
    assert m.phase is Phase.HANDOVER and m.to_act == 0 and m.clock_running is None
    assert m.bank_ns(1, 2_000 * S) == BANK - 5 * S and m.bank_ns(0, 2_000 * S) == BANK
    m.apply(Reveal(0), 2_000 * S)
    assert m.clock_running == 0 and m.decision_started_ns() == 2_000 * S


def test_handover_draw_keeps_the_same_player_without_handover() -> None:
    m = started(MatchConfig(handover=True), d=DEAL_DRAW)
    m.apply(Reveal(0), 0)
    m.apply(Play(0, T("6|6"), None), 1 * S)
    m.apply(Reveal(1), 2 * S)
    m.apply(Draw(1), 3 * S)
    assert m.phase is Phase.PLAY and m.clock_running == 1 and m.decision_started_ns() == 2 * S


def test_command_1ns_before_the_deadline_counts() -> None:
    m = started(d=DEAL_P1_SIXES)
    deadline = m.deadline_ns()
    assert deadline == DELAY + BANK
    m.apply(Play(1, T("6|6"), None), deadline - 1)
    assert not m.is_over and m.bank_ns(1, deadline) == 1


def test_command_exactly_at_the_deadline_loses_on_time() -> None:
    m = started(d=DEAL_P1_SIXES)
    deadline = _deadline(m)
    with pytest.raises(MatchIsOver) as info:
        m.apply(Play(1, T("6|6"), None), deadline)
    assert info.value.code == "match_over"
    assert m.is_over and _over(m).winner == 0 and _over(m).reason is EndReason.TIME and _over(m).rated
    assert m.bank_ns(1, deadline + 5 * S) == 0 and m.layout.is_empty and m.clock_running is None


def test_advance_flags_at_the_deadline() -> None:
    m = _auction()
    deadline = _deadline(m)
    assert m.advance(deadline - 1) == [] and not m.is_over
    events = m.advance(deadline + 7 * S)
    assert events == [MatchEnded(_over(m), deadline)]
    assert _over(m).winner == 0 and _over(m).reason is EndReason.TIME
    assert m.bank_ns(1, deadline + 7 * S) == 0 and m.bank_ns(0, deadline) == BANK
    assert m.advance(deadline + 8 * S) == []


def test_resign_charges_the_running_clock() -> None:
    m = _auction()  # player 1's clock runs from 0
    events = m.apply(Resign(1), 25 * S)
    assert _over(m).winner == 0 and _over(m).reason is EndReason.RESIGN and _over(m).rated
    assert [e for e in events if isinstance(e, MatchEnded)] == [MatchEnded(_over(m), 25 * S)]
    assert m.bank_ns(1, 30 * S) == BANK - 15 * S
    m = _auction()
    m.apply(Resign(0), 25 * S)  # the waiting player resigns: the running clock is still charged
    assert _over(m).winner == 1 and m.bank_ns(1, 30 * S) == BANK - 15 * S and m.bank_ns(0, 30 * S) == BANK


def test_nothing_pauses_a_running_clock_reading_state_or_refusals() -> None:
    m = _auction()
    deadline = m.deadline_ns()
    for t in range(1, 20):
        now = t * S
        m.legal_actions()
        m.to_dict()
        m.auction()
        m.bank_ns(1, now)
        m.delay_left_ns(now)
        assert m.advance(now) == []
        with pytest.raises(BadAmount):
            m.apply(Bid(1, 12), now)
    assert m.deadline_ns() == deadline and m.decision_started_ns() == 0
    m.apply(Decline(1), 23 * S)
    assert m.bank_ns(1, 23 * S) == BANK - 13 * S


# =============================================================================================
# §7 restarts and snapshots


def test_restart_same_boot_continues_and_charges_downtime() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 5 * S)  # player 0's clock from 5 s
    text = save_text(m)
    m2, events = restore_text(text, boot_id="boot-A", now_ns=40 * S)
    assert events == [] and m2.clock_running == 0 and m2.deadline_ns() == 5 * S + DELAY + BANK
    assert m2.bank_ns(0, 40 * S) == BANK - 25 * S
    m2.apply(Accept(0), 41 * S)
    assert m2.bank_ns(0, 41 * S) == BANK - 26 * S and m2.balances == (165, 135)


def test_restart_same_boot_past_the_deadline_loses_on_time() -> None:
    m = _auction()
    m2, events = Match.restore(m.to_dict(), boot_id="boot-A", now_ns=500 * S)
    assert [type(e) for e in events] == [MatchEnded]
    assert events[0].at_ns == DELAY + BANK
    assert _over(m2).winner == 0 and _over(m2).reason is EndReason.TIME and m2.bank_ns(1, 500 * S) == 0


def test_restart_other_boot_with_running_clock_aborts_unrated() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 5 * S)
    m2, events = restore_text(save_text(m), boot_id="boot-B", now_ns=500 * S)
    assert [type(e) for e in events] == [MatchEnded]
    assert m2.is_over and _over(m2).winner is None and _over(m2).reason is EndReason.ABORTED
    assert not _over(m2).rated
    assert m2.bank_ns(0, 10_000 * S) == BANK and m2.bank_ns(1, 10_000 * S) == BANK  # not charged
    refused(m2, Accept(0), 600 * S, MatchIsOver)
    refused(m2, Resign(1), 600 * S, MatchIsOver)


def test_after_a_reboot_abort_new_boot_commands_are_refused_as_match_over() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 5 * S)
    m2, _ = restore_text(save_text(m), boot_id="boot-B", now_ns=2 * S)
    assert _over(m2).reason is EndReason.ABORTED
    refused(m2, Accept(0), 3 * S, MatchIsOver)


def test_restart_with_clock_going_backwards_aborts() -> None:
    m = _auction()
    m.apply(Bid(1, 15), 50 * S)
    m2, _ = Match.restore(m.to_dict(), boot_id="boot-A", now_ns=10 * S)
    assert _over(m2).reason is EndReason.ABORTED and _over(m2).winner is None and not _over(m2).rated


def test_restart_other_boot_without_running_clock_continues() -> None:
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]], started_ns=895 * S)
    m.apply(Play(0, T("1|6"), P("1|4", "low")), 900 * S)  # domino: ready phase, no clock
    before = m.to_dict()
    m2, events = restore_text(save_text(m), boot_id="boot-B", now_ns=1 * S)
    assert events == [] and not m2.is_over and m2.phase is Phase.READY
    assert m2.balances == m.balances and m2.jockey == 0 and m2.to_dict()["clock"] == before["clock"]
    m2.apply(Start(1, DEAL_AUCTION), 2 * S)  # the new boot's clock starts low again
    assert m2.phase is Phase.AUCTION and m2.deadline_ns() == 2 * S + DELAY + BANK
    # also in a hand-over (clocks stopped)
    h = started(MatchConfig(handover=True), d=DEAL_P1_SIXES, now=700 * S)
    h2, events = Match.restore(h.to_dict(), boot_id="boot-C", now_ns=3 * S)
    assert events == [] and h2.phase is Phase.HANDOVER
    h2.apply(Reveal(1), 4 * S)
    assert h2.clock_running == 1


def test_abort_charges_nothing_and_ends_unrated() -> None:
    m = _auction()
    events = m.abort(60 * S, "test stall")
    assert [type(e) for e in events] == [MatchEnded]
    assert _over(m).winner is None and _over(m).reason is EndReason.ABORTED and not _over(m).rated
    assert m.bank_ns(1, 60 * S) == BANK
    assert m.abort(61 * S, "again") == []


def test_to_dict_from_dict_round_trip_is_exact_throughout_games() -> None:
    checked = 0
    for seed in range(1, 6):
        config = MatchConfig(handover=bool(seed % 2))
        pending = None
        for m, events, nxt in _random_match(seed, config, steps=200, peek=True):
            data = m.to_dict()
            if pending is not None:  # the copy made before the last action continued exactly alike
                twin, twin_events = pending
                assert twin_events == events and twin.to_dict() == data
                checked += 1
            twin = Match.from_dict(json.loads(json.dumps(data)))
            assert twin.to_dict() == data
            assert twin.legal_actions() == m.legal_actions()
            via_text, restored = restore_text(save_text(m), boot_id=m.boot_id, now_ns=m.last_command_ns or 0)
            assert restored == [] and via_text.to_dict() == data
            pending = None
            if nxt is not None:
                action, now = nxt
                pending = (twin, twin.apply(action, now))
    assert checked > 600


def test_damaged_snapshot_raises_snapshot_error() -> None:
    m = _auction()
    m.apply(Decline(1), 1 * S)
    m.apply(Play(0, T("1|2"), None), 2 * S)
    good = m.to_dict()
    with pytest.raises(SnapshotError):
        restore_text("{not json", boot_id="boot-A", now_ns=3 * S)
    with pytest.raises(SnapshotError):
        restore_text("[1, 2]", boot_id="boot-A", now_ns=3 * S)
    def pop_hands(d: dict) -> None:
        del d["hands"]

    def tile_twice(d: dict) -> None:
        d["hands"][0][0] = d["hands"][1][0]

    damages = [
        pop_hands,
        tile_twice,
        lambda d: d.update(balances=[150, 151]),
        lambda d: d["layout"].append(["5|5", ["1|2", "low"]]),  # an impossible placement
        lambda d: d.update(phase="coffee"),
        lambda d: d.update(version=99),
        lambda d: d["hands"][1].__setitem__(0, "9|9"),
    ]
    damaged = []
    for damage in damages:
        d = copy.deepcopy(good)
        damage(d)
        damaged.append(d)
    for bad in damaged:
        with pytest.raises(SnapshotError) as info:
            Match.restore(bad, boot_id="boot-A", now_ns=3 * S)
        assert isinstance(info.value, ValueError)
    assert issubclass(SnapshotError, ValueError)


# =============================================================================================
# §8 who may act


def test_only_the_player_to_act_can_act_in_random_matches() -> None:
    for seed in range(3):
        for m, _, nxt in _random_match(seed, MatchConfig(), steps=150, peek=True):
            if nxt is None:
                continue
            action, now = nxt
            if isinstance(action, (Start, Resign)):
                continue
            refused(m, dataclasses.replace(action, player=1 - action.player), now, NotYourTurn)


def test_either_player_may_start_and_continue() -> None:
    for who in (0, 1, None):
        m = Match()
        m.apply(Start(who, DEAL_P1_SIXES), 0)
        assert m.phase is Phase.PLAY and m.round == 1
    m = _edited(("1|6", "0|0 2|2 3|3 5|5 6|6 2|5 3|5"), [["1|4", None]])
    m.apply(Play(0, T("1|6"), P("1|4", "low")), 1 * S)
    m.apply(Start(1, DEAL_AUCTION), 2 * S)  # the loser presses Continue
    assert m.round == 2
    refused(m, Start(0, DEAL_AUCTION), 3 * S, WrongPhase)  # not between rounds


def test_either_player_may_resign_at_any_time() -> None:
    m = Match()
    m.apply(Resign(0), 0)  # even before the first Start
    assert _over(m).winner == 1 and _over(m).reason is EndReason.RESIGN
    m = _auction()
    m.apply(Decline(1), 1 * S)
    m.apply(Resign(1), 2 * S)  # not player 1's turn
    assert _over(m).winner == 0
    m = started(MatchConfig(handover=True), d=DEAL_P1_SIXES)
    m.apply(Resign(0), 1 * S)  # during a hand-over
    assert _over(m).winner == 1


def test_everything_after_match_over_is_refused() -> None:
    m = _auction()
    m.apply(Resign(0), 1 * S)
    for action in (Start(0, DEAL_AUCTION), Bid(1, 15), Decline(1), Accept(0), Resign(1), Resign(0),
                   Play(1, T("2|3"), None), Draw(1), Pass(1), Reveal(1)):
        refused(m, action, 2 * S, MatchIsOver)
    assert m.legal_actions() == ()


# =============================================================================================
# random matches driver


def _random_match(seed: int, config: MatchConfig, steps: int, peek: bool = False):
    """Play legal actions chosen by ``random.Random(seed)``; yield (match, last events, next action).

    With ``peek`` the next action is chosen before yielding so a test can try it on a copy; the
    match is left untouched by the consumer (the driver applies the action itself afterwards).
    """
    rng = random.Random(seed)
    m = Match(config, boot_id="boot-R")
    now = 0
    events: list = []
    for _ in range(steps):
        if m.is_over:
            yield m, events, None
            return
        legal = m.legal_actions()
        action = rng.choice(legal)
        if isinstance(action, Start):
            action = Start(rng.choice((0, 1, None)), shuffle_deal(rng))
        elif isinstance(action, Bid) and rng.random() < 0.9:  # keep bids modest most of the time
            action = rng.choice(legal[:3])
        quick = isinstance(action, Draw) or m.drawn_tile is not None
        now += rng.randrange(0, 1_000 if quick else 11_500) * MS
        if rng.random() < 0.002:
            action = Resign(rng.randrange(2))
        yield m, events, ((action, now) if peek else None)
        before_draw = m.boneyard_count
        events = m.apply(action, now)
        if isinstance(action, Draw):
            assert m.boneyard_count == before_draw - 1
        if m.round > 0:
            assert _partition_ok(m)
    yield m, events, None


def test_must_pass_is_the_play_turn_that_has_only_a_pass_also_seen_from_its_hand_over() -> None:
    """In play it is exactly ``legal_actions() == (Pass,)``; in the hand-over before a turn of play it
    tells the same before the reveal (the kiosk passes then without one)."""
    import random as _random

    from engine import Match, MatchConfig, Pass, Phase, Reveal, Start, shuffle_deal

    seen_play = seen_handover = 0
    for seed in range(40):
        rng = _random.Random(seed)
        m = Match(MatchConfig(handover=True))
        while not m.is_over:
            legal = m.legal_actions()
            player = m.to_act
            if m.phase is Phase.PLAY:
                assert player is not None
                assert m.must_pass() == (legal == (Pass(player),))
                seen_play += m.must_pass()
            elif m.phase is Phase.HANDOVER and m.pending_phase is Phase.PLAY and m.must_pass():
                assert player is not None
                m.apply(Reveal(player), 0)
                assert m.legal_actions() == (Pass(player),)
                seen_handover += 1
                continue
            else:
                assert not m.must_pass()
            action = rng.choice(legal)
            if isinstance(action, Start):
                action = Start(None, shuffle_deal(rng))
            m.apply(action, 0)
    assert seen_play and seen_handover
