"""The fault log: every accepted row also in a small file that outlives the process (issue 26).

The journal is on the card; the card can be full, read-only, damaged or slow for seconds. The
keeper appends each row it is handed to this log first — a file in the runtime folder, a tmpfs
(systemd's ``RuntimeDirectory=``, kept across restarts by ``RuntimeDirectoryPreserve=``; in the
simulator ``$XDG_RUNTIME_DIR`` or ``/dev/shm``) and, when one is given, a second folder — so a row
is safe from a crash of the process (not from a power cut) before the journal holds it. At the
next start the rows the journal lacks are folded back into it; a card that still cannot be written
resumes the match from the log alone.

The file is JSON lines: a ``boot`` line (the boot it was written in, so a restart knows whether
everything the previous process accepted is in front of it), then per match a ``match`` line (its
configuration, players' names, when it was made), ``id`` lines (the journal's id for it once
known), and ``row`` lines (index, step, snapshot, arrival, boot, wall). A torn last line (a kill
mid-write) is dropped. Matches finished and on the card are dropped when the file is rewritten
(``forget``). Nothing here raises: a place that cannot be written is ``problem`` and skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Match, MatchConfig, Outcome
from kiosk.store.event_schema import logged_event
from kiosk.store.journal import Journal
from kiosk.store.recorder import MatchRecorder
from kiosk.store.records import Entry

LOG_NAME = "journal-rows.jsonl"
APP_FOLDER = "spectacular-bid"


def log_name(journal: Path) -> str:
    """The fault log's file name for the journal at ``journal`` (two kiosks on one runtime folder,
    each with its own journal, never fold each other's rows)."""
    digest = hashlib.sha256(str(Path(journal).resolve()).encode()).hexdigest()[:12]
    return f"journal-rows-{digest}.jsonl"


def runtime_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """Where the fault log goes: systemd's ``RUNTIME_DIRECTORY``, else ``$XDG_RUNTIME_DIR/spectacular-bid``,
    else ``/dev/shm/spectacular-bid-<uid>`` (a tmpfs on Linux), else None."""
    env = os.environ if environ is None else environ
    systemd = env.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = env.get("XDG_RUNTIME_DIR", "")
    if xdg and Path(xdg).is_dir():
        return Path(xdg) / APP_FOLDER
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return shm / f"{APP_FOLDER}-{os.getuid() if hasattr(os, 'getuid') else 0}"
    return None


@dataclass
class LoggedMatch:
    """One match as the log held it at start-up."""

    key: str
    header: dict[str, Any]
    match_id: int | None = None
    first_seq: int = 1
    rows: list[Entry] = field(default_factory=list)

    @property
    def outcome(self) -> Outcome | None:
        """How the match ended, from its last row's snapshot (None: still going, or unreadable)."""
        if not self.rows:
            return None
        try:
            return Match.from_dict(json.loads(self.rows[-1].snapshot)).outcome
        except (ValueError, KeyError, TypeError):
            return None

    def recorder(self, boot_id: str, wall_clock: Callable[[], float]) -> MatchRecorder:
        """A recorder holding the logged rows, attached to no journal yet."""
        h = self.header
        config = h.get("config")
        recorder = MatchRecorder(None, self.match_id, boot_id, next_seq=self.first_seq + len(self.rows),
                                 wall_clock=wall_clock, config=config if isinstance(config, dict) else None,
                                 players=tuple(h.get("players") or (None, None)),
                                 names=tuple(h.get("names") or (None, None)),
                                 created_wall=float(h.get("created_wall", 0.0)), rows=self.rows,
                                 computer_level=h.get("level"), event=logged_event(h.get("event")))
        recorder.saved = 0
        recorder.outcome = self.outcome
        return recorder


@dataclass
class _Logged:
    key: str
    rows: int = 0
    match_id: int | None = None
    first_seq: int = 1


class RunLog:
    """The fault log's files and what the previous process left in them (see the module doc)."""

    def __init__(self, folders: Sequence[Path], boot_id: str, name: str = LOG_NAME) -> None:
        self.folders = [Path(f) for f in folders]
        self.name = name
        self.boot_id = boot_id
        self.found: list[LoggedMatch] = []
        """The matches the previous process logged (read by ``open``)."""
        self.known = False
        """True when the log of a previous process of this boot was found: everything it accepted is known."""
        self.problem: str | None = None
        """Why a place could not be written (None: every place takes the rows)."""
        self._fds: list[int] = []
        self._logged: dict[MatchRecorder, _Logged] = {}
        self._serial = 0

    @classmethod
    def open(cls, folders: Iterable[Path | None], boot_id: str, name: str = LOG_NAME) -> RunLog | None:
        """Read what the previous process left, then start the files afresh with it; None when no
        folder can be written at all (the keeper then writes on the frame's thread, as before).
        ``name``: the file's name in each folder (``log_name(journal)``)."""
        log = cls([f for f in folders if f is not None], boot_id, name)
        log._read()
        log._rewrite(())
        return log if log._fds else None

    @property
    def paths(self) -> list[Path]:
        """The log files (one per folder)."""
        return [folder / self.name for folder in self.folders]

    # -- writing ---------------------------------------------------------------------------

    def adopt(self, recorder: MatchRecorder, match: LoggedMatch) -> None:
        """``recorder`` (made from ``match``) is the logged match: its rows are in the files already."""
        self._logged[recorder] = _Logged(match.key, len(match.rows), match.match_id, match.first_seq)

    def record(self, recorders: Iterable[MatchRecorder]) -> None:
        """Append every row of ``recorders`` not logged yet (and a match's id once the journal gave one)."""
        lines: list[dict[str, Any]] = []
        for recorder in recorders:
            known = self._logged.get(recorder)
            if known is None:
                self._serial += 1
                known = self._logged[recorder] = _Logged(f"{os.getpid()}-{time.monotonic_ns()}-{self._serial}")
                lines.append(self._match_line(known.key, recorder))
            if recorder.match_id != known.match_id or recorder.first_seq != known.first_seq:
                known.match_id, known.first_seq = recorder.match_id, recorder.first_seq
                lines.append({"k": "id", "key": known.key, "match_id": known.match_id, "first_seq": known.first_seq})
            rows = recorder.rows
            while known.rows < len(rows):
                lines.append(_row_line(known.key, known.rows, rows[known.rows]))
                known.rows += 1
        if lines:
            self._append(lines)

    def forget(self, keep: Sequence[MatchRecorder]) -> None:
        """Rewrite the files with ``keep`` only, when a logged match was dropped (finished and on the card)."""
        if all(r in keep for r in self._logged):
            return
        self._rewrite(keep)

    def close(self) -> None:
        """Close the files (they stay for the next start)."""
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = []

    def _match_line(self, key: str, recorder: MatchRecorder) -> dict[str, Any]:
        return {"k": "match", "key": key, "config": recorder.config, "players": list(recorder.players),
                "names": list(recorder.names), "created_wall": recorder.created_wall,
                "level": recorder.computer_level,
                "event": None if recorder.event is None else [recorder.event.pairing, list(recorder.event.berserk)]}

    def _append(self, lines: list[dict[str, Any]]) -> None:
        data = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode()
        for fd in list(self._fds):
            try:
                os.write(fd, data)
            except OSError as exc:
                self.problem = f"{exc.strerror or exc}"

    def _rewrite(self, keep: Iterable[MatchRecorder]) -> None:
        """Write the files anew: the boot line, then ``keep``'s matches whole (and the found ones
        not yet adopted, so nothing read at start is dropped before it is folded in)."""
        self.close()
        kept = list(keep)
        lines: list[dict[str, Any]] = [{"k": "boot", "boot": self.boot_id, "pid": os.getpid()}]
        logged: dict[MatchRecorder, _Logged] = {}
        adopted = {known.key for known in self._logged.values()}
        for match in self.found:
            if match.key in adopted:
                continue
            lines.append({"k": "match", "key": match.key, **match.header})
            lines.append({"k": "id", "key": match.key, "match_id": match.match_id, "first_seq": match.first_seq})
            lines.extend(_row_line(match.key, i, row) for i, row in enumerate(match.rows))
        for recorder in kept:
            old = self._logged.get(recorder)
            key = old.key if old is not None else f"{os.getpid()}-{time.monotonic_ns()}-{id(recorder)}"
            known = logged[recorder] = _Logged(key, len(recorder.rows), recorder.match_id, recorder.first_seq)
            lines.append(self._match_line(key, recorder))
            lines.append({"k": "id", "key": key, "match_id": known.match_id, "first_seq": known.first_seq})
            lines.extend(_row_line(key, i, row) for i, row in enumerate(recorder.rows))
        data = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode()
        self.problem = None
        for folder in self.folders:
            path = folder / self.name
            try:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                fresh = path.with_name(self.name + ".new")
                with open(fresh, "wb") as out:
                    out.write(data)
                os.replace(fresh, path)
                self._fds.append(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC))
            except OSError as exc:
                self.problem = f"{folder}: {exc.strerror or exc}"
        self._logged = logged

    # -- reading -----------------------------------------------------------------------------

    def _read(self) -> None:
        """The first folder's log that can be read (the others are copies of it)."""
        for path in self.paths:
            try:
                text = path.read_bytes().decode("utf-8", "replace")
            except OSError:
                continue
            self.found, boot = parse(text)
            self.known = boot == self.boot_id
            return

    def unfinished(self) -> LoggedMatch | None:
        """The newest logged match not over (the one on the table when the previous process ended)."""
        for match in reversed(self.found):
            if match.rows and match.outcome is None:
                return match
        return None


def parse(text: str) -> tuple[list[LoggedMatch], str | None]:
    """The matches in a log's text and the boot it was written in (a damaged or torn line ends the
    reading of that match's rows, never the whole log)."""
    matches: dict[str, LoggedMatch] = {}
    broken: set[str] = set()
    boot: str | None = None
    for raw in text.splitlines():
        try:
            line = json.loads(raw)
            kind = line["k"]
            if kind == "boot":
                boot = str(line["boot"])
                continue
            key = str(line["key"])
            if kind == "match":
                header = {k: line.get(k) for k in ("config", "players", "names", "created_wall", "level", "event")}
                matches[key] = LoggedMatch(key, header)
            elif kind == "id" and key in matches:
                matches[key].match_id = None if line["match_id"] is None else int(line["match_id"])
                matches[key].first_seq = int(line["first_seq"])
            elif kind == "row" and key in matches and key not in broken:
                match = matches[key]
                if int(line["i"]) != len(match.rows):
                    broken.add(key)
                    continue
                match.rows.append(Entry(dict(line["step"]), str(line["snapshot"]), int(line["arrival"]),
                                        str(line["boot"]), float(line["wall"])))
        except (ValueError, KeyError, TypeError):
            continue
    return list(matches.values()), boot


def _row_line(key: str, index: int, row: Entry) -> dict[str, Any]:
    return {"k": "row", "key": key, "i": index, "step": row.step, "snapshot": row.snapshot,
            "arrival": row.arrival_ns, "boot": row.boot_id, "wall": row.wall_s}


def find_entered(journal: Journal, recorder: MatchRecorder) -> None:
    """Give a logged recorder without a match id the id of the journal's unfinished match that holds
    its rows as it wrote them (entered by the previous process after its last ``id`` line), if any."""
    if recorder.match_id is not None or recorder.config is None:
        return
    with journal.database.read() as conn:
        candidates = [int(r[0]) for r in conn.execute(
            "SELECT id FROM matches WHERE created_wall = ? ORDER BY id DESC LIMIT 8", (recorder.created_wall,))]
    for match_id in candidates:
        recorder.match_id = match_id
        held = recorder._held(journal)  # the recorder's own check of a stored prefix
        if held is not None and held[0] > 0:
            return
    recorder.match_id = None


def config_of(match: LoggedMatch) -> MatchConfig | None:
    """The logged match's configuration (None: missing or unreadable)."""
    config = match.header.get("config")
    try:
        return MatchConfig.from_dict(config) if isinstance(config, dict) else None
    except (ValueError, KeyError, TypeError):
        return None
