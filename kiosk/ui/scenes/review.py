"""The post-match review: on each player's half, facing them and in their language, their costliest
decisions drawn on the board (the layout and their tiles just before it: where they played in red,
what was better in green, and by how much), and their luck; while the review runs, its progress.

In table orientation Player 2's half (the top) is turned toward them, as the table's panels are; in
upright orientation both halves read the same way (Player 2's at the top). In a practice match the
person's half is the whole screen. 1 / 2 / 3 choose the decision on a half; Back (on each half)
returns to the result card, the review going on (``kiosk.table.review_desk``).
"""

from __future__ import annotations

import pygame

from engine import Match, Phase, Play, Point, Tile
from kiosk.i18n import N_, Translator
from kiosk.table.intents import CloseReview, OpenReview, ReviewPick
from kiosk.table.review_job import Costly, Luck
from kiosk.ui import layout, theme
from kiosk.ui.board.geometry import layout_board_if_it_fits
from kiosk.ui.board.render import draw_board, draw_target
from kiosk.ui.board.table import draw_hand
from kiosk.ui.regions import to_screen
from kiosk.ui.scenes.base import Scene
from kiosk.ui.widgets import Hotspot, draw_button, text, text_or_wrap

WORSE = theme.DANGER_TEXT
"""What the player did: its point on the board, its tile in hand, its line."""
BETTER = (128, 224, 150)
"""What was better (green)."""

CLASSES = {"inaccuracy": N_("Inaccuracy"), "mistake": N_("Mistake"), "blunder": N_("Blunder")}
"""The review's classes by name (``engine.review.judge``); a "good" decision is not named."""
MOVES = {"draw": N_("draw a tile"), "pass": N_("pass"), "accept": N_("accept the bid"),
         "decline": N_("decline to bid"), "bid": N_("bid {amount}"), "play": N_("play [{tile}]")}


def move_text(t: Translator, move: dict[str, object]) -> str:
    """A decision's action in words ("play [4|6]", "bid 20")."""
    template = MOVES.get(str(move.get("do")))
    if template is None:
        return str(move.get("do"))
    return t.lookup(template, tile=move.get("tile", ""), amount=move.get("amount", ""))


def signed(value: float) -> str:
    """Points with their sign, whole ("+12", "−3", "0")."""
    n = round(value)
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def review_button_label(t: Translator, progress: float | None, done: bool) -> str:
    """The result card's Review button: with the progress while the review runs."""
    if progress is None or done:
        return t._("Review")
    return t._("Reviewing… {percent}%", percent=int(progress * 100))


class Review(Scene):
    """Each reviewed seat's half (module description)."""

    offers = (OpenReview, ReviewPick, CloseReview)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        c = context.controller
        w, h = context.size
        seats = c.review.seats(c)
        spots: list[Hotspot] = []
        for seat in seats:
            if len(seats) == 1:
                rect = pygame.Rect(0, 0, w, h)
            else:
                rect = pygame.Rect(0, h // 2, w, h - h // 2) if seat == 0 else pygame.Rect(0, 0, w, h // 2)
            turned = context.facing(seat)
            local = pygame.Surface(rect.size)
            local.fill(theme.BACKGROUND)
            layout.frame(local, rect, turned, seat if len(seats) == 2 else None)  # the whole screen: the table's
            mine = self._half(local, seat, context.t_for(seat), rect, turned)
            surface.blit(pygame.transform.rotate(local, 180) if turned else local, rect)
            spots += [Hotspot(to_screen(s.rect, rect, turned), s.intent) for s in mine]
        if len(seats) == 2:
            pygame.draw.line(surface, (0, 0, 0), (0, h // 2), (w, h // 2), 2)
        return spots

    def _half(self, local: pygame.Surface, seat: int, t: Translator, rect: pygame.Rect,
              turned: bool) -> list[Hotspot]:
        """One player's half, upright in ``local`` (placed at ``rect``, turned or not)."""
        c = self.context.controller
        w, h = local.get_size()
        pad = max(6, w // 100)
        button_h = max(layout.MIN_TARGET, min(h // 5, self.context.size[1] * 64 // 480))
        title_h = max(26, h // 8)
        name = t(c.player_name(seat))
        text(local, t._("{player}: the decisions that cost most", player=name),
             pygame.Rect(pad, pad, w - 2 * pad, title_h), title_h, theme.ACCENT, bold=True, align="left", role="review")
        spots: list[Hotspot] = []
        row_y = h - pad - button_h
        back_w = max(120, w // 6)
        back = pygame.Rect(w - pad - back_w, row_y, back_w, button_h)
        admin = self._admin_local(rect, turned)
        if back.colliderect(admin):
            back.x = admin.right + pad
        draw_button(local, back, t._("Back"))
        spots.append(Hotspot(back, CloseReview()))
        body = pygame.Rect(pad, pad + title_h + pad // 2, w - 2 * pad, row_y - title_h - 2 * pad)
        job = c.review.job
        costly = c.review.costly(c, seat)
        if job is not None and job.error is not None:
            text_or_wrap(local, t._("The review could not be made."), body, body.height // 4, theme.DANGER_TEXT,
                         role="review")
            return spots
        if costly is None:
            self._progress(local, body, t, c.review.progress or 0.0)
            return spots
        luck = c.review.luck(seat)
        if not costly:
            lines = [(t._("No decision cost you points."), theme.TEXT)]
            lines += [] if luck is None else self._luck_lines(t, luck)
            self._lines(local, body, lines, min(body.height // 4, title_h))
            return spots
        at = min(c.review.picked[seat], len(costly) - 1)
        decision, before = costly[at]
        board_w = body.width * 11 // 20
        self._position(local, pygame.Rect(body.x, body.y, board_w, h - pad - body.y), seat, decision, before, t)
        words = pygame.Rect(body.x + board_w + pad, body.y, body.width - board_w - pad, body.height)
        tab = max(layout.MIN_TARGET, min(button_h + 8, (back.x - words.x) // 3 - pad))
        for i in range(len(costly)):  # 1 2 3: which decision
            where = pygame.Rect(back.x - (len(costly) - i) * (tab + pad), row_y, tab, button_h)
            draw_button(local, where, str(i + 1), primary=i == at)
            spots.append(Hotspot(where, ReviewPick(seat, i)))
        heading = t._("Round {number}", number=decision.round)
        if decision.klass in CLASSES:  # "good": the loss is within the review's noise, no name for it
            heading += " · " + t.lookup(CLASSES[decision.klass])
        lines = [(heading, theme.TEXT_DIM),
                 (t._("You: {move}", move=move_text(t, decision.chosen)), WORSE),
                 (t._("Better: {move}", move=move_text(t, decision.best)), BETTER),
                 (t.n_("Cost: about {n} point", "Cost: about {n} points", max(1, round(decision.loss))), theme.SCORE)]
        lines += [] if luck is None else self._luck_lines(t, luck)
        self._lines(local, words, lines, max(theme.MIN_READABLE + 2, min(words.height // len(lines), h // 9)))
        return spots

    def _admin_local(self, rect: pygame.Rect, turned: bool) -> pygame.Rect:
        """The owner's hold area in a half's own coordinates (nothing to tap may lie on it)."""
        admin = self.context.regions.admin_area
        if turned:
            return pygame.Rect(rect.right - admin.right, rect.bottom - admin.bottom, admin.width, admin.height)
        return admin.move(-rect.x, -rect.y)

    @staticmethod
    def _luck_lines(t: Translator, luck: Luck) -> list[tuple[str, tuple[int, int, int]]]:
        return [(t._("Luck of the deals and draws: {luck}", luck=signed(luck.luck)), theme.TEXT),
                (t._("Result {result}, without the luck {adjusted}", result=signed(luck.result),
                     adjusted=signed(luck.adjusted)), theme.TEXT_DIM)]

    @staticmethod
    def _lines(local: pygame.Surface, box: pygame.Rect, lines: list[tuple[str, tuple[int, int, int]]],
               size: int) -> None:
        """``lines`` one under the other in ``box``, all at one size: the longest's fit, or in a roomy box half
        a row (the longer lines wrapped)."""
        row = box.height // max(1, len(lines))
        fitted = min(theme.fit_size(value, box.width, min(size, row)) for value, _ in lines)
        size = max(fitted, theme.MIN_READABLE + 2, min(size, row // 2))  # a roomy column wraps its longest lines
        for i, (value, colour) in enumerate(lines):
            text_or_wrap(local, value, pygame.Rect(box.x, box.y + i * row, box.width, row), min(size, row), colour,
                         role="review")

    @staticmethod
    def _progress(local: pygame.Surface, body: pygame.Rect, t: Translator, progress: float) -> None:
        """The review at work: a bar, the share done, and that leaving does not stop it."""
        row = body.height // 4
        text(local, t._("Reviewing the match: {percent}%", percent=int(progress * 100)),
             pygame.Rect(body.x, body.y, body.width, row), row * 3 // 4, theme.TEXT, role="review")
        bar = pygame.Rect(body.x + body.width // 10, body.y + row + row // 4, body.width * 8 // 10, row // 2)
        pygame.draw.rect(local, theme.PANEL, bar, border_radius=bar.height // 2)
        done = bar.copy()
        done.width = max(done.height, int(bar.width * progress))
        pygame.draw.rect(local, theme.ACCENT, done, border_radius=bar.height // 2)
        note = pygame.Rect(body.x + body.width // 20, body.y + 2 * row, body.width * 9 // 10, body.height - 2 * row)
        text_or_wrap(local, t._("Each decision is judged on what you knew then. Back leaves the review running "
                                "until a new match starts."), note, max(theme.MIN_READABLE + 2, row * 3 // 4),
                     theme.TEXT_DIM, role="review")

    def _position(self, local: pygame.Surface, area: pygame.Rect, seat: int, decision: Costly,
                  before: Match, t: Translator) -> None:
        """The board and the player's tiles just before ``decision``: theirs in red, the better in green."""
        pygame.draw.rect(local, theme.BOARD, area, border_radius=8)
        inner = area.inflate(-8, -8)
        hand_h = inner.height * 2 // 5 if not before.layout.is_empty else inner.height * 3 // 5
        hand_area = pygame.Rect(inner.x, inner.bottom - hand_h, inner.width, hand_h)
        board = pygame.Rect(inner.x, inner.y, inner.width, inner.height - hand_h - 4)
        marks = ((decision.best, BETTER), (decision.chosen, WORSE))
        auction = before.auction()
        if before.phase is Phase.AUCTION and auction is not None:  # the auction: the board is still empty
            said = t._("The auction: standing bid {bid}", bid=auction.bid) if auction.bid is not None else \
                t._("The auction: no bid yet")
            text(local, said, board.inflate(-8, -board.height // 3), max(theme.MIN_READABLE + 2, board.height // 3),
                 theme.TEXT, role="review")
        elif not before.layout.is_empty:
            geometry = layout_board_if_it_fits(before.layout, (board.x, board.y, board.width, board.height), anew=True)
            if geometry is not None:
                draw_board(local, geometry)
                points = [_point_of(before, seat, move) for move, _ in marks]
                for point, (_, colour) in zip(points, marks, strict=True):
                    target = None if point is None else geometry.target_for(point)
                    if target is None:
                        continue
                    draw_target(local, target, colour)
                    layout.board_item(local, target.rect, "lit")
                    if colour is WORSE and point == points[0]:  # the better play goes there too: a green ring round it
                        halo = pygame.Rect(target.rect).inflate(8, 8)
                        pygame.draw.rect(local, BETTER, halo, width=3, border_radius=max(3, halo.height // 4))
        tiles = {Tile.parse(str(move["tile"])): colour for move, colour in marks if move.get("do") == "play"}
        for tile, box in draw_hand(local, hand_area, before.hand(seat), (), None, False):
            ring = tiles.get(tile)
            if ring is not None:
                pygame.draw.rect(local, ring, box.inflate(6, 6), width=3, border_radius=max(3, box.width // 5))


def _point_of(before: Match, seat: int, move: dict[str, object]) -> Point | None:
    """Where a play goes on the layout (its own point, or the one point its tile fits)."""
    if move.get("do") != "play" or before.phase is not Phase.PLAY or before.to_act != seat:
        return None
    tile = Tile.parse(str(move["tile"]))
    at = move.get("at")
    if isinstance(at, list) and len(at) == 2:
        return Point.parse(str(at[0]), str(at[1]))
    plays = [a for a in before.legal_actions() if isinstance(a, Play) and a.tile == tile and a.at is not None]
    return plays[0].at if plays else None
