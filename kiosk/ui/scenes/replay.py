"""The step-through replay of a stored match: the board and both hands after each step (player 2's
hand above the board, player 1's below), the step in words ("Anna plays [1|4]"), round, balances,
end count and, at the last step, the winner; first / previous / next / last; Back to the history."""

from __future__ import annotations

import pygame

from kiosk.table.intents import Back, ReplayTo
from kiosk.table.players import outcome_text, seat_name, step_text
from kiosk.ui import theme
from kiosk.ui.board.table import draw_board_area, draw_hand
from kiosk.ui.scenes.base import Layer, Scene, header
from kiosk.ui.widgets import Hotspot, paragraph, text


class Replay(Scene):
    """One stored step (``records.replay_at``) of the match being replayed."""

    offers = (Back, ReplayTo)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        w, h = context.size
        t = context.t
        layer = Layer(context, None)
        title = t._("{first} vs {second}", first=seat_name(t, r, 0), second=seat_name(t, r, 1))
        y = header(layer, title, Back())
        pad = max(8, w // 60)
        foot_h = max(40, int(h * 0.11))
        body = pygame.Rect(pad, y, w - 2 * pad, h - y - foot_h - int(h * 0.04))
        side = pygame.Rect(body.x, body.y, int(body.width * 0.3), body.height)
        if r.replay:
            item = r.replay[r.replay_at]
            m = item.match
            line = side.height // 8
            size = int(line * 0.75)
            text(layer.surface, t._("Step {number} of {total}", number=r.replay_at + 1, total=len(r.replay)),
                 pygame.Rect(side.x, side.y, side.width, line), size, theme.TEXT_DIM, align="left")
            said = step_text(t, r, item)
            said_rect = pygame.Rect(side.x, side.y + line, side.width, line * 2)
            if theme.fit_size(said, side.width, size) >= size * 0.85 or not paragraph(
                    layer.surface, said, said_rect, size, theme.ACCENT, min_size=theme.MIN_SIZE, align="left"):
                text(layer.surface, said, said_rect, size, theme.ACCENT, align="left")
            yy = side.y + 3 * line
            rows = [t._("Round {number}", number=m.round),
                    t._("{name}: {balance}", name=seat_name(t, r, 0), balance=m.balances[0]),
                    t._("{name}: {balance}", name=seat_name(t, r, 1), balance=m.balances[1]),
                    t._("End count {count}", count=m.end_count)]
            if m.is_over and r.replay_at == len(r.replay) - 1:
                rows.append(outcome_text(t, r, m))
            for value in rows:
                text(layer.surface, value, pygame.Rect(side.x, yy, side.width, line), size, theme.TEXT, align="left")
                yy += line
            area = pygame.Rect(side.right + pad, body.y, body.right - side.right - pad, body.height)
            hand_h = area.height // 6
            pygame.draw.rect(layer.surface, theme.BOARD, area, border_radius=8)
            draw_hand(layer.surface, pygame.Rect(area.x, area.y + 4, area.width, hand_h), m.hand(1), (), None, False)
            draw_hand(layer.surface, pygame.Rect(area.x, area.bottom - hand_h - 4, area.width, hand_h), m.hand(0), (),
                      None, False)
            board = pygame.Rect(area.x + 4, area.y + hand_h + 8, area.width - 8, area.height - 2 * hand_h - 16)
            if not m.layout.is_empty:
                draw_board_area(layer.surface, board, m.layout, [])
        fy = h - foot_h - int(h * 0.02)
        bw = (w - 2 * pad - 3 * pad) // 4
        last = len(r.replay) - 1
        for i, (label, target, enabled) in enumerate((
            ("|◀", 0, r.replay_at > 0),
            (t._("Previous"), r.replay_at - 1, r.replay_at > 0),
            (t._("Next"), r.replay_at + 1, r.replay_at < last),
            ("▶|", last, r.replay_at < last),
        )):
            layer.button(pygame.Rect(pad + i * (bw + pad), fy, bw, foot_h), label, ReplayTo(target),
                         primary=i == 2, enabled=enabled)
        return layer.finish(surface)
