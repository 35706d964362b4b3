"""The fonts shipped with the kiosk (kiosk/assets/fonts): every character of every catalog and the
2,350 KS X 1001 Hangul syllables have glyphs, they are used before any system font, and Korean
shows on a machine with no fonts at all (system fonts hidden, in a child process)."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame.freetype
import pytest

from kiosk import i18n
from kiosk.devtools import subset_fonts
from kiosk.i18n import catalogs
from kiosk.ui import fonts

ROOT = Path(__file__).resolve().parents[2]
LATIN, HANGUL = fonts.SCRIPTS
SHIPPED = [fonts.SHIPPED_DIR / name for script in fonts.SCRIPTS for name in script.shipped]


def ks_x_1001() -> str:
    """The Hangul syllables of KS X 1001: two bytes in EUC-KR (the others are 8-byte jamo sequences)."""
    return "".join(chr(c) for c in range(0xAC00, 0xD7A4) if len(chr(c).encode("euc_kr")) == 2)


def catalog_texts() -> Iterator[tuple[str, str]]:
    for language in i18n.LANGUAGES:
        for msgid, value in catalogs.iter_translations(language):
            yield language, msgid
            yield language, value
    for language, name in i18n.NATIVE_NAMES.items():
        yield language, name


def missing(path: Path, chars: str) -> str:
    return "".join(c for c in sorted(set(chars)) if c.isprintable() and not c.isspace()
                   and not fonts.has_glyphs(str(path), c))


@pytest.fixture
def shipped_only() -> Iterator[fonts.FontSet]:
    """The process's font set with the shipped fonts only (no system font, no fontconfig)."""
    found = fonts.discover([], use_fontconfig=False, shipped=True)
    fonts.use(found)
    yield found
    fonts.use(None)


def test_the_shipped_files_are_there_with_their_licence_and_their_source() -> None:
    assert all(path.is_file() and path.stat().st_size > 10_000 for path in SHIPPED), SHIPPED
    licence = (fonts.SHIPPED_DIR / "OFL.txt").read_text("utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Reserved Font Name 'Source'" in licence
    readme = (fonts.SHIPPED_DIR / "README.md").read_text("utf-8")
    assert all(path.name in readme and path.name in licence for path in SHIPPED)
    assert "Version 2.004" in readme
    assert sum(path.stat().st_size for path in SHIPPED) < 4_000_000  # small enough to ship (even --all-hangul)


def test_pyproject_ships_them_as_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]["kiosk"]
    kiosk_dir = ROOT / "kiosk"
    for path in sorted(fonts.SHIPPED_DIR.iterdir()):
        relative = path.relative_to(kiosk_dir).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


def test_the_shipped_fonts_have_every_character_of_every_catalog(shipped_only: fonts.FontSet) -> None:
    assert not shipped_only.warnings
    assert {f.regular for f in shipped_only.faces if f != fonts.BUILTIN} == {str(SHIPPED[0]), str(SHIPPED[2])}
    texts = list(catalog_texts())
    assert len(texts) > 1000
    for language, text in texts:
        face = fonts.face_for(text)
        assert face.regular is not None and Path(face.regular).parent == fonts.SHIPPED_DIR, (language, text, face)
        assert face.bold is not None and Path(face.bold).parent == fonts.SHIPPED_DIR
        assert fonts.has_glyphs(face.regular, text) and fonts.has_glyphs(face.bold, text), (language, text, face)


def test_the_hangul_fonts_have_the_2350_ks_x_1001_syllables_and_the_jamo() -> None:
    syllables = ks_x_1001()
    assert len(syllables) == 2350 and "가" in syllables and "힝" in syllables and "똠" not in syllables
    jamo = "".join(chr(c) for c in range(0x3131, 0x318F))
    for path in SHIPPED[2:]:
        assert missing(path, syllables + jamo) == "", path.name


def test_the_hangul_fonts_have_every_syllable_the_keyboard_can_compose() -> None:
    every = "".join(chr(c) for c in range(0xAC00, 0xD7A4))  # 첤 on the way to 철수, rare name syllables
    assert len(every) == 11172
    for path in SHIPPED[2:]:
        assert missing(path, every) == "", path.name


def test_the_latin_fonts_have_ascii_latin_1_extended_a_and_ukrainian_cyrillic() -> None:
    chars = "".join(chr(c) for c in [*range(0x21, 0x7F), *range(0xA1, 0x180), *range(0x400, 0x460), 0x490, 0x491])
    for path in SHIPPED[:2]:
        assert missing(path, chars) == "", path.name
        assert missing(path, "가") == "가"  # the check can fail


def test_the_face_for_every_language_is_a_shipped_one_even_with_system_fonts_installed() -> None:
    fonts.use(None)  # this machine's own discovery: shipped first, system fonts (if any) after
    try:
        for language in ("ko", "uk", "id", "en"):
            t = i18n.translator(language)
            for text in (i18n.NATIVE_NAMES[language], t._("Player {number}", number=1), t._("Settings")):
                face = fonts.face_for(text)
                assert face.regular is not None and Path(face.regular).parent == fonts.SHIPPED_DIR, (language, face)
                assert face.script == (HANGUL.name if language == "ko" else LATIN.name)
    finally:
        fonts.use(None)


def test_a_system_font_is_the_fallback_for_a_character_the_subsets_lack(tmp_path: Path) -> None:
    system = tmp_path / "DejaVuSans.ttf"  # pygame's own font stands in for a system font
    shutil.copy(fonts._builtin_path(), system)
    assert all(missing(path, "Ω") == "Ω" for path in SHIPPED)
    fonts.use(fonts.discover([tmp_path], use_fontconfig=False, shipped=True))
    try:
        assert fonts.face_for("Ωmega").regular == str(system)
        assert Path(str(fonts.face_for("Omega").regular)).parent == fonts.SHIPPED_DIR
        assert Path(str(fonts.face_for("김 Omega").regular)).name == SHIPPED[2].name
    finally:
        fonts.use(None)


def test_the_subsetting_tool_asks_for_every_catalog_character_and_works_without_fonttools() -> None:
    wanted = subset_fonts.wanted_chars()
    assert len(subset_fonts.ks_x_1001_syllables()) == 2350
    catalog = {c for _, text in catalog_texts() for c in text if c.isprintable()}
    assert catalog - wanted == set()
    assert {"▲", "▼", "←", "—", "…", "ㄱ", "ㅎ", "Ґ", "ї"} <= wanted and "똠" not in wanted


CHILD = textwrap.dedent("""
    import json, os
    import pygame
    from kiosk.ui import fonts, theme
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((400, 80))
    out = {"faces": [f.regular for f in fonts.current().faces], "warnings": list(fonts.warnings()),
           "fallbacks": [f.regular for f in fonts.current().fallbacks()], "texts": {}}
    for text in ("한국어 플레이어", "Українська Ґ"):
        font = theme.font(30, False, text)
        def pixels(s):
            surface = font.render(s, True, (255, 255, 255), (0, 0, 0))
            return pygame.image.tobytes(surface, "RGB").hex()
        screen.fill((0, 0, 0))
        screen.blit(font.render(text, True, (255, 255, 255)), (0, 0))
        lit = sum(1 for x in range(400) for y in range(80) if screen.get_at((x, y))[0] > 128)
        out["texts"][text] = {"face": fonts.face_for(text).regular, "lit": lit, "notdef": pixels("\\ue000"),
                              "glyphs": [pixels(c) for c in text if not c.isspace()]}
    print(json.dumps(out))
""")


def test_korean_shows_real_glyphs_with_every_system_font_hidden() -> None:
    env = {**os.environ, fonts.FONT_DIRS_ENV: "", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    run = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["warnings"] == [] and out["fallbacks"] == []
    assert [Path(p).name for p in out["faces"] if p] == [SHIPPED[0].name, SHIPPED[2].name]
    for text, drawn in out["texts"].items():
        assert Path(drawn["face"]).parent == fonts.SHIPPED_DIR, text
        glyphs = drawn["glyphs"]
        assert drawn["notdef"] not in glyphs, text  # no glyph is the missing-glyph box
        assert len(set(glyphs)) == len(set(text.replace(" ", ""))), text  # different letters, different pixels
        assert drawn["lit"] > 200, text


def test_glyphs_are_still_found_after_freetype_is_quit() -> None:
    assert fonts.has_glyphs(str(SHIPPED[2]), "가")
    pygame.freetype.quit()  # what pygame.quit() does to the FreeType fonts the lookup has open (only it uses them)
    assert fonts.has_glyphs(str(SHIPPED[2]), "나") and not fonts.has_glyphs(str(SHIPPED[0]), "나")
