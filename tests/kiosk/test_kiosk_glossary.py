"""The catalogs speak the rule texts' words: the glossary of docs/i18n.md, checked entry by entry.

For every glossary term, every catalog entry whose English id uses the term must use the
glossary's word in Korean, Ukrainian and Indonesian. Connection points in the engine's refusals
are named in the reader's language, never by the engine's slot names.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import IllegalPlay, Point, Slot, Tile
from engine.errors import NO_MATCH
from kiosk import i18n
from kiosk.i18n import catalogs
from kiosk.table.session import POINT_NAMES, refusal_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "i18n.md"
TRANSLATED = ("ko", "uk", "id")
SECTIONS = {"ko": "### Korean (`ko`)", "uk": "### Ukrainian (`uk`)", "id": "### Indonesian (`id`)"}
TERMS_SECTION = "### Terms (English ids)"
EXCEPTIONS_SECTION = "### Left out for room"
NOT_SEARCHED = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|\b(?:ACCEPT|RAISE|DECLINE)\b|Spectacular Bid")
"""Left out of an English id before the terms are searched: placeholders, the physical buttons'
names (they stay English on screen) and the game's name."""


@dataclass(frozen=True)
class Term:
    name: str
    patterns: tuple[re.Pattern[str], ...]
    words: dict[str, tuple[str, ...]]
    """The catalog's words per language: a translation must contain one of them."""


def _cells(row: str) -> list[str]:
    """A markdown table row's cells (``\\|`` is a pipe inside a cell)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows (header and rule left out) of the first table after ``heading``."""
    start = text.index(heading)
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append(_cells(line))
        elif rows:
            break
    return [r for r in rows[2:]]


def _code(cell: str) -> tuple[str, ...]:
    return tuple(re.findall(r"`([^`]+)`", cell))


def glossary(text: str | None = None) -> list[Term]:
    """The glossary of docs/i18n.md: each term's English patterns and its words per language."""
    text = DOCS.read_text("utf-8") if text is None else text
    words = {lang: {r[0]: _code(r[2]) for r in _table(text, heading)} for lang, heading in SECTIONS.items()}
    return [
        Term(r[0], tuple(re.compile(p, re.IGNORECASE) for p in _code(r[1])),
             {lang: words[lang].get(r[0], ()) for lang in TRANSLATED})
        for r in _table(text, TERMS_SECTION)
    ]


def left_out(text: str | None = None) -> set[tuple[str, str, str]]:
    """(language, English id, term) of the entries that may leave a term out (docs/i18n.md)."""
    text = DOCS.read_text("utf-8") if text is None else text
    return {(_code(r[0])[0], _code(r[1])[0], r[2]) for r in _table(text, EXCEPTIONS_SECTION)}


def searched(msgid: str) -> str:
    return NOT_SEARCHED.sub(" ", msgid)


def entries(language: str, locale_dir: Path = i18n.LOCALE_DIR) -> list[tuple[str, list[str], list[str]]]:
    """(id, English forms, translated forms) of each translated entry of ``language``'s catalog."""
    found = []
    for m in catalogs.read_catalog(language, locale_dir):
        if not m.id:
            continue
        english = [str(s) for s in m.id] if isinstance(m.id, tuple | list) else [str(m.id)]
        strings = [str(s or "") for s in m.string] if isinstance(m.string, tuple | list) else [str(m.string or "")]
        if m.fuzzy or not all(strings):
            continue  # untranslated: python -m kiosk.i18n check reports it
        found.append((english[0], english, strings))
    return found


def violations(language: str, terms: list[Term], locale_dir: Path = i18n.LOCALE_DIR) -> list[str]:
    """Every translated form of an entry whose English uses a term but not the glossary's word."""
    found = []
    excused = left_out()
    for msgid, english, strings in entries(language, locale_dir):
        for term in terms:
            if not any(p.search(searched(e)) for p in term.patterns for e in english):
                continue
            if (language, msgid, term.name) in excused:
                continue
            words = term.words[language]
            for form in strings:
                if not any(w.casefold() in form.casefold() for w in words):
                    found.append(f"{language}: {term.name} ({' / '.join(words)}) missing in {msgid!r} -> {form!r}")
    return found


# -- the glossary itself ----------------------------------------------------------------------------


def test_the_glossary_gives_every_term_patterns_and_a_word_in_each_language() -> None:
    terms = glossary()
    assert len(terms) >= 40
    names = [t.name for t in terms]
    assert len(set(names)) == len(names)
    assert {"decline", "raise", "opening", "going out", "double", "pip", "hand", "boneyard", "bank", "delay",
            "tile", "double-six", "hand-over", "settlement"} <= set(names)
    for term in terms:
        assert term.patterns, term.name
        for language in TRANSLATED:
            assert term.words[language], f"{term.name}: no {language} word in docs/i18n.md"


def test_only_a_few_entries_may_leave_a_term_out_and_each_is_a_real_one() -> None:
    excused = left_out()
    assert len(excused) <= 3
    names = {t.name for t in glossary()}
    for language, msgid, term in excused:
        assert language in TRANSLATED and term in names
        assert any(msgid == m for m, _, _ in entries(language)), msgid


def test_every_glossary_term_is_used_by_some_catalog_entry() -> None:
    ids = [searched(e) for _, english, _ in entries("en") for e in english]
    for term in glossary():
        assert any(p.search(i) for p in term.patterns for i in ids), f"{term.name} matches no message id"


def test_the_patterns_tell_the_term_from_look_alikes() -> None:
    by_name = {t.name: t for t in glossary()}

    def uses(name: str, english: str) -> bool:
        return any(p.search(searched(english)) for p in by_name[name].patterns)

    assert uses("double", "The first double of the round") and not uses("double", "the whole double-six set")
    assert uses("hand", "reveal their hand") and not uses("hand", "A raise hands the clock to the other player")
    assert not uses("hand", "Hand-over screen between turns: on")
    assert uses("going out", "Domino! {player} went out") and not uses("going out", "A Fives domino duel")
    assert uses("pass", "both players passed") and not uses("pass", "The turn then passes to the other player")
    assert not uses("bid", "Spectacular Bid") and uses("bid", "Bid {bid}")
    assert not uses("decline", "RAISE bids 15, DECLINE lets the jockey open") and uses("decline", "Decline")
    assert not uses("round", "17 would round to 15") and uses("round", "Round {number}")
    assert not uses("match", "[{tile}] does not match the {value} at {point}.")
    assert not uses("point", "That is not an open connection point.") and uses("point", "15-point credit")


# -- the catalogs follow it -------------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_with_a_glossary_term_uses_the_glossary_word(language: str) -> None:
    assert violations(language, glossary()) == []


def test_the_glossary_check_finds_the_words_the_review_found(tmp_path: Path) -> None:
    """The check can fail: a copy of the catalogs with the words of before the review."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    old: dict[str, dict[str | tuple[str, int], str]] = {
        "ko": {"Decline": "포기", "Boneyard {n}": "남은 타일 {n}"},
        "uk": {"Domino! {player} went out": "Доміно! {player} зробив доміно",
               ("{n} pip left in hand", 0): "на руках {n} очко"},
        "id": {"{player} draws a tile": "{player} mengambil kartu", "Previous": "Sebelum"},
    }
    for language, changes in old.items():
        catalog = catalogs.read_catalog(language, locale)
        for key, value in changes.items():
            if isinstance(key, tuple):
                message = catalog[key[0]]
                forms = [str(f) for f in message.string or ()]
                forms[key[1]] = value
                message.string = tuple(forms)
            else:
                catalog[key].string = value
        catalogs.write_catalog(catalog, language, locale)
    terms = glossary()
    ko, uk, id_ = (violations(lang, terms, locale) for lang in TRANSLATED)
    assert any("decline" in v and "'Decline'" in v for v in ko)
    assert any("boneyard" in v and "'Boneyard {n}'" in v for v in ko)
    assert any("going out" in v for v in uk) and any("pip" in v and "очко" in v for v in uk)
    assert any("tile (ubin)" in v and "kartu" in v for v in id_)
    assert len(ko) == 2 and len(uk) == 2 and len(id_) == 1  # "Sebelum" is a grammar slip, not a term


def test_the_glossary_is_read_from_the_tables_as_they_are_written() -> None:
    text = "\n".join([
        TERMS_SECTION, "", "| term | found in an English id by |", "|---|---|",
        "| tile | `\\btiles?\\b` |", "| double-six | `\\bdouble-six\\b`, `\\bsix\\|six\\b` |", "",
        *(line for lang in TRANSLATED for line in (
            SECTIONS[lang], "", "| term | seed | words |", "|---|---|---|",
            "| tile | x [6\\|6] | `t1`, `t2` |", "| double-six | y | `d` |", "")),
    ])
    terms = glossary(text)
    assert [t.name for t in terms] == ["tile", "double-six"]
    assert terms[0].words["uk"] == ("t1", "t2")
    assert [p.pattern for p in terms[1].patterns] == [r"\bdouble-six\b", r"\bsix|six\b"]


# -- connection points in refusals ------------------------------------------------------------------

SLOT_WORDS = re.compile(r"\b(?:low|high|line[AB]?|branch[AB]?|end|side|of)\b", re.IGNORECASE)


def _no_match(slot: Slot) -> IllegalPlay:
    tile = {Slot.LOW: Tile(3, 4), Slot.HIGH: Tile(3, 4)}.get(slot, Tile(4, 4))
    return IllegalPlay(NO_MATCH, tile=Tile(2, 5), value=tile.high if slot is not Slot.LOW else tile.low,
                       point=Point(tile, slot))


def test_a_refused_play_names_its_connection_point_in_words() -> None:
    text = refusal_text(_no_match(Slot.HIGH))
    assert text == "[2|5] does not match the 4 at the high end of [3|4]."
    assert text.msgid == NO_MATCH and text.params["point"].msgid == POINT_NAMES["high"]
    assert refusal_text(_no_match(Slot.LOW)) == "[2|5] does not match the 3 at the low end of [3|4]."
    assert refusal_text(_no_match(Slot.LINE_B)) == "[2|5] does not match the 4 at a line end of [4|4]."
    assert refusal_text(_no_match(Slot.BRANCH_A)) == "[2|5] does not match the 4 at a side of the spinner [4|4]."
    assert set(POINT_NAMES) == {s.value for s in Slot}


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_refused_play_shows_no_english_slot_word_in_another_language(language: str) -> None:
    t = i18n.translator(language)
    for slot in Slot:
        refusal = _no_match(slot)
        shown = t(refusal_text(refusal))
        point = refusal.params["point"]
        assert f"[{point.tile}]" in shown and "[2|5]" in shown and str(refusal.params["value"]) in shown, shown
        assert not SLOT_WORDS.search(shown), shown
        assert str(point) not in shown and slot.value not in shown, shown
    expected = {
        "ko": "[2|5]는 [3|4]의 높은 끝(4)에 맞지 않습니다.",  # 5 is read 오: 는, not 은(는)
        "uk": "[2|5] не підходить до значення 4 на більшому кінці [3|4].",
        "id": "[2|5] tidak cocok dengan 4 di ujung tinggi [3|4].",
    }
    assert t(refusal_text(_no_match(Slot.HIGH))) == expected[language]


# -- the second review's words (issue 20, point 21) -------------------------------------------------

REVIEWED: dict[tuple[str, str], str] = {
    ("ko", "The kiosk restarted; the match continues — the {down} it was down were charged to {player}."):
        "의 시간에서 차감되었습니다",
    ("ko", "When a bid is accepted, the bidder pays it to the other player and opens with any tile. The jockey's own "
           "winning bid costs 15 less, never below 0: an accepted jockey bid of 20 costs 5, and the other player "
           "receives those 5."): "기수의 20점 입찰이 수락되면 5점만 내고, 상대는 그 5점을 받습니다",
    ("ko", "{jockey} dominoed and is the jockey (15-point credit on their own bid)"): "기수가 되었습니다",
    ("uk", "The kiosk restarted; the match continues — the {down} it was down were charged to {player}."):
        "списано із запасу часу (гравець: {player})",
    ("uk", "{first} vs {second}"): "{first} — {second}",
    ("uk", "If both players have to pass in a row, the round is blocked. The player with fewer pips in hand receives "
           "the other hand's whole pip total rounded to the nearest 5, without subtracting their own: hands of 4 and "
           "18 pay the lighter hand 20, and 17 would round to 15. Equal totals pay nothing. The next round opens by "
           "rank, with no jockey."): "до найближчої п’ятірки",
    ("uk", "No bid to accept yet: RAISE bids 15, DECLINE lets the jockey open."): "ставки, яку можна прийняти",
    ("uk", "Decline"): "Відмовитися",
    ("uk", "No font for Hangul found: install {package}. Korean shows empty boxes."): "хангиль",
    ("uk", "After every tile, the opening one included, add up the open ends. A double lying at an end counts both "
           "halves. The spinner counts its two halves once while one of its line ends is uncovered; its open sides "
           "count nothing until a tile is laid on them."): "Розгалужувальний дубль враховує",
    ("uk", "{player} wins"): "{player} перемагає",
    ("uk", "handshaking"): "встановлює зв’язок",
    ("id", "Tap a tile to pick it up, then tap a lit place on the board; a tile that fits only one place goes there "
           "on a second tap. Tap the boneyard to draw."): "Ketuk ubin untuk memilihnya",
    ("id", "That is not an open connection point."): "sambungan",
    ("id", "After every tile, the opening one included, add up the open ends. A double lying at an end counts both "
           "halves. The spinner counts its two halves once while one of its line ends is uncovered; its open sides "
           "count nothing until a tile is laid on them."): "Kedua separuh spinner dihitung",
    ("ko", "{seconds} s"): "{seconds}초",
    ("uk", "{seconds} s"): "{seconds} с",
    ("id", "{seconds} s"): "{seconds} detik",
}
"""Entries the second review corrected, and the words each must keep."""
NOT_AGAIN: dict[str, tuple[str, ...]] = {
    "ko": ("에게 계산되었습니다", "수락된 기수의 20 입찰은"),
    "uk": ("зараховано гравцеві", "гангил", "найближчих 5", "ставки, щоб прийняти"),
    "id": ("titik sambung", "Spinner menghitung"),
}
"""What the review found wrong, anywhere in the catalog."""
RESERVED = {("id", "ambil"): "draw"}
"""A word kept for one term: Indonesian *mengambil* is the seed's word for drawing, so no other entry uses it
(a tile is picked up with *memilih*, a score is *memperoleh*)."""


@pytest.mark.parametrize(("language", "msgid"), sorted(REVIEWED))
def test_the_reviewed_entries_keep_their_words(language: str, msgid: str) -> None:
    found = {m: strings for m, _, strings in entries(language)}
    assert msgid in found, f"{language}: {msgid!r} is gone or untranslated"
    assert all(REVIEWED[language, msgid] in form for form in found[msgid]), found[msgid]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_words_the_review_found_wrong_are_gone(language: str) -> None:
    for msgid, _, strings in entries(language):
        for bad in NOT_AGAIN[language]:
            assert not any(bad in form for form in strings), f"{language}: {bad!r} in {msgid!r}"


def test_a_reserved_word_is_used_only_for_its_term() -> None:
    terms = {t.name: t for t in glossary()}
    for (language, word), name in RESERVED.items():
        for msgid, english, strings in entries(language):
            if any(word in form.casefold() for form in strings):
                assert any(p.search(searched(e)) for p in terms[name].patterns for e in english), \
                    f"{language}: {word!r} ({name}) in {msgid!r}, which is not about {name}"
