"""The search's fast rollout: a round played to its end by level-2 policies, on a copy of a match.

The moves go through the match's own moves of play (``Match._lay``, ``_take_from_boneyard``,
``_count_pass``) and the rules' tables (``rules.py``), so the rules live once; what the rollout
leaves out is the bookkeeping a copy does not need: the clock's switches, the history and the
checks of commands that come from outside.
"""

from __future__ import annotations

from collections.abc import Callable

from .events import Event
from .layout import NO_POINT
from .match import Match
from .rules import ACCEPT, DECLINE, FITS, PLAY_AT, SCORES
from .state import Phase
from .tiles import TILE_PIPS

_AUCTION, _PLAY = Phase.AUCTION, Phase.PLAY


def play_out_round(match: Match, random: Callable[[], float]) -> None:
    """Play ``match``'s current round to its end with level-2 policies for both players: the highest
    immediate score, then the heaviest tile, ties broken by ``random()`` (a float in [0, 1)).

    For copies (``Match.clone``, ``engine.bots.knowledge.match_from_view``): the same moves and
    transfers as applying the level-2 choices one by one (``engine.bots``), without the clock's
    switches, the history or the events. An auction in progress is first settled as level 2 does
    (decline or accept). Does nothing unless a round is being played.
    """
    m = match
    now = m._last_ns or 0
    events: list[Event] = []
    while m._phase is _AUCTION and m._outcome is None:
        player = m.to_act
        assert player is not None and m._auction is not None
        if m._auction.bid is None:
            m._decline(DECLINE[player], now, events)
        else:
            m._accept(ACCEPT[player], now, events)
        m._legal = None
    if m._phase is not _PLAY or m.to_act is None:
        return
    hands = m._hands
    layout = m._layout
    count_after = layout.count_after_index
    player = m.to_act
    while True:
        hand = hands[player]
        ties: list[tuple[int, int]] = []
        best = -1
        if not layout.open_indices:  # the opening
            if m._opening_tile >= 0:
                ties = [(m._opening_tile, NO_POINT)]
            else:
                for t in hand:
                    count = count_after(t, NO_POINT)
                    key = (count if SCORES[count] else 0) * 16 + TILE_PIPS[t]
                    if key > best:
                        best = key
                        ties = [(t, NO_POINT)]
                    elif key == best:
                        ties.append((t, NO_POINT))
        else:
            fits = FITS[layout.open_values_mask]
            table = PLAY_AT[player]
            points = layout.open_indices
            for t in hand if m._drawn < 0 else (m._drawn,):
                if not fits[t]:
                    continue
                row = table[t]
                pips = TILE_PIPS[t]
                for p in points:
                    if row[p] is not None:
                        count = count_after(t, p)
                        key = (count if SCORES[count] else 0) * 16 + pips
                        if key > best:
                            best = key
                            ties = [(t, p)]
                        elif key == best:
                            ties.append((t, p))
        if not ties:
            if m._boneyard:
                m._take_from_boneyard(player)
                continue
            if not m._count_pass(now, events):
                break
            player = 1 - player
            continue
        t, p = ties[0] if len(ties) == 1 else ties[int(random() * len(ties))]
        hand.remove(t)
        m._opening_tile = m._drawn = -1
        if not m._lay(player, t, p, now, events):
            break
        player = 1 - player
    m.to_act = None if m._phase is not _PLAY else player
    m._legal = None
