"""The search's fast rollout: a round played to its end by level-2 policies, on a copy of a match.

The rules live once: a play is made by the match's own move (``Match._lay``, which ``_play`` also
calls: the placement, its score, the round's end), draws, passes, reveals and the auction by the
match's handlers; the rollout only chooses the moves, from the rules' shared tables (``rules.py``).
It leaves out what a copy does not need: ``apply``'s checks of commands that come from outside
(their time, the clock's deadline), the listing of every legal action, and for plays the history
and the clock's switch (the rollout's moves all happen at the copy's last instant).
"""

from __future__ import annotations

from collections.abc import Callable

from .events import Event
from .layout import NO_POINT
from .match import Match
from .rules import ACCEPT, DECLINE, DRAW, FITS, ONLY_DRAW, ONLY_PASS, PASS, PLAY_AT, REVEAL, SCORES
from .state import Phase
from .tiles import TILE_PIPS

_AUCTION, _PLAY, _HANDOVER = Phase.AUCTION, Phase.PLAY, Phase.HANDOVER


def play_out_round(match: Match, random: Callable[[], float]) -> None:
    """Play ``match``'s current round to its end with level-2 policies for both players: the highest
    immediate score, then the heaviest tile, ties broken by ``random()`` (a float in [0, 1)).

    For copies (``Match.clone``, ``engine.bots.knowledge.match_from_view``): the same moves and
    transfers as applying the level-2 choices one by one (``engine.bots``), through the match's
    own moves (see the module's description; a hand-over is revealed at once).
    An auction in progress is first settled as level 2 does (decline or accept). Does nothing
    unless a round is being played.
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
        if ties:  # a legal play: the match's own move, without the clock's switch and the history
            t, p = ties[0] if len(ties) == 1 else ties[int(random() * len(ties))]
            hand.remove(t)
            m._opening_tile = m._drawn = -1
            if not m._lay(player, t, p, now, events):
                break
            player = 1 - player
            continue
        m.to_act = player
        if m._boneyard:
            m._legal = ONLY_DRAW[player]  # nothing fits: the only legal action (the handler trusts it)
            m._draw(DRAW[player], now, events)
        else:
            m._legal = ONLY_PASS[player]
            m._pass(PASS[player], now, events)
            if m._phase is _HANDOVER:
                m._reveal(REVEAL[player ^ 1], now, events)
            if m._phase is not _PLAY:
                break
            player ^= 1
    m.to_act = None if m._phase is not _PLAY else player
    m._legal = None  # the listing cached before the rollout (or trusted by a draw or pass) is stale
