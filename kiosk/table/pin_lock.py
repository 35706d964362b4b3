"""The keypad's lock after wrong PINs: it doubles after each failed round and survives a restart.

``MAX_WRONG`` wrong PINs in a row are a failed round; the ``n``-th failed round since the last
right PIN locks the keypad for ``lock_seconds(n)``: 60 s, 2 min, 4 min … up to a day. The count
of failed rounds, the wrong PINs of the current round and the end of the lock are kept in a small
file in the state directory (``LOCK_FILE``, written atomically), so a restart — or a power cut —
neither forgets nor shortens them: within the same boot the lock ends when it would have (the
monotonic clock is the same for every process of a boot); after a reboot the current lock starts
again from its full length. A right PIN clears the file. A file that cannot be read counts as no
lock; one that cannot be written is reported on stderr and the lock holds in memory.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engine import NS_PER_S

MAX_WRONG = 5
"""Wrong PINs in a row before the keypad locks (a failed round)."""
LOCK_SECONDS = 60
"""How long the first failed round locks the keypad; each further round doubles it."""
MAX_LOCK_SECONDS = 24 * 3600
"""The longest lock."""
LOCK_FILE = "pin-lock.json"
"""The lock's record in the state directory."""
MAX_RECORD_BYTES = 4096


def lock_seconds(rounds: int) -> int:
    """How long the ``rounds``-th failed round in a row locks the keypad (0 for none)."""
    if rounds <= 0:
        return 0
    return MAX_LOCK_SECONDS if rounds > 20 else min(MAX_LOCK_SECONDS, LOCK_SECONDS << (rounds - 1))


@dataclass(frozen=True, slots=True)
class PinLock:
    """Failed rounds since the last right PIN, wrong PINs of the current round, and when the
    keypad takes PINs again (None: now)."""

    rounds: int = 0
    wrong: int = 0
    until_ns: int | None = None

    def after_wrong(self, now: int) -> PinLock:
        """The lock after one more wrong PIN at ``now``."""
        if self.wrong + 1 < MAX_WRONG:
            return PinLock(self.rounds, self.wrong + 1, self.until_ns)
        rounds = self.rounds + 1
        return PinLock(rounds, 0, now + lock_seconds(rounds) * NS_PER_S)


class PinLockFile:
    """Where the lock is kept between starts (``path`` None: nowhere, e.g. safe mode or tests)."""

    def __init__(self, path: Path | None, boot: str) -> None:
        self.path = path
        self.boot = boot

    def load(self, now: int) -> PinLock:
        """The lock as the last start left it, its end on this start's clock (see the module)."""
        if self.path is None:
            return PinLock()
        try:
            with open(self.path, "rb") as stream:
                data = json.loads(stream.read(MAX_RECORD_BYTES))
            rounds, wrong, until, boot = int(data["rounds"]), int(data["wrong"]), data["until_ns"], str(data["boot"])
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            return PinLock()
        rounds, wrong = max(0, min(rounds, 1000)), max(0, min(wrong, MAX_WRONG - 1))
        full = lock_seconds(rounds) * NS_PER_S
        if not isinstance(until, int) or isinstance(until, bool) or rounds == 0:
            return PinLock(rounds, wrong, None)
        if boot != self.boot or until - now > full:  # another boot's clock (or a clock gone back)
            until = now + full
        return PinLock(rounds, wrong, until if until > now else None)

    def save(self, lock: PinLock) -> None:
        """Keep ``lock`` for the next start (a cleared lock removes the file)."""
        if self.path is None:
            return
        try:
            if lock == PinLock():
                self.path.unlink(missing_ok=True)
                return
            record = {"boot": self.boot, "rounds": lock.rounds, "wrong": lock.wrong, "until_ns": lock.until_ns}
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(dir=self.path.parent, prefix=".pin-lock.")
            try:
                with os.fdopen(fd, "w") as stream:
                    stream.write(json.dumps(record))
                    stream.flush()
                    os.fsync(stream.fileno())
                os.replace(name, self.path)
            except BaseException:
                Path(name).unlink(missing_ok=True)
                raise
        except OSError as exc:
            print(f"owner PIN: the keypad's lock cannot be kept for the next start ({exc})", file=sys.stderr)
