"""The hub's decisions for a running event, pure: what to pair, which table gets what, what moves.

``decide(view, free, now)`` takes an event as the store loaded it (``EventView``: rules, entrants,
every pairing row, the verified games and byes) and the tables free now, and returns the pairing rows
to write (``Plan``): nothing is read or written here, and the time is the caller's.

In order:

1. **Moves.** An offered pairing not acknowledged by its ``acknowledge_by`` becomes ``moved`` and a
   copy (a new uuid, ``moved_from`` the old one) waits for another table. An acknowledged pairing is
   never moved by the hub: a table cut off from the hub keeps it and plays it.
2. **Pairing.** A Swiss or round-robin pairs its next round when every pairing of the current round
   is settled (played, a bye, forfeited, moved on or cancelled) and ``auto_advance`` is on, or when the director
   forces it (``force_next``: the open pairings of the round are cancelled first); a Swiss player who
   asked for a bye in the round is left out and given a half-point bye. An arena pairs its
   waiting pool (entrants with no open pairing) by ``arena.pair_waiting``, at most as many boards as
   there are free tables — with more waiting than that, among the 2 × boards + 2 who waited longest,
   and the pairs of those who waited longest first — until its time is up; at the end its unstarted
   pairings are cancelled.
3. **Offers.** Waiting pairings, by round and board, go to the free tables (a moved pairing to another
   table than the one that did not acknowledge it, when another is free).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from uuid import UUID, uuid4

from club.events.arena import Waiting, arena_standings, pair_waiting
from club.events.errors import PairingFailed
from club.events.model import Bye, Entrant, Forfeit, Game, Pairing, unordered
from club.events.roundrobin import round_robin_round, rounds_for
from club.events.rules import EventRules, Format
from club.events.swiss import DutchPairer, SwissPairer

OPEN = ("waiting", "offered", "acknowledged")
"""States of a pairing not yet settled (its players are busy with it)."""
SETTLED = ("played", "bye", "forfeit", "moved", "cancelled")
"""States that settle a board of a round (``aborted`` waits for the director)."""
SLACK = 2
"""An arena with more players waiting than its free tables seat matches only the 2 × boards + SLACK who
waited longest (the slack lets the matching avoid a rematch), and gives the tables to the pairs of the
longest-waiting first: everyone plays about as often, not the top of the standings again and again."""
PRESENCE_S = 60.0
"""A table seen asking for its assignment within this many seconds can be given a pairing."""


@dataclass(frozen=True, slots=True)
class Row:
    """One pairing as stored (``event_pairings``)."""

    uuid: UUID
    round: int | None
    board: int
    player0: UUID
    player1: UUID | None
    state: str
    created_at: float
    kiosk: UUID | None = None
    offered_at: float | None = None
    acknowledge_by: float | None = None
    acknowledged_at: float | None = None
    finished_at: float | None = None
    match: UUID | None = None
    moved_from: UUID | None = None
    avoid_kiosk: UUID | None = None
    berserk: tuple[bool, bool] = (False, False)
    note: str | None = None
    forfeit_winner: int | None = None
    """A ``forfeit``: the seat that won it (None: nobody did)."""
    half_bye: bool = False
    """A ``bye`` the player asked for (half a win's points)."""

    @property
    def players(self) -> tuple[UUID, ...]:
        """Who the pairing places (one for a bye)."""
        return (self.player0,) if self.player1 is None else (self.player0, self.player1)


@dataclass(frozen=True, slots=True)
class EventView:
    """An event as the scheduler needs it."""

    uuid: UUID
    rules: EventRules
    state: str
    current_round: int
    ack_timeout_s: float
    auto_advance: bool
    ends_at: float | None
    entrants: tuple[Entrant, ...]
    rows: tuple[Row, ...]
    games: tuple[Game, ...]
    byes: tuple[Bye, ...]
    forbidden: frozenset[tuple[UUID, UUID]] = frozenset()
    forfeits: tuple[Forfeit, ...] = ()
    requested: tuple[Bye, ...] = ()
    """Half-point byes players asked for in rounds not paired yet."""

    @property
    def total_rounds(self) -> int | None:
        """A Swiss's rounds, a round-robin's from its entrants, None for an arena."""
        if self.rules.format is Format.SWISS:
            return self.rules.rounds
        if self.rules.format is Format.ROUND_ROBIN:
            return rounds_for(len(self.entrants))
        return None

    def round_settled(self, round_number: int) -> bool:
        """Whether every board of ``round_number`` is settled (round 0 always is)."""
        return all(r.state in SETTLED for r in self.rows if r.round == round_number)


@dataclass
class Plan:
    """What ``decide`` wants written: pairing rows new or changed, the event's new round and state, and
    log lines (action, pairing, detail) for the director."""

    rows: dict[UUID, Row] = field(default_factory=dict)
    current_round: int | None = None
    finished: bool = False
    log: list[tuple[str, UUID | None, dict[str, object]]] = field(default_factory=list)
    taken: set[UUID] = field(default_factory=set)
    """The tables given a pairing by this plan."""

    def put(self, row: Row) -> None:
        self.rows[row.uuid] = row

    def empty(self) -> bool:
        return not self.rows and self.current_round is None and not self.finished


def _current(view: EventView, plan: Plan) -> list[Row]:
    """The event's rows with the plan's changes applied."""
    merged = {r.uuid: r for r in view.rows}
    merged.update(plan.rows)
    return list(merged.values())


def decide(
    view: EventView,
    free: Sequence[UUID],
    now: float,
    *,
    force_next: bool = False,
    pairer: SwissPairer | None = None,
    new_id: Callable[[], UUID] = uuid4,
) -> Plan:
    """The plan for ``view`` at ``now`` with the tables ``free`` (in the order to give them out)."""
    plan = Plan()
    if view.state != "running":
        return plan
    _moves(view, now, plan, new_id)
    if view.rules.format is Format.ARENA:
        _arena(view, free, now, plan, new_id)
    else:
        _next_round(view, now, plan, force_next, pairer or DutchPairer(), new_id)
    _offers(view, free, now, plan)
    return plan


def _moves(view: EventView, now: float, plan: Plan, new_id: Callable[[], UUID]) -> None:
    for row in view.rows:
        if row.state == "offered" and row.acknowledge_by is not None and now >= row.acknowledge_by:
            plan.put(replace(row, state="moved", finished_at=now, note="not acknowledged in time"))
            copy = Row(new_id(), row.round, row.board, row.player0, row.player1, "waiting", now,
                       moved_from=row.uuid, avoid_kiosk=row.kiosk, berserk=row.berserk)
            plan.put(copy)
            plan.log.append(("moved", row.uuid, {"to": str(copy.uuid), "kiosk": str(row.kiosk)}))


def _next_round(view: EventView, now: float, plan: Plan, force: bool, pairer: SwissPairer,
                new_id: Callable[[], UUID]) -> None:
    total = view.total_rounds
    assert total is not None
    current = view.current_round
    rows = _current(view, plan)
    settled = all(r.state in SETTLED for r in rows if r.round == current)
    if current >= total:
        if settled:
            plan.finished = True
        return
    if not force and not (settled and (view.auto_advance or current == 0)):
        return
    if force and not settled:
        for r in rows:
            if r.round == current and r.state in (*OPEN, "aborted"):
                plan.put(replace(r, state="cancelled", finished_at=now, note="the director started the next round"))
                plan.log.append(("cancelled", r.uuid, {"why": "next round forced"}))
    number = current + 1
    asked: list[UUID] = []
    if view.rules.format is Format.SWISS:
        asked = [e.player for e in view.entrants if e.active_in(number)
                 and any(b.round == number and b.player == e.player for b in view.requested)]
        paired = pairer.pair(view.entrants, view.games, view.byes, number, total, view.forbidden, view.forfeits,
                             asked)
        boards = [p.seats for p in paired.pairings]
        byes = [] if paired.bye is None else [paired.bye]
    else:
        drawn = [e.player for e in view.entrants]
        paired = round_robin_round(drawn, number)
        active = {e.player for e in view.entrants if e.active_in(number)}
        boards, byes = [], [] if paired.bye is None else [paired.bye]
        for p in paired.pairings:
            a, b = p.seats
            if a in active and b in active:
                boards.append(p.seats)
            elif a in active or b in active:  # the opponent withdrew: a bye
                byes.append(a if a in active else b)
    for board, (a, b) in enumerate(boards, start=1):
        plan.put(Row(new_id(), number, board, a, b, "waiting", now))
    for k, player in enumerate(byes, start=len(boards) + 1):
        plan.put(Row(new_id(), number, k, player, None, "bye", now, finished_at=now))
    for k, player in enumerate(asked, start=len(boards) + len(byes) + 1):
        plan.put(Row(new_id(), number, k, player, None, "bye", now, finished_at=now, note="a bye they asked for",
                     half_bye=True))
    plan.current_round = number
    plan.log.append(("paired", None, {"round": number, "boards": len(boards), "byes": len(byes),
                                      "half_byes": len(asked), "forced": force and not settled}))


def _arena(view: EventView, free: Sequence[UUID], now: float, plan: Plan,
           new_id: Callable[[], UUID]) -> None:
    rows = _current(view, plan)
    if view.ends_at is not None and now >= view.ends_at:
        for r in rows:
            if r.state in ("waiting", "offered"):
                plan.put(replace(r, state="cancelled", finished_at=now, note="the arena's time is up"))
        plan.finished = True
        plan.log.append(("finished", None, {}))
        return
    busy = {p for r in rows if r.state in OPEN for p in r.players}
    active = [e for e in view.entrants if e.withdrawn_after is None and e.player not in busy]
    spare = [k for k in free if k not in plan.taken]
    waiting_rows = sum(1 for r in rows if r.state == "waiting")
    room = len(spare) - waiting_rows
    if len(active) < 2 or room <= 0:
        return
    since = _waiting_since(rows)
    first = [e for _, e in sorted(enumerate(active), key=lambda ke: (since.get(ke[1].player, -math.inf), ke[0]))]
    places = {s.player: s.rank for s in arena_standings(view.entrants, view.games, view.rules, view.forfeits)}
    pool = [Waiting(e.player, places.get(e.player, len(places)), e.rating) for e in first[:2 * room + SLACK]]
    pairs: list[Pairing] = pair_waiting(pool, view.games)
    pairs = _longest_waiting([p for p in pairs if unordered(*p.seats) not in view.forbidden], since)[:room]
    start = max((r.board for r in rows), default=0) + 1
    for k, p in enumerate(pairs):
        row = Row(new_id(), None, start + k, p.seats[0], p.seats[1], "waiting", now)
        plan.put(row)
    if pairs:
        plan.log.append(("paired", None, {"boards": len(pairs), "waiting": len(active) - 2 * len(pairs)}))


def _waiting_since(rows: Iterable[Row]) -> dict[UUID, float]:
    """When each player's last pairing ended (a player who never had one is not in it: waiting since the start)."""
    since: dict[UUID, float] = {}
    for r in rows:
        if r.finished_at is not None:
            for p in r.players:
                since[p] = max(since.get(p, r.finished_at), r.finished_at)
    return since


def _longest_waiting(pairs: list[Pairing], since: dict[UUID, float]) -> list[Pairing]:
    """``pairs`` with the pair of the longest-waiting player first (then in the matching's order)."""
    ranked = sorted(enumerate(pairs), key=lambda kp: (min(since.get(x, -math.inf) for x in kp[1].seats), kp[0]))
    return [p for _, p in ranked]


def _offers(view: EventView, free: Sequence[UUID], now: float, plan: Plan) -> None:
    waiting = sorted((r for r in _current(view, plan) if r.state == "waiting"),
                     key=lambda r: (r.round or 0, r.board, r.created_at))
    spare = [k for k in free if k not in plan.taken]
    for row in waiting:
        if not spare:
            return
        kiosk = next((k for k in spare if k != row.avoid_kiosk), spare[0])
        spare.remove(kiosk)
        plan.taken.add(kiosk)
        plan.put(replace(row, state="offered", kiosk=kiosk, offered_at=now,
                         acknowledge_by=now + view.ack_timeout_s))
        plan.log.append(("offered", row.uuid, {"kiosk": str(kiosk)}))


def legal_repair(view: EventView, players: Iterable[UUID], round_number: int | None,
                 replacing: UUID | None) -> None:
    """Refuse a pairing by hand that places a player not entered, withdrawn, or already placed in the
    round (other than on the pairing it replaces), or pairs a forbidden pair; ``PairingFailed``."""
    entered = {e.player: e for e in view.entrants}
    chosen = list(players)
    if len(set(chosen)) != len(chosen):
        raise PairingFailed("a player cannot sit on both seats")
    for p in chosen:
        e = entered.get(p)
        if e is None:
            raise PairingFailed(f"player {p} is not entered in this event")
        if e.withdrawn_after is not None:
            raise PairingFailed(f"{e.name} has withdrawn")
        for r in view.rows:
            if r.uuid == replacing or p not in r.players:
                continue
            if (round_number is not None and r.round == round_number and r.state not in ("moved", "cancelled")) \
                    or r.state in OPEN:
                raise PairingFailed(f"{e.name} is already placed (pairing {r.uuid})")
    if len(chosen) == 2 and unordered(chosen[0], chosen[1]) in view.forbidden:
        raise PairingFailed("this pair is forbidden in this event")
