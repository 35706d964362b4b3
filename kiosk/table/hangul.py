"""Hangul from the Korean 2-set (Dubeolsik) keyboard, without pygame: its keys, and typing them into
syllables by the Unicode algorithm (a syllable is ``0xAC00 + (L * 21 + V) * 28 + T``).

The keys are compatibility jamo (U+3131..U+3163), as on the keycaps. The text typed so far is the
whole state: a key joins the text's last character when it can, otherwise it is added after it.

- a consonant followed by a vowel makes a syllable (ㄱ + ㅏ = 가);
- a vowel joins the one before it when they make a compound vowel (ㅗ + ㅏ = ㅘ, 고 + ㅏ = 과);
- a consonant after a syllable becomes its final (가 + ㄱ = 각), a second consonant a compound
  final when they make one (각 + ㅅ = 갃);
- a vowel after a syllable with a final takes that final as its own initial (각 + ㅏ = 가가), or
  the second consonant of a compound final (갃 + ㅏ = 각사).

Backspace takes back the last jamo typed, not the whole syllable (과 → 고 → ㄱ; 가가 → 각): the
last character is taken apart into the jamo that made it and all but the last are typed again.
Typing a sequence of keys and pressing backspace is always the same as typing the sequence
without its last key.
"""

from __future__ import annotations

S_BASE = 0xAC00
"""The first syllable, 가."""
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
"""Initial consonants, vowels, finals (counting "no final")."""
N_COUNT = V_COUNT * T_COUNT
S_COUNT = L_COUNT * N_COUNT
"""11,172 syllables, 가 to 힣."""

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
"""The initial consonants (choseong) in Unicode order, as compatibility jamo."""
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
"""The vowels (jungseong) in Unicode order."""
FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ",
          "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
"""The finals (jongseong) in Unicode order; the first is "no final"."""

COMPOUND_VOWELS: dict[tuple[str, str], str] = {
    ("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ",
    ("ㅜ", "ㅓ"): "ㅝ", ("ㅜ", "ㅔ"): "ㅞ", ("ㅜ", "ㅣ"): "ㅟ",
    ("ㅡ", "ㅣ"): "ㅢ",
}
"""Two vowel keys that make one vowel."""
COMPOUND_FINALS: dict[tuple[str, str], str] = {
    ("ㄱ", "ㅅ"): "ㄳ", ("ㄴ", "ㅈ"): "ㄵ", ("ㄴ", "ㅎ"): "ㄶ",
    ("ㄹ", "ㄱ"): "ㄺ", ("ㄹ", "ㅁ"): "ㄻ", ("ㄹ", "ㅂ"): "ㄼ", ("ㄹ", "ㅅ"): "ㄽ", ("ㄹ", "ㅌ"): "ㄾ",
    ("ㄹ", "ㅍ"): "ㄿ", ("ㄹ", "ㅎ"): "ㅀ",
    ("ㅂ", "ㅅ"): "ㅄ",
}
"""Two consonant keys that make one final."""
_PARTS: dict[str, tuple[str, str]] = {v: k for k, v in (COMPOUND_VOWELS | COMPOUND_FINALS).items()}

ROWS = ("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅋㅌㅊㅍㅠㅜㅡ")
"""The Dubeolsik letter rows, top to bottom (as on a Korean keyboard's Q, A and Z rows)."""
SHIFTED = {"ㅂ": "ㅃ", "ㅈ": "ㅉ", "ㄷ": "ㄸ", "ㄱ": "ㄲ", "ㅅ": "ㅆ", "ㅐ": "ㅒ", "ㅔ": "ㅖ"}
"""The keys that Shift changes: the doubled consonants and ㅒ ㅖ."""
SHIFTED_ROWS = tuple("".join(SHIFTED.get(k, k) for k in row) for row in ROWS)
"""The letter rows with Shift held."""
KEYS = frozenset("".join(ROWS + SHIFTED_ROWS))
"""Every jamo the keyboard types: the 19 initials and the 14 simple vowels (no compound one)."""


def is_syllable(ch: str) -> bool:
    """Whether ``ch`` is one precomposed syllable (가..힣)."""
    return len(ch) == 1 and 0 <= ord(ch) - S_BASE < S_COUNT


def syllable(initial: str, vowel: str, final: str = "") -> str:
    """The syllable of an initial, a vowel and a final ("" none) given as compatibility jamo;
    ValueError when one of them cannot take its place."""
    if len(initial) != 1 or len(vowel) != 1 or initial not in INITIALS or vowel not in VOWELS or final not in FINALS:
        raise ValueError(f"no syllable of {initial!r} {vowel!r} {final!r}")
    index = (INITIALS.index(initial) * V_COUNT + VOWELS.index(vowel)) * T_COUNT + FINALS.index(final)
    return chr(S_BASE + index)


def parts(ch: str) -> tuple[str, str, str]:
    """A syllable's initial, vowel and final ("" none); ValueError when ``ch`` is not a syllable."""
    if not is_syllable(ch):
        raise ValueError(f"{ch!r} is not a Hangul syllable")
    index = ord(ch) - S_BASE
    return INITIALS[index // N_COUNT], VOWELS[index % N_COUNT // T_COUNT], FINALS[index % T_COUNT]


def _split(jamo: str) -> tuple[str, ...]:
    """A compound vowel or final as its two keys; anything else as itself ("" as nothing)."""
    return _PARTS.get(jamo, (jamo,) if jamo else ())


def keys_of(ch: str) -> tuple[str, ...]:
    """The keys that type ``ch``, in order: 과 → ㄱ ㅗ ㅏ, 갃 → ㄱ ㅏ ㄱ ㅅ, ㅘ → ㅗ ㅏ; any other character as itself."""
    if is_syllable(ch):
        initial, vowel, final = parts(ch)
        return (initial, *_split(vowel), *_split(final))
    return _split(ch)


def type_key(text: str, key: str) -> str:
    """``text`` after typing ``key``: a jamo joins the last character when it can, anything else is added."""
    last, head = text[-1:], text[:-1]
    if key in VOWELS:
        if is_syllable(last):
            initial, vowel, final = parts(last)
            if not final:
                compound = COMPOUND_VOWELS.get((vowel, key))
                return head + syllable(initial, compound) if compound else text + key
            kept, moved = _PARTS.get(final, ("", final))  # the final (or its second half) starts a new syllable
            return head + syllable(initial, vowel, kept) + syllable(moved, key)
        if last and last in INITIALS:
            return head + syllable(last, key)
        compound = COMPOUND_VOWELS.get((last, key))
        return head + compound if compound else text + key
    if key in INITIALS and is_syllable(last):
        initial, vowel, final = parts(last)
        if not final and key in FINALS:
            return head + syllable(initial, vowel, key)
        compound = COMPOUND_FINALS.get((final, key))
        if compound:
            return head + syllable(initial, vowel, compound)
    return text + key


def type_keys(text: str, keys: str | tuple[str, ...] | list[str]) -> str:
    """``text`` after typing each of ``keys`` in turn."""
    for key in keys:
        text = type_key(text, key)
    return text


def backspace(text: str) -> str:
    """``text`` without the last jamo typed (a syllable loses its last part), or without its last character."""
    if not text:
        return text
    return type_keys(text[:-1], keys_of(text[-1])[:-1])
