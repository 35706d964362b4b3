"""The kiosk's controller without a screen (no pygame): the match lifecycle, the journal, the stall
watch, chip flights, the idle return, the admin exit and what intents and buttons do."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from kiosk_support import playing

from engine import NS_PER_S, EndReason, Phase, Transfer
from hardware.events import Button, InputEvent
from kiosk.config import KioskConfig, MatchSettings
from kiosk.i18n import Text, translator
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.table.controller import ADMIN_EXIT_STATUS, Controller
from kiosk.table.state import Screen
from kiosk.timesource import FakeClock

S = NS_PER_S


def test_the_controller_and_its_state_are_pygame_free() -> None:
    code = (
        "import sys\n"
        "import kiosk.table, kiosk.table.controller, kiosk.table.intents, kiosk.table.players, "
        "kiosk.table.session, kiosk.table.state\n"
        "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules if 'pygame' in m)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def make(journal: Journal | None = None, clock: FakeClock | None = None, **match: object) -> tuple[Controller, FakeClock]:
    config = replace(KioskConfig(), match=replace(MatchSettings(handover=False), **match))  # type: ignore[arg-type]
    clock = clock or FakeClock(10 * S)
    return Controller(config, clock, rng=random.Random(3), journal=journal, boot_id="boot-1"), clock


def press(c: Controller, player: int | None, button: Button, at: int) -> None:
    c.touched(at)
    c.press(InputEvent(player, button, at, "test"))


def test_a_new_match_waits_at_the_ready_screen_and_starts_from_either_player() -> None:
    c, clock = make()
    assert c.ui.screen == Screen.HOME and c.session is None
    press(c, 0, Button.RAISE, clock.now())  # home: only Start / ACCEPT begins a match
    assert c.session is None
    press(c, 1, Button.ACCEPT, clock.now())
    assert c.ui.screen == Screen.MATCH and c.session is not None and playing(c).screen == "ready"
    before = c.screen_key(clock.now())
    c.handle(do.Start(0), clock.advance(1))
    assert playing(c).match.round == 1 and playing(c).match.phase is not Phase.READY
    assert c.screen_key(clock.now()) != before  # the screen must show it


def test_the_match_is_entered_in_the_journal_at_its_first_start_with_the_players_then_seated(
        journal: Journal) -> None:
    anna = Players(journal).create("Anna")
    c, clock = make(journal)
    c.handle(do.NewMatch(), clock.now())
    assert journal.matches() == []  # not yet: the seats can still change
    c.handle(do.OpenPicker(1), clock.now())
    assert c.ui.records.picker == 1 and [p.name for p in c.ui.records.choices] == ["Anna"]
    press(c, 0, Button.ACCEPT, clock.advance(1))  # the buttons wait while a name is picked
    assert c.session is not None and playing(c).match.round == 0 and journal.matches() == []
    c.handle(do.PickPlayer(1, anna.id), clock.now())
    assert c.ui.records.chosen == [None, anna] and c.ui.records.picker is None
    c.handle(do.Start(0), clock.advance(1))
    (record,) = journal.matches()
    assert record.players == (None, anna.id)
    c.handle(do.Resign(playing(c).match.to_act or 0), clock.advance(1))
    c.handle(do.ConfirmResign(playing(c).match.to_act or 0), clock.now())
    c.update(clock.now())
    assert len(journal.matches()) == 1 and journal.matches()[0].finished


def test_an_unfinished_match_is_resumed_at_start_up(journal: Journal) -> None:
    anna, ben = Players(journal).create("Anna"), Players(journal).create("Ben")
    c, clock = make(journal)
    c.new_match()
    c.ui.records.chosen = [anna, ben]
    c.handle(do.Start(1), clock.advance(1))
    c.update(clock.now())
    assert c.session is not None
    before = playing(c).match.to_dict()
    again, _ = make(journal, clock)  # the kiosk restarted (same boot, a moment later)
    assert again.ui.screen == Screen.MATCH and again.session is not None
    assert again.ui.records.chosen == [anna, ben]
    restored = playing(again).match.to_dict()
    assert restored["hands"] == before["hands"] and restored["round"] == before["round"]
    assert any("restarted" in m.text for m in playing(again).messages)


def test_a_stalled_loop_aborts_the_running_match_and_says_why() -> None:
    c, clock = make()
    c.new_match()
    c.handle(do.Start(0), clock.advance(1))
    c.heartbeat(clock.now())
    s = playing(c)
    assert s is not None
    shown = c.screen_key(clock.now())
    c.heartbeat(clock.advance(1.5))
    assert not s.match.is_over
    c.heartbeat(clock.advance(2.5))  # longer than the 2 s limit while a clock ran
    reason = "the kiosk could not take commands for 2.5 s while a clock ran (the limit is 2.0 s)"
    assert s.match.outcome is not None and s.match.outcome.reason is EndReason.ABORTED
    assert s.match.outcome.detail == reason and [m.text for m in s.live_messages(clock.now())] == [f"Match aborted: {reason}"]
    assert c.screen_key(clock.now()) != shown  # the screen must show it
    # the outcome keeps the message id and its parameters: the match-over card says it in any language
    o = s.match.outcome
    assert o.detail_template == "the kiosk could not take commands for {gap} while a clock ran (the limit is {limit})"
    assert dict(o.detail_params) == {"gap": "2.5 s", "limit": "2.0 s"}
    korean = translator("ko")(Text(o.detail_template, dict(o.detail_params)))
    assert "2.5 s" in korean and "2.0 s" in korean and korean != reason


def test_no_clock_running_means_no_stall() -> None:
    c, clock = make()
    c.new_match()
    c.heartbeat(clock.now())
    c.heartbeat(clock.advance(60))
    assert c.session is not None and not playing(c).match.is_over


def test_a_transfer_flies_chips_from_the_payer_to_the_payee_for_0_7_s() -> None:
    c, clock = make()
    c.new_match()
    s = playing(c)
    assert s is not None
    for _ in range(400):  # random play by buttons and taps until points move
        if any(isinstance(e, Transfer) for e in s.events):
            break
        m = s.match
        legal = m.legal_actions()
        now = clock.advance(1)
        c.heartbeat(now)
        action = random.Random(len(s.events)).choice(legal)
        s.command(action, now)
    transfer = next(e for e in reversed(s.events) if isinstance(e, Transfer))
    c.update(clock.now())
    assert c.flight is not None
    assert (c.flight.payer, c.flight.payee, c.flight.points) == (transfer.payer, transfer.payee, transfer.points)
    assert c.next_due_ns(clock.now()) <= clock.now() + S // c.config.display.fps  # the next frame of the flight
    c.update(clock.advance(0.69))
    assert c.flight is not None
    c.update(clock.advance(0.02))
    assert c.flight is None


def test_the_idle_return_goes_home_between_matches_but_never_leaves_a_match_in_progress() -> None:
    c, clock = make(bank_seconds=1000)
    c.new_match()
    c.update(clock.advance(179))
    assert c.ui.screen == Screen.MATCH
    c.update(clock.advance(2))  # three minutes without input at the ready screen
    assert c.ui.screen == Screen.HOME and c.session is None
    c.handle(do.OpenSettings(), clock.now())
    c.touched(clock.now())
    c.update(clock.advance(181))
    assert c.ui.screen == Screen.HOME
    c.new_match()
    c.handle(do.Start(0), clock.advance(1))
    c.touched(clock.now())
    c.update(clock.advance(600))  # ten minutes of thinking: the table stays
    assert c.ui.screen == Screen.MATCH and c.session is not None and not playing(c).match.is_over
    c.update(clock.advance(500))  # the clock ran out: the match is over, and nobody touched anything since
    assert c.ui.screen == Screen.HOME and c.session is None


def test_holding_the_admin_corner_long_enough_leaves_with_status_10() -> None:
    c, clock = make()
    c.simulator = True  # no PIN file: the simulator leaves without one (the keypad: test_kiosk_owner_screens.py)
    c.hold("mouse", clock.now())
    c.update(clock.advance(4.9))
    assert c.running
    assert c.next_due_ns(clock.now()) == clock.now() + int(0.1 * S)  # wakes when the hold is long enough
    c.release("mouse")
    c.update(clock.advance(10))
    assert c.running and c.exit_status == 0
    c.hold(("finger", 1), clock.now())
    c.update(clock.advance(5))
    assert not c.running and c.exit_status == ADMIN_EXIT_STATUS


def test_help_and_settings_open_at_their_first_page() -> None:
    c, clock = make()
    c.handle(do.OpenHelp(), clock.now())
    c.handle(do.HelpLanguage("uk"), clock.now())
    c.handle(do.HelpPage(3), clock.now())
    assert (c.ui.help_open, c.ui.help_page, c.ui.help_language) == (True, 3, "uk")
    c.handle(do.CloseHelp(), clock.now())
    press(c, None, Button.HELP, clock.now())  # the kiosk's help button opens it again: from the start
    assert (c.ui.help_open, c.ui.help_page, c.ui.help_language) == (True, 0, None)
    press(c, None, Button.HELP, clock.now())
    assert not c.ui.help_open
    c.handle(do.OpenSettings(), clock.now())
    c.handle(do.SettingsPage(2), clock.now())
    c.handle(do.GoHome(), clock.now())
    c.handle(do.OpenSettings(), clock.now())
    assert c.ui.screen == Screen.SETTINGS and c.ui.settings_page == 0


def test_languages_make_the_texts_again_and_match_intents_need_a_match() -> None:
    c, clock = make()
    assert "Language: English" in c.ui.status_line
    c.handle(do.HostLanguage("uk"), clock.now())
    assert "Мова: Українська" in c.ui.status_line and c.ui.player_language(1) == "uk"
    shown = c.screen_key(clock.now())
    c.handle(do.Start(0), clock.now())  # no match: nothing happens, nothing to redraw
    c.handle(do.Noop(), clock.now())
    assert c.screen_key(clock.now()) == shown
    c.new_match()
    c.handle(do.PlayerLanguage(1), clock.now())
    assert c.ui.player_language(1) == "id" and c.ui.player_language(0) == "uk"


def test_resign_asks_first_and_a_tap_is_never_earlier_than_the_last_command() -> None:
    c, clock = make()
    c.new_match()
    c.handle(do.Start(0), clock.advance(1))
    s = playing(c)
    assert s is not None
    last = s.match.last_command_ns
    assert last is not None and c.arrival(last - 5) == last
    player = s.match.to_act
    assert player is not None
    c.handle(do.Resign(player), clock.advance(1))
    assert c.ui.confirm_resign == {player} and not s.match.is_over
    c.handle(do.CancelResign(player), clock.now())
    assert c.ui.confirm_resign == set() and not s.match.is_over
    c.handle(do.Resign(player), clock.now())
    c.handle(do.ConfirmResign(player), clock.now())
    assert s.match.outcome is not None and s.match.outcome.reason is EndReason.RESIGN
    assert s.match.outcome.winner == 1 - player
    c.handle(do.Rematch(), clock.now())
    assert c.session is not s and c.session is not None and playing(c).screen == "ready"


def test_the_loop_sleeps_until_the_next_clock_digit() -> None:
    c, clock = make()
    assert c.next_due_ns(clock.now()) == clock.now() + S  # nothing moves: a second
    c.new_match()
    c.handle(do.Start(0), clock.advance(1))
    now = clock.advance(0.25)
    assert c.next_due_ns(now) == now + int(0.75 * S) + 1  # the delay shows 9 from then
