"""``python -m kiosk.devtools.bench``: frame times, idle CPU, button-to-screen latency and start-up time.

Headless (SDL's dummy driver): drawing goes to an off-screen surface exactly as on the Pi, without
the copy to the panel. Prints median and worst figures; timings, not tests.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from engine import NS_PER_S, Phase
from hardware.events import Button
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.devtools.random_play import play_until
from kiosk.timesource import FakeClock, MonotonicClock

SIZES = ((800, 480), (1280, 800))


def _config(handover: bool = False) -> KioskConfig:
    return replace(KioskConfig(), match=MatchSettings(handover=handover, balances=300))


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.2f} ms, worst {max(values) * 1000:.2f} ms"


def frame_times(size: tuple[int, int], samples: int) -> tuple[list[float], list[float]]:
    """Seconds for clock-only updates and for full redraws of a late-round board."""
    clock = FakeClock(NS_PER_S)
    app = App(_config(), clock=clock, size=size, hardware_backend="mock", rng=random.Random(1))
    try:
        app.controller.new_match()
        session = app.session
        assert session is not None
        play_until(session, clock, lambda m: m.phase is Phase.PLAY and len(m.layout) >= 17, seed=5)
        app.draw(clock.now())
        clock_only, full = [], []
        for _ in range(samples):
            clock.advance(1)
            start = time.perf_counter()
            kind = app.draw(clock.now())
            clock_only.append(time.perf_counter() - start)
            assert kind == "clocks", kind
        for _ in range(samples):
            app.controller.changed()
            start = time.perf_counter()
            app.draw(clock.now())
            full.append(time.perf_counter() - start)
        return clock_only, full
    finally:
        app.close()


def idle_cpu(seconds: float) -> float:
    """Share of one core the real frame loop uses while a clock runs and nobody touches anything."""
    app = App(_config(), clock=MonotonicClock(), size=(800, 480), hardware_backend="mock", rng=random.Random(1))
    try:
        app.controller.new_match()
        assert app.session is not None
        app.session.start(0, app.clock.now())
        end = time.monotonic() + seconds
        cpu0, wall0 = time.process_time(), time.monotonic()
        while time.monotonic() < end:
            app.step()
        return (time.process_time() - cpu0) / (time.monotonic() - wall0)
    finally:
        app.close()


def press_to_frame(presses: int) -> list[float]:
    """Seconds from a mock GPIO button press to the end of the frame that shows its effect."""
    app = App(_config(), clock=MonotonicClock(), size=(800, 480), hardware_backend="mock", rng=random.Random(1))
    results = []
    try:
        assert app.ports.buttons is not None and app.ports.pin_factory is not None
        pins = {(b.player, b.button): b.pin for b in app.config.hardware.buttons}
        accepts = [app.ports.pin_factory.pin(pins[(player, Button.ACCEPT)]) for player in (0, 1)]
        for i in range(presses):
            pin = accepts[i % 2]  # the players take turns: one button pressed again within 0.3 s is a repeat
            app.controller.new_match()
            app.step(wait=False)
            before = app.full_redraws
            pressed = time.perf_counter()
            pin.drive_low()
            while app.full_redraws == before:
                app.step()
            results.append(time.perf_counter() - pressed)
            pin.drive_high()
            app.step(wait=False)
            assert app.session is not None and app.session.match.round == 1
            time.sleep(0.16)  # each button rests over 0.3 s between its presses
    finally:
        app.close()
    return results


def startup() -> float:
    """Seconds from starting a fresh interpreter to its first frame on screen (and exit)."""
    code = (
        "import os; os.environ['SDL_VIDEODRIVER']='dummy';"
        "from kiosk.config import KioskConfig; from kiosk.app import App;"
        "app = App(KioskConfig(), size=(800, 480), hardware_backend='mock'); app.step(wait=False); app.close()"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--presses", type=int, default=20)
    args = parser.parse_args(argv)
    for size in SIZES:
        clock_only, full = frame_times(size, args.samples)
        print(f"{size[0]}x{size[1]}: clock-only update {_ms(clock_only)}; full late-round redraw {_ms(full)}")
    print(f"idle CPU with a clock running: {idle_cpu(args.idle_seconds) * 100:.1f} % of one core")
    latency = press_to_frame(args.presses)
    print(f"mock button press to the frame that shows it: {_ms(latency)} (one frame at 30 fps is 33 ms)")
    starts = [startup() for _ in range(3)]
    print(f"start to first frame (fresh interpreter, exit included): {_ms(starts)}")
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
