"""``python -m kiosk.devtools.subset_fonts``: regenerate the fonts shipped in ``kiosk/assets/fonts``.

A development tool, run after a catalog gains characters the shipped fonts lack (the font tests
say which): it cuts the kiosk's characters out of the official Noto fonts with fontTools, which is
not a dependency of the kiosk. Install it anywhere but the kiosk's environment, e.g.::

    python3 -m venv /some/scratch/venv && /some/scratch/venv/bin/pip install fonttools
    /some/scratch/venv/bin/python -m kiosk.devtools.subset_fonts \\
        --latin NotoSans-Regular.ttf NotoSans-Bold.ttf \\
        --cjk NotoSansCJK-Regular.ttc NotoSansCJK-Bold.ttc

(run from the repository's root; on Debian the sources are in ``fonts-noto-core`` and
``fonts-noto-cjk``). The CJK sources may be collections (``.ttc``): the Korean face is picked by
its family name, or by ``--cjk-number``. The characters: every character of every catalog
(message ids and translations), every non-ASCII character written in the engine's, the hardware
layer's and the kiosk's code, printable ASCII, Latin-1 and Latin Extended-A (names), Ukrainian
Cyrillic, common punctuation and symbols, the Hangul compatibility jamo and the 2,350 Hangul
syllables of KS X 1001 (names; ``--all-hangul``: all 11,172). Each font keeps those of the characters its source has. See
docs/fonts.md.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "kiosk" / "assets" / "fonts"
LOCALES = ROOT / "kiosk" / "i18n" / "locale"
SOURCES = ("engine", "hardware", "kiosk")
KS_X_1001_SYLLABLES = 2350


@dataclass(frozen=True, slots=True)
class Target:
    """One shipped file: its name, the source it is cut from and its role."""

    name: str
    source: Path
    font_number: int | None
    role: str


LATIN_REGULAR = "NotoSans-Regular-kiosk.ttf"
LATIN_BOLD = "NotoSans-Bold-kiosk.ttf"
CJK_REGULAR = "NotoSansCJKkr-Regular-kiosk.otf"
CJK_BOLD = "NotoSansCJKkr-Bold-kiosk.otf"


def span(first: int, last: int) -> set[str]:
    return {chr(c) for c in range(first, last + 1)}


def ks_x_1001_syllables() -> set[str]:
    """The Hangul syllables of KS X 1001: 2,350 of them, those EUC-KR encodes in two bytes (Python's
    codec writes the others as eight-byte jamo sequences)."""
    found = {ch for ch in span(0xAC00, 0xD7A3) if len(ch.encode("euc_kr")) == 2}
    if len(found) != KS_X_1001_SYLLABLES:
        raise SystemExit(f"expected {KS_X_1001_SYLLABLES} KS X 1001 syllables, Python's euc_kr has {len(found)}")
    return found


def fixed_ranges() -> set[str]:
    """The characters shipped whatever the catalogs say."""
    chars = span(0x20, 0x7E) | span(0xA0, 0xFF) | span(0x100, 0x17F)  # ASCII, Latin-1, Latin Extended-A
    chars |= span(0x400, 0x45F) | {"\u0490", "\u0491"}  # Cyrillic for Ukrainian (and Russian names)
    chars |= span(0x2010, 0x2027) | span(0x2030, 0x203A) | {"\u20ac", "\u20b4", "\u20a9", "\u2116", "\u2122"}
    chars |= span(0x2190, 0x2193) | {"\u2212", "\u00d7", "\u2713", "\u2717"} | span(0x25A0, 0x25FF)
    chars |= span(0x3000, 0x3003) | span(0x3008, 0x3011)  # CJK spaces and brackets
    chars |= span(0x3131, 0x318E)  # Hangul compatibility jamo (the Korean keyboard's keys)
    return chars


def po_strings(path: Path) -> Iterable[str]:
    """Every msgid and msgstr (all plural forms) of a .po file, obsolete entries aside."""
    current: list[str] = []
    for line in path.read_text("utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if current:
                yield "".join(current)
                current = []
            continue
        keyword, _, rest = line.partition(" ") if not line.startswith('"') else ("", "", line)
        if keyword:
            if current:
                yield "".join(current)
            current = []
        current.append(ast.literal_eval(rest))
    if current:
        yield "".join(current)


def catalog_chars(locales: Path = LOCALES) -> set[str]:
    chars: set[str] = set()
    for po in sorted(locales.glob("*/LC_MESSAGES/*.po")):
        for text in po_strings(po):
            chars.update(text)
    return chars


def code_chars(root: Path = ROOT) -> set[str]:
    """Every non-ASCII character written in the project's code (symbols the screens draw)."""
    chars: set[str] = set()
    for package in SOURCES:
        for path in sorted((root / package).rglob("*.py")):
            chars.update(c for c in path.read_text("utf-8") if ord(c) > 0x7E)
    return chars


def wanted_chars(all_hangul: bool = False) -> set[str]:
    """The characters to ship (``all_hangul``: all 11,172 Hangul syllables, not only KS X 1001's)."""
    hangul = span(0xAC00, 0xD7A3) if all_hangul else ks_x_1001_syllables()
    chars = fixed_ranges() | hangul | catalog_chars() | code_chars()
    return {c for c in chars if c.isprintable() or c == "\u00a0"}


def korean_face(source: Path, font_number: int | None) -> int | None:
    """The number of the Korean face in a collection (None: a single font)."""
    if font_number is not None or source.suffix.lower() not in (".ttc", ".otc"):
        return font_number
    tt_lib: Any = importlib.import_module("fontTools.ttLib")
    for number, font in enumerate(tt_lib.TTCollection(str(source)).fonts):
        family = str(font["name"].getDebugName(1))
        if family.endswith(" KR") and "Mono" not in family:
            return number
    raise SystemExit(f"{source.name}: no Korean face (Noto Sans CJK KR) in the collection")


def subset(target: Target, chars: set[str], out: Path) -> dict[str, str]:
    """Write one subset; what the README says about it."""
    sub: Any = importlib.import_module("fontTools.subset")
    options = sub.Options()
    options.font_number = target.font_number or 0
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_bounds = True
    font = sub.load_font(str(target.source), options)
    font.recalcTimestamp = False  # the same sources give the same bytes
    source_version = str(font["name"].getDebugName(5)).split(";")[0]
    family = str(font["name"].getDebugName(4))
    cmap = font.getBestCmap()
    kept = sorted(c for c in chars if ord(c) in cmap)
    subsetter = sub.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in kept])
    subsetter.subset(font)
    sub.save_font(font, str(out / target.name), options)
    return {"file": target.name, "from": target.source.name + (f" (face {target.font_number})" if target.font_number is not None else ""),
            "font": family, "version": source_version, "characters": str(len(kept)), "role": target.role,
            "size": f"{(out / target.name).stat().st_size / 1024:.0f} KiB"}


def readme(rows: Sequence[dict[str, str]]) -> str:
    lines = [
        "# Fonts shipped with the kiosk",
        "",
        "Subsets of Noto Sans and Noto Sans CJK KR, under the SIL Open Font License 1.1 (OFL.txt beside",
        "them). Made by `python -m kiosk.devtools.subset_fonts` (see docs/fonts.md); do not edit by hand.",
        "",
        "| File | Cut from | Font, version | Characters | Size | For |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {r['file']} | {r['from']} | {r['font']}, {r['version']} | {r['characters']} | {r['size']} | {r['role']} |"
              for r in rows]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.subset_fonts", description=__doc__.split("\n")[0])
    parser.add_argument("--latin", nargs=2, type=Path, required=True, metavar=("REGULAR", "BOLD"),
                        help="Noto Sans Regular and Bold (.ttf)")
    parser.add_argument("--cjk", nargs=2, type=Path, required=True, metavar=("REGULAR", "BOLD"),
                        help="Noto Sans CJK (.ttc, .otf) Regular and Bold")
    parser.add_argument("--cjk-number", type=int, default=None, help="the Korean face's number in a .ttc")
    parser.add_argument("--all-hangul", action="store_true",
                        help="all 11,172 Hangul syllables (about 3.3 MB more in all) instead of KS X 1001's 2,350")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder written (default: kiosk/assets/fonts)")
    args = parser.parse_args(argv)
    try:
        importlib.import_module("fontTools.subset")
    except ImportError:
        print("fontTools is needed: pip install fonttools (in a scratch environment)", file=sys.stderr)
        return 2
    chars = wanted_chars(args.all_hangul)
    args.out.mkdir(parents=True, exist_ok=True)
    targets = (
        Target(LATIN_REGULAR, args.latin[0], None, "Latin and Cyrillic, regular"),
        Target(LATIN_BOLD, args.latin[1], None, "Latin and Cyrillic, bold"),
        Target(CJK_REGULAR, args.cjk[0], korean_face(args.cjk[0], args.cjk_number), "Hangul, regular"),
        Target(CJK_BOLD, args.cjk[1], korean_face(args.cjk[1], args.cjk_number), "Hangul, bold"),
    )
    rows = [subset(target, chars, args.out) for target in targets]
    (args.out / "README.md").write_text(readme(rows), "utf-8")
    for row in rows:
        print(f"{row['file']}: {row['characters']} characters, {row['size']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
