"""Fixtures the kiosk's tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.store.journal import Journal


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    """A real SQLite journal in the test's own folder."""
    j = Journal.open(tmp_path / "journal.sqlite3")
    yield j
    j.close()
