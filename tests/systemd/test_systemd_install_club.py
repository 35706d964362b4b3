"""systemd/install.sh --club URL: the table's hub token stored like the owner PIN (0640, root and the kiosk
group), ``[club]`` written into config.toml in place, a drop-in that lets the kiosk open IP sockets; run
against a temporary root (``--root``) and with --dry-run, as the installer's other tests do."""

from __future__ import annotations

import hashlib
import os
import pty
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from kiosk.config import load_config

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
CONFIG = "etc/spectacular-bid/config.toml"
TOKEN = "etc/spectacular-bid/club-token"
DROPIN = "etc/systemd/system/spectacular-bid.service.d/club.conf"
SECRET = "sbk_01938a2b-0000-7000-8000-000000000001_c2VjcmV0LXRva2VuLWJ5dGVz"


def _bash() -> str:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    return bash


def _run(*args: str | os.PathLike[str], check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([_bash(), str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)  # not a terminal: never a prompt
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def _tree(root: Path) -> dict[str, tuple[int, str]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_mode, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted(root.rglob("*")) if p.is_file()}


def _token_file(tmp_path: Path, text: str = SECRET + "\n") -> Path:
    path = tmp_path / "from-the-hub.token"
    path.write_text(text)
    return path


def test_club_stores_the_token_like_the_pin_and_names_the_hub_in_the_config(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    token = _token_file(tmp_path)
    out = _run("--root", root, "--pin", "1234", "--club", "http://hub.local:8022", "--club-token-file", token).stdout
    assert SECRET not in out and "the club token (from " in out
    assert f"skip (--root): chown root:kiosk {root}/{TOKEN}" in out
    assert (root / TOKEN).read_text() == SECRET + "\n" and (root / TOKEN).stat().st_mode & 0o7777 == 0o640
    loaded = load_config(root / CONFIG)
    assert loaded.warnings == ()
    assert (loaded.config.club.url, loaded.config.club.token_file) == ("http://hub.local:8022",
                                                                       "/etc/spectacular-bid/club-token")
    assert "# the club hub this table syncs to" in (root / CONFIG).read_text()  # edited in place, comments kept
    dropin = (root / DROPIN).read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6" in dropin and "IPAddressDeny=\n" in dropin
    before = _tree(root)
    again = _run("--root", root, "--club", "http://hub.local:8022", "--club-token-file", token).stdout
    assert "unchanged: /etc/spectacular-bid/club-token already holds that token" in again
    assert "no changes: everything was already in place" in again and _tree(root) == before
    moved = _run("--root", root, "--club", "https://club.example:8443").stdout  # another hub, the token kept
    assert "kept the stored club token" in moved
    assert load_config(root / CONFIG).config.club.url == "https://club.example:8443"
    assert (root / TOKEN).read_text() == SECRET + "\n"
    _run("--root", root, "--uninstall")
    assert not (root / TOKEN).exists() and not (root / DROPIN).exists()
    assert not (root / DROPIN).parent.exists()


def test_club_dry_run_lists_the_actions_and_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    out = _run("--dry-run", "--root", root, "--pin", "1234", "--club", "http://hub.local:8022",
               "--club-token-file", _token_file(tmp_path)).stdout
    assert "would run: install -D -m 640" in out and f"{root}/{TOKEN}" in out and f"{root}/{DROPIN}" in out
    assert SECRET not in out and list(root.iterdir()) == []


@pytest.mark.parametrize(("args", "said"), [
    (("--club", "ftp://hub"), "an http:// or https:// URL"),
    (("--club", "hub.local:8022"), "an http:// or https:// URL"),
    (("--club", "http://hub", "--club-token-file", "/no/such/file"), "cannot read /no/such/file"),
    (("--club-token-file", "TOKEN"), "--club-token-file goes with --club URL"),
    (("--club", "http://hub"), "--club needs this table's token"),
    (("--club", "http://hub", "--club-token-file", "SPACED"), "does not hold one token"),
    (("--uninstall", "--club", "http://hub"), "--club does not go with --uninstall"),
])
def test_what_cannot_work_is_refused_with_a_reason(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    token = _token_file(tmp_path)
    spaced = tmp_path / "spaced"
    spaced.write_text("two words\n")
    args = tuple(str(token) if a == "TOKEN" else str(spaced) if a == "SPACED" else a for a in args)
    pin = () if "--uninstall" in args else ("--pin", "1234")
    result = _run("--root", root, *pin, *args, check=False)
    assert result.returncode != 0 and said in result.stderr, result.stdout + result.stderr
    assert list(root.iterdir()) == []  # refused before anything changed


def test_on_a_terminal_the_token_is_asked_for(tmp_path: Path) -> None:
    bash = _bash()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the installer on the pty
        os.execv(bash, [bash, str(SCRIPT), "--root", str(tmp_path), "--pin", "1234", "--club", "http://hub:8022"])
    answers = [("on the hub prints it): ", "short"), ("on the hub prints it): ", SECRET)]
    seen, out = 0, b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if seen < len(answers) and out.decode(errors="replace").count(answers[seen][0]) > seen:
            os.write(fd, answers[seen][1].encode() + b"\n")
            seen += 1
    _, status = os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "a token is one word of 8 to 512 printable characters; try again" in text
    assert "the club token (as typed) is stored" in text and SECRET not in text
    assert (tmp_path / TOKEN).read_text() == SECRET + "\n"
