"""What the screen shows beyond the match (no pygame): which screen, overlays, languages, pages.

The controller (``kiosk.table.controller``) changes this state; the scenes (``kiosk.ui.scenes``)
only read it; the frame loop redraws the screen after every input the controller took and whenever
time changed something (``Controller.changes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine import Match
from kiosk.i18n import Text, next_language, normalise
from kiosk.store.players import HistoryRow, Player


class Screen(StrEnum):
    """A screen: the one under the overlays (``UiState.screen``; ``MATCH``: the table), and the table's
    scenes for its match's state (``GameSession.screen``: ``READY`` to ``MATCH_OVER``)."""

    HOME = "home"
    SETTINGS = "settings"
    MATCH = "match"
    LEADERBOARD = "leaderboard"
    HISTORY = "history"
    REPLAY = "replay"
    PLAYERS = "players"
    """The owner's player management (behind the PIN): rename, delete, merge."""
    PRACTICE = "practice"
    """The choice of the computer's level (and the person's language) for a practice match."""
    REVIEW = "review"
    """After a match: each player's costliest decisions and luck (``kiosk.table.review_desk``)."""
    READY = "ready"
    """The table before round 1: who opens and why, Start on both sides."""
    AUCTION = "auction"
    PLAY = "play"
    HANDOVER = "handover"
    SETTLEMENT = "settlement"
    """The table between rounds: the round's result, Continue on both sides."""
    MATCH_OVER = "match_over"


TABLE_SCREENS = (Screen.READY, Screen.AUCTION, Screen.PLAY, Screen.HANDOVER, Screen.SETTLEMENT, Screen.MATCH_OVER)
"""The table's scenes (``GameSession.screen``)."""


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
    replay_playing: bool = False
    """The replay plays itself, a step every ``players.REPLAY_STEP_NS``."""
    replay_due_ns: int | None = None
    """When auto-play shows its next step (None: from the next frame's time on)."""
    replay_players: tuple[int | None, int | None] = (None, None)
    names: dict[int, str] = field(default_factory=dict)
    """Player ids to names, for the replay's heading."""
    computer_levels: dict[int, int] = field(default_factory=dict)
    """The history's practice matches: match id to the computer's level."""
    manage: list[Player] = field(default_factory=list)
    """The owner's player management: every named player (name order)."""
    manage_page: int = 0
    managed: int | None = None
    """The player chosen on the management screen."""
    manage_action: str = ""
    """"" (choose an action), "delete" (confirm), "merge" (choose whom into), "merge-confirm"."""
    merge_target: int | None = None
    renaming: int | None = None
    """The player whose new name the keyboard types (None: the keyboard makes a new player)."""
    manage_notice: str = ""
    """What the last change did (a ``Text``)."""
    layout: str = "latin"
    """The keyboard's layout ("latin", "cyrillic", "hangul"; ``kiosk.table.layouts``): the player's own when it opens."""

    def chosen_ids(self) -> tuple[int | None, int | None]:
        """The seats' player ids (None: guest)."""
        a, b = self.chosen
        return (None if a is None else a.id, None if b is None else b.id)

    def next_upper(self) -> bool:
        """Whether the next letter typed is a capital."""
        auto = not self.typing or self.typing.endswith((" ", "-"))
        return auto != self.upper


@dataclass
class OwnerState:
    """The owner's screens (part of ``UiState``): the PIN keypad, the stop confirmation, the settings editor."""

    keypad: str | None = None
    """Why the PIN keypad is open: "exit" (the admin corner or key), "settings" (Edit); None: closed."""
    facing: int | None = None
    """The player the keypad is turned toward in table mode (the admin corner's side), None: upright."""
    digits: str = ""
    """The digits typed so far (shown as dots)."""
    error: str = ""
    """Why the last PIN was not taken (a ``Text``): wrong, or locked."""
    wrong: int = 0
    """Wrong PINs in a row (the keypad locks at ``pin_lock.MAX_WRONG``)."""
    rounds: int = 0
    """Rounds of ``MAX_WRONG`` wrong PINs since the last right one (each doubles the lock)."""
    locked_until_ns: int | None = None
    """The keypad takes no PIN before this time (after too many wrong ones)."""
    confirm_stop: bool = False
    """The right PIN was given during a match: "Stop the kiosk?" waits for Yes or No."""
    editing: dict[str, object] | None = None
    """The settings editor's values (keys of ``kiosk.owner.EDITABLE``); None: the editor is closed."""
    notice: str = ""
    """What the last Save did (a ``Text``), shown on the settings screen."""
    notice_ok: bool = False
    """Whether that Save succeeded."""


@dataclass
class UiState:
    """What the screen shows beyond the match: the screen, overlays, confirmations, notices."""

    screen: Screen = Screen.HOME
    help_open: bool = False
    confirm_resign: set[int] = field(default_factory=set)
    """Players whose Resign waits for Yes or No."""
    saving: Text | None = None
    """While results are not reaching the disk: what is wrong (the saving banner; None: saving)."""
    warnings: tuple[object, ...] = ()
    """Configuration, hardware, journal and start-up warnings: message values (``kiosk.i18n.messages.as_text``)."""
    legend: str = ""
    status_line: str = ""
    language: str = "en"
    """The host language: shared texts (configuration ``kiosk.language``, or the home screen's choice)."""
    player_languages: list[str | None] = field(default_factory=lambda: [None, None])
    """Each player's own language (None: the host language), chosen in their panel between rounds."""
    help_page: int = 0
    settings_page: int = 0
    """The settings screen's page (when its lines and warnings take more than one)."""
    panel: str | None = None
    """The serial panel's state ("connected", "handshaking", "disconnected", "incompatible"), or None without one."""
    help_language: str | None = None
    """The help's language when chosen on its tabs (None: the host language)."""
    help_facing: int | None = None
    """The player who opened the help (it faces them in table orientation; None: upright)."""
    facing: int | None = None
    """The seat whose half of the home screen opened the screen shown (settings, leaderboard, history,
    replay, level choice, and the settings' PIN keypad): it faces them in table orientation."""
    sheet_open: bool = False
    """The score sheet is open over the table's middle (``kiosk.ui.scenes.scoresheet``)."""
    sheet_facing: int | None = None
    """The player who opened the score sheet (it faces them in table orientation; None: upright)."""
    sheet_page: int = 0
    records: Records = field(default_factory=Records)
    """Named players: the seats' choices, the picker and keyboard, leaderboard, history, replay."""
    owner: OwnerState = field(default_factory=OwnerState)
    """The owner's PIN keypad, stop confirmation and settings editor."""

    def __post_init__(self) -> None:
        self.language = normalise(self.language)

    def player_language(self, player: int | None) -> str:
        """The language of texts for ``player`` (None: shared texts, the host language)."""
        if player is None:
            return self.language
        return self.player_languages[player] or self.language

    def set_host_language(self, language: str) -> None:
        """The home screen's choice: the host language, for both players and the help too."""
        self.language = normalise(language)
        self.player_languages = [None, None]
        self.help_language = None

    def next_player_language(self, player: int) -> None:
        """``player``'s language button: the next of the four."""
        self.player_languages[player] = next_language(self.player_language(player))

    def set_help_language(self, language: str) -> None:
        """The help's tabs: the help in ``language``, from its first page."""
        self.help_language = normalise(language)
        self.help_page = 0

    def open_sheet(self, player: int | None = None) -> None:
        """The score sheet, at the page of the latest rounds, facing ``player`` (None: upright)."""
        self.sheet_open, self.sheet_facing, self.sheet_page = True, player, -1

    def open_screen(self, screen: Screen, player: int | None) -> None:
        """Show ``screen`` facing ``player`` (the home screen's half it was opened from)."""
        self.screen, self.facing = screen, player

    def open_help(self, player: int | None = None) -> None:
        """The help opens at its first page, facing ``player`` in their language (None: the host's)."""
        if not self.help_open:
            self.help_page = 0
            self.help_facing = player
            self.help_language = None if player is None else self.player_languages[player]
        self.help_open = True


@dataclass(frozen=True, slots=True)
class ChipFlight:
    """Chips flying from the payer's stack to the payee's after a transfer."""

    payer: int
    payee: int
    points: int
    start_ns: int
    duration_ns: int = 700_000_000

    def progress(self, now_ns: int) -> float:
        """0 at the start, 1 when the chips have landed."""
        return min(1.0, max(0.0, (now_ns - self.start_ns) / self.duration_ns))
