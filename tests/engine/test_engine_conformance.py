"""Every public conformance scenario replays to its expected result (compared as compare.py does)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import main as replay_main

CONFORMANCE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"
PUBLIC = CONFORMANCE / "public"
SCENARIOS = sorted(p for p in PUBLIC.glob("*.json") if not p.name.endswith(".expected.json"))

pytestmark = pytest.mark.skipif(not SCENARIOS, reason="shared/conformance is not beside this checkout")


def _compare_module():
    spec = importlib.util.spec_from_file_location("conformance_compare", CONFORMANCE / "compare.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_public_scenario_agrees(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_main([str(scenario)]) == 0
    actual = json.loads(capsys.readouterr().out)
    expected = json.loads(scenario.with_name(scenario.stem + ".expected.json").read_text())
    assert _compare_module().differences(expected, actual) == []


def test_replay_command_line_prints_one_line_per_file(tmp_path: Path) -> None:
    files = [str(p) for p in SCENARIOS[:3]]
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", *files], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    for line, path in zip(lines, files):
        result = json.loads(line)
        assert set(result) >= {"steps", "events", "state"}
        assert len(result["steps"]) == len(json.loads(Path(path).read_text())["steps"])


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("{not json", "not valid JSON"),
        ('{"steps": "nope"}', "steps must be a list"),
        ('{"steps": [{"t": 0, "do": "dance"}]}', "unknown do"),
        ('{"steps": [{"t": 5, "do": "tick"}, {"t": 4, "do": "tick"}]}', "backwards"),
        ('{"deals": [{"hands": [["1|4"], []], "boneyard": []}], "steps": []}', "deals[0]"),
        ('{"config": {"colour": "red"}, "steps": []}', "unknown config keys"),
    ],
)
def test_malformed_scenario_exits_2_naming_the_file(tmp_path: Path, content: str, fragment: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    good = SCENARIOS[0]
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(good), str(bad)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "bad.json" in done.stderr and fragment in done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and "state" in json.loads(lines[0]) and "error" in json.loads(lines[1])


def test_refused_steps_still_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "refused.json"
    scenario.write_text(json.dumps({"steps": [{"t": 0, "player": 0, "do": "draw"}, {"t": 1, "do": "start"}]}))
    assert replay_main([str(scenario)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["steps"] == [
        {"ok": False, "error": "wrong_phase", "message": result["steps"][0]["message"]},
        {"ok": False, "error": "no_deal", "message": result["steps"][1]["message"]},
    ]
    assert result["state"]["phase"] == "ready" and result["state"]["round"] == 0


@pytest.mark.parametrize(
    "step",
    [
        {"do": "play", "player": 0, "tile": "9|9"},
        {"do": "play", "player": 0, "tile": "1|4", "at": ["1|4", "middle"]},
        {"do": "play", "player": 0, "tile": "1|4", "at": "1|4 low"},
        {"do": "bid", "player": 1, "amount": "lots"},
        {"do": "draw", "player": 7},
        {"do": "accept"},
        {"do": "start"},
    ],
    ids=["unknown-tile", "unknown-slot", "bad-at", "bad-amount", "bad-player", "no-player", "start"],
)
def test_after_the_match_is_over_every_step_is_refused_as_match_over_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], step: dict[str, object]
) -> None:
    """The refusal order: match over before a malformed step (also when the clock ended the match)."""
    for ending in ({"t": 5, "player": 0, "do": "resign"}, {"t": 200_000, "do": "tick"}):
        scenario = tmp_path / "over.json"
        steps = [{"t": 0, "do": "start"}, ending, {"t": 300_000, **step}]
        scenario.write_text(json.dumps({"deals": [json.loads(SCENARIOS[0].read_text())["deals"][0]], "steps": steps}))
        assert replay_main([str(scenario)]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["state"]["phase"] == "match_over"
        assert result["steps"][2]["ok"] is False and result["steps"][2]["error"] == "match_over"


def test_a_malformed_step_before_the_match_is_over_is_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "bad-step.json"
    deal = json.loads(SCENARIOS[0].read_text())["deals"][0]
    steps = [{"t": 0, "do": "start"}, {"t": 1, "player": 0, "do": "play", "tile": "9|9"},
             {"t": 2, "player": 1, "do": "bid", "amount": 15.5}, {"t": 3, "player": True, "do": "draw"}]
    scenario.write_text(json.dumps({"deals": [deal], "steps": steps}))
    assert replay_main([str(scenario)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [s.get("error") for s in result["steps"]] == [None, "unknown_tile", "malformed", "malformed"]
