"""The systemd unit, udev rule and modules list in systemd/, checked with the real systemd tools.

``systemd-analyze verify`` insists that ExecStart's program exists and that the
units it depends on are loadable, and neither holds on a development machine or
in CI (nothing is installed under /opt). So the test builds a throw-away root
directory holding the host's own unit files, the unit under /etc/systemd/system
and an empty executable at the ExecStart path, and verifies with
``--root=<that directory>``: the unit file is checked byte for byte as shipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SYSTEMD_DIR = REPO / "systemd"
UNIT = SYSTEMD_DIR / "spectacular-bid.service"
UDEV_RULE = SYSTEMD_DIR / "99-spectacular-bid-panel.rules"
MODULES = SYSTEMD_DIR / "modules-load.conf"
MAX_EXPOSURE = 2.5
HOST_UNIT_DIRS = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))

# Device classes as the Raspberry Pi kernel names them in /proc/devices.
KNOWN_DEVICE_CLASSES = {"drm", "input", "gpiochip", "ttyACM", "ttyUSB", "ttyAMA"}


DEBIAN_PACKAGES = {"systemd-analyze": "systemd", "udevadm": "udev"}


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package: {DEBIAN_PACKAGES.get(name, name)})")
    return path


def _directives(path: Path) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit file, values in order (sections merged)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        out.setdefault(key.strip(), []).append(value.strip())
    return out


def _exec_start_program() -> str:
    return _directives(UNIT)["ExecStart"][0].split()[0]


def _verify_root(tmp_path: Path, with_program: bool = True) -> Path:
    """A root directory in which ``systemd-analyze verify --root`` can load the unit."""
    host_units = next((d for d in HOST_UNIT_DIRS if (d / "sysinit.target").exists()), None)
    if host_units is None:
        pytest.skip("no systemd unit directory with sysinit.target on this machine")
    root = tmp_path / "root"
    shutil.copytree(host_units, root / "usr/lib/systemd/system", symlinks=True)
    unit_dir = root / "etc/systemd/system"
    unit_dir.mkdir(parents=True)
    shutil.copy2(UNIT, unit_dir / UNIT.name)
    if with_program:
        program = root / _exec_start_program().lstrip("/")
        program.parent.mkdir(parents=True)
        program.write_text("")
        program.chmod(0o755)
    return root


def _run_verify(root: Path) -> subprocess.CompletedProcess[str]:
    tool = _tool("systemd-analyze")
    return subprocess.run(
        [tool, "verify", f"--root={root}", "--man=no", "--generators=no", UNIT.name],
        capture_output=True, text=True, timeout=120,
    )


def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    result = _run_verify(_verify_root(tmp_path))
    output = result.stdout + result.stderr
    ours = [line for line in output.splitlines() if "spectacular-bid" in line]
    assert result.returncode == 0, output
    assert ours == [], "verify complained:\n" + "\n".join(ours)


def test_verify_harness_does_catch_problems(tmp_path: Path) -> None:
    """Without the ExecStart program verify must fail: the passing test is not vacuous."""
    result = _run_verify(_verify_root(tmp_path, with_program=False))
    assert result.returncode != 0
    assert "not executable" in result.stdout + result.stderr


def test_security_exposure_is_at_most_2_5(capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool("systemd-analyze")
    result = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True, text=True, timeout=120,
    )
    if "--offline" in result.stderr and "unrecognized" in result.stderr:
        pytest.skip("this systemd-analyze has no --offline (needs systemd 250 or newer)")
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert match, result.stdout + result.stderr
    exposure = float(match.group(1))
    with capsys.disabled():
        print(f"\nsystemd-analyze security --offline=true {UNIT.relative_to(REPO)}: exposure {exposure}")
    assert exposure <= MAX_EXPOSURE, result.stdout


def test_unit_is_a_watched_notify_service_that_never_gives_up() -> None:
    d = _directives(UNIT)
    assert d["Type"] == ["notify"]
    assert d["NotifyAccess"] == ["main"]
    assert d["WatchdogSec"] and d["WatchdogSec"][0] != "0"
    assert d["Restart"] == ["always"]
    assert d["RestartSec"]
    assert d["StartLimitIntervalSec"] == ["0"]


def test_unit_runs_the_installed_kiosk_as_kiosk_with_its_groups() -> None:
    d = _directives(UNIT)
    assert d["ExecStart"] == ["/opt/spectacular-bid/venv/bin/python -P -s -m kiosk --config /etc/spectacular-bid/config.toml"]
    assert d["User"] == ["kiosk"]
    assert set(" ".join(d["SupplementaryGroups"]).split()) == {"gpio", "dialout", "video", "render", "input"}
    assert d["StateDirectory"] == ["spectacular-bid"]
    assert d["ConfigurationDirectory"] == ["spectacular-bid"]
    env = dict(v.split("=", 1) for v in d["Environment"])
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["LG_WD"] == "%t/spectacular-bid" and d["RuntimeDirectory"] == ["spectacular-bid"]


def test_unit_is_hardened_but_keeps_the_hardware() -> None:
    d = _directives(UNIT)
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "ProtectKernelTunables", "ProtectKernelModules",
                "ProtectControlGroups", "RestrictNamespaces", "LockPersonality", "MemoryDenyWriteExecute",
                "RestrictRealtime", "RestrictSUIDSGID", "ProtectClock", "ProtectHostname", "ProtectKernelLogs"):
        assert d.get(key) == ["yes"], key
    assert d["ProtectSystem"] == ["strict"]
    assert d["CapabilityBoundingSet"] == [""]
    assert "PrivateDevices" not in d, "PrivateDevices hides /dev/dri, /dev/input, /dev/gpiochip* and serial ports"
    assert d["DevicePolicy"] == ["closed"]
    classes = {v.split()[0].removeprefix("char-") for v in d["DeviceAllow"]}
    assert classes == KNOWN_DEVICE_CLASSES


def test_modules_load_covers_the_classes_that_may_load_late() -> None:
    names = [line.strip() for line in MODULES.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert names == ["drm", "cdc_acm", "usbserial"]
    assert all(re.fullmatch(r"[a-z0-9_]+", name) for name in names)


def test_udev_rule_names_the_serial_panel() -> None:
    rules = [line for line in UDEV_RULE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    rule = rules[0]
    assert 'SUBSYSTEM=="tty"' in rule
    assert re.search(r'ATTRS\{idVendor\}=="[0-9a-f]{4}"', rule)
    assert re.search(r'ATTRS\{idProduct\}=="[0-9a-f]{4}"', rule)
    assert 'SYMLINK+="serial-panel"' in rule
    assert 'GROUP="dialout"' in rule


def test_udevadm_verify_accepts_the_rule() -> None:
    tool = _tool("udevadm")
    probe = subprocess.run([tool, "verify", "--help"], capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip("this udevadm has no 'verify' command (needs systemd 254 or newer)")
    style = ["--no-style"] if "--no-style" in probe.stdout else []
    result = subprocess.run([tool, "verify", *style, str(UDEV_RULE)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr


def _python_flags() -> list[str]:
    """The interpreter options of ExecStart (between the program and ``-m``)."""
    words = _directives(UNIT)["ExecStart"][0].split()
    return words[1:words.index("-m")]


def test_the_kiosk_runs_from_root_with_no_writable_directory_on_its_import_path() -> None:
    d = _directives(UNIT)
    assert d["WorkingDirectory"] == ["/"], "the state directory is writable by the kiosk: not the working directory"
    assert "-P" in _python_flags() and "-s" in _python_flags()
    env = dict(v.split("=", 1) for v in d["Environment"])
    assert env["PYTHONSAFEPATH"] == "1" and env["PYTHONNOUSERSITE"] == "1"
    assert env["PYTHONFAULTHANDLER"] == "1" and "-I" not in _python_flags()  # -I would drop these variables
    assert env["HOME"] == "%S/spectacular-bid"


def test_the_configuration_directory_is_writable_for_the_owners_settings() -> None:
    d = _directives(UNIT)
    assert d["ReadWritePaths"] == ["/etc/spectacular-bid"]
    assert d["ConfigurationDirectoryMode"] == ["1775"]  # what install.sh makes: no warning at each start


def _planted_module(folder: Path) -> Path:
    """A tomllib.py in ``folder`` that leaves a mark when imported; the mark's path."""
    mark = folder / "INJECTED"
    (folder / "tomllib.py").write_text(f"open({str(mark)!r}, 'w').close()\nraise SystemExit(99)\n")
    return mark


def test_a_tomllib_py_in_the_working_directory_is_not_imported(tmp_path: Path) -> None:
    """The kiosk user can write its state directory; with the unit's flags nothing there is imported."""
    config = tmp_path / "config.toml"
    config.write_text('[display]\norientation = "upright"\n')
    mark = _planted_module(tmp_path)
    command = [sys.executable, *_python_flags(), "-m", "kiosk.config", "--check", str(config)]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "configuration is fine" in done.stdout, done.stdout + done.stderr
    assert not mark.exists()
    # the same command without -P imports the planted module: the test above is not vacuous
    unsafe = [sys.executable, "-m", "kiosk.config", "--check", str(config)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    assert subprocess.run(unsafe, cwd=tmp_path, capture_output=True, env=env, timeout=60).returncode == 99
    assert mark.exists()


def test_a_pth_file_in_the_kiosk_users_home_is_not_run(tmp_path: Path) -> None:
    """install.sh makes the venv with --system-site-packages, which keeps ~/.local's site-packages on:
    HOME is the (writable) state directory, so a .pth file there would run at every start without -s."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(env_dir)
    home = tmp_path / "home"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    user_site = home / ".local" / "lib" / version / "site-packages"
    user_site.mkdir(parents=True)
    mark = tmp_path / "PTH-RAN"
    (user_site / "planted.pth").write_text(f"import os; open({str(mark)!r}, 'w').close()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | {"HOME": str(home)}
    python = str(env_dir / "bin" / "python")
    subprocess.run([python, *_python_flags(), "-c", "pass"], env=env, cwd=tmp_path, check=True, timeout=60)
    assert not mark.exists()
    subprocess.run([python, "-c", "pass"], env=env, cwd=tmp_path, check=True, timeout=60)
    assert mark.exists(), "without -s the planted .pth runs: the test above is not vacuous"
