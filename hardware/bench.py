"""Input latency benchmark: ``python -m hardware.bench``.

GPIO: time from a mock pin's falling edge (``drive_low``) to the press being
available in the event queue, over ``--presses`` presses (10,000 by default).
With ``--serial N`` also time N ``BTN`` lines written to a pty until their
events are available (the serial worker's thread has to wake up for those).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from .backoff import Backoff
from .buttons import GpioButtons
from .events import Button, EventQueue
from .layout import DEFAULT_BUTTON_PINS, default_bindings
from .ptyboard import PtyBoard
from .serial_panel import PanelStatus, SerialPanel, url_opener

STEP_NS = 1_000_000_000
"""Arrival clock offset added per press, so debouncing never swallows a bench press."""


@dataclass(frozen=True)
class Figures:
    """Latency figures in microseconds."""

    count: int
    median_us: float
    p99_us: float
    worst_us: float

    def line(self, label: str) -> str:
        """One printable line."""
        return (f"{label}: {self.count} presses, median {self.median_us:.1f} us, "
                f"p99 {self.p99_us:.1f} us, worst {self.worst_us:.1f} us")


def figures(samples_ns: list[int]) -> Figures:
    """Median, 99th percentile (nearest rank) and worst of nanosecond samples."""
    ordered = sorted(samples_ns)
    p99 = ordered[(len(ordered) * 99 + 99) // 100 - 1]  # rank ceil(0.99 n), in integers
    return Figures(len(ordered), statistics.median(ordered) / 1000, p99 / 1000, ordered[-1] / 1000)


def bench_gpio(presses: int) -> Figures:
    """Mock pin edge to queued event, through gpiozero Button and the debouncer."""
    offset = [0]
    queue = EventQueue(lambda: time.monotonic_ns() + offset[0])
    factory = MockFactory()
    buttons = GpioButtons(default_bindings(DEFAULT_BUTTON_PINS), queue, factory, debounce_ms=30)
    pin = factory.pin(DEFAULT_BUTTON_PINS[0][Button.ACCEPT])
    samples = []
    try:
        for _ in range(presses):
            start = time.perf_counter_ns()
            pin.drive_low()
            if not len(queue):
                raise RuntimeError("a press did not reach the queue")
            samples.append(time.perf_counter_ns() - start)
            queue.drain()
            pin.drive_high()
            offset[0] += STEP_NS
    finally:
        buttons.close()
        factory.close()
    return figures(samples)


def bench_serial(presses: int) -> Figures:
    """A BTN line written to a pty until its event is queued by the serial worker."""
    queue = EventQueue()
    with tempfile.TemporaryDirectory() as tmp, PtyBoard(Path(tmp) / "panel") as board:
        panel = SerialPanel(url_opener(str(board.link)), queue, backoff=Backoff(0.01, 2, 0.1)).start()
        try:
            if not panel.wait_until(lambda p: p.status is PanelStatus.CONNECTED, 10):
                raise RuntimeError("the serial panel did not connect")
            samples = []
            for _ in range(presses):
                start = time.perf_counter_ns()
                board.send(b"BTN 0 ACCEPT\n")
                if not queue.wait(1, 5):
                    raise RuntimeError("a serial press did not reach the queue")
                samples.append(time.perf_counter_ns() - start)
                queue.drain()
        finally:
            panel.close()
    return figures(samples)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m hardware.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=10_000, help="GPIO presses to time (default 10000)")
    parser.add_argument("--serial", type=int, default=0, metavar="N", help="also time N serial presses over a pty")
    args = parser.parse_args(argv)
    gpio = bench_gpio(args.presses)
    print(gpio.line("gpio mock edge -> queue"))
    verdict = "meets" if gpio.median_us <= 1000 else "MISSES"
    print(f"target: median <= 1000 us: {verdict}")
    if args.serial:
        print(bench_serial(args.serial).line("serial pty line -> queue"))
    return 0 if gpio.median_us <= 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
