"""Named players on screen: the player picker and its keyboard, the leaderboard, a player's history,
and the step-through replay of a stored match.

``PlayerScreens`` holds what these screens show (``UiState.records``) and carries out their taps
(intents ``("players", what, ...)``); the ``draw_*`` functions paint them for a ``View``. Nothing
here reads the journal while drawing: the lists and the replayed states are loaded when a screen
opens, so a redraw costs what any other screen costs.

The on-screen keyboard types Latin letters, digits, space, hyphen and apostrophe (a one-shot
"Aa" key changes the case of the next letter; a letter after a space or at the start is a
capital). Hangul and Cyrillic names would need their own layouts (and Hangul an input method
that composes syllables): not done.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from kiosk.i18n import Translator
from kiosk.table.intents import (
    Back,
    Backspace,
    CancelName,
    ClosePicker,
    ConfirmName,
    GoHome,
    HistoryPage,
    Intent,
    Key,
    LeaderboardPage,
    NewPlayer,
    OpenHistory,
    OpenPicker,
    OpenReplay,
    PickerPage,
    PickPlayer,
    ReplayTo,
    Shift,
)
from kiosk.table.players import (
    BOARD_ROWS,
    END_REASONS,
    HISTORY_ROWS,
    KEY_ROWS,
    PICKER_COLUMNS,
    PICKER_ROWS,
    RESULTS,
    change_text,
    date_text,
    outcome_text,
    pages,
    seat_label,
    seat_name,
    step_text,
)
from kiosk.table.state import UiState
from kiosk.ui import theme
from kiosk.ui.board.table import draw_board_area, draw_hand
from kiosk.ui.regions import to_screen
from kiosk.ui.widgets import Hotspot, draw_button, paragraph, text, text_or_wrap

if TYPE_CHECKING:
    from kiosk.ui.view import View

RECORD_SCREENS = ("leaderboard", "history", "replay")
"""``UiState.screen`` values drawn by this module."""
RECORD_SCREENS = ("leaderboard", "history", "replay")
"""``UiState.screen`` values drawn by this module."""


class _Layer:
    """A full-screen layer drawn upright for one player and turned toward them; hotspots mapped back."""

    def __init__(self, view: View, facing: int | None) -> None:
        self.view = view
        self.turned = view._facing(facing)
        self.surface = pygame.Surface(view.size)
        self.surface.fill(theme.BACKGROUND)
        self.spots: list[Hotspot] = []

    def button(self, rect: pygame.Rect, label: str, intent: tuple[Any, ...], primary: bool = False,
               enabled: bool = True, size: int | None = None) -> None:
        draw_button(self.surface, rect, label, primary=primary, enabled=enabled, size=size)
        if enabled:
            self.spots.append(Hotspot(rect, intent))

    def finish(self, target: pygame.Surface) -> None:
        local = pygame.transform.rotate(self.surface, 180) if self.turned else self.surface
        target.blit(local, (0, 0))
        screen = target.get_rect()
        self.view.hotspots = [Hotspot(to_screen(s.rect, screen, self.turned), s.intent) for s in self.spots]


def _pager(layer: _Layer, t: Translator, page: int, count: int, intent: Callable[[int], Intent], rect: pygame.Rect) -> None:
    """▲ page x of y ▼ in ``rect`` (nothing when everything fits on one page)."""
    if count <= 1:
        return
    bw = rect.height * 3 // 2
    layer.button(pygame.Rect(rect.x, rect.y, bw, rect.height), "▲", intent(page - 1), enabled=page > 0)
    layer.button(pygame.Rect(rect.right - bw, rect.y, bw, rect.height), "▼", intent(page + 1),
                 enabled=page < count - 1)
    text(layer.surface, t._("Page {page} of {pages}", page=page + 1, pages=count),
         pygame.Rect(rect.x + bw, rect.y, rect.width - 2 * bw, rect.height), rect.height // 2, theme.TEXT_DIM)


def draw_name_button(view: View, panel: pygame.Surface, rect: pygame.Rect, ui: UiState, player: int,
                     spots: list[Hotspot]) -> None:
    """In a player's panel before the first Start: who plays here (a guest or a name), tap to change."""
    t = view.t_for(player)
    caption = pygame.Rect(rect.x, rect.y, rect.width, rect.height // 4)
    text(panel, t._("Who plays here?"), caption, caption.height, theme.TEXT_DIM)
    button = pygame.Rect(0, 0, min(rect.width, max(rect.width * 3 // 5, 200)), rect.height - caption.height - 6)
    button.midtop = (rect.centerx, caption.bottom + 4)
    named = ui.records.chosen[player] is not None
    draw_button(panel, button, seat_label(t, ui.records, player), primary=named)
    spots.append(Hotspot(button, OpenPicker(player)))


def draw_picker(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """Who plays in a seat: the named players, Guest, New player — facing that seat's player."""
    r = ui.records
    seat = r.picker
    assert seat is not None
    if r.typing is not None:
        draw_keyboard(view, surface, ui)
        return
    w, h = view.size
    t = view.t_for(seat)
    layer = _Layer(view, seat)
    pad = max(8, w // 60)
    text(layer.surface, t._("Player {number}: who is playing?", number=seat + 1),
         pygame.Rect(pad, int(h * 0.02), w - 2 * pad, int(h * 0.1)), int(h * 0.08), theme.ACCENT, bold=True)
    other = r.chosen[1 - seat]
    per_page = PICKER_COLUMNS * PICKER_ROWS
    shown = r.choices[r.picker_page * per_page:(r.picker_page + 1) * per_page]
    top, bottom = int(h * 0.14), int(h * 0.70)
    gap = max(6, w // 100)
    cell_w = (w - 2 * pad - gap * (PICKER_COLUMNS - 1)) // PICKER_COLUMNS
    cell_h = (bottom - top - gap * (PICKER_ROWS - 1)) // PICKER_ROWS
    if not r.choices:
        text_or_wrap(layer.surface, t._("No named players yet: tap New player to add one."),
                     pygame.Rect(pad, top, w - 2 * pad, bottom - top), int(h * 0.06), theme.TEXT_DIM)
    for i, player in enumerate(shown):
        row, col = divmod(i, PICKER_COLUMNS)
        rect = pygame.Rect(pad + col * (cell_w + gap), top + row * (cell_h + gap), cell_w, cell_h)
        taken = other is not None and other.id == player.id
        current = r.chosen[seat] is not None and r.chosen[seat].id == player.id  # type: ignore[union-attr]
        layer.button(rect, player.name, PickPlayer(seat, player.id), primary=current, enabled=not taken)
    count = pages(len(r.choices), per_page)
    _pager(layer, t, r.picker_page, count, PickerPage,
           pygame.Rect(pad, bottom + gap, w - 2 * pad, int(h * 0.09)))
    bh = int(h * 0.13)
    bw = (w - 2 * pad - 2 * gap) // 3
    y = h - bh - int(h * 0.03)
    layer.button(pygame.Rect(pad, y, bw, bh), t._("Guest"), PickPlayer(seat, None), primary=r.chosen[seat] is None)
    layer.button(pygame.Rect(pad + bw + gap, y, bw, bh), t._("New player"), NewPlayer(seat), primary=True)
    layer.button(pygame.Rect(pad + 2 * (bw + gap), y, bw, bh), t._("Cancel"), ClosePicker())
    layer.finish(surface)


def draw_keyboard(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """Type a new player's name: letters, digits, space, backspace, OK, Cancel."""
    r = ui.records
    seat = r.picker
    assert seat is not None and r.typing is not None
    w, h = view.size
    t = view.t_for(seat)
    layer = _Layer(view, seat)
    pad = max(6, w // 80)
    head = pygame.Rect(pad, int(h * 0.01), w - 2 * pad, int(h * 0.08))
    text(layer.surface, t._("Player {number}: new player's name", number=seat + 1), head, head.height,
         theme.ACCENT, bold=True)
    field_rect = pygame.Rect(w // 6, head.bottom + 2, w * 2 // 3, int(h * 0.1))
    pygame.draw.rect(layer.surface, theme.PANEL, field_rect, border_radius=6)
    pygame.draw.rect(layer.surface, theme.ACCENT, field_rect, width=2, border_radius=6)
    shown = r.typing + "_"
    text(layer.surface, shown, field_rect.inflate(-16, -6), field_rect.height - 8, theme.TEXT, align="left")
    error_rect = pygame.Rect(pad, field_rect.bottom + 2, w - 2 * pad, int(h * 0.07))
    if r.error:
        text(layer.surface, t(r.error), error_rect, error_rect.height, theme.DANGER)
    top = error_rect.bottom + 2
    gap = max(4, w // 160)
    rows = len(KEY_ROWS) + 1
    key_h = (h - top - int(h * 0.02) - gap * (rows - 1)) // rows
    key_w = (w - 2 * pad - gap * 9) // 10
    upper = r.next_upper()
    for i, keys in enumerate(KEY_ROWS):
        y = top + i * (key_h + gap)
        x = pad
        if i == 3:  # the case key first
            layer.button(pygame.Rect(x, y, key_w, key_h), "Aa", Shift(), primary=r.upper)
            x += key_w + gap
        for ch in keys:
            label = ch.upper() if upper else ch.lower()
            layer.button(pygame.Rect(x, y, key_w, key_h), label, Key(ch))
            x += key_w + gap
        if i == 2:
            layer.button(pygame.Rect(x, y, key_w, key_h), "←", Backspace())
    y = top + len(KEY_ROWS) * (key_h + gap)
    wide = (key_w + gap) * 3 - gap
    layer.button(pygame.Rect(pad, y, wide, key_h), t._("Cancel"), CancelName())
    layer.button(pygame.Rect(pad + wide + gap, y, w - 2 * pad - 2 * (wide + gap), key_h), t._("Space"),
                 Key(" "))
    layer.button(pygame.Rect(w - pad - wide, y, wide, key_h), t._("OK"), ConfirmName(), primary=True,
                 enabled=bool(r.typing.strip()))
    layer.finish(surface)


def _header(view: View, layer: _Layer, title: str, back: tuple[Any, ...]) -> int:
    """A title on the left and Back on the right; returns the y below them."""
    w, h = view.size
    t = view.t
    pad = max(8, w // 60)
    bh = max(40, int(h * 0.1))
    bw = int(w * 0.2)
    text(layer.surface, title, pygame.Rect(pad, int(h * 0.02), w - 3 * pad - bw, bh), int(h * 0.08), theme.ACCENT,
         bold=True, align="left")
    layer.button(pygame.Rect(w - pad - bw, int(h * 0.02), bw, bh), t._("Back"), back, primary=True)
    return int(h * 0.02) + bh + int(h * 0.02)


def _columns(layer: _Layer, y: int, height: int, cells: list[tuple[str, float, float, str]],
             colour: tuple[int, int, int], size: int, bold: bool = False) -> None:
    w = layer.view.size[0]
    for value, left, right, align in cells:
        rect = pygame.Rect(int(w * left), y, int(w * (right - left)), height)
        text(layer.surface, value, rect, size, colour, bold=bold, align=align)


BOARD_COLUMNS = ((0.03, 0.09, "right"), (0.12, 0.52, "left"), (0.54, 0.68, "right"), (0.70, 0.83, "right"),
                 (0.85, 0.97, "right"))
HISTORY_COLUMNS = ((0.03, 0.24, "left"), (0.25, 0.46, "left"), (0.47, 0.60, "left"), (0.61, 0.84, "left"),
                   (0.85, 0.97, "right"))


def _table_rows(
    view: View, layer: _Layer, rows: Sequence[Any], page: int, per_page: int, page_key: Callable[[int], Intent],
    columns: Sequence[tuple[float, float, str]], y: int, row_h: int, size: int,
    cells: Callable[[Any], tuple[list[str], tuple[int, int, int], tuple[object, ...] | None]],
) -> None:
    """One page of ``rows`` as tappable table rows (``cells`` gives values, colour and what a tap opens), and its pager."""
    w, h = view.size
    for row in rows[page * per_page:(page + 1) * per_page]:
        rect = pygame.Rect(int(w * 0.02), y + 2, int(w * 0.96), row_h - 4)
        pygame.draw.rect(layer.surface, theme.PANEL, rect, border_radius=6)
        values, colour, opens = cells(row)
        _columns(layer, rect.y, rect.height, [(v, *c) for v, c in zip(values, columns)], colour, size)
        if opens is not None:
            layer.spots.append(Hotspot(rect, opens))
        y += row_h
    _pager(layer, view.t, page, pages(len(rows), per_page), page_key,
           pygame.Rect(w // 4, h - int(h * 0.11), w // 2, int(h * 0.09)))


def draw_leaderboard(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """Rank, name, rating (rounded), rated games and wins; a row opens that player's history."""
    r = ui.records
    w, h = view.size
    t = view.t
    layer = _Layer(view, None)
    y = _header(view, layer, t._("Leaderboard"), GoHome())
    row_h = int(h * 0.085)
    head = [t._("#"), t._("Name"), t._("Rating"), t._("Games"), t._("Wins")]
    size = int(row_h * 0.6)
    _columns(layer, y, int(row_h * 0.8), [(v, *c) for v, c in zip(head, BOARD_COLUMNS)], theme.TEXT_DIM, size)
    y += int(row_h * 0.8)
    if not r.board:
        text_or_wrap(layer.surface, t._("No named players yet. Pick names on the ready screen."),
                     pygame.Rect(w // 10, y, w * 8 // 10, row_h * 3), size, theme.TEXT_DIM)
    _table_rows(view, layer, r.board, r.board_page, BOARD_ROWS, LeaderboardPage, BOARD_COLUMNS, y, row_h, size,
                lambda row: ([f"{row.rank}", row.player.name, f"{row.player.rating:.0f}", f"{row.player.games}",
                              f"{row.wins}"], theme.TEXT, OpenHistory(row.player.id)))
    layer.finish(surface)


def draw_history(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """A player's matches: date, opponent, result, reason, rating change; a row opens its replay."""
    r = ui.records
    w, h = view.size
    t = view.t
    layer = _Layer(view, None)
    name = r.player.name if r.player is not None else ""
    y = _header(view, layer, t._("{name}: matches", name=name), Back())
    row_h = int(h * 0.085)
    size = int(row_h * 0.55)
    head = [t._("Date"), t._("Opponent"), t._("Result"), t._("Reason"), t._("Rating")]
    _columns(layer, y, int(row_h * 0.8), [(v, *c) for v, c in zip(head, HISTORY_COLUMNS)], theme.TEXT_DIM, size)
    y += int(row_h * 0.8)
    if not r.history:
        text(layer.surface, t._("No matches yet."), pygame.Rect(w // 10, y, w * 8 // 10, row_h), size,
             theme.TEXT_DIM)

    def cells(row: Any) -> tuple[list[str], tuple[int, int, int], tuple[object, ...] | None]:
        opponent = t._("Guest") if row.opponent_id is None else row.opponent
        reason = t.lookup(END_REASONS[row.reason]) if row.reason in END_REASONS else ""
        values = [date_text(row.date_wall), opponent, t.lookup(RESULTS[row.result]), reason,
                  change_text(row.rating_change)]
        opens = None if row.result == "unfinished" else OpenReplay(row.match_id)
        return values, theme.SCORE if row.result == "win" else theme.TEXT, opens

    _table_rows(view, layer, r.history, r.history_page, HISTORY_ROWS, HistoryPage, HISTORY_COLUMNS, y, row_h,
                size, cells)
    layer.finish(surface)


def draw_replay(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """One stored step: the board and both hands after it, who did what, balances and end count."""
    r = ui.records
    w, h = view.size
    t = view.t
    layer = _Layer(view, None)
    title = t._("{first} vs {second}", first=seat_name(t, r, 0), second=seat_name(t, r, 1))
    y = _header(view, layer, title, Back())
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
        if theme.fit_size(said, side.width, size) >= size * 0.85 or \
                not paragraph(layer.surface, said, said_rect, size, theme.ACCENT, min_size=theme.MIN_SIZE, align="left"):
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
    layer.finish(surface)


def draw_record_screen(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """The leaderboard, history or replay screen (``ui.screen``)."""
    {"leaderboard": draw_leaderboard, "history": draw_history, "replay": draw_replay}[ui.screen](view, surface, ui)


__all__ = ["RECORD_SCREENS", "draw_name_button", "draw_picker", "draw_record_screen"]
