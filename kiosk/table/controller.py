"""The kiosk's state and what inputs do to it, without pygame: the match lifecycle at the table.

The frame loop (``kiosk.app``) hands the controller every input in arrival order (taps as their
hotspots' intents, which the scenes on screen offer; physical buttons as the intents they make now,
``buttons``), lets time pass (``update``) and asks what the screen depends on (``screen_key``) and
when it must next wake (``next_due_ns``). Every intent goes through one list of guards (``refusal``)
and one dispatch table (``routes``: its areas' parts in ``dispatch`` and ``owner_screens``). The
controller owns the match (``session``), the journal behind its keeper (``keeper``: a storage fault
becomes the saving banner), the interface state (``ui``) and the named players (``desk``):

- a new match starts at the ready screen, entered in the journal at its first Start (resumed at start-up);
- a loop that could not take commands for too long while a clock ran aborts the match (stall);
- each transfer of points makes a chip flight (who pays whom, how much, since when);
- between matches it goes home after a while without input; the admin corner (or key) held asks for the PIN.

Beside it: ``presses`` (stale inputs, repeats), ``texts`` (the key legend, the settings' lines), ``players`` (the
named players' screens), ``event_desk`` (a club event's pairing), ``review_desk`` (the post-match review).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any

from engine import NS_PER_S, Action, Phase, Transfer
from hardware.events import Button, InputEvent
from hardware.state import PanelState
from kiosk.config import KioskConfig
from kiosk.i18n import T
from kiosk.owner import LoadedPin
from kiosk.store.errors import KioskStoreError
from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper
from kiosk.store.stall import StallDetector
from kiosk.table import intents as do
from kiosk.table.buttons import STARTS, button_intent, panel_of
from kiosk.table.computer import ComputerPlayer, InlineExecutor, show_hint
from kiosk.table.dispatch import DESK, INTERFACE, MATCH, ON_TO_ACT
from kiosk.table.due import MAX_SLEEP_NS as MAX_SLEEP_NS  # re-exported: the frame loop's tests use it
from kiosk.table.due import next_due_ns
from kiosk.table.event_desk import EventDesk
from kiosk.table.owner_screens import ADMIN_EXIT_STATUS as ADMIN_EXIT_STATUS  # exit status 10: not restarted
from kiosk.table.owner_screens import OWNER, STOPPED_BY_OWNER, Decision, OwnerDesk, in_progress
from kiosk.table.players import PlayerDesk, Seat, seat_of
from kiosk.table.presses import REPEAT_NS as REPEAT_NS  # a repeat within 300 ms across a screen change
from kiosk.table.presses import Hold, PressTiming, Tap
from kiosk.table.repeat import StepperRepeat
from kiosk.table.review_desk import ReviewDesk
from kiosk.table.session import GameSession
from kiosk.table.state import ChipFlight, Screen, UiState
from kiosk.table.texts import Surroundings as Surroundings  # what the machine reports (app.py builds it)
from kiosk.table.texts import key_legend, status_text
from kiosk.timesource import Clock


class Controller:
    """The kiosk without its screen: one match at a time, the interface state, the journal."""

    def __init__(
        self,
        config: KioskConfig,
        clock: Clock,
        *,
        warnings: tuple[object, ...] = (),
        simulator: bool = False,
        rng: random.Random | None = None,
        boot_id: str = "",
        journal: Journal | None = None,
        keeper: JournalKeeper | None = None,
        surroundings: Surroundings | None = None,
        owner_pin: LoadedPin | None = None,
        config_path: str | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.simulator = simulator
        self.rng = rng or random.SystemRandom()
        self.boot_id = boot_id
        self.surroundings = surroundings or Surroundings()
        self.ui = UiState(warnings=warnings, language=config.kiosk.language)
        self.session: GameSession | None = None
        if keeper is None and journal is not None:
            keeper = JournalKeeper(None, boot_id, journal=journal)
        self.keeper = keeper
        """The journal's keeper (None: nothing is kept, ``--no-journal``)."""
        self._entered = False
        """Whether the match at the table is in the keeper's hands (entered at its first Start, or resumed)."""
        self._generation = keeper.generation if keeper is not None else 0
        self.desk = PlayerDesk(keeper, self.ui)
        self.events = EventDesk(self)  # a club event's pairing at the table (its box: the club's worker fills it)
        self.stall = StallDetector.from_seconds(config.kiosk.stall_limit_seconds)
        self.flight: ChipFlight | None = None
        """The chips in the air after the newest transfer (None: none)."""
        self.computer: ComputerPlayer | None = None
        """In a practice match: the computer in seat 1 (``kiosk.table.computer``); None: two people."""
        self.bot_executor: Executor | None = None
        """Where the computer thinks (None: a worker thread, made when first needed; tests: ``InlineExecutor``)."""
        self.bot_samples: int | None = None
        """Level 4's fixed work per decision (tests, screenshots); None: its time budget on ``clock``."""
        self.running = True
        """False once the kiosk is to leave (admin exit, closed window, SIGTERM)."""
        self.exit_status = 0
        self.changes = 0
        """How many times what the screen shows changed: after every input taken, and in time (``update``)."""
        self._events_seen = 0
        self.holds: dict[Hashable, Hold] = {}
        self.steppers = StepperRepeat()
        """The settings steppers held down (they repeat)."""
        self._last_input_ns = clock.now()
        """The idle return counts from the latest input, or from the start (a resume's message stays)."""
        self.presses = PressTiming()
        """What inputs meant on the newest frame on screen, and the buttons' last presses."""
        self.owner = OwnerDesk(self.ui, config, clock.now(), boot_id=boot_id, pin=owner_pin,
                               config_path=config_path)
        """The owner's PIN keypad, stopping a match, the settings editor (``config_path``: where Save writes)."""
        self.review = ReviewDesk()  # the post-match review: its job, what each half shows (review_desk)
        self.routes = self._routes()
        """The one dispatch table: what each kind of intent does (``handle``)."""
        self.refresh_texts()
        self.resume()
        self.stall.reset(self.clock.now())

    # -- the match lifecycle ---------------------------------------------------------------

    @property
    def journal(self) -> Journal | None:
        """The journal now (None without one, or while it cannot be opened)."""
        return self.keeper.journal if self.keeper is not None else None

    def resume(self) -> None:
        """Continue an unfinished match from the journal, as the clock rules say (RULES.md §7)."""
        if self.keeper is None:
            return
        now = self.clock.now()
        self._notices(now)  # what opening the journal found (a file moved aside, a backup restored)
        resumed = self.keeper.resume(now)
        self._notices(now)
        if resumed is None:
            return
        session = GameSession(self.config.match, self.rng, boot_id=self.boot_id)
        session.namer = self.player_name
        session.adopt(resumed.match)
        self.session, self._entered = session, True
        self._practice(resumed.computer_level, session, 1 - resumed.computer_seat)
        self.desk.seat_names_from(resumed.players)
        session.events.extend(resumed.events)
        self._events_seen = len(session.events)
        session.say(resumed.message, now)
        self._save(now)
        self.ui.screen = Screen.MATCH

    def new_match(self, computer_level: int | None = None, person: int = 0) -> None:
        """Start a fresh match at the ready screen (entered in the journal at its first Start);
        ``computer_level``: a practice match against the computer at that level (no hand-overs), ``person``'s seat."""
        settings = self.config.match if computer_level is None else replace(self.config.match, handover=False)
        self.session = GameSession(settings, self.rng, boot_id=self.boot_id)
        self.session.namer = self.player_name
        self._practice(computer_level, self.session, person)
        self._entered = False
        self.ui.records.picker = None
        self.flight = None
        self._events_seen = 0
        self._last_input_ns = max(self._last_input_ns, self.clock.now())
        self.ui.screen = Screen.MATCH
        self.ui.help_open = False
        self.ui.sheet_open = False
        self.ui.confirm_resign.clear()

    def seat(self, number: int) -> Seat:
        """Who sits in seat ``number``: a person or the computer, their name and language."""
        return seat_of(self.ui, self.computer, number)

    def player_name(self, seat: int) -> str:
        """Who sits in ``seat`` for the in-game texts: the computer, the named player, or "Player 2" (a ``Text``)."""
        return self.seat(seat).name

    def enter_match(self) -> None:
        """Before the first Start: enter the match in the journal with the players now in the seats.

        The players can change until then, so the journal's match is made here (nothing was played
        yet, the fresh recording match is the same as the one on screen)."""
        s = self.session
        if self.keeper is None or s is None or self._entered:
            return
        if s.match.phase is not Phase.READY or s.match.round != 0:
            return
        level, seat = (None, 1) if self.computer is None else (self.computer.level, self.computer.seat)
        s.adopt(self.keeper.begin(s.match.config, self.ui.records.chosen_ids(), self.clock.now(),
                                  computer_level=level, computer_seat=seat, event=self.events.link()))
        self._entered = True

    def go_home(self) -> None:
        """Back to the home screen (the match, if any, is left; the seats are guests again)."""
        self.desk.reset()
        self.ui.sheet_open = False
        self.session = None
        self._practice(None, None)
        self.ui.screen = Screen.HOME
        self.ui.help_open = False
        self.ui.confirm_resign.clear()
        self.owner.close()

    def use_journal(self, journal: Journal | None) -> None:
        """Keep matches and named players in ``journal`` from now on (the screenshots' demonstration)."""
        self.keeper = JournalKeeper(None, self.boot_id, journal=journal) if journal is not None else None
        self.desk = PlayerDesk(self.keeper, self.ui)

    # -- inputs ----------------------------------------------------------------------------

    def touched(self, arrival_ns: int) -> None:
        """An input arrived at ``arrival_ns`` (the idle return counts from the latest)."""
        self._last_input_ns = max(self._last_input_ns, arrival_ns)

    def arrival(self, stamp: int) -> int:
        """A command's arrival, never before the last one the match accepted (same-frame races)."""
        if self.session is not None:
            last = self.session.match.last_command_ns
            if last is not None and stamp < last:
                return last
        return stamp

    # -- what a press means ---------------------------------------------------------------

    def meaning(self) -> tuple[object, ...]:
        """What an input means now: the screen and its overlays, the match's phase and who is to act."""
        ui = self.ui
        s = self.session
        match = None if s is None else (id(s.match), s.match.phase, s.match.to_act, s.match.round, s.all_in)
        owner = (ui.owner.keypad, ui.owner.confirm_stop, ui.owner.editing is not None, self.events.meaning())
        return (ui.screen, ui.help_open, ui.records.picker, tuple(sorted(ui.confirm_resign)), owner, match)

    def presented(self, now: int) -> None:
        """A frame went on screen at ``now``: from then on inputs mean what it shows."""
        self.presses.presented(self.meaning(), now)

    def stale(self, arrival_ns: int) -> bool:
        """Whether an input that arrived at ``arrival_ns`` came before the screen showed what inputs
        mean now (it was meant for an earlier screen, or an earlier input of the same frame changed
        the meaning and no frame has shown it yet)."""
        return self.presses.stale(self.meaning(), arrival_ns)

    def tap_ignored(self, tap: Tap, near: int) -> bool:
        """Whether a tap means nothing: a repeat within ``REPEAT_NS`` on the same spot (``near`` pixels)
        across a screen change, or meant for an earlier screen (``presses``: the rule of the buttons)."""
        return self.presses.tap_repeat(tap, near) or self.stale(tap.arrival_ns)

    def press(self, item: InputEvent) -> None:
        """A physical button press (GPIO, serial panel or simulator key): the intent it makes now
        (``button_intent``), carried out as a tap's; a press meant for an earlier screen, or a repeat
        right after a screen change, means nothing."""
        if self.presses.repeat(item) or self.stale(item.arrival_ns):
            return
        self.handle(self.button_intent(item.player, item.button), item.arrival_ns, button=True)

    def button_intent(self, player: int | None, button: Button) -> do.Intent:
        """What ``button`` of ``player`` (None: a kiosk button) asks for now: HELP opens or closes the
        help, at home ACCEPT or START/CONTINUE is a new match, at the table ``buttons.button_intent``."""
        if button is Button.HELP:
            return do.CloseHelp() if self.ui.help_open else do.OpenHelp()
        if self.session is None:
            return self.events.home_press(button in STARTS and self.ui.screen == Screen.HOME)
        return button_intent(self.session, player, button)

    def refusal(self, intent: do.Intent, button: bool = False) -> str | None:
        """Why ``intent`` is not taken now (None: it is), from a button or (``button`` False) a tap that
        the screen offered; the timing guards (stale inputs, repeats) come before (``presses``)."""
        o = self.ui.owner
        if (o.keypad is not None or o.confirm_stop) and type(intent) not in OWNER and not self.match_in_progress():
            return "the owner has the screen"  # beside a match in progress the players play on
        if type(intent) not in MATCH and not isinstance(intent, do.Hint):  # None but for these screens' own intents
            return self.events.refusal(intent) or self.review.refusal(self, intent)
        s = self.session
        if s is None:
            return "no match"
        if button and self.ui.records.picker is not None:
            return "a name is being picked"
        if self.computers_own(intent, s, button):
            return "the computer's"
        return None

    def handle(self, intent: do.Intent, now: int, *, button: bool = False) -> None:
        """Carry out ``intent`` (a tap's, taken in at ``now``; ``button``: a physical button's, arrived
        at ``now``) through the one dispatch table, unless a guard refuses it."""
        route = self.routes.get(type(intent))
        if route is None or self.refusal(intent, button) is not None:
            return
        route(intent, now)
        self.changed()

    def changed(self) -> None:
        """Something the screen shows changed (the frame loop redraws it whole)."""
        self.changes += 1

    def _routes(self) -> dict[type[do.Intent], Callable[[Any, int], object]]:
        """Intent type to handler: the areas' tables (``dispatch``, ``owner_screens``) and the screens'."""
        ui = self.ui
        routes: dict[type[do.Intent], Callable[[Any, int], object]] = {}
        routes |= {kind: partial(self._interface, f) for kind, f in INTERFACE.items()}
        routes |= {kind: partial(self._players, f) for kind, f in DESK.items()}
        routes |= {kind: partial(self._owner, f) for kind, f in OWNER.items()}
        routes |= {kind: partial(self._match, f) for kind, f in MATCH.items()}
        routes |= self.review.routes(self)
        routes |= {
            do.OpenHelp: lambda i, now: ui.open_help(i.player),
            do.CloseHelp: lambda i, now: setattr(ui, "help_open", False),
            do.OpenScoreSheet: lambda i, now: ui.open_sheet(i.player),
            do.CloseScoreSheet: lambda i, now: setattr(ui, "sheet_open", False),
            do.ScoreSheetPage: lambda i, now: setattr(ui, "sheet_page", max(0, i.page)),
            do.NewMatch: lambda i, now: self.new_match(),
            do.Rematch: lambda i, now: self.new_match(*(self.computer.again() if self.computer else ())),
            do.OpenPractice: lambda i, now: ui.open_screen(Screen.PRACTICE, i.player),
            do.PlayComputer: lambda i, now: self.new_match(i.level, 1 if i.seat == 1 else 0),
            do.GoHome: lambda i, now: self.go_home(),
            do.OpenSettings: lambda i, now: self._open_settings(i.player),
            do.Hint: self._hint, **self.events.routes(),
        }
        return routes

    def _interface(self, handler: Callable[[UiState, Any], object], intent: do.Intent, now: int) -> None:
        """Languages and pages: the interface only (its texts are made again)."""
        handler(self.ui, intent)
        self.refresh_texts()

    def _open_settings(self, player: int | None) -> None:
        self.ui.open_screen(Screen.SETTINGS, player)
        self.ui.settings_page = 0  # the settings open at their first page
        self.ui.owner.notice = ""
        self.ui.status_line = self.status_text()

    def _players(self, handler: Callable[[PlayerDesk, UiState, Any], object], intent: do.Intent, now: int) -> None:
        """The named players' screens: picker, keyboard, leaderboard, history, replay (a journal that
        fails under them is a warning, and the kiosk goes home; the keeper repairs it at the next frame)."""
        try:
            handler(self.desk, self.ui, intent)
        except KioskStoreError as exc:
            self.ui.warnings = (*self.ui.warnings, exc.text)
            self.ui.records.picker = None
            if self.session is None:
                self.go_home()
            else:
                self.ui.screen = Screen.MATCH

    def _owner(self, handler: Callable[[OwnerDesk, Any, int, bool], Decision], intent: do.Intent, now: int) -> None:
        self.apply(handler(self.owner, intent, now, self.match_in_progress()), now)

    def apply(self, decision: Decision, now: int) -> None:
        """Carry out what the owner's desk decided."""
        if decision.abort and self.session is not None:
            self.session.abort(T(STOPPED_BY_OWNER), now)
        if decision.manage:
            self.desk.open_manage()
        if decision.config is not None:
            self.config = replace(self.config, match=decision.config.match, sound=decision.config.sound)
            self.refresh_texts()
        if decision.finish:
            self.finish(now)
        if decision.leave:
            self.running, self.exit_status = False, ADMIN_EXIT_STATUS

    def _match(self, handler: Callable[[GameSession, UiState, Any, int], object], intent: do.Intent, now: int) -> None:
        """The match's intents (the guards saw that there is a match); only a Start enters the match in the journal."""
        assert self.session is not None
        if isinstance(intent, do.Start):
            self.enter_match()
        handler(self.session, self.ui, intent, self.arrival(now))

    def _hint(self, intent: do.Hint, now: int) -> None:
        c, s = self._computer(), self.session
        if c is not None and s is not None and intent.player == c.person:
            c.ask_hint(s.match, self.arrival(now))

    def computers_own(self, intent: do.Intent, s: GameSession, button: bool = False) -> bool:
        """In a practice match: whether ``intent`` is the computer's to make (its seat's, or a tap that
        acts for the player to act while that is the computer): no input makes it."""
        player, to_act = getattr(intent, "player", None), s.match.to_act
        if player is not None and not self.seat(player).person:
            return True
        return not button and to_act is not None and not self.seat(to_act).person and isinstance(intent, ON_TO_ACT)

    def match_in_progress(self) -> bool:
        """A match past its first Start and not over."""
        return in_progress(self.session)

    # -- admin exit --------------------------------------------------------------------------

    def hold(self, source: Hashable, now: int) -> None:
        """A press on the admin corner (or the admin key) began at ``now``."""
        self.holds[source] = Hold(now, source)

    def release(self, source: Hashable) -> None:
        """That press ended."""
        self.holds.pop(source, None)
        self.steppers.release(source)

    def hold_stepper(self, source: Hashable, intent: do.Intent, now: int) -> None:
        """A press on a settings stepper began at ``now``: it repeats while held (``kiosk.table.repeat``)."""
        self.steppers.press(source, intent, now)

    @property
    def hold_ns(self) -> int:
        return int(self.config.kiosk.admin_exit_hold_seconds * NS_PER_S)

    # -- time ------------------------------------------------------------------------------

    def heartbeat(self, now: int) -> None:
        """Abort the match when the loop could not take commands for too long while a clock ran."""
        s = self.session
        running = s is not None and not s.match.is_over and s.match.clock_running is not None
        reason = self.stall.beat(now, running)
        if reason is not None and s is not None and running:
            s.abort(reason, now)

    def update(self, now: int) -> None:
        """Let time pass: losses on time, the journal, chip flights, the admin exit, the idle return
        (the screen is redrawn when any of them did something)."""
        s = self.session
        done = s is not None and (s.tick(now) | self._computer_turn(now, s) | self._start_flights(now, s))
        done |= self._save(now)  # committed before it is shown (or kept, and the banner says so)
        if self.desk.advance_replay(now):  # the replay's auto-play
            self._last_input_ns = max(self._last_input_ns, now)
            done = True
        done |= self._check_holds(now) | self.review.update(self)  # the review starts, cancels, progresses
        self._repeat_steppers(now)
        if done | self._idle_return(now):
            self.changed()

    def _repeat_steppers(self, now: int) -> None:
        """The held steppers' repeats, while the settings editor that shows them is open."""
        if self.ui.owner.editing is None:
            self.steppers.clear()
            return
        for intent in self.steppers.due(now):
            self.handle(intent, now)

    def panel_state(self, now: int) -> PanelState:
        """What the LEDs and the serial panel show: each game button lit exactly when its press would be taken."""
        return panel_of(self, now)

    def _save(self, now: int) -> bool:
        """Hand the match to the keeper; show its state (the saving banner) and what it noticed (True
        if the screen must show something new)."""
        keeper = self.keeper
        if keeper is None:
            return False
        s = self.session
        state = keeper.sync(s.match if s is not None and self._entered else None, now)
        shown = state.problem != self.ui.saving
        self.ui.saving = state.problem
        shown |= self._notices(now)
        if keeper.generation != self._generation:  # opened late, restored from a backup, started afresh
            self._generation = keeper.generation
            self.desk = PlayerDesk(keeper, self.ui)
            shown = True
        return shown

    def _notices(self, now: int) -> bool:
        """What the keeper noticed, each shown once: to both players during a match, else on the banner
        (True if there was any)."""
        notices = self.keeper.take_notices() if self.keeper is not None else []
        for notice in notices:
            if self.session is not None:
                self.session.say(notice, now)
            else:
                self.ui.warnings = (*self.ui.warnings, notice)
        return bool(notices)

    def set_panel(self, state: str | None) -> None:
        """The serial panel's state as the screen shows it."""
        self.ui.panel = state

    def show_flight(self, transfer: Transfer, start_ns: int) -> None:
        """Fly the chips of ``transfer`` from ``start_ns`` (the events so far count as seen)."""
        self.flight = ChipFlight(transfer.payer, transfer.payee, transfer.points, start_ns)
        self._events_seen = len(self.session.events) if self.session is not None else 0

    def _start_flights(self, now: int, s: GameSession) -> bool:
        """Animate the newest transfer (chips flying from the payer's stack to the payee's); True if a
        flight began or ended."""
        before = self.flight
        for event in s.events[self._events_seen :]:
            if isinstance(event, Transfer):
                self.flight = ChipFlight(event.payer, event.payee, event.points, now)
        self._events_seen = len(s.events)
        if self.flight is not None and self.flight.progress(now) >= 1.0:
            self.flight = None
        return self.flight is not before

    def _check_holds(self, now: int) -> bool:
        """The admin holds long enough (True if any was)."""
        held = [source for source, hold in self.holds.items() if now - hold.since_ns >= self.hold_ns]
        for source in held:
            del self.holds[source]  # once: the keypad opens (or, in the simulator without a PIN, the kiosk leaves)
            self.apply(self.owner.held(source, self.simulator), now)
        return bool(held)

    def finish(self, now: int) -> None:
        """Before leaving: hand the match to the keeper a last time (a stopped match is committed)."""
        self._save(now)
        self._practice(None, None)
        if isinstance(self.bot_executor, ThreadPoolExecutor):
            self.bot_executor.shutdown(wait=False, cancel_futures=True)

    # -- the computer ------------------------------------------------------------------------

    def _practice(self, level: int | None, session: GameSession | None, person: int = 0) -> None:
        """The computer for ``session`` at ``level``, ``person`` in the other seat (None: two people)."""
        if self.computer is not None:
            self.computer.cancel()
        self.computer = None
        if level is None or session is None:
            return
        rng = random.Random(self.rng.getrandbits(64))
        self.computer = ComputerPlayer(level, self.clock.now, InlineExecutor(), rng, seat=1 - person)

    def _computer(self) -> ComputerPlayer | None:
        """The computer, thinking where and as much as ``bot_executor`` and ``bot_samples`` say now (the
        worker thread is made when first needed)."""
        c = self.computer
        if c is not None:
            if self.bot_executor is None:
                self.bot_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
            c.executor, c.samples = self.bot_executor, self.bot_samples
            c.min_move_ns = int(self.config.computer.think_seconds * NS_PER_S)  # its pause; level 4 searches it
        return c

    def _computer_turn(self, now: int, s: GameSession) -> bool:
        """The computer asks or plays when its turn has come; a hint that came in is shown (True if
        it played or a hint came)."""
        c = self._computer()
        if c is None:
            return False
        played: list[Action] = []

        def play(action: Action, at: int) -> bool:
            played.append(action)
            return s.command(action, self.arrival(at))

        c.update(s.match, now, play)
        hint = c.take_news()
        if hint is not None:
            show_hint(s, hint, c.person, now)
        return bool(played) or hint is not None

    def _idle_return(self, now: int) -> bool:
        """After a while without input: the owner's screens close, and between matches the kiosk goes
        home (True if either happened)."""
        idle_ns = int(self.config.kiosk.idle_return_seconds * NS_PER_S)
        ui = self.ui
        if now - self._last_input_ns < idle_ns:
            return False
        closed = ui.owner.keypad is not None or ui.owner.confirm_stop  # nobody finished the admin exit
        if closed:
            self.owner.close()
        if ui.screen == Screen.HOME and self.session is None and ui.records.picker is None:  # a join's picker closes
            return closed
        s = self.session
        if ui.screen == Screen.SETTINGS or s is None or s.match.is_over or (
                s.match.phase is Phase.READY and s.match.round == 0):
            self.go_home()
            return True
        return closed

    # -- what the frame loop asks ------------------------------------------------------------

    def screen_key(self, now: int) -> tuple[object, ...]:
        """Everything a full redraw depends on (besides the clock digits): what changed after inputs
        and in time (``changes``), the screen, the match at the table, the messages and chips in the
        air, the lock's countdown, and what the machine reports (the panel, the saving banner)."""
        s = self.session
        ui = self.ui
        locked = self.owner.locked_seconds(now) if ui.owner.keypad is not None else 0
        shown = (self.changes, ui.screen, locked, ui.panel, ui.saving, len(ui.warnings), self.events.version())
        if s is None:
            return shown
        live = tuple(id(m) for m in s.live_messages(now))
        flying = None if self.flight is None else (id(self.flight), now)
        return (*shown, s.shown(), live, flying)

    def next_due_ns(self, now: int) -> int:
        """When the next thing the screen or the LEDs must show is due (``kiosk.table.due``)."""
        return next_due_ns(self, now)

    # -- texts -------------------------------------------------------------------------------

    def refresh_texts(self) -> None:
        """Make the key legend (simulator) and the settings' lines again, in the host language."""
        self.ui.legend = self.key_legend() if self.simulator else ""
        self.ui.status_line = self.status_text()

    def key_legend(self) -> str:
        """The simulator's keys for the buttons, and the admin exit key."""
        return key_legend(self.config, self.ui.language)

    def status_text(self) -> str:
        """The settings screen's lines: screen, hand-over, clock, buttons and panel, language, warnings."""
        return status_text(self.config, self.ui.language, self.surroundings, self.ui.warnings)
