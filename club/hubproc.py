"""A real ``python -m club serve`` process on loopback, for the benchmark and the fault tests: started,
waited for (until it answers, not for a time), killed with SIGKILL or stopped with SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HubProcess:
    """``python -m club serve --database DSN --listen 127.0.0.1:PORT`` as a child process; its output
    goes to ``log`` (appended to across restarts)."""

    def __init__(self, dsn: str, log: Path, *, port: int | None = None, log_level: str = "info",
                 extra: Sequence[str] = ()) -> None:
        self.dsn = dsn
        self.extra = tuple(extra)
        """More arguments of ``serve`` (such as ``--reviews``)."""
        self.log = log
        self.port = port or free_port()
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The hub's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, timeout_s: float = 60.0) -> None:
        """Start the process and return once ``/api/v1/health`` answers 200."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "club", "serve", "--database", self.dsn, "--listen", f"127.0.0.1:{self.port}",
                 "--log-level", self.log_level, *self.extra],
                stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                if httpx.get(f"{self.url}/api/v1/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub exited with status {self.proc.returncode}: see {self.log}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hub did not answer within {timeout_s:.0f} s: see {self.log}")
            time.sleep(0.05)  # polling for the process to listen

    def kill(self) -> None:
        """SIGKILL: no shutdown, no finally, connections cut mid-request."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> int:
        """SIGTERM and wait; the exit status."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        return int(self.proc.returncode)

    def cpu_seconds(self) -> float:
        """User + system CPU time the running process has used so far (Linux ``/proc``)."""
        if self.proc is None:
            return 0.0
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
