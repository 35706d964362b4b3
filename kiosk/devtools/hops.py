"""``python -m kiosk.devtools.hops``: how many calls of the project's own code an input passes through.

Two inputs on a real app (mock buttons, SDL's dummy display, a fake clock): a player's ACCEPT
button at the ready screen (it starts the match) and a tap on a tile that goes straight onto an
empty board. For each, a ``sys.setprofile`` trace of the frame that takes the input counts:

- ``chain``: the project's frames on the stack from the frame loop's input step (``App.take_inputs``)
  down to the engine's ``Match.apply`` (the input's hops to the game; the screen is then redrawn
  because the state it depends on changed);
- ``calls``: every call of the project's code while the inputs are taken in (until the loop lets
  time pass), and ``functions``: how many different functions those are.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from engine import NS_PER_S, Match, Phase, Play, Start
from kiosk.app import App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table import intents as do
from kiosk.table.session import match_config
from kiosk.timesource import FakeClock

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = tuple(str(ROOT / name) + os.sep for name in ("engine", "hardware", "kiosk"))


@dataclass(frozen=True, slots=True)
class Hops:
    """What one input went through."""

    chain: tuple[str, ...]
    """The project's functions from ``App.take_inputs`` to ``Match.apply`` (empty: it never got there)."""
    calls: int
    functions: int


def _name(frame: FrameType) -> str:
    code = frame.f_code
    return f"{Path(code.co_filename).stem}.{getattr(code, 'co_qualname', code.co_name)}"


def trace(app: App, clock: FakeClock) -> Hops:
    """One frame of ``app`` traced (its inputs already queued)."""
    stack: list[str] = []
    chain: list[str] = []
    calls = 0
    functions: set[str] = set()
    taking = False

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        nonlocal calls, taking
        if event not in ("call", "return"):
            return
        if not frame.f_code.co_filename.startswith(PACKAGES):
            return
        name = _name(frame)
        if event == "call":
            if name == "app.App.take_inputs":
                taking = True
            if taking:
                stack.append(name)
                calls += 1
                functions.add(name)
                if name == "match.Match.apply" and not chain:
                    chain.extend(stack)
        elif taking and stack:
            stack.pop()
            if name == "app.App.take_inputs":
                taking = False

    clock.advance(1)
    sys.setprofile(profile)
    try:
        app.step(wait=False)
    finally:
        sys.setprofile(None)
    return Hops(tuple(chain), calls, len(functions))


def make_app() -> tuple[App, FakeClock]:
    """The kiosk at 800 x 480 with mock buttons, hand-over screens off, a fixed seed."""
    clock = FakeClock(10 * NS_PER_S)
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    app = App(config, clock=clock, size=(800, 480), hardware_backend="mock", rng=random.Random(3), simulator=True)
    return app, clock


def button_press() -> Hops:
    """Player 1's ACCEPT at the ready screen (it starts the match)."""
    app, clock = make_app()
    try:
        app.step(wait=False)
        app.do(do.NewMatch(), clock.now())
        app.step(wait=False)
        keys = app.ports.keys
        assert keys is not None
        keys.key_down("a")
        keys.key_up("a")
        return trace(app, clock)
    finally:
        app.close()


def tile_tap() -> Hops:
    """A tap on a tile of the player to act that goes onto the empty board (no point to choose)."""
    app, clock = make_app()
    try:
        app.step(wait=False)
        app.do(do.NewMatch(), clock.now())
        s = app.session
        assert s is not None
        s.adopt(Match(replace(match_config(app.config.match), jockey=None), boot_id=""))
        s.command(Start(None), clock.advance(1))
        m = s.match
        assert m.phase is Phase.PLAY, m.phase
        app.step(wait=False)
        tile = next(a.tile for a in m.legal_actions() if isinstance(a, Play) and a.at is None)
        spot = next(h for h in app.hotspots if h.intent == do.TapTile(m.to_act, tile))  # type: ignore[arg-type]
        clock.advance(1)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1, touch=False))
        hops = trace(app, clock)
        assert len(m.layout.placements) == 1, "the tile was not placed"
        return hops
    finally:
        app.close()


def report(name: str, measure: Callable[[], Hops]) -> None:
    hops = measure()
    print(f"{name}: chain {len(hops.chain)} to Match.apply, {hops.calls} calls, {hops.functions} functions")
    print("  " + " > ".join(hops.chain))


def main() -> int:
    report("button press (ACCEPT at the ready screen)", button_press)
    report("tile tap (a tile onto the empty board)", tile_tap)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
