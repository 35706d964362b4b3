"""``python -m kiosk.devtools.soak`` ends on Ctrl-C or SIGTERM with its report (SDL takes both signals for a
quit event that the kiosk obeys only in its simulator: a soak run in the background could not be stopped)."""

from __future__ import annotations

import os
import signal

from kiosk.devtools.soak import stop_on_signals


def test_sigint_and_sigterm_ask_the_soak_to_stop_and_the_handlers_before_come_back() -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(sig)
        stop, restore = stop_on_signals()
        assert not stop.is_set()
        os.kill(os.getpid(), sig)  # a real signal to this process: the handler runs on the main thread
        assert stop.wait(5)
        restore()
        assert signal.getsignal(sig) == before
