"""kiosk.owner: the owner PIN (rules, salted PBKDF2 hash, file, constant-time check) and the
owner's settings written back into the configuration file in place, atomically."""

from __future__ import annotations

import hmac
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kiosk.owner as owner
from kiosk.config import DEFAULT_CONFIG_TOML, RULES, KioskConfig, load_config
from kiosk.i18n import Text
from kiosk.owner import (
    EDITABLE,
    LoadedPin,
    OwnerError,
    OwnerPin,
    PinFileDamaged,
    PinRefused,
    SettingsRefused,
    SettingsUnsaved,
    hash_pin,
    load_pin,
    pin_problem,
    write_settings,
)

REPO = Path(__file__).resolve().parents[2]
LINE = re.compile(r"pbkdf2_sha256\$200000\$[0-9a-f]{32}\$[0-9a-f]{64}")
FAST = 10_000  # the fewest rounds a stored line may name: keeps these tests quick


def _pin_file(tmp_path: Path, content: str | bytes, mode: int = 0o640) -> Path:
    path = tmp_path / "owner-pin"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    path.chmod(mode)
    return path


# -- the PIN ------------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", ["0000", "1234", "004211", "12345678"])
def test_a_pin_is_four_to_eight_digits(digits: str) -> None:
    assert pin_problem(digits) is None


@pytest.mark.parametrize("digits", ["", "123", "123456789", "12a4", " 1234", "1234\n", "١٢٣٤", "１２３４", "+123", "12.4"])
def test_anything_else_is_refused_with_the_rule(digits: str) -> None:
    problem = pin_problem(digits)
    assert isinstance(problem, Text) and problem.msgid == "a PIN is {low} to {high} digits (0-9)"
    assert str(problem) == "a PIN is 4 to 8 digits (0-9)"
    with pytest.raises(PinRefused) as raised:
        hash_pin(digits)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, OwnerError)
    assert raised.value.text == problem


def test_the_stored_line_is_salted_pbkdf2_sha256_and_checks_the_pin() -> None:
    line = hash_pin("4821")
    assert LINE.fullmatch(line), line
    assert hash_pin("4821") != line  # a fresh salt each time
    pin = OwnerPin.parse(line + "\n")
    assert pin.iterations == 200_000 and len(pin.salt) == 16 and len(pin.digest) == 32
    assert pin.line() == line
    assert pin.check("4821")
    assert not pin.check("4822") and not pin.check("482") and not pin.check("") and not pin.check("48210")


def test_a_known_salt_gives_the_standard_pbkdf2_digest() -> None:
    import hashlib

    pin = OwnerPin.new("2468", iterations=FAST, salt=bytes(range(16)))
    assert pin.digest == hashlib.pbkdf2_hmac("sha256", b"2468", bytes(range(16)), FAST)
    assert pin.line() == f"pbkdf2_sha256${FAST}$000102030405060708090a0b0c0d0e0f${pin.digest.hex()}"


def test_the_check_compares_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    pin = OwnerPin.new("1357", iterations=FAST)
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return bool(real(a, b))

    monkeypatch.setattr(hmac, "compare_digest", spy)
    assert pin.check("1357") and not pin.check("9999") and not pin.check("not a pin")
    assert len(calls) == 3 and all(b == pin.digest for _, b in calls)


@pytest.mark.parametrize(("line", "reason"), [
    ("", "expected pbkdf2_sha256$ITERATIONS$SALT$HASH"),
    ("1234", "expected pbkdf2_sha256$ITERATIONS$SALT$HASH"),
    ("md5$10000$00112233445566778899aabbccddeeff$" + "0" * 64, "expected pbkdf2_sha256$ITERATIONS$SALT$HASH"),
    ("pbkdf2_sha256$9999$00112233445566778899aabbccddeeff$" + "0" * 64, "iterations must be a number within"),
    ("pbkdf2_sha256$1000000000000$00112233445566778899aabbccddeeff$" + "0" * 64, "iterations must be a number within"),
    ("pbkdf2_sha256$-5$00112233445566778899aabbccddeeff$" + "0" * 64, "iterations must be a number within"),
    ("pbkdf2_sha256$10000$0011$" + "0" * 64, "the salt must be at least 8 bytes"),
    ("pbkdf2_sha256$10000$00112233445566778899AABBCCDDEEFF$" + "0" * 64, "the salt must be at least 8 bytes"),
    ("pbkdf2_sha256$10000$00112233445566778899aabbccddeeff$" + "0" * 63, "the hash must be 32 bytes"),
    ("pbkdf2_sha256$10000$00112233445566778899aabbccddeeff$" + "0" * 64 + "$x", "expected pbkdf2_sha256$"),
])
def test_a_damaged_line_says_why(line: str, reason: str) -> None:
    with pytest.raises(PinFileDamaged, match=re.escape(reason)):
        OwnerPin.parse(line)


def test_load_pin_reads_the_installers_file(tmp_path: Path) -> None:
    line = OwnerPin.new("8080", iterations=FAST).line()
    loaded = load_pin(_pin_file(tmp_path, line + "\n"))
    assert loaded.warning is None and loaded.pin is not None
    assert loaded.pin.line() == line and loaded.pin.check("8080")


def test_a_missing_pin_file_locks_the_owner_screens_and_says_how_to_set_one(tmp_path: Path) -> None:
    loaded = load_pin(tmp_path / "owner-pin")
    assert loaded.pin is None and loaded.warning is not None
    assert loaded.warning.msgid.startswith("no owner PIN is set ({path} is missing)")
    assert str(tmp_path / "owner-pin") in loaded.warning
    assert "sudo systemd/install.sh --pin NNNN" in loaded.warning


@pytest.mark.parametrize("content", [
    "garbage\n",
    b"\xff\xfe\x00\x01",
    "pbkdf2_sha256$10000$00112233445566778899aabbccddeeff$" + "0" * 64 + "\n" + "second line\n",
    "pbkdf2_sha256$99999999999$00112233445566778899aabbccddeeff$" + "0" * 64,
    "x" * 5000,
    "",
])
def test_a_damaged_pin_file_is_a_warning_never_a_crash(tmp_path: Path, content: str | bytes) -> None:
    loaded = load_pin(_pin_file(tmp_path, content))
    assert loaded.pin is None and loaded.warning is not None
    assert loaded.warning.msgid.startswith("the owner PIN file {path} is damaged ({reason})")


def test_an_unreadable_pin_file_is_a_warning(tmp_path: Path) -> None:
    folder = tmp_path / "owner-pin"
    folder.mkdir()
    loaded = load_pin(folder)
    assert loaded.pin is None and loaded.warning is not None
    assert loaded.warning.msgid.startswith("the owner PIN file {path} cannot be read ({error})")


def test_a_pin_file_every_user_can_read_still_works_but_says_so(tmp_path: Path) -> None:
    loaded = load_pin(_pin_file(tmp_path, OwnerPin.new("1111", iterations=FAST).line(), mode=0o644))
    assert loaded.pin is not None and loaded.pin.check("1111")
    assert loaded.warning is not None and loaded.warning.msgid.startswith("the owner PIN file {path} can be read by every user")


def test_the_command_line_hashes_checks_and_generates(tmp_path: Path) -> None:
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-P", "-m", "kiosk.owner", *args], input=stdin,
                              capture_output=True, text=True, cwd=tmp_path, timeout=60)

    made = run("hash", stdin="246810\n")
    assert made.returncode == 0 and LINE.fullmatch(made.stdout.strip()), made.stderr
    path = _pin_file(tmp_path, made.stdout)
    assert run("check", str(path), stdin="246810\n").returncode == 0
    assert run("check", str(path), stdin="246811\n").returncode == 1
    missing = run("check", str(tmp_path / "nope"), stdin="246810\n")
    assert missing.returncode == 2 and "no owner PIN is set" in missing.stderr
    refused = run("hash", stdin="12a\n")
    assert refused.returncode == 2 and "a PIN is 4 to 8 digits (0-9)" in refused.stderr and refused.stdout == ""
    generated = {run("generate").stdout.strip() for _ in range(3)}
    assert all(re.fullmatch(r"[0-9]{6}", pin) for pin in generated)


def test_the_pin_part_needs_only_the_standard_library_and_kiosk_i18n() -> None:
    """The installer runs it with the system's python3 before the venv has any dependency."""
    probe = ("import sys, kiosk.owner; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
             "('hardware', 'pygame', 'gpiozero', 'serial', 'engine') or m == 'kiosk.config'); print(bad)")
    done = subprocess.run([sys.executable, "-P", "-s", "-c", probe], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, cwd="/", timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


# -- the owner's settings -----------------------------------------------------------------------

CONFIG = """\
# the cafe's table
[display]
size = "1280x800"        # the big screen
orientation = "table"    # flat

[match]
bank_seconds = 120       # each player's bank
balances = 150
colour = "green"         # not a key the kiosk knows: kept

[serial]
enabled = false
url = "/dev/serial-panel"
"""


def test_every_editable_key_has_a_rule() -> None:
    assert set(EDITABLE) <= set(RULES)
    assert set(EDITABLE) == {"match.bank_seconds", "match.delay_seconds", "match.balances", "match.handover",
                             "display.orientation", "kiosk.language", "sound.volume"}


def test_settings_are_written_in_place_keeping_comments_and_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    path.chmod(0o644)
    loaded = write_settings(path, {"match.bank_seconds": 90, "display.orientation": "upright", "match.handover": False,
                                   "match.delay_seconds": 2.5, "kiosk.language": "uk", "sound.volume": 35})
    assert path.read_text() == """\
# the cafe's table
[display]
size = "1280x800"        # the big screen
orientation = "upright"  # flat

[match]
bank_seconds = 90        # each player's bank
balances = 150
colour = "green"         # not a key the kiosk knows: kept
handover = false
delay_seconds = 2.5

[serial]
enabled = false
url = "/dev/serial-panel"

[kiosk]
language = "uk"

[sound]
volume = 35
"""
    config = loaded.config
    assert config.match.bank_seconds == 90 and config.match.handover is False and config.match.delay_seconds == 2.5
    assert config.display.orientation == "upright" and config.display.size == (1280, 800)
    assert config.kiosk.language == "uk" and config.sound.volume == 35
    assert load_config(path).config == config
    assert path.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]  # no temporary file left


def test_the_default_file_edits_cleanly_and_a_missing_file_starts_from_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    loaded = write_settings(path, {"sound.volume": 0, "match.balances": 300})
    text = path.read_text()
    assert text == DEFAULT_CONFIG_TOML.replace("volume = 60", "volume = 0 ").replace("balances = 150", "balances = 300")
    assert loaded.warnings == () and loaded.config.sound.volume == 0 and loaded.config.match.balances == 300


def test_a_bom_and_windows_line_ends_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf[match]\r\nbalances = 150\r\n")
    write_settings(path, {"match.balances": 200})
    assert path.read_bytes() == b"\xef\xbb\xbf[match]\r\nbalances = 200\r\n"


def test_a_symlinked_configuration_is_edited_where_it_lives(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_text("[sound]\nvolume = 60\n")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    write_settings(link, {"sound.volume": 10})
    assert link.is_symlink() and real.read_text() == "[sound]\nvolume = 10\n"


@pytest.mark.parametrize(("changes", "msgid"), [
    ({"display.fps": 60}, "{key} cannot be changed here (these can: {keys}); nothing was saved"),
    ({"kiosk.owner_pin_file": "/tmp/mine"}, "{key} cannot be changed here (these can: {keys}); nothing was saved"),
    ({"sound.volume": 101}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"sound.volume": 50.5}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"match.bank_seconds": 0}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"match.balances": True}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"match.handover": "yes"}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"display.orientation": "sideways"}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"kiosk.language": "fr"}, "{key}: expected {expected}, got {value}; nothing was saved"),
    ({"sound.volume": 40, "match.delay_seconds": float("nan")}, "{key}: expected {expected}, got {value}; nothing was saved"),
])
def test_a_change_that_is_not_allowed_says_why_and_changes_nothing(
        tmp_path: Path, changes: dict[str, object], msgid: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    with pytest.raises(SettingsRefused) as raised:
        write_settings(path, changes)
    assert isinstance(raised.value, ValueError) and raised.value.text.msgid == msgid
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_the_reason_for_a_wrong_value_names_what_it_should_be() -> None:
    with pytest.raises(SettingsRefused) as raised:
        owner._checked_changes({"sound.volume": 101})
    assert str(raised.value) == "sound.volume: expected a whole number from 0 to 100, got 101; nothing was saved"
    assert isinstance(raised.value.text.params["expected"], Text)  # translated on the owner's screen


@pytest.mark.parametrize(("text", "msgid", "line"), [
    ("[match\nbalances = 1\n", "the configuration file {path} has errors ({error}); fix it by hand first; nothing was saved",
     None),
    ("# the bank\nmatch = 5\n", "{key} on line {line} cannot be changed in place; edit the file by hand; nothing was saved", 2),
    ("[[match]]\nbank_seconds = 5\n",
     "{key} on line {line} cannot be changed in place; edit the file by hand; nothing was saved", 1),
])
def test_a_file_that_cannot_be_edited_in_place_is_left_alone(tmp_path: Path, text: str, msgid: str,
                                                            line: int | None) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(SettingsRefused) as raised:
        write_settings(path, {"match.bank_seconds": 90})
    assert raised.value.text.msgid == msgid and raised.value.text.params.get("line") == line
    assert path.read_text() == text


@pytest.mark.parametrize(("text", "changes", "after"), [
    pytest.param(  # an inline table: the value replaced in it, a new key added before the closing brace
        '# the cafe\nmatch = { bank_seconds = 120, balances = 150 }  # short games\n',
        {"match.bank_seconds": 90, "match.handover": False},
        '# the cafe\nmatch = { bank_seconds = 90, balances = 150, handover = false }  # short games\n',
        id="inline table"),
    pytest.param(  # dotted keys at the top: replaced where written, a new one among them
        '# the cafe\nmatch.bank_seconds = 120  # each bank\nmatch.balances = 150\nsound.volume = 60  # quiet\n',
        {"match.bank_seconds": 90, "match.delay_seconds": 5, "sound.volume": 100},
        '# the cafe\nmatch.bank_seconds = 90   # each bank\nmatch.delay_seconds = 5\nmatch.balances = 150\n'
        'sound.volume = 100 # quiet\n',
        id="dotted keys"),
    pytest.param(  # a value written over several lines, and a multi-line string that looks like a key
        '[match]\nbank_seconds = [\n  1,\n]  # was a list\nnote = """\nbalances = 5\n"""\n',
        {"match.bank_seconds": 90, "match.balances": 200},
        '[match]\nbank_seconds = 90  # was a list\nnote = """\nbalances = 5\n"""\nbalances = 200\n',
        id="multi-line values"),
    pytest.param(  # a sub-table after the table, dotted keys inside a table
        '[display]\norientation = "table"\n[match]\nhandover = true # hand the table over\n[match.house]\nrule = 1\n',
        {"match.handover": False, "display.orientation": "upright"},
        '[display]\norientation = "upright"\n[match]\nhandover = false # hand the table over\n[match.house]\nrule = 1\n',
        id="sub-table"),
])
def test_every_toml_form_is_edited_in_place_keeping_comments(tmp_path: Path, text: str, changes: dict[str, object],
                                                            after: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    loaded = write_settings(path, changes)
    assert path.read_text() == after
    for dotted, value in changes.items():
        section, _, key = dotted.partition(".")
        assert getattr(getattr(loaded.config, section), key) == value
    assert load_config(path).config == loaded.config


def test_the_line_ends_of_a_windows_file_are_kept_for_added_lines(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"match = { balances = 150 }\r\n")
    write_settings(path, {"match.balances": 200, "sound.volume": 5})
    assert path.read_bytes() == b"match = { balances = 200 }\r\n\r\n[sound]\r\nvolume = 5\r\n"


def test_a_failed_write_leaves_the_file_and_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SettingsUnsaved) as raised:
        write_settings(path, {"sound.volume": 10})
    assert isinstance(raised.value, OSError)
    assert str(raised.value) == f"the settings could not be saved to {path} (Permission denied); nothing was changed"
    assert path.read_text() == CONFIG
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def test_the_write_is_synced_before_and_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync file")
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        assert Path(src).parent == tmp_path and Path(dst) == path
        events.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_settings(path, {"sound.volume": 10})
    assert events == ["fsync file", "rename", "fsync dir"]


def test_no_changes_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    mtime = path.stat().st_mtime_ns
    assert write_settings(path, {}).config.display.size == (1280, 800)
    assert path.stat().st_mtime_ns == mtime


def test_an_unreadable_file_is_not_saved(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(SettingsUnsaved):
        write_settings(path, {"sound.volume": 10})
    assert path.read_bytes() == b"\xff\xfe not utf-8"


def test_loaded_pin_defaults() -> None:
    assert LoadedPin(None).warning is None
    assert KioskConfig().kiosk.owner_pin_file == "/etc/spectacular-bid/owner-pin"
