"""The kiosk program: one window or screen, one match at a time, touch and buttons as input.

The frame loop waits for input (or for the next thing the screen must show), stamps each input
with the time it was taken in, applies inputs in arrival order, lets the engine flag a loss on
time, and redraws only what changed: the whole screen after a change of state, only the clock
rectangles when just a digit moved.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from engine import NS_PER_S, Phase, Transfer
from hardware.config import HardwareConfig
from hardware.events import Button, InputEvent
from hardware.keyboard import handle_pygame_event
from hardware.ports import HardwarePorts
from kiosk.config import KioskConfig
from kiosk.i18n import NATIVE_NAMES, translator
from kiosk.sdnotify import Notifier, WatchdogPinger
from kiosk.store.journal import Journal
from kiosk.store.recorder import MatchRecorder, new_recorded_match
from kiosk.store.resume import ResumeFailed, resume
from kiosk.store.stall import StallDetector
from kiosk.table.session import GameSession
from kiosk.timesource import Clock, MonotonicClock
from kiosk.ui.players_view import PlayerScreens
from kiosk.ui.view import ChipFlight, UiState, View
from kiosk.ui.widgets import Intent
from kiosk.warning_texts import warning_text

CORNER = 64
"""Side of the top-left square that, held, leaves the kiosk."""
ADMIN_EXIT_STATUS = 10
"""Exit status of the deliberate admin exit (the service does not restart after it)."""
DEFAULT_WINDOW = (1280, 800)
MAX_SLEEP_MS = 1000
"""The loop wakes at least this often (watchdog, panel status) even when nothing changes."""
BLINK_SLEEP_MS = 125
"""While a low bank makes LEDs blink, the loop wakes this often to drive them."""



@dataclass(slots=True)
class Hold:
    """A press being held (admin exit)."""

    since_ns: int
    source: Any


class App:
    """The kiosk application."""

    def __init__(
        self,
        config: KioskConfig,
        *,
        warnings: tuple[str, ...] = (),
        simulator: bool = False,
        clock: Clock | None = None,
        size: tuple[int, int] | None = None,
        hardware_backend: str | None = None,
        rng: random.Random | None = None,
        notifier: Notifier | None = None,
        boot_id: str = "",
        journal: Journal | None = None,
    ) -> None:
        self.config = config
        self.simulator = simulator
        self.clock = clock or MonotonicClock()
        self.rng = rng or random.SystemRandom()
        self.boot_id = boot_id
        self.notifier = notifier or Notifier.from_environment()
        self.pinger = WatchdogPinger(self.notifier, clock=lambda: self.clock.now() / NS_PER_S)
        self.ui = UiState(warnings=warnings, language=config.kiosk.language)
        self.session: GameSession | None = None
        self.journal = journal
        self.recorder: MatchRecorder | None = None
        self.player_screens = PlayerScreens(journal, self.ui)
        self.stall = StallDetector.from_seconds(config.kiosk.stall_limit_seconds)
        self.running = True
        self.exit_status = 0
        self.frames = 0
        self.full_redraws = 0
        self.partial_redraws = 0
        self._holds: dict[Any, Hold] = {}
        self._last_input_ns = 0
        self._drawn_key: tuple[object, ...] | None = None
        self._clock_key: tuple[object, ...] = ()

        pygame.display.init()
        pygame.font.init()
        self.screen = self._open_display(size)
        self.view = View(self.screen.get_size(), config.display.orientation)
        backend = hardware_backend or ("mock" if simulator else None)
        self.ports = self._open_ports(config.hardware, backend)
        self.ui.warnings = warnings + tuple(self.ports.warnings)
        self.ui.legend = self._key_legend() if simulator else ""
        self.ui.status_line = self._status_text()
        self._panel_key: tuple[object, ...] | None = None
        self.flight: ChipFlight | None = None
        self._events_seen = 0
        self._drained = threading.Event()
        self._wakeup = threading.Event()
        self._waker = threading.Thread(target=self._wake_on_hardware, name="hardware-waker", daemon=True)
        self._waker.start()
        self._resume()
        self.stall.reset(self.clock.now())

    def _resume(self) -> None:
        """Continue an unfinished match from the journal, as the clock rules say (RULES.md §7)."""
        if self.journal is None:
            return
        now = self.clock.now()
        try:
            resumed = resume(self.journal, self.boot_id, now)
        except ResumeFailed as exc:
            self.ui.warnings = (*self.ui.warnings, str(exc))
            return
        if resumed is None:
            return
        session = GameSession(self.config.match, self.rng, boot_id=self.boot_id)
        session.match = resumed.match
        self.session, self.recorder = session, resumed.recorder
        self.player_screens.seat_names_from(resumed.players)
        session.events.extend(resumed.events)
        self._events_seen = len(session.events)
        session.say(resumed.message, now)
        self.recorder.sync(session.match, now)
        self.ui.screen = "match"
        self.ui.changed()

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

    def _open_ports(self, config: HardwareConfig, backend: str | None) -> HardwarePorts:
        return HardwarePorts.build(config, backend=backend, clock=self.clock.now)

    def _key_legend(self) -> str:
        t = translator(self.ui.language)
        keys = self.config.hardware.keys
        names = {Button.ACCEPT: t._("accept"), Button.RAISE: t._("raise"), Button.DECLINE: t._("decline")}
        parts = []
        for player in (0, 1):
            own = [f"{key.upper()} {names.get(button, button.name.lower())}" for key, p, button in keys if p == player]
            parts.append(t._("Player {number}: {keys}", number=player + 1, keys=", ".join(own)))
        return t._("Keys  {players}   (hold {key} to quit)", players="   ".join(parts), key=self.config.kiosk.admin_exit_key)

    def _status_text(self) -> str:
        t = translator(self.ui.language)
        c = self.config
        panel = self.ports.panel_status
        size = {"width": self.screen.get_width(), "height": self.screen.get_height()}
        panels = {"disconnected": t._("disconnected"), "handshaking": t._("handshaking"), "connected": t._("connected"),
                  "incompatible": t._("incompatible")}
        lines = [
            t._("Screen: {width} x {height}, table orientation", **size) if c.display.orientation == "table"
            else t._("Screen: {width} x {height}, upright orientation", **size),
            t._("Hand-over screen between turns: on") if c.match.handover else t._("Hand-over screen between turns: off"),
            t.n_("Clock: {bank} s bank, {delay} s delay; {n} point each", "Clock: {bank} s bank, {delay} s delay; {n} points each",
                 c.match.balances, bank=f"{c.match.bank_seconds:g}", delay=f"{c.match.delay_seconds:g}"),
            t._("Buttons: {backend} GPIO; serial panel: {panel}", backend=self.ports.backend,
                panel=panels.get(panel.value.lower(), panel.value.lower()) if panel else t._("none")),
            t._("Language: {language}", language=NATIVE_NAMES[t.language]),
            t._("Change these in the configuration file (see the README)."),
        ]
        lines += [t._("Warning: {warning}", warning=t(warning_text(w))) for w in self.ui.warnings]
        return "\n".join(lines)

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
        if wait:
            self._sleep(self._wait_ms(self.clock.now()))
        events = pygame.event.get()
        now = self.clock.now()
        self._heartbeat(now)
        self.take_inputs(events, now)
        now = self.clock.now()
        if self.session is not None:
            self.session.tick(now)
            if self.recorder is not None:
                self.recorder.sync(self.session.match, now)  # committed before it is shown
            self._start_flights(now)
        self._check_holds(now)
        self._idle_return(now)
        panel = self.ports.panel_status
        state = None if panel is None else panel.value.lower()
        if state != self.ui.panel:
            self.ui.panel = state
            self.ui.changed()
        self.draw(now)
        self._show_panel(now)
        self.ports.update(now)
        self.frames += 1
        if self.frames == 1:
            self.notifier.ready("showing the home screen")
        self.pinger.tick()

    def _heartbeat(self, now: int) -> None:
        """Abort the match when the loop could not take commands for too long while a clock ran."""
        s = self.session
        running = s is not None and not s.match.is_over and s.match.clock_running is not None
        reason = self.stall.beat(now, running)
        if reason is not None and s is not None and running:
            s.match.abort(now, reason)
            s.version += 1
            s.say(reason, now)

    def _start_flights(self, now: int) -> None:
        """Animate the newest transfer (chips flying from the payer's stack to the payee's)."""
        events = self.session.events if self.session is not None else []
        for event in events[self._events_seen :]:
            if isinstance(event, Transfer):
                self.flight = ChipFlight(event.payer, event.payee, event.points, now)
        self._events_seen = len(events)
        if self.flight is not None and self.flight.progress(now) >= 1.0:
            self.flight = None

    def _show_panel(self, now: int) -> None:
        """Send the LEDs and the serial panel a new state when what they show has changed."""
        if self.session is None:
            return
        key = (self.session.version, self._clock_key)
        if key != self._panel_key:
            self._panel_key = key
            self.ports.show(self.session.panel_state(now), now)

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
        due = [now + MAX_SLEEP_MS * 1_000_000]
        if self.flight is not None:
            due.append(now + 1_000_000_000 // self.config.display.fps)
        s = self.session
        if s is not None:
            m = s.match
            running = m.clock_running
            if running is not None:
                delay = m.delay_left_ns(now)
                left = delay if delay > 0 else m.bank_ns(running, now)
                due.append(now + left % NS_PER_S + 1)  # the next displayed digit
                deadline = m.deadline_ns()
                if deadline is not None:
                    due.append(deadline)
                if delay <= 0 and m.bank_ns(running, now) < 20 * NS_PER_S:
                    due.append(now + BLINK_SLEEP_MS * 1_000_000)
            due.extend(message.until_ns for message in s.live_messages(now))
        hold_ns = int(self.config.kiosk.admin_exit_hold_seconds * NS_PER_S)
        due.extend(hold.since_ns + hold_ns for hold in self._holds.values())
        wake = min(due)
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
        """Apply screen and hardware inputs in arrival order."""
        stamped: list[tuple[int, Callable[[], None]]] = []
        for event in events:
            action = self._pygame_input(event, now)
            if action is not None:
                stamped.append((now, action))
        for item in self.ports.drain():
            stamped.append((item.arrival_ns, lambda item=item: self.on_button(item)))
        self._drained.set()
        stamped.sort(key=lambda pair: pair[0])
        for arrival, action in stamped:
            self._last_input_ns = max(self._last_input_ns, arrival)
            action()

    def _pygame_input(self, event: pygame.event.Event, now: int) -> Callable[[], None] | None:
        kind = event.type
        if kind == pygame.QUIT:
            if self.simulator:
                self.running = False
            return None
        if kind in (pygame.KEYDOWN, pygame.KEYUP):
            if self.ports.keys is not None and handle_pygame_event(self.ports.keys, event):
                return None
            if pygame.key.name(event.key).upper() == self.config.kiosk.admin_exit_key.upper() and self.simulator:
                if kind == pygame.KEYDOWN:
                    self._holds["key"] = Hold(now, "key")
                else:
                    self._holds.pop("key", None)
            return None
        if kind == pygame.FINGERDOWN:
            pos = (int(event.x * self.screen.get_width()), int(event.y * self.screen.get_height()))
            return self._press(pos, ("finger", event.finger_id), now)
        if kind == pygame.FINGERUP:
            self._holds.pop(("finger", event.finger_id), None)
            return None
        if kind == pygame.MOUSEBUTTONDOWN and not getattr(event, "touch", False) and event.button == 1:
            return self._press(event.pos, "mouse", now)
        if kind == pygame.MOUSEBUTTONUP and not getattr(event, "touch", False):
            self._holds.pop("mouse", None)
        return None

    def _press(self, pos: tuple[int, int], source: Any, now: int) -> Callable[[], None] | None:
        if pos[0] < CORNER and pos[1] < CORNER:
            self._holds[source] = Hold(now, source)
        spot = self.view.hit(pos)
        if spot is None:
            return None
        return lambda: self.do(spot.intent, now)

    def _check_holds(self, now: int) -> None:
        hold_ns = int(self.config.kiosk.admin_exit_hold_seconds * NS_PER_S)
        for hold in self._holds.values():
            if now - hold.since_ns >= hold_ns:
                self.running = False
                self.exit_status = ADMIN_EXIT_STATUS

    def _idle_return(self, now: int) -> None:
        idle_ns = int(self.config.kiosk.idle_return_seconds * NS_PER_S)
        if now - self._last_input_ns < idle_ns or (self.ui.screen == "home" and self.session is None):
            return
        s = self.session
        if self.ui.screen == "settings" or s is None or s.match.is_over or (s.match.phase is Phase.READY and s.match.round == 0):
            self.go_home()

    # -- what inputs do ----------------------------------------------------------------------

    def on_button(self, item: InputEvent) -> None:
        """A physical button press (GPIO, serial panel or simulator key)."""
        arrival = self._arrival(item.arrival_ns)
        if item.button is Button.HELP:
            self.ui.help_open = not self.ui.help_open
            self.ui.changed()
            return
        if self.session is None:
            if item.button in (Button.ACCEPT, Button.START_CONTINUE) and self.ui.screen == "home":
                self.new_match()
            return
        if self.ui.records.picker is not None:  # a name is being picked: the buttons wait
            return
        self._enter_match()
        self.session.press(item.player, item.button, arrival)

    def do(self, intent: Intent, now: int) -> None:
        """Carry out a tap's intent."""
        name = intent[0]
        arrival = self._arrival(now)
        s = self.session
        if name == "noop":
            return
        if name == "help":
            self.ui.help_open = True
        elif name == "help_close":
            self.ui.help_open = False
        elif name == "new_match" or name == "rematch":
            self.new_match()
        elif name == "home":
            self.go_home()
        elif name == "settings":
            self.ui.screen = "settings"
            self.ui.status_line = self._status_text()
        elif name == "ui":  # languages and help pages: the interface only
            self.ui.apply(intent)
            self.ui.legend = self._key_legend() if self.simulator else ""
            self.ui.status_line = self._status_text()
        elif name == "players":  # picker, keyboard, leaderboard, history, replay
            self.player_screens.apply(intent)
        elif s is None:
            return
        elif name == "start":
            self._enter_match()
            s.press(intent[1], Button.ACCEPT, arrival)
        elif name == "reveal":
            s.press(intent[1], Button.ACCEPT, arrival)
        elif name == "tile":
            s.select(intent[2], arrival)
        elif name == "point":
            s.place_at(intent[1], arrival)
        elif name == "draw":
            s.draw(arrival)
        elif name == "decline":
            s.press(intent[1], Button.DECLINE, arrival)
        elif name == "accept":
            s.press(intent[1], Button.ACCEPT, arrival)
        elif name == "bid_step":
            s.step_bid(intent[1])
        elif name == "bid":
            s.submit_bid(arrival)
        elif name == "resign":
            self.ui.confirm_resign.add(intent[1])
        elif name == "resign_no":
            self.ui.confirm_resign.discard(intent[1])
        elif name == "resign_yes":
            self.ui.confirm_resign.discard(intent[1])
            s.resign(intent[1], arrival)
        self.ui.changed()

    def _arrival(self, stamp: int) -> int:
        """A command's arrival, never before the last one the match accepted (same-frame races)."""
        if self.session is not None:
            last = self.session.match.last_command_ns
            if last is not None and stamp < last:
                return last
        return stamp

    def new_match(self) -> None:
        """Start a fresh match at the ready screen (entered in the journal at its first Start)."""
        self.session = GameSession(self.config.match, self.rng, boot_id=self.boot_id)
        self.recorder = None
        self.ui.records.picker = None
        self.flight = None
        self._events_seen = 0
        self._last_input_ns = max(self._last_input_ns, self.clock.now())
        self.ui.screen = "match"
        self.ui.help_open = False
        self.ui.confirm_resign.clear()
        self.ui.changed()

    def _enter_match(self) -> None:
        """Before the first Start: enter the match in the journal with the players now in the seats.

        The players can change until then, so the journal's match is made here (nothing was played
        yet, the fresh recording match is the same as the one on screen)."""
        s = self.session
        if self.journal is None or s is None or self.recorder is not None:
            return
        if s.match.phase is not Phase.READY or s.match.round != 0:
            return
        s.match, self.recorder = new_recorded_match(
            self.journal, s.match.config, self.ui.records.chosen_ids(), self.boot_id
        )

    def go_home(self) -> None:
        """Back to the home screen (the match, if any, is left; the seats are guests again)."""
        self.player_screens.reset()
        self.session = None
        self.ui.screen = "home"
        self.ui.help_open = False
        self.ui.confirm_resign.clear()
        self.ui.changed()

    # -- drawing -----------------------------------------------------------------------------

    def screen_key(self, now: int) -> tuple[object, ...]:
        """Everything a full redraw depends on (besides the clock digits)."""
        s = self.session
        if s is None:
            return (self.ui.version, self.ui.screen)
        live = tuple(id(m) for m in s.live_messages(now))
        flying = None if self.flight is None else (id(self.flight), now)
        return (self.ui.version, self.ui.screen, s.version, live, flying)

    def draw(self, now: int) -> str:
        """Redraw what changed; returns "full", "clocks" or "none"."""
        key = self.screen_key(now)
        if key != self._drawn_key:
            self.view.draw_full(self.screen, self.ui, self.session, now, self.flight)
            self._drawn_key = key
            self._clock_key = self.view.clock_key(self.session, now)
            pygame.display.flip()
            self.full_redraws += 1
            return "full"
        clock_key = self.view.clock_key(self.session, now)
        if clock_key != self._clock_key and self.session is not None:
            rects = self.view.draw_clocks(self.screen, self.session, now)
            self._clock_key = clock_key
            pygame.display.update(rects)
            self.partial_redraws += 1
            return "clocks"
        return "none"

    def close(self) -> None:
        """Release the hardware and the display."""
        self.running = False
        self._drained.set()
        self._wakeup.set()
        self._waker.join(timeout=1)
        self.notifier.stopping("leaving")
        self.ports.close()
        pygame.display.quit()

