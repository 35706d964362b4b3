"""The board as SVG: one renderer for the live tables, the archive's replay and the review.

The tiles go where the kiosk puts them: ``kiosk.ui.board.geometry`` (pure arithmetic, no pygame)
lays the placements out in a fixed drawing area, and this module only draws rectangles, pips and
the open ends with their values. The SVG scales to whatever box the page gives it (``viewBox``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from markupsafe import Markup

from engine import Layout, Point, Tile
from kiosk.ui.board.geometry import layout_board_if_it_fits

AREA = (0, 0, 1200, 640)
"""The drawing area in SVG units."""
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}
"""Pip centres in a half tile (a unit square)."""
LayoutRows = Sequence[Sequence[object]]
"""The layout as plain data: ``[tile, [at_tile, slot] | None]`` each (``Layout.to_list``)."""


def board_svg(layout: LayoutRows, label: str) -> Markup:
    """The SVG of a layout given as plain data; ``label`` is its accessible name (escaped here)."""
    key = tuple((str(tile), None if at is None else (str(at[0]), str(at[1])))  # type: ignore[index]
                for tile, at in layout)
    return _svg(key, label)


@lru_cache(maxsize=512)
def _svg(key: tuple[tuple[str, tuple[str, str] | None], ...], label: str) -> Markup:
    layout = Layout()
    for tile, at in key:
        layout.place(Tile.parse(tile), None if at is None else Point.parse(at[0], at[1]))
    x0, y0, w, h = AREA
    parts = [f'<svg class="board" viewBox="{x0} {y0} {w} {h}" role="img" aria-label="{Markup.escape(label)}" '
             f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
             f'<rect class="felt" x="{x0}" y="{y0}" width="{w}" height="{h}" rx="18"/>']
    geometry = layout_board_if_it_fits(layout, AREA)
    if geometry is not None:
        for placed in geometry.tiles:
            tx, ty, tw, th = placed.rect
            last = " last" if placed.index == len(key) - 1 else ""
            parts.append(f'<g class="tile{last}" data-tile="{placed.tile}">'
                         f'<rect x="{tx + 1}" y="{ty + 1}" width="{tw - 2}" height="{th - 2}" rx="{max(2, tw // 12)}"/>')
            if placed.vertical:
                half = th / 2
                parts.append(f'<line x1="{tx + 4}" y1="{ty + half:.1f}" x2="{tx + tw - 4}" y2="{ty + half:.1f}"/>')
                parts += _pips(placed.first_value, tx, ty, tw, half)
                parts += _pips(placed.second_value, tx, ty + half, tw, half)
            else:
                half = tw / 2
                parts.append(f'<line x1="{tx + half:.1f}" y1="{ty + 4}" x2="{tx + half:.1f}" y2="{ty + th - 4}"/>')
                parts += _pips(placed.first_value, tx, ty, half, th)
                parts += _pips(placed.second_value, tx + half, ty, half, th)
            parts.append("</g>")
        for target in geometry.targets:  # a marker just off the tile, towards where the next tile goes
            rx, ry, rw, rh = target.rect
            ax, ay = target.anchor
            ax, ay = round(ax + (rx + rw / 2 - ax) * 0.3), round(ay + (ry + rh / 2 - ay) * 0.3)
            radius = max(9, round(geometry.tile_short * 0.3))
            parts.append(f'<g class="end"><circle cx="{ax}" cy="{ay}" r="{radius}"/>'
                         f'<text x="{ax}" y="{ay}" dy="0.35em" font-size="{radius * 1.3:.0f}">{target.value}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _pips(value: int, x: float, y: float, w: float, h: float) -> list[str]:
    side = min(w, h)
    r = max(1.5, side * 0.09)
    ox, oy = x + (w - side) / 2, y + (h - side) / 2
    return [f'<circle class="pip" cx="{ox + px * side:.1f}" cy="{oy + py * side:.1f}" r="{r:.1f}"/>'
            for px, py in _PIPS[value]]


def hand_svg(tiles: Sequence[str], label: str, chosen: str | None = None, best: str | None = None) -> Markup:
    """A hand as a row of upright tiles drawn as the board draws them; ``chosen`` and ``best`` (tile names)
    are marked (classes ``chosen`` and ``best``); ``label`` is its accessible name (escaped here)."""
    w, h, gap = 60, 120, 12
    width = max(1, len(tiles)) * (w + gap) + gap
    parts = [f'<svg class="hand" viewBox="0 0 {width} {h + 2 * gap}" role="img" aria-label="{Markup.escape(label)}" '
             f'xmlns="http://www.w3.org/2000/svg">']
    for i, name in enumerate(tiles):
        tile = Tile.parse(name)
        x, y = gap + i * (w + gap), gap
        mark = " chosen" if name == chosen else " best" if name == best else ""
        parts.append(f'<g class="tile{mark}" data-tile="{tile}"><rect x="{x + 1}" y="{y + 1}" width="{w - 2}" '
                     f'height="{h - 2}" rx="6"/><line x1="{x + 4}" y1="{y + h / 2:.1f}" x2="{x + w - 4}" y2="{y + h / 2:.1f}"/>')
        parts += _pips(tile.low, x, y, w, h / 2)
        parts += _pips(tile.high, x, y + h / 2, w, h / 2)
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))
