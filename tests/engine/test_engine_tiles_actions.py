"""The one tile-name grammar of ``Tile.parse``, and commands that refuse fields of the wrong kind."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    ALL_TILES,
    Accept,
    Bid,
    Decline,
    Draw,
    Malformed,
    Match,
    MatchConfig,
    Pass,
    Play,
    Point,
    Resign,
    Reveal,
    Slot,
    Start,
    Tile,
    UnknownTile,
    shuffle_deal,
    tile,
)

# -- the tile grammar ---------------------------------------------------------------------------------

spaces = st.text(alphabet=" ", max_size=3)
digits = st.integers(0, 6)


@st.composite
def tile_names(draw: st.DrawFn) -> tuple[str, int, int]:
    """A name by the documented grammar, with its two halves."""
    a, b = draw(digits), draw(digits)
    body = f"{draw(spaces)}{a}{draw(spaces)}|{draw(spaces)}{b}{draw(spaces)}"
    if draw(st.booleans()):
        body = f"[{body}]"
    return f"{draw(spaces)}{body}{draw(spaces)}", a, b


@given(tile_names())
def test_every_name_of_the_grammar_parses_to_its_canonical_tile(case: tuple[str, int, int]) -> None:
    name, a, b = case
    parsed = Tile.parse(name)
    assert parsed == Tile(min(a, b), max(a, b)) and parsed in ALL_TILES
    assert str(parsed) == f"{min(a, b)}|{max(a, b)}"


def _reference(text: str) -> Tile | None:
    """The grammar written out by hand, independently of the engine's regular expression."""
    body = text.strip(" ")
    if body.startswith("[") or body.endswith("]"):
        if not (body.startswith("[") and body.endswith("]") and len(body) >= 2):
            return None
        body = body[1:-1]
    halves = body.split("|")
    if len(halves) != 2:
        return None
    a, b = (h.strip(" ") for h in halves)
    if len(a) != 1 or len(b) != 1 or a not in "0123456" or b not in "0123456":
        return None
    return Tile(min(int(a), int(b)), max(int(a), int(b)))


@given(st.text(alphabet=" |[]0123456789\t\n-x", max_size=9))
def test_a_text_parses_exactly_when_the_grammar_says_so(text: str) -> None:
    expected = _reference(text)
    if expected is None:
        with pytest.raises(UnknownTile):
            Tile.parse(text)
    else:
        assert Tile.parse(text) == expected


@pytest.mark.parametrize("name", ["4|6", "6|4", "4 | 6", "[4|6]", "[6|4]", "4|6 ", " 4|6", " [ 4 | 6 ] ", "[4|6] "])
def test_documented_examples_parse(name: str) -> None:
    assert Tile.parse(name) == Tile(4, 6)


@pytest.mark.parametrize(
    "name", ["4|7", "46", "4||6", "[4|6", "4|6]", "[[4|6]]", "4|6\n", "\t4|6", "4,6", "", "|", "04|6", "٤|6", "+4|6"]
)
def test_other_texts_are_unknown_tiles(name: str) -> None:
    with pytest.raises(UnknownTile) as info:
        Tile.parse(name)
    assert info.value.params == {"name": name}


def test_tiles_and_points_parse_only_the_28() -> None:
    assert Tile.parse(Tile(1, 4)) is not None and tile(4, 1) == Tile(1, 4)
    for bad in (Tile(4, 1), Tile(7, 7)):
        with pytest.raises(UnknownTile):
            Tile.parse(bad)
    assert Point.parse("[4|1]", "low") == Point(Tile(1, 4), Slot.LOW)
    with pytest.raises(Malformed):
        Point.parse("1|4", "LOW")
    with pytest.raises(Malformed):
        Point.parse("1|4", ["low"])  # type: ignore[arg-type]


# -- commands check their fields -----------------------------------------------------------------------

T14 = Tile(1, 4)
AT = Point(Tile(1, 1), Slot.LINE_B)
ONE_PLAYER = (Reveal, Draw, Pass, Decline, Accept, Resign)


def test_well_formed_commands_build_and_compare_by_value() -> None:
    for kind in ONE_PLAYER:
        assert kind(0) == kind(0) and kind(1).player == 1
    assert Play(0, T14, AT) == Play(0, Tile.parse("4|1"), Point.parse("1|1", "lineB"))
    assert Play(1, T14).at is None and Bid(0, 15).amount == 15 and Bid(1, -5).amount == -5  # the match refuses it
    assert Start() == Start(None, None) and Start(1, shuffle_deal(random.Random(1))).player == 1


@pytest.mark.parametrize("player", [2, -1, True, False, 0.0, "0", None])
def test_commands_refuse_a_player_that_is_not_0_or_1(player: object) -> None:
    for kind in ONE_PLAYER:
        with pytest.raises(Malformed) as info:
            kind(player)  # type: ignore[arg-type]
        assert info.value.params == {"player": player}
    with pytest.raises(Malformed):
        Play(player, T14)  # type: ignore[arg-type]
    with pytest.raises(Malformed):
        Bid(player, 15)  # type: ignore[arg-type]
    if player is not None:
        with pytest.raises(Malformed):
            Start(player)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields, error",
    [
        ((0, "x"), Malformed),
        ((0, "1|4"), Malformed),  # a name is not a Tile: parse it first
        ((0, (1, 4)), Malformed),
        ((0, Tile(4, 1)), UnknownTile),
        ((0, Tile(7, 7)), UnknownTile),
        ((0, T14, "1|1 lineB"), Malformed),
        ((0, T14, (Tile(1, 1), Slot.LINE_B)), Malformed),
        ((0, T14, Point(Tile(1, 1), "lineB")), Malformed),  # type: ignore[arg-type]
        ((0, T14, Point("1|1", Slot.LINE_B)), Malformed),  # type: ignore[arg-type]
        ((0, T14, Point(Tile(9, 9), Slot.LINE_B)), UnknownTile),
    ],
)
def test_play_refuses_what_is_not_a_tile_or_a_point(fields: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        Play(*fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("amount", [15.0, "15", True, None, [15]])
def test_bid_refuses_an_amount_that_is_not_an_int(amount: object) -> None:
    with pytest.raises(Malformed) as info:
        Bid(0, amount)  # type: ignore[arg-type]
    assert info.value.params == {"amount": amount}


def test_start_refuses_what_is_not_a_deal_and_replace_checks_too() -> None:
    with pytest.raises(Malformed):
        Start(0, {"hands": []})  # type: ignore[arg-type]
    with pytest.raises(Malformed):
        dataclasses.replace(Draw(0), player=3)
    with pytest.raises(Malformed):
        dataclasses.replace(Play(0, T14), tile="1|4")  # type: ignore[arg-type]


def test_play_indices_follow_the_fields() -> None:
    from engine.tiles import POINT_INDEX, TILE_INDEX

    play = Play(0, T14, AT)
    assert (play.tile_index, play.point_index) == (TILE_INDEX[T14], POINT_INDEX[AT])
    assert Play(0, T14).point_index == -1


def test_legal_bids_list_every_affordable_amount_and_are_shared() -> None:
    def auction(balances: tuple[int, int]) -> Match:
        m = Match(MatchConfig(jockey=0, balances=balances))
        m.apply(Start(0, shuffle_deal(random.Random(3))), 0)
        return m

    m = auction((150, 150))
    bids = [a for a in m.legal_actions() if isinstance(a, Bid)]
    assert [b.amount for b in bids] == list(range(15, 151, 5)) and {b.player for b in bids} == {1}
    m.apply(Bid(1, 20), 1)
    again = [a for a in m.legal_actions() if isinstance(a, Bid)]
    assert [b.amount for b in again] == list(range(25, 166, 5))  # the jockey's credit: up to 165
    assert {b.player for b in again} == {0}
    other = [a for a in auction((150, 150)).legal_actions() if isinstance(a, Bid)]
    assert all(a is b for a, b in zip(bids, other, strict=True))  # listing bids builds none
    big = auction((4000, 4000))
    m.apply(Bid(0, 25), 2)
    assert [a.amount for a in big.legal_actions()[1:]] == list(range(15, 4001, 5))  # type: ignore[union-attr]
