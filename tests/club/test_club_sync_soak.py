"""A real soak journal (``python -m kiosk.devtools.soak --journal FILE --named N``) synced to a real hub."""

from __future__ import annotations

import sqlite3
import urllib.request
from pathlib import Path

import pytest
from club_sync_support import journal_keys, live_hub

from kiosk.club.cli import main
from kiosk.devtools.soak import main as soak_main


@pytest.mark.slow
def test_a_named_soak_journal_is_rated_matches_that_the_hub_verifies(dsn: str, tmp_path: Path, capsys) -> None:
    journal = tmp_path / "soak.sqlite3"
    assert soak_main(["--minutes", "1.2", "--seed", "5", "--journal", str(journal), "--named", "3"]) == 0
    conn = sqlite3.connect(journal)
    rows = conn.execute("SELECT player0, player1, rated FROM matches WHERE finished = 1").fetchall()
    names = [n for (n,) in conn.execute("SELECT name FROM players ORDER BY id")]
    conn.close()
    assert names == ["Ann", "Bo", "Cy"]
    assert rows and all(p0 is not None and p1 is not None and p0 != p1 and rated == 1 for p0, p1, rated in rows)
    matches, _ = journal_keys(journal)
    capsys.readouterr()
    with live_hub(dsn) as hub:
        token = hub.kiosk("soak-table", tmp_path)
        assert main(["sync", "--journal", str(journal), "--hub", hub.url, "--token-file", str(token)]) == 0
        assert f"{len(matches)} matches acknowledged ({len(matches)} verified, 0 rejected), 3 players" in \
            capsys.readouterr().out
        rated = hub.rows("SELECT count(*) FROM matches WHERE status = 'verified' AND rated")[0][0]
        assert rated == len(rows)
        assert {r[0] for r in hub.rows("SELECT games FROM players")} != {0}


@pytest.mark.slow
def test_a_soak_with_hub_shows_its_table_live_at_the_hub(dsn: str, tmp_path: Path, capsys) -> None:
    """``soak --hub URL --token-file F``: the app's live feed sends the hub its table as a kiosk does."""
    with live_hub(dsn) as hub:
        token = hub.kiosk("soak-table", tmp_path)
        assert soak_main(["--minutes", "0.4", "--seed", "7", "--hub", hub.url, "--token-file", str(token)]) == 0
        out = capsys.readouterr().out
        line = next(x for x in out.splitlines() if x.startswith("live table:"))
        offered, sent = int(line.split()[2]), int(line.split()[5])
        assert offered >= 20 and sent >= 1, line
        with urllib.request.urlopen(f"{hub.url}/api/v1/live", timeout=10) as answer:
            text = answer.read().decode()
        assert "soak-table" in text
