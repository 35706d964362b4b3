"""The owner's player management, behind the owner PIN (the leaderboard's Manage): every named player
with their rating and rated matches; a tap chooses one, then Rename (the keyboard), Delete or Merge into
another player, each asked first. Deleting keeps the player's matches with a guest in their seat;
merging makes one player's matches another's; both recompute the ratings (``Players.delete``, ``merge``)."""

from __future__ import annotations

import pygame

from kiosk.table.intents import Back, ChooseManaged, ManageAction, ManagePage
from kiosk.table.players import MANAGE_ROWS, pages
from kiosk.ui import layout, theme
from kiosk.ui.scenes.base import Layer, Scene, header, pager
from kiosk.ui.widgets import Hotspot, draw_button, text, text_or_wrap


class ManagePlayers(Scene):
    """The management screen (``Screen.PLAYERS``)."""

    offers = (Back, ChooseManaged, ManageAction, ManagePage)
    opaque = True

    def draw(self, surface: pygame.Surface, now: int) -> list[Hotspot]:
        context = self.context
        r = context.ui.records
        w, h = context.size
        t = context.t
        layer = Layer(context, None)
        y = header(layer, t._("Players"), Back())
        pad = max(8, w // 60)
        bar_h = max(layout.MIN_TARGET, int(h * 0.11))
        foot_top = h - 2 * bar_h - int(h * 0.04)
        top_h = max(layout.MIN_TARGET, int(h * 0.1))
        count = pages(len(r.manage), MANAGE_ROWS)
        if r.manage_notice:
            text(layer.surface, t(r.manage_notice), pygame.Rect(pad, y, int(w * 0.58) - pad, top_h),
                 max(theme.MIN_READABLE + 2, top_h * 2 // 5), theme.SCORE, align="left")
        pager(layer, t, r.manage_page, count, ManagePage, pygame.Rect(int(w * 0.6), y, int(w * 0.4) - pad, top_h))
        y += top_h + 4
        row_h = max(layout.MIN_TARGET + 4, (foot_top - y - 4) // MANAGE_ROWS)  # a row is drawn 4 px shorter
        size = max(theme.MIN_READABLE + 2, row_h * 11 // 20)
        names = {p.id: p.name for p in r.manage}
        if not r.manage:
            text(layer.surface, t._("No named players yet."), pygame.Rect(pad, y, w - 2 * pad, row_h), size,
                 theme.TEXT_DIM)
        for player in r.manage[r.manage_page * MANAGE_ROWS:(r.manage_page + 1) * MANAGE_ROWS]:
            rect = pygame.Rect(pad, y + 2, w - 2 * pad, row_h - 4)
            chosen = player.id in (r.managed, r.merge_target)
            pygame.draw.rect(layer.surface, theme.BUTTON_PRIMARY if chosen else theme.PANEL, rect, border_radius=6)
            colour = theme.BUTTON_PRIMARY_TEXT if chosen else theme.TEXT
            cells = ((0.03, 0.50, "left", player.name), (0.52, 0.68, "right", player.rating_text),
                     (0.70, 0.97, "right", t.n_("{n} rated match", "{n} rated matches", player.games)))
            for left, right, align, value in cells:
                text(layer.surface, value, pygame.Rect(int(w * left), rect.y, int(w * (right - left)), rect.height),
                     size, colour, align=align)
            if not (r.manage_action == "merge" and player.id == r.managed):
                layer.spots.append(Hotspot(rect, ChooseManaged(player.id)))
            y += row_h
        self._footer(layer, names, foot_top, bar_h, pad)
        return layer.finish(surface)

    def _footer(self, layer: Layer, names: dict[int, str], top: int, bar_h: int, pad: int) -> None:
        """What to do with the chosen player, or the question before a change."""
        context = self.context
        r = context.ui.records
        t = context.t
        w, _ = context.size
        left = max(pad, context.regions.admin_area.right + pad)  # the owner's hold corner stays clear
        line = pygame.Rect(left, top, w - left - pad, bar_h)
        buttons_y = top + bar_h + 4
        name = names.get(r.managed or -1, "")
        target = names.get(r.merge_target or -1, "")
        size = max(theme.MIN_READABLE + 2, bar_h * 2 // 5)
        if r.managed is None:
            text_or_wrap(layer.surface, t._("Tap a player to rename, delete or merge them."), line, size,
                         theme.TEXT_DIM)
            return
        actions: list[tuple[str, str, bool]]
        if r.manage_action == "delete":
            question = t._("Delete {name}? Their matches stay, with a guest in their seat; the ratings are recomputed.",
                           name=name)
            actions = [(t._("Yes"), "confirm", False), (t._("No"), "cancel", True)]
        elif r.manage_action == "merge":
            question = t._("Tap the player {name} is merged into.", name=name)
            actions = [(t._("Cancel"), "cancel", False)]
        elif r.manage_action == "merge-confirm":
            question = t._("Merge {source} into {target}? {source}'s matches become {target}'s; the ratings are "
                           "recomputed.", source=name, target=target)
            actions = [(t._("Yes"), "confirm", False), (t._("No"), "cancel", True)]
        else:
            question = name
            actions = [(t._("Rename"), "rename", True), (t._("Delete"), "delete", False),
                       (t._("Merge into…"), "merge", False), (t._("Cancel"), "cancel", False)]
        text_or_wrap(layer.surface, question, line, size, theme.ACCENT)
        gap = max(6, w // 100)
        bw = (line.width - gap * (len(actions) - 1)) // len(actions)
        for i, (label, action, primary) in enumerate(actions):
            rect = pygame.Rect(line.x + i * (bw + gap), buttons_y, bw, bar_h)
            draw_button(layer.surface, rect, label, primary=primary)
            layer.spots.append(Hotspot(rect, ManageAction(action)))
