"""A serial panel in a terminal: ``python -m hardware.panel_emulator``.

Opens a pty, prints its path (and keeps an optional stable symlink to it),
answers the kiosk's HELLO, shows the display lines the kiosk sends, and turns
typed commands into button lines::

    0a 0r 0d     player 0 accept / raise / decline
    1a 1r 1d     player 1 accept / raise / decline
    s v h        start-continue / reveal / help (kiosk buttons)
    raw TEXT     send TEXT as one line, unchecked
    unplug       make the pty disappear; plug brings a new one (same --link)
    q            quit

Several commands may share a line (``0a 1a``).
"""

from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import dataclass, field

from .errors import InvalidValue, ProtocolError
from .events import Button
from .protocol import (
    PROTOCOL_VERSION,
    BalanceLine,
    BidLine,
    ButtonPress,
    ClockLine,
    LightsLine,
    StateLine,
    TurnLine,
    decode,
    encode,
    format_clock,
)
from .ptyboard import PtyBoard

PLAYER_KEYS = {"a": Button.ACCEPT, "r": Button.RAISE, "d": Button.DECLINE}
KIOSK_KEYS = {"s": Button.START_CONTINUE, "v": Button.REVEAL, "h": Button.HELP}


def command_lines(text: str) -> list[bytes]:
    """The protocol lines for one typed line of commands; InvalidValue (a ValueError) names a bad command."""
    stripped = text.strip()
    if stripped.startswith("raw "):
        return [stripped[4:].encode("ascii", "replace") + b"\n"]
    out = []
    for word in stripped.lower().split():
        if len(word) == 2 and word[0] in "01" and word[1] in PLAYER_KEYS:
            out.append(encode(ButtonPress(int(word[0]), PLAYER_KEYS[word[1]])))
        elif word in KIOSK_KEYS:
            out.append(encode(ButtonPress(None, KIOSK_KEYS[word])))
        else:
            raise InvalidValue(f"unknown command {word!r} (try 0a, 1r, s, h, raw ..., q)")
    return out


@dataclass
class Display:
    """What a real board would show, updated from the kiosk's display lines."""

    phase: str = "-"
    turn: str = "-"
    bid: str = "-"
    clocks: list[str] = field(default_factory=lambda: ["--:--.-", "--:--.-"])
    balances: list[str] = field(default_factory=lambda: ["-", "-"])
    lights: list[str] = field(default_factory=lambda: ["---", "---"])
    bad_lines: int = 0

    def apply(self, line: bytes) -> bool:
        """Take one line from the kiosk; True if more than a clock's tenths changed."""
        try:
            message = decode(line)
        except ProtocolError:
            self.bad_lines += 1
            return True
        before = self.render()
        match message:
            case StateLine(phase):
                self.phase = phase.value
            case TurnLine(player):
                self.turn = "-" if player is None else str(player)
            case BidLine(amount, bidder):
                self.bid = "-" if amount is None else f"{amount} by {bidder}"
            case ClockLine(player, ms):
                old = self.clocks[player]
                self.clocks[player] = format_clock(ms)
                return old[:5] != self.clocks[player][:5]  # redraw once a second
            case BalanceLine(player, amount):
                self.balances[player] = str(amount)
            case LightsLine(player, active, low_bank):
                flags = "".join(b.name[0] if b in active else "-" for b in PLAYER_KEYS.values())
                self.lights[player] = flags + (" blink" if low_bank else "")
            case _:
                pass
        return self.render() != before

    def render(self) -> str:
        """One line summarising the board."""
        seats = " | ".join(
            f"P{p} {self.clocks[p]} bank {self.balances[p]} [{self.lights[p]}]" for p in (0, 1)
        )
        return f"{self.phase:<10} turn {self.turn} bid {self.bid} | {seats}"


def main(argv: list[str] | None = None) -> int:
    """Run the emulator until ``q`` or end of input."""
    parser = argparse.ArgumentParser(prog="python -m hardware.panel_emulator", description=__doc__.split("\n\n")[0])
    parser.add_argument("--link", help="keep this symlink pointing at the pty (a path that survives unplug)")
    parser.add_argument("--version", type=int, default=PROTOCOL_VERSION, help="protocol version to announce")
    parser.add_argument("--name", default="EMU", help="board name sent in HELLO")
    parser.add_argument("--raw", action="store_true", help="print every line from the kiosk, not a summary")
    args = parser.parse_args(argv)

    display = Display()
    lock = threading.Lock()

    def on_line(line: bytes) -> None:
        with lock:
            if args.raw:
                print(f"<< {line.decode('ascii', 'replace')}", flush=True)
            elif display.apply(line):
                print(display.render(), flush=True)

    board = PtyBoard(args.link, version=args.version, name=args.name, on_line=on_line)
    device = board.plug()
    print(f"panel emulator on {device}" + (f" (link {args.link})" if args.link else ""), flush=True)
    print(f'kiosk config: [serial] enabled = true, url = "{args.link or device}"')
    print("commands: 0a 0r 0d 1a 1r 1d (player accept/raise/decline), s v h, raw TEXT, unplug, plug, q")
    try:
        for text in sys.stdin:
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                break
            if word == "unplug":
                board.unplug()
                print("unplugged")
                continue
            if word == "plug":
                print(f"plugged in at {board.plug()}")
                continue
            try:
                for line in command_lines(text):
                    board.send(line)
            except ValueError as error:
                print(error)
            except OSError as error:
                print(f"cannot send: {error}")
    except KeyboardInterrupt:
        pass
    finally:
        if board.plugged:
            board.unplug()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
