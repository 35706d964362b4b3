"""Random legal play of a match on the table, for the screenshots, the frame bench and the tests: until
a condition holds (``play_until``), or as people play, stopped at a random moment (``play_live``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine import Action, Match, Phase, Play, Resign, Start, shuffle_deal
from kiosk.app import App
from kiosk.devtools.board_bench import link_count
from kiosk.table.session import GameSession
from kiosk.timesource import FakeClock
from kiosk.ui.board.geometry import layout_board


def play_until(session: GameSession, clock: FakeClock, stop: Callable[[Match], bool], seed: int, limit: int = 3000) -> bool:
    """Random legal commands (3 s apart) until ``stop(match)``; True if it stopped there."""
    rng = random.Random(seed)
    m = session.match
    for _ in range(limit):
        if stop(m):
            return True
        legal = m.legal_actions()
        if not legal:
            return False
        action = rng.choice(legal)
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        session.command(action, clock.advance(3))
    return stop(m)


LINK_SEED = 227
"""The seed of random play whose match walls an end of the 800 x 480 table board in (``play-link``)."""


def board_has_link(app: App, match: Match) -> bool:
    """True if the board of ``match``, laid out on ``app``'s table screen, shows a link (an end that
    its own tiles walled in, moved into free room)."""
    board = app.stage.regions.board
    return link_count(layout_board(match.layout, (board.x, board.y, board.width, board.height))) > 0


LIVE_OPENINGS = (201, 202, 203)
"""Seeds of the live frames at an opening turn."""
LIVE_SEEDS = (*range(101, 113), *LIVE_OPENINGS)
"""Seeds of the live frames: random play stopped at a random moment (``play_live``)."""


def play_live(session: GameSession, clock: FakeClock, seed: int, opening: bool = False) -> None:
    """Random play as people play: commands 1 to 14 s apart, now and then one by the player not to
    act (refused, with a message), stopped at a random moment of a round being played, within the
    seconds a placement's messages and badge are on screen (``opening``: at an opening turn with a
    message on screen, such as the auction's payment)."""
    rng = random.Random(seed)
    m = session.match
    stop = rng.randint(12, 90)
    for turn in range(3000):
        legal = m.legal_actions()
        if not legal or (turn >= stop and m.phase is Phase.PLAY and len(m.layout) >= 2 and not opening):
            return
        if opening and m.phase is Phase.PLAY and m.layout.is_empty and m.round > 0 \
                and session.live_messages(clock.now()):
            return
        action = rng.choice(legal)
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        if m.phase is Phase.PLAY and m.to_act is not None and rng.random() < 0.15:
            session.command(do_wrong_player(action, m.to_act), clock.advance(rng.uniform(0.5, 3)))
        session.command(action, clock.advance(rng.choice((1, 2, 4, 8, 9, 11))))


def do_wrong_player(action: Action, to_act: int) -> Action:
    """``action`` by the player who is not to act (a command the match refuses)."""
    other = 1 - to_act
    if isinstance(action, Play):
        return Play(other, action.tile, action.at)
    return Resign(other) if not hasattr(action, "player") else replace(action, player=other)
