"""Korean particles chosen for the word they follow: 은/는, 이/가, 을/를, 과/와, 으로/로, (이)나, (이)라.

A Korean catalog writes a particle after a placeholder in its double form, ``{player}이(가)``,
``[{tile}](으)로``; ``attach`` replaces each double form by the one that fits the word before it, so
that "김민준이", "플레이어 2가", "[1|4]로" are shown, never "이(가)". The rule is the last sound of that
word (docs/i18n.md, "Korean particles"):

- a Hangul syllable: its final consonant (batchim) or none; ㄹ is a final, but takes 로 not 으로;
- a number, as it is read in Sino-Korean: the last digit (1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a
  consonant, 2 이, 4 사, 5 오, 9 구 do not; 7, 8 and 1 end in ㄹ), and for round numbers the unit
  (10 십, 100 백, 1000 천, 10000 만); 0 alone or after a decimal point is 영;
- a Latin or Cyrillic word, as Korean writes its last sound: a last m, n, ng, ck (м, н) is a final
  consonant (Kim 킴, Jack 잭), a last l (л) is ㄹ (Paul 폴); a vowel or any other consonant is none,
  as Korean writes it with ㅡ or a vowel (Mark 마크, David 데이비드, Olena 올레나). An all-capital word
  of two or more letters is read letter by letter: L 엘, M 엠, N 엔, R 알 end in a consonant, the
  other letters' names (에이, 비, 에스, ...) do not (USB 유에스비);
- closing brackets, quotes and spaces are skipped (``[1|4]`` is read by its 4); a word the rule
  cannot read (another script, a symbol) keeps the double form.
"""

from __future__ import annotations

import re

S_BASE, S_COUNT, T_COUNT = 0xAC00, 11172, 28
FINAL_JAMO: tuple[str, ...] = ("", *"ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")
"""The 28 finals of a syllable in Unicode order ("" none)."""

DOUBLE = re.compile(r"은\(는\)|는\(은\)|이\(가\)|가\(이\)|을\(를\)|를\(을\)|과\(와\)|와\(과\)|\(으\)로|으로\(로\)|로\(으로\)"
                    r"|\(이\)나|\(이\)라")
"""The double forms replaced, as a catalog may write them."""
FORMS: dict[str, tuple[str, str, str]] = {
    "은(는)": ("은", "는", "은"), "는(은)": ("은", "는", "은"),
    "이(가)": ("이", "가", "이"), "가(이)": ("이", "가", "이"),
    "을(를)": ("을", "를", "을"), "를(을)": ("을", "를", "을"),
    "과(와)": ("과", "와", "과"), "와(과)": ("과", "와", "과"),
    "(으)로": ("으로", "로", "로"), "으로(로)": ("으로", "로", "로"), "로(으로)": ("으로", "로", "로"),
    "(이)나": ("이나", "나", "이나"), "(이)라": ("이라", "라", "이라"),
}
"""Each double form's particle after a final consonant, after none, and after ㄹ."""

SKIPPED = " )]}'\"»”’>"
DIGITS = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ", "9": ""}
"""The final consonant of each digit's Sino-Korean reading (영 일 이 삼 사 오 육 칠 팔 구)."""
UNITS = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ"}
"""The final of a round number's unit by its count of zeros: 십, 백, 천; four or more end in 만 (ㄴ)."""
LETTER_NAMES = {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}
"""The letters whose Korean names end in a consonant (엘, 엠, 엔, 알); the others (에이, 비, 에스, ...) do not."""
LATIN_FINALS = (("ng", "ㅇ"), ("ck", "ㄱ"), ("m", "ㅁ"), ("n", "ㄴ"), ("l", "ㄹ"), ("м", "ㅁ"), ("н", "ㄴ"), ("л", "ㄹ"))
"""The last letters of a Latin or Cyrillic word that Korean writes as a final consonant."""
WORD = re.compile(r"[A-Za-zÀ-ɏЀ-ӿ]+$")
NUMBER = re.compile(r"(\d+)(?:\.(\d+))?$")


def final_of(text: str) -> str | None:
    """The final consonant of the last sound of ``text`` ("" none, "ㄹ", another jamo), or None when
    the rule cannot read it."""
    text = text.rstrip(SKIPPED)
    if not text:
        return None
    last = text[-1]
    index = ord(last) - S_BASE
    if 0 <= index < S_COUNT:
        final = index % T_COUNT
        return FINAL_JAMO[final]
    number = NUMBER.search(text)
    if number is not None:
        whole, decimals = number.groups()
        digits = decimals if decimals is not None else whole
        if digits[-1] != "0" or decimals is not None or whole == "0" or set(whole) == {"0"}:
            return DIGITS[digits[-1]]
        zeros = len(whole) - len(whole.rstrip("0"))
        return UNITS.get(zeros, "ㄴ")
    word = WORD.search(text)
    if word is None:
        return None
    letters = word.group()
    if len(letters) > 1 and letters.isupper() and letters.isascii():
        return LETTER_NAMES.get(letters[-1], "")
    lower = letters.lower()
    return next((final for ending, final in LATIN_FINALS if lower.endswith(ending)), "")


def attach(text: str) -> str:
    """``text`` with each double particle replaced by the one its word takes (kept when the word is unreadable)."""
    if "(" not in text:
        return text
    out: list[str] = []
    start = 0
    for m in DOUBLE.finditer(text):
        before = "".join(out) + text[start:m.start()]
        final = final_of(before)
        after_final, after_vowel, after_rieul = FORMS[m.group()]
        chosen = m.group() if final is None else after_vowel if final == "" else after_rieul if final == "ㄹ" \
            else after_final
        out.append(text[start:m.start()] + chosen)
        start = m.end()
    out.append(text[start:])
    return "".join(out)
