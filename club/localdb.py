"""A private PostgreSQL cluster in a folder: ``initdb`` once, ``pg_ctl`` to start and stop it, listening
only on a unix socket in that folder. ``make hub`` (``python -m club.devhub``) and the hub's tests use it.

PostgreSQL refuses to run as root: as root, the server binaries run as ``nobody`` through ``runuser``
and the folder belongs to ``nobody``. Without the server binaries, ``SetupError`` names the Debian
package that brings them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from club.errors import SetupError

PACKAGE = "postgresql"
"""The Debian package with the server binaries (initdb, pg_ctl, postgres)."""
OWNER = "nobody"
"""Who runs the server when the caller is root."""


def server_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``; SetupError naming the package when none has both."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if done.returncode == 0:
            candidates.append(done.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    for folder in candidates:
        if os.access(Path(folder, "initdb"), os.X_OK) and os.access(Path(folder, "pg_ctl"), os.X_OK):
            return Path(folder)
    raise SetupError(f"PostgreSQL's server binaries (initdb, pg_ctl) are not installed: install the Debian "
                     f"package `{PACKAGE}` (apt-get install {PACKAGE})")


@dataclass
class LocalCluster:
    """A cluster whose data lives in ``folder/data`` and whose socket is in ``folder``."""

    folder: Path
    user: str = "club"
    fast: bool = False
    """No fsync: for throwaway test clusters only."""

    def __post_init__(self) -> None:
        self.folder = self.folder.resolve()
        self.bindir = server_bindir()

    @property
    def data(self) -> Path:
        """The cluster's data folder."""
        return self.folder / "data"

    def dsn(self, dbname: str = "postgres") -> str:
        """The connection string for ``dbname`` on this cluster."""
        return f"host={self.folder} port=5432 user={self.user} dbname={dbname}"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A server binary, as the cluster's owner."""
        command = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", OWNER, "--", *command]
        return subprocess.run(command, cwd=self.folder, capture_output=True, text=True, check=False, timeout=120)

    def init(self) -> bool:
        """``initdb`` unless the cluster exists; True when it was made now."""
        if (self.data / "PG_VERSION").exists():
            return False
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, OWNER)
        done = self.run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8",
                        "--no-locale", *(["--no-sync"] if self.fast else []))
        if done.returncode != 0:
            raise SetupError(f"initdb failed in {self.folder} (as root it runs as {OWNER}, who must be able to "
                             f"reach that folder): {(done.stderr or done.stdout).strip()}")
        return True

    def running(self) -> bool:
        """Whether the server is up."""
        return self.data.exists() and self.run("pg_ctl", "-D", str(self.data), "status").returncode == 0

    def start(self) -> None:
        """Start the server (no TCP: the unix socket in ``folder`` only) and wait until it answers."""
        if self.running():
            return
        options = f"-k {self.folder} -c listen_addresses='' -c max_connections=200"
        if self.fast:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        log = self.folder / "server.log"
        done = self.run("pg_ctl", "-D", str(self.data), "-l", str(log), "-w", "-t", "60", "-o", options, "start")
        if done.returncode != 0:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise SetupError(f"pg_ctl could not start the cluster in {self.folder}: "
                             f"{(done.stderr or done.stdout).strip()} {tail}")

    def stop(self) -> None:
        """Stop the server (fast shutdown: clients disconnected, everything committed kept)."""
        if self.data.exists():
            self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self, name: str, template: str | None = None) -> None:
        """``CREATE DATABASE name`` unless it exists."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return
            query = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
            if template:
                query = sql.SQL("{} TEMPLATE {}").format(query, sql.Identifier(template))
            conn.execute(query)
