"""The serial line protocol: every message kind round-trips; bad lines raise ProtocolError."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.errors import HardwareError, ProtocolError
from hardware.events import GAME_BUTTONS, KIOSK_BUTTONS, Button
from hardware.lines import LineSplitter
from hardware.protocol import (
    MAX_LINE,
    BalanceLine,
    BidLine,
    ButtonPress,
    ClockLine,
    Hello,
    LightsLine,
    Message,
    StateLine,
    TurnLine,
    changed_lines,
    checksum,
    decode,
    encode,
    format_clock,
)
from hardware.state import PanelState, Phase, PlayerPanel

players = st.sampled_from([0, 1])
maybe_player = st.sampled_from([0, 1, None])
amounts = st.integers(min_value=-99_999_999, max_value=999_999_999)
names = st.from_regex(r"[A-Za-z0-9_.\-]{1,16}", fullmatch=True)
messages = st.one_of(
    st.builds(Hello, st.integers(0, 999), st.none() | names),
    st.builds(ButtonPress, players, st.sampled_from(GAME_BUTTONS)),
    st.builds(ButtonPress, st.none(), st.sampled_from(KIOSK_BUTTONS)),
    st.builds(ClockLine, players, st.integers(0, 5_999_9).map(lambda t: t * 100)),
    st.builds(BalanceLine, players, amounts),
    st.builds(TurnLine, maybe_player),
    st.builds(BidLine, st.none() | st.integers(0, 999), maybe_player),
    st.builds(LightsLine, players, st.frozensets(st.sampled_from(GAME_BUTTONS)), st.booleans()),
    st.builds(StateLine, st.sampled_from(Phase)),
)


@settings(max_examples=300, deadline=None)
@given(messages, st.booleans())
def test_every_message_round_trips(message: Message, with_checksum: bool) -> None:
    line = encode(message, with_checksum=with_checksum)
    assert line.endswith(b"\n") and len(line) - 1 <= MAX_LINE
    assert decode(line) == message
    assert decode(line.replace(b"\n", b"\r\n")) == message


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"HELLO SB 1", Hello(1, None)),
        (b"HELLO SB 1 panel-2", Hello(1, "panel-2")),
        (b"BTN 0 ACCEPT", ButtonPress(0, Button.ACCEPT)),
        (b"BTN 1 RAISE", ButtonPress(1, Button.RAISE)),
        (b"BTN - HELP", ButtonPress(None, Button.HELP)),
        (b"CLK 0 01:23.4", ClockLine(0, 83_400)),
        (b"BAL 1 -20", BalanceLine(1, -20)),
        (b"TURN -", TurnLine(None)),
        (b"BID 20 1", BidLine(20, 1)),
        (b"BID - -", BidLine(None, None)),
        (b"LIT 0 A-D 1", LightsLine(0, frozenset({Button.ACCEPT, Button.DECLINE}), True)),
        (b"STATE AUCTION", StateLine(Phase.AUCTION)),
        (b"BTN 0 ACCEPT*" + checksum(b"BTN 0 ACCEPT").encode(), ButtonPress(0, Button.ACCEPT)),
    ],
)
def test_documented_examples(line: bytes, message: object) -> None:
    assert decode(line) == message


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"HELLO",
        b"HELLO XX 1",
        b"HELLO SB one",
        b"BTN 2 ACCEPT",
        b"BTN - ACCEPT",
        b"BTN 0 HELP",
        b"BTN 0 JUMP",
        b"BTN 0  ACCEPT",
        b"btn 0 accept",
        b"CLK 0 1:23.4",
        b"CLK 0 01:60.0",
        b"LIT 0 AXD 0",
        b"LIT 0 AR 0",
        b"STATE NAPPING",
        b"NOPE",
        b"BTN 0 ACCEPT*00",
        b"BTN 0 ACCEPT*Z",
        b"BTN 0 \xffACCEPT",
        b"BTN 0\tACCEPT",
        b"X" * (MAX_LINE + 1),
    ],
)
def test_bad_lines_raise_protocol_error(line: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode(line)


def test_protocol_error_is_a_value_error_and_hardware_error() -> None:
    with pytest.raises(ValueError):
        decode(b"NOPE")
    with pytest.raises(HardwareError):
        decode(b"NOPE")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_decode_never_raises_anything_but_protocol_error(data: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        decode(data)


@pytest.mark.parametrize(
    ("ms", "text"),
    [(0, "00:00.0"), (99, "00:00.0"), (100, "00:00.1"), (83_456, "01:23.4"), (-5, "00:00.0"), (10**9, "99:59.9")],
)
def test_clock_format(ms: int, text: str) -> None:
    assert format_clock(ms) == text


def test_changed_lines_sends_everything_first_then_only_changes() -> None:
    first = PanelState(turn=0)
    full = changed_lines(None, first)
    assert {line.split(b" ")[0] for line in full} == {b"STATE", b"LIT", b"CLK", b"BAL", b"TURN", b"BID"}
    assert len(full) == 9
    assert changed_lines(first, first) == []
    later = PanelState((PlayerPanel(clock_ms=50), PlayerPanel()), turn=1)  # clock change below a tenth
    assert changed_lines(first, later) == [b"TURN 1\n"]


def test_splitter_joins_chunks_and_drops_long_lines() -> None:
    splitter = LineSplitter(max_line=10)
    assert splitter.feed(b"BTN 0") == []
    assert splitter.feed(b" R\nAB\n") == [b"BTN 0 R", b"AB"]
    assert splitter.feed(b"X" * 30) == []
    assert splitter.feed(b"Y" * 30 + b"\nok\n") == [b"ok"]
    assert splitter.too_long == 1
    assert splitter.feed(b"0123456789\r\n") == [b"0123456789\r"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.integers(1, 64))
def test_splitter_matches_split_however_chunked(data: bytes, chunk: int) -> None:
    splitter = LineSplitter(max_line=MAX_LINE)
    got = []
    for start in range(0, len(data), chunk):
        got += splitter.feed(data[start : start + chunk])
    *complete, _ = data.split(b"\n")
    expected = [line for line in complete if len(line) <= MAX_LINE + 1]
    assert got == expected
    assert splitter.too_long == len(complete) - len(expected) + (0 if len(_) <= MAX_LINE + 1 else 1)
