"""The hub believes only what replays: an uploaded match replayed with ``engine``, against its claim.

The rows are checked as the journal checks them (each row's SHA-256 over its contents, the snapshot
through its digest, numbered 1, 2, ... without a gap), turned into a conformance scenario exactly
as the kiosk's audit export does (``kiosk.store.audit.scenario_of_entries``) and played by
``engine.scenario.play_scenario``. The match is verified when every step is accepted, the replay
finishes the match, reproduces the claimed winner, reason and balances, and reaches the state the
last row's snapshot recorded. Anything else is a rejection with its reason, stored and listed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from typing import Any

from club.wire import MatchUpload
from engine import EngineError, Match
from engine.scenario import parse_scenario, play_scenario, state_json
from kiosk.store.audit import scenario_of_entries
from kiosk.store.errors import KioskStoreError
from kiosk.store.records import StoredEntry, stored_entry


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the replay found: ``rejection`` None when verified; the replayed result when it got that far."""

    rejection: str | None
    winner: int | None = None
    reason: str | None = None
    balances: tuple[int, int] | None = None
    rated: bool = False
    engine_version: str = ""

    @property
    def verified(self) -> bool:
        """Whether the match counts."""
        return self.rejection is None


@cache
def engine_version() -> str:
    """The rules that replayed a match: the project's version and a digest of the engine's source files."""
    try:
        version = metadata.version("spectacular-bid")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        version = "unknown"
    digest = hashlib.sha256()
    root = resources.files("engine")
    stack = [root]
    files = []
    while stack:
        folder = stack.pop()
        for entry in folder.iterdir():
            if entry.is_dir() and entry.name != "__pycache__":
                stack.append(entry)
            elif entry.name.endswith(".py"):
                files.append(entry)
    for entry in sorted(files, key=lambda e: str(e)):
        digest.update(entry.name.encode())
        digest.update(entry.read_bytes())
    return f"{version}+engine.{digest.hexdigest()[:12]}"


def verify(match: MatchUpload) -> Verdict:
    """Replay ``match`` and compare it with what it claims."""
    version = engine_version()
    header = match.header
    local_id = header.local_id
    entries = [stored_entry(local_id, (r.seq, r.step, r.snapshot, r.snapshot_sha, r.arrival_ns, r.boot_id,
                                       float(r.wall), r.checksum)) for r in match.rows]
    for e in entries:
        if not e.intact:
            return Verdict(f"row {e.seq} fails its checksum (or its step is not a JSON object)",
                           engine_version=version)
    try:
        scenario = scenario_of_entries(header.config.model_dump(), entries, local_id, name=str(match.uuid))
        result = play_scenario(parse_scenario(scenario))
    except (KioskStoreError, EngineError, KeyError, TypeError, ValueError) as exc:
        return Verdict(f"the rows do not replay: {exc}", engine_version=version)
    for i, step in enumerate(result["steps"]):
        if not step["ok"]:
            return Verdict(f"step {i + 1} is refused on replay: {step.get('message', step.get('error'))}",
                           engine_version=version)
    state: dict[str, Any] = result["state"]
    winner, reason = state["winner"], state["end_reason"]
    balances = (int(state["balances"][0]), int(state["balances"][1]))

    def reject(why: str) -> Verdict:
        return Verdict(why, winner=winner, reason=reason, balances=balances, engine_version=version)

    if reason is None:
        return reject("the replay does not finish the match")
    claimed = match.claimed
    differ = []
    if claimed.winner != winner:
        differ.append(f"winner {_seat(claimed.winner)} claimed, {_seat(winner)} on replay")
    if claimed.reason != reason:
        differ.append(f"reason {claimed.reason!r} claimed, {reason!r} on replay")
    if tuple(claimed.balances) != balances:
        differ.append(f"balances {list(claimed.balances)} claimed, {list(balances)} on replay")
    if differ:
        return reject("the replay does not reproduce the claimed result: " + "; ".join(differ))
    mismatch = _snapshot_mismatch(entries[-1], state)
    if mismatch:
        return reject(mismatch)
    p0, p1 = header.players
    rated = (p0 is not None and p1 is not None and p0 != p1 and header.computer_level is None
             and bool(state["rated"]) and reason != "aborted" and winner in (0, 1))
    return Verdict(None, winner=winner, reason=reason, balances=balances, rated=rated, engine_version=version)


def _snapshot_mismatch(last: StoredEntry, state: dict[str, Any]) -> str | None:
    """Why the replay's final state is not the one the last row recorded (None: it is, or none was kept)."""
    if last.snapshot is None:
        return None
    try:
        recorded = state_json(Match.from_dict(json.loads(last.snapshot)), last.arrival_ns)
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        return f"the last row's snapshot is unreadable: {exc}"
    if recorded != state:
        keys = sorted(k for k in state if recorded.get(k) != state[k])
        return "the replay does not reach the state the last row recorded (" + ", ".join(keys) + " differ)"
    return None


def _seat(seat: int | None) -> str:
    return "none" if seat is None else f"seat {seat}"
