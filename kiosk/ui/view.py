"""Drawing every screen from the app's state, and the hotspots a tap can hit.

A full redraw paints everything and returns the hotspots; a clock update repaints only the
clock rectangles (``draw_clocks``), so a frame where only a digit changed touches a few hundred
pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine import Draw, Phase, RoundEnded, Transfer, TransferReason
from engine.events import EndReason
from kiosk.i18n import LANGUAGES, N_, NATIVE_NAMES, T, Translator, match_template, translator
from kiosk.i18n.messages import as_text
from kiosk.table.intents import (
    Accept,
    CancelResign,
    ConfirmResign,
    Decline,
    DrawTile,
    GoHome,
    HostLanguage,
    NewMatch,
    OpenHelp,
    OpenLeaderboard,
    OpenSettings,
    PlaceBid,
    PlayerLanguage,
    Rematch,
    Resign,
    Reveal,
    SettingsPage,
    Start,
    StepBid,
    TapTile,
)
from kiosk.table.session import GameSession
from kiosk.table.state import ChipFlight, UiState
from kiosk.ui import fonts, theme
from kiosk.ui.board.table import draw_board_area, draw_hand
from kiosk.ui.help import draw_help
from kiosk.ui.players_view import RECORD_SCREENS, draw_name_button, draw_picker, draw_record_screen
from kiosk.ui.regions import Regions, compute_regions, to_screen
from kiosk.ui.widgets import (
    Hotspot,
    draw_button,
    draw_chips,
    draw_hidden_tiles,
    format_bank,
    format_delay,
    paragraph,
    text,
    text_or_wrap,
)

REASONS = {
    EndReason.BALANCE: N_("because the other player's points ran out"),
    EndReason.TIME: N_("because the other player's time ran out"),
    EndReason.RESIGN: N_("because the other player resigned"),
    EndReason.ABORTED: N_("aborted"),
}
ABORT_DETAILS = (
    N_("timing failure"),
    N_("the machine restarted while a clock was running"),
    N_("the monotonic clock went backwards"),
    N_("the monotonic clock went backwards by {gap}"),
    N_("the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})"),
)
"""The reasons the engine and the stall watch give for an aborted match (other reasons: "timing failure")."""


@dataclass(frozen=True, slots=True)
class ClockSpot:
    """Where a player's clock is on screen."""

    player: int
    rect: pygame.Rect
    turned: bool


class View:
    """Draws the kiosk for one screen size and orientation."""

    def __init__(self, size: tuple[int, int], orientation: str) -> None:
        self.size = size
        self.orientation = orientation
        self.regions: Regions = compute_regions(size[0], size[1], orientation)
        self.hotspots: list[Hotspot] = []
        self.clocks: list[ClockSpot] = []
        self.chip_stacks: dict[int, pygame.Rect] = {}
        self.ui: UiState = UiState()
        self.help_pages = 0
        self.settings_pages = 0
        self.help_has_figures = False

    # -- languages ---------------------------------------------------------------------------

    @property
    def t(self) -> Translator:
        """Shared texts: the host language."""
        return translator(self.ui.language)

    def t_for(self, player: int | None) -> Translator:
        """Texts for ``player`` (None: shared) in their language."""
        return translator(self.ui.player_language(player))

    # -- entry points ------------------------------------------------------------------------

    def draw_full(
        self,
        surface: pygame.Surface,
        ui: UiState,
        session: GameSession | None,
        now_ns: int,
        flight: ChipFlight | None = None,
    ) -> None:
        """Paint the whole screen; afterwards ``hotspots`` and ``clocks`` describe it."""
        self.hotspots = []
        self.clocks = []
        self.ui = ui
        surface.fill(theme.BACKGROUND)
        if ui.screen == "settings":
            self._settings(surface, ui)
        elif ui.screen in RECORD_SCREENS:
            draw_record_screen(self, surface, ui)
        elif ui.screen == "home" or session is None:
            self._home(surface, ui)
        else:
            self._table(surface, ui, session, now_ns)
        warnings = self._warnings(ui)
        if warnings and ui.screen not in ("match", "settings"):  # the settings screen lists them all
            self._warning_banner(surface, warnings)
        if flight is not None and session is not None and ui.screen == "match":
            self._chip_flight(surface, flight, now_ns)
        if ui.records.picker is not None and session is not None and ui.screen == "match":
            draw_picker(self, surface, ui)  # over everything, facing the seat's player

    def _chip_flight(self, surface: pygame.Surface, flight: ChipFlight, now_ns: int) -> None:
        """Up to ten chips on their way between the two stacks, with the points above them."""
        start, end = self.chip_stacks.get(flight.payer), self.chip_stacks.get(flight.payee)
        if start is None or end is None:
            return
        t = flight.progress(now_ns)
        eased = 1 - (1 - t) ** 3
        chips = max(1, min(10, flight.points // 5))
        size = max(10, start.height // 2)
        for i in range(chips):
            lag = i * 0.04
            u = min(1.0, max(0.0, (eased - lag) / (1 - lag) if lag < 1 else 1))
            x = start.centerx + (end.centerx - start.centerx) * u
            y = start.centery + (end.centery - start.centery) * u
            chip = pygame.Rect(0, 0, size, size // 2)
            chip.center = (int(x), int(y) - i * 2)
            pygame.draw.ellipse(surface, theme.CHIP, chip)
            pygame.draw.ellipse(surface, theme.CHIP_EDGE, chip, width=1)
        value = f"+{flight.points}"
        label = theme.font(max(16, size), True, value).render(value, True, theme.SCORE)
        mid = (start.centerx + (end.centerx - start.centerx) * eased, start.centery + (end.centery - start.centery) * eased)
        surface.blit(label, label.get_rect(midbottom=(int(mid[0]), int(mid[1]) - size)))

    def clock_key(self, session: GameSession | None, now_ns: int) -> tuple[object, ...]:
        """What the clocks show at ``now_ns`` (a change means the clocks need repainting)."""
        if session is None or not self.clocks:
            return ()
        m = session.match
        running = m.clock_running
        return tuple(
            (format_bank(m.bank_ns(p, now_ns)), format_delay(m.delay_left_ns(now_ns)) if p == running else "")
            for p in (0, 1)
        )

    def draw_clocks(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> list[pygame.Rect]:
        """Repaint only the clocks; returns the screen rectangles that changed."""
        rects = []
        for spot in self.clocks:
            local = pygame.Surface(spot.rect.size)
            self._clock_face(local, local.get_rect(), session, spot.player, now_ns)
            if spot.turned:
                local = pygame.transform.rotate(local, 180)
            surface.blit(local, spot.rect)
            rects.append(spot.rect)
        return rects

    def hit(self, pos: tuple[int, int]) -> Hotspot | None:
        """The topmost hotspot under ``pos``."""
        for spot in reversed(self.hotspots):
            if spot.rect.collidepoint(pos):
                return spot
        return None

    # -- home and settings -------------------------------------------------------------------

    def _home(self, surface: pygame.Surface, ui: UiState) -> None:
        w, h = self.size
        t = self.t
        warnings = self._warnings(ui)
        banner = self._banner_rect(warnings).height if warnings else 0
        title = pygame.Rect(0, max(int(h * 0.07), banner + 2), w, int(h * 0.15))  # never under the banner
        text(surface, t._("Spectacular Bid"), title, int(h * 0.14), theme.ACCENT, bold=True)
        sub = pygame.Rect(int(w * 0.06), title.bottom, int(w * 0.88), int(h * 0.07))
        text(surface, t._("A Fives domino duel with an opening auction and a match clock"), sub, int(h * 0.05),
             theme.TEXT_DIM)
        bw, bh = int(w * 0.36), max(44, int(h * 0.1))
        y = sub.bottom + int(h * 0.04)
        rows = [[(t._("New match"), NewMatch(), True)], [(t._("Rules"), OpenHelp(), False)],
                [(t._("Settings"), OpenSettings(), False)]]
        if ui.records.available:  # named players: Rules and Settings share a row, the leaderboard has one
            rows = [rows[0], [(t._("Leaderboard"), OpenLeaderboard(), False)], rows[1] + rows[2]]
        for row in rows:
            gap = int(w * 0.015)
            cw = (bw - gap * (len(row) - 1)) // len(row)
            for i, (label, intent, primary) in enumerate(row):
                rect = pygame.Rect(w // 2 - bw // 2 + i * (cw + gap), y, cw, bh)
                draw_button(surface, rect, label, primary=primary)
                self.hotspots.append(Hotspot(rect, intent))
            y += bh + int(h * 0.025)
        # the languages, each named in itself
        lw, lh, gap = int(w * 0.2), max(40, int(h * 0.085)), int(w * 0.015)
        x = (w - 4 * lw - 3 * gap) // 2
        y += int(h * 0.01)
        for code in LANGUAGES:
            rect = pygame.Rect(x, y, lw, lh)
            draw_button(surface, rect, NATIVE_NAMES[code], primary=code == ui.language)
            self.hotspots.append(Hotspot(rect, HostLanguage(code)))
            x += lw + gap
        if ui.legend:
            text(surface, ui.legend, pygame.Rect(10, h - int(h * 0.065), w - 20, int(h * 0.05)), int(h * 0.04),
                 theme.TEXT_DIM)
        if ui.status_line:
            first = ui.status_line.split("\n")[3] if ui.status_line.count("\n") >= 3 else ui.status_line
            text(surface, first, pygame.Rect(10, h - int(h * 0.115), w - 20, int(h * 0.045)), int(h * 0.04),
                 theme.TEXT_DIM)
        if ui.help_open:
            self._help(surface, pygame.Rect(0, 0, w, h))

    def _settings(self, surface: pygame.Surface, ui: UiState) -> None:
        w, h = self.size
        t = self.t
        text(surface, t._("Settings"), pygame.Rect(0, int(h * 0.04), w, int(h * 0.1)), int(h * 0.08), theme.ACCENT,
             bold=True)
        lines = ui.status_line.split("\n") if ui.status_line else []
        lines += [t._("Warning: {warning}", warning=t(x)) for x in fonts.warnings()]
        back = pygame.Rect(0, 0, int(w * 0.25), max(40, int(h * 0.1)))
        back.bottomright = (w // 2 - 8, h - int(h * 0.04))
        # the lines, each on as many rows as it needs (up to four); pages when they do not all fit
        row_h = int(h * 0.06)
        box = pygame.Rect(int(w * 0.08), int(h * 0.16), int(w * 0.84), back.top - 8 - int(h * 0.16))
        pages = _pages([(line, _rows_for(line, box.width, row_h)) for line in lines], box.height // row_h)
        self.settings_pages = len(pages)
        page = min(ui.settings_page, len(pages) - 1)
        y = box.y
        for line, rows in pages[page]:
            rect = pygame.Rect(box.x, y, box.width, rows * row_h)
            if rows == 1:
                text(surface, line, rect, row_h - 4, align="left")
            else:
                paragraph(surface, line, rect, row_h - 4, min_size=theme.MIN_READABLE, align="left")
            y += rows * row_h
        draw_button(surface, back, t._("Back"), primary=True)
        self.hotspots.append(Hotspot(back, GoHome()))
        rules = back.copy()
        rules.bottomleft = (w // 2 + 8, back.bottom)
        draw_button(surface, rules, t._("Rules"))
        self.hotspots.append(Hotspot(rules, OpenHelp()))
        if len(pages) > 1:
            side = pygame.Rect(0, 0, back.left - 8 - int(w * 0.03), back.height)
            side.bottomleft = (int(w * 0.03), back.bottom)
            if page > 0:
                draw_button(surface, side, t._("Previous"))
                self.hotspots.append(Hotspot(side, SettingsPage(page - 1)))
            side = side.copy()
            side.bottomright = (w - int(w * 0.03), back.bottom)
            if page < len(pages) - 1:
                draw_button(surface, side, t._("Next"))
                self.hotspots.append(Hotspot(side, SettingsPage(page + 1)))
            text(surface, t._("Page {page} of {pages}", page=page + 1, pages=len(pages)),
                 pygame.Rect(int(w * 0.6), int(h * 0.04), int(w * 0.38), int(h * 0.1)), int(h * 0.04), theme.TEXT_DIM,
                 align="right")
        if ui.help_open:
            self._help(surface, pygame.Rect(0, 0, w, h))

    def _warnings(self, ui: UiState) -> list[str]:
        """The banner's warnings in the host language (configuration, hardware, journal, fonts)."""
        t = self.t
        return ([t._("Configuration: {warning}", warning=t(as_text(w))) for w in ui.warnings]
                + [t(w) for w in fonts.warnings()])

    def _banner_text(self, warnings: list[str]) -> str:
        value = warnings[0]
        if len(warnings) > 1:
            more = len(warnings) - 1
            value = self.t.n_("{warning} (+{n} more: see Settings)", "{warning} (+{n} more: see Settings)", more,
                              warning=value)
        return value

    def _banner_rect(self, warnings: list[str]) -> pygame.Rect:
        """Where the warning banner goes: across the top, one to three lines high."""
        w, h = self.size
        line_h = max(22, int(h * 0.06))
        return pygame.Rect(0, 0, w, line_h * _rows_for(self._banner_text(warnings), w - 12, line_h, most=3))

    def _warning_banner(self, surface: pygame.Surface, warnings: list[str]) -> None:
        """The first warning across the top (on two or three lines when one is not enough)."""
        h = self.size[1]
        value = self._banner_text(warnings)
        line_h = max(22, int(h * 0.06))
        rect = self._banner_rect(warnings)
        rows = rect.height // line_h
        pygame.draw.rect(surface, theme.DANGER, rect)
        if rows == 1:
            text(surface, value, rect.inflate(-12, -4), rect.height - 6, theme.BUTTON_TEXT)
        else:
            paragraph(surface, value, rect.inflate(-12, -4), line_h - 6, theme.BUTTON_TEXT, min_size=theme.MIN_READABLE)

    # -- the table ---------------------------------------------------------------------------

    def _table(self, surface: pygame.Surface, ui: UiState, session: GameSession, now_ns: int) -> None:
        r = self.regions
        for player in (0, 1):
            self._panel(surface, ui, session, player, now_ns)
        pygame.draw.rect(surface, theme.BOARD, r.middle)
        self._sidebar(surface, session)
        screen = session.screen
        m = session.match
        if not m.layout.is_empty and screen in ("play", "settlement", "match_over", "handover"):
            targets = session.targets() if screen == "play" else []
            area = r.board
            if screen == "settlement":  # the result card sits above the final layout
                area = pygame.Rect(area.x, area.y + area.height // 3, area.width, area.height - area.height // 3)
            for spot in draw_board_area(surface, area, m.layout, targets):
                self.hotspots.append(spot)
        getattr(self, f"_middle_{screen}")(surface, session, now_ns)
        if screen != "settlement":
            self._messages(surface, session, now_ns, above=screen in ("ready", "auction", "handover", "match_over"))
        if ui.help_open:
            self._help(surface, r.middle)

    def _panel(self, surface: pygame.Surface, ui: UiState, session: GameSession, player: int, now_ns: int) -> None:
        r = self.regions
        rect, turned, local = r.panels[player], r.turned[player], r.local
        m = session.match
        t = self.t_for(player)
        acting = m.to_act == player
        panel = pygame.Surface(local.size)
        panel.fill(theme.PANEL_ACTIVE if acting else theme.PANEL)
        spots: list[Hotspot] = []

        status = local.status
        name_h = status.height // 4
        named = ui.records.chosen[player]
        if m.jockey == player and m.phase is not Phase.PLAY:
            name = t._("Player {number} (jockey)", number=player + 1) if named is None else \
                t._("{name} (jockey)", name=named.name)
        else:
            name = t._("Player {number}", number=player + 1) if named is None else named.name
        text(panel, name, pygame.Rect(status.x, status.y, status.width, name_h), name_h, theme.TEXT, bold=True, align="left")
        balance_rect = pygame.Rect(status.x, status.y + name_h, status.width // 2, status.height // 3)
        text(panel, f"{m.balances[player]}", balance_rect, balance_rect.height, theme.SCORE, bold=True, align="left")
        chips = pygame.Rect(status.x + status.width // 2, status.y + name_h, status.width // 2, status.height // 3)
        draw_chips(panel, chips, m.balances[player])
        self.chip_stacks[player] = to_screen(chips, rect, turned)
        clock_local = pygame.Rect(status.x, chips.bottom + 2, status.width, status.bottom - chips.bottom - 2)
        self._clock_face(panel, clock_local, session, player, now_ns)
        self.clocks.append(ClockSpot(player, to_screen(clock_local, rect, turned), turned))

        self._panel_hand(panel, local.hand, session, player, spots)
        self._panel_actions(panel, local.actions, ui, session, player, spots)

        if turned:
            panel = pygame.transform.rotate(panel, 180)
        surface.blit(panel, rect)
        pygame.draw.line(surface, (0, 0, 0), rect.topleft if not turned else rect.bottomleft,
                         rect.topright if not turned else rect.bottomright, 2)
        for spot in spots:
            self.hotspots.append(Hotspot(to_screen(spot.rect, rect, turned), spot.intent))

    def _clock_face(self, target: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int, now_ns: int) -> None:
        m = session.match
        running = m.clock_running == player
        target.fill(theme.PANEL_ACTIVE if m.to_act == player else theme.PANEL, rect)
        bank = m.bank_ns(player, now_ns)
        colour = theme.DANGER if running and bank < 20_000_000_000 else theme.ACCENT if running else theme.TEXT_DIM
        bank_rect = pygame.Rect(rect.x, rect.y, int(rect.width * 0.55), rect.height)
        text(target, format_bank(bank), bank_rect, rect.height, colour, bold=running, align="left")
        if running:
            delay_rect = pygame.Rect(bank_rect.right, rect.y, rect.width - bank_rect.width, rect.height)
            delay = self.t_for(player)._("+{seconds}s", seconds=format_delay(m.delay_left_ns(now_ns)))
            text(target, delay, delay_rect, int(rect.height * 0.8), theme.TEXT, align="left")

    def _hand_visible(self, session: GameSession, player: int) -> bool:
        m = session.match
        if m.phase in (Phase.READY, Phase.MATCH_OVER):
            return m.round > 0
        return m.phase in (Phase.PLAY, Phase.AUCTION) and m.to_act == player

    def _panel_hand(
        self, panel: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int, spots: list[Hotspot]
    ) -> None:
        m = session.match
        if m.round == 0:
            if self.ui.records.available and session.screen == "ready":
                draw_name_button(self, panel, rect, self.ui, player, spots)
            return
        hand = m.hand(player)
        if not self._hand_visible(session, player):
            draw_hidden_tiles(panel, rect, len(hand))
            return
        playing = m.phase is Phase.PLAY and m.to_act == player
        playable = session.playable_tiles() if playing else set()
        tiles_rect = rect
        if m.phase in (Phase.READY, Phase.MATCH_OVER) and hand:
            label = pygame.Rect(rect.x, rect.y, rect.width, rect.height // 5)
            pips = sum(t.pips for t in hand)
            value = self.t_for(player).n_("{n} pip left in hand", "{n} pips left in hand", pips)
            text(panel, value, label, label.height, theme.TEXT_DIM)
            tiles_rect = pygame.Rect(rect.x, label.bottom + 2, rect.width, rect.height - label.height - 2)
        for tile, tile_rect in draw_hand(panel, tiles_rect, hand, playable, session.selected if playing else None, playing):
            if playing:
                spots.append(Hotspot(tile_rect, TapTile(player, tile)))

    def _panel_actions(
        self, panel: pygame.Surface, rect: pygame.Rect, ui: UiState, session: GameSession, player: int, spots: list[Hotspot]
    ) -> None:
        m = session.match
        t = self.t_for(player)
        screen = session.screen
        big = pygame.Rect(rect.x, rect.y, rect.width, int(rect.height * 0.58))
        small = pygame.Rect(rect.x, big.bottom + int(rect.height * 0.08), rect.width, rect.height - big.height - int(rect.height * 0.08))

        def button(r: pygame.Rect, label: str, intent: tuple[object, ...], primary: bool = False, enabled: bool = True) -> None:
            draw_button(panel, r, label, primary=primary, enabled=enabled)
            if enabled:
                spots.append(Hotspot(r, intent))

        if player in ui.confirm_resign and not m.is_over:
            text(panel, t._("Resign the match?"), pygame.Rect(rect.x, rect.y, rect.width, rect.height // 3), rect.height // 4)
            half = (rect.width - 8) // 2
            button(pygame.Rect(rect.x, rect.y + rect.height // 3 + 4, half, rect.height // 2), t._("Yes"), ConfirmResign(player), True)
            button(pygame.Rect(rect.x + half + 8, rect.y + rect.height // 3 + 4, half, rect.height // 2), t._("No"), CancelResign(player))
            return
        if screen in ("ready", "settlement"):
            button(big, t._("Start") if screen == "ready" else t._("Continue"), Start(player), True)
            # this player's own language, cycling through the four
            button(small, NATIVE_NAMES[t.language], PlayerLanguage(player))
        elif screen == "handover":
            if m.to_act == player:
                button(big, t._("Reveal my tiles"), Reveal(player), True)
            else:
                text(panel, t._("Look away"), big, big.height // 2, theme.TEXT_DIM)
        elif screen == "play" and m.to_act == player:
            if any(isinstance(a, Draw) for a in m.legal_actions()):
                button(big, t._("Draw ({n})", n=m.boneyard_count), DrawTile(player), True)
        elif screen == "match_over":
            button(big, t._("Rematch"), Rematch(), True)
        if screen in ("auction", "play", "handover"):
            button(small, t._("Resign"), Resign(player))
        elif screen == "match_over":
            button(small, t._("Home"), GoHome())

    def _sidebar(self, surface: pygame.Surface, session: GameSession) -> None:
        r = self.regions.sidebar.inflate(-10, -8)
        m = session.match
        t = self.t
        row = r.height // 5
        label = t._("Round {number}", number=m.round) if m.round else t._("New match")
        text(surface, label, pygame.Rect(r.x, r.y, r.width, row), row // 2, theme.TEXT_DIM)
        count_rect = pygame.Rect(r.x, r.y + row, r.width, int(row * 1.3))
        text(surface, f"{m.end_count}", count_rect, count_rect.height, theme.SCORE, bold=True)
        text(surface, t._("end count"), pygame.Rect(r.x, count_rect.bottom, r.width, row // 2), row // 2, theme.TEXT_DIM)
        yard = pygame.Rect(r.x, count_rect.bottom + row // 2 + 4, r.width, int(row * 0.9))
        if session.screen == "ready":  # nothing dealt yet: the way back home instead of the boneyard
            draw_button(surface, yard, t._("Home"))
            self.hotspots.append(Hotspot(yard, GoHome()))
            yard = yard.copy()
        can_draw = m.phase is Phase.PLAY and any(isinstance(a, Draw) for a in m.legal_actions())
        if session.screen != "ready":
            pygame.draw.rect(surface, theme.BUTTON_PRIMARY if can_draw else theme.PANEL, yard, border_radius=6)
            text(surface, t._("Boneyard {n}", n=m.boneyard_count), yard.inflate(-6, -6), yard.height // 2,
                 theme.BUTTON_TEXT if can_draw else theme.TEXT_DIM)
        if can_draw:
            self.hotspots.append(Hotspot(yard, DrawTile(m.to_act)))
        rules = pygame.Rect(r.x, r.bottom - int(row * 0.9), r.width, int(row * 0.9))
        draw_button(surface, rules, t._("Rules"))
        self.hotspots.append(Hotspot(rules, OpenHelp()))
        if self.ui.panel is not None:
            line = pygame.Rect(r.x, yard.bottom + 2, r.width, rules.y - yard.bottom - 4)
            states = {"connected": t._("connected"), "handshaking": t._("handshaking"),
                      "disconnected": t._("disconnected"), "incompatible": t._("incompatible")}
            ok = self.ui.panel == "connected"
            text(surface, t._("Panel: {state}", state=states.get(self.ui.panel, self.ui.panel)), line,
                 line.height, theme.TEXT_DIM if ok else theme.DANGER)

    # -- the middle of each table screen -------------------------------------------------------

    def _facing(self, player: int | None) -> bool:
        """Whether text meant for ``player`` is drawn turned (player 1 in table mode)."""
        return player is not None and self.regions.turned[player]

    def _card(self, surface: pygame.Surface, lines: list[tuple[str, int, tuple[int, int, int]]], facing: int | None,
              buttons: list[tuple[str, tuple[object, ...], bool]] = ()) -> None:  # type: ignore[assignment]
        """A box in the middle of the board with lines of text and buttons, turned toward ``facing``."""
        board = self.regions.board
        card = pygame.Rect(0, 0, int(board.width * 0.9), int(board.height * 0.74))
        local = pygame.Surface(card.size, pygame.SRCALPHA)
        pygame.draw.rect(local, (*theme.OVERLAY, 225), local.get_rect(), border_radius=14)
        button_h = int(card.height * 0.24) if buttons else 0
        body = pygame.Rect(12, 8, card.width - 24, card.height - button_h - 20)
        weights = sum(size for _, size, _ in lines) or 1
        y = body.y
        cap = max(theme.MIN_READABLE + 4, self.size[1] // 18)
        for value, size, colour in lines:
            h = body.height * size // weights
            big = size >= 3
            text_or_wrap(local, value, pygame.Rect(body.x, y, body.width, h),
                         int(h * 0.8) if big else min(int(h * 0.8), cap), colour, bold=big)
            y += h
        spots = []
        if buttons:
            bw = (card.width - 24 - 12 * (len(buttons) - 1)) // len(buttons)
            x = 12
            for label, intent, primary in buttons:
                b = pygame.Rect(x, card.height - button_h - 10, bw, button_h)
                draw_button(local, b, label, primary=primary)
                spots.append(Hotspot(b, intent))
                x += bw + 12
        turned = self._facing(facing)
        if turned:
            local = pygame.transform.rotate(local, 180)
        card.midtop = (board.centerx, board.y + 2)
        surface.blit(local, card)
        for spot in spots:
            self.hotspots.append(Hotspot(to_screen(spot.rect, card, turned), spot.intent))

    def _middle_ready(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        t = self.t
        if m.jockey is None:
            how = t._("Ranked opening: the highest double opens (no double: the heaviest tile)")
        else:
            how = t._("Auction: player {jockey} is the jockey; player {bidder} bids first",
                      jockey=m.jockey + 1, bidder=2 - m.jockey)
        self._card(surface, [(t._("Round {number}", number=m.round + 1), 3, theme.ACCENT), (how, 2, theme.TEXT),
                             (t._("Clocks are stopped. Either player presses Start."), 2, theme.TEXT_DIM)], None)

    def _middle_settlement(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        t = self.t
        index, ended = next(((i, e) for i, e in reversed(list(enumerate(session.events)))
                             if isinstance(e, RoundEnded)), (None, None))
        paid = next((e for e in session.events[(index or 0) + 1:]
                     if isinstance(e, Transfer) and e.reason is TransferReason.BLOCKED), None)
        lines: list[tuple[str, int, tuple[int, int, int]]] = []
        if ended is not None and not ended.blocked:
            lines.append((t._("Domino! Player {number} went out", number=ended.dominoer + 1), 3, theme.ACCENT))
            lines.append((t._("Player {number} is the jockey of the next auction", number=ended.dominoer + 1), 2, theme.TEXT))
        elif ended is not None:
            a, b = ended.pips
            lines.append((t._("Blocked: both players passed"), 3, theme.ACCENT))
            if a == b:
                lines.append((t._("Pips {a} and {b}: equal hands, nothing moves", a=a, b=b), 2, theme.TEXT))
            else:
                moved = 0 if paid is None else paid.points  # what the engine moved (capped, rounded)
                lighter = 0 if a < b else 1
                lines.append((t.n_("Pips {a} vs {b}: player {number} receives {n}",
                                   "Pips {a} vs {b}: player {number} receives {n}", moved,
                                   a=a, b=b, number=lighter + 1), 2, theme.TEXT))
        lines.append((t._("Balances {first} - {second}. Press Continue.", first=m.balances[0], second=m.balances[1]),
                      2, theme.TEXT_DIM))
        self._card_top(surface, lines)

    def _card_top(self, surface: pygame.Surface, lines: list[tuple[str, int, tuple[int, int, int]]]) -> None:
        """A slim card over the top of the board (the layout stays visible below it)."""
        board = self.regions.board
        card = pygame.Rect(board.x + board.width // 20, board.y + 4, board.width * 9 // 10, board.height // 3)
        shade = pygame.Surface(card.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (*theme.OVERLAY, 230), shade.get_rect(), border_radius=10)
        surface.blit(shade, card)
        inner = card.inflate(-16, -8)
        weights = sum(s for _, s, _ in lines) or 1
        y = inner.y
        for value, size, colour in lines:
            h = inner.height * size // weights
            cap = self.size[1] // (12 if size >= 3 else 17)
            text_or_wrap(surface, value, pygame.Rect(inner.x, y, inner.width, h), min(int(h * 0.85), cap), colour,
                         bold=size >= 3)
            y += h

    def _middle_handover(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        player = session.match.to_act
        assert player is not None
        t = self.t_for(player)
        self._card(surface, [(t._("Player {number}'s turn", number=player + 1), 3, theme.ACCENT),
                             (t._("Clocks are stopped until you reveal your tiles."), 2, theme.TEXT),
                             (t._("Tap Reveal or press your ACCEPT button."), 2, theme.TEXT_DIM)],
                   player, [(t._("Reveal my tiles"), Reveal(player), True)])

    def _middle_auction(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        auction = m.auction()
        player = m.to_act
        assert auction is not None and player is not None
        t = self.t_for(player)
        other = 1 - player
        if auction.bid is None:
            head = t._("Player {number}: bid for the opening, or decline", number=player + 1)
            standing = t._("Player {jockey} dominoed and is the jockey (15-point credit on their own bid)",
                           jockey=auction.jockey + 1)
        else:
            head = t._("Player {number}: accept {bid} or raise", number=player + 1, bid=auction.bid)
            cost = auction.cost(other, auction.bid)
            standing = t.n_("Player {number} bids {bid}: accepting makes them pay {n} and open",
                            "Player {number} bids {bid}: accepting makes them pay {n} and open", cost,
                            number=other + 1, bid=auction.bid)
        draft = session.bid_draft or auction.min_bid
        can_bid = auction.max_bid[player] >= auction.min_bid
        my_cost = auction.cost(player, draft)
        lines = [(head, 3, theme.ACCENT), (standing, 2, theme.TEXT)]
        if can_bid:
            lines.append((t.n_("Your bid of {bid} would cost you {n} if accepted",
                               "Your bid of {bid} would cost you {n} if accepted", my_cost, bid=draft), 2, theme.TEXT_DIM))
        elif auction.bid is None:
            lines.append((t._("You cannot afford a bid: decline"), 2, theme.DANGER))
        else:
            lines.append((t._("You cannot afford a bid: accept"), 2, theme.DANGER))
        first = (t._("Decline"), Decline(player), False) if auction.bid is None else \
            (t._("Accept {bid}", bid=auction.bid), Accept(player), True)
        buttons = [first]
        if can_bid:
            buttons += [("-5", StepBid(-1), False), (t._("Bid {bid}", bid=draft), PlaceBid(player), auction.bid is None),
                        ("+5", StepBid(1), False)]
        self._card(surface, lines, player, buttons)

    def _middle_play(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        if m.layout.is_empty and m.to_act is not None:
            t = self.t
            if m.opening_tile:
                why = t._("Player {number} must open with [{tile}]", number=m.to_act + 1, tile=m.opening_tile)
            else:
                why = t._("Player {number} opens with any tile", number=m.to_act + 1)
            self._card_top(surface, [(why, 2, theme.TEXT)])

    def _middle_match_over(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        o = session.match.outcome
        assert o is not None
        t = self.t
        if o.winner is None:
            detail = match_template(ABORT_DETAILS, o.detail or "timing failure") or T("timing failure")
            lines = [(t._("Match aborted - no result"), 3, theme.DANGER), (t(detail), 2, theme.TEXT)]
        else:
            named = self.ui.records.chosen[o.winner]
            title = (t._("{name} wins", name=named.name) if named is not None
                     else t._("Player {number} wins", number=o.winner + 1))
            lines = [(title, 3, theme.ACCENT), (t.lookup(REASONS[o.reason]), 2, theme.TEXT)]
        b = session.match.balances
        lines.append((t._("Final balances {first} - {second}", first=b[0], second=b[1]), 2, theme.TEXT_DIM))
        self._card(surface, lines, None)

    def _messages(self, surface: pygame.Surface, session: GameSession, now_ns: int, above: bool = False) -> None:
        """The newest messages at the bottom of the board (below the card when one is shown).

        A message for one player is in that player's language and faces them."""
        live = session.live_messages(now_ns)[-2:]
        if not live:
            return
        board = self.regions.board
        h = max(20, min(board.height // 9, (board.height - int(board.height * 0.74) - 6) // 2 if above else board.height))
        y = board.bottom - h * len(live) - 2
        for message in live:
            colour = theme.DANGER if message.kind == "refused" else theme.SCORE if message.kind == "score" else theme.TEXT
            rect = pygame.Rect(board.x + board.width // 16, y, board.width * 7 // 8, h)
            local = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(local, (0, 0, 0, 170), local.get_rect(), border_radius=h // 3)
            t = self.t_for(message.player)
            value = t(as_text(message.text))  # restart and stall messages are English sentences
            if message.player is not None:
                value = t._("Player {number}: {message}", number=message.player + 1, message=value)
            text(local, value, local.get_rect().inflate(-12, -4), h - 6, colour)
            if self._facing(message.player):
                local = pygame.transform.rotate(local, 180)
            surface.blit(local, rect)
            y += h

    def _help(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        ui = self.ui
        language = ui.help_language or ui.language
        self.help_pages, self.help_has_figures = draw_help(surface, rect, language, ui.help_page, self.size[1],
                                                           self.hotspots)


def _rows_for(value: str, width: int, row_h: int, most: int = 4) -> int:
    """How many rows of ``row_h`` a line needs: one when it fits at nearly its size, else the fewest
    (up to ``most``) it wraps into at a readable size."""
    size = row_h - 4
    if theme.fit_size(value, width, size) >= max(theme.MIN_READABLE, size * 0.85):
        return 1
    for rows in range(2, most + 1):
        if theme.wrap_fit(value, width, rows * row_h - 4, size, theme.MIN_READABLE)[2]:
            return rows
    return most


def _pages(lines: list[tuple[str, int]], rows: int) -> list[list[tuple[str, int]]]:
    """``lines`` (each with its rows) packed into pages of ``rows`` rows (always at least one page)."""
    pages: list[list[tuple[str, int]]] = [[]]
    used = 0
    for line, need in lines:
        if pages[-1] and used + need > rows:
            pages.append([])
            used = 0
        pages[-1].append((line, need))
        used += need
    return pages


__all__ = ["ClockSpot", "UiState", "View"]
