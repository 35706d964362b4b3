"""The kiosk store's errors: one hierarchy, each error also the builtin it resembles.

Every error carries its message as a value (``.text``, a ``kiosk.i18n.Text``: message id and
parameters); ``str()`` is the same message in English, for logs. Messages meant for players and
owners use the catalogs' message ids (``T``); the rest (a programming error, a detail for a log)
are ``internal`` texts, shown in English.

``KioskStoreError``
  ├─ ``StoreUnavailable`` (also ``OSError``): the file cannot be opened or written (full or
  │    read-only storage, an I/O error, a folder that cannot be made, in use by another process)
  ├─ ``StoreCorrupt`` (also ``ValueError``): stored data that fails its checks, a newer schema
  │    └─ ``StoreDamaged``: the file itself is damaged (SQLite: "database disk image is
  │         malformed", "file is not a database"); it is to be moved aside (``Database.recover``)
  ├─ ``StoreUsageError`` (also ``ValueError``): a call that does not fit the stored data
  │    └─ ``PlayerNameError``: a player name that cannot be used
  └─ ``ResumeFailed`` (also ``ValueError``): an unfinished match that could not be restored

The journal's names are the same classes: ``JournalError`` is ``KioskStoreError``,
``JournalUnavailable`` is ``StoreUnavailable``, ``JournalCorrupt`` is ``StoreCorrupt``,
``JournalDamaged`` is ``StoreDamaged`` and ``JournalUsageError`` is ``StoreUsageError``.
"""

from __future__ import annotations

from typing import Any

from kiosk.i18n import Text


def internal(template: str, **params: Any) -> Text:
    """A message for logs and developers: a ``Text`` with parameters that no catalog translates."""
    return Text(template, params)


class KioskStoreError(Exception):
    """Anything the kiosk store cannot do. ``text``: the message value; ``str()``: its English.

    ``why``: the cause alone, as a clause ("the disk is full"), for messages that say what it
    means (the saving banner: "Results are not being saved (the disk is full) ..."); the whole
    ``text`` when no shorter cause was given.
    """

    text: Text
    why: Text

    def __init__(self, text: str, *, why: str | None = None) -> None:
        self.text = text if isinstance(text, Text) else internal(text)
        self.why = self.text if why is None else (why if isinstance(why, Text) else internal(why))
        super().__init__(str(self.text))

    def __str__(self) -> str:
        return str(self.text)


class StoreUnavailable(KioskStoreError, OSError):
    """The store cannot be opened or written (read-only or full disk, in use by another process)."""


class StoreCorrupt(KioskStoreError, ValueError):
    """Stored data that fails its checks (a damaged file or row, a schema newer than this program)."""


class StoreDamaged(StoreCorrupt):
    """The database file itself is damaged (a malformed page, not a database): move it aside."""


class StoreUsageError(KioskStoreError, ValueError):
    """A call that does not fit the store's contents (unknown match, wrong sequence number, ...)."""


class PlayerNameError(StoreUsageError):
    """A player name that cannot be used (empty, too long, taken); ``text`` says why, for the screen."""


class ResumeFailed(KioskStoreError, ValueError):
    """An unfinished match whose saved state cannot be restored; it has been closed as aborted."""


JournalError = KioskStoreError
JournalUnavailable = StoreUnavailable
JournalCorrupt = StoreCorrupt
JournalDamaged = StoreDamaged
JournalUsageError = StoreUsageError
