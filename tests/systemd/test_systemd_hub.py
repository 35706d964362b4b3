"""The club hub's units in systemd/: the service hardened like the kiosk's, the nightly pg_dump (a
timer and its service), the review worker at the lowest priority, checked with the real systemd
tools, and their ExecStart lines run as written against a real PostgreSQL (the program path and the
database replaced, every other word kept)."""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from club_support import start_cluster, stop_cluster

from club.hubproc import free_port

REPO = Path(__file__).resolve().parents[2]
SYSTEMD_DIR = REPO / "systemd"
HUB = SYSTEMD_DIR / "spectacular-bid-hub.service"
BACKUP = SYSTEMD_DIR / "spectacular-bid-hub-backup.service"
TIMER = SYSTEMD_DIR / "spectacular-bid-hub-backup.timer"
REVIEW = SYSTEMD_DIR / "spectacular-bid-hub-review.service"
PROGRAM = "/opt/spectacular-bid/venv/bin/python"
MAX_EXPOSURE = 2.5
HOST_UNIT_DIRS = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))
HARDENING_YES = ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateDevices", "ProtectKernelTunables",
                 "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups", "ProtectClock",
                 "ProtectHostname", "RestrictNamespaces", "LockPersonality", "MemoryDenyWriteExecute",
                 "RestrictRealtime", "RestrictSUIDSGID", "RemoveIPC", "PrivateMounts")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package: systemd)")
    return path


def _directives(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        out.setdefault(key.strip(), []).append(value.strip())
    return out


def _verify(tmp_path: Path, with_program: bool = True) -> subprocess.CompletedProcess[str]:
    tool = _tool("systemd-analyze")
    host_units = next((d for d in HOST_UNIT_DIRS if (d / "sysinit.target").exists()), None)
    if host_units is None:
        pytest.skip("no systemd unit directory with sysinit.target on this machine")
    root = tmp_path / "root"
    shutil.copytree(host_units, root / "usr/lib/systemd/system", symlinks=True)
    unit_dir = root / "etc/systemd/system"
    unit_dir.mkdir(parents=True)
    for unit in (HUB, BACKUP, TIMER, REVIEW):
        shutil.copy2(unit, unit_dir / unit.name)
    if with_program:
        program = root / PROGRAM.lstrip("/")
        program.parent.mkdir(parents=True)
        program.write_text("")
        program.chmod(0o755)
    return subprocess.run([tool, "verify", f"--root={root}", "--man=no", "--generators=no",
                           HUB.name, BACKUP.name, TIMER.name, REVIEW.name], capture_output=True, text=True,
                          timeout=120)


def test_systemd_analyze_verify_passes_for_the_hubs_units(tmp_path: Path) -> None:
    result = _verify(tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert [line for line in output.splitlines() if "spectacular-bid" in line] == [], output


def test_the_verify_harness_does_catch_problems(tmp_path: Path) -> None:
    result = _verify(tmp_path, with_program=False)
    assert result.returncode != 0 and "not executable" in result.stdout + result.stderr


@pytest.mark.parametrize("unit", [HUB, BACKUP, REVIEW], ids=lambda u: u.name)
def test_security_exposure_is_at_most_2_5(unit: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = subprocess.run([_tool("systemd-analyze"), "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, timeout=120)
    if "--offline" in result.stderr and "unrecognized" in result.stderr:
        pytest.skip("this systemd-analyze has no --offline (needs systemd 250 or newer)")
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert match, result.stdout + result.stderr
    with capsys.disabled():
        print(f"\nsystemd-analyze security --offline=true {unit.relative_to(REPO)}: exposure {match.group(1)}")
    assert float(match.group(1)) <= MAX_EXPOSURE, result.stdout


@pytest.mark.parametrize("unit", [HUB, BACKUP, REVIEW], ids=lambda u: u.name)
def test_the_units_are_hardened_like_the_kiosks_with_no_device_and_the_lan_only(unit: Path) -> None:
    d = _directives(unit)
    for key in HARDENING_YES:
        assert d.get(key) == ["yes"], key
    assert d["ProtectSystem"] == ["strict"] and d["CapabilityBoundingSet"] == [""] and d["UMask"] == ["0077"]
    assert d["DevicePolicy"] == ["closed"] and "DeviceAllow" not in d
    assert d["User"] == ["sbhub"] and d["WorkingDirectory"] == ["/"]
    assert set(d["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert d["IPAddressDeny"] == ["any"]
    allowed = d["IPAddressAllow"][0].split()
    assert "any" not in allowed and "localhost" in allowed
    assert not any(re.fullmatch(r"0\.0\.0\.0/0|::/0", a) for a in allowed)
    assert "ReadWritePaths" not in d  # the hub writes nothing; the dumps go to its StateDirectory
    words = d["ExecStart"][0].split()
    assert words[:5] == [PROGRAM, "-P", "-s", "-m", "club"]


def test_the_hub_never_gives_up_and_does_not_stop_with_postgresql() -> None:
    d = _directives(HUB)
    assert d["Restart"] == ["always"] and d["StartLimitIntervalSec"] == ["0"]
    assert "postgresql.service" in d["After"][0] and "Requires" not in d and "BindsTo" not in d
    assert d["EnvironmentFile"] == ["-/etc/spectacular-bid-hub/hub.env"]


def test_the_review_worker_runs_at_the_lowest_priority_and_reaches_only_this_box() -> None:
    d = _directives(REVIEW)
    assert d["CPUSchedulingPolicy"] == ["idle"] and d["Nice"] == ["19"]
    assert d["IPAddressAllow"] == ["localhost"] and d["Restart"] == ["always"]
    assert d["EnvironmentFile"] == ["-/etc/spectacular-bid-hub/hub.env"]
    assert d["ExecStart"][0].split()[5:] == ["review-worker", "--database", "${CLUB_DATABASE}"]


def test_the_backup_runs_nightly_catches_up_and_dumps_into_its_state_directory() -> None:
    t = _directives(TIMER)
    assert t["OnCalendar"] == ["*-*-* 04:30:00"] and t["Persistent"] == ["true"]
    assert t["WantedBy"] == ["timers.target"]
    d = _directives(BACKUP)
    assert d["Type"] == ["oneshot"] and d["StateDirectory"] == ["spectacular-bid-hub"]
    assert "--dir %S/spectacular-bid-hub/backups" in d["ExecStart"][0]


def _command(unit: Path, overrides: dict[str, str], state: Path) -> list[str]:
    """The unit's ExecStart as systemd would run it: ${VAR} from its Environment lines (``overrides``
    replacing some), %S as ``state``, the interpreter of this test in place of the venv's."""
    d = _directives(unit)
    env: dict[str, str] = {}
    for value in d["Environment"]:
        for assignment in shlex.split(value):
            key, _, val = assignment.partition("=")
            env[key] = val
    env.update(overrides)
    words = []
    for word in d["ExecStart"][0].split():
        found = re.fullmatch(r"\$\{(\w+)\}", word)
        words.append(env[found.group(1)] if found else word.replace("%S", str(state)))
    assert words[0] == PROGRAM
    return [sys.executable, *words[1:]]


def test_the_units_exec_start_lines_serve_and_dump_as_written(tmp_path: Path) -> None:
    cluster = start_cluster()
    try:
        cluster.create_database("club")
        dsn = cluster.dsn("club")
        port = free_port()
        serve = _command(HUB, {"CLUB_DATABASE": dsn, "CLUB_LISTEN": f"127.0.0.1:{port}"}, tmp_path)
        proc = subprocess.Popen(serve, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 60
            while True:  # waiting for the process to listen
                try:
                    health = httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=2)
                    break
                except httpx.TransportError:
                    assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
                    time.sleep(0.1)
            assert health.json()["ok"] is True
        finally:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0, out
        dump = _command(BACKUP, {"CLUB_DATABASE": dsn}, tmp_path)
        done = subprocess.run(dump, cwd="/", capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        (made,) = (tmp_path / "spectacular-bid-hub" / "backups").glob("club-*.dump")
        assert made.stat().st_size > 0 and f"dumped to {made}" in done.stdout
        worker = subprocess.Popen(_command(REVIEW, {"CLUB_DATABASE": dsn}, tmp_path), cwd="/",
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert worker.stdout is not None
        started = worker.stdout.readline()  # waiting for its first line, not for time to pass
        worker.send_signal(signal.SIGTERM)
        rest, _ = worker.communicate(timeout=30)
        assert worker.returncode == 0 and "review worker: 100 samples, priority" in started, started + rest
    finally:
        stop_cluster(cluster)
