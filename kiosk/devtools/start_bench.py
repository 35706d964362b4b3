"""``python -m kiosk.devtools.start_bench``: seconds from ``python -m kiosk`` to its first frame
(its READY=1 on a notify socket), with a configuration of N unknown keys (N warnings)."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def first_frame_seconds(warnings: int, timeout_s: float = 300.0) -> float:
    """Start the kiosk (dummy video, no journal) on a file of ``warnings`` unknown keys; seconds to READY=1."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        config = where / "config.toml"
        config.write_text("[display]\n" + "".join(f"unknown{i} = {i}\n" for i in range(warnings)))
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(str(where / "notify.sock"))
        listener.settimeout(timeout_s)
        env = dict(os.environ, STATE_DIRECTORY=str(where / "state"), SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy", NOTIFY_SOCKET=str(where / "notify.sock"))
        start = time.monotonic()
        child = subprocess.Popen([sys.executable, "-m", "kiosk", "--config", str(config), "--no-journal"], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in listener.recv(4096).split(b"\n"):
                pass
            return time.monotonic() - start
        finally:
            child.terminate()
            child.wait(timeout=60)
            listener.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Print the seconds to the first frame for each count of warnings."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.start_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--warnings", type=int, nargs="+", default=[0, 3000, 10_000])
    args = parser.parse_args(argv)
    for count in args.warnings:
        print(f"{count} configuration warnings: first frame after {first_frame_seconds(count):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
