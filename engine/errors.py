"""The engine's error hierarchy and the message templates of its refusals.

Every error carries a stable ``code`` (the conformance codes of FORMAT.md), an English message
``template`` with ``{placeholders}`` and the ``params`` that fill it, so that a screen can show
the refusal in its reader's language: the template is the message id of the kiosk's translation
catalogs. ``message`` (and ``str(error)``) is the English ``template.format(**params)``.

``REFUSALS`` are the templates a player can meet at the table, each marked with ``N_`` so that the
catalogs' extraction finds them. ``DIAGNOSTICS`` are the templates of what no player ever sees at
the table (malformed requests, unknown tile names, damaged snapshots, malformed scenario files):
English only, deliberately not marked, so that they need no translations. ``MESSAGES`` is both.
"""

from __future__ import annotations

from typing import Any


def N_(msgid: str) -> str:
    """``msgid`` itself: marks an English message id for the translation catalogs."""
    return msgid


# -- refusals a player can meet (message ids of the kiosk's catalogs) -------------------------

NOT_YOUR_TURN = N_("It is the other player's turn.")
OTHER_PLAYER_REVEALS = N_("The other player is the one to reveal their hand.")
REVEAL_FIRST = N_("The player to act must reveal their hand first.")
WRONG_PHASE = N_("That is not possible now: the match is in its {phase} phase.")
"""``phase``: a ``Phase`` value such as ``"auction"``."""
START_BETWEEN_ROUNDS = N_("Start / Continue is only possible between rounds.")
NO_HANDOVER = N_("There is no hand-over to finish: the player to act can already see their hand.")
NOT_IN_HAND = N_("[{tile}] is not in your hand.")
MUST_PLAY_DRAWN = N_("You drew [{tile}], which fits: it must be played now.")
RANKED_OPENING = N_("This round opens by rank: it must open with [{tile}].")
NO_MATCH = N_("[{tile}] does not match the {value} at {point}.")
"""``tile``: a ``Tile``; ``value``: an int; ``point``: a ``Point``."""
NOT_OPEN_POINT = N_("That is not an open connection point.")
SAY_WHERE = N_("Say where [{tile}] goes: the layout is already open.")
OPENS_LAYOUT = N_("[{tile}] opens the layout: it is not placed on another tile.")
CANNOT_DRAW_NOW = N_("You cannot draw now.")
"""A draw before the opening, or while a tile in hand can be placed."""
CANNOT_PASS_NOW = N_("You cannot pass now.")
"""A pass before the opening, or while a tile in hand can be placed."""
BONEYARD_EMPTY = N_("The boneyard is empty: pass instead.")
DRAW_FIRST = N_("Draw from the boneyard first: pass only when it is empty.")
DECLINE_FIRST_ONLY = N_("Declining is only possible as the first auction action: accept or raise.")
NO_BID_TO_ACCEPT = N_("There is no bid to accept: bid or decline.")
BAD_AMOUNT = N_("Bids are multiples of 5 and the smallest bid now is {least}, not {amount}.")
UNAFFORDABLE = N_("A bid of {amount} would cost {cost} points and you have {balance}.")
MATCH_OVER = N_("The match is over ({reason}).")
"""``reason``: an ``EndReason`` value such as ``"balance"``."""
MATCH_ABORTED = N_("The match was aborted: nothing more can be played.")

REFUSALS: tuple[str, ...] = (
    NOT_YOUR_TURN,
    OTHER_PLAYER_REVEALS,
    REVEAL_FIRST,
    WRONG_PHASE,
    START_BETWEEN_ROUNDS,
    NO_HANDOVER,
    NOT_IN_HAND,
    MUST_PLAY_DRAWN,
    RANKED_OPENING,
    NO_MATCH,
    NOT_OPEN_POINT,
    SAY_WHERE,
    OPENS_LAYOUT,
    CANNOT_DRAW_NOW,
    CANNOT_PASS_NOW,
    BONEYARD_EMPTY,
    DRAW_FIRST,
    DECLINE_FIRST_ONLY,
    NO_BID_TO_ACCEPT,
    BAD_AMOUNT,
    UNAFFORDABLE,
    MATCH_OVER,
    MATCH_ABORTED,
)
"""The refusals of well-formed commands: every one can reach a player, every one is translated."""

# -- diagnostics (English only: no player sees them at the table) -------------------------------

UNKNOWN_TILE_NAME = 'There is no tile {name!r}: write a double-six tile as two numbers 0-6 like "1|4".'
UNKNOWN_TILE = "{tile!r} is not one of the 28 double-six tiles."
UNKNOWN_SLOT = "{slot!r} is not a slot: use one of {slots}."
NOT_A_PLAYER = "The player must be 0 or 1, not {player!r}."
NOT_A_STARTER = "The player pressing Start must be 0, 1 or None, not {player!r}."
NOT_A_DEAL = "Start needs a Deal or None, not {deal!r}."
NOT_A_TILE = "{what} must be a Tile, not {value!r}."
NOT_A_POINT = "A play's point must be a Point of a tile and a Slot, or None for the opening, not {at!r}."
NOT_AN_AMOUNT = "A bid is a whole number of points, not {amount!r}."
NOT_A_TIME = "An arrival time is a whole number of nanoseconds, not {now!r}."
OUT_OF_ORDER = (
    "This command is stamped {now} ns, earlier than the last accepted one at {last} ns: "
    "commands must be applied in the order they arrived."
)
NOT_A_COMMAND = "{action!r} is not a command the engine knows."
NO_DEAL = "There is no deal for the next round."
NO_TILES = "No tiles were dealt."
BAD_PAIR = "{name} must be two positive whole numbers, not {value!r}."
BAD_DELAY = "delay_ns must be a whole number >= 0, not {value!r}."
BAD_JOCKEY = "The jockey must be None, 0 or 1, not {value!r}."
BAD_HANDOVER = "handover must be true or false, not {value!r}."
BAD_DEAL_SIZES = "A deal needs hands of 7 and 7 tiles and a boneyard of 14, not {first}, {second} and {boneyard}."
BAD_DEAL_TILES = "A deal must use each of the 28 tiles once; missing: {missing}."
BAD_PERMUTATION = "A deal is a permutation of the 28 tile indices."
BAD_HAND_COUNT = "A deal has two hands, not {count}."
BAD_DEAL_DATA = 'A deal is {{"hands": [[7 tiles], [7 tiles]], "boneyard": [14 tiles]}}.'
BAD_AT = 'A play\'s "at" is [tile, slot], not {at!r}.'
SNAPSHOT_WRONG_VERSION = "The saved match state has version {found!r}, not {expected}."
SNAPSHOT_DAMAGED = "The saved match state is damaged: {why}"
SNAPSHOT_TILES = "The saved match state is damaged: the 28 tiles are not all accounted for."
SNAPSHOT_BALANCES = "The saved match state is damaged: the balances do not add up."
SNAPSHOT_NOT_JSON = "The saved match state is not readable JSON: {why}"
SNAPSHOT_NOT_OBJECT = "The saved match state is not a JSON object."
SCENARIO_NOT_JSON = "not valid JSON: {why}"
SCENARIO_NOT_OBJECT = "a scenario is a JSON object"
SCENARIO_CONFIG_NOT_OBJECT = "config must be an object"
SCENARIO_UNKNOWN_KEYS = "unknown config keys: {keys}"
SCENARIO_BAD_LIST = "config.{key} must be a list of two numbers"
SCENARIO_BAD_MS = "{what} must be a number of milliseconds, not {value!r}"
SCENARIO_CONFIG = "config: {why}"
SCENARIO_DEALS_NOT_LIST = "deals must be a list"
SCENARIO_DEAL = "deals[{index}]: {why}"
SCENARIO_STEPS_NOT_LIST = "steps must be a list"
SCENARIO_STEP_NOT_OBJECT = "steps[{index}] is not an object"
SCENARIO_UNKNOWN_DO = "steps[{index}]: unknown do {do!r}"
SCENARIO_BACKWARDS = "steps[{index}]: t goes backwards"
BAD_FILL = "The hidden tiles do not fill the view: {why}"
NOTHING_TO_DECIDE = "Seat {seat} has nothing to decide now."
BAD_LEVEL = "A bot level is 1, 2, 3 or 4, not {level!r}."

DIAGNOSTICS: tuple[str, ...] = (
    UNKNOWN_TILE_NAME,
    UNKNOWN_TILE,
    UNKNOWN_SLOT,
    NOT_A_PLAYER,
    NOT_A_STARTER,
    NOT_A_DEAL,
    NOT_A_TILE,
    NOT_A_POINT,
    NOT_AN_AMOUNT,
    NOT_A_TIME,
    OUT_OF_ORDER,
    NOT_A_COMMAND,
    NO_DEAL,
    NO_TILES,
    BAD_PAIR,
    BAD_DELAY,
    BAD_JOCKEY,
    BAD_HANDOVER,
    BAD_DEAL_SIZES,
    BAD_DEAL_TILES,
    BAD_PERMUTATION,
    BAD_HAND_COUNT,
    BAD_DEAL_DATA,
    BAD_AT,
    SNAPSHOT_WRONG_VERSION,
    SNAPSHOT_DAMAGED,
    SNAPSHOT_TILES,
    SNAPSHOT_BALANCES,
    SNAPSHOT_NOT_JSON,
    SNAPSHOT_NOT_OBJECT,
    SCENARIO_NOT_JSON,
    SCENARIO_NOT_OBJECT,
    SCENARIO_CONFIG_NOT_OBJECT,
    SCENARIO_UNKNOWN_KEYS,
    SCENARIO_BAD_LIST,
    SCENARIO_BAD_MS,
    SCENARIO_CONFIG,
    SCENARIO_DEALS_NOT_LIST,
    SCENARIO_DEAL,
    SCENARIO_STEPS_NOT_LIST,
    SCENARIO_STEP_NOT_OBJECT,
    SCENARIO_UNKNOWN_DO,
    SCENARIO_BACKWARDS,
    BAD_FILL,
    NOTHING_TO_DECIDE,
    BAD_LEVEL,
)
"""Templates of malformed requests, unknown tile names, damaged snapshots and scenario files."""

MESSAGES: tuple[str, ...] = REFUSALS + DIAGNOSTICS
"""Every template the engine can raise."""


# -- the errors -----------------------------------------------------------------------------------


class EngineError(Exception):
    """Base of every error the engine raises: a stable ``code``, a ``template`` and its ``params``."""

    code: str = "engine_error"

    def __init__(self, template: str, /, **params: Any) -> None:
        message = template.format(**params)
        super().__init__(message)
        self.template = template
        """The English message id, with ``{placeholders}``."""
        self.params: dict[str, Any] = params
        """The raw values of the placeholders (tiles, points, numbers, phase and reason values)."""
        self.message = message
        """The English sentence: ``template.format(**params)``."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the class, the template and the params (not the formatted message)."""
        return (_rebuild, (type(self), self.template, self.params))


def _rebuild(cls: type[EngineError], template: str, params: dict[str, Any]) -> EngineError:
    """The error of class ``cls`` with ``template`` and ``params`` (for pickling and copying)."""
    return cls(template, **params)


class IllegalAction(EngineError, ValueError):
    """A request that the rules refuse; the match is left exactly as it was."""

    code = "illegal"


class WrongPhase(IllegalAction):
    """The request does not belong to the current phase of the match."""

    code = "wrong_phase"


class NotYourTurn(IllegalAction):
    """The request came from the player who is not to act."""

    code = "not_your_turn"


class IllegalPlay(IllegalAction):
    """The tile cannot be placed there (or is not in the player's hand)."""

    code = "illegal_play"


class MustPlayDrawn(IllegalAction):
    """A playable tile was drawn: that tile, and no other, must be placed now."""

    code = "must_play_drawn"


class CannotDraw(IllegalAction):
    """Drawing is allowed only when nothing in hand can be placed and the boneyard has tiles."""

    code = "cannot_draw"


class CannotPass(IllegalAction):
    """Passing is allowed only when nothing can be placed and the boneyard is empty."""

    code = "cannot_pass"


class BadAmount(IllegalAction):
    """A bid that is not a multiple of 5 or is below the minimum."""

    code = "bad_amount"


class Unaffordable(IllegalAction):
    """A bid whose net payment would exceed the bidder's balance."""

    code = "unaffordable"


class MatchIsOver(IllegalAction):
    """The match has ended; nothing more can be played."""

    code = "match_over"


class NoDeal(IllegalAction):
    """Start or Continue was requested without a deal to play."""

    code = "no_deal"


class UnknownTile(IllegalAction):
    """A tile name that is not one of the 28 double-six tiles."""

    code = "unknown_tile"


class Malformed(IllegalAction):
    """A request whose fields are missing or of the wrong kind."""

    code = "malformed"


class SnapshotError(EngineError, ValueError):
    """A saved match state that cannot be restored."""

    code = "bad_snapshot"


class ScenarioError(EngineError, ValueError):
    """A conformance scenario file that is not well formed."""

    code = "malformed_scenario"


ERROR_CODES: tuple[str, ...] = (
    WrongPhase.code,
    NotYourTurn.code,
    IllegalPlay.code,
    MustPlayDrawn.code,
    CannotDraw.code,
    CannotPass.code,
    BadAmount.code,
    Unaffordable.code,
    MatchIsOver.code,
    NoDeal.code,
    UnknownTile.code,
    Malformed.code,
)


class BotError(EngineError, ValueError):
    """A computer player was asked for a decision it cannot make, or given an impossible fill-in."""

    code = "bot_error"
