"""Korean particles chosen for the word before them, and durations in each language's unit and decimal
separator (``kiosk.i18n.particles``, ``kiosk.i18n.duration``)."""

from __future__ import annotations

import pytest

from kiosk.i18n import T, duration, translator
from kiosk.i18n.particles import attach, final_of
from kiosk.store.stall import StallDetector

S = 1_000_000_000


@pytest.mark.parametrize(("written", "shown"), [
    ("김민준은(는)", "김민준은"), ("이서연은(는)", "이서연은"), ("민수이(가)", "민수가"), ("지훈을(를)", "지훈을"),
    ("하늘(으)로", "하늘로"), ("김민준(으)로", "김민준으로"), ("나래(으)로", "나래로"), ("민수와(과)", "민수와"),
    ("지훈와(과)", "지훈과"), ("서연(이)나", "서연이나"),
    # numbers as read: 1 일, 2 이, 3 삼, 4 사, 6 육, 10 십, 100 백, 1000 천, 10000 만, 0 영
    ("플레이어 1은(는)", "플레이어 1은"), ("플레이어 2은(는)", "플레이어 2는"), ("플레이어 2이(가)", "플레이어 2가"),
    ("3을(를)", "3을"), ("4을(를)", "4를"), ("6(으)로", "6으로"), ("7(으)로", "7로"), ("10이(가)", "10이"),
    ("20(으)로", "20으로"), ("100을(를)", "100을"), ("1000이(가)", "1000이"), ("15이(가)", "15가"), ("0이(가)", "0이"),
    ("2.5이(가)", "2.5가"), ("2.0이(가)", "2.0이"),
    # tiles are read by their last pip, brackets skipped
    ("[1|4](으)로", "[1|4]로"), ("[3|6](으)로", "[3|6]으로"), ("[2|5]은(는)", "[2|5]는"),
    # Latin and Cyrillic names by their last sound
    ("Anna이(가)", "Anna가"), ("Kim은(는)", "Kim은"), ("Paul(으)로", "Paul로"), ("Mark은(는)", "Mark는"),
    ("Jack을(를)", "Jack을"), ("Олена이(가)", "Олена가"), ("Роман은(는)", "Роман은"), ("USB을(를)", "USB를"),
    ("KTM을(를)", "KTM을"),
])
def test_a_particle_takes_the_form_of_the_word_before_it(written: str, shown: str) -> None:
    assert attach(written) == shown


def test_an_unreadable_word_keeps_the_double_form_and_other_text_is_left_alone() -> None:
    assert attach("★은(는)") == "★은(는)" and final_of("★") is None
    assert attach("(괄호) 안은 그대로") == "(괄호) 안은 그대로"
    assert attach("플레이어 2이(가) [3|6](으)로 시작합니다") == "플레이어 2가 [3|6]으로 시작합니다"


def test_the_korean_translator_fills_in_the_particle_for_a_name_and_for_a_number() -> None:
    ko = translator("ko")
    assert ko._("{player} must open with [{tile}]", player="김민준", tile="3|6") == "김민준은 [3|6]으로 시작해야 합니다"
    guest = T("Player {number}", number=2)
    assert ko._("{player} must open with [{tile}]", player=guest, tile="1|4") == "플레이어 2는 [1|4]로 시작해야 합니다"
    assert "(" not in ko._("{player} must open with [{tile}]", player="Anna", tile="5|5")
    assert translator("en")._("Player {number}", number="2은(는)") == "Player 2은(는)"  # only Korean is rewritten


def test_a_duration_is_shown_with_each_languages_unit_and_decimal_separator() -> None:
    short, long = duration(3_500_000_000), duration(12 * S)
    assert (short, long) == ("3.5 s", "12 s")  # the English, for logs and the engine's detail
    shown = {lang: (translator(lang)(short), translator(lang)(long)) for lang in ("en", "ko", "uk", "id")}
    assert shown == {"en": ("3.5 s", "12 s"), "ko": ("3.5초", "12초"), "uk": ("3,5 с", "12 с"),
                     "id": ("3,5 detik", "12 detik")}


def test_a_stall_reason_says_its_times_in_the_readers_language() -> None:
    d = StallDetector.from_seconds(2.0)
    d.beat(0, True)
    reason = d.beat(int(2.5 * S), True)
    assert reason is not None and str(reason) == \
        "the kiosk could not take commands for 2.5 s while a clock ran (the limit is 2.0 s)"
    uk = translator("uk")(reason)
    assert "2,5 с" in uk and "2,0 с" in uk and " s" not in uk
    ko = translator("ko")(reason)
    assert "2.5초" in ko and "2.0초" in ko
