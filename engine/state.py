"""A match's state as one record: every field declared once, with how it is copied and saved.

``MatchState`` holds the fields; ``Match`` (``match.py``) adds the rules on top of it. The search's
copies (``copy_fields``), the snapshot (``state_to_dict`` / ``state_from_dict``) and the bots'
filled-in matches (``engine.bots.knowledge``) all derive from these declarations, so a new field is
one edit here. Also the plain values every part of a match shares: ``Phase``, ``MatchConfig`` and
``AuctionView``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any

from .actions import Action
from .auction import Auction, net_payment
from .clock import NS_PER_S, MatchClock
from .errors import BAD_DELAY, BAD_HANDOVER, BAD_JOCKEY, BAD_PAIR, Malformed
from .events import EndReason, Outcome
from .layout import Layout
from .tiles import ALL_TILES, TILE_INDEX, Tile

SNAPSHOT_VERSION = 1


class Phase(StrEnum):
    """Where the match stands."""

    READY = "ready"
    """Between rounds (and before the first): clocks stopped until Start / Continue."""
    AUCTION = "auction"
    """Bidding for the opening after a domino."""
    PLAY = "play"
    """Tiles are being placed (the opening turn included)."""
    HANDOVER = "handover"
    """Shared screen: waiting for the next player to reveal their hand; clocks stopped."""
    MATCH_OVER = "match_over"
    """The match has ended."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """How a match begins: balances, banks, the delay, hand-over mode and an optional first jockey."""

    balances: tuple[int, int] = (150, 150)
    bank_ns: tuple[int, int] = (120 * NS_PER_S, 120 * NS_PER_S)
    delay_ns: int = 10 * NS_PER_S
    handover: bool = False
    jockey: int | None = None

    def __post_init__(self) -> None:
        for name, pair in (("balances", self.balances), ("bank_ns", self.bank_ns)):
            if len(pair) != 2 or not all(_is_int(v) and v > 0 for v in pair):
                raise Malformed(BAD_PAIR, name=name, value=pair)
        if not _is_int(self.delay_ns) or self.delay_ns < 0:
            raise Malformed(BAD_DELAY, value=self.delay_ns)
        if self.jockey is not None and not (_is_int(self.jockey) and self.jockey in (0, 1)):
            raise Malformed(BAD_JOCKEY, value=self.jockey)
        if not isinstance(self.handover, bool):
            raise Malformed(BAD_HANDOVER, value=self.handover)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for saving."""
        return {
            "balances": list(self.balances),
            "bank_ns": list(self.bank_ns),
            "delay_ns": self.delay_ns,
            "handover": self.handover,
            "jockey": self.jockey,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchConfig:
        """The configuration saved by ``to_dict``."""
        return cls(
            balances=(data["balances"][0], data["balances"][1]),
            bank_ns=(data["bank_ns"][0], data["bank_ns"][1]),
            delay_ns=data["delay_ns"],
            handover=data["handover"],
            jockey=data["jockey"],
        )


@dataclass(frozen=True, slots=True)
class AuctionView:
    """What a screen needs to show of the auction in progress."""

    jockey: int
    bid: int | None
    bidder: int | None
    min_bid: int
    max_bid: tuple[int, int]
    """The largest bid each player can afford (below ``min_bid``: that player cannot bid)."""

    def cost(self, bidder: int, amount: int) -> int:
        """What ``bidder`` pays if their bid of ``amount`` is accepted (the jockey's credit applied)."""
        return net_payment(amount, bidder, self.jockey)


# ---------------------------------------------------------------------- how fields are saved

def _tile_name(t: int) -> str | None:
    return None if t < 0 else str(ALL_TILES[t])


def _tile_index(name: str | None) -> int:
    return -1 if name is None else TILE_INDEX[Tile.parse(name)]


def _save_outcome(o: Outcome | None) -> dict[str, Any] | None:
    if o is None:
        return None
    return {"winner": o.winner, "reason": o.reason.value, "rated": o.rated, "detail": o.detail,
            "detail_template": o.detail_template, "detail_params": dict(o.detail_params)}


def _load_outcome(o: dict[str, Any] | None) -> Outcome | None:
    """An outcome saved by ``_save_outcome`` (older snapshots have no detail template: the detail is one)."""
    if o is None:
        return None
    detail = str(o.get("detail", ""))
    params = o.get("detail_params") or {}
    return Outcome(
        o["winner"], EndReason(o["reason"]), bool(o["rated"]), detail, str(o.get("detail_template", detail)),
        tuple(sorted((str(k), str(v)) for k, v in dict(params).items())),
    )


def _names(tiles: list[int]) -> list[str]:
    return [str(ALL_TILES[t]) for t in tiles]


def _indices(names: list[str]) -> list[int]:
    return [TILE_INDEX[Tile.parse(t)] for t in names]


def _hand_names(hands: list[list[int]]) -> list[list[str]]:
    return [_names(h) for h in hands]


def _hand_indices(hands: list[list[str]]) -> list[list[int]]:
    return [sorted(_indices(h)) for h in hands]


def _load_history(history: list[list[int]]) -> list[tuple[int, int, int, int]]:
    return [(int(e[0]), int(e[1]), int(e[2]), int(e[3])) for e in history]


def _save_optional(value: Any) -> Any:
    """``value.to_dict()`` for an auction, ``value.value`` for a phase; None stays None."""
    if value is None:
        return None
    return value.value if isinstance(value, Phase) else value.to_dict()


def _load_auction(data: dict[str, Any] | None) -> Auction | None:
    return None if data is None else Auction.from_dict(data)


def _load_phase(value: str | None) -> Phase | None:
    return None if value is None else Phase(value)


def _same(value: Any) -> Any:
    return value


_UNSAVED = ""


def _how(
    *,
    copy: str = "{0}",
    key: str = _UNSAVED,
    save: Callable[[Any], Any] = _same,
    load: Callable[[Any], Any] = _same,
    missing: Any = MISSING,
) -> dict[str, Any]:
    """A state field's metadata: ``copy`` is the expression that copies it (``{0}`` the value; the
    default shares it, for values never changed in place); ``key`` its snapshot entry (none: not
    saved), ``save`` / ``load`` turn it into plain data and back, ``missing`` is its value when an
    older snapshot lacks the key."""
    return {"copy": copy, "key": key, "save": save, "load": load, "missing": missing}


@dataclass(slots=True, eq=False, kw_only=True, repr=False)  # no repr: it would show the hidden tiles
class MatchState:
    """Every field of a match (tiles as indices into ``ALL_TILES``, points into ``POINTS``).

    Declared in snapshot order. ``Match`` reads and changes them; nothing else should.
    """

    config: MatchConfig = field(metadata=_how(key="config", save=MatchConfig.to_dict, load=MatchConfig.from_dict))
    boot_id: str = field(default="", metadata=_how(key="boot_id", load=str))
    """The boot the clock's timestamps were measured in."""
    _last_ns: int | None = field(default=None, metadata=_how(key="last_ns"))
    """Arrival time of the last accepted command."""
    _phase: Phase = field(default=Phase.READY, metadata=_how(key="phase", save=_save_optional, load=Phase))
    _round: int = field(default=0, metadata=_how(key="round", load=int))
    _balances: list[int] = field(
        metadata=_how(copy="list({0})", key="balances", save=list, load=lambda b: [int(b[0]), int(b[1])]))
    _jockey: int | None = field(metadata=_how(key="jockey"))
    _hands: list[list[int]] = field(default_factory=lambda: [[], []], metadata=_how(
        copy="[list({0}[0]), list({0}[1])]", key="hands", save=_hand_names, load=_hand_indices))
    """Tile indices, kept sorted."""
    _boneyard: list[int] = field(default_factory=list, metadata=_how(
        copy="list({0})", key="boneyard", save=_names, load=_indices))
    """Tile indices in drawing order."""
    _layout: Layout = field(default_factory=Layout, metadata=_how(
        copy="{0}.copy()", key="layout", save=Layout.to_list, load=Layout.from_list))
    to_act: int | None = field(default=None, metadata=_how(key="to_act"))
    """The player who must act next (in a hand-over: who must reveal), or None.

    Read only: the match changes it (a plain attribute, not a property, for the speed of the
    loops that ask it before every command).
    """
    _opening_tile: int = field(default=-1, metadata=_how(key="opening_tile", save=_tile_name, load=_tile_index))
    """Index of the tile a ranked opening must use, or -1."""
    _drawn: int = field(default=-1, metadata=_how(key="drawn", save=_tile_name, load=_tile_index))
    """Index of a drawn tile that fits and must be played, or -1."""
    _passes: int = field(default=0, metadata=_how(key="passes", load=int))
    _auction: Auction | None = field(default=None, metadata=_how(
        copy="None if {0} is None else {0}.copy()", key="auction", save=_save_optional, load=_load_auction))
    _after_reveal: Phase | None = field(default=None, metadata=_how(
        key="after_reveal", save=_save_optional, load=_load_phase))
    """In a hand-over, the phase that continues after the reveal."""
    _last_actor: int | None = field(default=None, metadata=_how(key="last_actor"))
    _history: list[tuple[int, int, int, int]] = field(default_factory=list, metadata=_how(
        copy="list({0})", key="history", save=lambda h: [list(e) for e in h], load=_load_history, missing=[]))
    """The round's commands: (player, kind code, tile index / bid amount / -1, point index / -1)."""
    _ranked: bool = field(default=False, metadata=_how(key="ranked", load=bool, missing=False))
    """Whether the current round opened (or opens) by rank."""
    _clock: MatchClock = field(metadata=_how(
        copy="{0}.copy()", key="clock", save=MatchClock.to_dict, load=MatchClock.from_dict))
    _outcome: Outcome | None = field(default=None, metadata=_how(key="outcome", save=_save_outcome, load=_load_outcome))
    _handover: bool = field(metadata=_how())
    """Whether a change of player goes through a hand-over (the configuration's)."""
    _legal: tuple[Action, ...] | None = field(default=None, metadata=_how())
    """The legal actions listed since the last change, or None (a cache: shared by copies)."""


_FIELDS = fields(MatchState)
_SAVED = tuple(f for f in _FIELDS if f.metadata["key"])

def _make_copier() -> Callable[[MatchState, MatchState], None]:
    """``copy_fields(source, target)``, generated once from the declarations (as ``dataclasses``
    builds ``__init__``): a plain assignment per field, as fast as one written by hand."""
    lines = ["def copy_fields(source, target):"]
    lines += [f"    target.{f.name} = {f.metadata['copy'].format('source.' + f.name)}" for f in _FIELDS]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # the source: built above from the field declarations
    copier: Callable[[MatchState, MatchState], None] = namespace["copy_fields"]
    return copier


copy_fields = _make_copier()


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """Every saved field as plain JSON-ready data, with the snapshot's version."""
    data: dict[str, Any] = {"version": SNAPSHOT_VERSION}
    for f in _SAVED:
        data[f.metadata["key"]] = f.metadata["save"](getattr(state, f.name))
    return data


def state_from_dict(state: MatchState, data: dict[str, Any]) -> None:
    """Set every saved field of ``state`` from ``data`` (made by ``state_to_dict``) except the
    configuration and the boot, which the caller built it with. Raises what a damaged entry raises
    (KeyError, TypeError, ValueError, IndexError, AttributeError)."""
    for f in _SAVED:
        key = f.metadata["key"]
        if key in ("config", "boot_id"):
            continue
        missing = f.metadata["missing"]
        value = data[key] if missing is MISSING or key in data else missing
        setattr(state, f.name, f.metadata["load"](value))
