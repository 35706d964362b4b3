"""The kiosk's languages: catalogs, the compiler and loader, deferred texts, fonts, and texts that fit."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from kiosk_support import draw_recorded, kiosk_app, playing

from engine import NS_PER_S, Decline, IllegalAction, Start
from engine.errors import BAD_AMOUNT, MATCH_OVER, NOT_YOUR_TURN, WRONG_PHASE
from kiosk import i18n
from kiosk.app import App
from kiosk.config import MatchSettings
from kiosk.devtools.screenshots import scenes
from kiosk.i18n import catalogs
from kiosk.table import intents as do
from kiosk.table.session import GameSession, refusal_text
from kiosk.table.state import UiState
from kiosk.timesource import FakeClock
from kiosk.ui import fonts, theme
from kiosk.ui.help import figure_captions
from kiosk.ui.help_text import FIGURES, SECTIONS, Para

S = NS_PER_S
HANGUL = re.compile(r"[\uac00-\ud7a3]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


# -- catalogs -------------------------------------------------------------------------------------


def test_no_text_is_written_into_the_screens_without_the_catalogs() -> None:
    """Every string literal drawn by the screens (``kiosk/ui``) is a message id, a number or a symbol."""
    ui = Path(i18n.__file__).parent.parent / "ui"
    source = "\n".join(path.read_text("utf-8") for path in sorted(ui.rglob("*.py")))
    assert "def draw" in source
    for call in re.findall(r"\b(?:text|draw_button|text_or_wrap|button)\([^()]*?,\s*(\"[^\"]*\"|f\"[^\"]*\")", source):
        assert re.fullmatch(r"f?\"[-+0-9{}.\[\]a-z_ ]*\"", call) and not re.search(r"[A-Z]", call), call


def test_ukrainian_has_three_plural_forms_korean_and_indonesian_one() -> None:
    uk, ko, id_ = i18n.translator("uk"), i18n.translator("ko"), i18n.translator("id")
    forms = {n: uk.n_("{player} scores {n}", "{player} scores {n}", n, player="Олена") for n in (1, 2, 5, 11, 21, 22, 25)}
    assert forms[1].endswith("1 бал") and forms[21].endswith("21 бал")
    assert forms[2].endswith("2 бали") and forms[22].endswith("22 бали")
    assert forms[5].endswith("5 балів") and forms[11].endswith("11 балів") and forms[25].endswith("25 балів")
    assert ko.n_("{n} pip left in hand", "{n} pips left in hand", 1) == "보유 눈값 합계 1"
    assert id_.n_("{n} pip left in hand", "{n} pips left in hand", 7) == "sisa 7 titik di tangan"
    en = i18n.translator("en")
    assert en.n_("{n} pip left in hand", "{n} pips left in hand", 1) == "1 pip left in hand"
    assert en.n_("{n} pip left in hand", "{n} pips left in hand", 2) == "2 pips left in hand"


# -- texts made now, shown later ----------------------------------------------------------------


def test_deferred_texts_are_english_strings_that_translate_later() -> None:
    message = i18n.T("{player} cannot play and passes", player=i18n.T("Player {number}", number=2))
    assert message == "Player 2 cannot play and passes" and isinstance(message, str)
    assert i18n.translator("ko")(message) == "플레이어 2는 놓을 타일이 없어 차례를 넘깁니다"  # 2 is read 이: 는
    assert i18n.translator("uk")(message) == "Гравець 2 не може зіграти й пропускає хід"
    score = i18n.TN("{player} scores {n}", "{player} scores {n}", 15, player=i18n.T("Player {number}", number=1))
    assert score == "Player 1 scores 15" and i18n.translator("uk")(score) == "Гравець 1 отримує 15 балів"
    assert i18n.translator("id")("plain text") == "plain text"


def test_engine_refusals_keep_their_english_and_translate() -> None:
    session = GameSession(MatchSettings(handover=False), random.Random(1))
    session.command(Start(None), 1 * S)
    m = session.match
    other = 1 - (m.to_act or 0)
    assert not session.command(Decline(other), 2 * S)
    refused = session.messages[-1]
    assert refused.text == "That is not possible now: the match is in its play phase."  # a decline in play
    assert isinstance(refused.text, i18n.Text)
    assert refused.text.msgid == WRONG_PHASE and refused.text.params["phase"] == "play"
    assert i18n.translator("ko")(refused.text) != refused.text
    other_turn = refusal_text(IllegalAction(NOT_YOUR_TURN))
    assert other_turn == "It is the other player's turn." and i18n.translator("id")(other_turn) != other_turn
    bid = refusal_text(IllegalAction(BAD_AMOUNT, least=15, amount=12))
    assert bid.msgid == BAD_AMOUNT and bid == "Bids are multiples of 5 and the smallest bid now is 15, not 12."
    over = refusal_text(IllegalAction(MATCH_OVER, reason="time"))  # the end reason in words, translated
    assert over == "The match is over (time ran out)."
    assert i18n.translator("uk")(over) == "Матч завершено (закінчився час)."
    phase = refusal_text(IllegalAction(WRONG_PHASE, phase="handover"))
    assert phase == "That is not possible now: the match is in its hand-over phase."


def test_help_is_complete_in_every_language_and_its_figures_score_as_the_seeds_say() -> None:
    headings = [s.heading for s in SECTIONS]
    assert len(headings) == 10
    counts = [figure_captions(f, i18n.translator("en"))[1] for f in FIGURES]
    assert counts == ["4 + 1 = 5: scores 5", "2 + 4 = 6: no score", "3 + 12 = 15: scores 15", "0 = 0: no score",
                      "4 = 4: no score", "2 + 3 = 5: scores 5"]
    chain = FIGURES[-1].layout()
    assert {str(p) for p, _ in chain.open_points()} >= {"1|1 branchA", "1|1 branchB"}
    for language in i18n.LANGUAGES[1:]:
        t = i18n.translator(language)
        for section in SECTIONS:
            assert t.lookup(section.heading) != section.heading
            for block in section.blocks:
                if isinstance(block, Para):
                    assert t.lookup(block.msgid) != block.msgid


# -- fonts ----------------------------------------------------------------------------------------


def test_fonts_cover_every_character_of_every_translation() -> None:
    """Korean and Ukrainian render real glyphs: the chosen font has every character."""
    found = fonts.discover()
    assert not found.warnings, f"the shipped fonts (kiosk/assets/fonts) are missing or damaged ({found.warnings})"
    for language in i18n.LANGUAGES:
        for msgid, value in catalogs.iter_translations(language):
            face = fonts.face_for(value)
            assert face.regular is not None and fonts.has_glyphs(face.regular, value), (language, msgid, value, face)
            if HANGUL.search(value):
                assert face.script == "Hangul"
            if CYRILLIC.search(value):
                assert face.script == "Latin and Cyrillic"
    for name in i18n.NATIVE_NAMES.values():
        assert fonts.has_glyphs(fonts.face_for(name).regular, name)


def test_rendered_korean_and_ukrainian_are_not_missing_glyph_boxes() -> None:
    pygame.font.init()
    ukrainian = "Гравець 1 (жокей) — Ґґ Її Єє"
    metrics = theme.font(30, False, ukrainian).metrics(ukrainian)
    assert all(m is not None for m in metrics)
    widths = {m[4] for ch, m in zip(ukrainian, metrics, strict=True) if m is not None and not ch.isspace()}
    assert len(widths) > 1  # missing glyphs would all share one box width
    korean = "플레이어 1"  # Hangul syllables share one width anyway: ask the face for each glyph
    face = fonts.face_for(korean)
    assert face.script == "Hangul" and face.regular is not None and fonts.has_glyphs(face.regular, korean)
    assert all(m is not None for m in theme.font(30, False, korean).metrics(korean))


def test_missing_fonts_give_a_clear_warning_and_the_built_in_font(tmp_path: Path) -> None:
    found = fonts.discover([tmp_path], use_fontconfig=False)
    assert found.faces == (fonts.BUILTIN,)
    assert any("fonts-noto-core" in w for w in found.warnings)
    assert any("fonts-noto-cjk" in w and "Korean" in w for w in found.warnings)
    assert i18n.translator("ko")(found.warnings[1]).startswith("한글 글꼴이 없습니다")


# -- every screen, every language, 800 x 480 ----------------------------------------------------------


def _app(language: str, orientation: str, size: tuple[int, int] = (800, 480)) -> tuple[App, FakeClock]:
    app, clock = kiosk_app(orientation=orientation, language=language, size=size, start_s=5, seed=7, simulator=True)
    app.ui.language = language  # the same as the configuration (works before app.py passes it on)
    app.controller.refresh_texts()
    return app, clock


def _every_scene(language: str, orientation: str) -> Iterator[tuple[str, list[theme.Fit]]]:
    app, clock = _app(language, orientation)
    for name, arrange in scenes(app, clock).items():
        app.controller.flight = None
        app.ui.player_languages = [None, None]
        arrange()
        clock.advance(0.5)
        yield name, draw_recorded(app, clock)
        if app.ui.help_open:
            for page in range(1, app.stage.help_pages()):
                app.do(do.HelpPage(page), clock.now())
                yield f"{name} page {page + 1}", draw_recorded(app, clock)


DEFAULT_FIT = ("uk", "table")
"""The one language and orientation of the fit test that ``make test`` runs (long Cyrillic words);
the other seven are marked slow (``make test-slow``)."""


@pytest.mark.parametrize(("language", "orientation"), [
    pytest.param(language, orientation, marks=() if (language, orientation) == DEFAULT_FIT else pytest.mark.slow)
    for language in i18n.LANGUAGES for orientation in ("table", "upright")])
def test_every_text_fits_its_box_at_800x480(language: str, orientation: str) -> None:
    problems = []
    seen = 0
    scripts = set()
    for name, fits in _every_scene(language, orientation):
        assert fits, f"{name}: nothing drawn"
        for fit in fits:
            seen += 1
            scripts |= {"hangul"} if HANGUL.search(fit.text) else set()
            scripts |= {"cyrillic"} if CYRILLIC.search(fit.text) else set()
            if not fit.fits or fit.used < theme.MIN_READABLE:
                problems.append(f"{name}: {fit.kind} {fit.text!r} in {fit.box} asked {fit.asked} used {fit.used} "
                                f"width {fit.width}")
    assert not problems, "\n".join(problems[:40])
    assert seen > 1000
    assert {"ko": "hangul", "uk": "cyrillic"}.get(language, "hangul") in scripts  # the home's language buttons


def test_each_player_reads_their_own_language() -> None:
    app, clock = _app("en", "table")
    app.controller.new_match()
    ui = app.ui
    app.do(do.PlayerLanguage(1), clock.now())  # player 2 (top): English -> Korean
    assert ui.player_language(1) == "ko" and ui.player_language(0) == "en"
    texts = {f.text for f in draw_recorded(app, clock)}
    assert {"Start", "시작", "Player 1", "플레이어 2", "Round 1"} <= texts
    assert "한국어" in texts and "English" in texts  # each player's language button shows their language
    playing(app).command(Start(None), clock.advance(1))
    playing(app).say(i18n.T("Tiles are played on the screen."), clock.now(), 1)
    texts = {f.text for f in draw_recorded(app, clock)}
    assert "플레이어 2: 타일은 화면에서 놓습니다." in texts
    for _ in range(3):
        ui.next_player_language(1)
    assert ui.player_language(1) == "en"  # cycled through uk and id back to English
    ui.set_host_language("id")  # the home screen's choice: host and both players
    assert ui.player_language(0) == ui.player_language(1) == "id"


def test_home_language_buttons_and_the_player_language_button_are_on_screen() -> None:
    app, clock = _app("en", "table")
    app.draw(clock.now())
    buttons = [s.intent for s in app.hotspots if isinstance(s.intent, do.HostLanguage)]
    assert buttons == [do.HostLanguage(code) for code in i18n.LANGUAGES] * 2  # table: on each half
    app.controller.new_match()
    app.draw(clock.now(), full=True)
    assert {s.intent for s in app.hotspots if isinstance(s.intent, do.PlayerLanguage)} == {
        do.PlayerLanguage(0), do.PlayerLanguage(1)}


def test_ui_state_starts_in_the_configured_language() -> None:
    assert UiState(language="uk").language == "uk"
    assert UiState(language="xx").language == "en"


def test_a_full_redraw_renders_no_text_twice() -> None:
    """After one full redraw of a Korean late-round board, the next one takes every text from the caches.

    (How fast that is, is measured by ``python -m kiosk.devtools.bench``, not here.)
    """
    from kiosk.ui import theme

    app, clock = _app("ko", "table", (1280, 800))
    app.config = replace(app.config, match=MatchSettings(handover=False, balances=300))
    scenes(app, clock)["play-late"]()
    app.draw(clock.now())
    misses = theme.render_fit.cache_info().misses
    app.controller.changed()
    assert app.draw(clock.now()) == "full"
    assert theme.render_fit.cache_info().misses == misses
