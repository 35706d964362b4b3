"""systemd/install.sh: shellcheck, --dry-run, --root idempotency, the owner PIN and --uninstall.

Everything runs against a temporary root directory (``--root``), where the
installer writes its files but only prints the commands that would touch the
live system (apt, useradd, the venv, udevadm, systemctl).
"""

from __future__ import annotations

import hashlib
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
CONFIG = "etc/spectacular-bid/config.toml"
PIN_FILE = "etc/spectacular-bid/owner-pin"
INSTALLED = {
    CONFIG,
    PIN_FILE,
    "etc/systemd/system/spectacular-bid.service",
    "etc/udev/rules.d/99-spectacular-bid-panel.rules",
    "etc/modules-load.d/spectacular-bid.conf",
}


def _run(*args: str | os.PathLike[str], check: bool = True) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    result = subprocess.run([bash, str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)  # not a terminal: never a PIN prompt
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def _tree(root: Path) -> dict[str, tuple[str, str]]:
    """Every path under root: (mode, content hash or 'dir' or link target)."""
    out: dict[str, tuple[str, str]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        mode = oct(path.lstat().st_mode)
        if path.is_symlink():
            out[rel] = (mode, "-> " + os.readlink(path))
        elif path.is_dir():
            out[rel] = (mode, "dir")
        else:
            out[rel] = (mode, hashlib.sha256(path.read_bytes()).hexdigest())
    return out


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if not p.is_dir()}


def test_shellcheck_is_clean() -> None:
    tool = shutil.which("shellcheck")
    if tool is None:
        pytest.skip("shellcheck is not installed (Debian package: shellcheck)")
    result = subprocess.run([tool, "--severity=style", str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_script_is_executable_bash_with_strict_mode() -> None:
    text = SCRIPT.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert os.access(SCRIPT, os.X_OK)


def test_help() -> None:
    result = _run("--help")
    assert "--uninstall" in result.stdout and "--dry-run" in result.stdout


def test_unknown_option_fails() -> None:
    result = _run("--frobnicate", check=False)
    assert result.returncode != 0
    assert "unknown option" in result.stderr


def test_dry_run_lists_every_action_and_changes_nothing(tmp_path: Path) -> None:
    out = _run("--dry-run", "--root", tmp_path).stdout
    assert list(tmp_path.iterdir()) == []
    for expected in (
        "skip (--root): apt-get install -y --no-install-recommends python3-venv python3-lgpio libdrm2",
        "skip (--root): useradd --system",
        "--groups gpio,dialout,video,render,input kiosk",
        "skip (--root): python3 -m venv --system-site-packages",
        "-m pip install --no-cache-dir --constraint",
        "/constraints.txt",
        f"would run: install -D -m 644 {SCRIPT.parent}/spectacular-bid.service {tmp_path}/etc/systemd/system/spectacular-bid.service",
        f"would run: install -D -m 644 {SCRIPT.parent}/99-spectacular-bid-panel.rules {tmp_path}/etc/udev/rules.d/",
        f"{tmp_path}/{CONFIG}",
        "skip (--root): udevadm control --reload",
        "skip (--root): systemctl daemon-reload",
        "skip (--root): systemctl enable --now spectacular-bid.service",
        f"would run: chmod 1775 {tmp_path}/etc/spectacular-bid",
        f"skip (--root): chown root:kiosk {tmp_path}/etc/spectacular-bid",
        f"skip (--root): chown kiosk:kiosk {tmp_path}/{CONFIG}",
        "the owner PIN (generated) is stored as a salted hash, never in clear",
        f"/owner-pin {tmp_path}/{PIN_FILE}",
        f"skip (--root): chown root:kiosk {tmp_path}/{PIN_FILE}",
        "6 change(s) would be made",
    ):
        assert expected in out, f"missing {expected!r} in:\n{out}"
    assert not any(line.startswith("+ ") for line in out.splitlines())
    assert "owner PIN:" not in out  # a dry run makes no PIN


def test_dry_run_on_the_live_system_only_prints(tmp_path: Path) -> None:
    """Without --root the real-system branches run their read-only checks and print the rest."""
    out = _run("--dry-run").stdout
    assert "dry run: nothing will be changed" in out
    assert not any(line.startswith(("+ ", "skip (--root)")) for line in out.splitlines())
    assert "/etc/systemd/system/spectacular-bid.service" in out


def test_install_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    first = _run("--root", tmp_path).stdout
    assert "6 change(s) made" in first
    assert _files(tmp_path) == INSTALLED
    before = _tree(tmp_path)
    second = _run("--root", tmp_path).stdout
    assert "no changes: everything was already in place" in second
    assert not any(line.startswith("+ ") for line in second.splitlines())
    assert _tree(tmp_path) == before


def test_installed_files_are_the_shipped_ones(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    shipped = SCRIPT.parent
    assert (tmp_path / "etc/systemd/system/spectacular-bid.service").read_bytes() == (shipped / "spectacular-bid.service").read_bytes()
    assert (tmp_path / "etc/udev/rules.d/99-spectacular-bid-panel.rules").read_bytes() == (shipped / "99-spectacular-bid-panel.rules").read_bytes()
    assert (tmp_path / "etc/modules-load.d/spectacular-bid.conf").read_bytes() == (shipped / "modules-load.conf").read_bytes()
    for rel in INSTALLED - {PIN_FILE}:
        assert (tmp_path / rel).stat().st_mode & 0o777 == 0o644, rel
    assert (tmp_path / PIN_FILE).stat().st_mode & 0o7777 == 0o640
    assert (tmp_path / "etc/spectacular-bid").stat().st_mode & 0o7777 == 0o1775


def test_default_config_is_what_the_kiosk_prints(tmp_path: Path) -> None:
    """Under --root there is no venv, so the installer reads kiosk/config.py; it must match the kiosk's own text."""
    _run("--root", tmp_path)
    printed = subprocess.run(
        [sys.executable, "-m", "kiosk.config", "--print-default"],
        capture_output=True, text=True, cwd=REPO, timeout=60, check=True,
    ).stdout
    assert (tmp_path / CONFIG).read_text(encoding="utf-8") == printed


def test_existing_config_is_kept(tmp_path: Path) -> None:
    config = tmp_path / CONFIG
    config.parent.mkdir(parents=True)
    config.write_text('[display]\norientation = "upright"\n')
    out = _run("--root", tmp_path).stdout
    assert "kept the existing file" in out
    assert config.read_text() == '[display]\norientation = "upright"\n'


def test_an_edited_udev_rule_is_kept_and_survives_uninstall(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    rule = tmp_path / "etc/udev/rules.d/99-spectacular-bid-panel.rules"
    mine = 'SUBSYSTEM=="tty", ATTRS{idVendor}=="2341", ATTRS{idProduct}=="0043", SYMLINK+="serial-panel"\n'
    rule.write_text(mine)
    out = _run("--root", tmp_path).stdout
    assert "no changes" in out and rule.read_text() == mine
    out = _run("--uninstall", "--root", tmp_path).stdout
    assert "kept /etc/udev/rules.d/99-spectacular-bid-panel.rules: it was edited" in out
    assert _files(tmp_path) == {"etc/udev/rules.d/99-spectacular-bid-panel.rules"}


def test_a_changed_unit_is_put_back(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    unit = tmp_path / "etc/systemd/system/spectacular-bid.service"
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    out = _run("--root", tmp_path).stdout
    assert "1 change(s) made" in out
    assert "skip (--root): systemctl daemon-reload" in out
    assert unit.read_bytes() == (SCRIPT.parent / "spectacular-bid.service").read_bytes()


def test_uninstall_removes_what_it_installed(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    out = _run("--uninstall", "--root", tmp_path).stdout
    assert "skip (--root): systemctl disable --now spectacular-bid.service" in out
    assert _files(tmp_path) == set()
    assert not (tmp_path / "etc/spectacular-bid").exists()
    again = _run("--uninstall", "--root", tmp_path).stdout
    assert "no changes: everything was already in place" in again


def test_uninstall_keeps_an_edited_config_unless_purged(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    config = tmp_path / CONFIG
    config.write_text(config.read_text() + "\n# edited by the cafe\n")
    out = _run("--uninstall", "--root", tmp_path).stdout
    assert "kept /etc/spectacular-bid/config.toml: it was edited" in out
    assert _files(tmp_path) == {CONFIG}
    state = tmp_path / "var/lib/spectacular-bid"
    state.mkdir(parents=True)
    (state / "stats.json").write_text("{}")
    purged = _run("--uninstall", "--purge", "--root", tmp_path).stdout
    assert "skip (--root): userdel kiosk" in purged
    assert _files(tmp_path) == set()


def test_uninstall_dry_run_changes_nothing(tmp_path: Path) -> None:
    _run("--root", tmp_path)
    before = _tree(tmp_path)
    out = _run("--uninstall", "--dry-run", "--root", tmp_path).stdout
    assert f"would run: rm -rf -- {tmp_path}/etc/systemd/system/spectacular-bid.service" in out
    assert _tree(tmp_path) == before


# -- the owner PIN --------------------------------------------------------------------------------

PIN_LINE = re.compile(r"pbkdf2_sha256\$200000\$[0-9a-f]{32}\$[0-9a-f]{64}\n")


def _pin_is(root: Path, pin: str) -> bool:
    done = subprocess.run([sys.executable, "-P", "-m", "kiosk.owner", "check", str(root / PIN_FILE)],
                          input=pin + "\n", capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 0


def test_without_a_terminal_or_pin_a_random_pin_is_made_and_shown_once(tmp_path: Path) -> None:
    first = _run("--root", tmp_path).stdout
    [pin] = re.findall(r"owner PIN: ([0-9]{6}) \(generated: write it down now", first)
    assert PIN_LINE.fullmatch((tmp_path / PIN_FILE).read_text())
    assert _pin_is(tmp_path, pin) and not _pin_is(tmp_path, "000000" if pin != "000000" else "111111")
    second = _run("--root", tmp_path).stdout
    assert "kept the existing owner PIN (--pin PIN sets a new one)" in second and "owner PIN:" not in second
    assert _pin_is(tmp_path, pin)


def test_pin_sets_the_pin_never_prints_it_and_is_idempotent(tmp_path: Path) -> None:
    dry = _run("--dry-run", "--root", tmp_path, "--pin", "48213").stdout
    assert "48213" not in dry and "the owner PIN (from --pin) is stored as a salted hash" in dry
    assert list(tmp_path.iterdir()) == []
    out = _run("--root", tmp_path, "--pin", "48213").stdout
    assert "48213" not in out and "owner PIN:" not in out
    assert _pin_is(tmp_path, "48213")
    before = _tree(tmp_path)
    again = _run("--root", tmp_path, "--pin", "48213").stdout
    assert "unchanged: /etc/spectacular-bid/owner-pin already holds that PIN" in again
    assert "no changes: everything was already in place" in again and _tree(tmp_path) == before
    other = _run("--root", tmp_path, "--pin=7777").stdout
    assert "1 change(s) made" in other and "7777" not in other
    assert _pin_is(tmp_path, "7777") and not _pin_is(tmp_path, "48213")
    assert (tmp_path / PIN_FILE).stat().st_mode & 0o7777 == 0o640


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "", "-1234"])
def test_a_bad_pin_is_refused_before_anything_changes(tmp_path: Path, pin: str) -> None:
    result = _run("--root", tmp_path, f"--pin={pin}", check=False)
    assert result.returncode != 0 and "a PIN is 4 to 8 digits (0-9)" in result.stderr
    assert list(tmp_path.iterdir()) == []
    refused = _run("--uninstall", "--root", tmp_path, "--pin", "1234", check=False)
    assert refused.returncode != 0 and "--pin does not go with --uninstall" in refused.stderr


def test_a_pin_file_with_loose_permissions_is_put_right(tmp_path: Path) -> None:
    _run("--root", tmp_path, "--pin", "2468")
    (tmp_path / PIN_FILE).chmod(0o644)
    (tmp_path / "etc/spectacular-bid").chmod(0o755)
    out = _run("--root", tmp_path).stdout
    assert f"+ chmod 640 {tmp_path}/{PIN_FILE}" in out and f"+ chmod 1775 {tmp_path}/etc/spectacular-bid" in out
    assert (tmp_path / PIN_FILE).stat().st_mode & 0o7777 == 0o640 and _pin_is(tmp_path, "2468")


def test_on_a_terminal_the_pin_is_asked_for_twice(tmp_path: Path) -> None:
    """A refused PIN and two different ones are asked again; then the PIN typed is stored."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the installer on the pty
        os.execv(bash, [bash, str(SCRIPT), "--root", str(tmp_path)])
    prompts = [("(4-8 digits): ", "12"), ("(4-8 digits): ", "5678"), ("again: ", "5679"),
               ("(4-8 digits): ", "5678"), ("again: ", "5678")]
    seen, out = 0, b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        if seen < len(prompts) and out.decode(errors="replace").count(prompts[seen][0]) > sum(
                1 for p, _ in prompts[:seen] if p == prompts[seen][0]):
            os.write(fd, prompts[seen][1].encode() + b"\n")
            seen += 1
    _, status = os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert seen == len(prompts), text
    assert "a PIN is 4 to 8 digits (0-9); try again" in text and "the two PINs differ; try again" in text
    assert "the owner PIN (as typed) is stored as a salted hash" in text
    assert _pin_is(tmp_path, "5678")
