"""Names typed on the keyboard as the store keeps them (real SQLite): Hangul and Cyrillic names are
welcome, stored in composed form (NFC), and one name whatever its case or normalisation."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.store.journal import Journal
from kiosk.store.players import PlayerNameError, Players, clean_name, name_key
from kiosk.table import hangul


@pytest.fixture
def players(tmp_path: Path) -> Iterator[Players]:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    yield Players(journal, wall_clock=lambda: 1.0)
    journal.close()


@pytest.mark.parametrize("name", ["김민준", "최예린", "Олена", "Мар'яна Ґончаренко", "Їжак", "Ayu Lestari", "ㄱㅏ"])
def test_names_in_every_script_are_stored_as_typed(players: Players, name: str) -> None:
    player = players.create(name)
    assert player.name == name and players.get(player.id).name == name and players.find(name) == player


def test_a_pasted_decomposed_name_is_the_same_as_the_typed_one(players: Players) -> None:
    typed = players.create("김 Йосип")
    pasted = unicodedata.normalize("NFD", "김 Йосип")  # conjoining jamo and И + combining breve
    assert pasted != typed.name and clean_name(pasted) == typed.name
    assert players.find(pasted) == typed
    with pytest.raises(PlayerNameError, match="taken"):
        players.create(pasted)


@pytest.mark.parametrize(("first", "second"), [
    ("Олена", "олена"), ("ҐАЛИНА", "ґалина"), ("Їжак", "їжак"), ("ANNA", "anna"), ("Straße", "STRASSE"),
    ("Anna  Maria", " anna maria "),
])
def test_a_name_is_taken_whatever_its_case(players: Players, first: str, second: str) -> None:
    original = players.create(first)
    with pytest.raises(PlayerNameError, match="taken"):
        players.create(second)
    assert players.find(second) == original
    other = players.create("Ніхто")
    with pytest.raises(PlayerNameError, match="taken"):
        players.rename(other.id, second)
    assert players.rename(original.id, second).name == clean_name(second)  # a player may change their own case
    assert [p.name for p in players.list()] == sorted([clean_name(second), "Ніхто"], key=str.casefold)


def test_different_names_are_not_taken(players: Players) -> None:
    for name in ("Олена", "Олеся", "Olena", "김민준", "김민주", "Ґалина", "Галина"):
        players.create(name)
    assert len(players.list()) == 7
    found = players.find("галина")
    assert found is not None and found.name == "Галина"


SYLLABLES = st.sampled_from([chr(c) for c in range(0xAC00, 0xD7A4)])
LETTERS = st.sampled_from(list("абвгґдеєжзиіїйклмнопрстуфхцчшщьюяАБВГҐДЕЄЖЗИІЇЙabcZ' -"))


@settings(max_examples=60)
@given(st.text(SYLLABLES | LETTERS | st.sampled_from(sorted(hangul.KEYS)), min_size=1, max_size=20))
def test_name_key_ignores_case_and_normalisation_only(name: str) -> None:
    assert name_key(name) == name_key(name.upper()) == name_key(unicodedata.normalize("NFD", name))
    assert name_key(name) == name_key(name.lower())
    changed = name + "x"
    assert name_key(changed) != name_key(name)
