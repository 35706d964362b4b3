"""The table's sounds: short tones made here in code, played through pygame's mixer.

``SoundPlayer`` opens the mixer (none at volume 0), makes one sound per cue in the mixer's own sample
format and plays cues; ``TableSound`` joins it to the ``kiosk.table.cues.CueWatcher`` for the frame
loop. Nothing here ever raises: no audio device, a mixer that will not open, a format it does not
know or a sound that fails to play leave the kiosk silent, said once on stderr. The tones are
synthesised (sine partials under a bell-like envelope), so no sound file ships and none can be
missing; once made they are kept in a cache folder (``cached_sound_bytes``), so that later starts
read them instead of making them again; see docs/sound.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import sys
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path

import pygame

from kiosk.table.cues import Cue, CueKind, CueWatcher
from kiosk.table.session import GameSession

Note = tuple[float, float, float]
"""A tone: its start and length in seconds and its frequency in Hz."""

MELODIES: dict[tuple[CueKind, int | None], tuple[Note, ...]] = {
    (CueKind.YOUR_TURN, 0): ((0.0, 0.16, 659.26), (0.11, 0.28, 987.77)),  # E5 B5: a rising fifth
    (CueKind.YOUR_TURN, 1): ((0.0, 0.09, 587.33), (0.13, 0.09, 587.33), (0.26, 0.28, 783.99)),  # D5 D5 G5: the
    # other side's, three notes in another rhythm (short, short, long), so it is told apart across the table by more than pitch
    (CueKind.SCORE, None): ((0.0, 0.18, 1046.5), (0.07, 0.18, 1318.5), (0.14, 0.40, 1568.0)),  # C6 E6 G6
    (CueKind.LOW_BANK_20, None): ((0.0, 0.09, 880.0), (0.22, 0.09, 880.0)),  # two soft ticks
    (CueKind.LOW_BANK_10, None): ((0.0, 0.07, 1174.7), (0.13, 0.07, 1174.7), (0.26, 0.07, 1174.7)),  # three higher
    (CueKind.FLAG, None): ((0.0, 0.22, 440.0), (0.2, 0.22, 349.23), (0.4, 0.5, 261.63)),  # A4 F4 C4, falling
    (CueKind.MATCH_END, None): ((0.0, 0.16, 523.25), (0.13, 0.16, 659.26), (0.26, 0.16, 783.99),
                                (0.39, 0.6, 1046.5)),  # C5 E5 G5 C6
}
"""The tones of each cue (YOUR_TURN differs by player in notes, rhythm and pitch, so each side knows its own)."""
PARTIALS = ((1.0, 1.0), (2.0, 0.35), (3.0, 0.12))
"""Overtones (frequency ratio, loudness) that make a sine sound like a small bell."""
PEAK = 0.5
"""The loudest a sound gets, of full scale (the volume setting scales it further)."""
ATTACK_S = 0.004
Format = tuple[int, int, int]
"""The mixer's frequency (Hz), sample size (bits, negative: signed) and channels."""
ENCODINGS: dict[int, tuple[str, float, float]] = {
    -16: ("h", 32767.0, 0.0), 16: ("H", 32767.0, 32768.0), -8: ("b", 127.0, 0.0), 8: ("B", 127.0, 128.0),
    -32: ("f", 1.0, 0.0), 32: ("f", 1.0, 0.0),
}
"""Sample size → array type code, scale and offset (pygame's 32-bit samples are floats, reported as -32)."""


def sound_key(cue: Cue) -> Cue:
    """The cue whose sound ``cue`` makes (only YOUR_TURN sounds different for each player)."""
    if cue.kind is CueKind.YOUR_TURN:
        return Cue(cue.kind, 1 if cue.player == 1 else 0)
    return Cue(cue.kind)


def render(notes: Sequence[Note], rate: int) -> list[float]:
    """The notes mixed into mono samples from -PEAK to PEAK at ``rate`` samples a second."""
    length = int(max(start + duration for start, duration, _ in notes) * rate) + 1
    out = [0.0] * length
    sin, tau = math.sin, 2 * math.pi
    attack = max(1, int(ATTACK_S * rate))
    for start, duration, frequency in notes:
        first, count = int(start * rate), int(duration * rate)
        fade = math.exp(-5.0 / count)  # down to e**-5 (about 1 %) at the note's end
        envelope = [min(1.0, i / attack) * fade**i for i in range(count)]
        wave = [0.0] * count
        for ratio, level in PARTIALS:
            if frequency * ratio < rate / 2:
                step = tau * frequency * ratio / rate
                wave = [w + level * sin(step * i) for i, w in enumerate(wave)]
        for i, (e, w) in enumerate(zip(envelope, wave), start=first):
            out[i] += e * w
    top = max(abs(s) for s in out) or 1.0
    return [s * PEAK / top for s in out]


@cache
def sound_bytes(notes: tuple[Note, ...], fmt: Format) -> bytes:
    """``notes`` as the raw bytes the mixer plays in format ``fmt`` (the same value in every channel)."""
    rate, size, channels = fmt
    code, scale, offset = ENCODINGS[size]
    mono = render(notes, rate)
    values = [s * scale + offset for s in mono] if code == "f" else [round(s * scale + offset) for s in mono]
    samples = array(code, values)
    if channels > 1:
        spread = array(code, values * channels)  # the right length and type; filled below, channel by channel
        for c in range(channels):
            spread[c::channels] = samples
        samples = spread
    return samples.tobytes()


def default_cache_dir() -> Path:
    """Where the kiosk keeps its made sounds: ``$XDG_CACHE_HOME`` (the service sets it), else ``~/.cache``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "spectacular-bid" / "sounds"


def cached_sound_bytes(notes: tuple[Note, ...], fmt: Format, folder: Path | None) -> bytes:
    """``sound_bytes(notes, fmt)``, kept in ``folder`` once made; later calls (later starts) read it.

    A file is named by everything the sound is made from (the notes, the format, the overtones,
    the peak, the attack) and ends with the SHA-256 of its samples: a file that is missing, short,
    damaged or unreadable is made again, and a folder that cannot be written only costs the time to
    make the sound. ``folder`` None: no cache.
    """
    if folder is None:
        return sound_bytes(notes, fmt)
    made_from = repr((notes, fmt, PARTIALS, PEAK, ATTACK_S, ENCODINGS.get(fmt[1])))
    path = folder / f"{hashlib.sha256(made_from.encode()).hexdigest()[:40]}.pcm"
    with contextlib.suppress(OSError):
        kept = path.read_bytes()
        data, digest = kept[:-32], kept[-32:]
        if len(kept) > 32 and hashlib.sha256(data).digest() == digest:
            return data
    data = sound_bytes(notes, fmt)
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        part.write_bytes(data + hashlib.sha256(data).digest())
        os.replace(part, path)
    return data


def _say(message: str) -> None:
    print(f"kiosk: sound: {message}", file=sys.stderr)


class SoundPlayer:
    """The mixer and one sound per cue; ``volume`` 0 to 100 (0: the mixer is not even opened)."""

    def __init__(self, volume: int, *, say: Callable[[str], None] = _say, cache_dir: Path | None = None) -> None:
        self._say = say
        self._said = False
        self.cache_dir = cache_dir
        """Where made sounds are kept between starts (None: made at every start)."""
        self._opened = False
        """Whether this player opened the mixer (and so closes it)."""
        self._failed = False
        self.sounds: dict[Cue, pygame.mixer.Sound] = {}
        self.volume = 0
        self.set_volume(volume)

    @property
    def active(self) -> bool:
        """Whether cues are heard (the mixer is open, the sounds made and the volume above 0)."""
        return bool(self.sounds) and self.volume > 0 and not self._failed

    def set_volume(self, volume: int) -> None:
        """Play at ``volume`` (0 to 100) from now on; the mixer opens the first time it is above 0."""
        volume = max(0, min(100, int(volume)))
        if volume == self.volume:
            return
        self.volume = volume
        if volume > 0 and not self.sounds and not self._failed:
            self._open()
        for sound in self.sounds.values():
            self._guard(lambda sound=sound: sound.set_volume(volume / 100))  # type: ignore[misc]

    def play(self, cues: Iterable[Cue]) -> None:
        """Play the first of ``cues`` now and queue the second after it on the same channel (more in
        one frame are dropped: two sounds at once are noise)."""
        wanted = [self.sounds[key] for key in map(sound_key, cues) if key in self.sounds][:2]
        if not wanted or not self.active:
            return

        def start() -> None:
            channel = pygame.mixer.find_channel(True)
            channel.play(wanted[0])
            if len(wanted) > 1:
                channel.queue(wanted[1])

        self._guard(start)

    def close(self) -> None:
        """Stop what plays, let go of the sounds, and close the mixer if this player opened it.

        The channels are stopped before the sounds go: sounds let go while a mixer opened by
        someone else still plays or queues them crashed the process (a segmentation fault, a few
        apps later, in whatever the main thread then did; README, Tests)."""
        if self.sounds and pygame.mixer.get_init() is not None:
            self._guard(pygame.mixer.stop)
            self._guard(pygame.mixer.stop)  # the first stop started each channel's queued sound
        self.sounds = {}
        if self._opened:
            self._opened = False
            self._guard(pygame.mixer.quit)

    def _open(self) -> None:
        def open_mixer() -> None:
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(buffer=512)
                self._opened = True
            fmt = pygame.mixer.get_init()
            if fmt is None:
                raise pygame.error("the mixer did not open")
            if fmt[1] not in ENCODINGS:
                raise pygame.error(f"unknown sample format {fmt[1]}")
            for (kind, player), notes in MELODIES.items():
                sound = pygame.mixer.Sound(buffer=cached_sound_bytes(notes, fmt, self.cache_dir))
                sound.set_volume(self.volume / 100)
                self.sounds[Cue(kind, player)] = sound

        self._guard(open_mixer)
        if self._failed:
            self.close()

    def _guard(self, action: Callable[[], object]) -> None:
        """Do ``action``; any failure leaves the player silent from then on."""
        try:
            action()
        except Exception as exc:  # no device, a broken sound, a mixer gone away: silence, never a crash
            self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        """Go silent for good because of ``exc`` (said once on stderr)."""
        self._failed = True
        if not self._said:
            self._said = True
            with contextlib.suppress(Exception):  # not even stderr: silence all the same
                self._say(f"off ({type(exc).__name__}: {exc})")


class TableSound:
    """The frame loop's sound: the cues of the match at the table, played at the configured volume.

    Made before the controller (making the tones takes a moment, which must not count against a
    resumed match's running clock); ``watch`` then takes the match at the table as already heard."""

    def __init__(self, volume: int, *, say: Callable[[str], None] = _say, cache_dir: Path | None = None) -> None:
        self.player = SoundPlayer(volume, say=say, cache_dir=cache_dir)
        self.watcher: CueWatcher | None = None
        self.heard: list[Cue] = []
        """The newest frame's cues (tests and tools look at them)."""

    def watch(self, session: GameSession | None, now_ns: int) -> None:
        """Hear the match at the table from now on (what it did so far counts as heard)."""
        self.watcher = CueWatcher(session, now_ns)

    def update(self, session: GameSession | None, now_ns: int, volume: int) -> list[Cue]:
        """After the controller's update: the volume as configured now, the new cues played."""
        try:
            self.player.set_volume(volume)
            if self.watcher is None:
                self.watch(session, now_ns)
            assert self.watcher is not None
            self.heard = self.watcher.observe(session, now_ns)
        except Exception as exc:  # a fault in here must not stop the table
            self.heard = []
            self.player.fail(exc)
            return []
        self.player.play(self.heard)
        return self.heard

    def close(self) -> None:
        """Close the mixer (if the player opened it)."""
        self.player.close()
