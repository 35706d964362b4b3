"""A kiosk whose connection drops in the middle of its upload's body (issue 22): the hub answers
nothing, stores nothing, logs one line without a traceback, and serves the next request."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest
from club_sync_support import live_hub


def test_a_body_cut_short_is_one_quiet_line_and_nothing_stored(dsn: str, tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path).read_text().strip()
        request = (f"POST /api/v1/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                   "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", hub.port), timeout=10) as sock:
            sock.sendall(request + b'{"players": [')  # 13 of the 5,000 bytes it declared, then gone
        with socket.create_connection(("127.0.0.1", hub.port), timeout=10) as sock:  # still serving
            sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert hub.count("matches") == 0 and hub.count("players") == 0
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "Exception in ASGI application" not in text
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records if r.exc_info]
    assert token not in text
