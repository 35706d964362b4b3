"""The audit of a stored match: its export to a conformance scenario, and its states step by step.

``export_scenario`` writes the match in the public scenario format (shared/conformance/FORMAT.md),
so ``python -m engine.replay`` reproduces the stored final state. ``replay_states`` plays that
scenario and yields the state after each step (the step-through screen); every state it yields is
a match of its own, unchanged by the steps after it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from engine import NS_PER_MS, EngineError, IllegalAction, Match
from engine.scenario import parse_scenario, play_scenario, state_json, step_action
from engine.snapshot import restore_text, save_text
from kiosk.store.database import Database, HasDatabase, database_of
from kiosk.store.errors import StoreCorrupt, internal
from kiosk.store.records import StoredEntry, read_entries, read_match


class Replayed(NamedTuple):
    """One step of a replayed match and the state after it (a match of its own)."""

    step: dict[str, Any]
    match: Match


def export_scenario(store: Database | HasDatabase, match_id: int, *, name: str | None = None) -> dict[str, Any]:
    """The match as a conformance scenario (config, deals, steps).

    Times become milliseconds since the match's first row (fractions when the arrival was not on a
    whole millisecond, so the replay sees the same nanoseconds). A restart in another boot, or with
    a monotonic clock that went backwards, starts a new time base: it is placed at the previous
    step's time. An abort by the kiosk (a stall) becomes ``restart`` with ``same_boot: false`` at
    the previous step's time: the engine's abort on a restart in another boot charges nothing,
    exactly like the kiosk's. A damaged or missing row raises ``StoreCorrupt``.
    """
    with database_of(store).read() as conn:
        record = read_match(conn, match_id)
        entries = read_entries(conn, match_id)
    return scenario_of_entries(record.config, entries, match_id, name=name)


def scenario_of_entries(config: dict[str, Any], entries: Sequence[StoredEntry], match_id: int, *,
                        name: str | None = None) -> dict[str, Any]:
    """``export_scenario`` for rows already read (the club hub gets them uploaded): ``config`` is the
    match's ``MatchConfig.to_dict()``, ``entries`` its rows in order, each checked (``intact``) and
    numbered 1, 2, ... without a gap; ``StoreCorrupt`` otherwise."""
    for e in entries:
        if not e.intact:
            raise StoreCorrupt(internal("match {match}: row {seq} is damaged; the match cannot be exported whole",
                                        match=match_id, seq=e.seq))
    for expected, e in enumerate(entries, start=1):
        if e.seq != expected:
            raise StoreCorrupt(internal("match {match}: row {seq} is missing", match=match_id, seq=expected))
    try:
        return _scenario(config, list(entries), match_id, name)
    except (KeyError, TypeError, ValueError, EngineError) as exc:
        if isinstance(exc, StoreCorrupt):
            raise
        raise StoreCorrupt(internal("match {match}: its stored rows do not make a scenario: {error}",
                                    match=match_id, error=repr(exc))) from exc


def _scenario(cfg: dict[str, Any], entries: list[Any], match_id: int, name: str | None) -> dict[str, Any]:
    deals: list[Any] = []
    steps: list[dict[str, Any]] = []
    origin: int | None = None
    t_prev = 0
    for e in entries:
        step = dict(e.step)
        kind = step.get("do")
        if kind == "abort":
            t_ns = t_prev
            step = {"do": "restart", "same_boot": False}
        elif origin is None:
            origin, t_ns = e.arrival_ns, 0
        elif kind == "restart" and not step.get("same_boot", True):
            origin = e.arrival_ns - t_prev
            t_ns = t_prev
        else:
            t_ns = e.arrival_ns - origin
            if t_ns < t_prev:
                raise StoreCorrupt(internal("match {match}: row {seq} is stamped before the row it follows",
                                            match=match_id, seq=e.seq))
        if kind == "start":
            deal = step.pop("deal", None)
            if deal is None:
                raise StoreCorrupt(internal("match {match}: the Start in row {seq} has no deal",
                                            match=match_id, seq=e.seq))
            deals.append(deal)
        step.pop("reason", None)
        step["t"] = ns_to_ms(t_ns)
        steps.append(step)
        t_prev = t_ns
    return {
        "name": name or f"kiosk-match-{match_id}",
        "config": {
            "balances": list(cfg["balances"]),
            "bank_ms": [ns_to_ms(v) for v in cfg["bank_ns"]],
            "delay_ms": ns_to_ms(cfg["delay_ns"]),
            "handover": cfg["handover"],
            "jockey": cfg["jockey"],
        },
        "deals": deals,
        "steps": steps,
    }


def replay_states(store: Database | HasDatabase, match_id: int) -> Iterator[Replayed]:
    """Each step of the exported match with the state after it; earlier states never change."""
    try:
        scenario = parse_scenario(export_scenario(store, match_id))
    except EngineError as exc:
        raise StoreCorrupt(internal("match {match}: its stored rows do not make a scenario: {error}",
                                    match=match_id, error=str(exc))) from exc
    boot = 0
    match = Match(scenario.config, boot_id="replay-boot-0")
    for step in scenario.steps:
        now_ns = round(step["t"] * NS_PER_MS)
        match.advance(now_ns)
        kind = step["do"]
        if kind == "restart":
            if not step.get("same_boot", True):
                boot += 1
            match, _ = restore_text(save_text(match), boot_id=f"replay-boot-{boot}", now_ns=now_ns)
        elif kind != "tick":
            try:
                match.apply(step_action(step, match, scenario.deals), now_ns)
            except (IllegalAction, KeyError, TypeError, ValueError) as exc:
                raise StoreCorrupt(internal("match {match}: a stored step is refused on replay: {error}",
                                            match=match_id, error=str(exc))) from exc
        yield Replayed(copy.deepcopy(step), Match.from_dict(copy.deepcopy(match.to_dict())))


def replays_as_recorded(store: Database | HasDatabase, match_id: int) -> bool | None:
    """Whether the match, exported as a conformance scenario and replayed by the engine, ends in the
    state its last stored row recorded, every step accepted (None: the match has no rows)."""
    with database_of(store).read() as conn:
        entries = read_entries(conn, match_id)
    if not entries:
        return None
    result = play_scenario(parse_scenario(export_scenario(store, match_id)))
    final = Match.from_dict(json.loads(entries[-1].snapshot))  # type: ignore[arg-type]
    return result["state"] == state_json(final, entries[-1].arrival_ns) and all(s["ok"] for s in result["steps"])


def ns_to_ms(ns: int) -> int | float:
    """Milliseconds as a whole number when exact, else a fraction that rounds back to ``ns``."""
    whole, rest = divmod(int(ns), NS_PER_MS)
    if rest == 0:
        return whole
    value = ns / NS_PER_MS
    if round(value * NS_PER_MS) != ns:  # pragma: no cover - only beyond 2**53 ns (104 days)
        raise StoreCorrupt(internal("a time of {ns} ns cannot be written exactly in milliseconds", ns=ns))
    return value
