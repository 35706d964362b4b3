"""Helpers for the club hub's tests: a throwaway PostgreSQL cluster made from the installed server
binaries (as pytest-postgresql does), and real kiosk journals turned into uploads."""

from __future__ import annotations

import copy
import glob
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kiosk.store.journal import Journal
from kiosk.store.players import Players

NAMESPACE = uuid.UUID("5b1d0000-0000-4000-8000-000000000022")
POSTGRES_PACKAGE = "postgresql"


def server_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``; the test FAILS (never skips) naming the package."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if done.returncode == 0:
            candidates.append(done.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if os.access(Path(folder, "initdb"), os.X_OK) and os.access(Path(folder, "pg_ctl"), os.X_OK):
            return Path(folder)
    for name in ("initdb", "pg_ctl"):
        found = shutil.which(name)
        if found and shutil.which("pg_ctl" if name == "initdb" else "initdb"):
            return Path(found).resolve().parent
    pytest.fail(f"the club hub's tests need PostgreSQL's server binaries (initdb, pg_ctl), which are not "
                f"installed: install the Debian package `{POSTGRES_PACKAGE}` (apt-get install {POSTGRES_PACKAGE}; "
                f".ci/run does this)", pytrace=False)


@dataclass
class Cluster:
    """A running throwaway PostgreSQL cluster listening only on a unix socket in its own folder."""

    folder: Path
    bindir: Path
    user: str = "club"

    def dsn(self, dbname: str = "postgres") -> str:
        """The connection string for ``dbname`` on this cluster."""
        return f"host={self.folder} port=5432 user={self.user} dbname={dbname}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """A server binary run as the cluster's owner (``nobody`` when the tests run as root: PostgreSQL
        refuses to run as root)."""
        command = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "nobody", "--", *command]
        return subprocess.run(command, cwd=self.folder, capture_output=True, text=True, check=check, timeout=120)

    @classmethod
    def start(cls) -> Cluster:
        """initdb a fresh cluster in a new temporary folder and start it with pg_ctl."""
        bindir = server_bindir()
        folder = Path(tempfile.mkdtemp(prefix="club-pg-"))
        if os.geteuid() == 0:
            shutil.chown(folder, "nobody")
        cluster = cls(folder, bindir)
        done = cluster.run("initdb", "-D", str(folder / "data"), "-U", cluster.user, "--auth=trust", "-E", "UTF8",
                           "--no-locale", "--no-sync", check=False)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        options = (f"-k {folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=200")
        done = cluster.run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "server.log"), "-w",
                           "-t", "60", "-o", options, "start", check=False)
        if done.returncode != 0:
            log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {done.stderr or done.stdout}\n{log}")
        return cluster

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


# -- real journals as uploads ----------------------------------------------------------------------


def play_journal(path: Path, *, seed: int, names: tuple[str, ...] = ("Ann", "Bo", "Cy"), matches: int = 4,
                 guests: int = 0) -> None:
    """A real kiosk journal at ``path``: named players and ``matches`` finished rated matches between them
    (random legal commands through a GameSession, as in the journal's tests), then ``guests`` guest matches."""
    from journal_support import new_table

    with Journal.open(path) as journal:
        players = Players(journal)
        ids = [players.create(n).id for n in names]
        for i in range(matches + guests):
            pair = (ids[i % len(ids)], ids[(i + 1) % len(ids)]) if i < matches else (None, None)
            table = new_table(journal, seed * 1000 + i, players=pair, now=(1000 + 1000 * i) * 10**9)
            while table.step():
                pass


def player_uuid(kiosk: str, local_id: int) -> uuid.UUID:
    """The uuid a kiosk's local player id gets (the journal's UUID migration is the kiosk's side, issue 22)."""
    return uuid.uuid5(NAMESPACE, f"{kiosk}/player/{local_id}")


def match_uuid(kiosk: str, local_id: int) -> uuid.UUID:
    """The uuid a kiosk's local match id gets."""
    return uuid.uuid5(NAMESPACE, f"{kiosk}/match/{local_id}")


def journal_upload(path: Path, kiosk: str, *, wall_offset: float = 0.0) -> dict[str, Any]:
    """Every player and finished match of the journal at ``path`` as one upload body (``wall_offset``
    moves the wall times, so two journals' matches interleave in the canonical order)."""
    conn = sqlite3.connect(path)
    try:
        players = [{"uuid": str(player_uuid(kiosk, pid)), "name": name}
                   for pid, name in conn.execute("SELECT id, name FROM players ORDER BY id")]
        out = []
        for mid, p0, p1, created, ended, config, winner, reason, level in conn.execute(
                "SELECT id, player0, player1, created_wall, ended_wall, config, winner, reason, computer_level"
                " FROM matches WHERE finished = 1 ORDER BY id").fetchall():
            rows = [{"seq": seq, "step": step, "snapshot": snap, "snapshot_sha": sha, "arrival_ns": arrival,
                     "boot_id": boot, "wall": wall, "checksum": check}
                    for seq, step, snap, sha, arrival, boot, wall, check in conn.execute(
                        "SELECT seq, step, snapshot, snapshot_sha, arrival_ns, boot_id, wall, checksum"
                        " FROM entries WHERE match_id = ? ORDER BY seq", (mid,))]
            balances = json.loads(rows[-1]["snapshot"])["balances"]
            out.append({
                "uuid": str(match_uuid(kiosk, mid)),
                "header": {"local_id": mid,
                           "players": [None if p is None else str(player_uuid(kiosk, p)) for p in (p0, p1)],
                           "computer_level": level, "created_wall": created + wall_offset,
                           "ended_wall": (ended if ended is not None else created) + wall_offset + mid,
                           "config": json.loads(config)},
                "claimed": {"winner": winner, "reason": reason, "balances": balances},
                "rows": rows,
            })
        return {"players": players, "matches": out}
    finally:
        conn.close()


def tampered(match: dict[str, Any], **claimed: Any) -> dict[str, Any]:
    """A copy of an uploaded match with its claimed result changed."""
    other = copy.deepcopy(match)
    other["claimed"].update(claimed)
    return other


def journal_ratings(path: Path, kiosk: str) -> dict[str, tuple[float, float, float, int]]:
    """The table's own ratings (rating, rd, volatility, games) by player uuid."""
    conn = sqlite3.connect(path)
    try:
        return {str(player_uuid(kiosk, pid)): (rating, rd, vol, games) for pid, rating, rd, vol, games in
                conn.execute("SELECT id, rating, rd, volatility, games FROM players")}
    finally:
        conn.close()
