"""The live projection's shape on the wire (``POST /api/v1/live``) and its checks.

The body is ``{"match", "seq", "players", "computer_level", "state"}``: ``state`` is exactly what
``engine.public.project`` makes; or ``{"match", "seq", "closed": true}``: the table left that match
unfinished (back at its home screen). Anything else is refused with a 422 naming the field. Beyond the
shape, the hub checks that the layout is one the rules can make and that no hand rides along while a
round runs (the kiosk's projection never sends one; a kiosk with a bug must not leak one either).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from club.errors import BadRequest, TooLarge
from club.wire import NameText
from engine import EngineError, Layout

MAX_LIVE_BYTES = 64 * 1024
"""The largest live body: a projection is a few kilobytes."""
Seat = Literal[0, 1]
Count = Annotated[int, Field(ge=0, le=28)]
Points = Annotated[int, Field(ge=0, le=1_000_000)]
Nanos = Annotated[int, Field(ge=0, lt=2**63)]
TileName = Annotated[str, Field(pattern=r"^[0-6]\|[0-6]$")]
SlotName = Literal["low", "high", "lineA", "lineB", "branchA", "branchB"]
RUNNING = ("auction", "play", "handover")
"""Phases in which a round runs: no hand may be sent."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class AuctionState(_Strict):
    jockey: Seat
    bid: Points | None
    bidder: Seat | None
    min_bid: Points


class LastMove(_Strict):
    player: Seat
    kind: Literal["play", "draw", "pass", "decline", "bid", "accept"]
    tile: TileName | None
    at: tuple[TileName, SlotName] | None
    amount: Points | None


class OutcomeState(_Strict):
    winner: Seat | None
    reason: Literal["balance", "time", "resign", "aborted"]


class State(_Strict):
    """``engine.public.project``'s answer."""

    v: Literal[1]
    phase: Literal["ready", "auction", "play", "handover", "match_over"]
    round: Annotated[int, Field(ge=0, le=100_000)]
    to_act: Seat | None
    balances: tuple[Points, Points]
    banks_ns: tuple[Nanos, Nanos]
    delay_ns: Nanos
    delay_left_ns: Nanos
    clock_running: Seat | None
    jockey: Seat | None
    auction: AuctionState | None
    layout: Annotated[list[tuple[TileName, tuple[TileName, SlotName] | None]], Field(max_length=28)]
    open_ends: Annotated[list[tuple[TileName, SlotName, Annotated[int, Field(ge=0, le=6)]]], Field(max_length=60)]
    end_count: Annotated[int, Field(ge=0, le=60)]
    hand_counts: tuple[Count, Count]
    boneyard_count: Count
    last_move: LastMove | None
    outcome: OutcomeState | None
    hands: tuple[Annotated[list[TileName], Field(max_length=28)], Annotated[list[TileName], Field(max_length=28)]] | None


class LivePlayer(_Strict):
    name: NameText | None
    """None for a guest."""


class LiveUpdate(_Strict):
    """One projection from a kiosk: ``match`` names the kiosk's running match, ``seq`` orders its projections."""

    match: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
    seq: Annotated[int, Field(ge=0, lt=2**63)]
    players: tuple[LivePlayer, LivePlayer]
    computer_level: Annotated[int, Field(ge=1, le=9)] | None = None
    state: State


class LiveClosed(_Strict):
    """The table left ``match`` unfinished (its players went back to the home screen): it is no longer live."""

    match: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
    seq: Annotated[int, Field(ge=0, lt=2**63)]
    closed: Literal[True]


def parse_live(body: bytes) -> LiveUpdate | LiveClosed:
    """The update in ``body``; BadRequest naming the first problems, TooLarge over ``MAX_LIVE_BYTES``."""
    if len(body) > MAX_LIVE_BYTES:
        raise TooLarge(f"a live projection has at most {MAX_LIVE_BYTES} bytes", limit=MAX_LIVE_BYTES)
    model: type[LiveUpdate] | type[LiveClosed] = LiveClosed if _closing(body) else LiveUpdate
    try:
        update = model.model_validate_json(body)
    except ValidationError as exc:
        problems = [{"at": ".".join(str(p) for p in e["loc"]), "problem": e["msg"]} for e in exc.errors()[:10]]
        text = "; ".join(f"{p['at']}: {p['problem']}" for p in problems[:3])
        raise BadRequest(f"the live projection is not valid: {text}", problems=problems) from None
    if isinstance(update, LiveUpdate):
        _check_rules(update.state)
    return update


def _closing(body: bytes) -> bool:
    """Whether ``body`` is a JSON object with a ``closed`` key (then it is read as ``LiveClosed``)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return False
    return isinstance(parsed, dict) and "closed" in parsed


def _check_rules(state: State) -> None:
    """BadRequest when the state shows what no table shows: a hand while a round runs, an impossible layout."""
    if state.hands is not None and state.phase in RUNNING:
        raise BadRequest("a live projection may carry the hands only after the round's settlement")
    try:
        layout = Layout.from_list([[tile, None if at is None else list(at)] for tile, at in state.layout])
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise BadRequest(f"the layout is not one the rules can make: {exc}") from None
    if layout.end_count != state.end_count:
        raise BadRequest(f"the end count is {layout.end_count} for this layout, not {state.end_count}")
    placed = len(state.layout)
    if placed + sum(state.hand_counts) + state.boneyard_count > 28:
        raise BadRequest("the layout, the hands and the boneyard hold more than 28 tiles")
