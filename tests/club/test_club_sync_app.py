"""The sync worker inside the real kiosk process (``python -m kiosk`` with ``[club] url``), uploading its
journal to a real hub on 127.0.0.1 in the background while the frame loop runs."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from club_support import play_journal
from club_sync_support import journal_keys, live_hub


def _kiosk(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(STATE_DIRECTORY=str(tmp_path / "state"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.Popen([sys.executable, "-P", "-m", "kiosk", "--runtime-dir", str(tmp_path / "run"), *args],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_running_kiosk_uploads_its_journal_and_fetches_the_roster(dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    play_journal(journal, seed=11, matches=2)
    matches, _ = journal_keys(journal)
    (tmp_path / "run").mkdir()
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        config = tmp_path / "config.toml"
        config.write_text(f'[club]\nurl = "{hub.url}"\ntoken_file = "{token}"\n')
        child = _kiosk(tmp_path, "--config", str(config), "--journal", str(journal))
        try:
            deadline = time.monotonic() + 90
            while hub.count("matches") < len(matches):  # polling the hub for the upload, not waiting for time
                assert child.poll() is None, child.communicate()[1]
                assert time.monotonic() < deadline, "the kiosk uploaded nothing within 90 s"
                time.sleep(0.05)
        finally:
            child.send_signal(signal.SIGTERM)
            _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        assert f"club sync: {len(matches)} matches acknowledged ({len(matches)} verified, 0 rejected), 3 players" in err
        assert token.read_text().strip() not in err
    conn = sqlite3.connect(journal)
    try:
        assert conn.execute("SELECT count(*) FROM club_acks WHERE result = 'verified'").fetchone() == (len(matches),)
        assert int(conn.execute("SELECT value FROM club_state WHERE key = 'roster_version'").fetchone()[0]) > 0
        assert conn.execute("SELECT count(*) FROM club_roster").fetchone() == (3,)
    finally:
        conn.close()


def test_a_club_whose_token_file_is_missing_is_said_and_the_table_plays_on(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    config = tmp_path / "config.toml"
    config.write_text(f'[club]\nurl = "http://127.0.0.1:9"\ntoken_file = "{tmp_path / "none"}"\n')
    child = _kiosk(tmp_path, "--config", str(config), "--journal", str(tmp_path / "journal.sqlite3"))
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "journal.sqlite3").exists():  # the kiosk is up once its journal exists
            assert child.poll() is None, child.communicate()[1]
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert f"club sync: off: the token file {tmp_path / 'none'} does not exist" in err
