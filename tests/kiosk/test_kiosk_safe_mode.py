"""No crash loop: the start record (kiosk.startguard), __main__'s safe-mode plan, and real failing
starts of ``python -m kiosk`` followed by a start that reaches the app in safe mode."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kiosk.__main__ as kiosk_main
from kiosk.config import KioskConfig
from kiosk.i18n import Text
from kiosk.startguard import (
    SAFE_AFTER,
    START_FILE,
    WINDOW_S,
    StartDecision,
    StartGuard,
    StartRecord,
    decide,
    error_text,
    read_record,
)

BOOT = "boot-a"
SAFE_MSGID = ("The kiosk failed to start {n} time within a minute (last error: {error}); it runs in safe mode: "
              "default settings, nothing saved. Check the configuration and the log (journalctl -u "
              "spectacular-bid), then restart the service.")


class FakeClock:
    """Monotonic seconds, moved by the test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# -- the decision -------------------------------------------------------------------------------


def test_a_first_start_is_normal_and_recorded() -> None:
    decision = decide(StartRecord(), 100.0, BOOT)
    assert not decision.safe_mode and decision.warning is None
    assert decision.failures == 0 and decision.record == StartRecord(BOOT, (100.0,), "")


def test_three_failed_starts_within_a_minute_make_the_fourth_safe() -> None:
    assert SAFE_AFTER == 3 and WINDOW_S == 60.0
    two = decide(StartRecord(BOOT, (100.0, 110.0), "OSError: boom"), 120.0, BOOT)
    assert not two.safe_mode  # the third start still tries the configuration
    three = decide(StartRecord(BOOT, (100.0, 110.0, 120.0), "pygame.error: kmsdrm not available"), 130.0, BOOT)
    assert three.safe_mode and three.failures == 3
    assert three.last_error == "pygame.error: kmsdrm not available"
    warning = three.warning
    assert isinstance(warning, Text) and warning.msgid == SAFE_MSGID
    assert str(warning) == (
        "The kiosk failed to start 3 times within a minute (last error: pygame.error: kmsdrm not available); "
        "it runs in safe mode: default settings, nothing saved. Check the configuration and the log "
        "(journalctl -u spectacular-bid), then restart the service.")
    assert three.record == StartRecord(BOOT, (100.0, 110.0, 120.0, 130.0), "")


def test_only_starts_of_this_boot_within_the_minute_count() -> None:
    old = decide(StartRecord(BOOT, (10.0, 20.0, 30.0, 100.0), "x"), 100.0 + WINDOW_S - 50, BOOT)
    assert old.failures == 1  # 10, 20, 30 are older than a minute
    assert decide(StartRecord(BOOT, (100.0, 101.0, 102.0), "x"), 162.5, BOOT).failures == 0
    assert decide(StartRecord("boot-b", (100.0, 101.0, 102.0), "x"), 103.0, BOOT).failures == 0
    future = decide(StartRecord(BOOT, (500.0, 501.0, 502.0), "x"), 103.0, BOOT)
    assert future.failures == 0 and future.last_error == ""


def test_an_unknown_last_error_is_said_so() -> None:
    """A kiosk killed by the watchdog or a signal writes no error."""
    decision = decide(StartRecord(BOOT, (1.0, 2.0, 3.0), ""), 4.0, BOOT)
    warning = decision.warning
    assert warning is not None
    error = warning.params["error"]
    assert isinstance(error, Text) and error.msgid == "none recorded: it was stopped or killed, see the log"


def test_the_error_text_is_one_short_line() -> None:
    assert error_text(RuntimeError("no\n  display")) == "RuntimeError: no display"
    assert error_text(KeyError()) == "KeyError"
    long = error_text(ValueError("x" * 1000))
    assert len(long) == 300 and long.endswith("…")


# -- the record on disk -------------------------------------------------------------------------


def test_the_guard_records_failures_and_a_clean_exit_clears_them(tmp_path: Path) -> None:
    path = tmp_path / "state" / START_FILE
    clock = FakeClock()
    for n in range(SAFE_AFTER):
        guard = StartGuard(path, boot=BOOT, clock=clock)
        assert not guard.begin().safe_mode
        guard.failed(RuntimeError(f"failure {n}"))
        clock.now += 5
    stored = json.loads(path.read_text())
    assert stored == {"boot": BOOT, "starts": [1000.0, 1005.0, 1010.0], "last_error": "RuntimeError: failure 2"}
    guard = StartGuard(path, boot=BOOT, clock=clock)
    decision = guard.begin()
    assert decision.safe_mode and decision.last_error == "RuntimeError: failure 2"
    assert read_record(path).starts == (1000.0, 1005.0, 1010.0, 1015.0)
    guard.finished()
    assert not path.exists()
    clock.now += 1
    assert not StartGuard(path, boot=BOOT, clock=clock).begin().safe_mode
    assert sorted(p.name for p in path.parent.iterdir()) == [START_FILE]  # no temporary file left


def test_a_killed_start_still_counts(tmp_path: Path) -> None:
    """SIGKILL or the watchdog: the start was written, nothing else; the next start sees it."""
    path = tmp_path / START_FILE
    clock = FakeClock()
    StartGuard(path, boot=BOOT, clock=clock).begin()
    clock.now += 3
    assert StartGuard(path, boot=BOOT, clock=clock).begin().failures == 1


@pytest.mark.parametrize("content", [b"", b"not json", b"[]", b'{"boot": 1, "starts": [], "last_error": ""}',
                                     b'{"boot": "boot-a", "starts": ["x"], "last_error": ""}',
                                     b'{"boot": "boot-a", "starts": [true], "last_error": ""}',
                                     b"[" * 100_000, b"\xff\xfe"])
def test_a_damaged_record_counts_as_empty(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / START_FILE
    path.write_bytes(content)
    decision = StartGuard(path, boot=BOOT, clock=FakeClock(7.0)).begin()
    assert decision.failures == 0
    assert read_record(path) == StartRecord(BOOT, (7.0,), "")


def test_a_record_that_cannot_be_written_never_stops_the_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state directory should be")
    guard = StartGuard(blocker / START_FILE, boot=BOOT, clock=FakeClock())
    assert not guard.begin().safe_mode
    guard.failed(RuntimeError("x"))
    guard.finished()
    assert "start guard:" in capsys.readouterr().err


# -- __main__: the plan and the way out -----------------------------------------------------------


def test_the_plan_uses_the_configuration_normally_and_the_defaults_in_safe_mode(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\norientation = "upright"\nfps = 5\n')
    args = kiosk_main.build_parser().parse_args(["--config", str(config)])
    normal = kiosk_main.plan_start(args, decide(StartRecord(), 1.0, BOOT))
    assert normal.config.display.orientation == "upright" and normal.journal and not normal.safe_mode
    assert [w.key for w in normal.warnings] == ["display.fps"]  # type: ignore[attr-defined]
    safe_decision = decide(StartRecord(BOOT, (1.0, 2.0, 3.0), "ValueError: bad"), 4.0, BOOT)
    safe = kiosk_main.plan_start(args, safe_decision)
    assert safe.safe_mode and not safe.journal
    assert safe.config == KioskConfig()
    assert safe.warnings == (safe_decision.warning,)
    overridden = kiosk_main.plan_start(kiosk_main.build_parser().parse_args(["--orientation", "upright"]), safe_decision)
    assert overridden.config.display.orientation == "upright" and not overridden.journal
    no_journal = kiosk_main.plan_start(kiosk_main.build_parser().parse_args(["--no-journal"]), StartDecision(StartRecord()))
    assert not no_journal.journal


def test_main_records_the_error_raises_it_again_and_a_clean_exit_clears(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    record = tmp_path / START_FILE

    def fail(args: object, decision: StartDecision, *_: object) -> int:
        raise RuntimeError("the display is gone")

    monkeypatch.setattr(kiosk_main, "run", fail)
    with pytest.raises(RuntimeError, match="the display is gone"):
        kiosk_main.main([])
    assert read_record(record).last_error == "RuntimeError: the display is gone"
    assert len(read_record(record).starts) == 1

    seen: list[StartDecision] = []

    def admin_exit(args: object, decision: StartDecision, *_: object) -> int:
        seen.append(decision)
        return 10

    monkeypatch.setattr(kiosk_main, "run", admin_exit)
    assert kiosk_main.main([]) == 10
    assert seen[0].failures == 1 and seen[0].last_error == "RuntimeError: the display is gone"
    assert not record.exists()

    def interrupted(args: object, decision: StartDecision, *_: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(kiosk_main, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        kiosk_main.main([])
    assert not record.exists()


# -- for real: python -m kiosk fails three times, the fourth start is in safe mode ----------------


def _kiosk(tmp_path: Path, *args: str, video: str, notify: str | None = None) -> subprocess.Popen[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(STATE_DIRECTORY=str(tmp_path / "state"), SDL_VIDEODRIVER=video, SDL_AUDIODRIVER="dummy")
    if notify is not None:
        env["NOTIFY_SOCKET"] = notify
    return subprocess.Popen([sys.executable, "-P", "-m", "kiosk", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _until_ready(listener: socket.socket, child: subprocess.Popen[str]) -> None:
    """Wait (at most 60 s) for the kiosk's READY=1, which it sends after its first frame."""
    listener.settimeout(60)
    while True:
        try:
            message = listener.recv(4096)
        except TimeoutError:
            child.kill()
            pytest.fail("no READY=1 within 60 s: " + child.communicate()[1])
        if b"READY=1" in message.split(b"\n"):
            return


def _stop(child: subprocess.Popen[str]) -> tuple[int, str]:
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)
    return child.returncode, err


def test_three_real_failing_starts_then_the_fourth_reaches_the_app_in_safe_mode(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\norientation = "upright"\ncolour = "red"\n')
    record = tmp_path / "state" / START_FILE
    for n in range(1, SAFE_AFTER + 1):
        child = _kiosk(tmp_path, "--config", str(config), video="no-such-video-driver")
        _, err = child.communicate(timeout=60)
        assert child.returncode != 0, err
        assert "Traceback" in err and "no-such-video-driver not available" in err
        assert "safe mode" not in err and "configuration: display.colour (line 3)" in err
        stored = read_record(record)
        assert len(stored.starts) == n
        assert stored.last_error == "error: no-such-video-driver not available"

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify.sock"))
    try:
        journal = tmp_path / "fourth.sqlite3"
        child = _kiosk(tmp_path, "--config", str(config), "--journal", str(journal), video="dummy",
                       notify=str(tmp_path / "notify.sock"))
        _until_ready(listener, child)
        assert len(read_record(record).starts) == SAFE_AFTER + 1
        status, err = _stop(child)
        assert status == 0, err
        assert ("safe mode: The kiosk failed to start 3 times within a minute (last error: error: "
                "no-such-video-driver not available); it runs in safe mode: default settings, nothing saved.") in err
        assert "configuration:" not in err  # the configuration was not read
        assert not journal.exists()  # nothing saved
        assert not record.exists()  # a clean exit clears the record

        child = _kiosk(tmp_path, "--config", str(config), "--journal", str(journal), video="dummy",
                       notify=str(tmp_path / "notify.sock"))
        _until_ready(listener, child)
        status, err = _stop(child)
        assert status == 0, err
        assert "safe mode" not in err and "configuration: display.colour (line 3)" in err
        assert journal.exists()
    finally:
        listener.close()


# -- systemd restarts during start-up (issue 26, finding 7) --------------------------------------


def _wait_for(path: Path, child: subprocess.Popen[str]) -> None:
    """Return as soon as ``path`` exists (the start record: the guard has counted this start)."""
    deadline = time.monotonic() + 60
    while not path.exists():
        if child.poll() is not None:
            pytest.fail("the kiosk left before recording its start: " + child.communicate()[1])
        if time.monotonic() > deadline:
            child.kill()
            pytest.fail("no start record within 60 s")
        time.sleep(0.001)  # polling for the file, not waiting for time to pass


def test_three_restarts_during_start_up_never_make_a_safe_mode(tmp_path: Path) -> None:
    """systemctl restart sends SIGTERM whenever it is run: one that lands while the kiosk is still
    importing or opening its journal is a clean stop, so three in a row do not count as a crash loop."""
    record = tmp_path / "state" / START_FILE
    journal = tmp_path / "journal.sqlite3"
    for _ in range(SAFE_AFTER):
        child = _kiosk(tmp_path, "--journal", str(journal), video="dummy")
        _wait_for(record, child)  # counted, not yet showing anything
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        assert "Traceback" not in err
        assert not record.exists()  # a clean exit clears the record
    child = _kiosk(tmp_path, "--journal", str(journal), video="dummy")
    child.send_signal(signal.SIGTERM)  # at once: before or during the imports
    _, err = child.communicate(timeout=60)
    assert child.returncode in (0, -signal.SIGTERM), err  # -SIGTERM: before Python ran any of the kiosk
    assert not record.exists()  # either way the start did not count
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify.sock"))
    try:
        child = _kiosk(tmp_path, "--journal", str(journal), video="dummy", notify=str(tmp_path / "notify.sock"))
        _until_ready(listener, child)
        status, err = _stop(child)
        assert status == 0, err
        assert "safe mode" not in err
    finally:
        listener.close()


def test_a_stop_before_the_app_exists_leaves_it_at_once() -> None:
    class FakeApp:
        running = True

    stop = kiosk_main.StopRequest()
    stop()
    app = FakeApp()
    stop.attach(app)
    assert stop.requested and app.running is False
    later = kiosk_main.StopRequest()
    other = FakeApp()
    later.attach(other)
    assert other.running is True
    later()
    assert other.running is False


def test_a_size_the_screens_cannot_be_drawn_at_is_refused_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        kiosk_main.build_parser().parse_args(["--size", "640x240"])
    assert "width and height from 480" in capsys.readouterr().err
    assert kiosk_main.build_parser().parse_args(["--size", "480x480"]).size == (480, 480)
