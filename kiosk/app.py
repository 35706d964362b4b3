"""The kiosk program: the frame loop, the display and the threads.

Each frame: wait for input (or for the next thing the screen must show), take the screen's and the
buttons' inputs and stamp each with the time it was taken in, hand them to the controller in
arrival order (a tap as its hotspot's intent, through the scene stack), let time pass, and redraw
only what changed: the whole screen after a change of state, only the clock rectangles when just a
digit moved. What inputs do is the controller's (``kiosk.table.controller``, no pygame); what the
screen shows is the scenes' (``kiosk.ui.stage``).
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable, Hashable
from typing import Any, Protocol

import pygame

from engine import NS_PER_S
from hardware.keyboard import handle_pygame_event
from hardware.ports import HardwarePorts
from kiosk.config import KioskConfig
from kiosk.owner import LoadedPin
from kiosk.sdnotify import Notifier, WatchdogPinger
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.table.controller import Controller, Surroundings
from kiosk.table.intents import Intent, OpenHelp, StepSetting
from kiosk.table.presses import Tap
from kiosk.table.session import GameSession
from kiosk.table.state import UiState
from kiosk.timesource import Clock, MonotonicClock
from kiosk.ui.sound import TableSound, default_cache_dir
from kiosk.ui.stage import Stage
from kiosk.ui.widgets import Hotspot

DEFAULT_WINDOW = (1280, 800)
TAP_NEAR_SHARE = 12
"""Two taps closer than the screen's height / this (40 px at 480) are on the same spot (the repeat rule)."""


class LiveObserver(Protocol):
    """Told of the table once a frame, after the inputs (``kiosk.club.live_feed.LiveFeed``; never raises)."""

    def observe(self, table: Controller, now_ns: int) -> bool: ...


class App:
    """The kiosk application: a display, the hardware ports, a controller and its scenes."""

    def __init__(
        self,
        config: KioskConfig,
        *,
        warnings: tuple[object, ...] = (),
        simulator: bool = False,
        clock: Clock | None = None,
        size: tuple[int, int] | None = None,
        hardware_backend: str | None = None,
        rng: random.Random | None = None,
        notifier: Notifier | None = None,
        boot_id: str = "",
        journal: Journal | None = None,
        keeper: JournalKeeper | None = None,
        owner_pin: LoadedPin | None = None,
        config_path: str | None = None,
        live: LiveObserver | None = None,
    ) -> None:
        self.config = config
        self.simulator = simulator
        self.live = live
        """The club page's live feed (``kiosk.club.live_feed``): told of the table once a frame (None: no club)."""
        self.clock = clock or MonotonicClock()
        self.notifier = notifier or Notifier.from_environment()
        self.pinger = WatchdogPinger(self.notifier, clock=lambda: self.clock.now() / NS_PER_S)
        self.frames = 0
        self.closed = False
        self.full_redraws = 0
        self.partial_redraws = 0
        self._drawn_key: tuple[object, ...] | None = None
        self._clock_key: tuple[object, ...] = ()
        self._panel_key: tuple[object, ...] | None = None

        pygame.display.init()
        pygame.font.init()
        self.screen = self._open_display(size)
        backend = hardware_backend or ("mock" if simulator else None)
        self.ports = HardwarePorts.build(config.hardware, backend=backend, clock=self.clock.now)
        # before the controller: its tones take a moment to make (the first time; then read from the cache)
        self.sound = TableSound(config.sound.volume, cache_dir=default_cache_dir())
        self.controller = Controller(
            config, self.clock, warnings=(*warnings, *self.ports.warnings), simulator=simulator, rng=rng,
            boot_id=boot_id, journal=journal, keeper=keeper, owner_pin=owner_pin, config_path=config_path,
            surroundings=Surroundings(self.screen.get_size(), self.ports.backend, self._panel_state),
        )
        self.stage = Stage(self.controller, self.screen.get_size(), config.display.orientation)
        self.sound.watch(self.controller.session, self.clock.now())
        self._drained = threading.Event()
        self._wakeup = threading.Event()
        self._waker = threading.Thread(target=self._wake_on_hardware, name="hardware-waker", daemon=True)
        self._waker.start()

    # -- what tests and tools look at --------------------------------------------------------

    @property
    def session(self) -> GameSession | None:
        """The match at the table (None: none)."""
        return self.controller.session

    @property
    def ui(self) -> UiState:
        return self.controller.ui

    @property
    def hotspots(self) -> list[Hotspot]:
        """What a tap can hit on the screen as last drawn (topmost last)."""
        return self.stage.hotspots

    @property
    def running(self) -> bool:
        return self.controller.running

    @running.setter
    def running(self, value: bool) -> None:  # SIGTERM (python -m kiosk) and the simulator's window
        self.controller.running = value

    @property
    def exit_status(self) -> int:
        return self.controller.exit_status

    def do(self, intent: Intent, now: int) -> None:
        """Carry out ``intent`` as a tap on its hotspot would (through the scene stack)."""
        self.stage.handle(intent, now)

    # -- set-up ------------------------------------------------------------------------------

    def _open_display(self, size: tuple[int, int] | None) -> pygame.Surface:
        display = self.config.display
        wanted = size or display.size
        if self.simulator or os.environ.get("SDL_VIDEODRIVER") == "dummy":
            surface = pygame.display.set_mode(wanted or DEFAULT_WINDOW)
        elif wanted:
            surface = pygame.display.set_mode(wanted, pygame.FULLSCREEN if display.fullscreen else 0)
        else:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        pygame.display.set_caption("Spectacular Bid")
        if not self.simulator:
            pygame.mouse.set_visible(False)
        return surface

    def _panel_state(self) -> str | None:
        panel = self.ports.panel_status
        return None if panel is None else panel.value.lower()

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        """Run until the admin exit (or the window is closed in the simulator)."""
        try:
            while self.running:
                self.step()
        finally:
            self.close()
        return self.exit_status

    def step(self, wait: bool = True) -> None:
        """One frame: wait for input or the next due change, take inputs, update, draw."""
        controller = self.controller
        if wait:
            self._sleep(self._wait_ms(self.clock.now()))
        events = pygame.event.get()
        now = self.clock.now()
        controller.heartbeat(now)
        self.take_inputs(events, now)
        now = self.clock.now()
        controller.update(now)
        if self.live is not None:  # after inputs and the computer's moves: a projection per accepted command
            self.live.observe(controller, now)
        self.sound.update(controller.session, now, controller.config.sound.volume)
        controller.set_panel(self._panel_state())
        self.draw(now)
        self._show_panel(now)
        self.ports.update(now)
        self.frames += 1
        if self.frames == 1:
            self.notifier.ready("showing the home screen")
        self.pinger.tick()

    def _show_panel(self, now: int) -> None:
        """Send the LEDs and the serial panel a new state when what they show has changed (at home too,
        so a panel that connects while the kiosk idles shows it)."""
        session = self.controller.session
        key = (self.controller.changes, None if session is None else session.shown(), self._clock_key)
        if key != self._panel_key:
            self._panel_key = key
            self.ports.show(self.controller.panel_state(now), now)

    def _sleep(self, ms: int) -> None:
        """Sleep up to ``ms`` in slices of one frame, waking at once when a button press is queued.

        SDL's own event wait polls every millisecond on the Pi's display drivers, so the loop
        sleeps itself and looks at the screen's events once a frame: a touch is taken in (and
        stamped) at most one frame after it happened; a physical button is stamped on arrival.
        """
        frame = 1000 // self.config.display.fps
        deadline = self.clock.now() + ms * 1_000_000
        while True:
            left = deadline - self.clock.now()
            if left <= 0 or self._wakeup.wait(min(left / 1e9, frame / 1000)) or pygame.event.peek():
                break
        self._wakeup.clear()

    def _wait_ms(self, now: int) -> int:
        """How long the loop may sleep: until the next thing the screen or the LEDs must show."""
        wake = self.controller.next_due_ns(now)
        return max(1, -(-(wake - now) // 1_000_000))

    def _wake_on_hardware(self) -> None:
        """Wake the frame loop as soon as a button press is queued (runs on its own thread)."""
        queue = self.ports.queue
        while self.running:
            if queue.wait(1, timeout=0.25):
                self._drained.clear()
                self._wakeup.set()
                self._drained.wait(0.25)

    def take_inputs(self, events: list[pygame.event.Event], now: int) -> None:
        """Hand screen and hardware inputs to the controller in arrival order."""
        controller = self.controller
        stamped: list[tuple[int, Callable[[Any], None], Any]] = []
        for event in events:
            tap = self._pygame_input(event, now)
            if tap is not None:
                stamped.append((now, self._tap, tap))
        for item in self.ports.drain():
            stamped.append((item.arrival_ns, controller.press, item))
        self._drained.set()
        stamped.sort(key=lambda taken: taken[0])
        for arrival, take, what in stamped:
            controller.touched(arrival)
            take(what)

    def _pygame_input(self, event: pygame.event.Event, now: int) -> tuple[Tap, Intent | None] | None:
        """A window event: the admin key and the touch holds at once; a tap, to take in arrival order."""
        kind = event.type
        controller = self.controller
        if kind == pygame.QUIT:
            if self.simulator:
                self.running = False
            return None
        if kind in (pygame.KEYDOWN, pygame.KEYUP):
            if self.ports.keys is not None and handle_pygame_event(self.ports.keys, event):
                return None
            if pygame.key.name(event.key).upper() == self.config.kiosk.admin_exit_key.upper() and self.simulator:
                if kind == pygame.KEYDOWN:
                    controller.hold("key", now)
                else:
                    controller.release("key")
            return None
        if kind == pygame.FINGERDOWN:
            pos = (int(event.x * self.screen.get_width()), int(event.y * self.screen.get_height()))
            return self._press(pos, ("finger", event.finger_id), now)
        if kind == pygame.FINGERUP:
            controller.release(("finger", event.finger_id))
            return None
        if kind == pygame.MOUSEBUTTONDOWN and not getattr(event, "touch", False) and event.button == 1:
            return self._press(event.pos, "mouse", now)
        if kind == pygame.MOUSEBUTTONUP and not getattr(event, "touch", False):
            controller.release("mouse")
        return None

    def _press(self, pos: tuple[int, int], source: Hashable, now: int) -> tuple[Tap, Intent | None]:
        if self.stage.regions.admin_area.collidepoint(pos):  # held: the owner's PIN (kept clear of every control)
            self.controller.hold(source, now)
        spot = self.stage.hit(pos)
        intent = None if spot is None else spot.intent
        if isinstance(intent, OpenHelp) and intent.player is None and self.stage.regions.turned[1]:
            intent = OpenHelp(1 if pos[1] < self.screen.get_height() // 2 else 0)  # it faces the half tapped
        if isinstance(intent, StepSetting):
            self.controller.hold_stepper(source, intent, now)  # held, it repeats
        kind, rect = (None, None) if spot is None else (type(spot.intent), tuple(spot.rect))
        return Tap(pos, now, kind, rect, self.controller.presses.shown_count), intent  # type: ignore[arg-type]

    def _tap(self, taken: tuple[Tap, Intent | None]) -> None:
        """A tap as its hotspot's intent: a repeat, or a tap meant for the screen before, means nothing
        (as a button); only a scene on screen now that offers it takes it."""
        tap, intent = taken
        if not self.controller.tap_ignored(tap, max(24, self.screen.get_height() // TAP_NEAR_SHARE)) \
                and intent is not None:
            self.stage.handle(intent, tap.arrival_ns)

    # -- drawing -----------------------------------------------------------------------------

    def draw(self, now: int, full: bool = False) -> str:
        """Redraw what changed (everything with ``full``); returns "full", "clocks" or "none"."""
        key = self.controller.screen_key(now)
        if full or key != self._drawn_key:
            self.stage.draw(self.screen, now)
            self._drawn_key = key
            self._clock_key = self.stage.clock_key(now)
            pygame.display.flip()
            self.controller.presented(now)
            self.full_redraws += 1
            return "full"
        clock_key = self.stage.clock_key(now)
        if clock_key != self._clock_key:
            rects = self.stage.draw_clocks(self.screen, now)
            self._clock_key = clock_key
            pygame.display.update(rects)
            self.partial_redraws += 1
            return "clocks"
        return "none"

    def close(self) -> None:
        """Hand the match to the keeper a last time, release the hardware and the display (once)."""
        if self.closed:
            return
        self.closed = True
        self.controller.finish(self.clock.now())
        self.running = False
        self._drained.set()
        self._wakeup.set()
        self._waker.join(timeout=1)
        self.notifier.stopping("leaving")
        self.ports.close()
        self.sound.close()
        pygame.display.quit()
