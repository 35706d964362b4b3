"""Drawing every screen from the app's state, and the hotspots a tap can hit.

A full redraw paints everything and returns the hotspots; a clock update repaints only the
clock rectangles (``draw_clocks``), so a frame where only a digit changed touches a few hundred
pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from engine import Phase, Play, Tile
from engine.events import EndReason

from ..help_text import RULES_HELP
from ..session import GameSession
from . import theme
from .board import draw_board_area, draw_hand
from .regions import Regions, compute_regions, to_screen
from .widgets import (
    Hotspot,
    draw_button,
    draw_chips,
    draw_hidden_tiles,
    format_bank,
    format_delay,
    paragraph,
    text,
)

REASONS = {
    EndReason.BALANCE: "the other player's points ran out",
    EndReason.TIME: "the other player's time ran out",
    EndReason.RESIGN: "the other player resigned",
    EndReason.ABORTED: "aborted",
}


@dataclass
class UiState:
    """What the screen shows beyond the match: overlays, confirmations, notices."""

    screen: str = "home"
    """home, settings, or "match" (the session decides which table screen)."""
    help_open: bool = False
    confirm_resign: set[int] = field(default_factory=set)
    warnings: tuple[str, ...] = ()
    legend: str = ""
    status_line: str = ""
    version: int = 0

    def changed(self) -> None:
        """Mark the screen for a full redraw."""
        self.version += 1


@dataclass(frozen=True, slots=True)
class ChipFlight:
    """Chips flying from the payer's stack to the payee's after a transfer."""

    payer: int
    payee: int
    points: int
    start_ns: int
    duration_ns: int = 700_000_000

    def progress(self, now_ns: int) -> float:
        """0 at the start, 1 when the chips have landed."""
        return min(1.0, max(0.0, (now_ns - self.start_ns) / self.duration_ns))


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
        surface.fill(theme.BACKGROUND)
        if ui.screen == "settings":
            self._settings(surface, ui)
        elif ui.screen == "home" or session is None:
            self._home(surface, ui)
        else:
            self._table(surface, ui, session, now_ns)
        if ui.warnings and ui.screen != "match":
            self._warning_banner(surface, ui.warnings)
        if flight is not None and session is not None and ui.screen == "match":
            self._chip_flight(surface, flight, now_ns)

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
        label = theme.font(max(16, size), bold=True).render(f"+{flight.points}", True, theme.SCORE)
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
        title = pygame.Rect(0, int(h * 0.12), w, int(h * 0.16))
        text(surface, "Spectacular Bid", title, int(h * 0.14), theme.ACCENT, bold=True)
        sub = pygame.Rect(int(w * 0.1), title.bottom, int(w * 0.8), int(h * 0.08))
        text(surface, "A Fives domino duel with an opening auction and a match clock", sub, int(h * 0.05), theme.TEXT_DIM)
        bw, bh = int(w * 0.34), max(44, int(h * 0.11))
        y = sub.bottom + int(h * 0.06)
        for label, intent, primary in (
            ("New match", ("new_match",), True),
            ("Rules", ("help",), False),
            ("Settings", ("settings",), False),
        ):
            rect = pygame.Rect(0, 0, bw, bh)
            rect.midtop = (w // 2, y)
            draw_button(surface, rect, label, primary=primary)
            self.hotspots.append(Hotspot(rect, intent))
            y += bh + int(h * 0.03)
        if ui.legend:
            text(surface, ui.legend, pygame.Rect(10, h - int(h * 0.08), w - 20, int(h * 0.06)), int(h * 0.04), theme.TEXT_DIM)
        if ui.status_line:
            first = ui.status_line.split("\n")[3] if ui.status_line.count("\n") >= 3 else ui.status_line
            text(surface, first, pygame.Rect(10, h - int(h * 0.14), w - 20, int(h * 0.05)), int(h * 0.035), theme.TEXT_DIM)
        if ui.help_open:
            self._help(surface, pygame.Rect(0, 0, w, h))

    def _settings(self, surface: pygame.Surface, ui: UiState) -> None:
        w, h = self.size
        text(surface, "Settings", pygame.Rect(0, int(h * 0.04), w, int(h * 0.1)), int(h * 0.08), theme.ACCENT, bold=True)
        lines = ui.status_line.split("\n") if ui.status_line else []
        row_h = max(18, min(int(h * 0.06), (int(h * 0.68)) // max(len(lines), 1)))
        y = int(h * 0.16)
        for line in lines:
            text(surface, line, pygame.Rect(int(w * 0.08), y, int(w * 0.84), row_h), row_h - 4, align="left")
            y += row_h
        back = pygame.Rect(0, 0, int(w * 0.25), max(40, int(h * 0.1)))
        back.bottomright = (w // 2 - 8, h - int(h * 0.04))
        draw_button(surface, back, "Back", primary=True)
        self.hotspots.append(Hotspot(back, ("home",)))
        rules = back.copy()
        rules.bottomleft = (w // 2 + 8, back.bottom)
        draw_button(surface, rules, "Rules")
        self.hotspots.append(Hotspot(rules, ("help",)))
        if ui.help_open:
            self._help(surface, pygame.Rect(0, 0, w, h))

    def _warning_banner(self, surface: pygame.Surface, warnings: tuple[str, ...]) -> None:
        w, h = self.size
        rect = pygame.Rect(0, 0, w, max(22, int(h * 0.06)))
        pygame.draw.rect(surface, theme.DANGER, rect)
        more = f" (+{len(warnings) - 1} more: see Settings)" if len(warnings) > 1 else ""
        text(surface, f"Configuration: {warnings[0]}{more}", rect.inflate(-12, -4), rect.height - 6, theme.BUTTON_TEXT)

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
        acting = m.to_act == player
        panel = pygame.Surface(local.size)
        panel.fill(theme.PANEL_ACTIVE if acting else theme.PANEL)
        spots: list[Hotspot] = []

        status = local.status
        name_h = status.height // 4
        name = f"Player {player + 1}" + ("  (jockey)" if m.jockey == player and m.phase is not Phase.PLAY else "")
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
            text(target, f"+{format_delay(m.delay_left_ns(now_ns))}s", delay_rect, int(rect.height * 0.8), theme.TEXT, align="left")

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
            text(panel, f"{sum(t.pips for t in hand)} pips left in hand", label, label.height, theme.TEXT_DIM)
            tiles_rect = pygame.Rect(rect.x, label.bottom + 2, rect.width, rect.height - label.height - 2)
        for tile, tile_rect in draw_hand(panel, tiles_rect, hand, playable, session.selected if playing else None, playing):
            if playing:
                spots.append(Hotspot(tile_rect, ("tile", player, tile)))

    def _panel_actions(
        self, panel: pygame.Surface, rect: pygame.Rect, ui: UiState, session: GameSession, player: int, spots: list[Hotspot]
    ) -> None:
        m = session.match
        screen = session.screen
        big = pygame.Rect(rect.x, rect.y, rect.width, int(rect.height * 0.58))
        small = pygame.Rect(rect.x, big.bottom + int(rect.height * 0.08), rect.width, rect.height - big.height - int(rect.height * 0.08))

        def button(r: pygame.Rect, label: str, intent: tuple[object, ...], primary: bool = False, enabled: bool = True) -> None:
            draw_button(panel, r, label, primary=primary, enabled=enabled)
            if enabled:
                spots.append(Hotspot(r, intent))

        if player in ui.confirm_resign and not m.is_over:
            text(panel, "Resign the match?", pygame.Rect(rect.x, rect.y, rect.width, rect.height // 3), rect.height // 4)
            half = (rect.width - 8) // 2
            button(pygame.Rect(rect.x, rect.y + rect.height // 3 + 4, half, rect.height // 2), "Yes", ("resign_yes", player), True)
            button(pygame.Rect(rect.x + half + 8, rect.y + rect.height // 3 + 4, half, rect.height // 2), "No", ("resign_no", player))
            return
        if screen in ("ready", "settlement"):
            button(big, "Start" if screen == "ready" else "Continue", ("start", player), True)
        elif screen == "handover":
            if m.to_act == player:
                button(big, "Reveal my tiles", ("reveal", player), True)
            else:
                text(panel, "Look away", big, big.height // 2, theme.TEXT_DIM)
        elif screen == "play" and m.to_act == player:
            if any(type(a).__name__ == "Draw" for a in m.legal_actions()):
                button(big, f"Draw ({m.boneyard_count})", ("draw", player), True)
        elif screen == "match_over":
            button(big, "Rematch", ("rematch",), True)
        if screen in ("auction", "play", "handover"):
            button(small, "Resign", ("resign", player))
        elif screen == "match_over":
            button(small, "Home", ("home",))

    def _sidebar(self, surface: pygame.Surface, session: GameSession) -> None:
        r = self.regions.sidebar.inflate(-10, -8)
        m = session.match
        row = r.height // 5
        text(surface, f"Round {m.round}" if m.round else "New match", pygame.Rect(r.x, r.y, r.width, row), row // 2, theme.TEXT_DIM)
        count_rect = pygame.Rect(r.x, r.y + row, r.width, int(row * 1.3))
        text(surface, f"{m.end_count}", count_rect, count_rect.height, theme.SCORE, bold=True)
        text(surface, "end count", pygame.Rect(r.x, count_rect.bottom, r.width, row // 2), row // 2, theme.TEXT_DIM)
        yard = pygame.Rect(r.x, count_rect.bottom + row // 2 + 4, r.width, int(row * 0.9))
        can_draw = m.phase is Phase.PLAY and any(type(a).__name__ == "Draw" for a in m.legal_actions())
        pygame.draw.rect(surface, theme.BUTTON_PRIMARY if can_draw else theme.PANEL, yard, border_radius=6)
        text(surface, f"Boneyard {m.boneyard_count}", yard.inflate(-6, -6), yard.height // 2, theme.BUTTON_TEXT if can_draw else theme.TEXT_DIM)
        if can_draw:
            self.hotspots.append(Hotspot(yard, ("draw", m.to_act)))
        rules = pygame.Rect(r.x, r.bottom - int(row * 0.9), r.width, int(row * 0.9))
        draw_button(surface, rules, "Rules")
        self.hotspots.append(Hotspot(rules, ("help",)))

    # -- the middle of each table screen -------------------------------------------------------

    def _facing(self, player: int | None) -> bool:
        """Whether text meant for ``player`` is drawn turned (player 1 in table mode)."""
        return player is not None and self.regions.turned[player]

    def _card(self, surface: pygame.Surface, lines: list[tuple[str, int, tuple[int, int, int]]], facing: int | None,
              buttons: list[tuple[str, tuple[object, ...], bool]] = ()) -> None:  # type: ignore[assignment]
        """A box in the middle of the board with lines of text and buttons, turned toward ``facing``."""
        board = self.regions.board
        card = pygame.Rect(0, 0, int(board.width * 0.84), int(board.height * 0.74))
        local = pygame.Surface(card.size, pygame.SRCALPHA)
        pygame.draw.rect(local, (*theme.OVERLAY, 225), local.get_rect(), border_radius=14)
        button_h = int(card.height * 0.24) if buttons else 0
        body = pygame.Rect(12, 8, card.width - 24, card.height - button_h - 20)
        weights = sum(size for _, size, _ in lines) or 1
        y = body.y
        for value, size, colour in lines:
            h = body.height * size // weights
            text(local, value, pygame.Rect(body.x, y, body.width, h), int(h * 0.8), colour, bold=size >= 3)
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
        if m.jockey is None:
            how = "Ranked opening: the highest double opens (no double: the heaviest tile)"
        else:
            how = f"Auction: player {m.jockey + 1} is the jockey; player {2 - m.jockey} bids first"
        self._card(surface, [(f"Round {m.round + 1}", 3, theme.ACCENT), (how, 2, theme.TEXT),
                             ("Clocks are stopped. Either player presses Start.", 2, theme.TEXT_DIM)], None)

    def _middle_settlement(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        ended = next((e for e in reversed(session.events) if type(e).__name__ == "RoundEnded"), None)
        lines: list[tuple[str, int, tuple[int, int, int]]] = []
        if ended is not None and not ended.blocked:
            lines.append((f"Domino! Player {ended.dominoer + 1} went out", 3, theme.ACCENT))
            lines.append((f"Player {ended.dominoer + 1} is the jockey of the next auction", 2, theme.TEXT))
        elif ended is not None:
            a, b = ended.pips
            lines.append(("Blocked: both players passed", 3, theme.ACCENT))
            if a == b:
                lines.append((f"Pips {a} and {b}: equal hands, nothing moves", 2, theme.TEXT))
            else:
                light = 0 if a < b else 1
                heavy_pips = max(a, b)
                moved = 5 * ((heavy_pips + 2) // 5)
                lines.append((f"Pips {a} vs {b}: player {light + 1} receives {moved}", 2, theme.TEXT))
        lines.append((f"Balances {m.balances[0]} - {m.balances[1]}. Press Continue.", 2, theme.TEXT_DIM))
        self._card_top(surface, lines)

    def _card_top(self, surface: pygame.Surface, lines: list[tuple[str, int, tuple[int, int, int]]]) -> None:
        """A slim card over the top of the board (the layout stays visible below it)."""
        board = self.regions.board
        card = pygame.Rect(board.x + board.width // 10, board.y + 4, board.width * 8 // 10, board.height // 3)
        shade = pygame.Surface(card.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (*theme.OVERLAY, 230), shade.get_rect(), border_radius=10)
        surface.blit(shade, card)
        inner = card.inflate(-16, -8)
        weights = sum(s for _, s, _ in lines) or 1
        y = inner.y
        for value, size, colour in lines:
            h = inner.height * size // weights
            cap = self.size[1] // (12 if size >= 3 else 17)
            text(surface, value, pygame.Rect(inner.x, y, inner.width, h), min(int(h * 0.85), cap), colour, bold=size >= 3)
            y += h

    def _middle_handover(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        player = session.match.to_act
        assert player is not None
        self._card(surface, [(f"Player {player + 1}'s turn", 3, theme.ACCENT),
                             ("Clocks are stopped until you reveal your tiles.", 2, theme.TEXT),
                             ("Tap Reveal or press your ACCEPT button.", 2, theme.TEXT_DIM)],
                   player, [("Reveal my tiles", ("reveal", player), True)])

    def _middle_auction(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        auction = m.auction()
        player = m.to_act
        assert auction is not None and player is not None
        other = 1 - player
        if auction.bid is None:
            head = f"Player {player + 1}: bid for the opening, or decline"
            standing = f"Player {auction.jockey + 1} dominoed and is the jockey (15-point credit on their own bid)"
        else:
            head = f"Player {player + 1}: accept {auction.bid} or raise"
            cost = auction.cost(other, auction.bid)
            standing = f"Player {other + 1} bids {auction.bid}: accepting makes them pay {cost} and open"
        draft = session.bid_draft or auction.min_bid
        can_bid = auction.max_bid[player] >= auction.min_bid
        my_cost = auction.cost(player, draft)
        lines = [(head, 3, theme.ACCENT), (standing, 2, theme.TEXT)]
        if can_bid:
            lines.append((f"Your bid of {draft} would cost you {my_cost} if accepted", 2, theme.TEXT_DIM))
        else:
            lines.append(("You cannot afford a bid" + (": decline" if auction.bid is None else ": accept"), 2, theme.DANGER))
        first = ("Decline", ("decline", player), False) if auction.bid is None else (f"Accept {auction.bid}", ("accept", player), True)
        buttons = [first]
        if can_bid:
            buttons += [("-5", ("bid_step", -1), False), (f"Bid {draft}", ("bid", player), auction.bid is None),
                        ("+5", ("bid_step", 1), False)]
        self._card(surface, lines, player, buttons)

    def _middle_play(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        m = session.match
        if m.layout.is_empty and m.to_act is not None:
            why = f"must open with [{m.opening_tile}]" if m.opening_tile else "opens with any tile"
            self._card_top(surface, [(f"Player {m.to_act + 1} {why}", 2, theme.TEXT)])

    def _middle_match_over(self, surface: pygame.Surface, session: GameSession, now_ns: int) -> None:
        o = session.match.outcome
        assert o is not None
        if o.winner is None:
            lines = [("Match aborted - no result", 3, theme.DANGER), (o.detail or "timing failure", 2, theme.TEXT)]
        else:
            lines = [(f"Player {o.winner + 1} wins", 3, theme.ACCENT), (f"because {REASONS[o.reason]}", 2, theme.TEXT)]
        b = session.match.balances
        lines.append((f"Final balances {b[0]} - {b[1]}", 2, theme.TEXT_DIM))
        self._card(surface, lines, None)

    def _messages(self, surface: pygame.Surface, session: GameSession, now_ns: int, above: bool = False) -> None:
        """The newest messages at the bottom of the board (below the card when one is shown)."""
        live = session.live_messages(now_ns)[-2:]
        if not live:
            return
        board = self.regions.board
        h = max(20, min(board.height // 9, (board.height - int(board.height * 0.74) - 6) // 2 if above else board.height))
        y = board.bottom - h * len(live) - 2
        for message in live:
            colour = theme.DANGER if message.kind == "refused" else theme.SCORE if message.kind == "score" else theme.TEXT
            rect = pygame.Rect(board.x + board.width // 8, y, board.width * 3 // 4, h)
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(shade, (0, 0, 0, 170), shade.get_rect(), border_radius=h // 3)
            surface.blit(shade, rect)
            who = "" if message.player is None else f"Player {message.player + 1}: "
            text(surface, who + message.text, rect.inflate(-12, -4), h - 6, colour)
            y += h

    def _help(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((*theme.OVERLAY, 242))
        surface.blit(shade, rect)
        inner = rect.inflate(-int(rect.width * 0.04), -int(rect.height * 0.06))
        close = pygame.Rect(inner.right - int(inner.width * 0.16), inner.y, int(inner.width * 0.16), max(30, inner.height // 8))
        draw_button(surface, close, "Close", primary=True)
        self.hotspots.append(Hotspot(rect, ("noop",)))
        self.hotspots.append(Hotspot(close, ("help_close",)))
        title = pygame.Rect(inner.x, inner.y, inner.width - close.width - 10, close.height)
        text(surface, "How to play", title, close.height, theme.ACCENT, bold=True, align="left")
        body = pygame.Rect(inner.x, close.bottom + 6, inner.width, inner.bottom - close.bottom - 6)
        columns = 2 if body.width > 700 else 1
        col_w = (body.width - 16 * (columns - 1)) // columns
        chunks = _split(RULES_HELP, columns)
        for i, chunk in enumerate(chunks):
            paragraph(surface, chunk, pygame.Rect(body.x + i * (col_w + 16), body.y, col_w, body.height), 26,
                      min_size=10, top=True)


def _split(value: str, parts: int) -> list[str]:
    """``value``'s paragraphs in ``parts`` groups of similar length."""
    paragraphs = value.strip().split("\n")
    if parts == 1:
        return ["\n".join(paragraphs)]
    total = sum(len(p) for p in paragraphs)
    groups: list[list[str]] = [[]]
    size = 0
    for p in paragraphs:
        if size > total / parts and len(groups) < parts:
            groups.append([])
            size = 0
        groups[-1].append(p)
        size += len(p)
    return ["\n".join(g) for g in groups]


def tile_play_intents(session: GameSession) -> list[Play]:
    """The plays available now (used by tests)."""
    return [a for a in session.match.legal_actions() if isinstance(a, Play)]


__all__ = ["ClockSpot", "Tile", "UiState", "View", "tile_play_intents"]
