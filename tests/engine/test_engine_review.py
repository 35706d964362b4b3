"""The post-match review: reproducible, judges only on the seat's view, flags a planted blunder, tells
level 1 from level 4, and its luck adds up to the real result."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import ALL_TILES, Deal, Match, MatchConfig, Phase, Play, PlayerView, Start, shuffle_deal
from engine.bots import choose
from engine.layout import Layout
from engine.review import BLUNDER, INACCURACY, MISTAKE, classify, review_scenario
from engine.review.judge import options_for, paired_interval
from engine.review.matches import bot_scenario
from engine.scenario import action_step, parse_scenario, play_scenario, step_action
from engine.tiles import TILE_INDEX

ROOT = Path(__file__).resolve().parents[2]


def _score(layout: Layout, play: Play) -> int:
    count = layout.count_after_index(play.tile_index, play.point_index)
    return count if count > 0 and count % 5 == 0 else 0


def _replays(data: dict[str, Any]) -> bool:
    """Whether every step of the scenario is accepted."""
    return all(r["ok"] for r in play_scenario(parse_scenario(data))["steps"])


def test_classes_follow_the_lower_bound_of_the_interval() -> None:
    assert classify(INACCURACY - 0.01) == "good"
    assert classify(INACCURACY) == "inaccuracy"
    assert classify(MISTAKE - 0.01) == "inaccuracy"
    assert classify(MISTAKE) == "mistake"
    assert classify(BLUNDER) == "blunder"
    assert classify(-3.0) == "good"
    mean, low, high = paired_interval([10.0, 0.0, 10.0, 0.0])
    assert mean == 5.0 and low < 5.0 < high and high - mean == pytest.approx(mean - low)
    assert paired_interval([4.0, 4.0, 4.0]) == (4.0, 4.0, 4.0)


def test_the_same_input_and_seed_give_the_same_review_and_the_command_prints_it(tmp_path: Path) -> None:
    data = bot_scenario((3, 2), 5)
    data["steps"] = data["steps"][:60]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    command = [sys.executable, "-m", "engine.review", str(path), "--seat", "1", "--samples", "12", "--seed", "7"]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    second = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert first == second
    review = json.loads(first)
    assert set(review) >= {"decisions", "summary", "luck"}
    assert review == review_scenario(parse_scenario(data), 1, samples=12, seed=7)
    assert review["summary"]["decisions"] == len(review["decisions"]) > 0
    for d in review["decisions"]:
        assert set(d) >= {"step", "chosen", "best", "loss", "loss_low", "loss_high", "class"}
        assert data["steps"][d["step"]]["player"] == 1
        chosen = {k: v for k, v in data["steps"][d["step"]].items() if k not in ("t", "player")}
        assert d["chosen"] == chosen
        assert d["loss_low"] <= d["loss"] <= d["loss_high"]
        assert d["class"] == classify(d["loss_low"])
    other = review_scenario(parse_scenario(data), 1, samples=12, seed=8)
    assert [d["step"] for d in other["decisions"]] == [d["step"] for d in review["decisions"]]
    assert other != review  # the seed matters
    bad = tmp_path / "bad.json"
    bad.write_text('{"steps": 3}', encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "engine.review", str(bad), "--seat", "0"], cwd=ROOT,
                             capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stdout == "" and "bad.json" in refused.stderr


def test_forced_moves_are_not_reviewed_and_the_auction_is() -> None:
    data = bot_scenario((3, 3), 11)
    scenario = parse_scenario(data)
    review = review_scenario(scenario, 0, samples=4, luck=False)
    judged = {d["step"] for d in review["decisions"]}
    match = Match(scenario.config)
    auctions = 0
    for i, step in enumerate(scenario.steps):
        action = step_action(step, match, scenario.deals)
        if match.to_act == 0 and not isinstance(action, Start):
            genuine = len(match.legal_actions()) > 1
            assert (i in judged) == genuine, (i, step)
            auctions += genuine and match.phase is Phase.AUCTION
        match.apply(action, round(step["t"] * 1_000_000))
    assert auctions > 0
    assert all(d["phase"] in ("play", "auction") for d in review["decisions"])


def _planted() -> tuple[dict[str, Any], int, int]:
    """A level-3 match cut at the first seat-0 turn that could score 15 or more, where seat 0 plays a
    tile that scores nothing instead: the scenario, the planted step's index and the missed score."""
    for seed in range(200):
        data = bot_scenario((3, 3), seed)
        scenario = parse_scenario(data)
        match = Match(scenario.config)
        for i, step in enumerate(scenario.steps):
            action = step_action(step, match, scenario.deals)
            if match.to_act == 0 and match.phase is Phase.PLAY:
                plays = [a for a in match.legal_actions() if isinstance(a, Play)]
                scores = [_score(match.layout, a) for a in plays]
                if scores and max(scores) >= 15:
                    best_tile = plays[scores.index(max(scores))].tile
                    dull = [a for a, s in zip(plays, scores, strict=True) if s == 0 and a.tile != best_tile]
                    if dull:
                        planted = copy.deepcopy(data)
                        planted["steps"] = [*data["steps"][:i], action_step(dull[0], step["t"])]
                        return planted, i, max(scores)
            match.apply(action, round(step["t"] * 1_000_000))
    raise AssertionError("no position to plant a blunder in")


def test_a_planted_blunder_is_flagged() -> None:
    data, step, missed = _planted()
    assert _replays(data)
    review = review_scenario(parse_scenario(data), 0, samples=200, seed=3, luck=False)
    flagged = [d for d in review["decisions"] if d["step"] == step]
    assert len(flagged) == 1
    d = flagged[0]
    assert d["class"] in ("mistake", "blunder"), d
    assert d["loss_low"] >= MISTAKE and d["best"] != d["chosen"]
    assert missed >= 15


def _twin(data: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """``data`` with the tiles ``seat`` never saw in the last round permuted among their places, when
    every step still replays and the hidden tiles really moved."""
    scenario = parse_scenario(data)
    match = Match(scenario.config)
    for step in scenario.steps:
        match.apply(step_action(step, match, scenario.deals), round(step["t"] * 1_000_000))
    seen = set(match.hand(seat)) | set(match.layout.tiles())
    last = scenario.deals[-1]
    order = [ALL_TILES[i] for i in last.tile_indices]
    places = [i for i, t in enumerate(order) if t not in seen]
    moved = [order[i] for i in places]
    rng.shuffle(moved)
    if moved == [order[i] for i in places]:
        return None
    for i, t in zip(places, moved, strict=True):
        order[i] = t
    twin = copy.deepcopy(data)
    twin["deals"][-1] = Deal.from_indices([TILE_INDEX[t] for t in order]).to_dict()
    return twin if _replays(twin) else None


def test_no_hindsight_twins_that_differ_only_in_unseen_tiles_get_the_same_review() -> None:
    rng = random.Random(24)
    checked = 0
    for seed in range(40):
        if checked >= 4:
            break
        data = bot_scenario((3, 2), 100 + seed)
        starts = [i for i, s in enumerate(data["steps"]) if s["do"] == "start"]
        if len(starts) < 2:
            continue
        cut = rng.randint(starts[1] + 6, min(len(data["steps"]), starts[1] + 30))
        data["steps"] = data["steps"][:cut]
        seat = rng.randrange(2)
        for _ in range(30):
            twin = _twin(data, seat, rng)
            if twin is None:
                continue
            original = review_scenario(parse_scenario(data), seat, samples=6, seed=seed, luck=False)
            other = review_scenario(parse_scenario(twin), seat, samples=6, seed=seed, luck=False)
            assert original["decisions"] and original["decisions"] == other["decisions"]
            checked += 1
            break
    assert checked >= 4


def test_the_luck_adds_up_to_the_real_result() -> None:
    data = bot_scenario((2, 1), 3)
    scenario = parse_scenario(data)
    final = play_scenario(scenario)["state"]["balances"]
    review = review_scenario(scenario, 1, samples=6, seed=1)
    luck = review["luck"]
    assert luck["result"] == final[1] - 150
    assert len(luck["rounds"]) == len(data["deals"])
    assert sum(r["result"] for r in luck["rounds"]) == luck["result"]
    for r in luck["rounds"]:
        assert r["luck"] == pytest.approx(r["deal"] + sum(d["luck"] for d in r["draws"]), abs=0.01)
        assert r["adjusted"] == pytest.approx(r["result"] - r["luck"], abs=0.01)
    assert any(r["draws"] for r in luck["rounds"])
    assert luck["adjusted"] == pytest.approx(luck["result"] - luck["luck"], abs=0.01)


@pytest.mark.slow
def test_level_1_loses_far_more_per_decision_than_level_4() -> None:
    losses: dict[int, list[float]] = {1: [], 4: []}
    for k in range(4):
        levels = (1, 4) if k % 2 == 0 else (4, 1)
        scenario = parse_scenario(bot_scenario(levels, 900 + k, iterations=100))
        for seat in (0, 1):
            for d in review_scenario(scenario, seat, samples=30, seed=k, luck=False)["decisions"]:
                losses[levels[seat]].append(d["loss"])
    mean1 = sum(losses[1]) / len(losses[1])
    mean4 = sum(losses[4]) / len(losses[4])
    assert len(losses[1]) > 50 and len(losses[4]) > 50
    assert mean1 > 2.0 * mean4 and mean1 - mean4 > 1.5, (mean1, mean4)


def test_auction_options_are_the_stay_the_smallest_bid_and_the_chosen_one() -> None:
    rng = random.Random(5)
    m = Match(MatchConfig(jockey=1))
    m.apply(Start(None, shuffle_deal(rng)), 0)
    view = PlayerView.of(m, 0, 0)
    assert view.phase is Phase.AUCTION and len(view.legal) > 3
    top = view.legal[-1]
    options = options_for(view, top)
    assert options == (view.legal[0], view.legal[1], top)
    assert options_for(view, view.legal[0]) == (view.legal[0], view.legal[1])
    assert choose(view, 2, rng) in options
