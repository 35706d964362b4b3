"""Issue 20: live frames from random play in the layout records, and the check that no text or
message bar covers a tile, a lit point, a score badge or another text."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from kiosk.devtools.random_play import LIVE_SEEDS
from kiosk.devtools.screenshots import shoot
from kiosk.ui import layout


def test_the_overlap_check_finds_what_it_is_for() -> None:
    record: dict[str, object] = {
        "texts": [
            {"rect": [100, 100, 80, 20], "text": "Player 2 must open"},
            {"rect": [150, 110, 80, 20], "text": "+10s beside a clock"},
            {"rect": [400, 300, 60, 20], "text": "Player 1 scores 10"},
            {"rect": [600, 40, 60, 20], "text": "clear of everything"},
        ],
        "board": [
            {"rect": [420, 310, 62, 31], "what": "tile"},
            {"rect": [500, 200, 62, 31], "what": "lit"},
            {"rect": [540, 190, 28, 24], "what": "badge"},
            {"rect": [480, 205, 200, 30], "what": "bar"},
        ],
    }
    found = layout.covered(record)
    assert any("'Player 2 must open' overlaps text '+10s beside a clock'" in p for p in found)
    assert any("'Player 1 scores 10' covers a tile" in p for p in found)
    assert any("badge at (540, 190, 28, 24) covers a lit point" in p for p in found)
    assert any("message bar" in p and "covers a lit" in p for p in found)
    assert any("message bar" in p and "covers a badge" in p for p in found)
    assert not any("clear of everything" in p for p in found)


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_live_frames_from_random_play_cover_nothing_on_the_board(orientation: str, tmp_path: Path) -> None:
    """Random play stopped at random moments (messages, badges, the hint, opening turns): every
    frame's record lists its tiles and lit points, and nothing covers them or another text."""
    names = [f"live-{seed}" for seed in LIVE_SEEDS] + ["live-hint"]
    pngs = shoot(tmp_path, (800, 480), orientation, names)
    assert len(pngs) == len(names)
    tiles = 0
    for png in pngs:
        record = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
        tiles += sum(item["what"] == "tile" for item in record["board"])
        assert layout.covered(record) == [], png.name
        assert layout.problems(record, pygame.image.load(str(png))) == [], png.name
    assert tiles >= 40
