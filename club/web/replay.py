"""A stored match replayed step by step with the engine: the public projection after every step.

The rows are turned into a scenario exactly as the hub's verification does
(``kiosk.store.audit.scenario_of_entries``) and played command by command; each frame is
``engine.public.project`` of the match after the step, so the archive shows what the live table
showed. A match is stored once and never changes, so its frames are cached.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine import EngineError, Match
from engine.clock import NS_PER_MS
from engine.public import project
from engine.scenario import parse_scenario, step_action
from engine.snapshot import restore_text, save_text
from kiosk.store.audit import scenario_of_entries
from kiosk.store.errors import KioskStoreError
from kiosk.store.records import StoredEntry


class ReplayFailed(Exception):
    """The stored rows do not replay (a rejected match can be such)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The state after one step: what was done and the public projection."""

    step: dict[str, Any]
    state: dict[str, Any]
    t_ms: float


def frames_of(key: uuid.UUID, config: dict[str, Any], entries: Sequence[StoredEntry]) -> tuple[Frame, ...]:
    """Every step's frame (cached by match: a stored match never changes)."""
    return _frames(key, _Frozen(config, tuple(entries)))


@dataclass(frozen=True, slots=True)
class _Frozen:
    config: dict[str, Any]
    entries: tuple[StoredEntry, ...]

    def __hash__(self) -> int:
        return hash(tuple(e.seq for e in self.entries))


@lru_cache(maxsize=32)
def _frames(key: uuid.UUID, stored: _Frozen) -> tuple[Frame, ...]:
    try:
        scenario = parse_scenario(scenario_of_entries(stored.config, stored.entries, 0, name=str(key)))
    except (KioskStoreError, EngineError) as exc:
        raise ReplayFailed(str(exc)) from None
    match = Match(scenario.config, boot_id="replay-boot-0")
    boot = 0
    frames = [Frame({"do": "begin"}, project(match, 0), 0.0)]
    for step in scenario.steps:
        now_ns = round(step["t"] * NS_PER_MS)
        match.advance(now_ns)
        kind = step["do"]
        try:
            if kind == "restart":
                if not step.get("same_boot", True):
                    boot += 1
                match, _ = restore_text(save_text(match), boot_id=f"replay-boot-{boot}", now_ns=now_ns)
            elif kind != "tick":
                match.apply(step_action(step, match, scenario.deals), now_ns)
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise ReplayFailed(f"a stored step is refused on replay: {exc}") from None
        public_step = {k: v for k, v in step.items() if k in ("do", "player", "tile", "at", "amount")}
        if kind in ("draw",):
            public_step.pop("tile", None)
        frames.append(Frame(public_step, project(match, now_ns), float(step["t"])))
    return tuple(frames)
