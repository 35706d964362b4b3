"""Glicko-2 against the worked example in Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import pytest

from kiosk.store.ratings import DEFAULT_RD, Rating, idle, rate, rate_match


def test_glickmans_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = rate(player, games, tau=0.5)
    # The paper rounds its intermediate values and prints 1464.06 / 151.52 / 0.05999.
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_match_moves_both_players_in_opposite_directions() -> None:
    a, b = rate_match(Rating(), Rating(), 1.0)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.rd < DEFAULT_RD and b.rd < DEFAULT_RD


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Rating(1800, 60), Rating(1400, 60)
    expected, _ = rate_match(strong, weak, 1.0)
    upset, _ = rate_match(strong, weak, 0.0)
    assert 0 < expected.rating - 1800 < 1800 - upset.rating


def test_no_games_only_widens_the_deviation() -> None:
    r = Rating(1600, 80, 0.06)
    assert rate(r, []) == idle(r)
    assert idle(r).rating == 1600 and idle(r).rd > 80


def test_scores_outside_0_to_1_are_refused() -> None:
    with pytest.raises(ValueError):
        rate(Rating(), [(Rating(), 2.0)])
