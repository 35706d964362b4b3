"""kiosk.sdnotify against real unix datagram sockets (a path in a tmp dir and an abstract name)."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.sdnotify import Notifier, WatchdogPinger, socket_address, watchdog_interval, watchdog_usec


def _receiver(address: str | bytes) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(2.0)
    return sock


def _recv(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def _nothing_waiting(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        sock.recv(4096)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(2.0)
    return False


@pytest.fixture
def path_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A bound filesystem datagram socket and its NOTIFY_SOCKET value."""
    path = str(tmp_path / "notify")
    sock = _receiver(path)
    yield path, sock
    sock.close()


@pytest.fixture
def abstract_socket() -> Iterator[tuple[str, socket.socket]]:
    """A bound abstract datagram socket and its NOTIFY_SOCKET value (``@name``)."""
    name = f"spectacular-bid-test-{uuid.uuid4().hex}"
    sock = _receiver(b"\0" + name.encode())
    yield "@" + name, sock
    sock.close()


def test_ready_and_watchdog_reach_a_path_socket(path_socket: tuple[str, socket.socket]) -> None:
    value, sock = path_socket
    notifier = Notifier(value)
    assert notifier.enabled
    assert notifier.ready()
    assert _recv(sock) == "READY=1"
    assert notifier.watchdog()
    assert _recv(sock) == "WATCHDOG=1"
    notifier.close()


def test_abstract_socket(abstract_socket: tuple[str, socket.socket]) -> None:
    value, sock = abstract_socket
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": value})
    assert notifier.ready("first frame")
    assert _recv(sock) == "READY=1\nSTATUS=first frame"
    assert notifier.watchdog()
    assert _recv(sock) == "WATCHDOG=1"


def test_status_stopping_and_extend_timeout(path_socket: tuple[str, socket.socket]) -> None:
    value, sock = path_socket
    notifier = Notifier(value)
    assert notifier.status("match 3:\nplayer 1 to bid")
    assert _recv(sock) == "STATUS=match 3: player 1 to bid"
    assert notifier.stopping()
    assert _recv(sock) == "STOPPING=1"
    assert notifier.extend_timeout(1.5)
    assert _recv(sock) == "EXTEND_TIMEOUT_USEC=1500000"


def test_no_op_without_notify_socket() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert not notifier.status("x")
    assert not notifier.stopping()
    assert not WatchdogPinger(notifier).tick()


def test_undeliverable_notification_is_dropped_not_raised(tmp_path: Path) -> None:
    notifier = Notifier(str(tmp_path / "nobody-listens"))
    assert notifier.enabled
    assert not notifier.ready()
    assert not notifier.watchdog()


def test_from_environment_can_unset(monkeypatch: pytest.MonkeyPatch, path_socket: tuple[str, socket.socket]) -> None:
    value, sock = path_socket
    monkeypatch.setenv("NOTIFY_SOCKET", value)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_environment(unset=True)
    assert "NOTIFY_SOCKET" not in os.environ and "WATCHDOG_USEC" not in os.environ
    assert notifier.watchdog_interval == 5.0
    assert notifier.ready()
    assert _recv(sock) == "READY=1"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        ("", None),
        ("relative/path", None),
        ("@", None),
        ("vsock:2:1234", None),
        ("/run/systemd/notify", "/run/systemd/notify"),
        ("@abstract", b"\0abstract"),
    ],
)
def test_socket_address(value: str | None, expected: str | bytes | None) -> None:
    assert socket_address(value) == expected


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"WATCHDOG_USEC": "10000000"}, 10_000_000),
        ({"WATCHDOG_USEC": " 2000000 "}, 2_000_000),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "ten"}, None),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4242"}, 10_000_000),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4243"}, None),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "x"}, None),
    ],
)
def test_watchdog_usec(env: dict[str, str], expected: int | None) -> None:
    assert watchdog_usec(env, pid=4242) == expected


def test_watchdog_interval_is_half_the_period() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}) == 5.0
    assert watchdog_interval({}) is None
    assert Notifier("/x", 10_000_000).watchdog_interval == 5.0
    assert Notifier(None, 10_000_000).watchdog_interval is None


def test_pinger_sends_at_most_once_per_interval(path_socket: tuple[str, socket.socket]) -> None:
    value, sock = path_socket
    now = [100.0]
    pinger = WatchdogPinger(Notifier(value, 10_000_000), clock=lambda: now[0])
    assert pinger.enabled and pinger.interval == 5.0
    assert pinger.tick()
    assert _recv(sock) == "WATCHDOG=1"
    now[0] += 4.9
    assert not pinger.tick()
    assert _nothing_waiting(sock)
    now[0] += 0.1
    assert pinger.tick()
    assert _recv(sock) == "WATCHDOG=1"


def test_pinger_without_watchdog_does_nothing(path_socket: tuple[str, socket.socket]) -> None:
    value, sock = path_socket
    pinger = WatchdogPinger(Notifier(value, None))
    assert not pinger.enabled
    assert not pinger.tick()
    assert _nothing_waiting(sock)
