"""The match's one state record: copies and snapshots derive from its declarations, field by field."""

from __future__ import annotations

import random
from dataclasses import fields

from engine import Match, MatchConfig, Start, shuffle_deal
from engine.auction import Auction
from engine.clock import MatchClock
from engine.layout import Layout
from engine.state import SNAPSHOT_VERSION, MatchState

MUTABLE = (list, Layout, MatchClock, Auction)


def _plain(value: object) -> object:
    """A field's value as comparable plain data."""
    if isinstance(value, Layout):
        return value.to_list()
    if isinstance(value, MatchClock | Auction):
        return value.to_dict()
    return value


def _matches_in_play(count: int) -> list[Match]:
    """Matches stopped at random points of random play (auctions, hand-overs, draws included)."""
    rng = random.Random(21)
    found: list[Match] = []
    while len(found) < count:
        m = Match(MatchConfig(handover=rng.random() < 0.5, jockey=rng.choice([None, 0, 1])))
        m.apply(Start(None, shuffle_deal(rng)), 0)
        for t in range(1, rng.randint(1, 25)):
            if m.to_act is None:
                break
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))], t)
        found.append(m)
    return found


def test_a_clone_holds_every_field_equal_and_shares_nothing_it_could_change() -> None:
    for m in _matches_in_play(40):
        m.legal_actions()
        c = m.clone()
        for f in fields(MatchState):
            mine, theirs = getattr(m, f.name), getattr(c, f.name)
            if isinstance(mine, MUTABLE):
                assert mine is not theirs, f.name
                if isinstance(mine, list) and mine and isinstance(mine[0], list):
                    assert all(a is not b for a, b in zip(mine, theirs)), f.name
            assert _plain(mine) == _plain(theirs), f.name
        assert c.to_dict() == m.to_dict()


def test_the_snapshot_holds_exactly_the_declared_keys_and_restores_every_saved_field() -> None:
    keys = {f.metadata["key"] for f in fields(MatchState) if f.metadata["key"]}
    assert {"hands", "boneyard", "clock", "history"} <= keys
    for m in _matches_in_play(40):
        data = m.to_dict()
        assert set(data) == keys | {"version"} and data["version"] == SNAPSHOT_VERSION
        back = Match.from_dict(data)
        assert back.to_dict() == data
        assert back.legal_actions() == m.legal_actions()


def test_an_older_snapshot_without_history_and_ranked_gets_their_declared_defaults() -> None:
    m = _matches_in_play(1)[0]
    data = m.to_dict()
    del data["history"], data["ranked"]
    back = Match.from_dict(data)
    assert back.round_history() == () and back.ranked_round is False
