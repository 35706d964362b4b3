"""Small drawing pieces: buttons, chip stacks, clocks, hidden tiles; and the hotspots they leave."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from kiosk.table.intents import Intent
from kiosk.ui import layout, theme


@dataclass(frozen=True, slots=True)
class Hotspot:
    """A screen rectangle and what a tap inside it means."""

    rect: pygame.Rect
    intent: Intent


def draw_button(
    surface: pygame.Surface,
    rect: pygame.Rect,
    label: str,
    *,
    enabled: bool = True,
    primary: bool = False,
    size: int | None = None,
    seat: object = layout.KEEP,
) -> None:
    """A rounded button with ``label`` fitted inside (``seat``: whose button, for the layout record)."""
    colour = theme.BUTTON_PRIMARY if primary and enabled else theme.BUTTON if enabled else theme.BUTTON_DISABLED
    radius = max(4, rect.height // 5)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    pygame.draw.rect(surface, (0, 0, 0), rect, width=1, border_radius=radius)
    text_colour = (theme.BUTTON_PRIMARY_TEXT if primary else theme.BUTTON_TEXT) if enabled else theme.TEXT_DIM
    size = min(size or max(14, int(rect.height * 0.55)), rect.height)
    image = theme.render_fit(label, rect.width - 10, size, text_colour, bold=True)
    _record(label, (rect.width - 10, rect.height), size, image, True, "button")
    where = image.get_rect(center=rect.center)
    if layout.recorder() is not None:
        layout.text(surface, where, theme.fit_size(label, rect.width - 10, size, True), text_colour, label, seat=seat,
                    image=image)
    surface.blit(image, where)


def _record(value: str, box: tuple[int, int], asked: int, image: pygame.Surface, bold: bool, kind: str) -> None:
    if theme.fits() is None or not value:
        return
    used = theme.fit_size(value, box[0], asked, bold)
    w, h = image.get_size()
    theme.record(theme.Fit(value, box, asked, used, w, h, w <= box[0] and h <= box[1] + 2, kind))


CHIP_VALUES: tuple[tuple[int, tuple[int, int, int]], ...] = ((100, (236, 236, 228)), (25, (60, 110, 210)), (5, theme.CHIP))
"""Chip denominations and colours, largest first (white 100, blue 25, red 5)."""


def chip_stacks(balance: int) -> list[tuple[tuple[int, int, int], int]]:
    """The balance as stacks of chips, largest value first: (colour, how many) for each value used."""
    stacks = []
    left = max(0, balance)
    for value, colour in CHIP_VALUES:
        count, left = divmod(left, value)
        if count:
            stacks.append((colour, count))
    return stacks


def draw_chips(surface: pygame.Surface, rect: pygame.Rect, balance: int) -> None:
    """The balance as stacks of chips (100, 25 and 5 points) standing on the bottom of ``rect``."""
    chip_h = max(6, min(10, (rect.height - 2) // 3))
    per_stack = max(1, (rect.height - 2) // chip_h)
    columns = [(colour, min(per_stack, count - i)) for colour, count in chip_stacks(balance)
               for i in range(0, count, per_stack)]
    if not columns:
        return
    chip_w = max(8, min(rect.height, (rect.width - 2 * (len(columns) - 1)) // len(columns)))
    x = rect.x
    for colour, count in columns:
        for c in range(count):
            chip = pygame.Rect(x, rect.bottom - (c + 1) * chip_h - 1, chip_w, chip_h)
            pygame.draw.ellipse(surface, colour, chip)
            pygame.draw.ellipse(surface, (20, 20, 20), chip, width=1)
        x += chip_w + 2


def format_bank(ns: int) -> str:
    """A bank as minutes:seconds, rounded down."""
    seconds = max(0, ns) // 1_000_000_000
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_delay(ns: int) -> str:
    """The free delay as whole seconds, rounded down."""
    return f"{max(0, ns) // 1_000_000_000}"


def draw_hidden_tiles(surface: pygame.Surface, rect: pygame.Rect, count: int) -> None:
    """``count`` face-down tiles (backs only) centred in ``rect``."""
    if count <= 0:
        return
    h = min(rect.height, 90)
    w = max(6, min(h // 2, (rect.width - 4 * count) // max(count, 1)))
    h = min(h, 2 * w)
    total = count * w + (count - 1) * 4
    x = rect.centerx - total // 2
    y = rect.centery - h // 2
    for _ in range(count):
        back = pygame.Rect(x, y, w, h)
        pygame.draw.rect(surface, (60, 44, 30), back, border_radius=max(2, w // 6))
        pygame.draw.rect(surface, (140, 110, 70), back.inflate(-max(2, w // 4), -max(2, w // 4)), width=1, border_radius=2)
        x += w + 4


def text(
    surface: pygame.Surface,
    value: str,
    rect: pygame.Rect,
    size: int,
    colour: tuple[int, int, int] = theme.TEXT,
    *,
    bold: bool = False,
    align: str = "center",
    role: str = "other",
    seat: object = layout.KEEP,
) -> pygame.Rect:
    """``value`` fitted into ``rect`` (one line), aligned left, centre or right; returns where it went.

    ``role`` and ``seat`` say what the text is and whom it is for (the layout record)."""
    image = theme.render_fit(value, rect.width, min(size, rect.height), colour, bold)
    _record(value, rect.size, min(size, rect.height), image, bold, "line")
    where = image.get_rect()
    where.centery = rect.centery
    if align == "left":
        where.left = rect.left
    elif align == "right":
        where.right = rect.right
    else:
        where.centerx = rect.centerx
    if layout.recorder() is not None:
        layout.text(surface, where, theme.fit_size(value, rect.width, min(size, rect.height), bold), colour, value,
                    role, seat, image)
    surface.blit(image, where)
    return where


def paragraph(
    surface: pygame.Surface,
    value: str,
    rect: pygame.Rect,
    size: int,
    colour: tuple[int, int, int] = theme.TEXT,
    *,
    min_size: int = theme.MIN_SIZE,
    top: bool = False,
    align: str = "center",
    role: str = "other",
    seat: object = layout.KEEP,
) -> bool:
    """``value`` wrapped into ``rect`` (centred, or from the top), shrinking the font until it fits.

    Returns False if it does not fit even at ``min_size``.
    """
    used, lines, fits = theme.wrap_fit(value, rect.width, rect.height, size, min_size)
    f = theme.font(used, False, value)
    if theme.fits() is not None:
        width = max((f.size(line)[0] for line in lines), default=0)
        theme.record(theme.Fit(value, rect.size, size, used, width, len(lines) * f.get_linesize(), fits, "paragraph"))
    if not fits:
        return False
    height = len(lines) * f.get_linesize()
    y = rect.y if top else rect.y + (rect.height - height) // 2
    for line in lines:
        image = theme.render(line, used, colour)
        where = image.get_rect(top=y)
        if align == "left":
            where.left = rect.left
        else:
            where.centerx = rect.centerx
        if layout.recorder() is not None:
            layout.text(surface, where, used, colour, line, role, seat, image)
        surface.blit(image, where)
        y += f.get_linesize()
    return True


def text_or_wrap(
    surface: pygame.Surface,
    value: str,
    rect: pygame.Rect,
    size: int,
    colour: tuple[int, int, int] = theme.TEXT,
    *,
    bold: bool = False,
    role: str = "other",
    seat: object = layout.KEEP,
) -> None:
    """``value`` on one line when it fits at nearly ``size``, else wrapped onto lines in ``rect``."""
    size = min(size, rect.height)
    if bold or theme.fit_size(value, rect.width, size, bold) >= size * 0.85:
        text(surface, value, rect, size, colour, bold=bold, role=role, seat=seat)
        return
    lines_size = min(size, rect.height // 2)
    if not paragraph(surface, value, rect, lines_size, colour, min_size=theme.MIN_SIZE, role=role, seat=seat):
        text(surface, value, rect, size, colour, bold=bold, role=role, seat=seat)


def rows_for(value: str, width: int, row_h: int, most: int = 4) -> int:
    """How many rows of ``row_h`` a line needs: one when it fits at nearly its size, else the fewest
    (up to ``most``) it wraps into at a readable size."""
    size = row_h - 4
    if theme.fit_size(value, width, size) >= max(theme.MIN_READABLE, size * 0.85):
        return 1
    for rows in range(2, most + 1):
        if theme.wrap_fit(value, width, rows * row_h - 4, size, theme.MIN_READABLE)[2]:
            return rows
    return most
