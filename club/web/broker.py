"""The live tables held by the hub: the newest projection of each kiosk's match, numbered for the browsers.

Every accepted projection gets the next event number; the SSE ``id`` is ``BOOT-N``, the number
after this process's random boot mark. A browser that reconnects sends the last id it saw
(``Last-Event-ID``) and gets every table changed since; one that never connected, or saw an id of
another process (the hub restarted: its numbers start again at 1), gets them all. A table whose
kiosk has sent nothing for ``keep_s`` seconds leaves the list; a table whose kiosk says it left its
match unfinished (``LiveClosed``) leaves at once, with an event number of its own (the SSE event
``gone``). Lives in the hub's event loop: only
its coroutines and handlers touch it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from club.web.livewire import LiveClosed, LiveUpdate


@dataclass(frozen=True, slots=True)
class LiveTable:
    """One kiosk's newest projection."""

    kiosk: uuid.UUID
    name: str
    """The kiosk's name (the table's name on the page)."""
    match: str
    seq: int
    players: tuple[str | None, str | None]
    computer_level: int | None
    state: dict[str, Any]
    event: int
    """The event number it was published with."""
    received: float
    """When it arrived (the board's clock, seconds)."""

    @property
    def key(self) -> str:
        """The table's key in URLs and events: the kiosk's uuid as 32 hex digits."""
        return self.kiosk.hex


class LiveBoard:
    """The newest projection per kiosk and a wake-up for the event streams."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, keep_s: float = 1800.0) -> None:
        self._clock = clock
        self._keep_s = keep_s
        self._tables: dict[uuid.UUID, LiveTable] = {}
        self._gone: dict[str, int] = {}
        """Tables closed by their kiosk: key -> the event number of their leaving."""
        self._event = 0
        self._changed = asyncio.Event()
        self.boot = uuid.uuid4().hex[:12]
        """This process's mark in the event ids: a restarted hub's ids never pass for this one's."""

    def now(self) -> float:
        """The board's clock (seconds)."""
        return self._clock()

    @property
    def last_event(self) -> int:
        """The newest event number given (0: none yet)."""
        return self._event

    def offer(self, kiosk: uuid.UUID, name: str, update: LiveUpdate) -> LiveTable | None:
        """Publish ``update`` from ``kiosk``; None (nothing changes) when it is not newer than the held one."""
        held = self._tables.get(kiosk)
        if held is not None and held.match == update.match and update.seq <= held.seq:
            return None
        self._event += 1
        self._gone.pop(kiosk.hex, None)
        table = LiveTable(kiosk, name, update.match, update.seq,
                          (update.players[0].name, update.players[1].name), update.computer_level,
                          update.state.model_dump(mode="json"), self._event, self._clock())
        self._tables[kiosk] = table
        self._wake()
        return table

    def close(self, kiosk: uuid.UUID, closed: LiveClosed) -> int | None:
        """Take ``kiosk``'s table off the list when it still shows the closed match and ``closed`` is newer
        than its projection; the event number of its leaving, or None (nothing changes)."""
        held = self._tables.get(kiosk)
        if held is None or held.match != closed.match or closed.seq <= held.seq:
            return None
        del self._tables[kiosk]
        self._event += 1
        self._gone[kiosk.hex] = self._event
        self._wake()
        return self._event

    def gone_since(self, event: int | None) -> list[tuple[str, int]]:
        """The tables closed after event number ``event`` (none for None or a number never given: a
        browser that starts again gets only the tables there are), as (key, event number)."""
        if event is None or event > self._event:
            return []
        return sorted(((k, e) for k, e in self._gone.items() if e > event), key=lambda g: g[1])

    def _wake(self) -> None:
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    def event_id(self, event: int) -> str:
        """The SSE ``id`` of event number ``event``."""
        return f"{self.boot}-{event}"

    def event_of(self, event_id: str) -> int | None:
        """The event number of an id this process gave; None for another process's id or nonsense."""
        boot, _, number = event_id.partition("-")
        if boot != self.boot or not number.isdigit() or len(number) > 18:
            return None
        return int(number)

    def tables(self) -> list[LiveTable]:
        """The tables heard from within ``keep_s``, by name."""
        now = self._clock()
        for key in [k for k, t in self._tables.items() if now - t.received > self._keep_s]:
            del self._tables[key]
        return sorted(self._tables.values(), key=lambda t: (t.name, t.key))

    def table(self, key: str) -> LiveTable | None:
        """The table with key ``key`` (32 hex digits), if live."""
        return next((t for t in self.tables() if t.key == key), None)

    def since(self, event: int | None) -> list[LiveTable]:
        """The tables changed after event number ``event`` (all for None or a number never given)."""
        tables = self.tables()
        if event is None or event > self._event:
            return tables
        return sorted((t for t in tables if t.event > event), key=lambda t: t.event)

    async def wait(self, event: int, timeout_s: float) -> None:
        """Return once an event after ``event`` exists, or after ``timeout_s``."""
        if self._event > event:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout_s)
