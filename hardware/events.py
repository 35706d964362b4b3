"""Input events and the thread-safe queue the kiosk drains once per frame.

Every input (GPIO button, serial panel line, simulator key) becomes one
immutable :class:`InputEvent`, stamped with its arrival time by the queue's
injected clock at the moment it arrives, on whatever thread it arrives.
"""

from __future__ import annotations

import enum
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .errors import InvalidValue

Clock = Callable[[], int]
"""A callable returning monotonic nanoseconds (``time.monotonic_ns`` by default)."""


class Button(enum.Enum):
    """A button as the kiosk understands it."""

    ACCEPT = "ACCEPT"
    RAISE = "RAISE"
    DECLINE = "DECLINE"
    START_CONTINUE = "START_CONTINUE"
    REVEAL = "REVEAL"
    HELP = "HELP"

    @property
    def is_game_button(self) -> bool:
        """True for the three per-player buttons (accept, raise, decline)."""
        return self in GAME_BUTTONS


GAME_BUTTONS: tuple[Button, ...] = (Button.ACCEPT, Button.RAISE, Button.DECLINE)
"""The per-player buttons, in panel order."""

KIOSK_BUTTONS: tuple[Button, ...] = (Button.START_CONTINUE, Button.REVEAL, Button.HELP)
"""Buttons that belong to the kiosk rather than to one player."""

PLAYERS: tuple[int, ...] = (0, 1)
"""The two seats."""


@dataclass(frozen=True, slots=True)
class InputEvent:
    """One press of one button.

    ``player`` is 0 or 1 for a player's button and ``None`` for a kiosk button;
    ``arrival_ns`` is the queue clock's reading when the input arrived;
    ``source`` names where it came from (``"gpio"``, ``"serial"``, ...).
    """

    player: int | None
    button: Button
    arrival_ns: int
    source: str


class EventQueue:
    """A thread-safe queue of :class:`InputEvent` that also owns the arrival clock.

    Producers call :meth:`push` (which stamps the arrival time) or :meth:`put`
    (for an already stamped event); the kiosk calls :meth:`drain` once a frame.
    The queue holds at most ``capacity`` events; beyond that the newest event
    is refused and counted in :attr:`overflowed`.
    """

    def __init__(self, clock: Clock = time.monotonic_ns, capacity: int = 4096) -> None:
        if capacity < 1:
            raise InvalidValue("capacity must be at least 1")
        self._clock = clock
        self._capacity = capacity
        self._items: deque[InputEvent] = deque()
        self._cond = threading.Condition(threading.Lock())
        self.overflowed = 0

    def now(self) -> int:
        """The arrival clock's reading: every input is stamped with this clock and no other."""
        return self._clock()

    def put(self, event: InputEvent) -> bool:
        """Append a stamped event; False if the queue was full and it was dropped."""
        with self._cond:
            if len(self._items) >= self._capacity:
                self.overflowed += 1
                return False
            self._items.append(event)
            self._cond.notify_all()
            return True

    def push(self, player: int | None, button: Button, source: str) -> InputEvent:
        """Stamp an input with the clock now, enqueue it and return it."""
        event = InputEvent(player, button, self._clock(), source)
        self.put(event)
        return event

    def put_event(self, player: int | None, button: Button, arrival_ns: int, source: str) -> bool:
        """Enqueue an input whose arrival was already stamped with :meth:`now`."""
        return self.put(InputEvent(player, button, arrival_ns, source))

    def drain(self) -> list[InputEvent]:
        """Remove and return every queued event, oldest arrival first."""
        with self._cond:
            items = list(self._items)
            self._items.clear()
        items.sort(key=lambda e: e.arrival_ns)
        return items

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)

    def wait(self, count: int = 1, timeout: float | None = None) -> bool:
        """Block until at least ``count`` events are queued; False on timeout.

        Meant for tests and tools that wait on a producer thread.
        """
        with self._cond:
            return self._cond.wait_for(lambda: len(self._items) >= count, timeout)
