"""The table's sounds through pygame's mixer on SDL's dummy audio driver: every cue plays, volume 0
never opens the mixer, no device or a failing mixer leaves a silent kiosk (said once), the tones are
real and distinct, and the app plays a match's cues frame by frame."""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import kiosk_app, playing

from engine import NS_PER_S, EndReason
from kiosk.app import App
from kiosk.config import DEFAULT_CONFIG_TOML, KioskConfig, SoundSettings, load_config
from kiosk.owner import LoadedPin, OwnerPin
from kiosk.table import intents as do
from kiosk.table.cues import Cue, CueKind
from kiosk.timesource import FakeClock
from kiosk.ui.sound import ENCODINGS, MELODIES, PEAK, SoundPlayer, TableSound, sound_bytes

S = NS_PER_S
EVERY_CUE = [Cue(kind, player) for kind, player in MELODIES]


@pytest.fixture(autouse=True)
def no_mixer_left_open() -> Iterator[None]:
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def test_every_cue_plays_on_the_dummy_driver_at_the_configured_volume_and_close_shuts_the_mixer() -> None:
    said: list[str] = []
    player = SoundPlayer(60, say=said.append)
    assert player.active and pygame.mixer.get_init() is not None
    assert set(player.sounds) == set(EVERY_CUE)
    assert all(sound.get_volume() == pytest.approx(0.6, abs=0.01) for sound in player.sounds.values())
    for cue in [*EVERY_CUE, Cue(CueKind.SCORE, 1), Cue(CueKind.FLAG, 0)]:  # a scorer's cue: the one score sound
        pygame.mixer.stop()
        player.play([cue])
        assert pygame.mixer.get_busy(), cue
    player.set_volume(25)
    assert all(sound.get_volume() == pytest.approx(0.25, abs=0.01) for sound in player.sounds.values())
    player.close()
    assert pygame.mixer.get_init() is None and not player.active and said == []
    player.play(EVERY_CUE)  # after closing: nothing, no error


def test_two_cues_of_a_frame_play_one_after_the_other_on_one_channel() -> None:
    player = SoundPlayer(60)
    score, turn = Cue(CueKind.SCORE, 0), Cue(CueKind.YOUR_TURN, 1)
    player.play([score, turn, Cue(CueKind.MATCH_END)])
    busy = [pygame.mixer.Channel(i) for i in range(pygame.mixer.get_num_channels()) if pygame.mixer.Channel(i).get_busy()]
    assert len(busy) == 1
    assert busy[0].get_sound() is player.sounds[Cue(CueKind.SCORE)]
    assert busy[0].get_queue() is player.sounds[Cue(CueKind.YOUR_TURN, 1)]
    player.close()


def test_a_player_on_a_mixer_opened_before_it_stops_its_sounds_on_close_and_leaves_the_mixer_open() -> None:
    pygame.mixer.init()  # opened by someone else (pygame.init() in another test did so for every later app)
    player = SoundPlayer(60)
    player.play([Cue(CueKind.SCORE, 0), Cue(CueKind.YOUR_TURN, 1)])  # one playing, one queued
    assert pygame.mixer.get_busy()
    player.close()
    assert pygame.mixer.get_init() is not None and not pygame.mixer.get_busy() and not player.active


def test_volume_0_never_opens_the_mixer_until_the_volume_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[object] = []
    real_init = pygame.mixer.init

    def counting_init(*args: object, **kwargs: object) -> None:
        opened.append(args)
        real_init(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pygame.mixer, "init", counting_init)
    player = SoundPlayer(0)
    player.play(EVERY_CUE)
    assert opened == [] and pygame.mixer.get_init() is None and not player.active
    player.set_volume(0)
    assert opened == []
    player.set_volume(40)  # the owner raised it: the mixer opens now
    assert len(opened) == 1 and player.active
    player.set_volume(0)
    player.play(EVERY_CUE)
    assert not pygame.mixer.get_busy() and not player.active
    player.close()


def test_a_mixer_that_fails_to_open_leaves_a_silent_player_that_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_init(*args: object, **kwargs: object) -> None:
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "init", failing_init)
    said: list[str] = []
    player = SoundPlayer(60, say=said.append)
    for _ in range(3):
        player.play(EVERY_CUE)
        player.set_volume(70)
    assert not player.active and player.sounds == {}
    assert said == ["off (error: ALSA: Couldn't open audio device)"]


def test_no_audio_device_at_all_is_silence_and_one_line_on_stderr(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")  # SDL reads it when the mixer opens
    player = SoundPlayer(60)
    player.play(EVERY_CUE)
    player.play(EVERY_CUE)
    player.close()
    assert not player.active
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiosk: sound: off (error: ")


def test_a_sound_that_fails_to_play_silences_the_player_without_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    player = SoundPlayer(60, say=said.append)
    assert player.active

    def broken(force: bool = False) -> pygame.mixer.Channel:
        raise pygame.error("mixer not initialized")

    monkeypatch.setattr(pygame.mixer, "find_channel", broken)
    player.play([Cue(CueKind.SCORE, 0)])
    player.play([Cue(CueKind.FLAG, 1)])
    assert not player.active and len(said) == 1
    player.close()


@pytest.mark.parametrize("fmt", [(44100, -16, 2), (22050, 8, 1), (48000, -32, 2), (44100, 16, 1), (11025, -8, 1)])
def test_the_tones_are_loud_enough_distinct_and_in_the_mixers_format(fmt: tuple[int, int, int]) -> None:
    rate, size, channels = fmt
    code, scale, offset = ENCODINGS[size]
    buffers = {}
    for key, notes in MELODIES.items():
        data = sound_bytes(notes, fmt)
        samples = array(code)
        samples.frombytes(data)
        length = max(start + duration for start, duration, _ in notes)
        assert len(samples) == channels * (int(length * rate) + 1), key
        left = samples[0::channels]
        assert all(samples[c::channels] == left for c in range(channels))  # the same in every channel
        peak = max(abs(v - offset) for v in left) / scale
        assert PEAK * 0.95 <= peak <= PEAK + 0.01, key  # loud, never clipped
        assert sum(1 for v in left if abs(v - offset) > scale * 0.01) > len(left) // 4, key  # mostly sounding
        buffers[key] = data
    assert len(set(buffers.values())) == len(MELODIES)  # each cue its own sound (each player's turn too)


def test_the_player_makes_its_sounds_in_the_format_the_mixer_opened_with() -> None:
    pygame.mixer.init(22050, 8, 1)
    player = SoundPlayer(50)
    notes = MELODIES[(CueKind.MATCH_END, None)]
    sound = player.sounds[Cue(CueKind.MATCH_END)]
    assert sound.get_raw() == sound_bytes(notes, (22050, 8, 1))
    assert sound.get_length() == pytest.approx(max(s + d for s, d, _ in notes), abs=0.001)
    player.close()
    assert pygame.mixer.get_init() is not None  # opened by someone else: left open


def make_app(volume: int) -> tuple[App, FakeClock]:
    return kiosk_app(replace(KioskConfig(), sound=SoundSettings(volume)),
                     match={"handover": False, "delay_seconds": 0, "bank_seconds": 30}, simulator=True)


def test_the_app_plays_a_matchs_cues_frame_by_frame_and_closes_the_mixer() -> None:
    app, clock = make_app(60)
    assert app.sound.player.active
    app.do(do.NewMatch(), clock.now())
    app.step(wait=False)
    assert app.sound.heard == []
    app.do(do.Start(0), clock.advance(1))
    app.step(wait=False)
    session = playing(app)
    assert session is not None and session.match.to_act is not None
    assert app.sound.heard == [Cue(CueKind.YOUR_TURN, session.match.to_act)] and pygame.mixer.get_busy()
    heard: list[Cue] = []
    for _ in range(40):  # the loop wakes at least every second
        clock.advance(1)
        app.step(wait=False)
        heard += app.sound.heard
    outcome = session.match.outcome
    assert outcome is not None and outcome.reason is EndReason.TIME and outcome.winner is not None
    loser = 1 - outcome.winner
    assert heard == [Cue(CueKind.LOW_BANK_20, loser), Cue(CueKind.LOW_BANK_10, loser), Cue(CueKind.FLAG, loser)]
    app.controller.config = replace(app.config, sound=SoundSettings(0))  # as the owner's Save does
    app.step(wait=False)
    assert not app.sound.player.active and app.sound.player.volume == 0
    app.close()
    assert pygame.mixer.get_init() is None


def test_at_volume_0_the_app_never_opens_the_mixer() -> None:
    app, clock = make_app(0)
    app.do(do.NewMatch(), clock.now())
    app.do(do.Start(0), clock.advance(1))
    app.step(wait=False)
    assert app.sound.heard and pygame.mixer.get_init() is None


def test_the_owners_new_volume_applies_at_once_after_save(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_CONFIG_TOML, encoding="utf-8")
    clock = FakeClock(10 * S)
    app = App(load_config(path).config, clock=clock, size=(800, 480), hardware_backend="mock", simulator=True,
              owner_pin=LoadedPin(OwnerPin.new("4821", iterations=10_000)), config_path=str(path))
    app.step(wait=False)
    assert app.sound.player.active and app.sound.player.volume == 60
    for intent in [do.OpenSettings(), do.EditSettings(), *[do.PinDigit(d) for d in "4821"], do.PinOk(),
                   do.StepSetting("sound.volume", -2), do.SaveSettings()]:
        app.controller.handle(intent, clock.now())
    app.step(wait=False)
    assert load_config(path).config.sound.volume == 40 and app.sound.player.volume == 40
    assert all(sound.get_volume() == pytest.approx(0.4, abs=0.01) for sound in app.sound.player.sounds.values())


def test_a_fault_in_the_cues_leaves_the_kiosk_running_and_silent() -> None:
    said: list[str] = []
    sound = TableSound(60, say=said.append)
    sound.watch(None, 0)

    class Broken:
        @property
        def events(self) -> list[object]:
            raise RuntimeError("a bug")

    assert sound.update(Broken(), S, 60) == []  # type: ignore[arg-type]
    assert sound.update(Broken(), 2 * S, 60) == []  # type: ignore[arg-type]
    assert not sound.player.active and len(said) == 1 and "a bug" in said[0]
    sound.close()
