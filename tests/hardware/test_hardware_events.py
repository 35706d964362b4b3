"""The event type and the thread-safe queue the kiosk drains once a frame."""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter

import pytest
from hardware_support import MS

from hardware.errors import InvalidValue
from hardware.events import GAME_BUTTONS, KIOSK_BUTTONS, Button, EventQueue, InputEvent
from kiosk.timesource import FakeClock


def test_event_is_immutable_and_slotted() -> None:
    event = InputEvent(0, Button.ACCEPT, 5, "gpio")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.player = 1  # type: ignore[misc]
    assert not hasattr(event, "__dict__")


def test_buttons_split_into_game_and_kiosk() -> None:
    assert set(GAME_BUTTONS) | set(KIOSK_BUTTONS) == set(Button)
    assert all(b.is_game_button for b in GAME_BUTTONS)
    assert not any(b.is_game_button for b in KIOSK_BUTTONS)


def test_push_stamps_with_the_injected_clock() -> None:
    clock = FakeClock()
    queue = EventQueue(clock)
    first = queue.push(0, Button.RAISE, "test")
    clock.advance(ns=7 * MS)
    second = queue.push(None, Button.HELP, "test")
    assert second.arrival_ns - first.arrival_ns == 7 * MS
    assert queue.drain() == [first, second]
    assert queue.drain() == []


def test_drain_orders_by_arrival_not_by_insertion() -> None:
    queue = EventQueue(FakeClock())
    late = InputEvent(1, Button.ACCEPT, 200, "a")
    early = InputEvent(0, Button.ACCEPT, 100, "b")
    queue.put(late)
    queue.put(early)
    assert queue.drain() == [early, late]


def test_a_queue_holds_at_least_one_event() -> None:
    with pytest.raises(InvalidValue, match="capacity must be at least 1"):
        EventQueue(FakeClock(), capacity=0)


def test_full_queue_refuses_and_counts() -> None:
    queue = EventQueue(FakeClock(), capacity=2)
    assert queue.put(InputEvent(0, Button.ACCEPT, 1, "t"))
    assert queue.put(InputEvent(0, Button.ACCEPT, 2, "t"))
    assert not queue.put(InputEvent(0, Button.ACCEPT, 3, "t"))
    assert queue.overflowed == 1
    assert [e.arrival_ns for e in queue.drain()] == [1, 2]


def test_many_producer_threads_lose_nothing() -> None:
    queue = EventQueue()
    per_thread, threads = 500, 8
    start = threading.Barrier(threads)

    def produce(player: int) -> None:
        start.wait()
        for _ in range(per_thread):
            queue.push(player % 2, Button.ACCEPT, f"t{player}")

    workers = [threading.Thread(target=produce, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    assert not any(worker.is_alive() for worker in workers)
    events = queue.drain()
    assert Counter(e.source for e in events) == {f"t{i}": per_thread for i in range(threads)}


def test_wait_returns_when_an_event_arrives_from_another_thread() -> None:
    queue = EventQueue()
    threading.Thread(target=queue.push, args=(1, Button.DECLINE, "t")).start()
    assert queue.wait(1, timeout=5)
    assert queue.wait(2, timeout=0) is False
