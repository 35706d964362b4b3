"""What each intent does, by area (no pygame here): the parts of the controller's one dispatch table.

Every input (a tap's hotspot, a GPIO or serial button, a simulator key: ``kiosk.table.buttons``)
is an intent; the controller looks its type up once in a table made of these parts, after its
guards (``Controller.refusal``):

- ``INTERFACE``: languages and pages (the interface's texts are made again after them);
- ``DESK``: the named players' screens (picker, keyboard, leaderboard, history, replay, management);
- ``MATCH``: the match at the table (its session, and the Resign confirmations of the interface).

The owner's part is ``kiosk.table.owner_screens.OWNER``, the screens' own the controller's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.table import intents as do
from kiosk.table.players import PlayerDesk
from kiosk.table.session import GameSession
from kiosk.table.state import UiState

INTERFACE: dict[type[do.Intent], Callable[[UiState, Any], object]] = {
    do.HostLanguage: lambda ui, i: ui.set_host_language(i.language),
    do.PlayerLanguage: lambda ui, i: ui.next_player_language(i.player),
    do.HelpLanguage: lambda ui, i: ui.set_help_language(i.language),
    do.HelpPage: lambda ui, i: setattr(ui, "help_page", max(0, i.page)),
    do.SettingsPage: lambda ui, i: setattr(ui, "settings_page", max(0, i.page)),
}
"""Languages and pages: the interface only."""


def _open_leaderboard(desk: PlayerDesk, ui: UiState, intent: do.OpenLeaderboard) -> None:
    desk.open_leaderboard()
    ui.facing = intent.player  # the leaderboard, its histories and replays face whoever opened it


DESK: dict[type[do.Intent], Callable[[PlayerDesk, UiState, Any], object]] = {
    do.OpenPicker: lambda desk, ui, i: desk.open_picker(i.seat),
    do.ClosePicker: lambda desk, ui, i: desk.close_picker(),
    do.PickPlayer: lambda desk, ui, i: desk.pick(i.player_id),
    do.PickerPage: lambda desk, ui, i: desk.picker_page(i.page),
    do.NewPlayer: lambda desk, ui, i: desk.new_player(),
    do.Key: lambda desk, ui, i: desk.key(i.ch),
    do.Shift: lambda desk, ui, i: desk.shift(),
    do.KeyboardLayout: lambda desk, ui, i: desk.keyboard_layout(i.layout),
    do.Backspace: lambda desk, ui, i: desk.backspace(),
    do.CancelName: lambda desk, ui, i: desk.cancel_name(),
    do.ConfirmName: lambda desk, ui, i: desk.confirm_name(),
    do.OpenLeaderboard: _open_leaderboard,
    do.LeaderboardPage: lambda desk, ui, i: desk.leaderboard_page(i.page),
    do.OpenHistory: lambda desk, ui, i: desk.open_history(i.player_id),
    do.HistoryPage: lambda desk, ui, i: desk.history_page(i.page),
    do.OpenReplay: lambda desk, ui, i: desk.open_replay(i.match_id),
    do.ReplayTo: lambda desk, ui, i: desk.replay_to(i.step),
    do.ReplayPlay: lambda desk, ui, i: desk.toggle_autoplay(),
    do.ChooseManaged: lambda desk, ui, i: desk.choose_managed(i.player_id),
    do.ManageAction: lambda desk, ui, i: desk.manage_action(i.action),
    do.ManagePage: lambda desk, ui, i: desk.manage_page(i.page),
    do.Back: lambda desk, ui, i: desk.back(),
}
"""The named players' screens (a journal that fails under them: ``Controller``)."""


def _confirm_resign(s: GameSession, ui: UiState, intent: do.ConfirmResign, arrival: int) -> None:
    ui.confirm_resign.discard(intent.player)
    s.resign(intent.player, arrival)


MATCH: dict[type[do.Intent], Callable[[GameSession, UiState, Any, int], object]] = {
    do.Start: lambda s, ui, i, at: s.start(i.player, at),
    do.Reveal: lambda s, ui, i, at: s.reveal(i.player, at),
    do.Accept: lambda s, ui, i, at: s.accept(i.player, at),
    do.Decline: lambda s, ui, i, at: s.decline(i.player, at),
    do.PlaceBid: lambda s, ui, i, at: s.place_bid(i.player, at),
    do.ButtonUnused: lambda s, ui, i, at: s.unused_button(i.player, at),
    do.TapTile: lambda s, ui, i, at: s.select(i.tile, at),
    do.TapPoint: lambda s, ui, i, at: s.place_at(i.point, at),
    do.DrawTile: lambda s, ui, i, at: s.draw(at),
    do.StepBid: lambda s, ui, i, at: s.step_bid(i.steps),
    do.MaxBid: lambda s, ui, i, at: s.bid_most(),
    do.ConfirmAllIn: lambda s, ui, i, at: s.confirm_all_in(at),
    do.CancelAllIn: lambda s, ui, i, at: s.cancel_all_in(),
    do.Resign: lambda s, ui, i, at: ui.confirm_resign.add(i.player),
    do.CancelResign: lambda s, ui, i, at: ui.confirm_resign.discard(i.player),
    do.ConfirmResign: _confirm_resign,
}
"""The match's intents, carried out at ``at`` (the arrival the match takes); nothing without a match."""

ON_TO_ACT = (do.StepBid, do.MaxBid, do.PlaceBid, do.Accept, do.Decline, do.TapTile, do.TapPoint, do.DrawTile,
             do.Reveal, do.ConfirmAllIn)
"""The match's taps that act for whoever is to act."""
