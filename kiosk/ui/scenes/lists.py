"""Tables of rows for the leaderboard and a player's history: columns, tappable rows, a pager."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from kiosk.table.intents import Intent
from kiosk.table.players import pages
from kiosk.ui import theme
from kiosk.ui.scenes.base import Layer, pager
from kiosk.ui.widgets import Hotspot, text

Column = tuple[float, float, str]
"""Left and right edges (shares of the width) and alignment."""
BOARD_COLUMNS: tuple[Column, ...] = ((0.03, 0.09, "right"), (0.12, 0.52, "left"), (0.54, 0.68, "right"),
                                     (0.70, 0.83, "right"), (0.85, 0.97, "right"))
HISTORY_COLUMNS: tuple[Column, ...] = ((0.03, 0.24, "left"), (0.25, 0.46, "left"), (0.47, 0.60, "left"),
                                       (0.61, 0.84, "left"), (0.85, 0.97, "right"))


def columns(layer: Layer, y: int, height: int, values: Sequence[str], where: Sequence[Column],
            colour: tuple[int, int, int], size: int) -> None:
    """``values`` in their columns on one row."""
    w = layer.context.size[0]
    for value, (left, right, align) in zip(values, where):
        rect = pygame.Rect(int(w * left), y, int(w * (right - left)), height)
        text(layer.surface, value, rect, size, colour, align=align)


def table_rows(
    layer: Layer, rows: Sequence[Any], page: int, per_page: int, page_intent: Callable[[int], Intent],
    where: Sequence[Column], y: int, row_h: int, size: int,
    cells: Callable[[Any], tuple[list[str], tuple[int, int, int], Intent | None]],
) -> None:
    """One page of ``rows`` as tappable table rows (``cells`` gives values, colour and what a tap opens), and its pager."""
    w, h = layer.context.size
    for row in rows[page * per_page:(page + 1) * per_page]:
        rect = pygame.Rect(int(w * 0.02), y + 2, int(w * 0.96), row_h - 4)
        pygame.draw.rect(layer.surface, theme.PANEL, rect, border_radius=6)
        values, colour, opens = cells(row)
        columns(layer, rect.y, rect.height, values, where, colour, size)
        if opens is not None:
            layer.spots.append(Hotspot(rect, opens))
        y += row_h
    pager_h = max(48, int(h * 0.09))
    pager(layer, layer.context.t, page, pages(len(rows), per_page), page_intent,
          pygame.Rect(w // 4, h - pager_h - 4, w // 2, pager_h))
