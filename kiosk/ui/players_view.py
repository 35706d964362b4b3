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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pygame

from engine import EndReason, Match
from kiosk.i18n import N_, Translator, match_template
from kiosk.store.players import NAME_MAX, HistoryRow, Player, PlayerNameError, Players
from kiosk.ui import theme
from kiosk.ui.board.table import draw_board_area, draw_hand
from kiosk.ui.regions import to_screen
from kiosk.ui.widgets import Hotspot, draw_button, paragraph, text, text_or_wrap

if TYPE_CHECKING:
    from kiosk.store.journal import Journal
    from kiosk.ui.view import UiState, View

RECORD_SCREENS = ("leaderboard", "history", "replay")
"""``UiState.screen`` values drawn by this module."""
KEY_ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM-'")
PICKER_COLUMNS, PICKER_ROWS = 3, 4
BOARD_ROWS = 7
HISTORY_ROWS = 7

NAME_ERRORS = (
    N_("Type a name first."),
    N_("A name has at most {n} characters."),
    N_("A name cannot contain control characters."),
    N_('"Guest" is reserved for players without a name.'),
    N_('The name "{name}" is taken: pick it from the list or choose another.'),
    N_('The name "{name}" is taken.'),
)
"""``PlayerNameError`` texts (English at their source in ``kiosk.players``), for the catalogs."""
RESULTS = {"win": N_("Win"), "loss": N_("Loss"), "aborted": N_("Aborted"), "unfinished": N_("Unfinished")}
END_REASONS = {"balance": N_("points ran out"), "time": N_("time ran out"), "resign": N_("resigned"),
               "aborted": N_("aborted")}
STEP_TEXTS = {
    "reveal": N_("{player} reveals their tiles"),
    "draw": N_("{player} draws a tile"),
    "pass": N_("{player} passes"),
    "decline": N_("{player} declines to bid"),
    "accept": N_("{player} accepts the bid"),
    "bid": N_("{player} bids {amount}"),
    "play": N_("{player} plays [{tile}]"),
    "resign": N_("{player} resigns"),
}
"""What a stored step did; ``{player}`` is the seat's name, or "Player 2" for a guest."""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of the leaderboard."""

    rank: int
    player: Player
    wins: int


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One stored step and the match right after it (a copy of its own)."""

    step: dict[str, Any]
    match: Match


@dataclass
class Records:
    """What the player screens show (part of ``UiState``)."""

    available: bool = False
    """A journal is open: names can be picked and the leaderboard is on the home screen."""
    chosen: list[Player | None] = field(default_factory=lambda: [None, None])
    """The named player in each seat for the coming match (None: a guest)."""
    picker: int | None = None
    """The seat whose player picker is open."""
    typing: str | None = None
    """The name on the keyboard while it is open."""
    upper: bool = False
    """The "Aa" key: the next letter in the other case."""
    error: str = ""
    """Why the keyboard's name was refused (a ``Text``, or English)."""
    choices: list[Player] = field(default_factory=list)
    picker_page: int = 0
    board: list[BoardRow] = field(default_factory=list)
    board_page: int = 0
    player: Player | None = None
    history: list[HistoryRow] = field(default_factory=list)
    history_page: int = 0
    replay: list[ReplayStep] = field(default_factory=list)
    replay_row: HistoryRow | None = None
    replay_at: int = 0
    replay_players: tuple[int | None, int | None] = (None, None)
    names: dict[int, str] = field(default_factory=dict)
    """Player ids to names, for the replay's heading."""

    def chosen_ids(self) -> tuple[int | None, int | None]:
        """The seats' player ids (None: guest)."""
        a, b = self.chosen
        return (None if a is None else a.id, None if b is None else b.id)

    def next_upper(self) -> bool:
        """Whether the next letter typed is a capital."""
        auto = not self.typing or self.typing.endswith((" ", "-"))
        return auto != self.upper


def name_error_text(exc: Exception) -> str:
    """A ``PlayerNameError``'s sentence as a ``Text`` the screen translates (English when unknown)."""
    found = match_template(NAME_ERRORS, str(exc))
    return found if found is not None else str(exc)


def pages(count: int, per_page: int) -> int:
    """How many pages ``count`` rows take (at least one)."""
    return max(1, -(-count // per_page))


class PlayerScreens:
    """The taps of the player screens; ``journal`` None means none of them is offered."""

    def __init__(self, journal: Journal | None, ui: UiState) -> None:
        self.journal = journal
        self.players = Players(journal) if journal is not None else None
        self.ui = ui
        ui.records.available = journal is not None

    @property
    def records(self) -> Records:
        return self.ui.records

    def apply(self, intent: tuple[Any, ...]) -> None:
        """A tap with intent ``("players", what, ...)``."""
        if self.players is None:
            return
        r = self.records
        what = intent[1]
        if what == "open_picker":
            r.picker, r.typing, r.error, r.picker_page = int(intent[2]), None, "", 0
            r.choices = self.players.list()
        elif what == "close":
            r.picker, r.typing, r.error = None, None, ""
        elif what == "pick" and r.picker is not None:
            seat = r.picker
            r.chosen[seat] = None if intent[2] is None else self.players.get(int(intent[2]))
            r.picker = None
        elif what == "picker_page":
            r.picker_page = max(0, min(int(intent[2]), pages(len(r.choices), PICKER_COLUMNS * PICKER_ROWS) - 1))
        elif what == "new":
            r.typing, r.error, r.upper = "", "", False
        elif what == "key" and r.typing is not None:
            if len(r.typing) < NAME_MAX:
                ch = str(intent[2])
                r.typing += ch.upper() if r.next_upper() else ch.lower()
            r.upper, r.error = False, ""
        elif what == "shift":
            r.upper = not r.upper
        elif what == "backspace" and r.typing is not None:
            r.typing, r.error = r.typing[:-1], ""
        elif what == "cancel":
            r.typing, r.error = None, ""
        elif what == "ok" and r.typing is not None and r.picker is not None:
            try:
                player = self.players.create(r.typing)
            except PlayerNameError as exc:
                r.error = name_error_text(exc)
            else:
                r.chosen[r.picker] = player
                r.picker, r.typing, r.error = None, None, ""
        elif what == "leaderboard":
            self.open_leaderboard()
        elif what == "board_page":
            r.board_page = max(0, min(int(intent[2]), pages(len(r.board), BOARD_ROWS) - 1))
        elif what == "history":
            self.open_history(int(intent[2]))
        elif what == "history_page":
            r.history_page = max(0, min(int(intent[2]), pages(len(r.history), HISTORY_ROWS) - 1))
        elif what == "replay":
            self.open_replay(int(intent[2]))
        elif what == "step":
            r.replay_at = max(0, min(int(intent[2]), len(r.replay) - 1))
        elif what == "back":
            if self.ui.screen == "replay":
                self.ui.screen = "history"
            else:
                self.open_leaderboard(keep_page=True)

    def open_leaderboard(self, keep_page: bool = False) -> None:
        """The leaderboard, read now (wins counted from each player's rated matches)."""
        assert self.players is not None
        r = self.records
        rows = []
        for rank, player in enumerate(self.players.leaderboard(), start=1):
            wins = sum(1 for h in self.players.history(player.id) if h.rated and h.result == "win")
            rows.append(BoardRow(rank, player, wins))
        r.board = rows
        if not keep_page:
            r.board_page = 0
        self.ui.screen = "leaderboard"

    def open_history(self, player_id: int) -> None:
        """A player's matches, newest first (matches entered but never begun are left out)."""
        assert self.players is not None and self.journal is not None
        r = self.records
        r.player = self.players.get(player_id)
        rows = self.players.history(player_id)
        r.history = [h for h in rows if h.result != "unfinished" or self.journal.commands(h.match_id)]
        r.history_page = 0
        self.ui.screen = "history"

    def open_replay(self, match_id: int) -> None:
        """Every state of a stored match, from the journal's steps."""
        assert self.journal is not None and self.players is not None
        r = self.records
        r.replay = [ReplayStep(dict(step), Match.from_dict(match.to_dict()))
                    for step, match in self.journal.replay_states(match_id)]
        r.replay_row = next((h for h in r.history if h.match_id == match_id), None)
        record = self.journal.match(match_id)
        r.names = {}
        for pid in record.players:
            if pid is not None:
                r.names[pid] = self.players.get(pid).name
        r.replay_players = record.players
        r.replay_at = 0
        self.ui.screen = "replay"

    def seat_names_from(self, players: tuple[int | None, int | None]) -> None:
        """The seats of a resumed match."""
        if self.players is None:
            return
        self.records.chosen = [None if p is None else self.players.get(p) for p in players]

    def reset(self) -> None:
        """Back to two guests and no picker (the home screen)."""
        r = self.records
        r.chosen = [None, None]
        r.picker, r.typing, r.error = None, None, ""


# -- texts ----------------------------------------------------------------------------------------


def seat_name(t: Translator, records: Records, seat: int) -> str:
    """The replayed match's player in ``seat``: the name, or "Player 2" for a guest."""
    pid = records.replay_players[seat]
    if pid is None or pid not in records.names:
        return t._("Player {number}", number=seat + 1)
    return records.names[pid]


def step_text(t: Translator, records: Records, item: ReplayStep) -> str:
    """Who did what in one stored step, e.g. "Anna plays [1|4]" ("Player 2 plays [1|4]" for a guest)."""
    step, m = item.step, item.match
    kind = step.get("do")
    if kind == "start":
        return t._("Round {number}: the tiles are dealt", number=m.round)
    if kind == "restart":
        if m.is_over and m.outcome is not None and m.outcome.reason is EndReason.ABORTED:
            return t._("The kiosk stopped the match")
        return t._("The kiosk restarted")
    if kind == "tick":
        return t._("A clock ran out")
    template = STEP_TEXTS.get(str(kind))
    if template is None:
        return str(kind)
    return t.lookup(template, player=seat_name(t, records, int(step.get("player", 0))), amount=step.get("amount", ""),
                    tile=step.get("tile", ""))


def outcome_text(t: Translator, records: Records, m: Match) -> str:
    """The end of the match, for the replay's last step."""
    o = m.outcome
    if o is None:
        return ""
    if o.winner is None:
        return t._("Match aborted - no result")
    return t._("{player} wins", player=seat_name(t, records, o.winner))


def change_text(change: float | None) -> str:
    """A rating change as "+12.4" / "-3.0", or a dash when the match was not rated."""
    if change is None:
        return "–"
    return f"{change:+.1f}"


def date_text(wall: float) -> str:
    """A match's date and time (local time)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(wall))


def seat_label(t: Translator, records: Records, seat: int) -> str:
    """The name in a seat, or "Guest"."""
    player = records.chosen[seat]
    return t._("Guest") if player is None else player.name


# -- drawing --------------------------------------------------------------------------------------


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


def _pager(layer: _Layer, t: Translator, page: int, count: int, intent: str, rect: pygame.Rect) -> None:
    """▲ page x of y ▼ in ``rect`` (nothing when everything fits on one page)."""
    if count <= 1:
        return
    bw = rect.height * 3 // 2
    layer.button(pygame.Rect(rect.x, rect.y, bw, rect.height), "▲", ("players", intent, page - 1), enabled=page > 0)
    layer.button(pygame.Rect(rect.right - bw, rect.y, bw, rect.height), "▼", ("players", intent, page + 1),
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
    spots.append(Hotspot(button, ("players", "open_picker", player)))


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
        layer.button(rect, player.name, ("players", "pick", player.id), primary=current, enabled=not taken)
    count = pages(len(r.choices), per_page)
    _pager(layer, t, r.picker_page, count, "picker_page",
           pygame.Rect(pad, bottom + gap, w - 2 * pad, int(h * 0.09)))
    bh = int(h * 0.13)
    bw = (w - 2 * pad - 2 * gap) // 3
    y = h - bh - int(h * 0.03)
    layer.button(pygame.Rect(pad, y, bw, bh), t._("Guest"), ("players", "pick", None), primary=r.chosen[seat] is None)
    layer.button(pygame.Rect(pad + bw + gap, y, bw, bh), t._("New player"), ("players", "new", seat), primary=True)
    layer.button(pygame.Rect(pad + 2 * (bw + gap), y, bw, bh), t._("Cancel"), ("players", "close"))
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
            layer.button(pygame.Rect(x, y, key_w, key_h), "Aa", ("players", "shift"), primary=r.upper)
            x += key_w + gap
        for ch in keys:
            label = ch.upper() if upper else ch.lower()
            layer.button(pygame.Rect(x, y, key_w, key_h), label, ("players", "key", ch))
            x += key_w + gap
        if i == 2:
            layer.button(pygame.Rect(x, y, key_w, key_h), "←", ("players", "backspace"))
    y = top + len(KEY_ROWS) * (key_h + gap)
    wide = (key_w + gap) * 3 - gap
    layer.button(pygame.Rect(pad, y, wide, key_h), t._("Cancel"), ("players", "cancel"))
    layer.button(pygame.Rect(pad + wide + gap, y, w - 2 * pad - 2 * (wide + gap), key_h), t._("Space"),
                 ("players", "key", " "))
    layer.button(pygame.Rect(w - pad - wide, y, wide, key_h), t._("OK"), ("players", "ok"), primary=True,
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
    view: View, layer: _Layer, rows: Sequence[Any], page: int, per_page: int, page_key: str,
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
    y = _header(view, layer, t._("Leaderboard"), ("home",))
    row_h = int(h * 0.085)
    head = [t._("#"), t._("Name"), t._("Rating"), t._("Games"), t._("Wins")]
    size = int(row_h * 0.6)
    _columns(layer, y, int(row_h * 0.8), [(v, *c) for v, c in zip(head, BOARD_COLUMNS)], theme.TEXT_DIM, size)
    y += int(row_h * 0.8)
    if not r.board:
        text_or_wrap(layer.surface, t._("No named players yet. Pick names on the ready screen."),
                     pygame.Rect(w // 10, y, w * 8 // 10, row_h * 3), size, theme.TEXT_DIM)
    _table_rows(view, layer, r.board, r.board_page, BOARD_ROWS, "board_page", BOARD_COLUMNS, y, row_h, size,
                lambda row: ([f"{row.rank}", row.player.name, f"{row.player.rating:.0f}", f"{row.player.games}",
                              f"{row.wins}"], theme.TEXT, ("players", "history", row.player.id)))
    layer.finish(surface)


def draw_history(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """A player's matches: date, opponent, result, reason, rating change; a row opens its replay."""
    r = ui.records
    w, h = view.size
    t = view.t
    layer = _Layer(view, None)
    name = r.player.name if r.player is not None else ""
    y = _header(view, layer, t._("{name}: matches", name=name), ("players", "back"))
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
        opens = None if row.result == "unfinished" else ("players", "replay", row.match_id)
        return values, theme.SCORE if row.result == "win" else theme.TEXT, opens

    _table_rows(view, layer, r.history, r.history_page, HISTORY_ROWS, "history_page", HISTORY_COLUMNS, y, row_h,
                size, cells)
    layer.finish(surface)


def draw_replay(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """One stored step: the board and both hands after it, who did what, balances and end count."""
    r = ui.records
    w, h = view.size
    t = view.t
    layer = _Layer(view, None)
    title = t._("{first} vs {second}", first=seat_name(t, r, 0), second=seat_name(t, r, 1))
    y = _header(view, layer, title, ("players", "back"))
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
        layer.button(pygame.Rect(pad + i * (bw + pad), fy, bw, foot_h), label, ("players", "step", target),
                     primary=i == 2, enabled=enabled)
    layer.finish(surface)


def draw_record_screen(view: View, surface: pygame.Surface, ui: UiState) -> None:
    """The leaderboard, history or replay screen (``ui.screen``)."""
    {"leaderboard": draw_leaderboard, "history": draw_history, "replay": draw_replay}[ui.screen](view, surface, ui)


__all__ = [
    "RECORD_SCREENS",
    "PlayerScreens",
    "Records",
    "draw_name_button",
    "draw_picker",
    "draw_record_screen",
    "name_error_text",
    "step_text",
]
