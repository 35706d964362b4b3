"""The hub's review worker (issue 24 #5): every verified match reviewed with ``engine.review``, one at a
time, in a process of its own at the lowest priority, the results stored for the club page.

``python -m club review-worker --database DSN`` (or ``python -m club serve --reviews``, which starts
it as a child): the worker claims the newest verified match without a review (a row in ``reviews``
with a lease, so two workers never take the same match and a killed worker's match is taken again
when its lease runs out), reviews each seat that is not the computer's with the table's own samples
and seed (so the hub shows the review the table shows), and stores per seat the summary, the luck and
the flagged decisions, each with that seat's own hand at the decision (docs/review.md, "On the hub").
A match that cannot be reviewed is stored as failed with the reason and not tried again.

Why a process and not a thread of the hub: the review is pure Python and would hold the hub's
interpreter lock for seconds at a time, stalling uploads and the live tables. The process asks the
kernel for ``SCHED_IDLE`` (it runs only on a core nothing else wants) and nice 19 where that is refused.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from club.database import connect
from club.errors import SetupError
from club.verify import engine_version
from engine import EngineError, Match
from engine.clock import NS_PER_MS
from engine.review import review_scenario
from engine.scenario import Scenario, parse_scenario, step_action
from engine.snapshot import restore_text, save_text
from kiosk.store.audit import scenario_of_entries
from kiosk.store.errors import KioskStoreError
from kiosk.store.records import stored_entry

log = logging.getLogger("club.review_worker")
Conn = psycopg.Connection[tuple[Any, ...]]
HUB_REVIEW_SAMPLES = 100
"""Worlds per decision: the table's ``REVIEW_SAMPLES`` (``kiosk.table.review_job``), so that with the
same seed the hub's review of a match is the table's, decision for decision (tested). About 15 s of
one core per match here, a minute on a Raspberry Pi 4 (docs/review.md, "On the hub")."""
HUB_REVIEW_SEED = 0
"""The table's seed (``ReviewJob``'s default)."""
LEASE_S = 900
"""A claimed match is taken again by any worker when its review has not been stored after this long."""
IDLE_S = 10.0
"""How often an idle worker looks for new verified matches."""


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One seat's review as stored: the summary, the luck and the flagged decisions."""

    seat: int
    player: uuid.UUID | None
    summary: dict[str, Any]
    luck: dict[str, Any] | None
    flagged: list[dict[str, Any]]


def lower_priority() -> str:
    """Ask the kernel to run this process only when a core is idle; what it got: ``idle``, ``nice 19``, or
    ``unchanged`` where both are refused (a systemd unit whose system call filter denies ``@resources``:
    such a unit sets ``CPUSchedulingPolicy=idle`` itself)."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return "idle"
    except (AttributeError, OSError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)
        return "nice 19"
    except (AttributeError, OSError):
        return "unchanged"


def reviewed_seats(players: tuple[Any, Any], computer_level: int | None) -> tuple[int, ...]:
    """The seats a review is made for: both, but in a match against the computer only the named
    players' (the computer sits where no player is named; a guest's seat cannot be told from it)."""
    if computer_level is None:
        return (0, 1)
    return tuple(seat for seat in (0, 1) if players[seat] is not None)


def review_match(scenario: Scenario, seats: Iterable[int], players: tuple[Any, Any], *,
                 samples: int = HUB_REVIEW_SAMPLES, seed: int = HUB_REVIEW_SEED) -> list[SeatReview]:
    """Each of ``seats`` reviewed; each flagged decision (not ``good``) with the seat's hand at it."""
    done = []
    for seat in seats:
        review = review_scenario(scenario, seat, samples=samples, seed=seed)
        flagged = [{k: v for k, v in d.items() if k != "options"} for d in review["decisions"] if d["class"] != "good"]
        hands = hands_before(scenario, seat, {d["step"] for d in flagged})
        for d in flagged:
            d["hand"] = hands.get(d["step"], [])
        luck = review["luck"]
        done.append(SeatReview(seat, players[seat], review["summary"],
                               None if luck is None else {k: luck[k] for k in ("result", "luck", "adjusted")},
                               flagged))
    return done


def hands_before(scenario: Scenario, seat: int, steps: set[int]) -> dict[int, list[str]]:
    """The tiles in ``seat``'s hand just before each of ``steps`` (indices in the scenario's steps),
    the scenario replayed as the archive's replay plays it."""
    found: dict[int, list[str]] = {}
    if not steps:
        return found
    match = Match(scenario.config, boot_id="review-hand-0")
    boot = 0
    for i, step in enumerate(scenario.steps):
        if i in steps:
            found[i] = [str(t) for t in match.hand(seat)]
        if i >= max(steps):
            break
        now_ns = round(step["t"] * NS_PER_MS)
        match.advance(now_ns)
        kind = step["do"]
        if kind == "restart":
            boot += 0 if step.get("same_boot", True) else 1
            match, _ = restore_text(save_text(match), boot_id=f"review-hand-{boot}", now_ns=now_ns)
        elif kind != "tick" and not match.is_over:
            with contextlib.suppress(EngineError, KeyError, TypeError, ValueError):
                match.apply(step_action(step, match, scenario.deals), now_ns)
    return found


def claim(conn: Conn, *, samples: int, seed: int, lease_s: float = LEASE_S) -> uuid.UUID | None:
    """Take the newest verified match without a review (or one whose claim ran out); None when there is none."""
    version = engine_version()
    with conn.transaction():
        row = conn.execute(
            "UPDATE reviews SET lease_until = now() + make_interval(secs => %(lease)s), claimed_at = now(),"
            " samples = %(samples)s, seed = %(seed)s, engine_version = %(version)s"
            " WHERE match = (SELECT match FROM reviews WHERE status = 'running' AND lease_until < now()"
            "                LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING match",
            {"lease": lease_s, "samples": samples, "seed": seed, "version": version}).fetchone()
        if row is None:
            row = conn.execute(
                "INSERT INTO reviews (match, status, lease_until, samples, seed, engine_version)"
                " SELECT m.uuid, 'running', now() + make_interval(secs => %(lease)s), %(samples)s, %(seed)s,"
                "        %(version)s FROM matches m"
                " WHERE m.status = 'verified' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.match = m.uuid)"
                " ORDER BY m.ended_wall DESC, m.uuid DESC LIMIT 1"
                " ON CONFLICT (match) DO NOTHING RETURNING match",
                {"lease": lease_s, "samples": samples, "seed": seed, "version": version}).fetchone()
    return None if row is None else uuid.UUID(str(row[0]))


def load(conn: Conn, key: uuid.UUID) -> tuple[Scenario, tuple[Any, Any], int | None]:
    """The stored match as a scenario (as the hub's verification builds it), its players and computer level."""
    head = conn.execute("SELECT config, local_id, player0, player1, computer_level FROM matches WHERE uuid = %s",
                        (key,)).fetchone()
    if head is None:
        raise LookupError(f"no match {key}")
    rows = conn.execute("SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"
                        " FROM match_rows WHERE match = %s ORDER BY seq", (key,)).fetchall()
    entries = [stored_entry(int(head[1]), tuple(r)) for r in rows]
    scenario = parse_scenario(scenario_of_entries(dict(head[0]), entries, int(head[1]), name=str(key)))
    return scenario, (head[2], head[3]), head[4]


def store(conn: Conn, key: uuid.UUID, seats: list[SeatReview], cpu_seconds: float) -> None:
    """The match's review, stored whole in one transaction."""
    with conn.transaction():
        for s in seats:
            luck = s.luck or {}
            conn.execute(
                "INSERT INTO seat_reviews (match, seat, player, decisions, mean_loss, good, inaccuracy, mistake,"
                " blunder, result, luck, adjusted, flagged) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (match, seat) DO NOTHING",
                (key, s.seat, s.player, s.summary["decisions"], s.summary["mean_loss"], s.summary["good"],
                 s.summary["inaccuracy"], s.summary["mistake"], s.summary["blunder"], luck.get("result"),
                 luck.get("luck"), luck.get("adjusted"), Jsonb(s.flagged)))
        conn.execute("UPDATE reviews SET status = 'done', cpu_seconds = %s, reviewed_at = now(), error = NULL"
                     " WHERE match = %s", (cpu_seconds, key))


def fail(conn: Conn, key: uuid.UUID, why: str) -> None:
    """The match cannot be reviewed: stored as failed with the reason (not tried again)."""
    with conn.transaction():
        conn.execute("UPDATE reviews SET status = 'failed', error = %s, reviewed_at = now() WHERE match = %s",
                     (why[:500], key))


def release(conn: Conn, key: uuid.UUID) -> None:
    """Give a claimed match back (the worker is stopping): another run takes it at once."""
    with conn.transaction():
        conn.execute("DELETE FROM reviews WHERE match = %s AND status = 'running'", (key,))


def review_one(conn: Conn, *, samples: int = HUB_REVIEW_SAMPLES, seed: int = HUB_REVIEW_SEED,
               clock: Callable[[], float] = time.process_time) -> uuid.UUID | None:
    """Claim, review and store one match; the match (None when none was waiting). ``conn`` is in
    autocommit mode: each step is its own short transaction, and nothing stays open while reviewing."""
    if not conn.autocommit:
        raise ValueError("the review worker's connection must be in autocommit mode")
    key = claim(conn, samples=samples, seed=seed)
    if key is None:
        return None
    started = clock()
    try:
        scenario, players, level = load(conn, key)
        seats = review_match(scenario, reviewed_seats(players, level), players, samples=samples, seed=seed)
    except (EngineError, KioskStoreError, LookupError, ValueError) as exc:
        log.warning("match %s cannot be reviewed: %s", key, exc)
        fail(conn, key, f"{type(exc).__name__}: {exc}")
        return key
    except BaseException:
        with contextlib.suppress(psycopg.Error):
            release(conn, key)
        raise
    store(conn, key, seats, clock() - started)
    log.info("match %s reviewed: %d seats in %.1f s of CPU", key, len(seats), clock() - started)
    return key


def run(dsn: str, *, samples: int = HUB_REVIEW_SAMPLES, seed: int = HUB_REVIEW_SEED, idle_s: float = IDLE_S,
        once: bool = False, stop: threading.Event | None = None) -> int:
    """Review matches until ``stop`` is set (or, with ``once``, until none is waiting); how many were reviewed.
    A database that does not answer is tried again after ``idle_s``."""
    stop = stop or threading.Event()
    reviewed = 0
    while not stop.is_set():
        try:
            with connect(dsn) as conn:
                conn.autocommit = True
                while not stop.is_set() and review_one(conn, samples=samples, seed=seed) is not None:
                    reviewed += 1
        except (psycopg.OperationalError, SetupError) as exc:
            log.warning("the database does not answer (%s); trying again in %.0f s", type(exc).__name__, idle_s)
        if once:
            break
        stop.wait(idle_s)
    return reviewed
