"""Every error the engine raises is structured: a known template, params that fill it, the English message.

Random matches try illegal commands of every kind at every step (and abort, restart, run out of
time); a list of malformed requests, tile names, snapshots and scenario files covers the rest.
Every template of ``engine.errors.MESSAGES`` must be met at least once, so the tuple holds no
template the engine cannot raise, and every raised template must be in it.
"""

from __future__ import annotations

import ast
import copy
import json
import pickle
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import (
    ALL_TILES,
    NS_PER_MS,
    NS_PER_S,
    Accept,
    Bid,
    Deal,
    Decline,
    Draw,
    EndReason,
    EngineError,
    IllegalAction,
    Layout,
    Malformed,
    Match,
    MatchConfig,
    MatchIsOver,
    Pass,
    Phase,
    Play,
    PlayerView,
    Point,
    Resign,
    Reveal,
    Slot,
    SnapshotError,
    Start,
    Tile,
    UnknownTile,
    ranked_opener,
    shuffle_deal,
)
from engine import errors as E
from engine.bots import choose
from engine.bots.knowledge import match_from_view
from engine.errors import DIAGNOSTICS, MESSAGES, REFUSALS, ScenarioError
from engine.events import ABORT_REASONS, RESTARTED_WHILE_RUNNING
from engine.replay import replay_file
from engine.scenario import parse_scenario, step_action
from engine.snapshot import restore_text, save_text

ENGINE = Path(E.__file__).resolve().parent

CATALOG_SENTENCES = (
    "It is the other player's turn.",
    "The other player is the one to reveal their hand.",
    "The player to act must reveal their hand first.",
    "That is not possible now: the match is in its {phase} phase.",
    "Start / Continue is only possible between rounds.",
    "There is no hand-over to finish: the player to act can already see their hand.",
    "[{tile}] is not in your hand.",
    "You drew [{tile}], which fits: it must be played now.",
    "This round opens by rank: it must open with [{tile}].",
    "[{tile}] does not match the {value} at {point}.",
    "That is not an open connection point.",
    "Say where [{tile}] goes: the layout is already open.",
    "[{tile}] opens the layout: it is not placed on another tile.",
    "The boneyard is empty: pass instead.",
    "Draw from the boneyard first: pass only when it is empty.",
    "Declining is only possible as the first auction action: accept or raise.",
    "There is no bid to accept: bid or decline.",
    "Bids are multiples of 5 and the smallest bid now is {least}, not {amount}.",
    "A bid of {amount} would cost {cost} points and you have {balance}.",
    "The match is over ({reason}).",
    "The match was aborted: nothing more can be played.",
    "You cannot draw now.",
    "You cannot pass now.",
)
"""The message ids the kiosk's translation catalogs hold for the engine's refusals."""

PHASES = {p.value for p in Phase}
END_REASONS = {r.value for r in EndReason}
ALL_POINTS = [Point(t, s) for t in ALL_TILES for s in Slot]


def check_structured(error: EngineError) -> None:
    """``error`` has a known template, params that fill it, and its English message."""
    assert error.template in MESSAGES, f"{type(error).__name__} with an unlisted template: {error.template!r}"
    assert error.message == error.template.format(**error.params) == str(error)
    assert error.code == type(error).code
    if error.template in REFUSALS:  # what a player reads: raw values of known kinds only
        for name, value in error.params.items():
            if name == "phase":
                assert value in PHASES
            elif name == "reason":
                assert value in END_REASONS
            elif name == "tile":
                assert type(value) is Tile and value in ALL_TILES
            elif name == "point":
                assert type(value) is Point and value in ALL_POINTS
            else:
                assert type(value) is int, (name, value)


# -- the templates themselves -------------------------------------------------------------------


def test_the_refusals_are_the_catalogs_sentences_marked_for_translation() -> None:
    assert set(CATALOG_SENTENCES) == set(REFUSALS) and len(REFUSALS) == len(set(REFUSALS))
    assert MESSAGES == REFUSALS + DIAGNOSTICS and len(set(MESSAGES)) == len(MESSAGES)
    marked: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
                assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), ast.unparse(node)
                assert isinstance(node.args[0].value, str)
                marked.add(node.args[0].value)
    assert marked == set(REFUSALS) | set(ABORT_REASONS), "exactly what a player meets is marked with N_"
    assert E.N_("x {y}") == "x {y}"


def test_errors_keep_template_and_params_through_pickle_and_copy() -> None:
    error = IllegalAction(E.NO_MATCH, tile=Tile(1, 4), value=6, point=Point(Tile(3, 6), Slot.HIGH))
    assert error.message == "[1|4] does not match the 6 at 3|6 high." == str(error)
    assert error.args == (error.message,) and isinstance(error, ValueError)
    braces = Malformed(E.NOT_A_COMMAND, action={"do": "dance"})  # a message with braces in it
    for original in (error, braces, MatchIsOver(E.MATCH_OVER, reason="time")):
        for twin in (pickle.loads(pickle.dumps(original)), copy.copy(original), copy.deepcopy(original)):
            assert type(twin) is type(original)
            assert (twin.template, twin.params, twin.message) == (original.template, original.params, original.message)
    # a plain message still works (a template without placeholders is its own sentence)
    assert IllegalAction("Something new.").message == "Something new." and IllegalAction("x").params == {}


# -- random matches with illegal commands at every step ---------------------------------------------


def _candidates(m: Match, rng: random.Random, deal: Deal) -> Iterator[Any]:
    """Commands of every kind for both players, most of them illegal now."""
    hands = [m.hand(0), m.hand(1)]
    open_points = [p for p, _ in m.layout.open_points()]
    for player in (0, 1):
        yield Draw(player)
        yield Pass(player)
        yield Decline(player)
        yield Accept(player)
        yield Reveal(player)
        yield Start(player, None)
        yield Start(player, deal)
        yield Bid(player, rng.choice([0, 5, 12, 15, 20, 25, 40, 95, 150, 155, 165, 300, 400]))
        pool = list(hands[player]) or list(ALL_TILES)
        tile = rng.choice(pool)
        yield Play(player, tile, None)
        yield Play(player, rng.choice(ALL_TILES), None)
        if open_points:
            yield Play(player, tile, rng.choice(open_points))
        yield Play(player, tile, rng.choice(ALL_POINTS))
        yield Play(player, rng.choice(ALL_TILES), rng.choice(ALL_POINTS))
        if m.is_over:
            yield Resign(player)


def _try_illegal(m: Match, rng: random.Random, now: int, seen: set[str]) -> None:
    deal = shuffle_deal(rng)
    before = m.to_dict()
    for action in _candidates(m, rng, deal):
        if m.is_legal(action) or (isinstance(action, Resign) and not m.is_over):
            continue
        with pytest.raises(IllegalAction) as info:
            m.apply(action, now)
        error = info.value
        check_structured(error)
        if not isinstance(action, Start) or action.deal is not None:
            # a well-formed command arriving in order: the refusal is one a player can read
            assert error.template in REFUSALS, (action, error.template)
        seen.add(error.template)
    assert m.to_dict() == before


def _random_matches(count: int, seen: set[str]) -> None:
    rng = random.Random(20261130)
    for _ in range(count):
        balance0 = rng.choice([5, 10, 20, 150, 280, 295])
        config = MatchConfig(
            balances=(balance0, 300 - balance0),
            bank_ns=(rng.randint(20, 120) * NS_PER_S,) * 2,
            handover=rng.random() < 0.4,
            jockey=rng.choice([None, 0, 1]),
        )
        m = Match(config, boot_id="boot-A")
        now = 0
        for _ in range(400):
            if m.is_over:
                _try_illegal(m, rng, now, seen)
                break
            roll = rng.random()
            if roll < 0.003:
                m.abort(now, "test")
                continue
            if roll < 0.01:
                m, _ = restore_text(save_text(m), boot_id="boot-A", now_ns=now)
            if rng.random() < 0.5:
                _try_illegal(m, rng, now, seen)
            legal = m.legal_actions()
            action = rng.choice(legal)
            if isinstance(action, Start):
                action = Start(rng.choice([0, 1, None]), shuffle_deal(rng))
            elif isinstance(action, Bid) and rng.random() < 0.8:
                action = rng.choice(legal[:3])
            now += rng.randrange(0, 12_000) * NS_PER_MS
            if rng.random() < 0.01:
                now += 200 * NS_PER_S  # past the deadline: flagged, then refused as over
            try:
                m.apply(action, now)
            except MatchIsOver as error:
                check_structured(error)
                seen.add(error.template)


# -- everything that is not a player's command ----------------------------------------------------

T = Tile.parse
GOOD_DEAL = shuffle_deal(random.Random(5))
HANDS = [[str(t) for t in GOOD_DEAL.hands[0]], [str(t) for t in GOOD_DEAL.hands[1]]]
BONEYARD = [str(t) for t in GOOD_DEAL.boneyard]


def _snapshot(**changes: Any) -> dict[str, Any]:
    m = Match(boot_id="boot-A")
    m.apply(Start(0, GOOD_DEAL), 0)
    data = m.to_dict()
    data.update(changes)
    return data


def _scenario_file(tmp: Path, text: str) -> dict[str, Any]:
    path = tmp / "scenario.json"
    path.write_text(text)
    return replay_file(str(path))


def _started() -> Match:
    m = Match()
    m.apply(Start(0, GOOD_DEAL), 10)
    return m


MALFORMED: list[tuple[str, Callable[[Path], object]]] = [
    ("tile name", lambda tmp: T("7|1")),
    ("tile name not a string", lambda tmp: T(14)),  # type: ignore[arg-type]
    ("tile name bracket", lambda tmp: T("[1|4")),
    ("tile not one of 28", lambda tmp: T(Tile(4, 1))),
    ("play of no tile", lambda tmp: Play(0, Tile(7, 7))),
    ("layout check", lambda tmp: Layout().check(Tile(9, 9), None)),
    ("slot", lambda tmp: Point.parse("1|4", "middle")),
    ("player 2", lambda tmp: Draw(2)),
    ("player True", lambda tmp: Accept(True)),
    ("player text", lambda tmp: Play("0", T("1|4")),),  # type: ignore[arg-type]
    ("starter", lambda tmp: Start(2)),
    ("start deal", lambda tmp: Start(0, "deal")),  # type: ignore[arg-type]
    ("play tuple", lambda tmp: Play(0, (1, 4))),  # type: ignore[arg-type]
    ("play point tuple", lambda tmp: Play(0, T("1|4"), (T("1|4"), Slot.LOW))),  # type: ignore[arg-type]
    ("play point str slot", lambda tmp: Play(0, T("1|4"), Point(T("1|4"), "low"))),  # type: ignore[arg-type]
    ("play point unknown tile", lambda tmp: Play(0, T("1|4"), Point(Tile(4, 1), Slot.LOW))),
    ("bid float", lambda tmp: Bid(0, 15.0)),  # type: ignore[arg-type]
    ("bid text", lambda tmp: Bid(1, "15")),  # type: ignore[arg-type]
    ("time float", lambda tmp: _started().apply(Resign(0), 1.5)),  # type: ignore[arg-type]
    ("time order", lambda tmp: _started().apply(Resign(0), 5)),
    ("not a command", lambda tmp: Match().apply("draw", 0)),  # type: ignore[arg-type]
    ("no deal", lambda tmp: Match().apply(Start(0), 0)),
    ("no tiles", lambda tmp: ranked_opener(([], []))),
    ("config balances", lambda tmp: MatchConfig(balances=(0, 150))),
    ("config delay", lambda tmp: MatchConfig(delay_ns=-1)),
    ("config jockey", lambda tmp: MatchConfig(jockey=2)),
    ("config handover", lambda tmp: MatchConfig(handover=1)),  # type: ignore[arg-type]
    ("deal sizes", lambda tmp: Deal.from_names([HANDS[0][:6], HANDS[1]], BONEYARD)),
    ("deal tiles", lambda tmp: Deal.from_names([[*HANDS[0][:6], HANDS[1][0]], HANDS[1]], BONEYARD)),
    ("deal tile type", lambda tmp: Deal(((*GOOD_DEAL.hands[0][:6], (0, 0)), GOOD_DEAL.hands[1]), GOOD_DEAL.boneyard)),  # type: ignore[arg-type]
    ("deal permutation", lambda tmp: Deal.from_indices([0] * 28)),
    ("deal hands", lambda tmp: Deal.from_names([HANDS[0], HANDS[1], []], BONEYARD)),
    ("deal data", lambda tmp: Deal.from_dict("deal")),
    ("step at", lambda tmp: step_action({"do": "play", "player": 0, "tile": "1|4", "at": "1|4 low"}, Match(), ())),
    ("snapshot version", lambda tmp: Match.from_dict(_snapshot(version=99))),
    ("snapshot damaged", lambda tmp: Match.from_dict(_snapshot(phase="coffee"))),
    ("snapshot tiles", lambda tmp: Match.from_dict(_snapshot(boneyard=BONEYARD[1:]))),
    ("snapshot balances", lambda tmp: Match.from_dict(_snapshot(balances=[150, 151]))),
    ("snapshot json", lambda tmp: restore_text("{no", boot_id="b", now_ns=0)),
    ("snapshot object", lambda tmp: restore_text("[]", boot_id="b", now_ns=0)),
    ("scenario json", lambda tmp: _scenario_file(tmp, "{no")),
    ("scenario object", lambda tmp: parse_scenario([])),
    ("scenario config object", lambda tmp: parse_scenario({"config": [], "steps": []})),
    ("scenario config keys", lambda tmp: parse_scenario({"config": {"colour": 1}, "steps": []})),
    ("scenario bank list", lambda tmp: parse_scenario({"config": {"bank_ms": 5}, "steps": []})),
    ("scenario ms", lambda tmp: parse_scenario({"config": {"delay_ms": "ten"}, "steps": []})),
    ("scenario config", lambda tmp: parse_scenario({"config": {"jockey": 3}, "steps": []})),
    ("scenario deals list", lambda tmp: parse_scenario({"deals": {}, "steps": []})),
    ("scenario deal", lambda tmp: parse_scenario({"deals": [{"hands": [[], []], "boneyard": []}], "steps": []})),
    ("scenario steps", lambda tmp: parse_scenario({"steps": {}})),
    ("scenario step object", lambda tmp: parse_scenario({"steps": [1]})),
    ("scenario do", lambda tmp: parse_scenario({"steps": [{"t": 0, "do": "dance"}]})),
    ("scenario backwards", lambda tmp: parse_scenario({"steps": [{"t": 5, "do": "tick"}, {"t": 4, "do": "tick"}]})),
    ("scenario balances list", lambda tmp: parse_scenario({"config": {"balances": [1]}, "steps": []})),
    ("view fill", lambda tmp: match_from_view(_started_view(), [], [])),
    ("bot nothing to decide", lambda tmp: choose(PlayerView.of(Match(), 0, 0), 2, random.Random(1))),
    ("bot level", lambda tmp: choose(_started_view(), 5, random.Random(1))),
]


def _started_view() -> PlayerView:
    """Player 0's view of a fresh round of GOOD_DEAL."""
    m = Match()
    m.apply(Start(0, GOOD_DEAL), 0)
    return PlayerView.of(m, 0, 0)


@pytest.mark.parametrize("what, attempt", MALFORMED, ids=[w for w, _ in MALFORMED])
def test_malformed_requests_raise_structured_diagnostics(what: str, attempt: Callable[[Path], object], tmp_path: Path) -> None:
    with pytest.raises(EngineError) as info:
        attempt(tmp_path)
    check_structured(info.value)
    assert info.value.template in DIAGNOSTICS


@pytest.mark.slow
def test_every_raised_error_is_structured_and_every_template_can_be_raised(tmp_path: Path) -> None:
    seen: set[str] = set()
    _random_matches(200, seen)
    assert seen <= {*REFUSALS, E.NO_DEAL}  # NoDeal: the Start without a deal that legal_actions lists
    assert set(REFUSALS) - seen == set(), "random play met every refusal a player can meet"
    for _, attempt in MALFORMED:
        try:
            attempt(tmp_path)
        except EngineError as error:
            check_structured(error)
            seen.add(error.template)
    assert set(MESSAGES) - seen == set(), "MESSAGES lists only templates the engine raises"


def test_refusal_params_are_the_raw_values() -> None:
    m = Match(MatchConfig(balances=(20, 280), jockey=1), boot_id="b")
    m.apply(Start(0, GOOD_DEAL), 0)
    with pytest.raises(IllegalAction) as info:
        m.apply(Bid(0, 12), 1)
    assert info.value.params == {"least": 15, "amount": 12}
    assert info.value.message == "Bids are multiples of 5 and the smallest bid now is 15, not 12."
    with pytest.raises(IllegalAction) as info:
        m.apply(Bid(0, 25), 2)
    assert info.value.params == {"amount": 25, "cost": 25, "balance": 20}
    with pytest.raises(IllegalAction) as info:
        m.apply(Draw(0), 3)
    assert info.value.params == {"phase": "auction"} and info.value.template == E.WRONG_PHASE
    m.apply(Resign(1), 4)
    with pytest.raises(MatchIsOver) as info:
        m.apply(Draw(0), 5)
    assert info.value.params == {"reason": "resign"} and info.value.message == "The match is over (resign)."
    with pytest.raises(UnknownTile) as tile_info:
        T("8|8")
    assert tile_info.value.params == {"name": "8|8"} and tile_info.value.code == "unknown_tile"
    with pytest.raises(SnapshotError) as snap_info:
        restore_text("[]", boot_id="b", now_ns=0)
    assert snap_info.value.params == {} and snap_info.value.code == "bad_snapshot"


def test_scenario_errors_name_the_problem() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"deals": [json.loads('{"hands": [["1|4"], []], "boneyard": []}')], "steps": []})
    assert info.value.message.startswith("deals[0]: A deal needs hands of 7 and 7 tiles")
    assert info.value.params["index"] == 0 and isinstance(info.value, ValueError)


def test_an_abort_keeps_its_reason_as_a_template_with_params_through_a_snapshot() -> None:
    from engine import Match, MatchConfig

    m = Match(MatchConfig(), boot_id="b1")
    m.apply(Start(0, shuffle_deal(random.Random(3))), 0)
    m.abort(5_000_000, "the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})",
            gap="3.1 s", limit="2.0 s")
    o = m.outcome
    assert o is not None and o.detail == "the kiosk could not take commands for 3.1 s while a clock ran (the limit is 2.0 s)"
    assert o.detail_template.startswith("the kiosk could not take commands for {gap}")
    assert dict(o.detail_params) == {"gap": "3.1 s", "limit": "2.0 s"}
    assert Match.from_dict(m.to_dict()).outcome == o
    older = m.to_dict()  # a snapshot written before the template was kept
    del older["outcome"]["detail_template"], older["outcome"]["detail_params"]
    restored = Match.from_dict(older).outcome
    assert restored is not None and (restored.detail_template, restored.detail_params) == (o.detail, ())


def test_a_restore_on_another_boot_aborts_with_the_engines_own_reason() -> None:
    from engine import Match, MatchConfig

    m = Match(MatchConfig(), boot_id="b1")
    m.apply(Start(0, shuffle_deal(random.Random(4))), 0)
    restored, _events = Match.restore(m.to_dict(), boot_id="b2", now_ns=10)
    o = restored.outcome
    assert o is not None and o.detail_template == RESTARTED_WHILE_RUNNING == o.detail and o.detail_params == ()
