"""Helpers for the kiosk-side club sync tests: a real hub served by uvicorn on 127.0.0.1 in a thread,
a TCP proxy on 127.0.0.1 that cuts a connection after N bytes, and journals played with named players."""

from __future__ import annotations

import socket
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psycopg
import uvicorn

from club.app import create_app
from club.tokens import add_kiosk


class LiveHub:
    """The hub's app served over real HTTP on loopback (uvicorn in a thread), with its database."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        config = uvicorn.Config(create_app(dsn, pool_size=4), host="127.0.0.1", port=0, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.server.run, name="hub", daemon=True)
        self.port = 0

    def start(self) -> LiveHub:
        self._thread.start()
        while not self.server.started:  # waiting for the server to listen, not for time to pass
            if not self._thread.is_alive():
                raise RuntimeError("the hub's server did not start")
            self._thread.join(0.01)
        self.port = int(self.server.servers[0].sockets[0].getsockname()[1])
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kiosk(self, name: str, folder: Path) -> Path:
        """Register a kiosk; the file holding its token."""
        with psycopg.connect(self.dsn) as conn:
            token = add_kiosk(conn, name)[1]
        path = folder / f"{name}.token"
        path.write_text(token + "\n")
        path.chmod(0o600)
        return path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.dsn) as conn:
            return list(conn.execute(sql, args).fetchall())

    def count(self, table: str) -> int:
        return int(self.rows(f"SELECT count(*) FROM {table}")[0][0])


@contextmanager
def live_hub(dsn: str) -> Iterator[LiveHub]:
    hub = LiveHub(dsn).start()
    try:
        yield hub
    finally:
        hub.stop()


class CuttingProxy:
    """A TCP proxy on 127.0.0.1 to ``target_port``. ``arm(n)``: the next ``n`` bytes (counted over every
    connection, from the client, or from the hub with ``answer_side``) go through, then that connection
    is cut (both sides closed) and the proxy passes everything again. ``hold``: connections are taken
    and never answered (a hub that hangs) until ``release``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.connections = 0
        self.cuts = 0
        self.hold = False
        self._budget: int | None = None
        self._answer_side = False
        self._lock = threading.Lock()
        self._held: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def arm(self, budget: int, *, answer_side: bool = False) -> None:
        with self._lock:
            self._budget, self._answer_side = budget, answer_side

    @property
    def armed(self) -> bool:
        return self._budget is not None

    def release(self) -> None:
        """Stop holding: the held connections are closed (the client sees them cut)."""
        self.hold = False
        for held in self._held:
            with suppress(OSError):
                held.shutdown(socket.SHUT_RDWR)
            held.close()
        self._held.clear()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            if self.hold:
                self._held.append(client)
                continue
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _take(self, size: int, answer: bool) -> int | None:
        """How many of ``size`` bytes may pass (None: all of them); at 0 left the connection is cut."""
        with self._lock:
            if self._budget is None or answer != self._answer_side:
                return None
            allowed = min(size, self._budget)
            self._budget -= allowed
            if self._budget > 0:
                return None
            self._budget = None
            self.cuts += 1
            return allowed

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
        except OSError:
            client.close()
            return
        done = threading.Event()

        def pump(src: socket.socket, dst: socket.socket, answer: bool) -> None:
            try:
                while not done.is_set():
                    data = src.recv(4096)
                    if not data:
                        break
                    allowed = self._take(len(data), answer)
                    if allowed is not None:
                        dst.sendall(data[:allowed])
                        break
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                done.set()
                for s in (client, upstream):
                    with suppress(OSError):
                        s.shutdown(socket.SHUT_RDWR)

        threads = [threading.Thread(target=pump, args=(client, upstream, False), daemon=True),
                   threading.Thread(target=pump, args=(upstream, client, True), daemon=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        client.close()
        upstream.close()

    def close(self) -> None:
        self.release()
        self._listener.close()


def journal_keys(path: Path) -> tuple[dict[str, int], dict[str, str]]:
    """The journal's finished matches (uuid → local id) and players (uuid → name)."""
    conn = sqlite3.connect(path)
    try:
        matches = {str(u): int(i) for i, u in conn.execute("SELECT id, uuid FROM matches WHERE finished = 1 AND "
                                                           "EXISTS (SELECT 1 FROM entries WHERE match_id = id)")}
        players = {str(u): str(n) for u, n in conn.execute("SELECT uuid, name FROM players")}
        return matches, players
    finally:
        conn.close()
