"""``python -m kiosk.devtools.double_taps``: double taps on random screens through the real app.

The tester's experiment of issue 26: a finger taps a random button on whatever screen is up, and
taps the same spot again 80-250 ms later (a few pixels off). A double tap *did two things* when
both taps reached the controller with an intent and the second one was taken on another screen
than the first (the screen's meaning changed, or the spot under the finger now holds another kind
of button): the case of a player who placed a tile and revealed the opponent's hand, or a Reveal
that also bid. The target is 0. Headless, a fake clock, mock hardware, no journal; matches with
hand-overs in both orientations, and now and then a practice match (the computer thinks inline).
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from engine import NS_PER_S
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table import intents as do
from kiosk.table.computer import InlineExecutor
from kiosk.timesource import FakeClock

MS = 1_000_000
LEAVING = (do.GoHome, do.ConfirmResign)
"""Buttons the first tap avoids (they end the match at once: the experiment is about its screens)."""


@dataclass
class Tally:
    """What the double taps did."""

    pairs: int = 0
    both_taken: int = 0
    """Both taps reached the controller (a +5 +5, a tile picked up then placed: often meant)."""
    two_things: int = 0
    """Both taken, the second on another screen than the first (the fault; the target is 0)."""
    examples: list[str] = field(default_factory=list)


def _app(orientation: str, seed: int) -> tuple[App, FakeClock]:
    config = KioskConfig()
    config = replace(config, display=replace(config.display, orientation=orientation),
                     match=MatchSettings(handover=True))
    clock = FakeClock(10 * NS_PER_S)
    app = App(config, clock=clock, size=(800, 480), hardware_backend="mock", rng=random.Random(seed))
    app.controller.bot_executor = InlineExecutor()
    app.controller.bot_samples = 4
    return app, clock


def _click(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    app.step(wait=False)


def _kind_at(app: App, pos: tuple[int, int]) -> type | None:
    spot = app.stage.hit(pos)
    return None if spot is None else type(spot.intent)


def run(trials: int, seed: int = 1, orientation: str = "table") -> Tally:
    """``trials`` double taps at 80-250 ms on random screens; what they did."""
    rng = random.Random(seed)
    app, clock = _app(orientation, seed)
    taken: list[do.Intent] = []
    handle = app.controller.handle

    def counting(intent: do.Intent, now: int, *, button: bool = False) -> None:
        if not isinstance(intent, do.Noop):
            taken.append(intent)
        handle(intent, now, button=button)

    app.controller.handle = counting  # type: ignore[method-assign]
    tally = Tally()
    try:
        app.step(wait=False)
        while tally.pairs < trials:
            clock.advance(0, ns=rng.randrange(400, 1500) * MS)  # a pause: the previous repeat window is over
            app.step(wait=False)
            if app.session is None or app.session.match.is_over or app.ui.screen != "match":
                app.controller.go_home()
                app.controller.new_match(rng.choice((1, 2, 3)) if rng.random() < 0.2 else None)
                app.step(wait=False)
            spots = [s for s in app.hotspots if not isinstance(s.intent, (do.Noop, *LEAVING))]
            if not spots:
                continue
            spot = rng.choice(spots)
            x, y = spot.rect.center
            first = (x + rng.randint(-4, 4), y + rng.randint(-4, 4))
            before = app.controller.meaning()
            kind = _kind_at(app, first)
            taken.clear()
            _click(app, first)
            one = len(taken)
            clock.advance(0, ns=rng.randrange(80, 251) * MS)
            second = (first[0] + rng.randint(-8, 8), first[1] + rng.randint(-8, 8))
            moved = app.controller.meaning() != before or _kind_at(app, second) is not kind
            _click(app, second)
            tally.pairs += 1
            if one and len(taken) > one:
                tally.both_taken += 1
                if moved:
                    tally.two_things += 1
                    if len(tally.examples) < 10:
                        tally.examples.append(f"{taken[0]} then {taken[one]}")
    finally:
        app.close()
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.double_taps", description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=13_000, help="double taps in all (default 13000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    total = Tally()
    for orientation, share in (("table", args.taps // 2), ("upright", args.taps - args.taps // 2)):
        tally = run(share, args.seed, orientation)
        print(f"{orientation}: {tally.pairs} double taps, both taken {tally.both_taken}, "
              f"two things (second on another screen) {tally.two_things}")
        for example in tally.examples:
            print(f"  {example}")
        total.pairs += tally.pairs
        total.both_taken += tally.both_taken
        total.two_things += tally.two_things
    print(f"all: {total.pairs} double taps at 80-250 ms, {total.two_things} did two things (target 0)")
    return 0 if total.two_things == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
