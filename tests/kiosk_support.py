"""Helpers shared by the kiosk's app tests: taps by intent, drawing with the text fits recorded."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

import pygame

from engine import NS_PER_S
from kiosk.app import TAP_NEAR_SHARE, App
from kiosk.config import KioskConfig, MatchSettings
from kiosk.store.journal import Journal
from kiosk.table.computer import InlineExecutor
from kiosk.table.intents import Intent
from kiosk.table.presses import REPEAT_NS
from kiosk.table.session import GameSession
from kiosk.timesource import FakeClock
from kiosk.ui import theme
from kiosk.ui.widgets import Hotspot


class Closing:
    """What a test opened and must close after it: its apps first (the newest first), then what was
    handed to ``later`` (journals, keepers, panels; the newest first), whatever the test's end."""

    def __init__(self) -> None:
        self.apps: list[App] = []
        self._later: list[Callable[[], object]] = []

    def later(self, close: Callable[[], object]) -> None:
        """Call ``close`` after the test, once its apps are closed (an app hands its match to the
        journal as it closes, so the journal closes after it)."""
        self._later.append(close)

    def close_all(self) -> None:
        for app in reversed(self.apps):
            if hasattr(app, "_waker"):  # made whole (an App whose start failed has nothing to close)
                app.close()  # closing twice is harmless: a test may close one itself (a restart)
        self.apps.clear()
        while self._later:
            self._later.pop()()


class AtTheTable(Protocol):
    """An app or a controller: what has a match at the table."""

    @property
    def session(self) -> GameSession | None: ...


def playing(holder: AtTheTable) -> GameSession:
    """The match at the table of ``holder`` (an app or a controller); there must be one."""
    session = holder.session
    assert session is not None, "no match at the table"
    return session


def spot_for(app: App, wanted: Intent | type[Intent]) -> Hotspot | None:
    """A hotspot with intent ``wanted`` (an intent, or any intent of that type) that a tap at its
    centre hits (nothing drawn over it), or None."""
    for spot in app.hotspots:
        kind = spot.intent == wanted or (isinstance(wanted, type) and isinstance(spot.intent, wanted))
        if kind and app.stage.hit(spot.rect.center) is spot:
            return spot
    return None


def intents_on_screen(app: App, kind: type[Intent] = Intent) -> list[Intent]:
    """The intents of the hotspots on screen (of one type), in drawing order."""
    return [spot.intent for spot in app.hotspots if isinstance(spot.intent, kind)]


def tap(app: App, wanted: Intent | type[Intent]) -> None:
    """Post a real mouse click at the centre of the hotspot with this intent, then run a frame (as a
    person would: on the spot of the previous tap no sooner than the repeat window after it)."""
    spot = spot_for(app, wanted)
    assert spot is not None, f"no hotspot {wanted} on screen: {intents_on_screen(app)}"
    wait_out_repeat(app, spot.rect.center)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.rect.center, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.rect.center, button=1, touch=False))
    app.step(wait=False)


def wait_out_repeat(app: App, pos: tuple[int, int]) -> None:
    """With a fake clock: let the repeat window of the previous tap pass when ``pos`` is near it or on its button (a tap
    there sooner would be a double tap, ``kiosk.table.presses``)."""
    last = app.controller.presses.last_tap
    clock = app.clock
    if last is None or not isinstance(clock, FakeClock):
        return
    near = max(24, app.screen.get_height() // TAP_NEAR_SHARE)
    on_last_button = last.rect is not None and pygame.Rect(last.rect).collidepoint(pos)
    if on_last_button or (pos[0] - last.pos[0]) ** 2 + (pos[1] - last.pos[1]) ** 2 <= near * near:
        clock.t = max(clock.t, last.arrival_ns + REPEAT_NS)


def draw_recorded(app: App, clock: FakeClock) -> list[theme.Fit]:
    """Draw the whole screen once and return every text fit the drawing measured."""
    fits: list[theme.Fit] = []
    with app.stage.context.recorded(fits=fits):
        app.draw(clock.now(), full=True)
    return fits


def kiosk_app(config: KioskConfig | None = None, *, orientation: str | None = None, language: str | None = None,
              match: Mapping[str, Any] | None = None, size: tuple[int, int] = (800, 480), seed: int = 3,
              start_s: float = 10, clock: FakeClock | None = None, bots: int | None = None, step: bool = False,
              **options: Any) -> tuple[App, FakeClock]:
    """The kiosk as the tests open it (``conftest`` closes it after the test): at ``size`` with mock
    hardware, a fake clock at ``start_s`` seconds (or ``clock``) and the random seed ``seed``.

    ``config`` (default: the kiosk's) with the ``orientation``, the host ``language`` and the match
    settings ``MatchSettings(**match)`` put in when given; ``bots``: the computer players think on
    the test's thread, with that many samples; ``step``: its first frame taken; ``options``: the
    rest of ``App``'s arguments (``journal``, ``boot_id``, ``simulator``, ...)."""
    config = config or KioskConfig()
    if orientation is not None:
        config = replace(config, display=replace(config.display, orientation=orientation))
    if language is not None:
        config = replace(config, kiosk=replace(config.kiosk, language=language))
    if match is not None:
        config = replace(config, match=MatchSettings(**match))
    clock = clock or FakeClock(int(start_s * NS_PER_S))
    app = App(config, clock=clock, size=size, hardware_backend="mock", rng=random.Random(seed), **options)
    if bots is not None:
        app.controller.bot_executor = InlineExecutor()
        app.controller.bot_samples = bots
    if step:
        app.step(wait=False)
    return app, clock


def open_app(journal: Journal | None, clock: FakeClock, orientation: str = "table") -> App:
    """The app at 800 x 480 on ``journal``, without hand-over screens, mock hardware and a fixed seed."""
    return kiosk_app(orientation=orientation, match={"handover": False}, clock=clock, journal=journal,
                     boot_id="boot-1")[0]


def event_table(journal: Journal, hub_url: str, token: str, clock: FakeClock, orientation: str = "table"
                ) -> tuple[App, Any]:
    """The app on ``journal`` with a club-event worker (an ``AssignmentWorker``, run by hand:
    ``run_once``) filling its box, against the hub at ``hub_url``."""
    from kiosk.club.assignment import AssignmentWorker
    from kiosk.club.client import HubClient
    from kiosk.club.table_pairing import PairingBox
    from kiosk.club.worker import KeeperAccess

    app = open_app(journal, clock, orientation)
    keeper = app.controller.keeper
    assert keeper is not None
    w = AssignmentWorker(KeeperAccess(keeper), HubClient(hub_url, token, timeout_s=5), PairingBox(),
                         clock=clock.now, wall_clock=lambda: 1_764_690_000.0)
    app.controller.events.box = w.box
    w.load()
    app.step(wait=False)
    return app, w


def poll(app: App, w: Any) -> None:
    """One round of the event worker at the app's time, then a frame."""
    w.run_once(app.clock.now())
    app.step(wait=False)


def drawn_texts(app: App) -> list[str]:
    """The texts of the app's next frame."""
    assert isinstance(app.clock, FakeClock)
    return [f.text for f in draw_recorded(app, app.clock)]
