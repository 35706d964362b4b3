"""The rules help overlay: pages that fit the screen, language tabs, worked layouts on the board.

The help (``kiosk.ui.help_text``) is flowed into columns and pages for the overlay's size, the
language and the text size (cached). Columns and pages break between paragraphs; only a paragraph
taller than a whole column is split, at the end of a sentence when it can be. A heading always
stays with what follows it. Worked layouts are drawn by the kiosk's own board
renderer with the counted ends marked (a filled badge with what each adds) and the score.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import pygame

from engine import Layout
from kiosk.i18n import LANGUAGES, NATIVE_NAMES, Translator, translator
from kiosk.table.intents import CloseHelp, HelpLanguage, HelpPage, Noop
from kiosk.ui import layout, theme
from kiosk.ui.board.geometry import BoardGeometry, layout_board
from kiosk.ui.board.render import draw_board
from kiosk.ui.help_text import SECTIONS, STANDARD, TITLE, Figure, Figures, HelpNumbers, Para
from kiosk.ui.widgets import Hotspot, draw_button, text

RING = (250, 248, 240)


@dataclass(frozen=True, slots=True)
class Item:
    """One piece of a column: a heading, a line of a paragraph, a gap, or a row of figures."""

    kind: str  # "heading", "line", "gap", "figures"
    value: object
    height: int


def _sizes(size: int) -> tuple[int, int, int]:
    """Heading line, body line and gap heights for a text ``size``."""
    return int(size * 1.35), size, size // 3


def figure_height(size: int, body_h: int) -> int:
    """The height of a row of worked layouts: the board and two caption lines."""
    return min(body_h, size * 8)


@dataclass(frozen=True, slots=True)
class Block:
    """What stays together when it can: a heading, a whole paragraph (its lines), or a row of figures."""

    kind: str  # "heading", "para", "figures"
    items: tuple[Item, ...]

    @property
    def height(self) -> int:
        return sum(item.height for item in self.items)


SENTENCE_ENDS = (".", "!", "?", ":", ";", "。", "…", ")")
"""A line ending with one of these ends a sentence (or a clause): the place to break a long paragraph."""


def _blocks(language: str, width: int, height: int, size: int, numbers: HelpNumbers = STANDARD) -> list[Block]:
    """The help in ``language`` as headings, paragraphs wrapped to ``width`` and rows of figures, its numbers
    those of the kiosk's match settings."""
    t = translator(language)
    head_h, line_h, _ = _sizes(size)
    blocks: list[Block] = []
    for section in SECTIONS:
        blocks.append(Block("heading", (Item("heading", t.lookup(section.heading), head_h),)))
        for block in section.blocks:
            if isinstance(block, Para):
                value = t.lookup(block.msgid, **numbers.params())
                f = theme.font(size, False, value)
                lines = tuple(Item("line", line, max(line_h, f.get_linesize())) for line in theme.wrap(value, width, f))
                blocks.append(Block("para", lines))
            elif isinstance(block, Figures):
                blocks.append(Block("figures", (Item("figures", block, figure_height(size, height)),)))
    return blocks


def _split_at(lines: tuple[Item, ...], room: int) -> int:
    """How many of a paragraph's ``lines`` go into ``room`` pixels: up to the last line that ends a
    sentence, else (a last resort) as many lines as fit; at least one."""
    fit, used = 0, 0
    for item in lines:
        if used + item.height > room:
            break
        used += item.height
        fit += 1
    for n in range(fit, 0, -1):
        if str(lines[n - 1].value).rstrip().endswith(SENTENCE_ENDS):
            return n
    return max(1, fit)


@lru_cache(maxsize=32)
def paginate(language: str, width: int, height: int, size: int, columns: int,
             numbers: HelpNumbers = STANDARD) -> tuple[tuple[tuple[Item, ...], ...], ...]:
    """The help in ``language`` flowed into pages of ``columns`` columns of ``width`` x ``height``.

    Columns break between paragraphs: a paragraph that does not fit the rest of a column starts the
    next one; only a paragraph taller than a whole column is split, at the end of a sentence when it
    can be. A heading stays with the beginning of what follows it."""
    gap_h = _sizes(size)[2]
    blocks = _blocks(language, width, height, size, numbers)
    columns_out: list[list[Item]] = [[]]
    used = 0

    def next_column() -> None:
        nonlocal used
        columns_out.append([])
        used = 0

    def place(items: tuple[Item, ...]) -> None:
        nonlocal used
        column = columns_out[-1]
        if column:
            column.append(Item("gap", None, gap_h))
            used += gap_h
        column.extend(items)
        used += sum(item.height for item in items)

    def room() -> int:
        return height - used - (gap_h if columns_out[-1] else 0)

    for i, block in enumerate(blocks):
        need = block.height
        if block.kind == "heading" and i + 1 < len(blocks):  # with the beginning of what follows
            following = blocks[i + 1]
            first = following.height if following.height <= height - need - gap_h else \
                sum(item.height for item in following.items[:2])
            need += gap_h + first
        if need <= room():
            place(block.items)
            continue
        if block.kind != "para" or block.height <= height:
            if columns_out[-1]:
                next_column()
            place(block.items)  # a heading, figures, or a paragraph that fits a whole column
            continue
        lines = block.items  # taller than a column: split it, at sentence ends where it can be
        if columns_out[-1] and room() < 3 * lines[0].height:
            next_column()
        while lines:
            n = _split_at(lines, room())
            place(lines[:n])
            lines = lines[n:]
            if lines:
                next_column()
    pages = [tuple(tuple(col) for col in columns_out[k:k + columns]) for k in range(0, len(columns_out), columns)]
    return tuple(pages)


def help_size(screen_h: int) -> int:
    """The help's text size for a screen ``screen_h`` pixels high."""
    return max(19, min(28, screen_h // 22))


@dataclass(frozen=True, slots=True)
class HelpLayout:
    """Where the help's parts go over ``rect``, and its pages in one language."""

    inner: pygame.Rect
    head_h: int
    size: int
    arrow_w: int
    body: pygame.Rect
    col_w: int
    col_gap: int
    pad: int
    pages: tuple[tuple[tuple[Item, ...], ...], ...]


def help_layout(rect: pygame.Rect, language: str, screen_h: int, numbers: HelpNumbers = STANDARD) -> HelpLayout:
    """The help over ``rect`` in ``language`` on a screen ``screen_h`` pixels high, flowed into pages."""
    pad = max(6, rect.height // 40)
    inner = rect.inflate(-2 * pad, -2 * pad)
    head_h = max(layout.MIN_TARGET + 4, min(64, inner.height // 7))  # its tabs and Close at least 48 px
    size = help_size(screen_h)
    arrow_w = max(layout.MIN_TARGET, inner.width // 18)
    body = pygame.Rect(inner.x + arrow_w + pad, inner.y + head_h + pad, inner.width - 2 * (arrow_w + pad),
                       inner.height - head_h - pad)
    columns = 2 if body.width >= 960 else 1
    col_gap = 3 * pad
    col_w = (body.width - col_gap * (columns - 1)) // columns
    pages = paginate(language, col_w, body.height, size, columns, numbers)
    return HelpLayout(inner, head_h, size, arrow_w, body, col_w, col_gap, pad, pages)


def has_figures(layout: HelpLayout, page: int) -> bool:
    """Whether ``page`` (clamped to the pages there are) shows worked layouts."""
    shown = layout.pages[max(0, min(page, len(layout.pages) - 1))]
    return any(item.kind == "figures" for column in shown for item in column)


def draw_help(surface: pygame.Surface, rect: pygame.Rect, language: str, page: int, screen_h: int,
              numbers: HelpNumbers = STANDARD) -> list[Hotspot]:
    """The help overlay over ``rect`` in ``language`` at ``page``; returns its hotspots (a tap on its
    background is taken and does nothing)."""
    t = translator(language)
    hotspots: list[Hotspot] = []
    shade = pygame.Surface(rect.size, pygame.SRCALPHA)
    shade.fill((*theme.OVERLAY, 255))
    surface.blit(shade, rect)
    hotspots.append(Hotspot(rect, Noop()))
    layout = help_layout(rect, language, screen_h, numbers)
    inner, head_h, size, arrow_w, body = layout.inner, layout.head_h, layout.size, layout.arrow_w, layout.body
    col_w, col_gap, pad, pages = layout.col_w, layout.col_gap, layout.pad, layout.pages
    page = max(0, min(page, len(pages) - 1))

    # header: title and page, the language tabs, Close
    close = pygame.Rect(0, 0, max(90, inner.width // 8), head_h)
    close.topright = inner.topright
    draw_button(surface, close, t._("Close"), primary=True)
    hotspots.append(Hotspot(close, CloseHelp()))
    tabs_w = min(close.x - pad - inner.x - inner.width // 4, 4 * max(120, inner.width // 8))
    tab_w = (tabs_w - 3 * 6) // 4
    x = close.x - pad - tabs_w
    for code in LANGUAGES:
        tab = pygame.Rect(x, inner.y + 2, tab_w, head_h - 4)
        draw_button(surface, tab, NATIVE_NAMES[code], primary=code == language)
        hotspots.append(Hotspot(tab, HelpLanguage(code)))
        x += tab_w + 6
    title_rect = pygame.Rect(inner.x, inner.y, close.x - pad - tabs_w - pad - inner.x, head_h)
    title = t._("{title} ({page} / {pages})", title=t.lookup(TITLE), page=page + 1, pages=len(pages))
    text(surface, title, title_rect, int(head_h * 0.8), theme.ACCENT, bold=True, align="left")

    # previous and next: tall arrows at the sides of the body
    for step, side in ((-1, inner.x), (1, inner.right - arrow_w)):
        arrow = pygame.Rect(side, body.y, arrow_w, body.height)
        target = page + step
        enabled = 0 <= target < len(pages)
        _arrow_button(surface, arrow, step, enabled)
        if enabled:
            hotspots.append(Hotspot(arrow, HelpPage(target)))

    for c, column in enumerate(pages[page]):
        x = body.x + c * (col_w + col_gap)
        y = body.y
        for item in column:
            box = pygame.Rect(x, y, col_w, item.height)
            if item.kind == "heading":
                text(surface, str(item.value), box, item.height, theme.ACCENT, bold=True, align="left", role="help")
            elif item.kind == "line":
                _line(surface, str(item.value), box, size)
            elif item.kind == "figures":
                _figures(surface, box, item.value, t, size)  # type: ignore[arg-type]
            y += item.height
    return hotspots


def _line(surface: pygame.Surface, value: str, box: pygame.Rect, size: int) -> None:
    image = theme.render(value, size, theme.TEXT)
    if theme.fits() is not None:
        w = image.get_width()
        theme.record(theme.Fit(value, box.size, size, size, w, image.get_height(), w <= box.width, "help"))
    where = image.get_rect(midleft=box.midleft)
    if layout.recorder() is not None:
        layout.text(surface, where, size, theme.TEXT, value, "help")
    surface.blit(image, where)


def _arrow_button(surface: pygame.Surface, rect: pygame.Rect, step: int, enabled: bool) -> None:
    colour = theme.BUTTON if enabled else theme.BUTTON_DISABLED
    pygame.draw.rect(surface, colour, rect, border_radius=max(4, rect.width // 4))
    r = rect.width // 3
    cx, cy = rect.center
    points = [(cx - r // 2, cy - r), (cx - r // 2, cy + r), (cx + r, cy)] if step > 0 else \
        [(cx + r // 2, cy - r), (cx + r // 2, cy + r), (cx - r, cy)]
    pygame.draw.polygon(surface, theme.BUTTON_TEXT if enabled else theme.TEXT_DIM, points)


@lru_cache(maxsize=16)
def _layout(figure: Figure) -> Layout:
    return figure.layout()


def _figures(surface: pygame.Surface, box: pygame.Rect, figures: Figures, t: Translator, size: int) -> None:
    count = len(figures.figures)
    gap = max(6, box.width // 60)
    share = (box.width - gap * (count - 1)) / sum(f.width for f in figures.figures)
    x = box.x
    for figure in figures.figures:
        cell = pygame.Rect(x, box.y, int(share * figure.width), box.height)
        draw_figure(surface, cell, figure, t, size)
        x = cell.right + gap


def figure_captions(figure: Figure, t: Translator) -> tuple[str, str]:
    """The title and the count of a worked layout, e.g. ("Opening [1|4]", "4 + 1 = 5: 5 points")."""
    layout = _layout(figure)
    ends = layout.scoring_ends()
    total = layout.end_count
    terms = " + ".join(str(v) for _, v in ends) or "0"
    if total > 0 and total % 5 == 0:
        count = t.n_("{terms} = {total}: scores {n}", "{terms} = {total}: scores {n}", total, terms=terms, total=total)
    else:
        count = t._("{terms} = {total}: no score", terms=terms, total=total)
    return t.lookup(figure.title, **dict(figure.params)), count


@lru_cache(maxsize=64)
def figure_geometry(figure: Figure, cell: tuple[int, int, int, int]) -> BoardGeometry:
    """The worked layout laid out by ``layout_board``, then scaled to fill ``cell``.

    A board lays tiles out for a whole round, so a lone tile would be small in a small cell: the
    layout is made in a large area and the part that holds the tiles and their open places is
    scaled into the cell (edges are rounded, so touching tiles still touch)."""
    x, y, w, h = cell
    virtual = (0, 0, 1600, max(200, 1600 * h // max(w, 1)))
    g = layout_board(_layout(figure), virtual)
    reach = g.tile_short  # room beyond each open end for its marker
    boxes = [t.rect for t in g.tiles] + [
        (t.anchor[0] - reach // 2 + min(t.direction[0], 0) * reach // 2, t.anchor[1] - reach // 2 + min(t.direction[1], 0) * reach // 2,
         reach if t.direction[0] == 0 else reach * 3 // 2, reach if t.direction[1] == 0 else reach * 3 // 2)
        for t in g.targets
    ]
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    bottom = max(b[1] + b[3] for b in boxes)
    k = min(w / (right - left), h / (bottom - top), w * 0.3 / g.tile_long)
    ox = x + (w - (right - left) * k) / 2
    oy = y + (h - (bottom - top) * k) / 2

    def px(v: float) -> int:
        return round(ox + (v - left) * k)

    def py(v: float) -> int:
        return round(oy + (v - top) * k)

    def rect(r: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return (px(r[0]), py(r[1]), px(r[0] + r[2]) - px(r[0]), py(r[1] + r[3]) - py(r[1]))

    return BoardGeometry(
        area=cell,
        tile_long=round(g.tile_long * k),
        tile_short=round(g.tile_short * k),
        tiles=tuple(replace(t, rect=rect(t.rect)) for t in g.tiles),
        targets=tuple(replace(t, rect=rect(t.rect), anchor=(px(t.anchor[0]), py(t.anchor[1]))) for t in g.targets),
    )


def draw_figure(surface: pygame.Surface, cell: pygame.Rect, figure: Figure, t: Translator, size: int) -> None:
    """One worked layout in ``cell``: the board, the counted ends marked, the title and the count."""
    layout = _layout(figure)
    caption_h = max(theme.MIN_READABLE, int(size * 0.95))
    board = pygame.Rect(cell.x, cell.y, cell.width, cell.height - 2 * caption_h - 2)
    pygame.draw.rect(surface, theme.BOARD, board, border_radius=8)
    area = board.inflate(-8, -8)
    geometry = figure_geometry(figure, (area.x, area.y, area.width, area.height))
    draw_board(surface, geometry)
    counted = {point: value for point, value in layout.scoring_ends()}
    r = max(size * 9 // 20, min(geometry.tile_short * 2 // 5, size * 2 // 3))
    for target in geometry.targets:
        ax, ay = target.anchor
        dx, dy = target.direction
        centre = (min(max(ax + dx * (r + 3), board.left + r), board.right - r - 1),
                  min(max(ay + dy * (r + 3), board.top + r), board.bottom - r - 1))
        if target.point in counted:
            pygame.draw.circle(surface, theme.SCORE, centre, r)
            pygame.draw.circle(surface, (0, 0, 0), centre, r, width=1)
            label = theme.render_fit(str(counted[target.point]), 2 * r - 2, int(r * 1.7), (20, 20, 20), True)
            surface.blit(label, label.get_rect(center=centre))
        else:
            pygame.draw.circle(surface, RING, centre, r - 1, width=2)
    title, count = figure_captions(figure, t)
    text(surface, title, pygame.Rect(cell.x, board.bottom + 2, cell.width, caption_h), caption_h, theme.TEXT)
    text(surface, count, pygame.Rect(cell.x, board.bottom + 2 + caption_h, cell.width, caption_h), caption_h,
         theme.SCORE, bold=True)
