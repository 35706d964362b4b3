"""The on-screen keyboard in the kiosk, headless at 800 x 480: Korean, Ukrainian and Latin names
typed by posted clicks on the keys (real SQLite, fake clock), the layout the keyboard opens in and
its layout key, and every layout's keys: at least 48 px on their short side, text at least 16 px,
nothing overlapping, clear of the owner's hold square, in both orientations and for both seats."""

from __future__ import annotations

import os
import unicodedata

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import draw_recorded, intents_on_screen, open_app, spot_for, tap

from engine import NS_PER_S
from kiosk.app import App
from kiosk.store.journal import Journal
from kiosk.store.players import NAME_MAX, Players
from kiosk.table import hangul, layouts
from kiosk.table import intents as do
from kiosk.timesource import FakeClock
from kiosk.ui.scenes.keyboard import MIN_KEY, Keyboard

S = NS_PER_S
LANGUAGE = {"latin": "en", "cyrillic": "uk", "hangul": "ko"}


@pytest.fixture
def app(journal: Journal) -> App:
    kiosk = open_app(journal, FakeClock(10 * S))
    kiosk.step(wait=False)
    tap(kiosk, do.NewMatch())
    return kiosk


def open_keyboard(app: App, seat: int, language: str) -> None:
    """The seat's player reads ``language`` (their panel's language button) and opens the keyboard."""
    while app.ui.player_language(seat) != language:
        tap(app, do.PlayerLanguage(seat))
    tap(app, do.OpenPicker(seat))
    tap(app, do.NewPlayer(seat))


def type_jamo(app: App, keys: str) -> None:
    """Tap the 2-set keys, Shift first for a doubled consonant or ㅒ ㅖ."""
    for key in keys:
        if key in hangul.SHIFTED.values():
            tap(app, do.Shift())
        tap(app, do.Key(key))


def type_letters(app: App, name: str) -> None:
    """Tap the keys of a Latin or Cyrillic name (the keys carry capitals; the case is the keyboard's)."""
    for ch in name:
        tap(app, do.Key(ch.upper()))


def key_spots(app: App) -> list[tuple[pygame.Rect, do.Intent]]:
    return [(spot.rect, spot.intent) for spot in app.hotspots if isinstance(spot.intent, Keyboard.offers)]


def test_a_korean_name_is_typed_in_jamo_and_the_player_is_stored(app: App, journal: Journal) -> None:
    open_keyboard(app, 1, "ko")  # player 2: turned toward them in table mode
    assert app.ui.records.layout == "hangul"
    type_jamo(app, "ㄱㅣㅁ")
    assert app.ui.records.typing == "김"
    tap(app, do.Backspace())  # one jamo, not the syllable
    assert app.ui.records.typing == "기"
    type_jamo(app, "ㅁ ㅊㅗㅣㅇ")
    assert app.ui.records.typing == "김 쵱"
    type_jamo(app, "ㅖ")  # Shift ㅔ: the ㅇ moves on to the new syllable
    assert app.ui.records.typing == "김 최예" and not app.ui.records.upper
    type_jamo(app, "ㄹㅣㄴ")
    tap(app, do.ConfirmName())
    player = Players(journal).find("김 최예린")
    assert player is not None and player.name == "김 최예린"
    assert app.ui.records.chosen[1] == player and app.ui.records.typing is None
    assert Players(journal).find(unicodedata.normalize("NFD", "김 최예린")) == player  # conjoining jamo: the same


def test_a_ukrainian_name_is_typed_with_capitals_and_an_apostrophe(app: App, journal: Journal) -> None:
    open_keyboard(app, 0, "uk")
    assert app.ui.records.layout == "cyrillic"
    assert spot_for(app, do.Key("Ґ")) is not None and spot_for(app, do.Key("Q")) is None
    type_letters(app, "мар'яна ґончаренко")
    assert app.ui.records.typing == "Мар'яна Ґончаренко"  # a capital first and after the space
    tap(app, do.ConfirmName())
    player = Players(journal).find("Мар'яна Ґончаренко")
    assert player is not None and app.ui.records.chosen[0] == player


def test_a_name_taken_in_another_case_is_refused_in_any_script(app: App, journal: Journal) -> None:
    Players(journal).create("олена")
    open_keyboard(app, 0, "uk")
    type_letters(app, "олена")
    assert app.ui.records.typing == "Олена"
    tap(app, do.ConfirmName())
    assert "taken" in app.ui.records.error and app.ui.records.typing == "Олена"
    assert [p.name for p in Players(journal).list()] == ["олена"]


def test_the_layout_key_cycles_the_three_layouts(app: App) -> None:
    open_keyboard(app, 0, "id")
    assert app.ui.records.layout == "latin"
    seen = []
    for _ in layouts.ORDER:
        following = layouts.next_layout(app.ui.records.layout)
        assert intents_on_screen(app, do.KeyboardLayout) == [do.KeyboardLayout(following)]
        tap(app, do.KeyboardLayout(following))
        seen.append(app.ui.records.layout)
    assert seen == ["cyrillic", "hangul", "latin"]


def test_shift_on_the_korean_layout_gives_the_doubled_consonants_once(app: App) -> None:
    open_keyboard(app, 0, "ko")
    assert spot_for(app, do.Key("ㄲ")) is None and spot_for(app, do.Key("ㄱ")) is not None
    tap(app, do.Shift())
    shifted = set(intents_on_screen(app, do.Key))
    assert {do.Key(k) for k in "ㅃㅉㄸㄲㅆㅒㅖ"} <= shifted and do.Key("ㄱ") not in shifted
    tap(app, do.Key("ㄲ"))
    assert app.ui.records.typing == "ㄲ" and spot_for(app, do.Key("ㄱ")) is not None  # Shift is off again
    tap(app, do.Key("ㅗ"))
    assert app.ui.records.typing == "꼬"  # no capital rule in Hangul


def test_a_hangul_name_stops_at_the_longest_name(app: App) -> None:
    open_keyboard(app, 0, "ko")
    for _ in range(NAME_MAX):
        type_jamo(app, "ㄱㅏ")
    assert app.ui.records.typing == "가" * NAME_MAX
    type_jamo(app, "ㄴ")  # a final joins the last syllable: still NAME_MAX characters
    assert app.ui.records.typing == "가" * (NAME_MAX - 1) + "간"
    type_jamo(app, "ㅏ")  # the final would start a new syllable: one too many
    assert app.ui.records.typing == "가" * (NAME_MAX - 1) + "간"


@pytest.mark.parametrize("orientation", ["table", "upright"])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", list(layouts.ORDER))
def test_every_key_is_large_and_every_text_readable(journal: Journal, orientation: str, seat: int,
                                                    name: str) -> None:
    clock = FakeClock(10 * S)
    app = open_app(journal, clock, orientation)
    app.step(wait=False)
    tap(app, do.NewMatch())
    open_keyboard(app, seat, LANGUAGE[name])
    assert app.ui.records.layout == name
    tap(app, do.Key("1"))  # something typed: OK is on
    lay = layouts.layout(name)
    for shift in (False, True):
        if shift:
            tap(app, do.Shift())
        spots = key_spots(app)
        screen = pygame.Rect(0, 0, 800, 480)
        hold = app.stage.regions.admin_area
        for i, (rect, intent) in enumerate(spots):
            assert min(rect.size) >= MIN_KEY, (intent, rect)
            assert screen.contains(rect) and not rect.colliderect(hold), (intent, rect)
            assert all(not rect.colliderect(other) for other, _ in spots[i + 1:]), intent
        typed = {intent.ch for _, intent in spots if isinstance(intent, do.Key)}
        expected = {c.upper() for c in "".join(lay.keys(shift))} if lay.cased else set("".join(lay.keys(shift)))
        assert typed == expected | {" "}
        kinds = {type(intent) for _, intent in spots}
        assert kinds == set(Keyboard.offers) - {do.JoinNamed}  # OK is JoinNamed only in a join's picker
        if seat == 1 and orientation == "table":  # turned toward player 2: the OK key is at the top
            ok = spot_for(app, do.ConfirmName())
            assert ok is not None and ok.rect.top < 240
        fits = draw_recorded(app, clock)
        assert fits and all(f.fits and f.used >= 16 for f in fits), [f for f in fits if f.used < 16]
