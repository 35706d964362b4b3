"""What every scene of the table has: the two players' panels, the sidebar, the board and messages.

Each phase of the match is a scene of its own (``ready``, ``auction``, ``play``, ``handover``,
``settlement``, ``match_over``): a ``TableScene`` that fills in the middle of the board
(``draw_middle``) and each panel's buttons (``draw_actions``). Player 1's panel is at the bottom
edge, player 2's at the top, turned 180° in table mode; hotspots are mapped back through the same
turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import pygame

from engine import Draw, Match, Phase, Point, Tile
from hardware.serial_panel import PanelStatus
from kiosk.i18n import Translator
from kiosk.i18n.messages import as_text
from kiosk.table.computer import computer_name
from kiosk.table.intents import DrawTile, GoHome, Hint, Intent, OpenHelp, OpenScoreSheet, TapTile
from kiosk.table.recap import recap_text
from kiosk.table.session import GameSession, Message
from kiosk.ui import layout, theme
from kiosk.ui.board.table import board_rects, clear_of, draw_board_area, draw_hand
from kiosk.ui.part import Part
from kiosk.ui.regions import Regions, to_screen
from kiosk.ui.scenes.badge import draw_badge_both_ways
from kiosk.ui.scenes.base import ClockSpot, Context, Scene
from kiosk.ui.widgets import (
    Hotspot,
    draw_button,
    draw_chips,
    draw_hidden_tiles,
    format_bank,
    format_delay,
    text,
    text_or_wrap,
)

Line = tuple[str, int, tuple[int, int, int]]
"""A card's line: text, weight (3: the heading), colour."""
Button = Callable[..., None]
"""``button(rect, label, intent, primary=False, enabled=True)``: a panel button and its hotspot."""

SLIM_BAR = 26
"""A message bar's height where the board's edge has less room (its text 20 px)."""


def _status_parts(regions: Regions) -> tuple[pygame.Rect, pygame.Rect]:
    """A panel's chip stack and clock, in the panel's own coordinates."""
    status = regions.local.status
    name_h = status.height // 4
    chips = pygame.Rect(status.x + status.width // 2, status.y + name_h, status.width // 2, status.height // 3)
    clock = pygame.Rect(status.x, chips.bottom + 2, status.width, status.bottom - chips.bottom - 2)
    return chips, clock


def chip_stack(regions: Regions, player: int) -> pygame.Rect:
    """Where ``player``'s chips are on screen (chip flights start and land there)."""
    return to_screen(_status_parts(regions)[0], regions.panels[player], regions.turned[player])


def clock_spots(regions: Regions) -> list[ClockSpot]:
    """Where the two clocks are on screen."""
    clock = _status_parts(regions)[1]
    return [ClockSpot(p, to_screen(clock, regions.panels[p], regions.turned[p]), regions.turned[p]) for p in (0, 1)]


def draw_clock_face(target: pygame.Surface, rect: pygame.Rect, match: Match, player: int, now_ns: int,
                    t: Translator) -> None:
    """A player's bank (and, while it runs, the free delay) in ``rect``; the running clock in colour."""
    running = match.clock_running == player
    target.fill(theme.PANEL_ACTIVE if match.to_act == player else theme.PANEL, rect)
    bank = match.bank_ns(player, now_ns)
    colour = theme.DANGER if running and bank < 20_000_000_000 else theme.ACCENT if running else theme.TEXT_DIM
    bank_rect = pygame.Rect(rect.x, rect.y, int(rect.width * 0.55), rect.height)
    text(target, format_bank(bank), bank_rect, rect.height, colour, bold=running, align="left")
    if running:
        delay_rect = pygame.Rect(bank_rect.right, rect.y, rect.width - bank_rect.width, rect.height)
        delay = t._("+{seconds}s", seconds=format_delay(match.delay_left_ns(now_ns)))
        text(target, delay, delay_rect, int(rect.height * 0.8), theme.TEXT, align="left")


def panel_colour(match: Match, player: int) -> tuple[int, int, int]:
    """A panel's background: lit for the player to act."""
    return theme.PANEL_ACTIVE if match.to_act == player else theme.PANEL


def hand_slots(drawn: Sequence[tuple[Tile, pygame.Rect]], area: pygame.Rect) -> list[tuple[Tile, pygame.Rect]]:
    """Each hand tile's touch target: its column of ``area``, out to halfway to its neighbours."""
    slots = []
    for i, (tile, rect) in enumerate(drawn):
        left = area.x if i == 0 else (drawn[i - 1][1].right + rect.x) // 2
        right = area.right if i == len(drawn) - 1 else (rect.right + drawn[i + 1][1].x) // 2
        if i == 0:
            left = max(area.x, min(rect.x, rect.centerx - max(rect.width, 48) // 2 - 4))
        if i == len(drawn) - 1:
            right = min(area.right, max(rect.right, rect.centerx + max(rect.width, 48) // 2 + 4))
        slots.append((tile, pygame.Rect(left, area.y, right - left, area.height)))
    return slots


class TableScene(Scene):
    """A match at the table; subclasses draw the middle and the panels' buttons of one phase."""

    offers: ClassVar[tuple[type[Intent], ...]] = (OpenHelp,)
    board_shown: ClassVar[bool] = True
    """The layout is on the board (not before the deal or during the auction)."""
    board_anew: ClassVar[bool] = False
    """The layout is laid out on its own, as large as it fits, not grown as in play (a round's result)."""
    messages_above: ClassVar[bool | None] = False
    """Messages sit below a card (True), at the bottom of the board (False), or are not shown (None)."""
    card_heading: ClassVar[int] = 1
    """A card's first lines that belong together (in table orientation the messages follow them)."""

    def __init__(self, context: Context) -> None:
        super().__init__(context)
        self._clocks = clock_spots(context.regions)
        self._live: list[Message] = []
        """The messages on screen in the frame being drawn."""
        self._carded: set[int] = set()
        """The seats whose half of the board shows a card in this frame (their messages are on it)."""
        self._topped: list[pygame.Rect] = []
        """The slim cards over the board in this frame (``card_top``) and the last tile's score badge:
        message bars keep clear of them."""

    def clocks(self) -> list[ClockSpot]:
        return self._clocks

    def takes(self, intent: Intent) -> bool:
        """The phase's own intents, the score sheet, and in a practice match the person's Hint (auction and play)."""
        return (isinstance(intent, Hint) and self.context.controller.computer is not None) or \
            isinstance(intent, OpenScoreSheet) or super().takes(intent)  # the sidebar's score sheet, in every phase

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        session = context.session
        r = context.regions
        spots: list[Hotspot] = []
        for player in (0, 1):
            self._panel(surface, session, player, now, spots)
        pygame.draw.rect(surface, theme.BOARD, r.middle)
        self._live = session.live_messages(now)[-2:]
        self._carded = set()
        self._topped = []
        self._sidebar(surface, session, spots)
        m = session.match
        if not m.layout.is_empty and self.board_shown:
            last = session.last_placement  # the newest tile is outlined (with its score), the computer's too
            marked = last is not None and last.round == m.round and last.index == len(m.layout.placements) - 1
            score = last.score if marked and last is not None else None
            both_ways = self.table_mode and score is not None and score > 0  # the badge reads from both edges
            spots += draw_board_area(surface, self.board_area(), m.layout, self.targets(),
                                     last_score=0 if both_ways else score, anew=self.board_anew)
            if both_ways and score is not None:
                badge = draw_badge_both_ways(surface, self.board_area(), m.layout, score)
                self._topped += [] if badge is None else [badge]  # message bars keep clear of it too
        self.draw_middle(surface, session, spots)
        if self.messages_above is not None:
            self._messages(surface, session, now, self.messages_above)
        return spots

    # -- what a phase fills in ---------------------------------------------------------------

    def board_area(self) -> pygame.Rect:
        """Where the layout is drawn."""
        return self.context.regions.board

    def targets(self) -> Sequence[Point]:
        """The board's lit points (a tap places the picked-up tile there)."""
        return []

    def draw_middle(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        """The card over the board (what the phase is about)."""

    def draw_actions(self, panel: pygame.Surface, big: pygame.Rect, small: pygame.Rect, session: GameSession,
                     player: int, t: Translator, button: Button) -> None:
        """A panel's buttons: ``big`` above, ``small`` below."""

    def draw_hand_area(self, panel: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int,
                       spots: list[Hotspot]) -> None:
        """Before the deal: what goes where the hand will be (nothing)."""

    def sidebar_home(self) -> bool:
        """The way home instead of the boneyard (nothing dealt yet)."""
        return False

    # -- the panels ----------------------------------------------------------------------------

    def _panel(self, surface: pygame.Surface, session: GameSession, player: int, now_ns: int,
               spots: list[Hotspot]) -> None:
        context = self.context
        r = context.regions
        rect, turned, local = r.panels[player], r.turned[player], r.local
        m = session.match
        t = context.t_for(player)
        part = Part(rect, turned, player, fill=panel_colour(m, player))
        panel = part.surface
        mine: list[Hotspot] = []

        status = local.status
        name_h = status.height // 4
        computer = context.controller.computer
        name = t(context.controller.player_name(player))
        if m.jockey == player and m.phase is not Phase.PLAY:
            name = t._("{name} (jockey)", name=name)
        text(panel, name, pygame.Rect(status.x, status.y, status.width, name_h), name_h, theme.TEXT, bold=True, align="left")
        balance_rect = pygame.Rect(status.x, status.y + name_h, status.width // 2, status.height // 3)
        text(panel, f"{m.balances[player]}", balance_rect, balance_rect.height, theme.SCORE, bold=True, align="left")
        chips, clock = _status_parts(r)
        draw_chips(panel, chips, m.balances[player])
        draw_clock_face(panel, clock, m, player, now_ns, t)

        self._hand(panel, local.hand, session, player, mine)
        if computer is not None and computer.seat == player:  # no buttons: it says when it is thinking
            if computer.thinking(m) and not self.table_mode:  # table: said on the person's half, facing them
                text(panel, t._("Thinking…"), local.actions, max(theme.MIN_READABLE + 4, local.actions.height // 3),
                     theme.ACCENT, bold=True, role="thinking")
        elif not (player in context.ui.confirm_resign and not m.is_over):  # else the confirmation's place
            self._actions(panel, local.actions, session, player, t, mine)

        part.add(mine)
        placed = part.put(surface)
        pygame.draw.line(surface, (0, 0, 0), rect.topleft if not turned else rect.bottomleft,
                         rect.topright if not turned else rect.bottomright, 2)
        spots += placed

    def _hand(self, panel: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int,
              spots: list[Hotspot]) -> None:
        m = session.match
        computer = self.context.controller.computer
        if m.round == 0:
            if computer is None or computer.seat != player:  # nobody picks a name for the computer
                self.draw_hand_area(panel, rect, session, player, spots)
            return
        hand = m.hand(player)
        mine = computer is not None and computer.person == player  # nobody else at the table: always shown
        if (not self.hand_visible(session, player) and not mine) or (computer is not None and computer.seat == player):
            draw_hidden_tiles(panel, rect, len(hand))
            return
        playing = m.phase is Phase.PLAY and m.to_act == player
        playable = session.playable_tiles() if playing else set()
        tiles_rect = rect
        if m.phase in (Phase.READY, Phase.MATCH_OVER) and hand:
            label = pygame.Rect(rect.x, rect.y, rect.width, rect.height // 5)
            pips = sum(t.pips for t in hand)
            value = self.context.t_for(player).n_("{n} pip left in hand", "{n} pips left in hand", pips)
            text(panel, value, label, label.height, theme.TEXT_DIM)
            tiles_rect = pygame.Rect(rect.x, label.bottom + 2, rect.width, rect.height - label.height - 2)
        drawn = draw_hand(panel, tiles_rect, hand, playable, session.selected if playing else None, playing)
        if playing:
            spots += [Hotspot(slot, TapTile(player, tile)) for tile, slot in hand_slots(drawn, tiles_rect)]

    @staticmethod
    def hand_visible(session: GameSession, player: int) -> bool:
        """Only the player to act sees their tiles; between rounds and at the end both hands show."""
        m = session.match
        if m.phase in (Phase.READY, Phase.MATCH_OVER):
            return m.round > 0
        return m.phase in (Phase.PLAY, Phase.AUCTION) and m.to_act == player

    def _actions(self, panel: pygame.Surface, rect: pygame.Rect, session: GameSession, player: int, t: Translator,
                 spots: list[Hotspot]) -> None:
        gap = max(2, min(int(rect.height * 0.06), rect.height - 96))
        small_h = max(48, (rect.height - gap) * 2 // 5)
        big = pygame.Rect(rect.x, rect.y, rect.width, rect.height - gap - small_h)
        small = pygame.Rect(rect.x, big.bottom + gap, rect.width, small_h)

        used: list[pygame.Rect] = []

        def button(r: pygame.Rect, label: str, intent: Intent, primary: bool = False, enabled: bool = True) -> None:
            draw_button(panel, r, label, primary=primary, enabled=enabled)
            used.append(r)
            if enabled:
                spots.append(Hotspot(r, intent))

        self.draw_actions(panel, big, small, session, player, t, button)
        computer = self.context.controller.computer
        m = session.match
        if (computer is not None and computer.person == player and big not in used and m.to_act == player
                and m.phase in (Phase.AUCTION, Phase.PLAY)):  # practice: what level 4 would play
            pending = computer.hint_pending(m)
            button(big, t._("Working…") if pending else t._("Hint"), Hint(player), enabled=not pending)

    # -- the sidebar, the messages, the cards ----------------------------------------------------

    @property
    def table_mode(self) -> bool:
        """The players sit on opposite edges: shared information is shown once facing each."""
        return self.context.orientation == "table"

    def halves(self) -> tuple[pygame.Rect, pygame.Rect]:
        """The board's halves: Player 1's (bottom) and Player 2's (top)."""
        board = self.context.regions.board
        top = board.height // 2
        return (pygame.Rect(board.x, board.y + top + 2, board.width, board.height - top - 2),
                pygame.Rect(board.x, board.y, board.width, top - 2))

    def _sidebar(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        if self.table_mode:
            self._sidebar_halves(surface, session, spots)
            return
        context = self.context
        r = context.regions.sidebar.inflate(-10, -8)
        m = session.match
        t = context.t
        row = r.height // 5
        label = t._("Round {number}", number=m.round) if m.round else t._("New match")
        if m.round:  # the round and end count open the score sheet
            sheet = pygame.Rect(r.x, r.y, r.width, row + int(row * 1.3) + row // 2)
            pygame.draw.rect(surface, theme.PANEL, sheet, width=2, border_radius=8)
            spots.append(Hotspot(sheet, OpenScoreSheet()))
        text(surface, label, pygame.Rect(r.x, r.y, r.width, row), row // 2, theme.TEXT_DIM, role="round")
        count_rect = pygame.Rect(r.x, r.y + row, r.width, int(row * 1.3))
        text(surface, f"{m.end_count}", count_rect, count_rect.height, theme.SCORE, bold=True, role="end_count")
        text(surface, t._("end count"), pygame.Rect(r.x, count_rect.bottom, r.width, row // 2), row // 2, theme.TEXT_DIM,
             role="end_count")
        button_h = max(48, int(row * 0.9))
        yard = pygame.Rect(r.x, count_rect.bottom + row // 2 + 4, r.width, button_h)
        can_draw = m.phase is Phase.PLAY and any(isinstance(a, Draw) for a in m.legal_actions())
        if self.sidebar_home():
            draw_button(surface, yard, t._("Home"))
            spots.append(Hotspot(yard, GoHome()))
        else:
            pygame.draw.rect(surface, theme.BUTTON_PRIMARY if can_draw else theme.PANEL, yard, border_radius=6)
            text(surface, t._("Boneyard {n}", n=m.boneyard_count), yard.inflate(-6, -6), yard.height // 2,
                 theme.BUTTON_PRIMARY_TEXT if can_draw else theme.TEXT_DIM)
        if can_draw:
            spots.append(Hotspot(yard, DrawTile(m.to_act)))
        rules = pygame.Rect(r.x, r.bottom - button_h, r.width, button_h)
        draw_button(surface, rules, t._("Rules"))
        spots.append(Hotspot(rules, OpenHelp()))
        panel_state = context.ui.panel
        if panel_state is not None and rules.y - yard.bottom - 4 >= 16:
            line = pygame.Rect(r.x, yard.bottom + 2, r.width, rules.y - yard.bottom - 4)
            text(surface, self._panel_line(t, panel_state), line, line.height,
                 theme.TEXT_DIM if panel_state == "connected" else theme.DANGER)

    @staticmethod
    def _panel_line(t: Translator, panel_state: str) -> str:
        return t._("Panel: {state}", state=t(as_text(PanelStatus(panel_state).notice)))

    def _sidebar_halves(self, surface: pygame.Surface, session: GameSession, spots: list[Hotspot]) -> None:
        """Table orientation: the sidebar twice, each half facing its player (round, end count, Rules)."""
        context = self.context
        r = context.regions.sidebar.inflate(-8, -4)
        m = session.match
        half = r.height // 2
        for seat in (0, 1):
            where = pygame.Rect(r.x, r.y + half + 2 if seat == 0 else r.y, r.width, half - 2)
            turned = context.facing(seat)
            part = Part(where, turned, fill=theme.BOARD)
            local = part.surface
            t = context.t_for(seat)
            w, h = where.size
            mine: list[Hotspot] = []
            row = max(18, h // 7)
            label = t._("Round {number}", number=m.round) if m.round else t._("New match")
            text(local, label, pygame.Rect(0, 0, w, row), row, theme.TEXT_DIM, role="round")
            y = row
            buttons = 2 if self.sidebar_home() else 1
            button_h = 48 if h < 200 else max(48, h // 5)
            room = h - y - buttons * (button_h + 2)
            yard = bool(m.round) and not self.sidebar_home()  # the boneyard's count has a row of its own
            if m.round and room >= 2 * row + (row if yard else 0):
                count_h = min(room - row - (row if yard else 0), 2 * row)
                text(local, f"{m.end_count}", pygame.Rect(0, y, w, count_h), count_h, theme.SCORE, bold=True,
                     role="end_count")
                text(local, t._("end count"), pygame.Rect(0, y + count_h, w, row), row - 1, theme.TEXT_DIM,
                     role="end_count")
                y += count_h + row
            sheet = pygame.Rect(0, 0, w, min(max(y, layout.MIN_TARGET), h - buttons * (button_h + 4)))
            if m.round and sheet.height >= layout.MIN_TARGET:  # the round and end count open the score sheet, facing them
                pygame.draw.rect(local, theme.PANEL, sheet, width=2, border_radius=8)
                mine.append(Hotspot(sheet, OpenScoreSheet(seat)))
            if yard and h - y - buttons * (button_h + 2) >= row:
                text(local, t._("Boneyard {n}", n=m.boneyard_count), pygame.Rect(0, y, w, row), row - 1,
                     theme.TEXT_DIM, role="boneyard")
            rules = pygame.Rect(0, h - button_h, w, button_h)
            draw_button(local, rules, t._("Rules"))
            mine.append(Hotspot(rules, OpenHelp(seat)))  # the help faces whoever opened it
            if self.sidebar_home():
                home = pygame.Rect(0, rules.y - 4 - button_h, w, button_h)
                draw_button(local, home, t._("Home"))
                mine.append(Hotspot(home, GoHome()))
            part.add(mine)
            spots += part.put(surface)

    def _messages(self, surface: pygame.Surface, session: GameSession, now_ns: int, above: bool) -> None:
        """The newest messages at the bottom of the board (below the card when one is shown); in table
        orientation on the half of the player they are for (both halves when for both), facing them,
        unless a card there already showed them.

        A message for one player is in that player's language and faces them."""
        live: list[Message | str] = list(session.live_messages(now_ns)[-2:])
        computer = self.context.controller.computer
        person = None if computer is None else computer.person
        context = self.context
        board = context.regions.board
        m = session.match  # bars keep clear of the tiles and lit points (issue 20)
        blocked = (board_rects(self.board_area(), m.layout) if self.board_shown else []) + self._topped
        if self.table_mode:
            for seat, half in enumerate(self.halves()):
                if (seat in self._carded and seat != person) or (computer is not None and seat == computer.seat):
                    continue  # nobody reads the computer's half: what it is told is on the person's
                mine: list[Message | str] = [] if seat in self._carded else \
                    [message for message in live if isinstance(message, Message) and message.player in (None, seat)]
                if seat == person:  # what the computer is doing and did, on the person's half (a hint nearest)
                    hints = [message for message in mine if isinstance(message, Message) and message.kind == "hint"]
                    mine = [*(m for m in mine if m not in hints), *self.computer_lines(session, context.t_for(seat)),
                            *hints]
                mine = mine[-3:]
                h = max(30, min(40, half.height // 4)) if len(mine) < 3 else max(26, min(32, half.height // 5))
                for i, message in enumerate(reversed(mine)):  # at the player's edge of the board, the newest nearest
                    y = half.bottom - (i + 1) * h if seat == 0 else half.y + i * h  # (the layout keeps to the middle)
                    rect = clear_of(pygame.Rect(half.x + half.width // 16, y, half.width * 7 // 8, h), blocked,
                                    half, -1 if seat == 0 else 1)
                    if rect.collidelist(blocked) >= 0 and h > SLIM_BAR:  # a slimmer bar where the edge has less room
                        y = half.bottom - (i * h + SLIM_BAR) if seat == 0 else half.y + i * h
                        rect = clear_of(pygame.Rect(half.x + half.width // 16, y, half.width * 7 // 8, SLIM_BAR),
                                        blocked, half, -1 if seat == 0 else 1)
                    if rect.collidelist(blocked) >= 0:
                        break  # no clear place left on this half: the older messages are not drawn over others
                    blocked.append(rect)
                    self._message_strip(surface, message, rect, seat)
            return
        if person is not None:
            live += self.computer_lines(session, context.t_for(person))
        live = live[-2:]  # two strips below the board (three covered its tiles)
        if not live:
            return
        h = max(20, min(board.height // 9, (board.height - int(board.height * 0.74) - 6) // 2 if above else board.height))
        y = board.bottom - h * len(live) - 2
        for message in live:
            rect = clear_of(pygame.Rect(board.x + board.width // 16, y, board.width * 7 // 8, h), blocked, board, -1)
            if rect.collidelist(blocked) >= 0:
                continue  # no clear place: not drawn over a tile, a lit point or a card
            blocked.append(rect)
            self._message_strip(surface, message, rect, message.player if isinstance(message, Message) else person)
            y += h

    def computer_lines(self, session: GameSession, t: Translator) -> list[str]:
        """A practice match: the computer's moves since the person's last turn, in words, in one line
        ("Computer (Club) since your last turn: drew 2 tiles, played [1|6]"), and that it is thinking."""
        computer = self.context.controller.computer
        if computer is None or session.match.round == 0:
            return []
        name = t(computer_name(computer.level))
        lines = []
        did = recap_text(t, name, session.recap.for_player(computer.person))
        if did:
            lines.append(did)
        if computer.thinking(session.match):
            lines.append(t._("{name} is thinking…", name=name))
        return lines

    def _message_strip(self, surface: pygame.Surface, message: Message | str, rect: pygame.Rect,
                       reader: int | None) -> None:
        """One message (or a line already in words, for ``reader``) on a dark strip at ``rect``, in
        ``reader``'s language, facing them."""
        context = self.context
        h = rect.height
        part = Part(rect, context.facing(reader), message.player if isinstance(message, Message) else reader, clear=True)
        local = part.surface
        layout.board_item(surface, rect, "bar")
        pygame.draw.rect(local, (0, 0, 0, 200), local.get_rect(), border_radius=h // 3)
        if isinstance(message, str):
            text(local, message, local.get_rect().inflate(-12, -4), h - 6, theme.TEXT, role="computer")
        else:
            text(local, self._said(message, context.t_for(reader)), local.get_rect().inflate(-12, -4), h - 6,
                 _colour(message), role="score" if message.kind == "score" else "message")
        part.put(surface)

    def card(self, surface: pygame.Surface, lines: Lines, facing: int | None,
             buttons: Sequence[tuple[str, Intent, bool]] = (), role: str = "other") -> list[Hotspot]:
        """A box in the middle of the board with lines of text and buttons, turned toward ``facing``.

        ``lines`` may be a function of the reader's translator. In table orientation a card for one
        player fills that player's half of the board (with their messages after its heading); a card
        for both is shown on each half, in each player's language, facing them."""
        context = self.context
        board = context.regions.board
        if not self.table_mode:
            card = pygame.Rect(0, 0, int(board.width * 0.9), int(board.height * 0.74))
            card.midtop = (board.centerx, board.y + 2)
            return self._card_at(surface, card, _lines(lines, context.t_for(facing)), facing, facing, buttons, role)
        spots: list[Hotspot] = []
        computer = context.controller.computer
        readers = (0, 1) if facing is None else (facing,)
        if facing is None and computer is not None:  # a practice match: nobody sits at the computer's edge
            readers = (computer.person,)
        for seat in readers:
            half = self.halves()[seat].inflate(-board.width // 40, 0)
            t = context.t_for(seat)
            resolved = _lines(lines, t)
            if self._live:
                said = [(self._said(message, t), 2, _colour(message)) for message in self._live
                        if message.player in (None, seat)]
                head, most = self.card_heading, 3 if buttons else 4
                room = max(0, most - len(resolved))  # the card's own facts first, then the newest messages
                resolved = (resolved[:head] + (said[-room:] if room else []) + resolved[head:])[:most]
            self._carded.add(seat)
            self._topped.append(half)  # the computer's lines on the person's half keep off the card
            spots += self._card_at(surface, half, resolved, seat, facing, buttons, role)
        return spots

    def _said(self, message: Message, t: Translator) -> str:
        """``message`` in ``t``'s language, with whom it is for."""
        value = t(as_text(message.text))
        if message.player is not None:
            value = t._("{player}: {message}", player=self.context.controller.player_name(message.player), message=value)
        return value

    def _card_at(self, surface: pygame.Surface, card: pygame.Rect, lines: list[Line], reader: int | None,
                 seat: int | None, buttons: Sequence[tuple[str, Intent, bool]], role: str) -> list[Hotspot]:
        context = self.context
        part = Part(card, context.facing(reader), seat, clear=True)
        local = part.surface
        layout.hide_board(surface, card)  # the card is over the board on purpose
        pygame.draw.rect(local, (*theme.OVERLAY, 235), local.get_rect(), border_radius=14)
        button_h = max(48, int(card.height * 0.24)) if buttons else 0
        pad = 4 if self.table_mode else 8
        body = pygame.Rect(12, pad, card.width - 24, card.height - button_h - 2 * pad - (2 if buttons else 0))
        weights = sum(size for _, size, _ in lines) or 1
        y = body.y
        cap = max(theme.MIN_READABLE + 4, context.size[1] // 18)
        for value, size, colour in lines:
            h = body.height * size // weights
            big = size >= 3
            text_or_wrap(local, value, pygame.Rect(body.x, y, body.width, h),
                         int(h * 0.8) if big else min(int(h * 0.8), cap), colour, bold=big, role=role)
            y += h
        spots = []
        if buttons:
            bw = (card.width - 24 - 8 * (len(buttons) - 1)) // len(buttons)
            x = 12
            for label, intent, primary in buttons:
                b = pygame.Rect(x, card.height - button_h - pad, bw, button_h)
                draw_button(local, b, label, primary=primary)
                spots.append(Hotspot(b, intent))
                x += bw + 8
        part.add(spots)
        return part.put(surface)

    def top_cards(self) -> list[tuple[pygame.Rect, int | None]]:
        """Where slim cards go (``card_top``), and whom each faces."""
        board = self.context.regions.board
        if not self.table_mode:
            return [(pygame.Rect(board.x + board.width // 20, board.y + 4, board.width * 9 // 10, board.height // 3), None)]
        h = max(board.height // 4, 64)  # slim: the board between the two cards stays large enough to count
        x, w = board.x + board.width // 20, board.width * 9 // 10
        return [(pygame.Rect(x, board.bottom - h, w, h), 0), (pygame.Rect(x, board.y, w, h), 1)]

    def card_top(self, surface: pygame.Surface, lines: Lines, role: str = "other") -> None:
        """A slim card over the top of the board (the layout stays visible below it); in table
        orientation one at each player's edge of the board, facing them, in their language."""
        context = self.context
        computer = context.controller.computer
        for card, reader in self.top_cards():
            if computer is not None and reader == computer.seat:
                continue  # nobody reads the computer's half
            self._topped.append(card)
            part = Part(card, context.facing(reader), clear=True)
            shade = part.surface
            pygame.draw.rect(shade, (*theme.OVERLAY, 235), shade.get_rect(), border_radius=10)
            inner = shade.get_rect().inflate(-16, -8)
            resolved = _lines(lines, context.t_for(reader))
            weights = sum(s for _, s, _ in resolved) or 1
            y = inner.y
            for value, size, colour in resolved:
                h = inner.height * size // weights
                cap = context.size[1] // (12 if size >= 3 else 17)
                text_or_wrap(shade, value, pygame.Rect(inner.x, y, inner.width, h), max(16, min(int(h * 0.85), cap)),
                             colour, bold=size >= 3, role=role)
                y += h
            part.put(surface)


Lines = list[Line] | Callable[[Translator], list[Line]]
"""A card's lines, or a function giving them in a reader's language."""


def _lines(lines: Lines, t: Translator) -> list[Line]:
    return lines(t) if callable(lines) else lines


def _colour(message: Message) -> tuple[int, int, int]:
    return theme.DANGER_TEXT if message.kind == "refused" else theme.SCORE if message.kind == "score" else theme.TEXT
