"""Spectacular Bid rules engine: tiles, layout, auction, match clock and the whole match.

Pure and deterministic: time comes in as integer nanoseconds with each command, randomness as a
``random.Random`` given to ``shuffle_deal``. No I/O, no system clock, no global random.
"""

from .actions import Accept, Action, Bid, Decline, Draw, Pass, Play, Resign, Reveal, Start
from .auction import JOCKEY_CREDIT, MIN_BID, RAISE_STEP
from .clock import LOW_BANK_NS, NS_PER_MS, NS_PER_S
from .deal import Deal, shuffle_deal
from .errors import (
    MESSAGES,
    BadAmount,
    BotError,
    CannotDraw,
    CannotPass,
    EngineError,
    IllegalAction,
    IllegalPlay,
    Malformed,
    MatchIsOver,
    MustPlayDrawn,
    NoDeal,
    NotYourTurn,
    ScenarioError,
    SnapshotError,
    Unaffordable,
    UnknownTile,
    WrongPhase,
)
from .events import EndReason, Event, MatchEnded, Outcome, RoundEnded, Transfer, TransferReason
from .history import Turn, TurnKind
from .layout import Layout, Placement
from .match import AuctionView, Match, MatchConfig, Phase, ranked_opener, round_to_five
from .tiles import ALL_TILES, Point, Slot, Tile, tile
from .view import PlayerView

__all__ = [
    "ALL_TILES",
    "JOCKEY_CREDIT",
    "LOW_BANK_NS",
    "MESSAGES",
    "MIN_BID",
    "NS_PER_MS",
    "NS_PER_S",
    "RAISE_STEP",
    "Accept",
    "Action",
    "AuctionView",
    "BadAmount",
    "Bid",
    "BotError",
    "CannotDraw",
    "CannotPass",
    "Deal",
    "Decline",
    "Draw",
    "EndReason",
    "EngineError",
    "Event",
    "IllegalAction",
    "IllegalPlay",
    "Layout",
    "Malformed",
    "Match",
    "MatchConfig",
    "MatchEnded",
    "MatchIsOver",
    "MustPlayDrawn",
    "NoDeal",
    "NotYourTurn",
    "Outcome",
    "Pass",
    "Phase",
    "Placement",
    "Play",
    "PlayerView",
    "Point",
    "Resign",
    "Reveal",
    "RoundEnded",
    "ScenarioError",
    "Slot",
    "SnapshotError",
    "Start",
    "Tile",
    "Transfer",
    "TransferReason",
    "Turn",
    "TurnKind",
    "Unaffordable",
    "UnknownTile",
    "WrongPhase",
    "ranked_opener",
    "round_to_five",
    "shuffle_deal",
    "tile",
]
