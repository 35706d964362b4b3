"""The on-screen keyboard's layouts, without pygame: Latin QWERTY (English, Indonesian), Ukrainian
ЙЦУКЕН and Korean 2-set (Dubeolsik, ``kiosk.table.hangul``).

Each layout is rows of keys, a row of digits first. The keyboard adds its own keys around them:
Shift first in the last row, backspace last in the one above it. In a layout with capitals Shift
changes the case of the next letter (a letter at the start or after a space or hyphen is a capital
by itself); in the Korean layout it gives the doubled consonants and ㅒ ㅖ for the next key.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.table import hangul


@dataclass(frozen=True, slots=True)
class Layout:
    """One keyboard layout."""

    name: str
    """"latin", "cyrillic" or "hangul"."""
    label: str
    """What the key that switches to this layout shows, in its own script."""
    rows: tuple[str, ...]
    """The keys, row by row (capitals for a layout with case)."""
    shifted: tuple[str, ...] | None = None
    """The rows while Shift is on, for a layout whose Shift is not a case (None: it is the case)."""

    @property
    def cased(self) -> bool:
        """Whether the layout's letters have capitals (then Shift is the case of the next letter)."""
        return self.shifted is None

    def keys(self, shift: bool) -> tuple[str, ...]:
        """The rows as shown: with ``shift`` on, a Korean keyboard's shifted rows."""
        return self.shifted if shift and self.shifted is not None else self.rows

    @property
    def columns(self) -> int:
        """The keys across the widest row, with Shift and backspace."""
        extra = {len(self.rows) - 2: 1, len(self.rows) - 1: 1}
        return max(len(row) + extra.get(i, 0) for i, row in enumerate(self.rows))


DIGITS = "1234567890"

LAYOUTS: dict[str, Layout] = {
    "latin": Layout("latin", "ABC", (DIGITS, "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM-'")),
    "cyrillic": Layout("cyrillic", "АБВ", (DIGITS, "ЙЦУКЕНГШЩЗХЇ", "ФІВАПРОЛДЖЄ", "ЯЧСМИТЬБЮҐ'-")),
    "hangul": Layout("hangul", "한글", (DIGITS, *hangul.ROWS), (DIGITS, *hangul.SHIFTED_ROWS)),
}
ORDER = ("latin", "cyrillic", "hangul")
"""The layout key's order: it shows the next layout, and the last one's key shows the first."""
FOR_LANGUAGE = {"en": "latin", "id": "latin", "uk": "cyrillic", "ko": "hangul"}


def for_language(language: str) -> str:
    """The layout a player reading ``language`` starts with (Latin for an unknown one)."""
    return FOR_LANGUAGE.get(language, "latin")


def layout(name: str) -> Layout:
    """The layout called ``name`` (Latin for an unknown name)."""
    return LAYOUTS.get(name, LAYOUTS["latin"])


def next_layout(name: str) -> str:
    """The layout after ``name`` in ``ORDER`` (round to the first)."""
    at = ORDER.index(name) if name in ORDER else -1
    return ORDER[(at + 1) % len(ORDER)]
