"""``python -m club backup``: a real pg_dump of the hub's database that restores whole, written under
a temporary name, the newest kept; a database that does not answer is one line and exit 2."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

import psycopg

from club.backup import backup, dumps, pg_dump
from club.cli import main
from club.database import SCHEMA_VERSION


def _counts(dsn: str) -> tuple[int, ...]:
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM matches),"
                           " (SELECT count(*) FROM match_rows), (SELECT max(version) FROM schema_version)").fetchone()
    assert row is not None
    return tuple(row)


def test_a_backup_restores_into_a_new_database_whole(hub, journals, cluster, tmp_path: Path, capsys) -> None:
    assert hub.upload(hub.kiosk("table-1"), copy.deepcopy(journals["table-1"])).status_code == 200
    assert main(["backup", "--database", hub.dsn, "--dir", str(tmp_path / "dumps")]) == 0
    (dump,) = dumps(tmp_path / "dumps")
    assert f"dumped to {dump}" in capsys.readouterr().out
    assert dump.stat().st_mode & 0o077 == 0 and not list((tmp_path / "dumps").glob(".*part"))
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE club_restored")
    restore = Path(pg_dump()).with_name("pg_restore")
    done = subprocess.run([str(restore), "--no-owner", f"--dbname={cluster.dsn('club_restored')}", str(dump)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _counts(cluster.dsn("club_restored")) == _counts(hub.dsn) == (3, 5, _counts(hub.dsn)[2], SCHEMA_VERSION)


def test_only_the_newest_dumps_are_kept(dsn: str, tmp_path: Path) -> None:
    made = [backup(dsn, tmp_path, keep=2, now=1_764_633_600.0 + day * 86_400) for day in range(3)]
    assert [p.name for p in made] == ["club-20251202T000000Z.dump", "club-20251203T000000Z.dump",
                                      "club-20251204T000000Z.dump"]
    assert dumps(tmp_path) == made[1:]


def test_a_database_that_does_not_answer_is_one_line_exit_2_and_leaves_no_part(tmp_path: Path, capsys) -> None:
    assert main(["backup", "--database", f"host={tmp_path} port=5432 user=club dbname=none",
                 "--dir", str(tmp_path / "dumps")]) == 2
    err = capsys.readouterr().err
    assert "pg_dump failed" in err and len(err.strip().splitlines()) == 1
    assert list((tmp_path / "dumps").iterdir()) == []
