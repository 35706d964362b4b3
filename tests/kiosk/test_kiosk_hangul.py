"""Hangul typed on the 2-set keyboard (kiosk.table.hangul): syllables by the Unicode algorithm,
checked against the Unicode character database; compound vowels and finals, a final moving on,
backspace one jamo at a time; round trips over random key sequences and random Korean text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.table import hangul
from kiosk.table.hangul import backspace, keys_of, parts, syllable, type_key, type_keys

ALL_SYLLABLES = [chr(c) for c in range(0xAC00, 0xD7A4)]


def letter(conjoining: str) -> str:
    """The compatibility jamo with the same name as a conjoining jamo (from the UCD, not our tables)."""
    name = unicodedata.name(conjoining)
    for part in ("CHOSEONG", "JUNGSEONG", "JONGSEONG"):
        name = name.replace(part, "LETTER")
    return unicodedata.lookup(name)


def test_every_syllable_is_taken_apart_and_made_as_the_unicode_database_says() -> None:
    assert len(ALL_SYLLABLES) == hangul.S_COUNT == 11172
    for ch in ALL_SYLLABLES:
        expected = tuple(letter(c) for c in unicodedata.normalize("NFD", ch))
        got = parts(ch)
        assert tuple(p for p in got if p) == expected, ch
        assert syllable(*got) == ch


def test_the_tables_are_in_unicode_order_and_compound_finals_are_named_by_their_halves() -> None:
    assert [letter(chr(0x1100 + i)) for i in range(19)] == list(hangul.INITIALS)
    assert [letter(chr(0x1161 + i)) for i in range(21)] == list(hangul.VOWELS)
    assert [letter(chr(0x11A8 + i)) for i in range(27)] == list(hangul.FINALS[1:])
    for (first, second), compound in hangul.COMPOUND_FINALS.items():  # KIYEOK-SIOS is KIYEOK then SIOS
        halves = unicodedata.name(compound).removeprefix("HANGUL LETTER ").split("-")
        assert [unicodedata.lookup(f"HANGUL LETTER {h}") for h in halves] == [first, second]


def test_the_dubeolsik_keys() -> None:
    assert hangul.ROWS == ("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅋㅌㅊㅍㅠㅜㅡ")
    assert [len(r) for r in hangul.ROWS] == [10, 9, 7]
    assert hangul.SHIFTED_ROWS[0] == "ㅃㅉㄸㄲㅆㅛㅕㅑㅒㅖ" and hangul.SHIFTED_ROWS[1:] == hangul.ROWS[1:]
    simple_vowels = {v for v in hangul.VOWELS if v not in hangul.COMPOUND_VOWELS.values()}
    assert set(hangul.INITIALS) | simple_vowels == hangul.KEYS  # 19 consonants + 14 vowels, each on one key
    assert len(hangul.KEYS) == 33


@pytest.mark.parametrize(("keys", "text"), [
    ("ㄱㅏ", "가"),
    ("ㄱㅏㄱ", "각"),
    ("ㄱㅏㄱㅏ", "가가"),  # the final moves on
    ("ㄱㅏㄱㅅ", "갃"),
    ("ㄱㅏㄱㅅㅏ", "각사"),  # a compound final splits
    ("ㄷㅏㄹㄱㅇㅣ", "닭이"),
    ("ㄷㅏㄹㄱㅣ", "달기"),
    ("ㅇㅓㅂㅅㅓ", "업서"),
    ("ㄱㅗㅏ", "과"), ("ㅇㅗㅐ", "왜"), ("ㅇㅗㅣ", "외"), ("ㅇㅜㅓ", "워"), ("ㅇㅜㅔ", "웨"), ("ㅇㅜㅣ", "위"),
    ("ㅇㅡㅣ", "의"),
    ("ㄱㅗㄱㅏ", "고가"),  # a vowel after a final takes the final, never a compound vowel
    ("ㅎㅏㄴㄱㅜㄱㅇㅓ", "한국어"),
    ("ㄷㅐㅎㅏㄴㅁㅣㄴㄱㅜㄱ", "대한민국"),
    ("ㅊㅗㅣㅇㅖㄹㅣㄴ", "최예린"),
    ("ㅃㅏㄹㄹㅣ", "빨리"),
    ("ㄸㅜㅣㅇㅓ", "뛰어"),
    ("ㄱㅏㅆㅓ", "가써"),
    ("ㄱㅏㄸ", "가ㄸ"),  # ㄸ is never a final
    ("ㄱㅏㄸㅏ", "가따"),
    ("ㅏㄱ", "ㅏㄱ"),  # a lone vowel takes no consonant
    ("ㅗㅏ", "ㅘ"),
    ("ㄱㄴ", "ㄱㄴ"),
    ("ㄱㅏㄱㅅㅅ", "갃ㅅ"),
    ("ㄱㅏㄹㄱㅅ", "갉ㅅ"),
    ("ㄱㅏ ㄱ", "가 ㄱ"),  # a space ends the syllable
    ("Kimㄱㅏ", "Kim가"),
])
def test_typing(keys: str, text: str) -> None:
    assert type_keys("", keys) == text
    assert "".join("".join(keys_of(c)) for c in text) == keys


@pytest.mark.parametrize(("text", "steps"), [
    ("닭", ["달", "다", "ㄷ", ""]),
    ("과", ["고", "ㄱ", ""]),
    ("가가", ["각", "가", "ㄱ", ""]),  # the moved final goes back
    ("각사", ["갃", "각", "가", "ㄱ", ""]),
    ("최예린", ["최예리", "최옐", "최예", "쵱", "최", "초", "ㅊ", ""]),
    ("Kim김", ["Kim기", "Kimㄱ", "Kim", "Ki"]),
    ("ㅘ", ["ㅗ", ""]),
])
def test_backspace_takes_back_one_jamo(text: str, steps: list[str]) -> None:
    seen = []
    for _ in steps:
        text = backspace(text)
        seen.append(text)
    assert seen == steps
    assert backspace("") == ""


def test_a_syllable_pasted_in_another_form_is_taken_apart_too() -> None:
    pasted = unicodedata.normalize("NFC", "\u1100\u1161\u11a8")  # conjoining jamo, as some systems send them
    assert pasted == "각" and backspace(pasted) == "가"


def test_syllable_refuses_what_cannot_be_a_syllable() -> None:
    for args in (("ㄸ", "ㅏ", "ㄸ"), ("ㅏ", "ㅏ"), ("ㄱ", "ㄱ"), ("", "ㅏ"), ("ㄱㄲ", "ㅏ"), ("ㄱ", "")):
        with pytest.raises(ValueError):
            syllable(*args)
    with pytest.raises(ValueError):
        parts("A")


KEYS = st.sampled_from([*sorted(hangul.KEYS), " ", "a", "-"])


@given(st.lists(KEYS, max_size=30))
def test_backspace_undoes_the_last_key(keys: list[str]) -> None:
    text = type_keys("", keys)
    for n in range(len(keys), 0, -1):
        text = backspace(text)
        assert text == type_keys("", keys[:n - 1])
    assert text == ""


@given(st.lists(KEYS, max_size=30))
def test_the_text_remembers_its_keys(keys: list[str]) -> None:
    text = type_keys("", keys)
    assert [k for c in text for k in keys_of(c)] == keys
    assert unicodedata.is_normalized("NFC", text) and len(text) <= len(keys)


@given(st.lists(st.sampled_from(ALL_SYLLABLES) | st.just(" "), max_size=12))
def test_any_korean_text_can_be_typed(text: list[str]) -> None:
    word = "".join(text)
    keys = [k for c in word for k in keys_of(c)]
    assert set(keys) <= hangul.KEYS | {" "}
    assert type_keys("", keys) == word


@given(st.text(st.sampled_from(ALL_SYLLABLES[:600] + list("ㄱㅏㅘㄳ aZ")), max_size=8), KEYS)
def test_a_key_changes_only_the_end(text: str, key: str) -> None:
    typed = type_key(text, key)
    assert typed[:max(0, len(text) - 1)] == text[:-1]
