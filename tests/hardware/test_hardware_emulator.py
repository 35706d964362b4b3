"""The panel emulator: command parsing, the display summary, and a real run against the kiosk side."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hardware.backoff import Backoff
from hardware.errors import InvalidValue
from hardware.events import Button, EventQueue
from hardware.panel_emulator import Display, command_lines
from hardware.serial_panel import PanelStatus, SerialPanel, url_opener
from hardware.state import PanelState, Phase, PlayerPanel

ROOT = Path(__file__).resolve().parents[2]


def test_commands() -> None:
    assert command_lines("0a 1r") == [b"BTN 0 ACCEPT\n", b"BTN 1 RAISE\n"]
    assert command_lines(" 0D\n") == [b"BTN 0 DECLINE\n"]
    assert command_lines("s v h") == [b"BTN - START_CONTINUE\n", b"BTN - REVEAL\n", b"BTN - HELP\n"]
    assert command_lines("raw HELLO there") == [b"HELLO there\n"]
    assert command_lines("") == []
    with pytest.raises(InvalidValue, match="unknown command '2a'"):
        command_lines("2a")


def test_display_summary() -> None:
    display = Display()
    assert display.apply(b"STATE AUCTION")
    assert display.apply(b"CLK 0 01:23.4")
    assert not display.apply(b"CLK 0 01:23.3")  # tenths only: no redraw
    assert display.apply(b"LIT 1 A-D 1")
    assert display.apply(b"BID 20 1")
    assert display.apply(b"garbage")
    text = display.render()
    assert "AUCTION" in text and "bid 20 by 1" in text and "P1" in text and "[A-D blink]" in text
    assert display.bad_lines == 1


def test_emulator_process_talks_to_the_kiosk(tmp_path: Path) -> None:
    link = tmp_path / "panel"
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "hardware.panel_emulator", "--link", str(link)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    output: list[str] = []
    seen = threading.Condition()

    def collect() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            with seen:
                output.append(line)
                seen.notify_all()

    threading.Thread(target=collect, daemon=True).start()
    queue = EventQueue()
    panel = None
    try:
        with seen:
            assert seen.wait_for(lambda: any("panel emulator on" in o for o in output), 10)
        panel = SerialPanel(url_opener(str(link)), queue, backoff=Backoff(0.005, 2, 0.05)).start()
        assert panel.wait_until(lambda p: p.status is PanelStatus.CONNECTED, 10)
        assert panel.board_name == "EMU"
        assert proc.stdin is not None
        proc.stdin.write("0a 1d\nh\n")
        proc.stdin.flush()
        assert queue.wait(3, 10)
        assert [(e.player, e.button) for e in queue.drain()] == [
            (0, Button.ACCEPT), (1, Button.DECLINE), (None, Button.HELP)
        ]
        panel.show(PanelState((PlayerPanel(frozenset({Button.RAISE}), clock_ms=61_000), PlayerPanel()),
                              turn=0, standing_bid=15, bidder=0, phase=Phase.AUCTION))
        with seen:
            assert seen.wait_for(lambda: any("bid 15 by 0" in o for o in output), 10)
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(10) == 0
    finally:
        if panel is not None:
            panel.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
