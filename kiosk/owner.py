"""The owner's PIN and the settings the owner edits on the kiosk (storage and checks, not the screens).

**The PIN** is 4 to 8 digits. The installer stores it as one line (``python -m kiosk.owner hash``
makes it), in the file ``kiosk.owner_pin_file`` names (``/etc/spectacular-bid/owner-pin``, mode
0640, owner root, group kiosk)::

    pbkdf2_sha256$200000$<salt: 16 bytes in hex>$<PBKDF2-HMAC-SHA256 of the PIN: 32 bytes in hex>

``load_pin(path)`` reads it and never raises: a missing, unreadable or damaged file gives no PIN
and a warning (the owner screens then stay locked); ``OwnerPin.check(digits)`` compares in
constant time.

**The settings** the owner edits (``EDITABLE``: the match keys, ``display.orientation``,
``kiosk.language``, ``sound.volume``) are written back into the configuration file by
``write_settings(path, changes)``, in place, by tomlkit, in whatever form TOML allows the table to
be written (``[match]`` with ``key = value`` lines, dotted keys ``match.balances = 150``, an
inline table ``match = { balances = 150 }``): each key's value is replaced where it is written
(the comment after it kept in its column), a missing key is added at the end of its table, a
missing table at the end of the file; comments, blank lines, other keys and unknown keys stay as
they were. The result must parse and read back exactly the old document plus the changes, or
nothing is written. It is written atomically (a temporary file in the same folder, fsync, rename, fsync of
the folder), keeping the file's mode.

Errors: ``OwnerError`` (``.text``: the message value; ``str()``: its English)
  ├─ ``PinRefused`` (also ``ValueError``): a PIN that breaks the rules
  ├─ ``PinFileDamaged`` (also ``ValueError``): a stored line that is not a PIN hash
  ├─ ``SettingsRefused`` (also ``ValueError``): a change that is not allowed, or a file that
  │    cannot be edited in place; nothing was written
  └─ ``SettingsUnsaved`` (also ``OSError``): the file could not be read or written; nothing changed

``python -m kiosk.owner hash`` reads a PIN on stdin and prints its line; ``check FILE`` exits 0 when
the PIN on stdin matches; ``generate`` prints a random 6-digit PIN (the installer's three uses).
This module needs only the standard library and ``kiosk.i18n`` (``write_settings`` imports the
configuration reader and tomlkit when called), so the installer can run it before any dependency
is installed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import os
import re
import secrets
import stat
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.i18n import T, Text
from kiosk.i18n.messages import as_text

if TYPE_CHECKING:
    from kiosk.config import LoadedKioskConfig

ALGORITHM = "pbkdf2_sha256"
ITERATIONS = 200_000
"""PBKDF2 rounds for a new PIN: 45 ms on the development machine (SHA extensions); a Raspberry Pi 4
has none, so expect several times that (a few tenths of a second) per check."""
ITERATION_RANGE = range(10_000, 2_000_001)
"""Rounds a stored line may name: fewer is too weak, more would freeze the frame loop at each check."""
SALT_BYTES = 16
PIN_LENGTHS = range(4, 9)
"""A PIN has 4 to 8 digits."""
MAX_PIN_FILE_BYTES = 4096

EDITABLE: tuple[str, ...] = (
    "match.bank_seconds",
    "match.delay_seconds",
    "match.balances",
    "match.handover",
    "display.orientation",
    "kiosk.language",
    "sound.volume",
)
"""The configuration keys the owner may change on the kiosk (``write_settings``)."""

_DIGITS = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9a-f]+")
SET_PIN_HINT = "sudo systemd/install.sh --pin NNNN"


class OwnerError(Exception):
    """Anything about the owner PIN or the owner's settings. ``text``: the message value."""

    text: Text

    def __init__(self, text: str) -> None:
        self.text = text if isinstance(text, Text) else Text(text)
        super().__init__(str(self.text))


class PinRefused(OwnerError, ValueError):
    """A PIN that is not 4 to 8 digits."""


class PinFileDamaged(OwnerError, ValueError):
    """A stored PIN line that cannot be read."""


class SettingsRefused(OwnerError, ValueError):
    """A settings change that is not allowed, or a file that cannot be edited in place."""


class SettingsUnsaved(OwnerError, OSError):
    """The configuration file could not be read or written."""


# -- the PIN ------------------------------------------------------------------------------------


def pin_problem(digits: str) -> Text | None:
    """Why ``digits`` cannot be a PIN, or None when it can (4 to 8 of the digits 0-9)."""
    if not isinstance(digits, str) or not _DIGITS.fullmatch(digits) or len(digits) not in PIN_LENGTHS:
        return T("a PIN is {low} to {high} digits (0-9)", low=PIN_LENGTHS.start, high=PIN_LENGTHS.stop - 1)
    return None


def _derive(digits: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", digits.encode("ascii", "replace"), salt, iterations)


@dataclass(frozen=True, slots=True)
class OwnerPin:
    """A stored PIN: its salt, its PBKDF2-HMAC-SHA256 digest and the rounds that made it."""

    iterations: int
    salt: bytes
    digest: bytes

    @classmethod
    def new(cls, digits: str, *, iterations: int = ITERATIONS, salt: bytes | None = None) -> OwnerPin:
        """The hash of a new PIN with a random salt; ``PinRefused`` when ``digits`` is not a PIN."""
        problem = pin_problem(digits)
        if problem is not None:
            raise PinRefused(problem)
        if iterations not in ITERATION_RANGE:
            raise PinRefused(Text(f"iterations must be within {ITERATION_RANGE.start}..{ITERATION_RANGE.stop - 1}"))
        salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
        return cls(iterations, salt, _derive(digits, salt, iterations))

    @classmethod
    def parse(cls, line: str) -> OwnerPin:
        """The PIN stored as ``line`` (surrounding whitespace ignored); ``PinFileDamaged`` says why not."""
        parts = line.strip().split("$")
        if len(parts) != 4 or parts[0] != ALGORITHM:
            raise PinFileDamaged(Text(f"expected {ALGORITHM}$ITERATIONS$SALT$HASH"))
        _, rounds, salt, digest = parts
        if not _DIGITS.fullmatch(rounds) or int(rounds) not in ITERATION_RANGE:
            raise PinFileDamaged(Text(f"iterations must be a number within {ITERATION_RANGE.start}..{ITERATION_RANGE.stop - 1}"))
        if not _HEX.fullmatch(salt) or len(salt) % 2 or len(salt) < 16:
            raise PinFileDamaged(Text("the salt must be at least 8 bytes in lower-case hex"))
        if not _HEX.fullmatch(digest) or len(digest) != 64:
            raise PinFileDamaged(Text("the hash must be 32 bytes in lower-case hex"))
        return cls(int(rounds), bytes.fromhex(salt), bytes.fromhex(digest))

    def line(self) -> str:
        """The stored form: ``pbkdf2_sha256$ITERATIONS$SALT$HASH`` (no newline)."""
        return f"{ALGORITHM}${self.iterations}${self.salt.hex()}${self.digest.hex()}"

    def check(self, digits: str) -> bool:
        """Whether ``digits`` is this PIN (constant-time comparison; anything that is no PIN is False)."""
        candidate = _derive(digits if isinstance(digits, str) else "", self.salt, self.iterations)
        return hmac.compare_digest(candidate, self.digest) and pin_problem(digits) is None


def hash_pin(digits: str) -> str:
    """The line to store for the PIN ``digits``; ``PinRefused`` when it is not 4 to 8 digits."""
    return OwnerPin.new(digits).line()


@dataclass(frozen=True, slots=True)
class LoadedPin:
    """The owner PIN from its file: ``pin`` None means none is usable (keep the owner screens
    locked); ``warning`` says what is wrong, for the banner and the log (None when all is well)."""

    pin: OwnerPin | None
    warning: Text | None = None
    lock_file: Path | None = None
    """Where the keypad's lock after wrong PINs is kept between starts (None: not kept)."""


def load_pin(path: str | os.PathLike[str]) -> LoadedPin:
    """The PIN stored at ``path``; never raises (see ``LoadedPin``)."""
    where = os.fspath(path)
    try:
        with open(where, "rb") as stream:
            mode = os.fstat(stream.fileno()).st_mode
            data = stream.read(MAX_PIN_FILE_BYTES + 1)
    except FileNotFoundError:
        return LoadedPin(None, T("no owner PIN is set ({path} is missing), so the owner screens are locked; "
                                 "set one with: {command}", path=where, command=SET_PIN_HINT))
    except OSError as exc:
        return LoadedPin(None, T("the owner PIN file {path} cannot be read ({error}), so the owner screens are "
                                 "locked; set the PIN again with: {command}",
                                 path=where, error=exc.strerror or str(exc), command=SET_PIN_HINT))
    try:
        if len(data) > MAX_PIN_FILE_BYTES:
            raise PinFileDamaged(Text("it is far too long for one line"))
        lines = [line for line in data.decode("ascii").splitlines() if line.strip()]
        if len(lines) != 1:
            raise PinFileDamaged(Text(f"expected one line, found {len(lines)}"))
        pin = OwnerPin.parse(lines[0])
    except (PinFileDamaged, UnicodeDecodeError) as exc:
        reason = exc.text if isinstance(exc, PinFileDamaged) else Text("it is not plain text")
        return LoadedPin(None, T("the owner PIN file {path} is damaged ({reason}), so the owner screens are "
                                 "locked; set the PIN again with: {command}",
                                 path=where, reason=reason, command=SET_PIN_HINT))
    if mode & stat.S_IROTH:
        return LoadedPin(pin, T("the owner PIN file {path} can be read by every user; make it readable only by "
                                "root and the kiosk group: {command}", path=where, command=SET_PIN_HINT))
    return LoadedPin(pin)


# -- the owner's settings -------------------------------------------------------------------------


def _checked_changes(changes: Mapping[str, object]) -> dict[str, Any]:
    """The changes as the values to write; ``SettingsRefused`` for a key or value that is not allowed."""
    from kiosk.config import RULES  # the configuration reader (pulls in the hardware layer)

    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in EDITABLE:
            raise SettingsRefused(T("{key} cannot be changed here (these can: {keys}); nothing was saved",
                                    key=key, keys=", ".join(EDITABLE)))
        rule = RULES[key]
        accepted = rule.accept(value)
        if accepted is None:
            raise SettingsRefused(T("{key}: expected {expected}, got {value}; nothing was saved",
                                    key=key, expected=as_text(rule.expected), value=repr(value)))
        out[key] = accepted
    return out


def edit_text(text: str, changes: Mapping[str, Any]) -> str:
    """``text`` with each ``"table.key": value`` of ``changes`` written in by tomlkit, in whatever TOML form
    the table is written (see the module's docstring); ``SettingsRefused`` when a table is not a table."""
    import tomlkit  # here, not at the top: the PIN part runs before any dependency is installed
    from tomlkit.items import AbstractTable, InlineTable, Item, Whitespace

    document = tomlkit.parse(text)
    for dotted, value in changes.items():
        name, _, key = dotted.partition(".")
        if name not in document:
            document.add(name, tomlkit.table())
        table = document[name]
        if not isinstance(table, dict):  # e.g. ``match = 5`` or ``[[match]]`` (tomlkit's tables are dicts)
            from kiosk.config_lines import line_index

            raise SettingsRefused(T("{key} on line {line} cannot be changed in place; edit the file by hand; "
                                    "nothing was saved", key=dotted, line=line_index(text).get((name,), 0)))
        new = tomlkit.item(value)
        old = (table.item(key) if isinstance(table, AbstractTable) else dict.get(table, key)) if key in table else None
        if isinstance(old, Item) and old.trivia.comment and "\n" not in old.as_string():
            room = len(old.trivia.comment_ws) + len(old.as_string()) - len(new.as_string())
            new.trivia.comment_ws = " " * max(1, room)  # the comment after it stays in its column
        if isinstance(table, InlineTable) and key not in table:
            body = table.value.body  # a new key goes before the space in front of the closing brace
            tail = body.pop() if body and body[-1][0] is None and isinstance(body[-1][1], Whitespace) else None
            table.append(key, new)
            if tail is not None:
                body.append(tail)
        else:
            table[key] = new
    edited = document.as_string()
    if "\r\n" in text:  # the lines tomlkit adds end like the file's own
        edited = re.sub(r"(?<!\r)\n", "\r\n", edited)
    return edited


def _read_back(text: str, keys: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The values of ``keys`` in ``text`` and the rest of its document; None when it does not parse."""
    try:
        document = tomllib.loads(text)
    except Exception:  # the edit broke the file: refused by the caller
        return None
    values: dict[str, Any] = {}
    for dotted in keys:
        table, _, key = dotted.partition(".")
        section = document.get(table)
        values[dotted] = section.get(key) if isinstance(section, dict) else None
    return values, _without(document, keys)


def _without(document: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    out = {name: dict(table) if isinstance(table, dict) else table for name, table in document.items()}
    for dotted in keys:
        table, _, key = dotted.partition(".")
        if isinstance(out.get(table), dict):
            out[table].pop(key, None)
            if not out[table]:
                del out[table]
    return out


def write_settings(path: str | os.PathLike[str], changes: Mapping[str, object]) -> LoadedKioskConfig:
    """Write the owner's ``changes`` (``{"match.bank_seconds": 90, "sound.volume": 40, ...}``, keys from
    ``EDITABLE``) into the configuration file at ``path`` and return the configuration as now read
    from it. A missing file starts from the documented default file. ``SettingsRefused`` or
    ``SettingsUnsaved`` when it cannot be done: then the file is unchanged."""
    from hardware.config import BOM
    from kiosk.config import DEFAULT_CONFIG_TOML, parse_config_text

    wanted = _checked_changes(changes)
    target = Path(os.path.realpath(path))
    try:
        text = target.read_bytes().decode("utf-8")
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        text, mode = DEFAULT_CONFIG_TOML, 0o644
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsUnsaved(T("the settings could not be saved to {path} ({error}); nothing was changed",
                                path=str(target), error=str(exc))) from exc
    bom = BOM if text.startswith(BOM) else ""
    body = text.removeprefix(BOM)
    try:
        before = tomllib.loads(body)
    except Exception as exc:  # not valid TOML (or the parser failed): editing in place is not safe
        raise SettingsRefused(T("the configuration file {path} has errors ({error}); fix it by hand first; "
                                "nothing was saved", path=str(target), error=str(exc))) from exc
    if not wanted:
        return parse_config_text(body)
    try:
        edited = edit_text(body, wanted)
    except SettingsRefused:
        raise
    except Exception:  # tomlkit could not read or write what tomllib read: left to the owner's hands
        edited = None
    if edited is None or _read_back(edited, list(wanted)) != (wanted, _without(before, list(wanted))):
        raise SettingsRefused(T("the configuration file {path} cannot be edited in place; edit it by hand; "
                                "nothing was saved", path=str(target)))
    _replace(target, (bom + edited).encode("utf-8"), mode)
    return parse_config_text(edited)


def _replace(target: Path, data: bytes, mode: int) -> None:
    """Put ``data`` at ``target`` atomically: a temporary file beside it, fsync, rename, fsync the folder."""
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
        temporary = None
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:
        raise SettingsUnsaved(T("the settings could not be saved to {path} ({error}); nothing was changed",
                                path=str(target), error=exc.strerror or str(exc))) from exc
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


# -- python -m kiosk.owner ------------------------------------------------------------------------


def _read_pin(stream: Any) -> str:
    return str(stream.readline()).rstrip("\r\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kiosk.owner hash | check FILE | generate`` (the PIN, if any, on stdin)."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.owner", description="The owner PIN")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("hash", help="read a PIN on stdin, print the line to store")
    check = commands.add_parser("check", help="read a PIN on stdin: exit 0 when FILE holds it, 1 when not")
    check.add_argument("file")
    commands.add_parser("generate", help="print a random 6-digit PIN")
    args = parser.parse_args(argv)
    if args.command == "generate":
        print(f"{secrets.randbelow(10**6):06d}")
        return 0
    digits = _read_pin(sys.stdin)
    if args.command == "hash":
        try:
            print(hash_pin(digits))
        except PinRefused as exc:
            print(f"python -m kiosk.owner: {exc}", file=sys.stderr)
            return 2
        return 0
    loaded = load_pin(args.file)
    if loaded.pin is None:
        print(f"python -m kiosk.owner: {loaded.warning}", file=sys.stderr)
        return 2
    return 0 if loaded.pin.check(digits) else 1


if __name__ == "__main__":
    sys.exit(main())
