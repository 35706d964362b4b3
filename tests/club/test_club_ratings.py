"""Club ratings: a pure function of the verified matches in the canonical order, the same whatever
order they were uploaded in, recomputed when a late match arrives, and Glicko-2 as on the table."""

from __future__ import annotations

import copy
import random
import uuid
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from club.ratings import Result, Standing, fold

PLAYERS = [uuid.UUID(int=i + 1) for i in range(5)]
KIOSKS = [uuid.UUID(int=100 + i) for i in range(3)]


@st.composite
def results(draw: st.DrawFn) -> list[Result]:
    n = draw(st.integers(0, 25))
    out = []
    for i in range(n):
        a, b = draw(st.sampled_from([(x, y) for x in PLAYERS for y in PLAYERS if x != y]))
        out.append(Result(float(draw(st.integers(0, 6))), draw(st.sampled_from(KIOSKS)), uuid.UUID(int=1000 + i),
                          (a, b), draw(st.integers(0, 1))))
    return out


@settings(max_examples=60, deadline=None)
@given(results(), st.randoms(use_true_random=False))
def test_the_ratings_are_the_same_for_every_order_of_the_same_matches(matches: list[Result], rng: random.Random) -> None:
    shuffled = list(matches)
    rng.shuffle(shuffled)
    assert fold(shuffled) == fold(matches)


@settings(max_examples=60, deadline=None)
@given(results(), st.integers(0, 25))
def test_folding_the_later_matches_onto_the_earlier_ratings_is_the_whole_fold(matches: list[Result], cut: int) -> None:
    ordered = sorted(matches, key=lambda r: r.key)
    start = fold(ordered[:cut])
    frozen = dict(start)
    assert fold(ordered[cut:], start) == fold(matches)
    assert start == frozen  # pure: the start is not changed


def test_a_new_player_starts_at_the_default_and_counts_wins_and_losses() -> None:
    a, b = PLAYERS[:2]
    table = fold([Result(1.0, KIOSKS[0], uuid.UUID(int=7), (a, b), 1)])
    assert table[a].games == table[b].games == 1
    assert (table[a].wins, table[a].losses, table[b].wins, table[b].losses) == (0, 1, 1, 0)
    assert table[b].rating > Standing().rating > table[a].rating
    assert table[a].provisional and Standing().provisional


def _uploads(journals) -> tuple[list, list]:
    players = journals["table-1"]["players"] + journals["table-2"]["players"]
    matches = [("table-1", m) for m in journals["table-1"]["matches"]] + \
              [("table-2", m) for m in journals["table-2"]["matches"]]
    return players, matches


def test_uploads_in_any_order_give_the_same_club_ratings_to_the_last_bit(hub, journals, cluster) -> None:
    from club_support import Hub
    from fastapi.testclient import TestClient

    from club.app import create_app

    players, matches = _uploads(journals)
    boards = []
    recomputed: list[Any] = []
    for seed in (1, 2, 3):
        if seed > 1:  # a fresh hub for each order
            with TestClient(create_app(_fresh(cluster, seed), pool_size=2)) as client:
                conninfo = client.app.state.pool.conninfo  # type: ignore[attr-defined]  # the FastAPI app's state
                boards.append(_play_order(Hub(client, conninfo), players, matches, seed, recomputed))
        else:
            boards.append(_play_order(hub, players, matches, seed, recomputed))
    assert boards[0] == boards[1] == boards[2]
    assert any(recomputed), "no order sent a late match: the recompute was not exercised"
    assert sum(row["games"] for row in boards[0]) == 2 * 7


def _fresh(cluster, seed: int) -> str:
    import psycopg

    name = f"club_order_{seed}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE club_template")
    return cluster.dsn(name)


def _play_order(hub, players, matches, seed: int, recomputed: list[bool]) -> list[dict]:
    tokens = {"table-1": hub.kiosk("table-1"), "table-2": hub.kiosk("table-2")}
    # kiosk uuids differ between hubs: the order must not depend on them except to break ties
    order = list(matches)
    random.Random(seed).shuffle(order)
    for kiosk, match in order:
        body = {"players": [p for p in players if p["uuid"] in match["header"]["players"]],
                "matches": [copy.deepcopy(match)]}
        answer = hub.upload(tokens[kiosk], body)
        assert answer.status_code == 200, answer.text
        recomputed.append(answer.json()["ratings_recomputed"])
    return hub.client.get("/api/v1/leaderboard").json()


def test_club_ratings_are_the_tables_own_glicko2_for_one_tables_matches(hub, journals) -> None:
    token = hub.kiosk("table-1")
    answer = hub.upload(token, copy.deepcopy(journals["table-1"]))
    assert answer.status_code == 200
    board = {row["uuid"]: row for row in hub.client.get("/api/v1/roster").json()["players"]}
    compared = 0
    for key, (rating, rd, vol, games) in journals["ratings"].items():
        if key in board:
            assert (board[key]["rating"], board[key]["rd"], board[key]["volatility"], board[key]["games"]) == (
                rating, rd, vol, games)
            compared += 1
    assert compared == 3
    assert sum(row["games"] for row in board.values()) == 2 * 4  # the guest match counts for nothing
