"""The step-through replay of a stored match: the board and both hands after each step (player 2's
hand above the board, player 1's below, each named; a tile just placed outlined with its score),
the step in words ("Anna plays [1|4]"), round, balances, end count and, at the last step, the
winner; first / previous round / previous / Play-Pause / next / next round / last; Back to the history.
Play steps on by itself (``PlayerDesk.advance_replay``, a step every 1.5 s) until the last step or Pause. The hand-overs' reveals are journal
steps but not moves: the replay steps over them."""

from __future__ import annotations

import pygame

from kiosk.table.intents import Back, Intent, ReplayPlay, ReplayTo
from kiosk.table.players import outcome_text, round_of, round_starts, seat_name, step_text
from kiosk.table.state import ReplayStep
from kiosk.ui import layout, theme
from kiosk.ui.board.table import draw_board_area, draw_hand
from kiosk.ui.scenes.base import Layer, Scene, header
from kiosk.ui.widgets import Hotspot, paragraph, text


def shown_steps(steps: list[ReplayStep]) -> list[int]:
    """The indices of the steps the replay shows: every step but the hand-overs' reveals."""
    return [i for i, item in enumerate(steps) if item.step.get("do") != "reveal"]


def showing(shown: list[int], at: int) -> int:
    """The position in ``shown`` for stored step ``at`` (a reveal shows as the step before it)."""
    before = [n for n, i in enumerate(shown) if i <= at]
    return before[-1] if before else 0


def placed_score(steps: list[ReplayStep], index: int) -> int | None:
    """For a play step, what the tile placed scored (the board outlines it with its score); None for
    any other step."""
    item = steps[index]
    if item.step.get("do") != "play" or index == 0:
        return None
    player = int(item.step.get("player", 0))
    return max(0, item.match.balances[player] - steps[index - 1].match.balances[player])


class Replay(Scene):
    """One stored step (``records.replay_at``) of the match being replayed."""

    offers = (Back, ReplayTo, ReplayPlay)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        w, h = context.size
        t = context.t
        layer = Layer(context, context.ui.facing)  # toward whoever opened it (table orientation)
        title = t._("{first} vs {second}", first=seat_name(t, r, 0), second=seat_name(t, r, 1))
        y = header(layer, title, Back())
        pad = max(8, w // 60)
        foot_h = max(layout.MIN_TARGET, int(h * 0.11))
        body = pygame.Rect(pad, y, w - 2 * pad, h - y - foot_h - int(h * 0.04))
        side = pygame.Rect(body.x, body.y, int(body.width * 0.3), body.height)
        shown = shown_steps(r.replay)
        at = showing(shown, r.replay_at)
        if shown:
            item = r.replay[shown[at]]
            m = item.match
            line = side.height // 8
            size = int(line * 0.75)
            text(layer.surface, t._("Step {number} of {total}", number=at + 1, total=len(shown)),
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
            if m.is_over and at == len(shown) - 1:
                rows.append(outcome_text(t, r, m))
            for value in rows:
                text(layer.surface, value, pygame.Rect(side.x, yy, side.width, line), size, theme.TEXT, align="left")
                yy += line
            area = pygame.Rect(side.right + pad, body.y, body.right - side.right - pad, body.height)
            hand_h = area.height // 6
            pygame.draw.rect(layer.surface, theme.BOARD, area, border_radius=8)
            name_w = area.width // 5
            for seat, hy in ((1, area.y + 4), (0, area.bottom - hand_h - 4)):
                name = pygame.Rect(area.x + 8, hy, name_w - 8, hand_h)
                text(layer.surface, seat_name(t, r, seat), name, max(theme.MIN_READABLE + 2, min(hand_h * 3 // 5, size)),
                     theme.TEXT, bold=True, align="left")
                draw_hand(layer.surface, pygame.Rect(area.x + name_w, hy, area.width - name_w - 4, hand_h), m.hand(seat),
                          (), None, False)
            board = pygame.Rect(area.x + 4, area.y + hand_h + 8, area.width - 8, area.height - 2 * hand_h - 16)
            if not m.layout.is_empty:
                draw_board_area(layer.surface, board, m.layout, [], last_score=placed_score(r.replay, shown[at]))
        fy = h - foot_h - int(h * 0.02)
        left = max(pad, context.regions.admin_area.right + pad)  # the owner's hold corner stays clear
        last = len(shown) - 1
        starts = round_starts(r.replay)
        current = round_of(starts, shown[at]) if shown else 0
        earlier, later = max(0, current - 1), min(len(starts) - 1, current + 1)
        buttons: list[tuple[str, Intent, bool, float]] = [
            ("|◀", ReplayTo(shown[0] if shown else 0), at > 0, 0.6),
            ("◀ " + t._("Round {number}", number=starts[earlier][0] if starts else 1),  # the arrows are no text
             ReplayTo(starts[earlier][1] if starts else 0), bool(starts) and current > 0, 1.0),
            (t._("Previous"), ReplayTo(shown[max(0, at - 1)] if shown else 0), at > 0, 1.0),
            (t._("Pause") if r.replay_playing else t._("Play"), ReplayPlay(), last > 0, 1.0),
            (t._("Next"), ReplayTo(shown[min(last, at + 1)] if shown else 0), at < last, 1.0),
            (t._("Round {number}", number=starts[later][0] if starts else 1) + " ▶",
             ReplayTo(starts[later][1] if starts else 0), bool(starts) and current < len(starts) - 1, 1.0),
            ("▶|", ReplayTo(shown[last] if shown else 0), at < last, 0.6),
        ]
        unit = (w - left - pad - (len(buttons) - 1) * pad // 2) / sum(b[3] for b in buttons)
        x = float(left)
        for label, intent, enabled, share in buttons:
            bw = int(unit * share)
            layer.button(pygame.Rect(int(x), fy, bw, foot_h), label, intent, primary=isinstance(intent, ReplayPlay),
                         enabled=enabled)
            x += bw + pad // 2
        return layer.finish(surface)
