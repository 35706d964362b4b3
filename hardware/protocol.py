"""The serial panel's ASCII line protocol, version 1 (see docs/serial-protocol.md).

Pure encoding and decoding: bytes in, message objects out, and back. Nothing
here touches a port or a clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ProtocolError
from .events import GAME_BUTTONS, Button
from .state import PanelState, Phase

PROTOCOL_VERSION = 1
"""The version this host speaks; a board must announce the same number."""

MAGIC = "SB"
"""The second word of every HELLO line."""

MAX_LINE = 80
"""Longest line, in bytes, not counting the line terminator."""

_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,16}")
_INT = re.compile(r"-?[0-9]{1,9}")
_CLOCK = re.compile(r"([0-9]{2}):([0-5][0-9])\.([0-9])")
_PANEL_LETTERS = {Button.ACCEPT: "A", Button.RAISE: "R", Button.DECLINE: "D"}
MAX_CLOCK_MS = (99 * 60 + 59) * 1000 + 900


@dataclass(frozen=True, slots=True)
class Hello:
    """Handshake, both directions: ``HELLO SB <version> [<name>]``."""

    version: int = PROTOCOL_VERSION
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """Board to host: ``BTN <0|1|-> <BUTTON>``."""

    player: int | None
    button: Button


@dataclass(frozen=True, slots=True)
class ClockLine:
    """Host to board: ``CLK <player> <mm:ss.t>`` (the player's remaining clock)."""

    player: int
    ms: int


@dataclass(frozen=True, slots=True)
class BalanceLine:
    """Host to board: ``BAL <player> <amount>``."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class TurnLine:
    """Host to board: ``TURN <0|1|->``."""

    player: int | None


@dataclass(frozen=True, slots=True)
class BidLine:
    """Host to board: ``BID <amount|-> <bidder|->``."""

    amount: int | None
    bidder: int | None


@dataclass(frozen=True, slots=True)
class LightsLine:
    """Host to board: ``LIT <player> <A|-><R|-><D|-> <0|1>`` (active buttons, low bank)."""

    player: int
    active: frozenset[Button]
    low_bank: bool


@dataclass(frozen=True, slots=True)
class StateLine:
    """Host to board: ``STATE <PHASE>``."""

    phase: Phase


Message = Hello | ButtonPress | ClockLine | BalanceLine | TurnLine | BidLine | LightsLine | StateLine
BOARD_MESSAGES = (Hello, ButtonPress)
"""Message types a board may send to the host."""


def checksum(body: bytes) -> str:
    """The two-digit uppercase hex XOR of every byte of ``body``."""
    value = 0
    for byte in body:
        value ^= byte
    return f"{value:02X}"


def format_clock(ms: int) -> str:
    """``mm:ss.t`` for a clock reading, tenths truncated, clamped to 00:00.0..99:59.9."""
    ms = min(max(ms, 0), MAX_CLOCK_MS)
    tenths = ms // 100
    return f"{tenths // 600:02d}:{tenths // 10 % 60:02d}.{tenths % 10}"


def _player(word: str, *, optional: bool = False) -> int | None:
    if optional and word == "-":
        return None
    if word in ("0", "1"):
        return int(word)
    raise ProtocolError(f"bad player {word!r}")


def _int(word: str, *, optional: bool = False) -> int | None:
    if optional and word == "-":
        return None
    if not _INT.fullmatch(word):
        raise ProtocolError(f"bad number {word!r}")
    return int(word)


def _dash(value: int | None) -> str:
    return "-" if value is None else str(value)


def _words(message: Message) -> list[str]:
    match message:
        case Hello(version, name):
            return ["HELLO", MAGIC, str(version)] + ([name] if name else [])
        case ButtonPress(player, button):
            return ["BTN", _dash(player), button.value]
        case ClockLine(player, ms):
            return ["CLK", str(player), format_clock(ms)]
        case BalanceLine(player, amount):
            return ["BAL", str(player), str(amount)]
        case TurnLine(player):
            return ["TURN", _dash(player)]
        case BidLine(amount, bidder):
            return ["BID", _dash(amount), _dash(bidder)]
        case LightsLine(player, active, low_bank):
            flags = "".join(_PANEL_LETTERS[b] if b in active else "-" for b in GAME_BUTTONS)
            return ["LIT", str(player), flags, "1" if low_bank else "0"]
        case StateLine(phase):
            return ["STATE", phase.value]
    raise TypeError(f"not a protocol message: {message!r}")


def encode(message: Message, *, with_checksum: bool = False) -> bytes:
    """One protocol line for ``message``, terminated by ``\\n``."""
    body = " ".join(_words(message)).encode("ascii")
    if with_checksum:
        body += b"*" + checksum(body).encode("ascii")
    return body + b"\n"


def _decode_words(words: list[str]) -> Message:
    head, args = words[0], words[1:]
    arity = {"BTN": 2, "CLK": 2, "BAL": 2, "TURN": 1, "BID": 2, "LIT": 3, "STATE": 1}
    if head == "HELLO":
        if len(args) not in (2, 3) or args[0] != MAGIC:
            raise ProtocolError("HELLO needs 'SB <version> [<name>]'")
        version = _int(args[1])
        if version is None or version < 0:
            raise ProtocolError("bad protocol version")
        if len(args) == 3 and not _NAME.fullmatch(args[2]):
            raise ProtocolError(f"bad name {args[2]!r}")
        return Hello(version, args[2] if len(args) == 3 else None)
    if head not in arity:
        raise ProtocolError(f"unknown message {head[:16]!r}")
    if len(args) != arity[head]:
        raise ProtocolError(f"{head} takes {arity[head]} fields, got {len(args)}")
    match head:
        case "BTN":
            try:
                button = Button(args[1])
            except ValueError:
                raise ProtocolError(f"unknown button {args[1][:24]!r}") from None
            player = _player(args[0], optional=True)
            if (player is None) == button.is_game_button:
                raise ProtocolError(f"{button.value} needs {'a player' if player is None else '-'}")
            return ButtonPress(player, button)
        case "CLK":
            found = _CLOCK.fullmatch(args[1])
            if not found:
                raise ProtocolError(f"bad clock {args[1]!r}")
            mm, ss, t = (int(g) for g in found.groups())
            return ClockLine(_player(args[0]), ((mm * 60 + ss) * 10 + t) * 100)  # type: ignore[arg-type]
        case "BAL":
            return BalanceLine(_player(args[0]), _int(args[1]))  # type: ignore[arg-type]
        case "TURN":
            return TurnLine(_player(args[0], optional=True))
        case "BID":
            return BidLine(_int(args[0], optional=True), _player(args[1], optional=True))
        case "LIT":
            flags, low = args[1], args[2]
            if len(flags) != 3 or low not in ("0", "1"):
                raise ProtocolError("LIT needs '<player> <A|-><R|-><D|-> <0|1>'")
            active = set()
            for button, flag in zip(GAME_BUTTONS, flags):
                if flag == _PANEL_LETTERS[button]:
                    active.add(button)
                elif flag != "-":
                    raise ProtocolError(f"bad LIT flags {flags!r}")
            return LightsLine(_player(args[0]), frozenset(active), low == "1")  # type: ignore[arg-type]
        case _:  # STATE
            try:
                return StateLine(Phase(args[0]))
            except ValueError:
                raise ProtocolError(f"unknown phase {args[0][:24]!r}") from None


def decode(line: bytes) -> Message:
    """The message in one line (terminator optional); ProtocolError if it is not valid."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError("line too long")
    if not line or any(byte < 0x20 or byte > 0x7E for byte in line):
        raise ProtocolError("empty line or a byte outside printable ASCII")
    star = line.rfind(b"*")
    if star != -1:
        body, given = line[:star], line[star + 1 :].decode("ascii")
        if given.upper() != checksum(body) or len(given) != 2:
            raise ProtocolError("checksum mismatch")
        line = body
    text = line.decode("ascii")
    words = text.split(" ")
    if "" in words:
        raise ProtocolError("fields must be separated by exactly one space")
    return _decode_words(words)


def state_lines(state: PanelState) -> dict[tuple[str, int | None], Message]:
    """Every display message describing ``state``, keyed by (kind, player)."""
    lines: dict[tuple[str, int | None], Message] = {("STATE", None): StateLine(state.phase)}
    for seat, panel in enumerate(state.players):
        lines[("LIT", seat)] = LightsLine(seat, panel.active, panel.low_bank)
        lines[("CLK", seat)] = ClockLine(seat, panel.clock_ms)
        lines[("BAL", seat)] = BalanceLine(seat, panel.balance)
    lines[("TURN", None)] = TurnLine(state.turn)
    lines[("BID", None)] = BidLine(state.standing_bid, state.bidder)
    return lines


def changed_lines(
    old: PanelState | None, new: PanelState, *, with_checksum: bool = False
) -> list[bytes]:
    """The encoded lines that turn a board showing ``old`` into one showing ``new``.

    With ``old`` None (a board that just connected) every line is included.
    Two states that differ only below a clock's displayed tenth give no CLK line.
    """
    before = state_lines(old) if old is not None else {}
    out = []
    for key, message in state_lines(new).items():
        if key[0] == "CLK" and key in before:
            if encode(before[key]) == encode(message):
                continue
        elif before.get(key) == message:
            continue
        out.append(encode(message, with_checksum=with_checksum))
    return out
