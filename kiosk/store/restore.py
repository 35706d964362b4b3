"""A journal missing or empty at start-up: its newest good backup put in its place, and the messages
that say what was restored (shared with ``Database``'s own recovery of a damaged file)."""

from __future__ import annotations

from pathlib import Path

from kiosk.i18n import T, Text
from kiosk.store.backup import BackupInfo, Backups
from kiosk.store.errors import StoreUnavailable
from kiosk.store.files import move_aside, sidecar
from kiosk.store.lineage import FRESH, Mark


def restore_missing(target: Path, tables: frozenset[str], wall: float, backups: Backups, mark: Mark | None) -> Text | None:
    """A journal that is missing or empty at start-up, with a good backup beside it: the newest one put in
    its place (the backups of the history its mark names first), and the message saying so.

    A leftover ``-wal`` / ``-shm`` without its file (or beside an empty one) is moved aside first: SQLite
    would otherwise replay another file's log into the new one. Without a backup, a journal that was
    there before (its mark says it held commits) is said to be gone; a first start says nothing.
    """
    try:
        size: int | None = target.stat().st_size
    except FileNotFoundError:
        size = None
    except OSError:
        return None
    if size or (mark is not None and mark.history == FRESH):
        return None  # a journal there, or a new one asked for
    leftovers = [sidecar(target, s) for s in ("-wal", "-shm") if sidecar(target, s).exists()]
    if size is None and not leftovers and not backups.files() and (mark is None or not mark.commits):
        return None  # a first start
    backup = backups.newest_good(tables, prefer=None if mark is None else mark.history)
    if backup is None and (mark is None or not mark.commits):
        if leftovers and size is None:
            move_aside(target, wall, kind="orphan")
        return None  # nothing to restore and nothing known to be lost
    how = T("it was missing") if size is None else T("it was empty")
    moved = move_aside(target, wall, kind="empty") if size is not None or leftovers else None
    if backup is None:
        return T("The match journal {name} could not be read ({reason}) and no backup of it was found: a new "
                 "journal was started. The players, ratings and matches saved before are lost.",
                 name=target.name, reason=how)
    try:
        backups.restore(backup, target)
    except OSError as exc:
        error = str(exc.strerror or exc)
        raise StoreUnavailable(T("The match journal {path} cannot be used: {why}. Matches will not survive a "
                                 "restart.", path=str(target), why=error),
                               why=T("its backup cannot be restored ({error})", error=error)) from exc
    if moved is None:
        return T("The match journal {name} could not be read ({reason}); the players, ratings and matches were "
                 "restored from the backup of {when} (players: {players}, matches: {matches}). Anything saved "
                 "after that backup is lost.", name=target.name, reason=how, when=backup.when,
                 players=backup.players, matches=backup.matches)
    return start_over_message(target, how, moved, backup)


def start_over_message(target: Path, reason: str, moved: Path, restored: BackupInfo | None) -> Text:
    if restored is None:
        return T("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and a new "
                 "journal was started.", name=target.name, reason=reason, moved=moved.name)
    return T("The match journal {name} could not be read ({reason}); it was moved aside to {moved} and the players, "
             "ratings and matches were restored from the backup of {when} (players: {players}, matches: {matches}). "
             "Anything saved after that backup is lost.", name=target.name, reason=reason, moved=moved.name,
             when=restored.when, players=restored.players, matches=restored.matches)
