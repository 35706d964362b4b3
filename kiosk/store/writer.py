"""``StoreWriter``: the journal's commits on a thread of their own, so the frame loop never waits
for the card (issue 26: an SD card stalls for seconds in normal life).

One job at a time: the keeper hands it "write what is pending" when the last one is done, and
reads ``busy_since_ns`` to tell a slow card (a job running for long) from a stopped frame loop.
A job's exception is kept (``failure``) for the keeper's log, never raised on the frame's thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class StoreWriter:
    """A daemon thread running one storage job at a time."""

    def __init__(self, name: str = "journal-writer") -> None:
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._job: Callable[[], None] | None = None
        self._since: int | None = None
        self._stopping = False
        self.failure: BaseException | None = None
        """The last exception a job raised (a bug: the keeper's jobs catch store errors themselves)."""
        self.jobs = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def busy(self) -> bool:
        """True while a job is queued or running."""
        return self._job is not None

    @property
    def busy_since_ns(self) -> int | None:
        """When the job queued or running was handed over (on the keeper's clock), or None when idle."""
        return self._since

    def submit(self, job: Callable[[], None], now_ns: int) -> bool:
        """Hand ``job`` over unless one is queued or running; True when it was taken."""
        with self._lock:
            if self._job is not None or self._stopping:
                return False
            self._job, self._since = job, now_ns
            self._wake.notify()
            return True

    def wait_idle(self, timeout_s: float | None = None) -> bool:
        """Block until no job is queued or running (start-up, exit, tests); False on timeout."""
        with self._lock:
            return self._wake.wait_for(lambda: self._job is None, timeout_s)

    def stop(self, timeout_s: float | None = None) -> bool:
        """Let the running job finish (at most ``timeout_s``), then end the thread; False if it is still busy."""
        idle = self.wait_idle(timeout_s)
        with self._lock:
            self._stopping = True
            self._wake.notify_all()
        if idle:
            self._thread.join(timeout_s)
        return idle

    def _run(self) -> None:
        while True:
            with self._lock:
                self._wake.wait_for(lambda: self._job is not None or self._stopping)
                job = self._job
                if job is None:
                    return
            try:
                job()
            except BaseException as exc:  # a bug in a job must not end the writer
                self.failure = exc
            with self._lock:
                self._job, self._since = None, None
                self.jobs += 1
                self._wake.notify_all()
