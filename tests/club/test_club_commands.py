"""The commands: ``python -m club migrate``, ``kiosks add`` (the token as the last line) and ``serve``
answering on loopback (a real uvicorn process, a real upload, SIGTERM ends it)."""

from __future__ import annotations

import copy
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg

from club.cli import main
from club.tokens import digest

ROOT = Path(__file__).resolve().parents[2]


def club(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "club", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_migrate_and_kiosks_add_print_the_token_last_and_store_only_its_hash(dsn: str, capsys) -> None:
    assert main(["migrate", "--database", dsn]) == 0
    assert capsys.readouterr().out.startswith("schema version")
    done = club("kiosks", "add", "table 1", "--database", dsn)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip().splitlines()[-1]
    assert token.startswith("sbk_") and len(token) > 60
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT name, token_sha256 FROM kiosks").fetchall()
    assert rows == [("table 1", digest(token))]
    assert main(["kiosks", "add", "table 1", "--database", dsn]) == 2
    assert "already a kiosk called" in capsys.readouterr().err


def test_a_database_that_does_not_answer_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["migrate", "--database", f"host={tmp_path} port=5432 user=club dbname=none"]) == 2
    err = capsys.readouterr().err
    assert "cannot connect to the database" in err and len(err.strip().splitlines()) == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_starts_and_answers_on_loopback(dsn: str, journals) -> None:
    token = club("kiosks", "add", "table-1", "--database", dsn).stdout.strip().splitlines()[-1]
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "club", "serve", "--database", dsn, "--listen", f"127.0.0.1:{port}"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:  # waiting for the process to listen, not for time to pass
            try:
                health = httpx.get(f"{base}/api/v1/health", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "the hub did not answer within 30 s"
                time.sleep(0.1)
        assert health.status_code == 200 and health.json()["ok"] is True
        body = copy.deepcopy(journals["table-1"])
        answer = httpx.post(f"{base}/api/v1/uploads", content=json.dumps(body),
                            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                            timeout=30)
        assert answer.status_code == 200, answer.text
        assert httpx.post(f"{base}/api/v1/uploads", json=body, headers={"Authorization": f"Bearer {token}x"},
                          timeout=30).status_code == 401
        assert len(httpx.get(f"{base}/api/v1/matches", timeout=10).json()) == 5
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert "Application shutdown complete" in out
    assert "POST /api/v1/uploads" in out and "table-1" in out  # the access log and the hub's own lines
    assert token.rsplit("_", 1)[1] not in out


def test_serve_refuses_a_bad_listen_address(dsn: str, capsys) -> None:
    assert main(["serve", "--database", dsn, "--listen", "nowhere"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err
