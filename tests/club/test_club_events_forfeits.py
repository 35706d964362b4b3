"""Forfeits, requested half-point byes and the arena's own tiebreaks in the pure core (docs/events.md):
how they score, what the tiebreaks make of them, how the Swiss pairing reads them (checked by the
library's own checker over a TRF with ``+``, ``-`` and ``H``), and the refusals."""

from __future__ import annotations

import random
import uuid
from collections import defaultdict
from typing import Any

import pytest
from caissify_pairings.fpc import check_trf
from caissify_pairings.trf import write_trf

from club.events.arena import arena_scores, arena_standings
from club.events.errors import BadResult, BadSettings, PairingFailed
from club.events.model import Bye, Entrant, Forfeit, Game, check_results
from club.events.rules import ARENA_TIEBREAKS, EventRules, Format, Tiebreak
from club.events.standings import round_standings, standings_json
from club.events.swiss import DutchPairer, starting_order

A, B, C, D = (uuid.UUID(int=i) for i in range(1, 5))
ENTRANTS = [Entrant(A, "Anna", 1600), Entrant(B, "Ben", 1500), Entrant(C, "Chloe", 1400), Entrant(D, "Dmytro", 1300)]
SWISS = EventRules(format=Format.SWISS, rounds=4)
ARENA = EventRules(format=Format.ARENA, minutes=30)


def _g(n: int, a: uuid.UUID, b: uuid.UUID, winner: int, balances: tuple[int, int] = (200, 100),
       ended: float = 0.0) -> Game:
    return Game(match=uuid.UUID(int=100 + n), seats=(a, b), winner=winner, balances=balances, round=n // 10,
                ended=ended)


def _f(n: int, a: uuid.UUID, b: uuid.UUID, winner: int | None) -> Forfeit:
    return Forfeit(pairing=uuid.UUID(int=900 + n), seats=(a, b), winner=winner, round=n // 10)


def test_a_forfeit_scores_a_win_but_is_not_a_game_for_the_tiebreaks() -> None:
    # round 1: A beat B over the board; C wins by forfeit against D. Round 2: A - C double forfeit, B beat D.
    games = [_g(10, A, B, 0, (300, 0)), _g(21, B, D, 0, (180, 120))]
    forfeits = [_f(11, C, D, 0), _f(20, A, C, None)]
    rows = {r.player: r for r in round_standings(ENTRANTS, games, [], SWISS, forfeits)}
    assert {p: r.score for p, r in rows.items()} == {A: 1, B: 1, C: 1, D: 0}
    # C's forfeit win adds no opponent: Buchholz 0, SB 0, no win over the board, nothing transferred
    assert rows[C].tiebreaks == (0, 0, 0, 0) and rows[C].games == 0
    assert (rows[C].forfeit_wins, rows[C].forfeit_losses) == (1, 1)  # the double forfeit is a loss for both
    assert (rows[D].forfeit_wins, rows[D].forfeit_losses) == (0, 1) and rows[D].games == 1
    # A met only B (1 point): Buchholz 1, and the double forfeit against C counts for nothing
    assert rows[A].tiebreaks[0:2] == (1, 1) and rows[A].games == 1
    body = standings_json(uuid.UUID(int=5), SWISS, round_standings(ENTRANTS, games, [], SWISS, forfeits))
    line = next(r for r in body["standings"] if r["player"] == str(C))
    assert (line["forfeit_wins"], line["forfeit_losses"], line["games"]) == (1, 1, 0)


def test_a_requested_bye_scores_half_a_win_and_the_json_keeps_whole_numbers_whole() -> None:
    games = [_g(10, A, B, 0), _g(11, C, D, 1)]
    byes = [Bye(2, A, half=True), Bye(2, B)]  # A asked for round 2 off; B had the pairing's bye
    table = round_standings(ENTRANTS, games, byes, SWISS)
    scores = {r.player: r.score for r in table}
    assert scores == {A: 1.5, B: 1, C: 0, D: 1}
    body = standings_json(uuid.UUID(int=5), SWISS, table)
    by_player = {r["player"]: r for r in body["standings"]}
    assert by_player[str(A)]["score"] == 1.5 and isinstance(by_player[str(B)]["score"], int)
    assert by_player[str(B)]["tiebreaks"][0] == 1.5 and all(isinstance(v, int) for v in by_player[str(C)]["tiebreaks"])


def test_refusals() -> None:
    with pytest.raises(BadResult):
        Forfeit(uuid.UUID(int=1), (A, A), 0)
    with pytest.raises(BadResult):
        Forfeit(uuid.UUID(int=1), (A, B), 2)
    with pytest.raises(BadResult, match="twice"):
        check_results(ENTRANTS, [], [], [_f(10, A, B, 0), _f(10, A, B, 1)])
    with pytest.raises(BadResult, match="placed twice"):
        check_results(ENTRANTS, [_g(10, A, C, 0)], [], [_f(11, A, B, 0)])
    with pytest.raises(BadResult, match="not entered"):
        check_results(ENTRANTS[:2], [], [], [_f(10, A, C, 0)])
    with pytest.raises(BadSettings, match="no rounds"):
        EventRules(format=Format.ARENA, minutes=30, tiebreaks=(Tiebreak.BUCHHOLZ,))


def test_the_arena_ranks_by_performance_and_a_forfeit_keeps_the_streak() -> None:
    assert ARENA.tiebreaks == ARENA_TIEBREAKS == (Tiebreak.PERFORMANCE, Tiebreak.POINTS_TRANSFERRED)
    # A wins twice, then a forfeit win, then wins again: on fire (the forfeit neither adds to nor breaks it)
    games = [_g(1, A, B, 0, ended=1), _g(2, A, C, 0, ended=2), _g(3, A, D, 0, ended=4)]
    forfeits = [_f(4, A, B, 0)]
    scores = arena_scores(ENTRANTS, games, forfeits)
    assert scores[A] == 2 + 2 + 2 + 4
    # B and C: one win each, level on score; performance splits them: the mean over the games played of
    # the opponent's rating +500 for a win, -500 for a loss
    more = [*games, _g(5, B, C, 0, ended=5), _g(6, C, D, 0, ended=6)]
    table = arena_standings(ENTRANTS, more, ARENA, forfeits)
    rows = {r.player: r for r in table}
    assert rows[B].score == rows[C].score == 2
    assert rows[B].tiebreaks[0] == ((1600 - 500) + (1400 + 500)) // 2 == 1500
    assert rows[C].tiebreaks[0] == ((1600 - 500) + (1500 - 500) + (1300 + 500)) // 3 == 1300
    assert rows[D].tiebreaks[0] == ((1600 - 500) + (1400 - 500)) // 2
    assert [r.player for r in table] == [A, B, C, D] and rows[A].forfeit_wins == 1
    assert [r.player for r in arena_standings(ENTRANTS, more, ARENA)][:2] == [A, B]


def test_the_swiss_pairing_reads_forfeits_and_requested_byes() -> None:
    entrants = [Entrant(uuid.UUID(int=10 + i), n, 2000 - 50 * i) for i, n in enumerate("ABCDEF")]
    a, b, c, d, e, f = (x.player for x in entrants)
    pairer = DutchPairer()
    first = pairer.pair(entrants, [], [], 1, 4)
    boards = [p.seats for p in first.pairings]
    # board 1 is forfeited (its seat 0 wins), the others are played
    forfeits = [Forfeit(uuid.UUID(int=1), boards[0], 0, 1)]
    games = [Game(uuid.UUID(int=2 + k), seats, 0, (200, 100), 1) for k, seats in enumerate(boards[1:])]
    # round 2 with A asking for a bye: five play, one gets the pairing's bye, A is left out
    second = pairer.pair(entrants, games, [], 2, 4, forfeits=forfeits, absent={a})
    assert a not in second.players() and second.bye is not None
    forfeit_winner = boards[0][0]
    assert second.bye != forfeit_winner, "a forfeit win keeps its winner off the pairing's bye"
    # two who did not play (a forfeit) may be paired again; two who played may not
    two = entrants[:2]
    [board] = pairer.pair(two, [], [], 1, 4).pairings
    again = pairer.pair(two, [], [], 2, 4, forfeits=[Forfeit(uuid.UUID(int=9), board.seats, None, 1)])
    assert set(again.pairings[0].seats) == set(board.seats)
    with pytest.raises(PairingFailed):
        pairer.pair(two, [Game(uuid.UUID(int=9), board.seats, 0, (200, 100), 1)], [], 2, 4)
    # the two of the forfeited board may meet again: they did not play
    with pytest.raises(BadSettings, match="already given"):
        pairer.pair(entrants, games, [], 1, 4, forfeits=forfeits)
    assert {b, c, d, e, f} == set(second.players())


def _trf(entrants: list[Entrant], games: list[Game], byes: list[Bye], forfeits: list[Forfeit], rounds: int) -> str:
    number = {e.player: i for i, e in enumerate(starting_order(entrants), start=1)}
    results: dict[uuid.UUID, dict[int, dict[str, Any]]] = defaultdict(dict)
    points: dict[uuid.UUID, float] = defaultdict(float)
    for g in games:
        for seat, p in enumerate(g.seats):
            results[p][g.round] = {"opponent": number[g.opponent(p)], "color": "wb"[seat],
                                   "result": "1" if g.won(p) else "0"}
            points[p] += g.won(p)
    for x in forfeits:
        for seat, p in enumerate(x.seats):
            results[p][x.round] = {"opponent": number[x.seats[1 - seat]], "color": "wb"[seat],
                                   "result": "+" if x.won(p) else "-"}
            points[p] += x.won(p)
    for y in byes:
        results[y.player][y.round] = {"opponent": None, "result": "H" if y.half else "U"}
        points[y.player] += 0.5 if y.half else 1
    players = [{"starting_number": number[e.player], "name": e.name, "rating": int(e.rating),
                "score": points[e.player], "results": results[e.player]} for e in entrants]
    return write_trf({"name": "club night"}, players, rounds)


@pytest.mark.parametrize("seed", [51, 52, 53])
def test_a_swiss_with_forfeits_and_half_point_byes_agrees_with_the_librarys_checker(seed: int) -> None:
    """Ten players, five rounds; each round one board in three is forfeited (a win for a seat, or double)
    and from round 2 on a player asks for a bye now and then. The library's checker re-pairs every round
    from the TRF (``+``, ``-``, ``H``)."""
    rng = random.Random(seed)
    entrants = [Entrant(uuid.UUID(int=rng.getrandbits(128)), f"P{i:02d}", float(rng.randrange(1200, 2000)))
                for i in range(10)]
    games: list[Game] = []
    byes: list[Bye] = []
    forfeits: list[Forfeit] = []
    asked: set[uuid.UUID] = set()
    pairer = DutchPairer()
    for r in range(1, 6):
        absent: set[uuid.UUID] = set()
        if 2 <= r <= 4:
            who = rng.choice([e.player for e in entrants if e.player not in asked])
            asked.add(who)
            absent.add(who)
            byes.append(Bye(r, who, half=True))
        paired = pairer.pair(entrants, games, [y for y in byes if y.round < r], r, 5, forfeits=forfeits,
                             absent=absent)
        assert not absent & set(paired.players())
        for board in paired.pairings:
            if rng.random() < 0.33:
                forfeits.append(Forfeit(uuid.UUID(int=rng.getrandbits(128)), board.seats, rng.choice([0, 1, None]), r))
            else:
                games.append(Game(uuid.UUID(int=rng.getrandbits(128)), board.seats, rng.randrange(2), (200, 100), r))
        if paired.bye is not None:
            byes.append(Bye(r, paired.bye))
    table = round_standings(entrants, games, byes, EventRules(format=Format.SWISS, rounds=5), forfeits)
    won = sum(1 for x in forfeits if x.winner is not None)
    assert sum(r.score for r in table) == len(games) + won + sum(0.5 if y.half else 1 for y in byes)
    report = check_trf(_trf(entrants, games, byes, forfeits, 5))
    assert report["summary"]["rounds_checked"] == 5
    # The checker (fpc.py) counts a half-point bye as a bye received, so it keeps that player off the
    # pairing's bye; FIDE (C.04.1 d), bbpPairings and the library's own engine do not. The only rounds
    # allowed to differ are those where the pairing's bye went to a player who had a half-point bye.
    number = {e.player: i for i, e in enumerate(starting_order(entrants), start=1)}
    halves = {(number[y.player], y.round) for y in byes if y.half}
    for checked in report["rounds"]:
        if checked["match"]:
            continue
        ours = [x["white"] for x in checked["trf_pairings"]
                if x.get("bye") and (x["white"], checked["round"]) not in halves]  # the pairing's bye
        assert any((p, r) in halves for p in ours for r in range(1, checked["round"])), checked


def test_a_performance_without_games_is_undefined_and_ranks_after_the_players_with_games() -> None:
    low = [Entrant(A, "Anna", 300), Entrant(B, "Ben", 300), Entrant(C, "Chloe", 300), Entrant(D, "Dmytro", 300)]
    # A beat B over the board (B's performance 300 - 500 = -200); C won by forfeit against D; D played nothing
    games, forfeits = [_g(1, A, B, 0, ended=1)], [_f(2, C, D, 0)]
    table = arena_standings(low, games, ARENA, forfeits)
    rows = {r.player: r for r in table}
    assert rows[A].tiebreaks == (800, 50) and rows[B].tiebreaks == (-200, -50)
    assert rows[C].tiebreaks == (None, 0) and rows[D].tiebreaks == (None, 0)  # no game: no performance
    # A and C level on 2 points: A (who played) first; B and D level on 0: B, with a game, before D
    assert [r.player for r in table] == [A, C, B, D] and [r.rank for r in table] == [1, 2, 3, 4]
    body = standings_json(uuid.UUID(int=5), ARENA, table)
    assert [r["tiebreaks"] for r in body["standings"]] == [[800, 50], [None, 0], [-200, -50], [None, 0]]
    nobody = arena_standings(low, [], ARENA)  # before any game: all level, sharing the first rank
    assert {r.tiebreaks for r in nobody} == {(None, 0)} and {r.rank for r in nobody} == {1}
