"""The made sounds kept between starts: read back equal to the synthesis, made again when damaged or missing."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from kiosk.ui import sound
from kiosk.ui.sound import MELODIES, SoundPlayer, cached_sound_bytes, default_cache_dir, sound_bytes

FORMATS = [(44100, -16, 2), (22050, 8, 1), (48000, -32, 2)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_kept_sound_is_read_back_equal_to_the_synthesis_without_making_it_again(
        tmp_path: Path, fmt: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    made = {notes: cached_sound_bytes(notes, fmt, tmp_path) for notes in MELODIES.values()}
    assert all(data == sound_bytes(notes, fmt) for notes, data in made.items())
    assert len(list(tmp_path.glob("*.pcm"))) == len(MELODIES)

    def no_synthesis(notes: object, fmt: object) -> bytes:
        raise AssertionError("made again although kept")

    monkeypatch.setattr(sound, "sound_bytes", no_synthesis)
    assert {notes: cached_sound_bytes(notes, fmt, tmp_path) for notes in MELODIES.values()} == made


def test_a_damaged_or_cut_file_is_made_again_and_rewritten(tmp_path: Path) -> None:
    notes, fmt = next(iter(MELODIES.values())), (44100, -16, 2)
    good = cached_sound_bytes(notes, fmt, tmp_path)
    (path,) = tmp_path.glob("*.pcm")
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x40
    path.write_bytes(bytes(raw))
    assert cached_sound_bytes(notes, fmt, tmp_path) == good
    assert path.read_bytes() != bytes(raw)  # rewritten
    path.write_bytes(path.read_bytes()[:100])
    assert cached_sound_bytes(notes, fmt, tmp_path) == good
    path.write_bytes(b"")
    assert cached_sound_bytes(notes, fmt, tmp_path) == good


def test_a_folder_that_cannot_be_made_only_costs_the_making(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be")
    notes, fmt = next(iter(MELODIES.values())), (44100, -16, 2)
    assert cached_sound_bytes(notes, fmt, blocker / "sounds") == sound_bytes(notes, fmt)
    assert blocker.read_text() == "a file where the folder should be"


def test_the_player_plays_the_kept_sounds_in_the_mixers_format(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    for start in ("made and kept", "read back"):
        player = SoundPlayer(50, cache_dir=tmp_path)
        try:
            fmt = pygame.mixer.get_init()
            assert fmt is not None and player.active and len(player.sounds) == len(MELODIES), start
            for key, played in player.sounds.items():
                assert played.get_raw() == sound_bytes(MELODIES[(key.kind, key.player)], fmt), (start, key)
        finally:
            player.close()
    assert len(list(tmp_path.glob("*.pcm"))) == len(MELODIES)


def test_the_cache_folder_follows_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "spectacular-bid" / "sounds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "spectacular-bid" / "sounds"
