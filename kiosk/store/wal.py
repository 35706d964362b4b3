"""SQLite's write-ahead log read by hand: damage that SQLite would drop silently, and its repair.

When SQLite opens a database whose ``-wal`` file holds frames, it replays them up to the first
frame whose checksum fails, and silently ignores everything after it: the checksums are
cumulative, so one flipped byte in frame 5 drops frames 5, 6, … even though they were committed
and acknowledged (the outside tester's "0 matches left, no warning"). A torn write at a power cut
looks the same but only ever hits the tail: the unfinished last transaction.

``inspect_wal`` tells the two apart before SQLite opens the file. It verifies the chain like SQLite
does (https://www.sqlite.org/fileformat2.html#walformat) and, after the first bad frame, verifies
the frames that follow as a chain of their own (seeded by the bad frame's stored checksum, or by
the checksum it should have had): later frames that verify and end in a commit frame were written
whole by SQLite, so their transactions were committed — damage, not a torn tail. ``repair_wal``
writes a copy of the log with the chain made whole again (the damaged frame's salts and every
checksum from it on rewritten), which SQLite then replays completely; the caller checks the result
(``PRAGMA quick_check`` and the rows' own checksums) before using it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)
"""Little-endian and big-endian checksums (the low bit of the magic number)."""
WAL_VERSION = 3007000
HEADER_SIZE = 32
FRAME_HEADER_SIZE = 24
_MASK = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class WalReport:
    """What a write-ahead log holds and what SQLite would keep of it."""

    frames: int
    """Complete frames of the log's current generation (salts of the header)."""
    kept_frames: int
    """Frames SQLite replays: up to the last commit frame before the first bad checksum."""
    kept_commits: int
    """Transactions SQLite replays."""
    damaged_frame: int | None
    """The first frame (0-based) whose checksum fails, when committed frames follow it."""
    lost_commits: int
    """Committed transactions SQLite would drop, the damaged frame's own included (0: nothing lost,
    or a damaged last transaction that may be a torn write)."""
    repair_frames: int
    """Frames a repaired log keeps (through the last commit frame that verifies after the damage)."""
    header_damaged: bool = False
    """The log's own header fails its checksum (SQLite would ignore the whole log)."""
    salts: tuple[int, int] = (0, 0)
    """The salts of the log's current generation (the header's, or the first frame's when the
    header is damaged)."""
    dropped: tuple[int, ...] = ()
    """Frames in the damaged stretch whose own header is destroyed (salts or page number): a repaired
    log leaves them out (their page is usually written again by a later frame)."""

    @property
    def damaged(self) -> bool:
        """True when SQLite would drop committed transactions."""
        return self.lost_commits > 0


@dataclass(frozen=True, slots=True)
class _Frame:
    offset: int
    page: int
    commit: int
    salts: tuple[int, int]
    stored: tuple[int, int]


def checksum(data: bytes, seed: tuple[int, int], big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) continuing from ``seed``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0, s1 = seed
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
    return s0, s1


def _frame_sum(raw: bytes, frame: _Frame, page_size: int, seed: tuple[int, int], big: bool) -> tuple[int, int]:
    header = raw[frame.offset:frame.offset + 8]
    page = raw[frame.offset + FRAME_HEADER_SIZE:frame.offset + FRAME_HEADER_SIZE + page_size]
    return checksum(page, checksum(header, seed, big), big)


def _frames(raw: bytes, page_size: int) -> list[_Frame]:
    out = []
    size = FRAME_HEADER_SIZE + page_size
    offset = HEADER_SIZE
    while offset + size <= len(raw):
        page, commit, salt1, salt2, c1, c2 = struct.unpack_from(">6I", raw, offset)
        out.append(_Frame(offset, page, commit, (salt1, salt2), (c1, c2)))
        offset += size
    return out


def _header(raw: bytes) -> tuple[bool, int, tuple[int, int], tuple[int, int], bool] | None:
    """(big endian, page size, salts, stored checksum, header verifies), or None: not a WAL."""
    if len(raw) < HEADER_SIZE:
        return None
    magic, version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack_from(">8I", raw, 0)
    if magic not in WAL_MAGIC or version != WAL_VERSION or page_size < 512 or page_size > 65536 or (
            page_size & (page_size - 1)):
        return None
    big = bool(magic & 1)
    ok = checksum(raw[:24], (0, 0), big) == (c1, c2)
    return big, page_size, (salt1, salt2), (c1, c2), ok


def inspect_wal(path: Path) -> WalReport | None:
    """The log at ``path`` checked frame by frame; None when there is none (or it is not a WAL)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    return inspect_bytes(raw)


def inspect_bytes(raw: bytes) -> WalReport | None:
    """``inspect_wal`` for a log already read."""
    head = _header(raw)
    if head is None:
        return None
    big, page_size, salts, seed, header_ok = head
    frames = _frames(raw, page_size)
    if not header_ok and frames:
        salts = frames[0].salts  # the header's own salts may be what was damaged
    # the current generation ends at the last frame carrying the header's salts; frames after it
    # are left over from before a checkpoint restarted the log (SQLite ignores them too)
    end = max((i + 1 for i, f in enumerate(frames) if f.salts == salts and f.page), default=0)
    frames = frames[:end]
    kept = commits = 0
    bad: int | None = None
    running = seed
    for i, frame in enumerate(frames):
        running = _frame_sum(raw, frame, page_size, running, big)
        if not header_ok or frame.salts != salts or running != frame.stored:
            bad = i
            break
        if frame.commit:
            kept, commits = i + 1, commits + 1
    if bad is None:
        return WalReport(len(frames), kept, commits, None, 0, kept, salts=salts)
    lost, repair_to, resumed_at = _after_damage(raw, frames, bad, page_size, big, running, salts)
    pages = max((f.commit for f in frames), default=0) or _MASK  # the file's size in pages after its commits
    wide = resumed_at > bad + 1
    dropped = tuple(i for i in range(bad, resumed_at)
                    if frames[i].page == 0 or frames[i].page > pages or (wide and frames[i].salts != salts))
    return WalReport(len(frames), kept, commits, bad if lost else None, lost, repair_to if lost else kept,
                     header_damaged=not header_ok, salts=salts, dropped=dropped if lost else ())


def _after_damage(raw: bytes, frames: list[_Frame], bad: int, page_size: int, big: bool,
                  computed: tuple[int, int], salts: tuple[int, int]) -> tuple[int, int, int]:
    """(transactions SQLite would drop from frame ``bad`` on, frames through the last of them, the first
    frame of the chain that verifies again), or ``(0, bad, bad)`` when the damage may be a torn write.

    The frames after the damage are checked as a chain of their own, seeded by the stored checksum
    of a frame whose header still carries the log's salts (the damaged frame itself first, or the
    checksum it should have had; then each later frame in turn, for damage that covers more than
    one frame, such as a 4 KiB sector of zeros across a frame boundary). With ``synchronous=FULL``
    SQLite writes a transaction only after the one before it was fsynced, so a later transaction
    whose commit frame verifies proves that the damaged frames were whole on disk once: damage,
    not a torn write. Without one, the damage may belong to the unfinished last transaction — a
    torn write, dropped as SQLite drops it, and not reported here.
    """
    seeds: list[tuple[int, tuple[int, int]]] = [(bad, frames[bad].stored), (bad, computed)]
    seeds += [(s, frames[s].stored) for s in range(bad + 1, len(frames) - 1) if frames[s].salts == salts]
    for start, seed in seeds:
        damaged = sum(1 for i in range(bad, start + 1) if frames[i].commit and frames[i].salts == salts)
        last = start + 1
        running = seed
        verified = 0
        for i in range(start + 1, len(frames)):
            frame = frames[i]
            running = _frame_sum(raw, frame, page_size, running, big)
            if frame.salts != salts or running != frame.stored:
                break
            if frame.commit:
                verified, last = verified + 1, i + 1
        # the damaged transaction's own commit and one after it; past a wider stretch (whose commit
        # marks may be destroyed), two whole transactions after it
        if (start == bad and damaged + verified >= 2 and verified) or (start > bad and verified >= 2):
            return damaged + verified, last, start + 1 if start > bad else bad + 1
    return 0, bad, bad


def repair_bytes(raw: bytes, report: WalReport) -> bytes:
    """The log with its chain made whole through ``report.repair_frames`` frames (see the module doc).

    The damaged frame keeps its page data (a later frame usually holds a newer copy of the same
    page); its salts are set to the header's and every checksum from it on is recomputed.
    """
    head = _header(raw)
    if head is None:
        raise ValueError("not a write-ahead log")
    big, page_size, _salts, _seed, _ok = head
    salts = report.salts
    out = bytearray(raw[:HEADER_SIZE])
    struct.pack_into(">2I", out, 16, *salts)
    struct.pack_into(">2I", out, 24, *checksum(bytes(out[:24]), (0, 0), big))
    running = struct.unpack_from(">2I", out, 24)
    for k, frame in enumerate(_frames(raw, page_size)[:report.repair_frames]):
        if k in report.dropped:
            continue
        body = bytearray(raw[frame.offset:frame.offset + FRAME_HEADER_SIZE + page_size])
        struct.pack_into(">2I", body, 8, *salts)
        running = checksum(bytes(body[FRAME_HEADER_SIZE:]), checksum(bytes(body[:8]), running, big), big)
        struct.pack_into(">2I", body, 16, *running)
        out += body
    return bytes(out)
