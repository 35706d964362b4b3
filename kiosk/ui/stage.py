"""The scene stack: which scenes are on screen for the controller's state, drawn bottom to top; a
tap's intent offered to them top to bottom.

The stack is read from the state each time (a button press, a lost clock or the idle return can
change the screen as well as a tap): the base screen (home, settings, the leaderboard, a history,
a replay, or the table's scene for the match's phase), then the overlays (Resign confirmations, the
rules help, the warning banner, chips in flight, the name picker or its keyboard, the owner's PIN
keypad or "Stop the kiosk?"). An opaque scene
hides, and takes the taps of, everything beneath it.
"""

from __future__ import annotations

import pygame

from kiosk.table.controller import Controller
from kiosk.table.intents import Intent
from kiosk.table.state import Screen
from kiosk.ui import layout, theme
from kiosk.ui.regions import Regions
from kiosk.ui.scenes.auction import Auction
from kiosk.ui.scenes.banner import Banner, warning_lines
from kiosk.ui.scenes.base import ClockSpot, Context, Scene
from kiosk.ui.scenes.flight import Flight
from kiosk.ui.scenes.handover import Handover
from kiosk.ui.scenes.help import Help
from kiosk.ui.scenes.history import History
from kiosk.ui.scenes.home import Home
from kiosk.ui.scenes.keyboard import Keyboard
from kiosk.ui.scenes.keypad import Keypad, KeypadBeside, StopBeside, StopConfirm
from kiosk.ui.scenes.leaderboard import Leaderboard
from kiosk.ui.scenes.manage import ManagePlayers
from kiosk.ui.scenes.match_over import MatchOver
from kiosk.ui.scenes.picker import Picker
from kiosk.ui.scenes.play import Play
from kiosk.ui.scenes.practice import Practice
from kiosk.ui.scenes.ready import Ready
from kiosk.ui.scenes.replay import Replay
from kiosk.ui.scenes.resign import ResignConfirm
from kiosk.ui.scenes.review import Review
from kiosk.ui.scenes.saving import SavingBanner
from kiosk.ui.scenes.scoresheet import ScoreSheet
from kiosk.ui.scenes.settings import Settings
from kiosk.ui.scenes.settings_edit import SettingsEditor
from kiosk.ui.scenes.settlement import Settlement
from kiosk.ui.scenes.table import TableScene, draw_clock_face
from kiosk.ui.widgets import Hotspot, format_bank, format_delay


class Stage:
    """The scenes for one screen size and orientation; what was last drawn (hotspots, clocks)."""

    def __init__(self, controller: Controller, size: tuple[int, int], orientation: str) -> None:
        context = Context(controller, size, orientation)
        self.context = context
        self.controller = controller
        self.home = Home(context)
        self.settings = Settings(context)
        self.settings_edit = SettingsEditor(context)
        self.keypad = Keypad(context)
        self.stop_confirm = StopConfirm(context)
        self.beside = (KeypadBeside(context), StopBeside(context))
        """The same over a match in progress: on the half of the player not to act."""
        self.screens: dict[Screen, Scene] = {
            Screen.LEADERBOARD: Leaderboard(context), Screen.HISTORY: History(context), Screen.REPLAY: Replay(context),
            Screen.PRACTICE: Practice(context), Screen.PLAYERS: ManagePlayers(context), Screen.REVIEW: Review(context),
        }
        self.tables: dict[Screen, TableScene] = {
            Screen.READY: Ready(context), Screen.AUCTION: Auction(context), Screen.PLAY: Play(context),
            Screen.HANDOVER: Handover(context), Screen.SETTLEMENT: Settlement(context),
            Screen.MATCH_OVER: MatchOver(context),
        }
        self.confirms = (ResignConfirm(context, 0), ResignConfirm(context, 1))
        self.help_full = Help(context, over_table=False)
        self.help_table = Help(context, over_table=True)
        self.sheet = ScoreSheet(context)
        self.banner = Banner(context)
        self.saving = SavingBanner(context)
        self.flight = Flight(context)
        self.picker = Picker(context)
        self.keyboard = Keyboard(context)
        self.hotspots: list[Hotspot] = []
        """What a tap can hit, as last drawn (topmost last)."""
        self.clocks: list[ClockSpot] = []
        """The clocks on screen, as last drawn."""

    @property
    def regions(self) -> Regions:
        return self.context.regions

    def stack(self) -> list[Scene]:
        """The scenes on screen now, bottom first."""
        ui = self.controller.ui
        session = self.controller.session
        screen = Screen(ui.screen)
        base: Scene
        table: TableScene | None = None
        if screen is Screen.SETTINGS:
            base = self.settings if ui.owner.editing is None else self.settings_edit
        elif screen in self.screens:
            base = self.screens[screen]
        elif screen is Screen.HOME or session is None:
            base = self.home
        else:
            base = table = self.tables[session.screen]
        scenes: list[Scene] = [base]
        if table is not None and session is not None and not session.match.is_over:
            scenes += [self.confirms[p] for p in sorted(ui.confirm_resign)]
        if ui.help_open and base in (self.home, self.settings):
            scenes.append(self.help_full)
        elif ui.help_open and table is not None:
            scenes.append(self.help_table)
        if ui.sheet_open and table is not None and not ui.help_open:
            scenes.append(self.sheet)
        if screen not in (Screen.MATCH, Screen.SETTINGS) and warning_lines(self.context):
            scenes.append(self.banner)  # the settings screen lists them all
        elif table is not None and ui.saving is not None:
            scenes.append(self.saving)  # a match goes on unsaved: both players are told
        if table is not None and self.controller.flight is not None:
            scenes.append(self.flight)
        joining = base is self.home and self.controller.events.joins.joining is not None  # a join's picker
        if (table is not None or joining) and ui.records.picker is not None:  # over everything, facing the seat
            scenes.append(self.keyboard if ui.records.typing is not None else self.picker)
        elif screen is Screen.PLAYERS and ui.records.typing is not None:  # the owner renames a player
            scenes.append(self.keyboard)
        beside = ui.owner.keypad == "exit" and self.controller.match_in_progress()  # not over the acting side
        if ui.owner.confirm_stop:  # the owner's, over everything (over a match in progress: beside it)
            scenes.append(self.beside[1] if self.controller.match_in_progress() else self.stop_confirm)
        elif ui.owner.keypad is not None:
            scenes.append(self.beside[0] if beside else self.keypad)
        return scenes

    def handle(self, intent: Intent, now: int) -> bool:
        """Offer a tap's ``intent`` to the scenes from the top; True if one took it."""
        for scene in reversed(self.stack()):
            if scene.takes(intent):
                self.controller.handle(intent, now)
                return True
            if scene.opaque:
                break
        return False

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        """Paint the whole screen; returns (and keeps) the hotspots. The context's recorders, if any,
        receive what is drawn (``Context.recorded``)."""
        context = self.context
        with layout.recording(context.layout_recorder), theme.recording_fits(context.fits):
            return self._draw(surface, now, context.layout_recorder)

    def _draw(self, surface: pygame.Surface, now: int, recorder: layout.LayoutRecorder | None) -> list[Hotspot]:
        stack = self.stack()
        first = max((i for i, scene in enumerate(stack) if scene.opaque), default=0)
        surface.fill(theme.BACKGROUND)
        if recorder is not None:
            recorder.clear(surface)
        hotspots: list[Hotspot] = []
        clocks: list[ClockSpot] = []
        for scene in stack[first:]:
            if isinstance(scene, (Help, ScoreSheet)) and recorder is not None:  # what they cover is not read
                recorder.cover(scene.rect)
            hotspots += scene.draw(surface, now)
            clocks += scene.clocks()
            if isinstance(scene, Help):  # a clock under the help is not repainted over it
                clocks = [c for c in clocks if not c.rect.colliderect(scene.rect)]
        self.hotspots, self.clocks = hotspots, clocks
        return hotspots

    def hit(self, pos: tuple[int, int]) -> Hotspot | None:
        """The topmost hotspot under ``pos``."""
        for spot in reversed(self.hotspots):
            if spot.rect.collidepoint(pos):
                return spot
        return None

    # -- clock-only frames ---------------------------------------------------------------------

    def clock_key(self, now: int) -> tuple[object, ...]:
        """What the clocks on screen show at ``now`` (a change means they need repainting)."""
        session = self.controller.session
        if session is None or not self.clocks:
            return ()
        m = session.match
        running = m.clock_running
        return tuple(
            (format_bank(m.bank_ns(p, now)), format_delay(m.delay_left_ns(now)) if p == running else "")
            for p in (0, 1)
        )

    def draw_clocks(self, surface: pygame.Surface, now: int) -> list[pygame.Rect]:
        """Repaint only the clocks; returns the screen rectangles that changed."""
        session = self.controller.session
        if session is None:
            return []
        rects = []
        for spot in self.clocks:
            local = pygame.Surface(spot.rect.size)
            draw_clock_face(local, local.get_rect(), session.match, spot.player, now, self.context.t_for(spot.player))
            if spot.turned:
                local = pygame.transform.rotate(local, 180)
            surface.blit(local, spot.rect)
            rects.append(spot.rect)
        return rects

    # -- what tests and tools ask ----------------------------------------------------------------

    def help_pages(self) -> int:
        """How many pages the open help has (0: the help is not on screen)."""
        scene = next((s for s in self.stack() if isinstance(s, Help)), None)
        return 0 if scene is None else scene.page_count()

    def help_has_figures(self) -> bool:
        """Whether the open help's page shows worked layouts."""
        scene = next((s for s in self.stack() if isinstance(s, Help)), None)
        return scene is not None and scene.has_figures()

    def settings_pages(self) -> int:
        """How many pages the settings screen takes now."""
        return self.settings.page_count()
