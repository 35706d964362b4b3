"""``AssignmentWorker``: asks the hub for this table's club-event pairing, on a thread of its own.

Every 5 s while the hub answers (``kiosk.store.keeper.Backoff``'s waits when it does not, as the
sync's worker), ``GET /api/v1/kiosk/assignment`` (docs/events-protocol.md). A new pairing is stored in
the journal first (through the store's writer, ``KeeperAccess``, like the sync's bookkeeping; its
players this table lacks are added), then acknowledged (``POST …/ack``). The hub's word ends an
unstarted pairing only: a 409 or 404 to the acknowledgement, or ``pairing: null``, drops it; a
pairing the players claimed at the table (``PairingBox``) or started is kept and played to the end.
A different pairing while one is kept is taken only once the hub refuses the kept one's
acknowledgement (one pairing at a time). The frame loop never waits: it reads the ``PairingBox``.

The same rounds carry the players' joins (``kiosk.club.joins``): the joins pressed since the last
round are kept in the journal first (through the store's writer; a press also wakes a small thread
that keeps it at once, whatever the round waits for), the answer's list of events taking entries is
kept and shown, and after the pairing's work every join the hub has not answered is sent with its
key (``POST /api/v1/kiosk/events/{uuid}/entrants``) and its answer kept. A press wakes the rounds too
(a round now); with the hub away the join stays in the journal and is sent at the first round it answers.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Self

from engine import NS_PER_S
from hardware.backoff import Backoff
from kiosk.club.client import HubClient, hub_url, read_token
from kiosk.club.errors import ClubSyncError, HubConflict, HubRefused, HubUnreachable, SyncSetupError
from kiosk.club.joins import (
    Join,
    answer_join,
    kept_joinable,
    parse_answer,
    parse_joinable,
    shown_joins,
    store_join,
    store_joinable,
    unsent_joins,
)
from kiosk.club.pairing import (
    BadPairing,
    Pairing,
    drop_pairing,
    link_match,
    mark_acked,
    open_pairing,
    parse_pairing,
    played,
    store_pairing,
)
from kiosk.club.rounds import RoundThread
from kiosk.club.sync import JournalAccess
from kiosk.club.table_pairing import PairingBox, Started
from kiosk.club.worker import HUB_BACKOFF, KeeperAccess, delay_ns
from kiosk.store.errors import KioskStoreError
from kiosk.store.keeper import JournalKeeper

POLL_NS = 5 * NS_PER_S
"""The hub is asked this often while it answers."""


@dataclass(frozen=True, slots=True)
class AssignmentState:
    """How the polling stands (tests, logs)."""

    rounds: int = 0
    failures: int = 0
    error: str | None = None
    retry_ns: int | None = None
    shown: str | None = None
    """The pairing the journal keeps open after the round (its UUID), or None."""
    did: str = ""
    """What the round did: "", "stored", "dropped", "kept" (one line)."""


class AssignmentWorker(RoundThread[AssignmentState]):
    """Polls on a daemon thread; ``run_once`` is one round of it (tests call it with a fake clock)."""

    def __init__(self, access: JournalAccess, client: HubClient, box: PairingBox, *, clock: Callable[[], int],
                 wall_clock: Callable[[], float] = time.time, backoff: Backoff = HUB_BACKOFF,
                 interval_ns: int = POLL_NS, log: Callable[[str], None] | None = None) -> None:
        super().__init__(AssignmentState(), name="club-assignment", clock=clock, log=log)
        self.access = access
        self.client = client
        self.box = box
        self.wall_clock = wall_clock
        self.backoff = backoff
        self.interval_ns = interval_ns
        box.joins.wake = self._pressed
        self._joins_due = threading.Event()
        self._joins_thread: threading.Thread | None = None

    def start(self) -> Self:
        """The rounds' thread, and a small one keeping each join pressed in the journal at once (a round may
        be waiting for the hub for as long as a request's timeout)."""
        self._joins_thread = threading.Thread(target=self._keep_joins_soon, name="club-joins", daemon=True)
        self._joins_thread.start()
        return super().start()

    def stop(self, timeout_s: float = 5.0) -> None:
        super().stop(timeout_s)
        self._joins_due.set()
        if self._joins_thread is not None:
            self._joins_thread.join(timeout_s)

    def _pressed(self) -> None:
        """A join was pressed: keep it in the journal now, and a round now to send it."""
        self._joins_due.set()
        self.poke()

    def _keep_joins_soon(self) -> None:
        while not self._stop.is_set():
            self._joins_due.wait(60.0)
            self._joins_due.clear()
            if self._stop.is_set():
                return
            try:
                self._keep_joins()
            except Exception as exc:  # kept in the box: the next round keeps it (and says why it could not)
                self._say(f"club event: a join could not be kept in the journal now ({_why(exc)})")

    def _before_rounds(self) -> None:
        self.load()  # a restart shows the journal's unstarted pairing before the hub answers

    def load(self) -> None:
        """What the journal keeps open, into the box (a restart shows an unstarted pairing before the hub answers)."""
        try:
            self.box.show(self.access.read(open_pairing))
            self.box.joins.show(self.access.read(kept_joinable))
            self._show_joins()
        except (ClubSyncError, KioskStoreError) as exc:
            self._say(f"club event: the journal's pairing cannot be read now ({_why(exc)})")

    def _round(self, now_ns: int) -> AssignmentState:
        rounds = self.state.rounds + 1
        try:
            did = self._ask()
            self._send_joins()  # after the pairing's acknowledgement: a join that fails never holds it up
            shown = self.access.read(open_pairing)
            self.box.show(shown)
        except (ClubSyncError, KioskStoreError) as exc:
            return self._failed(now_ns, rounds, _why(exc))
        except Exception as exc:  # a bug in a round must not end the thread
            return self._failed(now_ns, rounds, f"internal error {type(exc).__name__}: {exc}")
        self._due_ns = now_ns + self.interval_ns
        if self.state.failures:
            self._say("club event: the hub answers again")
        return AssignmentState(rounds, 0, None, self._due_ns, None if shown is None else shown.uuid, did)

    def _failed(self, now_ns: int, rounds: int, why: str) -> AssignmentState:
        self.box.joins.show(reachable=False)
        failures = self.state.failures + 1
        self._due_ns = now_ns + delay_ns(self.backoff, failures)
        if failures in (1, 2, 4, 8) or failures % 16 == 0:
            self._say(f"club event: {why} (attempt {failures}; next in "
                      f"{delay_ns(self.backoff, failures) / NS_PER_S:.0f} s)")
        return AssignmentState(rounds, failures, why, self._due_ns, self.state.shown, "")

    def _ask(self) -> str:
        """The round's work: links first (no network), then the hub's answer acted on; what it did."""
        self._write_links()
        self._keep_joins()
        kept = self.access.read(open_pairing)
        self.box.show(kept)
        answer = self.client.assignment()
        if "pairing" not in answer:
            raise HubUnreachable("the hub's assignment answer has no pairing")
        self._take_joinable(answer.get("joinable"))
        held = self.box.held()
        if answer["pairing"] is None:
            if kept is not None and kept.uuid not in held:
                self._drop(kept, "the hub has no pairing for this table")
                return "dropped"
            return ""
        try:
            offered = parse_pairing(answer["pairing"])
        except BadPairing as exc:
            raise HubUnreachable(f"the hub's pairing is not one ({exc})") from None
        if offered.uuid in held or self.access.read(lambda c: played(c, offered.uuid)):
            return ""  # the table plays it (the hub lists it until the result is in)
        if kept is not None and kept.uuid != offered.uuid:
            if kept.uuid in held or self._acknowledge(kept):
                self._say(f"club event: the hub offers pairing {offered.uuid} while this table keeps {kept.uuid}")
                return "kept"
            kept = None
        did = ""
        if kept is None or kept.body() != offered.body():
            wall = float(self.wall_clock())
            self.access.write(lambda c: store_pairing(c, offered, wall))
            did = "stored"
            self._say(f"club event: pairing {offered.uuid} stored ({offered.players[0].name} vs "
                      f"{offered.players[1].name}, {offered.event_name})")
        if kept is None or not kept.acked:
            self._acknowledge(offered)
        return did

    def _acknowledge(self, pairing: Pairing) -> bool:
        """``POST …/ack``; True when the hub confirmed it, False when it refused it (dropped here)."""
        try:
            self.client.acknowledge(pairing.uuid)
        except HubConflict as exc:
            self._drop(pairing, exc.message)
            return False
        except HubRefused as exc:
            if exc.status != 404:
                raise
            self._drop(pairing, exc.message)
            return False
        wall = float(self.wall_clock())
        self.access.write(lambda c: mark_acked(c, pairing.uuid, wall))
        return True

    def _drop(self, pairing: Pairing, why: str) -> None:
        wall = float(self.wall_clock())
        self.access.write(lambda c: drop_pairing(c, pairing.uuid, why, wall))
        self._say(f"club event: pairing {pairing.uuid} dropped: {why}")

    def _keep_joins(self) -> None:
        """The joins pressed since, into the journal (given back to the box when that fails)."""
        joins = self.box.joins.take_queued()
        if joins:
            try:
                self.access.write(partial(_store_joins, joins))
            except BaseException:
                self.box.joins.put_back(joins)
                raise
            for j in joins:
                self._say(f"club event: join {j.key} kept ({j.player_name} to {j.event.name})")
        self._show_joins()

    def _show_joins(self) -> None:
        wall = float(self.wall_clock())
        self.box.joins.show(kept=self.access.read(lambda c: shown_joins(c, wall)))

    def _take_joinable(self, value: object) -> None:
        """The answer's events taking entries, kept and shown (an unreadable list is said and the last kept)."""
        try:
            events = parse_joinable(value)
        except BadPairing as exc:
            self._say(f"club event: the hub's list of events to join is not one ({exc})")
            self.box.joins.show(reachable=True)
            return
        if events != self.box.joins.events():
            self.access.write(lambda c: store_joinable(c, events))
        self.box.joins.show(events, reachable=True)

    def _send_joins(self) -> None:
        """Every join the hub has not answered, sent with its key; each answer kept as it comes."""
        for join in self.access.read(unsent_joins):
            result, reason, message, round_ = self._send(join)
            wall = float(self.wall_clock())
            self.access.write(partial(answer_join, key=join.key, result=result, reason=reason, message=message,
                                      round_=round_, wall=wall))
            self._say(f"club event: join {join.key} ({join.player_name} to {join.event.name}): {result}"
                      + (f" ({reason}: {message})" if result == "refused" else ""))
        self._show_joins()

    def _send(self, join: Join) -> tuple[str, str | None, str, int | None]:
        """The hub's answer to ``join``; a refusal for good (a 4xx but 401) is kept as refused."""
        try:
            return parse_answer(self.client.join(join.event.uuid, join.player_uuid, join.player_name, join.key))
        except BadPairing as exc:
            raise HubUnreachable(f"the hub's answer to a join is not one ({exc})") from None
        except HubConflict as exc:
            return "refused", "refused", exc.message, None
        except HubRefused as exc:
            if exc.status == 401:
                raise
            return "refused", exc.code or "refused", exc.message, None

    def _write_links(self) -> None:
        links = self.box.take_started()
        while links:
            link = links[0]
            try:
                self.access.write(partial(_link, link))
            except BaseException:
                self.box.put_back(links)
                raise
            links.pop(0)


def _link(link: Started, conn: sqlite3.Connection) -> None:
    link_match(conn, link.pairing, link.match_uuid, link.berserk)


def _store_joins(joins: list[Join], conn: sqlite3.Connection) -> None:
    for join in joins:
        store_join(conn, join)


def _why(exc: Exception) -> str:
    return exc.message if isinstance(exc, ClubSyncError) else str(getattr(exc, "why", exc))


def start_events(url: str, token_file: str, keeper: JournalKeeper, clock: Callable[[], int],
                 log: Callable[[str], None]) -> AssignmentWorker | None:
    """The kiosk's club-event worker for ``[club] url`` and ``token_file`` with a fresh ``PairingBox``,
    started; None (and a line said) when the club is not configured or its settings cannot work."""
    if not url:
        return None
    try:
        client = HubClient(hub_url(url), read_token(Path(token_file)))
    except SyncSetupError as exc:
        log(f"club event: off: {exc.message}")
        return None
    return AssignmentWorker(KeeperAccess(keeper), client, PairingBox(), clock=clock, log=log).start()
