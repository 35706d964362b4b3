"""Conformance scenarios (``shared/conformance/FORMAT.md``): reading them, playing them, their results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Accept, Action, Bid, Decline, Draw, Pass, Play, Resign, Reveal, Start
from .clock import NS_PER_MS
from .deal import Deal
from .errors import (
    BAD_AT,
    SCENARIO_BACKWARDS,
    SCENARIO_BAD_LIST,
    SCENARIO_BAD_MS,
    SCENARIO_CONFIG,
    SCENARIO_CONFIG_NOT_OBJECT,
    SCENARIO_DEAL,
    SCENARIO_DEALS_NOT_LIST,
    SCENARIO_NOT_OBJECT,
    SCENARIO_STEP_NOT_OBJECT,
    SCENARIO_STEPS_NOT_LIST,
    SCENARIO_UNKNOWN_DO,
    SCENARIO_UNKNOWN_KEYS,
    IllegalAction,
    Malformed,
    ScenarioError,
)
from .events import Event, MatchEnded, RoundEnded, Transfer
from .match import Match, MatchConfig
from .snapshot import restore_text, save_text
from .tiles import Point, Tile

STEP_KINDS = frozenset(
    {"start", "continue", "reveal", "play", "draw", "pass", "decline", "bid", "accept", "resign", "tick", "restart"}
)
CONFIG_KEYS = frozenset({"balances", "bank_ms", "delay_ms", "handover", "jockey"})


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario: its name, match configuration, deals and steps (raw step objects)."""

    name: str
    config: MatchConfig
    deals: tuple[Deal, ...]
    steps: tuple[dict[str, Any], ...]


def _ms_to_ns(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(SCENARIO_BAD_MS, what=what, value=value)
    return round(value * NS_PER_MS)


def parse_scenario(data: Any) -> Scenario:
    """Check a scenario's structure and return it parsed; raises ScenarioError naming the problem."""
    if not isinstance(data, dict):
        raise ScenarioError(SCENARIO_NOT_OBJECT)
    config = data.get("config", {})
    if not isinstance(config, dict):
        raise ScenarioError(SCENARIO_CONFIG_NOT_OBJECT)
    unknown = set(config) - CONFIG_KEYS
    if unknown:
        raise ScenarioError(SCENARIO_UNKNOWN_KEYS, keys=", ".join(sorted(map(str, unknown))))
    try:
        bank_ms = config.get("bank_ms", [120000, 120000])
        balances = config.get("balances", [150, 150])
        if not isinstance(bank_ms, list) or len(bank_ms) != 2:
            raise ScenarioError(SCENARIO_BAD_LIST, key="bank_ms")
        if not isinstance(balances, list) or len(balances) != 2:
            raise ScenarioError(SCENARIO_BAD_LIST, key="balances")
        match_config = MatchConfig(
            balances=(balances[0], balances[1]),
            bank_ns=(_ms_to_ns(bank_ms[0], "bank_ms"), _ms_to_ns(bank_ms[1], "bank_ms")),
            delay_ns=_ms_to_ns(config.get("delay_ms", 10000), "delay_ms"),
            handover=config.get("handover", False),
            jockey=config.get("jockey"),
        )
    except Malformed as exc:
        raise ScenarioError(SCENARIO_CONFIG, why=exc.message) from exc
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, list):
        raise ScenarioError(SCENARIO_DEALS_NOT_LIST)
    deals = []
    for i, raw in enumerate(raw_deals):
        try:
            deals.append(Deal.from_dict(raw))
        except IllegalAction as exc:
            raise ScenarioError(SCENARIO_DEAL, index=i, why=exc.message) from exc
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise ScenarioError(SCENARIO_STEPS_NOT_LIST)
    last_t = None
    for i, step in enumerate(steps):
        if not isinstance(step, dict):
            raise ScenarioError(SCENARIO_STEP_NOT_OBJECT, index=i)
        if step.get("do") not in STEP_KINDS:
            raise ScenarioError(SCENARIO_UNKNOWN_DO, index=i, do=step.get("do"))
        t = _ms_to_ns(step.get("t"), f"steps[{i}].t")
        if last_t is not None and t < last_t:
            raise ScenarioError(SCENARIO_BACKWARDS, index=i)
        last_t = t
    return Scenario(str(data.get("name", "")), match_config, tuple(deals), tuple(steps))


_ONE_PLAYER: dict[str, type[Reveal | Draw | Pass | Decline | Accept | Resign]] = {
    "reveal": Reveal, "draw": Draw, "pass": Pass, "decline": Decline, "accept": Accept, "resign": Resign,
}


def step_action(step: dict[str, Any], match: Match, deals: tuple[Deal, ...]) -> Action:
    """The engine action for a game step (not ``tick`` or ``restart``).

    Raises Malformed or UnknownTile for a step with a missing or wrong field (the actions check
    their fields).
    """
    kind = step["do"]
    if kind in ("start", "continue"):
        deal = deals[match.round] if match.round < len(deals) else None
        return Start(step.get("player"), deal)
    # JSON values, unchecked here: Tile.parse, Point.parse and the actions refuse wrong ones
    player: Any = step.get("player")
    if kind == "play":
        name: Any = step.get("tile")
        tile = Tile.parse(name)
        at = step.get("at")
        if at is None:
            return Play(player, tile, None)
        if not isinstance(at, list) or len(at) != 2:
            raise Malformed(BAD_AT, at=at)
        return Play(player, tile, Point.parse(at[0], at[1]))
    if kind == "bid":
        amount: Any = step.get("amount")
        return Bid(player, amount)
    return _ONE_PLAYER[kind](player)


def action_step(action: Action, t_ms: int) -> dict[str, Any]:
    """The scenario step for an applied action at ``t_ms`` (the inverse of ``step_action``)."""
    if isinstance(action, Start):
        step: dict[str, Any] = {"t": t_ms, "do": "start"}
        if action.player is not None:
            step["player"] = action.player
        return step
    names = {Reveal: "reveal", Draw: "draw", Pass: "pass", Decline: "decline", Accept: "accept",
             Resign: "resign", Play: "play", Bid: "bid"}
    step = {"t": t_ms, "player": action.player, "do": names[type(action)]}
    if isinstance(action, Play):
        step["tile"] = str(action.tile)
        if action.at is not None:
            step["at"] = [str(action.at.tile), action.at.slot.value]
    elif isinstance(action, Bid):
        step["amount"] = action.amount
    return step


def _event_json(event: Event) -> dict[str, Any]:
    t = event.at_ns // NS_PER_MS
    if isinstance(event, Transfer):
        return {"type": "transfer", "from": event.payer, "to": event.payee, "points": event.points,
                "reason": event.reason.value, "t": t}
    if isinstance(event, RoundEnded):
        return {"type": "round_end", "round": event.round, "blocked": event.blocked,
                "dominoer": event.dominoer, "pips": list(event.pips), "t": t}
    assert isinstance(event, MatchEnded)
    o = event.outcome
    return {"type": "match_end", "winner": o.winner, "reason": o.reason.value, "rated": o.rated, "t": t}


def state_json(match: Match, now_ns: int) -> dict[str, Any]:
    """The result's ``state`` object with the clock at ``now_ns``."""
    o = match.outcome
    return {
        "phase": match.phase.value,
        "round": match.round,
        "to_act": match.to_act,
        "balances": list(match.balances),
        "bank_ms": [match.bank_ns(p, now_ns) // NS_PER_MS for p in (0, 1)],
        "clock_running": match.clock_running,
        "jockey": match.jockey,
        "end_count": match.end_count,
        "points": [[str(p.tile), p.slot.value, v] for p, v in match.layout.open_points()],
        "hands": [[str(t) for t in match.hand(p)] for p in (0, 1)],
        "boneyard": match.boneyard_count,
        "winner": None if o is None else o.winner,
        "end_reason": None if o is None else o.reason.value,
        "rated": True if o is None else o.rated,
    }


def play_scenario(scenario: Scenario) -> dict[str, Any]:
    """Play every step and return the result object of FORMAT.md."""
    boot = 0
    match = Match(scenario.config, boot_id=f"replay-boot-{boot}")
    results: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    now_ns = 0
    for step in scenario.steps:
        now_ns = round(step["t"] * NS_PER_MS)
        events.extend(map(_event_json, match.advance(now_ns)))
        kind = step["do"]
        try:
            if kind == "tick":
                pass
            elif kind == "restart":
                if not step.get("same_boot", True):
                    boot += 1
                match, restored = restore_text(save_text(match), boot_id=f"replay-boot-{boot}", now_ns=now_ns)
                events.extend(map(_event_json, restored))
            elif match.is_over:  # the refusal order: match over before a malformed step
                raise match.over_refusal()
            else:
                events.extend(map(_event_json, match.apply(step_action(step, match, scenario.deals), now_ns)))
        except IllegalAction as exc:
            results.append({"ok": False, "error": exc.code, "message": exc.message})
        else:
            results.append({"ok": True})
    return {"name": scenario.name, "steps": results, "events": events, "state": state_json(match, now_ns)}
