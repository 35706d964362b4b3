"""Fixtures the kiosk's tests share: every ``App`` a test opens closes itself (``closing``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kiosk_support import Closing

from kiosk.app import App
from kiosk.store.journal import Journal


@pytest.fixture(autouse=True)
def closing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Closing]:
    """Every ``App`` a test opens is closed after it (no try/finally in the tests)."""
    closer = Closing()
    opening = App.__init__

    def opened_and_kept(self: App, *args: Any, **kwargs: Any) -> None:
        closer.apps.append(self)
        opening(self, *args, **kwargs)

    monkeypatch.setattr(App, "__init__", opened_and_kept)
    yield closer
    closer.close_all()


@pytest.fixture
def journal(tmp_path: Path, closing: Closing) -> Journal:
    """A real SQLite journal in the test's own folder (closed after the test's apps)."""
    j = Journal.open(tmp_path / "journal.sqlite3")
    closing.later(j.close)
    return j
