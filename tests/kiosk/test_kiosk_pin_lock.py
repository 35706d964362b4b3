"""The keypad's lock after wrong PINs (issue 26, finding 10): it doubles after each failed round,
and a restart (a new controller on the same state directory) neither forgets nor shortens it."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine import NS_PER_S
from kiosk.config import KioskConfig, MatchSettings
from kiosk.owner import LoadedPin, OwnerPin
from kiosk.table import intents as do
from kiosk.table.controller import Controller
from kiosk.table.pin_lock import (
    LOCK_FILE,
    LOCK_SECONDS,
    MAX_LOCK_SECONDS,
    MAX_WRONG,
    PinLock,
    PinLockFile,
    lock_seconds,
)
from kiosk.timesource import FakeClock

S = NS_PER_S
PIN = "4821"


def start(tmp_path: Path, clock: FakeClock, boot: str = "boot-1") -> Controller:
    """A kiosk start on ``tmp_path`` as its state directory, the keypad open."""
    pin = LoadedPin(OwnerPin.new(PIN, iterations=10_000), lock_file=tmp_path / LOCK_FILE)
    c = Controller(replace(KioskConfig(), match=MatchSettings(handover=False)), clock, rng=random.Random(3),
                   boot_id=boot, owner_pin=pin)
    c.owner.open_keypad("settings", facing=None)
    return c


def wrong_round(c: Controller, clock: FakeClock) -> None:
    for _ in range(MAX_WRONG):
        for digit in "0000":
            c.handle(do.PinDigit(digit), clock.now())
        c.handle(do.PinOk(), clock.now())


def test_each_failed_round_doubles_the_lock_up_to_a_day() -> None:
    assert [lock_seconds(n) for n in range(6)] == [0, 60, 120, 240, 480, 960]
    assert lock_seconds(12) == MAX_LOCK_SECONDS == lock_seconds(10_000)
    lock = PinLock()
    for _ in range(MAX_WRONG - 1):
        lock = lock.after_wrong(0)
    assert lock == PinLock(0, MAX_WRONG - 1, None)
    assert lock.after_wrong(5 * S) == PinLock(1, 0, 5 * S + LOCK_SECONDS * S)


def test_a_brute_force_of_every_four_digit_pin_takes_years() -> None:
    rounds = 10_000 // MAX_WRONG
    locked = sum(lock_seconds(n) for n in range(1, rounds + 1))
    assert locked / (365 * 24 * 3600) > 5  # was a flat minute a round: about 33 hours


def test_the_second_round_locks_twice_as_long(tmp_path: Path) -> None:
    clock = FakeClock(10 * S)
    c = start(tmp_path, clock)
    wrong_round(c, clock)
    assert c.owner.locked_seconds(clock.now()) == 60
    clock.advance(60)
    wrong_round(c, clock)
    assert c.owner.locked_seconds(clock.now()) == 120


def test_a_restart_neither_forgets_nor_shortens_the_lock(tmp_path: Path) -> None:
    clock = FakeClock(10 * S)
    c = start(tmp_path, clock)
    wrong_round(c, clock)
    clock.advance(60)
    wrong_round(c, clock)  # second round: 120 s
    clock.advance(20)
    again = start(tmp_path, clock)  # the same boot: the lock ends when it would have
    assert again.owner.locked_seconds(clock.now()) == 100
    clock.advance(100)
    for digit in "99":
        again.handle(do.PinDigit(digit), clock.now())
    again.handle(do.PinOk(), clock.now())  # one wrong PIN of the third round
    assert again.ui.owner.wrong == 1
    third = start(tmp_path, clock)
    assert third.ui.owner.wrong == 1 and third.ui.owner.rounds == 2  # the count survives too
    wrong_round(third, clock)  # four more wrong complete the third round, one starts the next
    assert third.ui.owner.rounds == 3


def test_after_a_reboot_the_lock_starts_again_from_its_full_length(tmp_path: Path) -> None:
    clock = FakeClock(10 * S)
    c = start(tmp_path, clock)
    wrong_round(c, clock)
    assert c.owner.locked_seconds(clock.now()) == 60
    other_boot = FakeClock(1 * S)  # a new boot's monotonic clock starts near zero
    assert start(tmp_path, other_boot, boot="boot-2").owner.locked_seconds(other_boot.now()) == 60


def test_the_right_pin_clears_the_lock_and_its_file(tmp_path: Path) -> None:
    clock = FakeClock(10 * S)
    c = start(tmp_path, clock)
    wrong_round(c, clock)
    assert (tmp_path / LOCK_FILE).exists()
    clock.advance(60)
    for digit in PIN:
        c.handle(do.PinDigit(digit), clock.now())
    c.handle(do.PinOk(), clock.now())
    assert c.ui.owner.editing is not None  # the settings editor opened
    assert not (tmp_path / LOCK_FILE).exists()
    assert start(tmp_path, clock).ui.owner.rounds == 0


@pytest.mark.parametrize("content", [b"", b"{", b"[]", b'{"rounds": "x"}', b"\xff" * 10,
                                     json.dumps({"boot": "boot-1", "rounds": 3, "wrong": 99, "until_ns": True}).encode()])
def test_a_damaged_lock_file_never_stops_the_keypad(tmp_path: Path, content: bytes) -> None:
    (tmp_path / LOCK_FILE).write_bytes(content)
    lock = PinLockFile(tmp_path / LOCK_FILE, "boot-1").load(10 * S)
    assert lock.until_ns is None and lock.wrong < MAX_WRONG


def test_a_lock_that_cannot_be_written_holds_in_memory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    clock = FakeClock(10 * S)
    pin = LoadedPin(OwnerPin.new(PIN, iterations=10_000), lock_file=blocked / LOCK_FILE)  # its folder is a file
    c = Controller(KioskConfig(), clock, rng=random.Random(3), owner_pin=pin)
    c.owner.open_keypad("settings", facing=None)
    wrong_round(c, clock)
    assert c.owner.locked_seconds(clock.now()) == 60
    assert "cannot be kept for the next start" in capsys.readouterr().err
