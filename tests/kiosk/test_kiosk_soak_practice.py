"""``python -m kiosk.devtools.soak --practice LEVEL --shots DIR``: the soak plays practice matches against the
kiosk's computer through the real app (deciding only for the person), and saves each decision's screen with
a copy turned 180° (the top edge's view) to look at (issue 20: whole matches played and looked at)."""

from __future__ import annotations

from pathlib import Path

import pygame

from kiosk.devtools.soak import soak
from kiosk.store.journal import Journal


def test_the_soak_plays_practice_matches_and_saves_what_both_edges_see(tmp_path: Path) -> None:
    journal_path = tmp_path / "journal.sqlite3"
    shots = tmp_path / "shots"
    report = soak(0.25, seed=3, workdir=tmp_path, log=False, journal_path=journal_path, practice=1, shots=shots,
                  shot_limit=30)
    assert report.exceptions == []
    assert report.decisions > 0
    assert report.replay_mismatches == 0
    journal = Journal.open(journal_path)
    try:
        ids = [record.id for record in journal.matches()]
        assert ids
        assert journal.computer_levels(ids) == dict.fromkeys(ids, 1)  # every match against the computer, level 1
    finally:
        journal.close()
    plain = sorted(p for p in shots.glob("*.png") if not p.stem.endswith("-turned"))
    assert 0 < len(plain) <= 30
    assert sorted(shots.glob("*-turned.png")) == [p.with_name(f"{p.stem}-turned.png") for p in plain]
    shot, turned = pygame.image.load(plain[-1]), pygame.image.load(plain[-1].with_name(f"{plain[-1].stem}-turned.png"))
    w, h = shot.get_size()
    assert all(shot.get_at((x, y)) == turned.get_at((w - 1 - x, h - 1 - y)) for x, y in ((0, 0), (w // 3, h // 2), (w - 5, 7)))
