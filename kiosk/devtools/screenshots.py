"""``python -m kiosk.devtools.screenshots``: a PNG of every screen, at several sizes, in both orientations, in every language.

Runs headless (SDL's dummy video driver) with a fake clock and fixed random seeds, so the same
command always draws the same pictures. Look at them before calling a screen done.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from engine import NS_PER_S, Action, Bid, Match, Phase, Play, Resign, Start, Transfer, shuffle_deal
from kiosk.app import App
from kiosk.config import KioskConfig
from kiosk.devtools.event_shots import event_scenes
from kiosk.devtools.random_play import LINK_SEED, LIVE_OPENINGS, LIVE_SEEDS, board_has_link, play_live, play_until
from kiosk.devtools.review_shots import review_scenes
from kiosk.i18n import LANGUAGES, T, next_language
from kiosk.owner import SET_PIN_HINT, LoadedPin, OwnerPin
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.recorder import new_recorded_match
from kiosk.table import intents as do
from kiosk.table.computer import InlineExecutor
from kiosk.table.session import GameSession, match_config
from kiosk.table.state import OwnerState
from kiosk.timesource import FakeClock
from kiosk.ui import layout

SIZES = ((800, 480), (1280, 800))
_NO_PIN = T("no owner PIN is set ({path} is missing), so the owner screens are locked; set one with: {command}",
            path="/etc/spectacular-bid/owner-pin", command=SET_PIN_HINT)
ORIENTATIONS = ("table", "upright")


DEMO_PLAYERS = ("Anna", "Bogdan", "Chloe", "Dae-jung", "Eko", "Fenna")
DEMO_MATCHES: tuple[tuple[int, int | None, int | str], ...] = ((0, 1, 1), (1, 2, 2), (0, 2, 3), (3, None, 4), (0, 1, "resign"), (4, 5, 6), (0, 3, 7), (5, 0, 8),
                (1, 0, 9), (2, 4, 10))
"""(seat 1, seat 2 (None: a guest), seed or "resign") of each demonstration match."""
DEMO_PRACTICE: tuple[tuple[int, int, int], ...] = ((4, 3, 21), (4, 4, 22), (4, 1, 23))
"""(player, the computer's level, seed) of each demonstration practice match (Eko's history)."""
_DEMO: list[Journal] = []


def play_recorded(journal: Journal, players: tuple[int | None, int | None], seed: int | str, start_ns: int,
                  wall: float, computer_level: int | None = None) -> int:
    """A whole match between ``players`` by random legal actions (3 s apart), recorded; returns its id
    (``computer_level``: a practice match, the computer in seat 2)."""
    config = replace(match_config(KioskConfig().match), balances=(40, 40), handover=False)
    match, recorder = new_recorded_match(journal, config, players, "screenshots", wall_clock=lambda: wall,
                                         computer_level=computer_level)
    rng = random.Random(seed if isinstance(seed, int) else 99)
    now = start_ns
    for turn in range(3000):
        if match.is_over:
            break
        now += 3 * NS_PER_S
        action: Action
        if seed == "resign" and turn >= 12 and match.phase is Phase.PLAY and match.to_act is not None:
            action = Resign(match.to_act)
        else:
            action = rng.choice(match.legal_actions())
        if isinstance(action, Start):
            action = Start(None, shuffle_deal(rng))
        match.apply(action, now)
        recorder.sync(match, now)
    assert recorder.match_id is not None
    return recorder.match_id


def demo_journal() -> Journal:
    """A journal in a temporary folder with a few named players and their matches (made once per process)."""
    if not _DEMO:
        folder = tempfile.TemporaryDirectory(prefix="spectacular-bid-shots-")
        journal = Journal.open(Path(folder.name) / "journal.sqlite3")
        players = Players(journal)
        ids = [players.create(name, wall_s=1_717_000_000).id for name in DEMO_PLAYERS]
        for i, (a, b, seed) in enumerate(DEMO_MATCHES):
            play_recorded(journal, (ids[a], None if b is None else ids[b]), seed, (i + 1) * 10_000 * NS_PER_S,
                          1_717_200_000 + i * 5400)
        for i, (a, level, seed) in enumerate(DEMO_PRACTICE):
            play_recorded(journal, (ids[a], None), seed, (i + 20) * 10_000 * NS_PER_S, 1_717_300_000 + i * 5400,
                          computer_level=level)
        _DEMO.append(journal)

        def cleanup() -> None:
            journal.close()
            folder.cleanup()

        atexit.register(cleanup)
    return _DEMO[0]


def with_journal(app: App) -> None:
    """Give the app the demonstration journal (names, leaderboard, history, replay)."""
    journal = demo_journal()
    if app.controller.journal is not journal:
        app.controller.use_journal(journal)


def _fresh(app: App, **changes: object) -> GameSession:
    app.controller.new_match()
    s = app.session
    assert s is not None
    if changes:
        s.adopt(Match(replace(match_config(app.config.match), **changes), boot_id=app.controller.boot_id))  # type: ignore[arg-type]
    return s


def scenes(app: App, clock: FakeClock) -> dict[str, Callable[[], None]]:
    """Every screen to photograph, each as a function that puts the app in that state.

    The app gets a demonstration journal (as the kiosk has one): the ready screens offer names."""
    with_journal(app)

    def home() -> None:
        app.controller.go_home()

    def settings() -> None:
        app.controller.go_home()
        app.do(do.OpenSettings(), clock.now())

    def home_help() -> None:
        app.controller.go_home()
        app.do(do.OpenHelp(), clock.now())

    def ready() -> None:
        _fresh(app)

    def ready_languages() -> None:  # each player in a language of their own (neither the host's)
        _fresh(app)
        for player in (0, 1):
            app.ui.player_languages[player] = next_language(next_language(app.ui.language) if player else app.ui.language)
        app.controller.changed()

    def ready_auction() -> None:
        _fresh(app, jockey=1)  # as after a domino by player 2

    def auction_first() -> None:
        s = _fresh(app, jockey=0, handover=False)
        s.command(Start(None), clock.advance(1))

    def auction_raise() -> None:
        auction_first()
        s = app.session
        assert s is not None
        s.command(Bid(1, 15), clock.advance(4))

    def handover() -> None:
        s = _fresh(app, handover=True)
        s.command(Start(None), clock.advance(1))

    def play_opening() -> None:
        s = _fresh(app, handover=False)
        s.command(Start(None), clock.advance(1))

    def play_selected() -> None:
        s = _fresh(app, handover=False)
        play_until(s, clock, lambda m: m.phase is Phase.PLAY and len(m.layout) >= 5
                   and any(len([a for a in m.legal_actions() if isinstance(a, Play) and a.tile == t]) > 1
                           for t in m.hand(m.to_act or 0)), seed=11)
        m = s.match
        for t in m.hand(m.to_act or 0):
            if len([a for a in m.legal_actions() if isinstance(a, Play) and a.tile == t]) > 1:
                s.select(t, clock.advance(1))
                break

    def play_late() -> None:
        s = _fresh(app, handover=False, balances=(300, 300))
        play_until(s, clock, lambda m: m.phase is Phase.PLAY and len(m.layout) >= 17, seed=5)

    def play_link() -> None:  # a walled-in end moved into free room, with its link (docs/board-layout.md)
        s = _fresh(app, handover=False, balances=(300, 300))
        play_until(s, clock, lambda m: m.phase is Phase.PLAY and board_has_link(app, m), seed=LINK_SEED)

    def play_score() -> None:
        s = _fresh(app, handover=False)
        play_until(s, clock, lambda m: len(s.events) > 0 and isinstance(s.events[-1], Transfer)
                   and s.events[-1].points >= 10, seed=4)
        event = s.events[-1]
        assert isinstance(event, Transfer)
        app.controller.show_flight(event, clock.now() - 300_000_000)

    def play_help() -> None:
        play_late()
        app.do(do.OpenHelp(), clock.now())

    def help_player2() -> None:  # Player 2 opened the rules from their half: turned toward them, in their language
        play_late()
        app.ui.player_languages[1] = "ko" if app.ui.language != "ko" else "uk"
        app.do(do.OpenHelp(1), clock.now())

    def help_counting() -> None:  # the page with the first worked layouts, over the play screen
        play_help()
        app.draw(clock.now())
        for page in range(1, 30):
            if do.HelpPage(page) in {s.intent for s in app.hotspots}:
                app.do(do.HelpPage(page), clock.now())
                app.draw(clock.now())
                if app.stage.help_has_figures():
                    return

    def resign_confirm() -> None:
        play_opening()
        app.do(do.Resign(0), clock.now())

    def settlement_domino() -> None:
        s = _fresh(app, handover=False, balances=(300, 300))
        play_until(s, clock, lambda m: m.phase is Phase.READY and m.round > 0 and m.jockey is not None, seed=3)

    def settlement_blocked() -> None:
        for seed in range(200):  # the first seed whose match has a blocked round
            s = _fresh(app, handover=False, balances=(300, 300))
            if play_until(s, clock, lambda m: m.phase is Phase.READY and m.round > 0 and m.jockey is None
                          and not m.is_over, seed=seed, limit=400):
                return

    def over_balance() -> None:
        s = _fresh(app, handover=False, balances=(40, 40))
        play_until(s, clock, lambda m: m.is_over, seed=2)

    def over_time() -> None:
        s = _fresh(app, handover=False)
        s.command(Start(None), clock.advance(1))
        s.tick(clock.advance(200))

    def over_aborted() -> None:
        s = _fresh(app, handover=False)
        s.command(Start(None), clock.advance(1))
        s.match.abort(clock.advance(1), "the machine restarted while a clock was running")

    def score_sheet() -> None:  # during a match, opened by Player 2 from their half (turned toward them)
        play_late()
        app.do(do.OpenScoreSheet(1), clock.now())

    def score_sheet_over() -> None:  # after the match, opened by Player 1
        over_balance()
        app.do(do.OpenScoreSheet(0), clock.now())

    def named(first: str | None, second: str | None) -> Players:
        with_journal(app)
        app.controller.go_home()
        assert app.controller.journal is not None
        players = Players(app.controller.journal)
        _fresh(app)
        app.ui.records.chosen = [None if n is None else players.find(n) for n in (first, second)]
        return players

    def ready_names() -> None:  # one named player, one guest
        named("Anna", None)

    def picker() -> None:  # player 2 picks (turned toward them in table mode); Anna sits in seat 1
        named("Anna", None)
        app.do(do.OpenPicker(1), clock.now())

    def keyboard() -> None:  # player 1 types a new name
        named(None, "Bogdan")
        app.do(do.OpenPicker(0), clock.now())
        app.do(do.NewPlayer(0), clock.now())
        for ch in "GUSTAV":
            app.do(do.Key(ch), clock.now())

    def keyboard_taken() -> None:  # a name that is taken: the reason under the field
        named(None, None)
        app.do(do.OpenPicker(0), clock.now())
        app.do(do.NewPlayer(0), clock.now())
        for ch in "CHLOE":
            app.do(do.Key(ch), clock.now())
        app.do(do.ConfirmName(), clock.now())

    def leaderboard() -> None:
        with_journal(app)
        app.controller.go_home()
        app.do(do.OpenLeaderboard(), clock.now())

    def history() -> None:
        leaderboard()
        first = app.ui.records.board[0].player
        app.do(do.OpenHistory(first.id), clock.now())

    def replay() -> None:  # a step in the middle of a round
        history()
        row = next(h for h in app.ui.records.history if h.result in ("win", "loss") and h.reason == "balance")
        app.do(do.OpenReplay(row.match_id), clock.now())
        steps = app.ui.records.replay
        middle = next(i for i, st in enumerate(steps) if st.step.get("do") == "play" and len(st.match.layout) >= 6)
        app.do(do.ReplayTo(middle), clock.now())

    def replay_end() -> None:
        replay()
        app.do(do.ReplayTo(len(app.ui.records.replay) - 1), clock.now())

    def players_manage() -> None:  # the owner's player management (past the PIN), a player chosen
        leaderboard()
        app.controller.desk.open_manage()
        first = app.ui.records.manage[0]
        app.do(do.ChooseManaged(first.id), clock.now())

    def players_delete() -> None:
        players_manage()
        app.do(do.ManageAction("delete"), clock.now())

    def players_merge() -> None:  # merging the first player into the second: the question before it
        players_manage()
        app.do(do.ManageAction("merge"), clock.now())
        app.do(do.ChooseManaged(app.ui.records.manage[1].id), clock.now())

    def players_rename() -> None:
        players_manage()
        app.do(do.ManageAction("rename"), clock.now())

    def owner(pin: bool = True) -> None:  # the owner's screens start afresh, with a PIN (4821) or none
        app.ui.owner = OwnerState()
        desk = app.controller.owner
        desk.pin = LoadedPin(OwnerPin.new("4821", iterations=10_000)) if pin else LoadedPin(None, _NO_PIN)

    def keypad() -> None:  # held the owner's area (Player 1's edge) during a match: facing that edge
        play_opening()
        owner()
        app.controller.owner.held("mouse", simulator=False)
        for digit in "482":
            app.do(do.PinDigit(digit), clock.now())

    def keypad_wrong() -> None:
        keypad()
        app.do(do.PinOk(), clock.now())

    def keypad_locked() -> None:
        keypad()
        app.ui.owner.locked_until_ns = clock.now() + 42 * NS_PER_S

    def keypad_no_pin() -> None:  # the settings' Edit without a PIN file
        settings()
        owner(pin=False)
        app.do(do.EditSettings(), clock.now())

    def stop_confirm() -> None:
        keypad()
        app.do(do.PinDigit("1"), clock.now())
        app.do(do.PinOk(), clock.now())

    def settings_edit() -> None:
        settings()
        owner()
        app.do(do.EditSettings(), clock.now())
        for digit in "4821":
            app.do(do.PinDigit(digit), clock.now())
        app.do(do.PinOk(), clock.now())
        app.do(do.StepSetting("match.bank_seconds", 2), clock.now())
        app.do(do.NextChoice("kiosk.language"), clock.now())

    def practice(level: int, stop: Callable[[Match], bool], seed: int, seat: int = 0) -> GameSession:
        """A practice match against the computer at ``level``, the person in ``seat`` (1: started from Player 2's
        half), played by random legal commands until ``stop``."""
        app.controller.go_home()
        app.controller.bot_executor = InlineExecutor()
        app.controller.bot_samples = 16
        app.do(do.OpenPractice(seat or None), clock.now())
        app.do(do.PlayComputer(level, seat), clock.now())
        s = app.session
        assert s is not None
        play_until(s, clock, stop, seed=seed)
        return s

    def practice_levels() -> None:
        app.controller.go_home()
        app.do(do.OpenPractice(), clock.now())

    def practice_ready() -> None:
        practice(3, lambda m: True, seed=1)

    def practice_thinking() -> None:  # the computer's turn: "Thinking..." on its side, its tiles face down
        practice(3, lambda m: m.phase is Phase.PLAY and m.to_act == 1 and len(m.layout) >= 5, seed=6)

    def play_badge() -> None:  # a placement that scored: its badge reads from both edges in table orientation
        s = _fresh(app, handover=False)
        play_until(s, clock, lambda m: s.last_placement is not None and s.last_placement.score >= 10
                   and len(m.layout) >= 4 and m.phase is Phase.PLAY, seed=4)

    def settings_player2() -> None:  # opened from Player 2's half of the home screen: turned toward them
        app.controller.go_home()
        app.do(do.OpenSettings(1), clock.now())

    def leaderboard_player2() -> None:
        with_journal(app)
        app.controller.go_home()
        app.do(do.OpenLeaderboard(1), clock.now())

    def practice_levels_player2() -> None:
        app.controller.go_home()
        app.do(do.OpenPractice(1), clock.now())

    def practice_moves() -> None:  # the person's turn: what the computer did since, in words on the person's half
        s = practice(2, lambda m: m.phase is Phase.PLAY and m.to_act == 0 and len(m.layout) >= 6, seed=8)
        app.controller.update(clock.now())
        assert s.recap.for_player(0)

    def practice_auction() -> None:  # the computer bids: no card on its half, the person is told it thinks
        practice(3, lambda m: m.phase is Phase.AUCTION and m.to_act == 1, seed=3)

    def practice_top_moves() -> None:  # started from Player 2's half: the person plays at the top edge
        s = practice(2, lambda m: m.phase is Phase.PLAY and m.to_act == 1 and len(m.layout) >= 6, seed=8, seat=1)
        app.controller.update(clock.now())
        assert s.recap.for_player(1)

    def practice_top_auction() -> None:  # the person at the top edge decides in the auction
        practice(3, lambda m: m.phase is Phase.AUCTION and m.to_act == 1, seed=3, seat=1)

    def practice_hint() -> None:  # the person asked for a hint: its tile picked up, its point ringed
        def choices(m: Match) -> bool:
            return (m.phase is Phase.PLAY and m.to_act == 0 and len(m.layout) >= 12
                    and len({a.tile for a in m.legal_actions() if isinstance(a, Play)}) >= 2)
        practice(4, choices, seed=5)
        app.do(do.Hint(0), clock.now())
        app.controller.update(clock.now())

    def practice_history() -> None:  # Eko's matches: two against people, three against the computer
        leaderboard()
        eko = next(row.player for row in app.ui.records.board if row.player.name == "Eko")
        app.do(do.OpenHistory(eko.id), clock.now())

    def live(seed: int) -> Callable[[], None]:
        def arrange() -> None:
            s = _fresh(app, handover=False, balances=(300, 300))
            play_live(s, clock, seed, opening=seed in LIVE_OPENINGS)
            clock.advance(random.Random(seed).choice((0.2, 1.0, 2.5)))
        return arrange

    def live_hint() -> None:  # a practice match part-way, the person asked for a hint
        practice(4, lambda m: m.phase is Phase.PLAY and m.to_act == 0 and len(m.layout) >= 8, seed=9)
        app.do(do.Hint(0), clock.now())
        app.controller.update(clock.now())

    def settings_saved() -> None:
        settings()
        owner()
        app.ui.owner.notice = T("Saved. The changes apply from the next match; orientation and language from the "
                                "next start of the kiosk.")
        app.ui.owner.notice_ok = True
        app.controller.changed()

    return {
        "home": home, "settings": settings, "home-help": home_help, "ready": ready, "ready-languages": ready_languages,
        "ready-auction": ready_auction, "auction-first": auction_first, "auction-raise": auction_raise,
        "handover": handover, "play-opening": play_opening, "play-selected": play_selected,
        "play-late": play_late, "play-link": play_link, "play-score": play_score, "play-help": play_help, "help-player2": help_player2,
        "help-counting": help_counting, "resign-confirm": resign_confirm,
        "settlement-domino": settlement_domino, "settlement-blocked": settlement_blocked,
        "over-balance": over_balance, "over-time": over_time, "over-aborted": over_aborted,
        "score-sheet": score_sheet, "score-sheet-over": score_sheet_over,
        "ready-names": ready_names, "picker": picker, "keyboard": keyboard, "keyboard-taken": keyboard_taken,
        "leaderboard": leaderboard, "history": history, "replay": replay, "replay-end": replay_end,
        "players-manage": players_manage, "players-delete": players_delete, "players-merge": players_merge,
        "players-rename": players_rename,
        "keypad": keypad, "keypad-wrong": keypad_wrong, "keypad-locked": keypad_locked, "keypad-no-pin": keypad_no_pin,
        "stop-confirm": stop_confirm, "settings-edit": settings_edit, "settings-saved": settings_saved,
        "practice-levels": practice_levels, "practice-ready": practice_ready, "practice-thinking": practice_thinking,
        "practice-hint": practice_hint, "practice-moves": practice_moves, "settings-player2": settings_player2,
        "play-badge": play_badge, "leaderboard-player2": leaderboard_player2,
        "practice-levels-player2": practice_levels_player2, "practice-auction": practice_auction,
        "practice-top-moves": practice_top_moves, "practice-top-auction": practice_top_auction,
        "practice-history": practice_history,
        **{f"live-{seed}": live(seed) for seed in LIVE_SEEDS}, "live-hint": live_hint, **event_scenes(app, clock),
        **review_scenes(app, clock),
    }


def shoot(out: Path, size: tuple[int, int], orientation: str, only: Sequence[str] = (), language: str = "en") -> list[Path]:
    """Write one PNG per scene for ``size``, ``orientation`` and host ``language``; returns the files."""
    config = KioskConfig()
    config = replace(config, display=replace(config.display, orientation=orientation),
                     kiosk=replace(config.kiosk, language=language))
    clock = FakeClock(5 * NS_PER_S)
    app = App(config, clock=clock, size=size, hardware_backend="mock", rng=random.Random(7))
    written = []
    try:
        for name, arrange in scenes(app, clock).items():
            if only and name not in only:
                continue
            app.controller.flight = None
            app.ui.player_languages = [None, None]  # each scene starts in the host language
            app.ui.sheet_open = False
            arrange()
            if app.controller.flight is None:
                clock.advance(0.5)
            recorder = layout.LayoutRecorder()
            with app.stage.context.recorded(layout=recorder):
                app.draw(clock.now(), full=True)  # always a full picture
            path = out / f"{size[0]}x{size[1]}-{orientation}-{language}-{name}.png"
            pygame.image.save(app.screen, str(path))
            record = layout_record(app, recorder, name, orientation, language)
            path.with_suffix(".json").write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
            written.append(path)
    finally:
        app.close()
    return written


def layout_record(app: App, recorder: layout.LayoutRecorder, scene: str, orientation: str,
                  language: str) -> dict[str, object]:
    """The layout record of the screen just drawn: its texts as drawn, its targets as routed."""
    stage = app.stage
    targets = [(spot.rect, _seat_of(spot.intent), type(spot.intent).__name__) for spot in stage.hotspots
               if not isinstance(spot.intent, do.Noop)]  # an overlay's backdrop takes taps; it is no control
    return layout.record_json(recorder, scene=scene, size=app.screen.get_size(), orientation=orientation,
                              language=language, admin_area=stage.regions.admin_area, targets=targets)


def _seat_of(intent: object) -> int | None:
    player = getattr(intent, "player", None)
    return player if isinstance(player, int) else None


def main(argv: Sequence[str] | None = None) -> int:
    """Write the screenshots."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="screenshots", help="folder for the PNG files (default: screenshots)")
    parser.add_argument("--only", nargs="*", default=(), help="scene names to draw (default: all)")
    parser.add_argument("--language", nargs="*", default=LANGUAGES, choices=LANGUAGES,
                        help="host languages (default: all four)")
    parser.add_argument("--size", nargs="*", default=[f"{w}x{h}" for w, h in SIZES], help="sizes, e.g. 800x480")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for size_name in args.size:
        w, h = (int(v) for v in size_name.split("x"))
        for orientation in ORIENTATIONS:
            for language in args.language:
                count += len(shoot(out, (w, h), orientation, args.only, language))
    print(f"wrote {count} screenshots to {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
