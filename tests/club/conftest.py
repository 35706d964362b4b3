"""Fixtures of the club hub's tests: one real PostgreSQL cluster for the session (initdb + pg_ctl on a
unix socket in a temporary folder), a fresh migrated database per test, the hub's app and kiosks."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from club_support import Hub, journal_ratings, journal_upload, play_journal, start_cluster, stop_cluster
from fastapi.testclient import TestClient

from club.app import create_app
from club.database import migrate
from club.localdb import LocalCluster

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def cluster() -> Iterator[LocalCluster]:
    """The session's PostgreSQL cluster, with a migrated template database."""
    running = start_cluster()
    try:
        with psycopg.connect(running.dsn(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE club_template")
        migrate(running.dsn("club_template"))
        yield running
    finally:
        stop_cluster(running)


@pytest.fixture
def dsn(cluster: LocalCluster) -> Iterator[str]:
    """A fresh database, migrated (a copy of the template), dropped after the test.

    Dropped at once, not with the cluster at the session's end: the removal of hundreds of
    databases' files (1.6 GB) written back to disk long before took 53 s there (153 s with the
    tests marked slow), dropping each right after its test about 60 ms."""
    name = f"club_test_{next(_numbers)}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE club_template")
    yield cluster.dsn(name)
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")  # FORCE: a connection the test left open is closed


@pytest.fixture
def hub(dsn: str) -> Iterator[Hub]:
    with TestClient(create_app(dsn, pool_size=4)) as client:
        yield Hub(client, dsn)


@pytest.fixture(scope="session")
def journals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Uploads made from real kiosk journals: table-1 (4 rated matches and a guest match between Ann,
    Bo and Cy) and table-2 (3 rated matches between Di and Ed), their wall times interleaved."""
    folder: Path = tmp_path_factory.mktemp("journals")
    play_journal(folder / "t1.sqlite3", seed=1, matches=4, guests=1)
    play_journal(folder / "t2.sqlite3", seed=2, names=("Di", "Ed"), matches=3)
    return {"table-1": journal_upload(folder / "t1.sqlite3", "table-1"),
            "table-2": journal_upload(folder / "t2.sqlite3", "table-2", wall_offset=0.5),
            "ratings": {**journal_ratings(folder / "t1.sqlite3", "table-1"),
                        **journal_ratings(folder / "t2.sqlite3", "table-2")}}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, headless, for a test module (fails, never skips, when
    either is missing)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        pytest.fail("the browser tests need the Python package playwright (the test extra installs it)", pytrace=False)
    if not Path(CHROMIUM).exists():
        pytest.fail("the browser tests need Debian's chromium package (.ci/run installs it)", pytrace=False)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
