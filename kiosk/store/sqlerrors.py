"""SQLite's errors as the store's: which mean a damaged file, which an unusable one, in words.

``runtime_error`` is what ``Database`` raises for any ``sqlite3.Error`` met while the file is in use:
``StoreDamaged`` for a damaged file ("database disk image is malformed", "file is not a database"),
``StoreUsageError`` for a refused row, ``StoreUnavailable`` for the rest (full, read-only, I/O error,
in use), each with its cause as ``why``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

from kiosk.i18n import T
from kiosk.store.errors import KioskStoreError, StoreDamaged, StoreUnavailable, StoreUsageError, internal

_DAMAGED_CODES = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
"""SQLite error names (prefixes) that mean the file itself is damaged: moved aside."""


def _error_name(exc: sqlite3.Error) -> str:
    return str(getattr(exc, "sqlite_errorname", "") or "")


def folder_write_errno(folder: Path) -> int | None:
    """Why a new file cannot be written in ``folder`` (an ``errno``: EROFS, ENOSPC ...), None
    when one can: SQLite reports a file system turned read-only as a plain I/O error."""
    probe = folder / f".write-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return None
    except OSError as exc:
        return exc.errno
    try:
        os.write(fd, b"x")
    except OSError as exc:
        return exc.errno
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
    return None


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether a SQLite error means the file itself is damaged."""
    if _error_name(exc).startswith(_DAMAGED_CODES):
        return True
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def runtime_error(path: Path, exc: sqlite3.Error) -> KioskStoreError:
    """The store error for a SQLite error met while the file is in use."""
    if isinstance(exc, sqlite3.IntegrityError):
        return StoreUsageError(internal("The match journal refused a row: {error}", error=str(exc)))
    if is_damage(exc):
        return StoreDamaged(T("The match journal {path} is damaged: {error}", path=str(path), error=str(exc)),
                            why=T("the journal is damaged ({error})", error=str(exc)))
    return unavailable(path, exc)


def unavailable(path: Path, exc: sqlite3.Error) -> StoreUnavailable:
    """``StoreUnavailable`` for a SQLite error that keeps the file from being used."""
    name = _error_name(exc)
    why: str
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        why = T("it is in use by another kiosk process")
    elif name.startswith("SQLITE_READONLY"):
        why = T("it is read-only")
    elif name.startswith("SQLITE_FULL"):
        why = T("the disk is full")
    elif name.startswith("SQLITE_CANTOPEN"):
        why = T("the file cannot be opened (is the folder read-only?)")
    elif name.startswith("SQLITE_IOERR"):
        cause = folder_write_errno(path.parent)
        if cause == errno.EROFS:
            why = T("the storage has become read-only (a card with errors becomes read-only by itself)")
        elif cause == errno.ENOSPC:
            why = T("the disk is full")
        else:
            why = T("the storage reported an input/output error")
    else:
        why = str(exc)
    return StoreUnavailable(T("The match journal {path} cannot be used: {why}. Matches will not survive a restart.",
                              path=str(path), why=why), why=why)
