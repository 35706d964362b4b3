"""The computer's worker fails: the seat still moves at once, with level 1's legal choice, and the hint too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from engine import Action, Match, PlayerView, Start, bots, shuffle_deal
from kiosk.table.computer import COMPUTER_SEAT, PERSON_SEAT, ComputerPlayer


@pytest.fixture
def worker() -> Iterator[ThreadPoolExecutor]:
    pool = ThreadPoolExecutor(max_workers=1)
    yield pool
    pool.shutdown(wait=True)


@pytest.fixture
def failing_search(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every choice above level 1 fails in the worker (as a search that runs out of memory would);
    level 1 still works. Returns the levels the worker was asked for."""
    real = bots.choose
    asked: list[int] = []

    def choose(view: PlayerView, level: int, rng: random.Random, **kwargs: Any) -> Action:
        if level > 1:
            asked.append(level)
            raise MemoryError("the search ran out of memory")
        return real(view, level, rng, **kwargs)

    monkeypatch.setattr(bots, "choose", choose)
    return asked


def _match_with(seat: int, seed: int) -> Match:
    """A match started from a shuffled deal, played at random until ``seat`` is to act."""
    rng = random.Random(seed)
    m = Match()
    m.apply(Start(None, shuffle_deal(rng)), 0)
    t = 1
    while m.to_act != seat:
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))], t)
        t += 1
    return m


def _computer_moves_once(seed: int, worker: ThreadPoolExecutor) -> None:
    match = _match_with(COMPUTER_SEAT, seed)
    now = match.last_command_ns or 0
    computer = ComputerPlayer(3, lambda: now, worker, random.Random(seed), min_move_ns=0)
    view = PlayerView.of(match, COMPUTER_SEAT, now)
    applied: list[Action] = []

    def apply(action: Action, at: int) -> bool:
        applied.append(action)
        return True

    if not computer.update(match, now, apply):  # asked; not answered yet
        assert computer.question is not None
        computer.question.future.exception(timeout=10)  # the worker has failed
        assert computer.update(match, now, apply)
    assert applied == [bots.choose(view, 1, random.Random(now))]
    assert match.is_legal(applied[0])


def test_a_failed_worker_gives_level_1s_legal_choice_at_once(worker: ThreadPoolExecutor,
                                                             failing_search: list[int]) -> None:
    for seed in range(6):
        _computer_moves_once(seed, worker)
    assert failing_search == [3] * 6


def test_a_failed_hint_gives_level_1s_choice_for_the_person(worker: ThreadPoolExecutor,
                                                           failing_search: list[int]) -> None:
    match = _match_with(PERSON_SEAT, 3)
    now = match.last_command_ns or 0
    computer = ComputerPlayer(2, lambda: now, worker, random.Random(1))
    assert computer.ask_hint(match, now)
    assert computer.hint_question is not None
    computer.hint_question.future.exception(timeout=10)
    computer.update(match, now, lambda a, t: False)  # the frame loop picks the answer up
    hint = computer.hint_for(match)
    assert hint == bots.choose(PlayerView.of(match, PERSON_SEAT, now), 1, random.Random(now))
    assert hint is not None and match.is_legal(hint) and failing_search == [4]
