"""``python -m club backup``: the hub's database dumped with ``pg_dump`` into a folder, the newest kept.

Each dump is PostgreSQL's custom format (``pg_restore`` reads it, compressed), written under a
temporary name, flushed to disk and then renamed, so a dump in the folder is always whole. The
nightly timer of the hub box runs it (``systemd/spectacular-bid-hub-backup.timer``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from club.errors import SetupError
from club.localdb import PACKAGE, server_bindir

PREFIX = "club-"
SUFFIX = ".dump"


def pg_dump() -> str:
    """The ``pg_dump`` program (PATH first, then the server's binaries); SetupError when there is none."""
    found = shutil.which("pg_dump")
    if found:
        return found
    try:
        candidate = server_bindir() / "pg_dump"
    except SetupError:
        candidate = None
    if candidate is not None and os.access(candidate, os.X_OK):
        return str(candidate)
    raise SetupError(f"pg_dump is not installed: install the Debian package `{PACKAGE}-client`")


def backup(dsn: str, folder: Path, *, keep: int = 14, now: float | None = None) -> Path:
    """Dump the database at ``dsn`` into ``folder`` as ``club-YYYYmmddTHHMMSSZ.dump`` (UTC of ``now``),
    then remove all but the newest ``keep`` dumps; the new dump's path."""
    if keep < 1:
        raise SetupError("--keep wants 1 or more")
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    final = folder / f"{PREFIX}{stamp}{SUFFIX}"
    part = folder / f".{final.name}.part"
    done = subprocess.run([pg_dump(), "--format=custom", "--no-password", f"--file={part}", f"--dbname={dsn}"],
                          capture_output=True, text=True, check=False, timeout=3600)
    if done.returncode != 0:
        part.unlink(missing_ok=True)
        lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit status {done.returncode}"]
        raise SetupError(f"pg_dump failed: {lines[0]}")
    os.chmod(part, 0o600)
    with part.open("rb") as f:
        os.fsync(f.fileno())
    os.replace(part, final)
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    for old in dumps(folder)[:-keep]:
        old.unlink()
    return final


def dumps(folder: Path) -> list[Path]:
    """The whole dumps in ``folder``, oldest first."""
    return sorted(p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file())
