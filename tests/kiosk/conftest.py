"""Fixtures the kiosk's tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.app import App
from kiosk.store.journal import Journal


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    """A real SQLite journal in the test's own folder."""
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()


@pytest.fixture(autouse=True)
def apps_close_themselves(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[App]]:
    """Every ``App`` a test opens is closed after it, the newest first, whatever the test's end (no
    try/finally in the tests; closing twice is harmless)."""
    opened: list[App] = []
    opening = App.__init__

    def opened_and_kept(self: App, *args: Any, **kwargs: Any) -> None:
        opened.append(self)
        opening(self, *args, **kwargs)

    monkeypatch.setattr(App, "__init__", opened_and_kept)
    yield opened
    for app in reversed(opened):
        if hasattr(app, "_waker"):  # made whole (an App whose start failed has nothing to close)
            app.close()
