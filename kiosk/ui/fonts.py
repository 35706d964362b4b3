"""Fonts for every kiosk language: Latin and Cyrillic (English, Indonesian, Ukrainian) and Hangul.

The kiosk ships its own fonts (``kiosk/assets/fonts``, see docs/fonts.md): subsets of Noto Sans
and Noto Sans CJK KR holding every character of the catalogs, the symbols the screens draw, Latin,
Cyrillic and every Hangul syllable (names, and what the Korean keyboard shows while composing). They are used first, so every language
shows on a machine with no fonts installed.

System fonts are only a fallback, searched when a text has a character the shipped fonts lack (or
when a shipped file is missing): the standard font folders are searched for known files (Noto
Sans and Noto Sans CJK from Debian's ``fonts-noto-core`` and ``fonts-noto-cjk``, Nanum Gothic from
``fonts-nanum``, DejaVu Sans), then fontconfig's ``fc-match`` is asked when it is installed.
``SPECTACULAR_BID_FONT_DIRS`` replaces the standard folders (and turns fontconfig off); set empty,
it hides every system font. Every candidate is checked for real glyphs (``pygame.freetype``'s
metrics are None for a character the font lacks) before it is used.

Each string is drawn in the first font that has a glyph for every one of its characters, so a
Korean text uses the Hangul font and a Ukrainian one the Cyrillic font without the caller saying
which language it is. When no suitable font is found the kiosk falls back to pygame's built-in
font (Latin only) and shows a warning naming the Debian package to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pygame
import pygame.freetype

from kiosk.i18n import T

FONT_DIRS_ENV = "SPECTACULAR_BID_FONT_DIRS"
"""A colon-separated list of folders searched instead of the standard ones (tests, odd systems);
empty: no system font at all."""
SHIPPED_DIR = Path(__file__).resolve().parents[1] / "assets" / "fonts"
"""The fonts that ship with the kiosk (package data)."""
STANDARD_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")


@dataclass(frozen=True, slots=True)
class Script:
    """A writing system the kiosk needs, the characters that prove a font has it, and the files."""

    name: str
    sample: str
    shipped: tuple[str, str]
    """The (regular, bold) files in ``SHIPPED_DIR``."""
    candidates: tuple[tuple[str, str], ...]
    """(regular file, bold file) names, best first."""
    fc_pattern: str
    package: str


SCRIPTS: tuple[Script, ...] = (
    Script(
        "Latin and Cyrillic",
        "AaZzĞğ€ЖжҐґЇїЄє’—",
        ("NotoSans-Regular-kiosk.ttf", "NotoSans-Bold-kiosk.ttf"),
        (("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"), ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
         ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")),
        "sans-serif:lang=uk",
        "fonts-noto-core",
    ),
    Script(
        "Hangul",
        "가나다한국어힣",
        ("NotoSansCJKkr-Regular-kiosk.otf", "NotoSansCJKkr-Bold-kiosk.otf"),
        (("NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc"), ("NotoSansCJKkr-Regular.otf", "NotoSansCJKkr-Bold.otf"),
         ("NotoSansKR-Regular.otf", "NotoSansKR-Bold.otf"), ("NanumGothic.ttf", "NanumGothicBold.ttf"),
         ("NanumBarunGothic.ttf", "NanumBarunGothicBold.ttf")),
        "sans-serif:lang=ko",
        "fonts-noto-cjk (or fonts-nanum)",
    ),
)


@dataclass(frozen=True, slots=True)
class Face:
    """A font file pair for one script (``regular`` None: pygame's built-in font)."""

    regular: str | None
    bold: str | None
    script: str


@dataclass(frozen=True, slots=True)
class FontSet:
    """The faces found, best first (pygame's built-in font last), what is missing, and where the
    system fonts for characters the faces lack are searched."""

    faces: tuple[Face, ...]
    warnings: tuple[str, ...]
    system_dirs: tuple[Path, ...] = ()
    use_fontconfig: bool = False

    def fallbacks(self) -> tuple[Face, ...]:
        """The system fonts not among ``faces`` (searched on first use)."""
        return tuple(f for f in system_faces(self.system_dirs, self.use_fontconfig) if f not in self.faces)


BUILTIN = Face(None, None, "built-in")


def font_dirs() -> list[Path]:
    """The folders searched for font files."""
    env = os.environ.get(FONT_DIRS_ENV)
    dirs = env.split(os.pathsep) if env is not None else list(STANDARD_DIRS)
    return [Path(d).expanduser() for d in dirs if d]


def _index(dirs: Iterable[Path]) -> dict[str, str]:
    """File name to path for every font file below ``dirs`` (the first one found wins)."""
    found: dict[str, str] = {}
    for base in dirs:
        if not base.is_dir():
            continue
        for root, _, files in os.walk(base):
            for name in files:
                if name.lower().endswith((".ttf", ".otf", ".ttc")):
                    found.setdefault(name, os.path.join(root, name))
    return found


def _fc_match(pattern: str) -> str | None:
    if shutil.which("fc-match") is None:
        return None
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    path = out.stdout.strip()
    return path if path and os.path.exists(path) else None


_opened: dict[str, pygame.freetype.Font] = {}


def _ft(path: str) -> pygame.freetype.Font:
    """``path`` opened by FreeType (kept open; opened again after a ``pygame.quit()``)."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
        _opened.clear()
    if path not in _opened:
        _opened[path] = pygame.freetype.Font(path, 16)
    return _opened[path]


def has_glyphs(path: str | None, chars: str) -> bool:
    """Whether the font file has a real glyph for every character of ``chars`` (spaces aside)."""
    wanted = "".join(sorted({c for c in chars if not c.isspace()}))
    if not wanted:
        return True
    return _covers(path, wanted)


@lru_cache(maxsize=1024)
def _covers(path: str | None, chars: str) -> bool:
    try:
        font = _ft(path or _builtin_path())
        return all(m is not None for m in font.get_metrics(chars))
    except (OSError, pygame.error):
        return False


def _builtin_path() -> str:
    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())


def shipped_face(script: Script, folder: Path = SHIPPED_DIR) -> Face | None:
    """The shipped face for ``script``, if its files are there and have its glyphs."""
    regular, bold = (folder / name for name in script.shipped)
    if not (regular.is_file() and has_glyphs(str(regular), script.sample)):
        return None
    return Face(str(regular), str(bold) if bold.is_file() else str(regular), script.name)


def _system_face(script: Script, files: dict[str, str], use_fontconfig: bool) -> Face | None:
    for regular, bold in script.candidates:
        path = files.get(regular)
        if path and has_glyphs(path, script.sample):
            return Face(path, files.get(bold) or path, script.name)
    if use_fontconfig:
        path = _fc_match(script.fc_pattern)
        if path and has_glyphs(path, script.sample):
            return Face(path, path, script.name)
    return None


@lru_cache(maxsize=8)
def system_faces(dirs: tuple[Path, ...], use_fontconfig: bool) -> tuple[Face, ...]:
    """The best system face for each script, found in ``dirs`` (then by fontconfig)."""
    if not dirs and not use_fontconfig:
        return ()
    files = _index(dirs)
    faces: list[Face] = []
    for script in SCRIPTS:
        face = _system_face(script, files, use_fontconfig)
        if face is not None and face not in faces:
            faces.append(face)
    return tuple(faces)


def discover(dirs: Sequence[Path] | None = None, use_fontconfig: bool | None = None,
             shipped: bool | None = None) -> FontSet:
    """The shipped face for each script, a system one where it is missing, and a warning for each
    script with neither. ``dirs``: the system folders (default: ``font_dirs()``); ``shipped``:
    whether the shipped fonts are used (default: unless ``dirs`` is given)."""
    system_dirs = tuple(font_dirs() if dirs is None else dirs)
    if use_fontconfig is None:
        use_fontconfig = os.environ.get(FONT_DIRS_ENV) is None
    if shipped is None:
        shipped = dirs is None
    faces: list[Face] = []
    warnings: list[str] = []
    for script in SCRIPTS:
        face = shipped_face(script) if shipped else None
        if face is None:
            face = next((f for f in system_faces(system_dirs, use_fontconfig) if f.script == script.name), None)
        if face is None:
            if script is SCRIPTS[0]:
                warnings.append(T("No font for Latin and Cyrillic found: install {package}. Using pygame's built-in "
                                  "font; Ukrainian shows empty boxes.", package=script.package))
            else:
                warnings.append(T("No font for Hangul found: install {package}. Korean shows empty boxes.",
                                  package=script.package))
        elif face not in faces:
            faces.append(face)
    faces.append(BUILTIN)  # the last resort (Latin only)
    return FontSet(tuple(faces), tuple(warnings), system_dirs, use_fontconfig)


_current: FontSet | None = None


def current() -> FontSet:
    """The font set of this process (discovered once; problems printed to stderr once)."""
    global _current
    if _current is None:
        _current = discover()
        for w in _current.warnings:
            print(f"kiosk: fonts: {w}", file=sys.stderr)
    return _current


def use(fontset: FontSet | None) -> None:
    """Replace the process's font set (tests); None discovers again on next use."""
    global _current
    _current = fontset
    face_for.cache_clear()


def warnings() -> tuple[str, ...]:
    """What is missing, for the warning banner and the settings screen."""
    return current().warnings


@lru_cache(maxsize=1024)
def face_for(text: str) -> Face:
    """The first face with a glyph for every character of ``text``: the shipped ones, then the
    system ones, then pygame's built-in font (else the one that covers most)."""
    fontset = current()
    chars = "".join(sorted({c for c in text if not c.isspace()}))
    if not chars:
        return fontset.faces[0]
    own = [f for f in fontset.faces if f != BUILTIN]
    for face in own:
        if _covers(face.regular, chars):
            return face
    tried = [*own, *fontset.fallbacks(), BUILTIN]
    for face in tried[len(own):]:
        if _covers(face.regular, chars):
            return face
    return max(tried, key=lambda f: sum(_covers(f.regular, c) for c in chars))
