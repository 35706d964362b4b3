"""``python -m kiosk``: the table kiosk (fullscreen); ``--simulator`` runs it in a window."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from kiosk.config import load_config
from kiosk.i18n import T
from kiosk.sdnotify import Notifier
from kiosk.store.errors import KioskStoreError
from kiosk.store.journal import Journal, journal_path


def _size(value: str) -> tuple[int, int]:
    w, _, h = value.lower().partition("x")
    return int(w), int(h)


def boot_id() -> str:
    """This boot's id (Linux), or "" where the system has none."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the kiosk."""
    parser = argparse.ArgumentParser(prog="python -m kiosk", description=__doc__)
    parser.add_argument("--simulator", action="store_true", help="run in a window with keyboard and mouse")
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window or screen size, e.g. 800x480")
    parser.add_argument("--orientation", choices=("table", "upright"), help="override the configuration")
    parser.add_argument("--journal", metavar="FILE", help="the match journal (default: the state directory)")
    parser.add_argument("--no-journal", action="store_true", help="keep nothing on disk")
    args = parser.parse_args(argv)
    loaded = load_config(args.config)
    config = loaded.config
    if args.orientation:
        from dataclasses import replace

        config = replace(config, display=replace(config.display, orientation=args.orientation))
    for warning in loaded.warnings:
        print(f"configuration: {warning}", file=sys.stderr)
    if args.simulator:
        os.environ.setdefault("SDL_VIDEO_WINDOW_POS", "centered")
    notifier = Notifier.from_environment(unset=True)
    warnings: tuple[object, ...] = loaded.warnings
    journal = None
    if not args.no_journal:
        path = Path(args.journal) if args.journal else journal_path(args.simulator)
        try:
            journal = Journal.open(path)
            warnings = (*warnings, *journal.warnings)
        except KioskStoreError as exc:
            warnings = (*warnings, T("matches are not being saved: {reason}", reason=exc.text))
            print(f"journal: {exc}", file=sys.stderr)
    from kiosk.app import App  # imports pygame: after the configuration is read

    app = App(config, warnings=warnings, simulator=args.simulator, size=args.size,
              notifier=notifier, boot_id=boot_id(), journal=journal)
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))  # systemd's stop: leave cleanly
    try:
        return app.run()
    finally:
        if journal is not None:
            journal.close()


if __name__ == "__main__":
    sys.exit(main())
