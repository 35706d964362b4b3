"""A whole recorded match reviewed for one seat: its scenario replayed step by step, each genuine
decision of the seat judged on its view at that moment, each round's luck measured.

Randomness: every decision and every luck measurement gets its own ``random.Random`` seeded from
the review's seed and the step's index, so a decision's judgement depends on nothing but the seat's
view, the step's index, the seed and the number of samples (no hindsight, and the same review
whatever else was reviewed before it).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Draw, Start
from ..clock import NS_PER_MS
from ..errors import IllegalAction
from ..match import Match
from ..scenario import Scenario, step_action
from ..snapshot import restore_text, save_text
from ..tiles import TILE_INDEX
from ..view import PlayerView
from .judge import CLASSES, DEFAULT_SAMPLES, Judgement, action_json, is_genuine, judge
from .luck import deal_luck, draw_luck

Progress = Callable[[int, int], None]
"""Called with (steps done, steps in all) after each step of the scenario."""


@dataclass(slots=True)
class _Round:
    """One round's luck as it is measured."""

    number: int
    start: int
    balance: int
    deal: float = 0.0
    draws: list[dict[str, Any]] = field(default_factory=list)
    result: int = 0


def _decision_json(step: int, round_: int, view: PlayerView, j: Judgement) -> dict[str, Any]:
    return {
        "step": step,
        "round": round_,
        "phase": view.phase.value,
        "chosen": action_json(j.options[j.chosen]),
        "best": action_json(j.options[j.best]),
        "loss": round(j.loss, 3),
        "loss_low": round(j.loss_low, 3),
        "loss_high": round(j.loss_high, 3),
        "class": j.klass,
        "options": [{"action": action_json(a), "mean": round(m, 3)} for a, m in zip(j.options, j.means, strict=True)],
    }


def _round_json(r: _Round) -> dict[str, Any]:
    luck = r.deal + sum(d["luck"] for d in r.draws)
    return {
        "round": r.number,
        "step": r.start,
        "result": r.result,
        "deal": round(r.deal, 3),
        "draws": r.draws,
        "luck": round(luck, 3),
        "adjusted": round(r.result - luck, 3),
    }


def review_scenario(scenario: Scenario, seat: int, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                    luck: bool = True, progress: Progress | None = None) -> dict[str, Any]:
    """The review of ``seat`` in ``scenario`` (module description): ``decisions``, ``summary``, ``luck``."""
    if seat not in (0, 1) or type(seat) is not int:
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    if type(samples) is not int or samples < 2:
        raise ValueError(f"samples must be a whole number of at least 2, not {samples!r}")
    match = Match(scenario.config, boot_id="review-boot-0")
    boot = 0
    decisions: list[dict[str, Any]] = []
    rounds: list[_Round] = []
    total = len(scenario.steps)
    for i, step in enumerate(scenario.steps):
        now = round(step["t"] * NS_PER_MS)
        match.advance(now)
        kind = step["do"]
        if kind == "restart":
            boot += 0 if step.get("same_boot", True) else 1
            match, _ = restore_text(save_text(match), boot_id=f"review-boot-{boot}", now_ns=now)
        elif kind != "tick" and not match.is_over:
            _game_step(match, step, i, now, scenario, seat, samples, seed, luck, decisions, rounds)
        if rounds and match.round == rounds[-1].number:
            rounds[-1].result = match.balances[seat] - rounds[-1].balance
        if progress is not None:
            progress(i + 1, total)
    return {"seat": seat, "samples": samples, "seed": seed, "decisions": decisions,
            "summary": summarize(decisions), "luck": luck_json(rounds) if luck else None}


def _game_step(match: Match, step: dict[str, Any], i: int, now: int, scenario: Scenario, seat: int, samples: int,
               seed: int, luck: bool, decisions: list[dict[str, Any]], rounds: list[_Round]) -> None:
    """Apply one game step, judging it first when it is a genuine decision of the seat."""
    try:
        action: Action = step_action(step, match, scenario.deals)
    except IllegalAction:
        return
    if isinstance(action, Start):
        ready = match.clone()
        try:
            match.apply(action, now)
        except IllegalAction:
            return
        rounds.append(_Round(match.round, i, ready.balances[seat]))
        if luck and action.deal is not None:
            rounds[-1].deal = deal_luck(ready, action.deal, seat, samples, random.Random(f"luck-{seed}-{i}"))
        return
    if action not in match.legal_actions():
        _apply(match, action, now)  # refused (nothing changes) or a resignation: nothing to judge
        return
    actor = match.to_act
    view = PlayerView.of(match, seat, now) if actor == seat else None
    if view is not None and is_genuine(view):
        j = judge(view, action, samples, random.Random(f"review-{seed}-{i}"))
        decisions.append(_decision_json(i, match.round, view, j))
    if luck and isinstance(action, Draw) and actor is not None and rounds:
        before = PlayerView.of(match, actor, now)
        other = tuple(TILE_INDEX[t] for t in match.hand(1 - actor))
        match.apply(action, now)
        after = PlayerView.of(match, actor, now)
        value = draw_luck(before, after, other, seat, samples, random.Random(f"luck-{seed}-{i}"))
        rounds[-1].draws.append({"step": i, "by": actor, "luck": round(value, 3)})
        return
    match.apply(action, now)


def summarize(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The number of decisions, their mean loss and the count of each class."""
    n = len(decisions)
    summary: dict[str, Any] = {"decisions": n,
                               "mean_loss": round(sum(d["loss"] for d in decisions) / n, 3) if n else 0.0}
    for c in CLASSES:
        summary[c] = sum(1 for d in decisions if d["class"] == c)
    return summary


def luck_json(rounds: list[_Round]) -> dict[str, Any]:
    """Each round's luck and the match's: the real result, the luck, the luck-adjusted result."""
    per_round = [_round_json(r) for r in rounds]
    result = sum(r["result"] for r in per_round)
    total = sum(r["luck"] for r in per_round)
    return {"rounds": per_round, "result": result, "luck": round(total, 3), "adjusted": round(result - total, 3)}


def _apply(match: Match, action: Action, now: int) -> None:
    """Apply ``action`` as the replay does: a refused one changes nothing."""
    with contextlib.suppress(IllegalAction):
        match.apply(action, now)
