"""When the controller's screen or LEDs next need a frame: the loop sleeps until then."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine import LOW_BANK_NS as LOW_BANK_NS  # the controller reads it from here
from engine import NS_PER_S
from kiosk.config import KioskConfig
from kiosk.table.computer import ComputerPlayer
from kiosk.table.presses import Hold
from kiosk.table.repeat import StepperRepeat
from kiosk.table.review_desk import REVIEW_POLL_NS, ReviewDesk
from kiosk.table.session import GameSession
from kiosk.table.state import ChipFlight, UiState

MAX_SLEEP_NS = 1000 * 1_000_000
"""The loop wakes at least this often (watchdog, panel status) even when nothing changes."""
BLINK_SLEEP_NS = 125 * 1_000_000
"""While a low bank makes LEDs blink, the loop wakes this often to drive them."""


class Waiting(Protocol):
    """What the next due time depends on (the controller's state, read only)."""

    @property
    def config(self) -> KioskConfig: ...
    @property
    def flight(self) -> ChipFlight | None: ...
    @property
    def session(self) -> GameSession | None: ...
    @property
    def computer(self) -> ComputerPlayer | None: ...
    @property
    def holds(self) -> Mapping[object, Hold]: ...
    @property
    def hold_ns(self) -> int: ...
    @property
    def steppers(self) -> StepperRepeat: ...
    @property
    def ui(self) -> UiState: ...
    @property
    def review(self) -> ReviewDesk: ...


def next_due_ns(c: Waiting, now: int) -> int:
    """When the next thing the screen or the LEDs must show is due (a clock digit, the deadline,
    a message's end, a blinking LED, a chip flight's next frame, an admin hold, a review's progress; at most a second)."""
    due = [now + MAX_SLEEP_NS]
    if c.flight is not None:
        due.append(now + NS_PER_S // c.config.display.fps)
    s = c.session
    if s is not None:
        m = s.match
        running = m.clock_running
        if running is not None:
            delay = m.delay_left_ns(now)
            left = delay if delay > 0 else m.bank_ns(running, now)
            due.append(now + left % NS_PER_S + 1)  # the next displayed digit
            deadline = m.deadline_ns()
            if deadline is not None:
                due.append(deadline)
            if delay <= 0 and m.bank_ns(running, now) < LOW_BANK_NS:
                due.append(now + BLINK_SLEEP_NS)
        due.extend(message.until_ns for message in s.live_messages(now))
    if c.computer is not None and s is not None:
        thought = c.computer.due_ns(s.match, now)
        if thought is not None:
            due.append(thought)
    due.extend(hold.since_ns + c.hold_ns for hold in c.holds.values())
    repeat = c.steppers.next_due_ns()
    if repeat is not None:
        due.append(repeat)
    if c.review.running or (c.review.wanted and c.review.job is None):  # its progress, or its start
        due.append(now + REVIEW_POLL_NS)
    if c.ui.records.replay_playing:
        due.append(c.ui.records.replay_due_ns or now + NS_PER_S // c.config.display.fps)
    until = c.ui.owner.locked_until_ns
    if c.ui.owner.keypad is not None and until is not None and until > now:
        due.append(now + (until - now) % NS_PER_S + 1)  # the lock's countdown, and its end
    return min(due)
