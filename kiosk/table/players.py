"""Named players at the table, without pygame: who sits in each seat, the picker and its keyboard,
the leaderboard, a player's history and the step-through replay of a stored match.

``PlayerDesk`` carries out their intents on ``UiState.records`` (``kiosk.table.state``), reading
the journal when a screen opens, so that drawing never reads it. The texts the screens make from
these records (a replay step in words, a rating change) are here too.

The on-screen keyboard types in three layouts (``kiosk.table.layouts``): Latin and Ukrainian
Cyrillic letters (a one-shot "Aa" key changes the case of the next letter; a letter after a space
or a hyphen or at the start is a capital), and Korean jamo composed into syllables as they are
typed (``kiosk.table.hangul``; its one-shot Shift gives the doubled consonants). Backspace takes
back the last key: one jamo of a Hangul syllable, or one character.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import EndReason, Match
from kiosk.club.roster import club_board
from kiosk.i18n import N_, TN, T, Translator
from kiosk.store.players import NAME_MAX, HistoryRow, Player, PlayerNameError, Players, Standing
from kiosk.table import hangul, layouts
from kiosk.table.computer import ComputerPlayer, computer_name
from kiosk.table.state import BoardRow, Records, ReplayStep, Screen, UiState

if TYPE_CHECKING:
    from kiosk.store.journal import Journal
    from kiosk.store.keeper import JournalKeeper

PICKER_COLUMNS, PICKER_ROWS = 3, 4
BOARD_ROWS = 6
HISTORY_ROWS = 5
MANAGE_ROWS = 4
REPLAY_STEP_NS = 1_500_000_000
"""Auto-play shows a step this often."""

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


def pages(count: int, per_page: int) -> int:
    """How many pages ``count`` rows take (at least one)."""
    return max(1, -(-count // per_page))


def _within(page: int, count: int, per_page: int) -> int:
    return max(0, min(page, pages(count, per_page) - 1))


class PlayerDesk:
    """The named players' screens at work: picking, typing, the leaderboard, history and replay.

    Every method changes ``ui.records`` (and ``ui.screen`` to move between the player screens);
    with no journal (``players`` None) nothing is offered and nothing happens."""

    def __init__(self, keeper: JournalKeeper | None, ui: UiState) -> None:
        self.keeper = keeper
        self.ui = ui
        ui.records.available = self.journal is not None

    @property
    def journal(self) -> Journal | None:
        """The journal now (None while there is none: the keeper may open it later)."""
        return self.keeper.journal if self.keeper is not None else None

    @property
    def players(self) -> Players | None:
        """The named players now (None without a journal); their calls raise only store errors."""
        return self.keeper.players if self.keeper is not None else None

    @property
    def records(self) -> Records:
        return self.ui.records

    # -- the picker and its keyboard -------------------------------------------------------

    def open_picker(self, seat: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.picker, r.typing, r.error, r.picker_page = seat, None, "", 0
        r.choices = self.players.list()

    def close_picker(self) -> None:
        if self.players is None:
            return
        r = self.records
        r.picker, r.typing, r.error = None, None, ""

    def pick(self, player_id: int | None) -> None:
        """The open picker's seat gets ``player_id`` (None: a guest)."""
        r = self.records
        if self.players is None or r.picker is None:
            return
        r.chosen[r.picker] = None if player_id is None else self.players.get(player_id)
        r.picker = None

    def picker_page(self, page: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.picker_page = _within(page, len(r.choices), PICKER_COLUMNS * PICKER_ROWS)

    def new_player(self) -> None:
        """The keyboard, empty, in the layout of the language of the picker's player."""
        if self.players is None:
            return
        r = self.records
        r.typing, r.error, r.upper, r.renaming = "", "", False, None
        r.layout = layouts.for_language(self.ui.player_language(r.picker))

    def keyboard_layout(self, name: str) -> None:
        """The keyboard's layout key: type in layout ``name`` (Shift off)."""
        r = self.records
        if self.players is None or r.typing is None:
            return
        r.layout, r.upper = layouts.layout(name).name, False

    def key(self, ch: str) -> None:
        """Type ``ch``: a jamo joins the Hangul syllable before it, a letter takes the case the keyboard shows.
        Nothing is typed that would make the name longer than ``NAME_MAX``."""
        r = self.records
        if self.players is None or r.typing is None:
            return
        if ch in hangul.KEYS:
            typed = hangul.type_key(r.typing, ch)
        else:
            typed = r.typing + (ch.upper() if r.next_upper() else ch.lower())
        if len(typed) <= NAME_MAX:
            r.typing = typed
        r.upper, r.error = False, ""

    def shift(self) -> None:
        if self.players is None:
            return
        self.records.upper = not self.records.upper

    def backspace(self) -> None:
        r = self.records
        if self.players is None or r.typing is None:
            return
        r.typing, r.error = hangul.backspace(r.typing), ""

    def cancel_name(self) -> None:
        if self.players is None:
            return
        r = self.records
        r.typing, r.error, r.renaming = None, "", None

    def confirm_name(self) -> None:
        """Make the typed player and seat them (or rename the managed player), or say why the name is refused."""
        r = self.records
        if self.players is not None and r.typing is not None and r.renaming is not None:
            self._rename(r.renaming, r.typing)
            return
        if r.picker is None:
            return
        seat, player = r.picker, self.typed_player()
        if player is not None:
            r.chosen[seat] = player
            r.picker, r.typing, r.error = None, None, ""

    def typed_player(self) -> Player | None:
        """The new player named as typed in the picker's keyboard, made in the journal (None: no keyboard
        open, or the name refused: ``records.error`` says why). Store errors are raised."""
        r = self.records
        if self.players is None or r.typing is None or r.picker is None or r.renaming is not None:
            return None
        try:
            return self.players.create(r.typing)
        except PlayerNameError as exc:
            r.error = exc.text
            return None

    # -- the owner's player management (behind the PIN) -------------------------------------

    def open_manage(self) -> None:
        """The management screen: every named player, nothing chosen."""
        if self.players is None:
            return
        r = self.records
        r.manage, r.manage_page, r.managed, r.manage_action, r.merge_target = self.players.list(), 0, None, "", None
        r.renaming, r.typing, r.manage_notice = None, None, ""
        self.ui.screen = Screen.PLAYERS

    def manage_page(self, page: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.manage_page = _within(page, len(r.manage), MANAGE_ROWS)

    def choose_managed(self, player_id: int) -> None:
        """A row: the player to act on, or (choosing whom to merge into) the one who stays."""
        r = self.records
        if self.players is None:
            return
        if r.manage_action == "merge":
            if player_id != r.managed:
                r.merge_target, r.manage_action = player_id, "merge-confirm"
            return
        r.managed, r.manage_action, r.merge_target, r.manage_notice = player_id, "", None, ""

    def manage_action(self, action: str) -> None:
        """Rename (the keyboard), Delete and Merge (each asks first), Yes, Cancel."""
        r = self.records
        if self.players is None or r.managed is None:
            return
        if action == "cancel":  # from a question back to the actions, from the actions to no choice
            if r.manage_action:
                r.manage_action, r.merge_target = "", None
            else:
                r.managed = None
        elif action == "rename":
            player = self.players.get(r.managed)
            r.renaming, r.typing, r.error, r.upper = r.managed, player.name, "", False
            r.layout = layouts.for_language(self.ui.language)
        elif action in ("delete", "merge"):
            r.manage_action, r.merge_target = action, None
        elif action == "confirm" and r.manage_action == "delete":
            name = self.players.get(r.managed).name
            kept = self.players.delete(r.managed)
            self._managed_done(TN("{name} was deleted; their {n} match stays, with a guest in their seat.",
                                  "{name} was deleted; their {n} matches stay, with a guest in their seat.",
                                  kept, name=name))
        elif action == "confirm" and r.manage_action == "merge-confirm" and r.merge_target is not None:
            source = self.players.get(r.managed).name
            target = self.players.merge(r.managed, r.merge_target)
            self._managed_done(T("{source} was merged into {target}; the ratings were recomputed.", source=source,
                                 target=target.name))

    def _rename(self, player_id: int, typed: str) -> None:
        assert self.players is not None
        r = self.records
        try:
            before = self.players.get(player_id).name
            player = self.players.rename(player_id, typed)
        except PlayerNameError as exc:
            r.error = exc.text
            return
        r.typing, r.renaming, r.error = None, None, ""
        r.chosen = [player if p is not None and p.id == player_id else p for p in r.chosen]
        self._managed_done(T("{old} is now {new}.", old=before, new=player.name), keep=player_id)

    def _managed_done(self, notice: str, keep: int | None = None) -> None:
        assert self.players is not None
        r = self.records
        r.manage, r.managed, r.manage_action, r.merge_target = self.players.list(), keep, "", None
        r.manage_page = _within(r.manage_page, len(r.manage), MANAGE_ROWS)
        r.manage_notice = notice
        r.chosen = [None if p is None or all(q.id != p.id for q in r.manage) else self.players.get(p.id)
                    for p in r.chosen]

    # -- leaderboard, history, replay ------------------------------------------------------

    def open_leaderboard(self, keep_page: bool = False) -> None:
        """The leaderboard, read now in one query (rated wins with each player)."""
        if self.players is None:
            return
        r = self.records
        standings: Sequence[Standing] = self.players.leaderboard()
        if self.journal is not None:  # with a club: its ratings where current (kiosk.club.roster)
            with self.journal.database.read() as conn:
                standings = club_board(conn, standings)
        r.board = [BoardRow(rank, standing, standing.wins) for rank, standing in enumerate(standings, start=1)]
        if not keep_page:
            r.board_page = 0
        self.ui.screen = Screen.LEADERBOARD

    def leaderboard_page(self, page: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.board_page = _within(page, len(r.board), BOARD_ROWS)

    def open_history(self, player_id: int) -> None:
        """A player's matches, newest first (matches entered but never begun are left out)."""
        if self.players is None or self.journal is None:
            return
        r = self.records
        r.player = self.players.get(player_id)
        rows = self.players.history(player_id)
        r.history = [h for h in rows if h.result != "unfinished" or h.entries > 0]
        r.computer_levels = self.journal.computer_levels([h.match_id for h in r.history])  # practice matches
        r.history_page = 0
        self.ui.screen = Screen.HISTORY

    def history_page(self, page: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.history_page = _within(page, len(r.history), HISTORY_ROWS)

    def open_replay(self, match_id: int) -> None:
        """Every state of a stored match, from the journal's steps."""
        if self.journal is None or self.players is None:
            return
        r = self.records
        r.replay = [ReplayStep(dict(state.step), state.match) for state in self.journal.replay_states(match_id)]
        r.replay_row = next((h for h in r.history if h.match_id == match_id), None)
        record = self.journal.match(match_id)
        r.names = {}
        for pid in record.players:
            if pid is not None:
                r.names[pid] = self.players.get(pid).name
        r.replay_players = record.players
        r.replay_at, r.replay_playing, r.replay_due_ns = 0, False, None
        self.ui.screen = Screen.REPLAY

    def replay_to(self, step: int) -> None:
        if self.players is None:
            return
        r = self.records
        r.replay_at = max(0, min(step, len(r.replay) - 1))
        r.replay_due_ns = None  # auto-play goes on from here, a whole step later

    def toggle_autoplay(self) -> None:
        """Play / Pause; Play at the last step starts again from the first."""
        r = self.records
        if self.players is None or not r.replay:
            return
        r.replay_playing = not r.replay_playing
        r.replay_due_ns = None
        if r.replay_playing and next_step(r.replay, r.replay_at) is None:
            r.replay_at = 0

    def advance_replay(self, now_ns: int) -> bool:
        """Auto-play at ``now_ns``: show the next step when it is due (stopping after the last); True when
        the step shown changed."""
        r = self.records
        if not r.replay_playing or self.ui.screen != Screen.REPLAY:
            r.replay_playing = r.replay_playing and self.ui.screen == Screen.REPLAY
            return False
        if r.replay_due_ns is None:
            r.replay_due_ns = now_ns + REPLAY_STEP_NS
            return False
        if now_ns < r.replay_due_ns:
            return False
        following = next_step(r.replay, r.replay_at)
        if following is None:
            r.replay_playing, r.replay_due_ns = False, None
            return True
        r.replay_at = following
        r.replay_due_ns = now_ns + REPLAY_STEP_NS
        if next_step(r.replay, following) is None:
            r.replay_playing, r.replay_due_ns = False, None
        return True

    def back(self) -> None:
        """From the replay to its history; from the history to the leaderboard (at the same page)."""
        if self.players is None:
            return
        if self.ui.screen == Screen.REPLAY:
            self.ui.screen = Screen.HISTORY
        else:
            self.open_leaderboard(keep_page=True)

    # -- the seats -------------------------------------------------------------------------

    def seat_names_from(self, players: tuple[int | None, int | None]) -> None:
        """The seats of a resumed match."""
        if self.players is None:
            return
        self.records.chosen = [None if p is None else self.players.get(p) for p in players]

    def reset(self) -> None:
        """Back to two guests and no picker (the home screen)."""
        r = self.records
        r.chosen = [None, None]
        r.picker, r.typing, r.error, r.renaming = None, None, "", None


# -- the replay's steps -------------------------------------------------------------------------


def next_step(steps: Sequence[ReplayStep], at: int) -> int | None:
    """The next step the replay shows after ``at`` (the hand-overs' reveals are stepped over), or None."""
    return next((i for i in range(at + 1, len(steps)) if steps[i].step.get("do") != "reveal"), None)


def round_starts(steps: Sequence[ReplayStep]) -> list[tuple[int, int]]:
    """(round, step) of each round's deal, in order: where "jump to a round" goes."""
    return [(item.match.round, i) for i, item in enumerate(steps) if item.step.get("do") == "start"]


def round_of(starts: Sequence[tuple[int, int]], at: int) -> int:
    """The position in ``starts`` of the round that step ``at`` belongs to (0 before the first deal)."""
    before = [n for n, (_, i) in enumerate(starts) if i <= at]
    return before[-1] if before else 0


# -- texts ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a person (a named player or a guest) or the computer, and their language."""

    number: int
    name: str
    """For every in-game text: the computer's name, the named player's, or "Player 2" (a ``Text``)."""
    player: Player | None
    """The named player (None: a guest, or the computer)."""
    computer: ComputerPlayer | None
    """The computer when it sits here (None: a person)."""
    language: str
    """The language of the texts for this seat."""

    @property
    def person(self) -> bool:
        return self.computer is None


def seat_of(ui: UiState, computer: ComputerPlayer | None, number: int) -> Seat:
    """Who sits in seat ``number`` now."""
    theirs = computer if computer is not None and computer.seat == number else None
    player = None if theirs is not None else ui.records.chosen[number]
    return Seat(number, who(ui.records, computer, number), player, theirs, ui.player_language(number))


def who(records: Records, computer: ComputerPlayer | None, seat: int) -> str:
    """Who sits in ``seat`` now, for every in-game text: the computer's name, the named player's name, or
    "Player 2" for a guest (a ``Text`` where it must be translated: shown in each reader's language)."""
    if computer is not None and computer.seat == seat:
        return computer_name(computer.level)
    player = records.chosen[seat]
    return T("Player {number}", number=seat + 1) if player is None else player.name


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


def practice_summary(history: Sequence[HistoryRow], levels: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """A player's results against the computer: (level, wins, losses) for each level played, easiest first."""
    tally: dict[int, list[int]] = {}
    for row in history:
        level = levels.get(row.match_id)
        if level is not None and row.result in ("win", "loss"):
            tally.setdefault(level, [0, 0])[0 if row.result == "win" else 1] += 1
    return [(level, wins, losses) for level, (wins, losses) in sorted(tally.items())]
