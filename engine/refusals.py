"""The refusals of a match: the checks that turn a command away (raising, changing nothing).

``MatchRefusals`` adds them to the readable state (``reading.py``); ``Match`` (``match.py``) calls
them from its handlers.
"""

from __future__ import annotations

from .actions import Play
from .auction import Auction
from .errors import (
    MATCH_ABORTED,
    MATCH_OVER,
    MUST_PLAY_DRAWN,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    RANKED_OPENING,
    REVEAL_FIRST,
    SNAPSHOT_BALANCES,
    SNAPSHOT_TILES,
    WRONG_PHASE,
    CannotDraw,
    CannotPass,
    IllegalPlay,
    MatchIsOver,
    MustPlayDrawn,
    NotYourTurn,
    SnapshotError,
    WrongPhase,
)
from .reading import MatchReading
from .state import Phase
from .tiles import ALL_TILES, TILE_INDEX, TILE_MASK

_HANDOVER, _AUCTION = Phase.HANDOVER, Phase.AUCTION


class MatchRefusals(MatchReading):
    """A match's state with the checks its commands must pass."""

    __slots__ = ()

    def _check_turn(self, player: int, phase: Phase) -> None:
        if self._phase is not phase:
            if self._phase is _HANDOVER and self._after_reveal is phase:
                raise WrongPhase(REVEAL_FIRST)
            raise WrongPhase(WRONG_PHASE, phase=self._phase.value)
        if player != self.to_act:
            raise NotYourTurn(NOT_YOUR_TURN)

    def _check_play(self, action: Play) -> None:
        """Refuse ``action`` (the player's turn of play checked) with the first reason that applies: the
        tile is not in hand, another tile must be played (drawn, or the ranked opening's), the point."""
        t = action.tile_index
        if t not in self._hands[action.player]:
            raise IllegalPlay(NOT_IN_HAND, tile=action.tile)
        if self._drawn >= 0 and t != self._drawn:
            raise MustPlayDrawn(MUST_PLAY_DRAWN, tile=ALL_TILES[self._drawn])
        if self._opening_tile >= 0 and t != self._opening_tile:
            raise IllegalPlay(RANKED_OPENING, tile=ALL_TILES[self._opening_tile])
        self._layout.check_index(t, action.point_index)

    def _check_auction_turn(self, player: int) -> Auction:
        self._check_turn(player, _AUCTION)
        assert self._auction is not None
        return self._auction

    def _check_nothing_fits(self, player: int, error: type[CannotDraw | CannotPass], template: str) -> None:
        """Refuse a draw or pass (``error`` with ``template``) while the opening is due or a tile fits."""
        if self._layout.is_empty:
            raise error(template)
        if self._drawn >= 0:
            raise MustPlayDrawn(MUST_PLAY_DRAWN, tile=ALL_TILES[self._drawn])
        mask = self._layout.open_values_mask
        for t in self._hands[player]:
            if TILE_MASK[t] & mask:
                raise error(template)

    def over_refusal(self) -> MatchIsOver:
        """The refusal of any command once the match is over (the match must be over)."""
        o = self._outcome
        assert o is not None
        if o.winner is None:
            return MatchIsOver(MATCH_ABORTED)
        return MatchIsOver(MATCH_OVER, reason=o.reason.value)

    def _check_consistent(self) -> None:
        tiles = [*self._hands[0], *self._hands[1], *self._boneyard, *(TILE_INDEX[t] for t in self._layout.tiles())]
        if self._round > 0 and (len(tiles) != 28 or len(set(tiles)) != 28):
            raise SnapshotError(SNAPSHOT_TILES)
        if sum(self._balances) != sum(self.config.balances) or min(self._balances) < 0:
            raise SnapshotError(SNAPSHOT_BALANCES)
