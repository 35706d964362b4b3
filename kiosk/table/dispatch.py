"""Which call an intent of the named players' screens or of the match makes (no pygame here).

``desk_intent`` hands the player screens' intents (picker, keyboard, leaderboard, history, replay)
to the ``PlayerDesk``; ``match_intent`` turns the match's taps into the session's calls. Each
returns False for an intent that is not its own.
"""

from __future__ import annotations

from hardware.events import Button
from kiosk.table import intents as do
from kiosk.table.players import PlayerDesk
from kiosk.table.session import GameSession
from kiosk.table.state import UiState


def desk_intent(desk: PlayerDesk, intent: do.Intent, ui: UiState | None = None) -> bool:
    """Carry out a player screen's ``intent`` at ``desk``; False if it is not one of theirs."""
    match intent:
        case do.OpenPicker(seat):
            desk.open_picker(seat)
        case do.ClosePicker():
            desk.close_picker()
        case do.PickPlayer(_, player_id):
            desk.pick(player_id)
        case do.PickerPage(page):
            desk.picker_page(page)
        case do.NewPlayer():
            desk.new_player()
        case do.Key(ch):
            desk.key(ch)
        case do.Shift():
            desk.shift()
        case do.KeyboardLayout(name):
            desk.keyboard_layout(name)
        case do.Backspace():
            desk.backspace()
        case do.CancelName():
            desk.cancel_name()
        case do.ConfirmName():
            desk.confirm_name()
        case do.OpenLeaderboard(player):
            desk.open_leaderboard()
            if ui is not None:  # the leaderboard, its histories and replays face whoever opened it
                ui.facing = player
        case do.LeaderboardPage(page):
            desk.leaderboard_page(page)
        case do.OpenHistory(player_id):
            desk.open_history(player_id)
        case do.HistoryPage(page):
            desk.history_page(page)
        case do.OpenReplay(match_id):
            desk.open_replay(match_id)
        case do.ReplayTo(step):
            desk.replay_to(step)
        case do.ReplayPlay():
            desk.toggle_autoplay()
        case do.ChooseManaged(player_id):
            desk.choose_managed(player_id)
        case do.ManageAction(action):
            desk.manage_action(action)
        case do.ManagePage(page):
            desk.manage_page(page)
        case do.Back():
            desk.back()
        case _:
            return False
    return True


def match_intent(s: GameSession, ui: UiState, intent: do.Intent, arrival: int) -> bool:
    """Carry out a match tap's ``intent`` that arrived at ``arrival``; False if it is not one.

    (Start enters the match in the journal first: the controller does that before calling.)"""
    match intent:
        case do.Start(player) | do.Reveal(player) | do.Accept(player):
            s.press(player, Button.ACCEPT, arrival)
        case do.Decline(player):
            s.press(player, Button.DECLINE, arrival)
        case do.TapTile(_, tile):
            s.select(tile, arrival)
        case do.TapPoint(point):
            s.place_at(point, arrival)
        case do.DrawTile():
            s.draw(arrival)
        case do.StepBid(steps):
            s.step_bid(steps)
        case do.MaxBid():
            s.bid_most()
        case do.PlaceBid():
            s.submit_bid(arrival)
        case do.ConfirmAllIn():
            s.confirm_all_in(arrival)
        case do.CancelAllIn():
            s.cancel_all_in()
        case do.Resign(player):
            ui.confirm_resign.add(player)
        case do.CancelResign(player):
            ui.confirm_resign.discard(player)
        case do.ConfirmResign(player):
            ui.confirm_resign.discard(player)
            s.resign(player, arrival)
        case _:
            return False
    return True
