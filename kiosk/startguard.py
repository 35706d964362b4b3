"""No crash loop, whatever the cause: the start record and the decision to start in safe mode.

``python -m kiosk`` keeps a small record in its state directory (``start-record.json``): the
boot it belongs to, the times (``time.monotonic()``, the same clock for every process of one
boot) of the starts that have not ended cleanly, and the text of the last error. At each start
``StartGuard.begin()`` reads it, keeps the starts of this boot within the last ``WINDOW_S``
seconds, adds this start and writes it back (atomically: a temporary file beside it, fsync,
rename). On the way out the kiosk calls ``finished()`` after a clean exit (the record is
removed) or ``failed(error)`` when start-up or the loop raised (the error's text is kept); a
kiosk killed by a signal or by the watchdog writes nothing, and its start keeps counting. A start
older than the window no longer counts, so a kiosk that ran for a minute has, in effect, cleared
its record.

When ``SAFE_AFTER`` (3) earlier starts within the window did not end cleanly, this start is in
**safe mode** (``StartDecision.safe_mode``): the kiosk runs on the default configuration and keeps
no journal, and ``StartDecision.warning`` tells the owner why and what to do. Nothing here ever
raises: a record that cannot be read counts as empty, one that cannot be written is reported on
stderr and the kiosk starts normally.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.i18n import TN, T, Text

START_FILE = "start-record.json"
"""The record's name in the state directory."""
WINDOW_S = 60.0
"""Starts within this many seconds count."""
SAFE_AFTER = 3
"""Earlier starts within the window that did not end cleanly: the next start is in safe mode."""
MAX_ERROR_CHARS = 300
"""The last error's text is cut to this length (it goes on the banner)."""
MAX_RECORD_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class StartRecord:
    """What the state directory remembers about recent starts (see the module's docstring)."""

    boot: str = ""
    starts: tuple[float, ...] = ()
    last_error: str = ""

    def to_json(self) -> str:
        """The record as the file holds it."""
        return json.dumps({"boot": self.boot, "starts": list(self.starts), "last_error": self.last_error})

    @classmethod
    def from_json(cls, text: str) -> StartRecord:
        """The record in ``text``; an empty record when it is not one."""
        try:
            data = json.loads(text)
            boot, starts, error = data["boot"], data["starts"], data["last_error"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return cls()
        if (not isinstance(boot, str) or not isinstance(error, str) or not isinstance(starts, list)
                or not all(isinstance(t, int | float) and not isinstance(t, bool) for t in starts)):
            return cls()
        return cls(boot, tuple(float(t) for t in starts[-100:]), error[:MAX_ERROR_CHARS])


def error_text(error: BaseException) -> str:
    """An exception as one short line: its type and message."""
    message = " ".join(str(error).split())
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


@dataclass(frozen=True, slots=True)
class StartDecision:
    """How this start goes: ``failures`` earlier starts within the window did not end cleanly,
    ``last_error`` is what the latest of them died of ("" when nothing was recorded)."""

    record: StartRecord
    failures: int = 0
    last_error: str = ""

    @property
    def safe_mode(self) -> bool:
        """Whether this start runs in safe mode (default configuration, no journal)."""
        return self.failures >= SAFE_AFTER

    @property
    def warning(self) -> Text | None:
        """Why the kiosk is in safe mode and what to do (for the banner), or None when it is not."""
        if not self.safe_mode:
            return None
        error: str | Text = self.last_error or T("none recorded: it was stopped or killed, see the log")
        return TN("The kiosk failed to start {n} time within a minute (last error: {error}); it runs in safe "
                  "mode: default settings, nothing saved. Check the configuration and the log (journalctl -u "
                  "spectacular-bid), then restart the service.",
                  "The kiosk failed to start {n} times within a minute (last error: {error}); it runs in safe "
                  "mode: default settings, nothing saved. Check the configuration and the log (journalctl -u "
                  "spectacular-bid), then restart the service.",
                  self.failures, error=error)


def decide(previous: StartRecord, now: float, boot: str) -> StartDecision:
    """This start's decision from the record left by the earlier ones, at ``now`` (monotonic seconds)."""
    recent = () if previous.boot != boot else tuple(t for t in previous.starts if 0 <= now - t <= WINDOW_S)
    last_error = previous.last_error if recent else ""
    return StartDecision(StartRecord(boot, (*recent, now), ""), len(recent), last_error)


def read_record(path: Path) -> StartRecord:
    """The record at ``path``; empty when there is none or it cannot be read."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_RECORD_BYTES + 1)
    except OSError:
        return StartRecord()
    if len(data) > MAX_RECORD_BYTES:
        return StartRecord()
    return StartRecord.from_json(data.decode("utf-8", "replace"))


def write_record(path: Path, record: StartRecord) -> None:
    """Put ``record`` at ``path`` atomically (``OSError`` when it cannot)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(record.to_json())
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class StartGuard:
    """One run's start record: ``begin()`` at the start, ``finished()`` or ``failed(error)`` at the end."""

    def __init__(self, path: Path, *, boot: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self.boot = boot
        self.clock = clock
        self.record = StartRecord(boot)

    def begin(self) -> StartDecision:
        """Record this start and decide whether it is in safe mode."""
        decision = decide(read_record(self.path), self.clock(), self.boot)
        self.record = decision.record
        self._write(self.record)
        return decision

    def failed(self, error: BaseException) -> None:
        """This run ends with ``error``: keep it as the last error (this start keeps counting)."""
        self.record = StartRecord(self.record.boot, self.record.starts, error_text(error))
        self._write(self.record)

    def finished(self) -> None:
        """This run ended cleanly: forget the recent starts."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            self._report(exc)

    def _write(self, record: StartRecord) -> None:
        try:
            write_record(self.path, record)
        except OSError as exc:
            self._report(exc)

    def _report(self, exc: OSError) -> None:
        print(f"start guard: {self.path}: {exc.strerror or exc} (the crash-loop guard cannot keep its record)",
              file=sys.stderr)
