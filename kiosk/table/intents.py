"""What a tap asks for: small frozen values that the screen's hotspots carry (no pygame here).

A scene draws buttons and leaves a hotspot per button with one of these intents; a tap hands the
intent to the scene stack (``kiosk.ui.stage``), whose scenes pass the ones they offer to the
controller (``kiosk.table.controller``), which changes the state. Tests tap by intent:
``tap(app, Start(0))`` or, for any of a kind, ``tap(app, TapTile)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Point, Tile


@dataclass(frozen=True, slots=True)
class Intent:
    """Base of every intent."""


# -- anywhere ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Noop(Intent):
    """A tap on an overlay's background: taken, and nothing happens (nothing beneath is hit)."""


@dataclass(frozen=True, slots=True)
class OpenHelp(Intent):
    """Open the rules help at its first page, facing ``player`` in their language (None: the host's,
    upright)."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class OpenScoreSheet(Intent):
    """Open the score sheet (every round's result and transfers) facing ``player`` (None: upright)."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class CloseScoreSheet(Intent):
    """Close the score sheet."""


@dataclass(frozen=True, slots=True)
class ScoreSheetPage(Intent):
    """Show the score sheet's page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class CloseHelp(Intent):
    """Close the rules help."""


@dataclass(frozen=True, slots=True)
class HelpPage(Intent):
    """Show the help's page ``page`` (0 is the first)."""

    page: int


@dataclass(frozen=True, slots=True)
class HelpLanguage(Intent):
    """Show the help in ``language`` (its tabs)."""

    language: str


@dataclass(frozen=True, slots=True)
class NewMatch(Intent):
    """A fresh match at the ready screen (home's New match)."""


@dataclass(frozen=True, slots=True)
class Rematch(Intent):
    """A fresh match with the same players (match over)."""


@dataclass(frozen=True, slots=True)
class GoHome(Intent):
    """Back to the home screen (the match, if any, is left; the seats become guests)."""


@dataclass(frozen=True, slots=True)
class OpenSettings(Intent):
    """The settings screen (at its first page), facing ``player`` (the home screen's half it was opened from)."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class SettingsPage(Intent):
    """Show the settings' page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class HostLanguage(Intent):
    """The home screen's language buttons: the host language, for both players too."""

    language: str


@dataclass(frozen=True, slots=True)
class PlayerLanguage(Intent):
    """A player's own language button: the next of the four."""

    player: int


# -- the match ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start(Intent):
    """Start (round 1) or Continue (between rounds), by ``player`` (None: the kiosk's START/CONTINUE button)."""

    player: int | None


@dataclass(frozen=True, slots=True)
class Reveal(Intent):
    """The hand-over's Reveal my tiles, by ``player``."""

    player: int


@dataclass(frozen=True, slots=True)
class TapTile(Intent):
    """``player`` tapped ``tile`` in their hand: pick it up, or place it."""

    player: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class TapPoint(Intent):
    """A lit point on the board: place the picked-up tile there."""

    point: Point


@dataclass(frozen=True, slots=True)
class DrawTile(Intent):
    """Draw from the boneyard (the sidebar's boneyard or the panel's Draw button)."""

    player: int | None


@dataclass(frozen=True, slots=True)
class Decline(Intent):
    """Decline to bid (the auction's first action)."""

    player: int


@dataclass(frozen=True, slots=True)
class Accept(Intent):
    """Accept the standing bid."""

    player: int


@dataclass(frozen=True, slots=True)
class StepBid(Intent):
    """Move the bid stepper by ``steps`` times 5."""

    steps: int


@dataclass(frozen=True, slots=True)
class PlaceBid(Intent):
    """Bid the stepper's amount."""

    player: int


@dataclass(frozen=True, slots=True)
class Resign(Intent):
    """Resign: asks ``player`` for a confirmation first."""

    player: int


@dataclass(frozen=True, slots=True)
class ConfirmResign(Intent):
    """Yes, ``player`` resigns."""

    player: int


@dataclass(frozen=True, slots=True)
class CancelResign(Intent):
    """No, ``player`` plays on."""

    player: int


# -- named players -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenPicker(Intent):
    """Who plays in ``seat``: open that seat's player picker."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClosePicker(Intent):
    """Close the picker, nothing changed."""


@dataclass(frozen=True, slots=True)
class PickPlayer(Intent):
    """The named player ``player_id`` (None: a guest) sits in ``seat``."""

    seat: int
    player_id: int | None


@dataclass(frozen=True, slots=True)
class PickerPage(Intent):
    """Show the picker's page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class NewPlayer(Intent):
    """Type a new player's name for ``seat`` (the keyboard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Key(Intent):
    """A letter, digit or sign typed on the keyboard (its case is the keyboard's)."""

    ch: str


@dataclass(frozen=True, slots=True)
class Shift(Intent):
    """The keyboard's Aa key: the next letter in the other case."""


@dataclass(frozen=True, slots=True)
class Backspace(Intent):
    """The keyboard's ← key."""


@dataclass(frozen=True, slots=True)
class CancelName(Intent):
    """Leave the keyboard, back to the picker's list."""


@dataclass(frozen=True, slots=True)
class ConfirmName(Intent):
    """The keyboard's OK: make the player (or say why not)."""


@dataclass(frozen=True, slots=True)
class ReplayPlay(Intent):
    """The replay's Play / Pause: step on by itself (from the first step when at the last), or stop."""


@dataclass(frozen=True, slots=True)
class ManagePlayers(Intent):
    """The leaderboard's Manage: the owner PIN, then the player management screen."""


@dataclass(frozen=True, slots=True)
class ChooseManaged(Intent):
    """On the management screen: choose ``player_id`` (to act on, or as the one to merge into)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class ManageAction(Intent):
    """The chosen player's action: "rename", "delete", "merge", "confirm" (Yes), "cancel"."""

    action: str


@dataclass(frozen=True, slots=True)
class ManagePage(Intent):
    """Show the management list's page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class OpenLeaderboard(Intent):
    """The leaderboard (at its first page), facing ``player`` (with its histories and replays)."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardPage(Intent):
    """Show the leaderboard's page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class OpenHistory(Intent):
    """A player's matches."""

    player_id: int


@dataclass(frozen=True, slots=True)
class HistoryPage(Intent):
    """Show the history's page ``page``."""

    page: int


@dataclass(frozen=True, slots=True)
class OpenReplay(Intent):
    """Step through a stored match."""

    match_id: int


@dataclass(frozen=True, slots=True)
class ReplayTo(Intent):
    """Show the replay's step ``step``."""

    step: int


@dataclass(frozen=True, slots=True)
class Back(Intent):
    """From a replay to its history, from a history to the leaderboard."""


# -- the owner ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PinDigit(Intent):
    """A digit on the owner's PIN keypad."""

    digit: str


@dataclass(frozen=True, slots=True)
class PinBackspace(Intent):
    """The keypad's ← key."""


@dataclass(frozen=True, slots=True)
class PinCancel(Intent):
    """Close the keypad, nothing done."""


@dataclass(frozen=True, slots=True)
class PinOk(Intent):
    """Check the PIN typed (then exit, ask to stop the match, or open the settings editor)."""


@dataclass(frozen=True, slots=True)
class ConfirmStop(Intent):
    """Yes, stop the kiosk: the match in progress ends without a result."""


@dataclass(frozen=True, slots=True)
class CancelStop(Intent):
    """No, the match goes on."""


@dataclass(frozen=True, slots=True)
class EditSettings(Intent):
    """The settings screen's Edit: asks for the PIN, then opens the editor."""


@dataclass(frozen=True, slots=True)
class StepSetting(Intent):
    """Move a number of the editor (``key``: from ``kiosk.owner.EDITABLE``) by ``steps`` of its step."""

    key: str
    steps: int


@dataclass(frozen=True, slots=True)
class NextChoice(Intent):
    """The editor's toggle for ``key``: on / off, table / upright, the next language."""

    key: str


@dataclass(frozen=True, slots=True)
class SaveSettings(Intent):
    """Write the editor's changes into the configuration file."""


@dataclass(frozen=True, slots=True)
class CancelSettings(Intent):
    """Close the editor, nothing written."""


# -- quick bids (the auction card, beside the stepper) -------------------------------------------


@dataclass(frozen=True, slots=True)
class MaxBid(Intent):
    """Set the bid stepper to the most the player to act can pay ("All I can afford"); +25 is ``StepBid(5)``."""


# -- the keyboard's layouts ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyboardLayout(Intent):
    """The keyboard's layout key: type in ``layout`` ("latin", "cyrillic", "hangul"; ``kiosk.table.layouts``)."""

    layout: str


# -- practice against the computer (kiosk.table.computer) ------------------------------------


@dataclass(frozen=True, slots=True)
class OpenPractice(Intent):
    """Home's "Play the computer": the choice of level (and language), facing ``player``."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class PlayComputer(Intent):
    """A practice match against the computer at ``level`` (1 Beginner to 4 Expert); the person plays ``seat``
    (the edge the level choice faced: 1 from Player 2's half of the home screen), the computer the other."""

    level: int
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Hint(Intent):
    """``player`` asks what the computer's strongest level would play (practice matches only)."""

    player: int


# -- a bid that takes the whole balance (the auction card asks first) --------------------------


@dataclass(frozen=True, slots=True)
class ConfirmAllIn(Intent):
    """Yes, ``player`` bids although, accepted, the bid takes their whole balance and loses the match."""

    player: int


@dataclass(frozen=True, slots=True)
class CancelAllIn(Intent):
    """No, ``player`` bids less."""

    player: int


@dataclass(frozen=True, slots=True)
class PinStopMatch(Intent):
    """The keypad over a match in progress: with the right PIN, stop the match unrated (the kiosk stays)."""


# -- a physical button (kiosk.table.buttons) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ButtonUnused(Intent):
    """A button of ``player`` that means nothing now: the screen says where to act instead."""

    player: int


# -- club events (issue 25) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartPairing(Intent):
    """The home screen's Start for the club event's pairing ``pairing`` (its UUID): the ready screen with
    its two players in their seats and the event's settings."""

    pairing: str


@dataclass(frozen=True, slots=True)
class Berserk(Intent):
    """At an arena's ready screen, before the first Start: ``player`` halves their own bank for an extra
    point on a win (again: takes it back)."""

    player: int


@dataclass(frozen=True, slots=True)
class JoinEvent(Intent):
    """The home screen's "Join <event>" on ``seat``'s half: the player picker, to join the event ``event``
    (its UUID; a press for an event no longer offered does nothing)."""

    seat: int
    event: str


@dataclass(frozen=True, slots=True)
class JoinAs(Intent):
    """In the picker opened by ``JoinEvent``: the named player ``player_id`` joins the event the picker shows."""

    player_id: int


@dataclass(frozen=True, slots=True)
class JoinNamed(Intent):
    """The keyboard's OK in the picker opened by ``JoinEvent``: make the typed player (the ready screen's
    rules for a new name) and join them to the event the picker shows (or say why the name is refused)."""


# -- the post-match review (kiosk.table.review_desk) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenReview(Intent):
    """The result card's Review (or ``player``'s RAISE): the review screen, its job started between
    matches; on the review screen, ``player``'s next costly decision (None: the upright card's)."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class ReviewPick(Intent):
    """Show ``player``'s costly decision number ``index`` (0 the costliest) on their half."""

    player: int
    index: int


@dataclass(frozen=True, slots=True)
class CloseReview(Intent):
    """Back from the review to the result card (a review still running goes on)."""
