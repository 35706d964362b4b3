"""``python -m kiosk.devtools.soak --minutes 30``: the real app, headless, playing match after match.

Computer players (``engine.bots``, levels 1 to 3 at random, a random legal action now and then)
deciding for both seats, their decisions made through the kiosk's own inputs: taps posted as pygame mouse events at the
hotspots on screen, buttons on the gpiozero mock pins and on a serial panel over a pty, and random
touches anywhere; the journal on disk (``--journal FILE`` keeps it: the club sync's tests upload
real journals); the real monotonic clock. With ``--named N`` the matches are rated matches between N
named players: before each match's first Start, two of them are seated through the kiosk's player
pickers (taps on "Who plays here?" and on a name). With ``--event-table`` (and ``--hub``, ``--token-file``)
it is a club-event table: it plays the pairings the hub gives it, and only those
(``kiosk.devtools.event_table``). At the end it prints the matches
played, the growth of the resident memory after the first match, the exceptions the frame loop
raised (there must be none) and whether every finished match in the journal replays to the state
it recorded. Ctrl-C or SIGTERM ends it early, with the same report. With ``--practice LEVEL`` the
matches are practice matches against the computer at that level (started with Home's "Play the computer",
the person's edge chosen at random): the soak decides for the person, the kiosk's computer for the
other seat. With ``--shots DIR`` the screen after each of the first ``--shot-limit`` decisions is saved
there, with a copy turned 180° (what the player at the top edge sees), to look at.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from engine import Accept, Bid, Decline, Draw, Phase, Play, PlayerView, Reveal, Start, bots
from hardware.config import HardwareConfig, SerialConfig
from hardware.ptyboard import PtyBoard
from kiosk.app import App, LiveObserver
from kiosk.club.errors import SyncSetupError
from kiosk.config import KioskConfig, MatchSettings
from kiosk.devtools.event_table import EventTable, event_step, start_event_table
from kiosk.store.audit import replays_as_recorded
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.timesource import MonotonicClock

KEYS = {0: {"accept": "a", "raise": "s", "decline": "d"}, 1: {"accept": "j", "raise": "k", "decline": "l"}}
SOAK_BALANCES = 40
"""Each player's starting points in the soak's matches (random play ends a 40-point match in minutes)."""
REPEAT_GAP_S = 0.35
"""Wait this long before pressing the same button again (a repeat right after a screen change means nothing)."""


@dataclass
class SoakReport:
    """What a soak run did and found."""

    seconds: float = 0.0
    frames: int = 0
    matches: int = 0
    decisions: int = 0
    taps: int = 0
    stray_touches: int = 0
    gpio_presses: int = 0
    serial_presses: int = 0
    rss_start_kb: int = 0
    rss_end_kb: int = 0
    exceptions: list[str] = field(default_factory=list)
    journal_matches: int = 0
    rated: int = 0
    replayed: int = 0
    replay_mismatches: int = 0

    @property
    def rss_growth_mb(self) -> float:
        return (self.rss_end_kb - self.rss_start_kb) / 1024

    def lines(self) -> list[str]:
        """The figures, one per line."""
        return [
            f"soak: {self.seconds / 60:.1f} min, {self.frames} frames, {self.matches} matches finished, "
            f"{self.decisions} decisions",
            f"inputs: {self.taps} taps on controls, {self.stray_touches} stray touches, "
            f"{self.gpio_presses} GPIO presses, {self.serial_presses} serial-panel presses",
            f"memory: RSS {self.rss_start_kb / 1024:.1f} MB after the first match, {self.rss_end_kb / 1024:.1f} MB at "
            f"the end: growth {self.rss_growth_mb:+.1f} MB",
            f"exceptions: {len(self.exceptions)}",
            f"journal: {self.journal_matches} matches ({self.rated} rated), {self.replayed} finished ones replayed, "
            f"{self.replay_mismatches} mismatches",
        ]


def rss_kb() -> int:
    """This process's resident memory in KiB (Linux), 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Player:
    """Chooses random legal decisions and makes them through the kiosk's inputs."""

    def __init__(self, app: App, board: PtyBoard, rng: random.Random, report: SoakReport) -> None:
        self.app = app
        self.board = board
        self.rng = rng
        self.report = report
        self._pressed: dict[tuple[int, str], float] = {}
        self.named: list[int] = []
        """With ``--named``: the named players' ids; each match seats two of them."""
        self._pair: tuple[int, int] = (0, 0)
        self._pair_for: object = None
        self.event_table: EventTable | None = None
        """With ``--event-table``: the club workers; the player then plays the hub's pairings only."""
        self.practice = 0
        """With ``--practice``: the computer's level in every match (the soak plays the person's seat)."""

    def click(self, intent: do.Intent) -> bool:
        """Tap the hotspot on screen that carries ``intent``; False if none does."""
        spot = next((s for s in reversed(self.app.hotspots) if s.intent == intent), None)
        if spot is None:
            return False
        self._post_click(spot.rect.center)
        self.report.taps += 1
        return True

    def click_kind(self, kind: type[do.Intent]) -> bool:
        spots = [s for s in self.app.hotspots if isinstance(s.intent, kind)]
        if not spots:
            return False
        return self.click(self.rng.choice(spots).intent)

    def _post_click(self, pos: tuple[int, int]) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))

    def stray_touch(self) -> None:
        w, h = self.app.screen.get_size()
        self._post_click((self.rng.randrange(w), self.rng.randrange(h)))
        self.report.stray_touches += 1

    def button(self, player: int, name: str) -> None:
        """Press a player's button, on the mock pins or the serial panel (never twice within the repeat gap)."""
        last = self._pressed.get((player, name), 0.0)
        wait = last + REPEAT_GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._pressed[(player, name)] = time.monotonic()
        if self.rng.random() < 0.5 and self.board.plugged:
            self.board.send(f"BTN {player} {name.upper()}\n".encode())
            self.report.serial_presses += 1
            return
        keys = self.app.ports.keys
        assert keys is not None
        keys.key_down(KEYS[player][name])
        keys.key_up(KEYS[player][name])
        self.report.gpio_presses += 1

    def step(self) -> None:
        """A frame between two taps of one decision (an exception in it is the kiosk's, and counted)."""
        try:
            self.app.step(wait=False)
        except Exception:
            self.report.exceptions.append(traceback.format_exc())
        self.report.frames += 1

    def act(self) -> None:
        """One decision (or a step towards one) for whatever the screen shows."""
        app, rng = self.app, self.rng
        ui = app.ui
        computer, session = app.controller.computer, app.session
        if computer is not None and session is not None and not session.match.is_over \
                and session.match.to_act == computer.seat:  # the person waits while the kiosk's computer decides
            return
        if rng.random() < 0.03 and self.event_table is None:  # an event table: no touches beside the pairing's
            self.stray_touch()
            return
        if ui.help_open:
            self.click(do.CloseHelp())
            return
        if ui.sheet_open:  # a stray touch opened the score sheet
            self.click_kind(do.CloseScoreSheet)
            return
        if self.seat_named():
            return
        if ui.records.picker is not None:
            self.click(do.ClosePicker())
            return
        if any(ui.confirm_resign):
            self.click_kind(do.CancelResign)
            return
        if self.event_table is not None and event_step(app, self.event_table, rng, self.click):
            return
        session = app.session
        if session is None:
            if not self.practice:
                self.click(do.NewMatch())
                return
            levels = [s.intent for s in app.hotspots
                      if isinstance(s.intent, do.PlayComputer) and s.intent.level == self.practice]
            if levels:  # the level choice, facing the edge it was opened from
                self.click(levels[0])
            else:
                self.click_kind(do.OpenPractice)
            return
        m = session.match
        if m.is_over:
            self.click(do.Rematch()) if rng.random() < 0.8 else self.click(do.GoHome())
            return
        if rng.random() < 0.002 and self.click_kind(do.Resign):
            return
        legal = m.legal_actions()
        if not legal:
            return
        if m.to_act is not None and m.phase in (Phase.AUCTION, Phase.PLAY) and rng.random() < 0.9:
            action = bots.choose(PlayerView.of(m, m.to_act, app.clock.now()), rng.choice((1, 2, 3)), rng)
        else:
            accepts = [a for a in legal if isinstance(a, Accept)]
            action = accepts[0] if accepts and rng.random() < 0.6 else rng.choice(legal)  # auctions end, mostly
        self.report.decisions += 1
        use_button = rng.random() < 0.3
        match action:
            case Start(player) | Reveal(player):
                if use_button:
                    self.button(player if player is not None else rng.randrange(2), "accept")
                elif not self.click_kind(do.Start):
                    self.click_kind(do.Reveal)
            case Bid(player, _amount):
                self.button(player, "raise") if use_button else self.click(do.PlaceBid(player))
            case Accept(player):
                self.button(player, "accept") if use_button else self.click(do.Accept(player))
            case Decline(player):
                self.button(player, "decline") if use_button else self.click(do.Decline(player))
            case Draw():
                self.click_kind(do.DrawTile)
            case Play(player, tile, at):
                if not self.click(do.TapTile(player, tile)):
                    return
                self.step()
                if at is not None and session.match is m and not m.is_over and m.to_act == player:
                    self.click(do.TapPoint(at))
            case _:
                pass


    def seat_named(self) -> bool:
        """Before a match's first Start (with ``--named``): seat its two named players through the pickers,
        one tap per call; True while doing so."""
        session, r = self.app.session, self.app.ui.records
        if not self.named or session is None or session.match.round != 0 or session.match.phase is not Phase.READY:
            return False
        if self._pair_for is not session:
            first, second = self.rng.sample(self.named, 2)
            self._pair, self._pair_for = (first, second), session
        if r.typing is not None:  # a stray touch opened the keyboard
            self.tap(do.CancelName())
            return True
        if r.picker is not None:
            intent = do.PickPlayer(r.picker, self._pair[r.picker])
            self.tap(intent)
            return True
        for seat in (0, 1):
            chosen = r.chosen[seat]
            if chosen is None or chosen.id != self._pair[seat]:
                self.tap(do.OpenPicker(seat))
                return True
        return False

    def tap(self, intent: do.Intent) -> None:
        """Tap ``intent``'s hotspot, or carry it out directly when the screen shows none (a name on
        another page of the picker)."""
        if not self.click(intent):
            self.app.do(intent, self.app.clock.now())


NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")


def named_players(journal: Journal, count: int) -> list[int]:
    """``count`` named players in the journal (found by name, or made): Ann, Bo, … then Player 13, …"""
    players = Players(journal)
    ids = []
    for i in range(count):
        name = NAMES[i] if i < len(NAMES) else f"Player {i + 1}"
        found = players.find(name)
        ids.append(found.id if found is not None else players.create(name).id)
    return ids


def warm_up(app: App) -> None:
    """Show the home screen, the rules and a table in each language once, as a first visitor trying the
    language buttons would: the fonts of every script are loaded before memory is measured."""
    for language in ("ko", "uk", "id", "en"):
        app.do(do.HostLanguage(language), app.clock.now())
        app.step(wait=False)
        app.do(do.OpenHelp(), app.clock.now())
        app.step(wait=False)
        app.do(do.CloseHelp(), app.clock.now())
        app.step(wait=False)
        app.do(do.NewMatch(), app.clock.now())  # the table's sizes (nothing is journalled before a Start)
        app.step(wait=False)
        app.do(do.GoHome(), app.clock.now())
        app.step(wait=False)


def check_journal(journal: Journal, report: SoakReport) -> None:
    """Every finished match replays (as an exported conformance scenario) to the state it recorded."""
    report.journal_matches = len(journal.matches())
    report.rated = sum(1 for record in journal.matches(finished=True) if record.rated)
    for record in journal.matches(finished=True):
        agrees = replays_as_recorded(journal, record.id)
        if agrees is None:
            continue
        if not agrees:
            report.replay_mismatches += 1
        report.replayed += 1


def event_matches(journal: Journal) -> int:
    """The journal's matches played for a club event's pairing."""
    with journal.database.read() as conn:
        return int(conn.execute("SELECT count(*) FROM matches WHERE event_pairing IS NOT NULL").fetchone()[0])


def soak(minutes: float, *, seed: int = 1, workdir: Path | None = None, log: bool = True,
         journal_path: Path | None = None, named: int = 0, live: LiveObserver | None = None,
         event_table: tuple[str, str] | None = None, practice: int = 0, shots: Path | None = None,
         shot_limit: int = 300) -> SoakReport:
    """Play for ``minutes`` of real time; returns the figures. ``journal_path``: where the journal is
    written (kept; default: the work folder's, removed with it); ``named``: matches between that many
    named players (at least 2), seated through the pickers; ``live``: the club page's live feed the app
    tells after every frame (``--hub``); ``event_table``: (hub URL, token file): play the hub's club-event
    pairings only, with the kiosk's own club workers (SyncSetupError when they cannot start); ``practice``:
    practice matches against the computer at that level; ``shots``: a folder for the screen after each of
    the first ``shot_limit`` decisions and its copy turned 180°."""
    report = SoakReport()
    tmp = tempfile.TemporaryDirectory(prefix="soak-") if workdir is None else None
    folder = Path(tmp.name) if tmp is not None else Path(workdir or ".")
    board = PtyBoard(folder / "panel", name="SOAKBOARD")
    board.plug()
    serial = SerialConfig(enabled=True, url=str(folder / "panel"), reconnect_max_s=0.5)
    config = replace(KioskConfig(), hardware=replace(HardwareConfig(), serial=serial),
                     match=replace(MatchSettings(), balances=SOAK_BALANCES))
    journal = Journal.open(journal_path if journal_path is not None else folder / "journal.sqlite3")
    app = App(config, clock=MonotonicClock(), size=(800, 480), hardware_backend="mock", journal=journal,
              boot_id="soak", rng=random.Random(seed), live=live)
    player = Player(app, board, random.Random(seed), report)
    player.named = named_players(journal, named) if named else []
    player.practice = practice
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    shot_at = -1  # > 0: the number of the shot to save after the next frame
    last_shot = 0
    if event_table is None:  # an event table opens no match of its own: the hub's live tables would count it busy
        warm_up(app)
    else:
        try:
            player.event_table = start_event_table(app, *event_table, log=lambda line: print(line, flush=True))
        except SyncSetupError:
            app.close()
            journal.close()
            board.unplug()
            raise
    started = time.monotonic()
    deadline = started + minutes * 60
    next_log = started + 60
    finished_before = 0
    stop, restore = stop_on_signals()
    try:
        while time.monotonic() < deadline and not stop.is_set():
            try:
                app.step(wait=False)
            except Exception:  # the kiosk must never raise: count it, keep going
                report.exceptions.append(traceback.format_exc())
            report.frames += 1
            if shots is not None and 0 < shot_at <= shot_limit:
                seen = hash(pygame.image.tobytes(app.screen, "RGB"))
                if seen != last_shot:  # a decision the screen does not show (refused, or nothing new) is not saved
                    save_shot(app, shots / f"{shot_at:04d}")
                    last_shot = seen
                    shot_at += 1
                shot_at = -shot_at
            decisions = report.decisions
            player.act()
            if report.decisions != decisions:
                shot_at = abs(shot_at)
            board.take_lines()
            finished = len(journal.matches(finished=True))
            if finished != finished_before:
                report.matches += finished - finished_before
                finished_before = finished
                if report.rss_start_kb == 0:
                    report.rss_start_kb = rss_kb()
            if log and time.monotonic() >= next_log:
                next_log += 60
                print(f"  {(time.monotonic() - started) / 60:.0f} min: {report.matches} matches, "
                      f"RSS {rss_kb() / 1024:.1f} MB, {len(report.exceptions)} exceptions", flush=True)
        if player.event_table is not None:
            player.event_table.stop()
            for line in player.event_table.lines(lambda: event_matches(journal)):
                print(line)
        report.rss_end_kb = rss_kb()
        if report.rss_start_kb == 0:
            report.rss_start_kb = report.rss_end_kb
        check_journal(journal, report)
    finally:
        restore()
        report.seconds = time.monotonic() - started
        app.close()
        journal.close()
        board.unplug()
        if tmp is not None:
            tmp.cleanup()
    return report


def save_shot(app: App, stem: Path) -> None:
    """The screen as ``stem``.png and turned 180° as ``stem``-turned.png (the top edge's view)."""
    pygame.image.save(app.screen, str(stem.with_suffix(".png")))
    pygame.image.save(pygame.transform.rotate(app.screen, 180), f"{stem}-turned.png")


def stop_on_signals() -> tuple[threading.Event, Callable[[], None]]:
    """An event set by SIGINT (Ctrl-C) or SIGTERM, so that the soak ends at the next frame with its report,
    and the function that puts the handlers before back. Installed after the app started SDL, which takes
    both signals for a quit event that the kiosk obeys only in its simulator (off the main thread: no
    handlers, an event never set)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return stop, lambda: None
    before = {sig: signal.signal(sig, lambda signum, frame: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in before.items():
            if handler is not None:  # None: a handler not installed from Python (SDL's), which cannot be put back
                signal.signal(sig, handler)

    return stop, restore


def main(argv: Sequence[str] | None = None) -> int:
    """Run the soak and print its figures; exit 1 on an exception or a replay mismatch."""
    parser = argparse.ArgumentParser(prog="python -m kiosk.devtools.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", type=Path, help="write the journal to this file (kept after the run)")
    parser.add_argument("--named", type=int, default=0, metavar="N",
                        help="rated matches between N named players (2 or more), seated through the pickers")
    parser.add_argument("--hub", metavar="URL", help="send the club hub at URL the live table as the kiosk does "
                                                     "(with --token-file; upload the journal afterwards with "
                                                     "python -m kiosk.club sync)")
    parser.add_argument("--token-file", metavar="FILE", help="the kiosk token for --hub")
    parser.add_argument("--event-table", action="store_true",
                        help="act as a club-event table of --hub: play the pairings it gives (and nothing else), "
                             "upload each result")
    parser.add_argument("--practice", type=int, default=0, choices=(1, 2, 3, 4), metavar="LEVEL",
                        help="practice matches against the computer at LEVEL (1 Beginner to 4 Expert)")
    parser.add_argument("--shots", type=Path, metavar="DIR",
                        help="save the screen after each decision there (and turned 180°), to look at")
    parser.add_argument("--shot-limit", type=int, default=300, metavar="N", help="at most N shots (default 300)")
    args = parser.parse_args(argv)
    if args.named and args.named < 2:
        parser.error("--named needs at least 2 players")
    if bool(args.hub) != bool(args.token_file):
        parser.error("--hub and --token-file go together")
    if args.event_table and not args.hub:
        parser.error("--event-table needs --hub and --token-file")
    live = None
    if args.hub:
        from kiosk.club.live_feed import start_live

        live = start_live(args.hub, args.token_file, lambda line: print(line, file=sys.stderr))
        if live is None:
            return 2
    try:
        report = soak(args.minutes, seed=args.seed, journal_path=args.journal, named=args.named,
                      live=None if live is None else live[1],
                      event_table=(args.hub, args.token_file) if args.event_table else None,
                      practice=args.practice, shots=args.shots, shot_limit=args.shot_limit)
    except SyncSetupError as exc:
        print(f"soak: {exc.message}", file=sys.stderr)
        return 2
    finally:
        if live is not None:
            live[0].close()
            stats = live[0].stats
            print(f"live table: {live[1].offered} projections offered, {stats.sent} sent, {stats.dropped} "
                  f"replaced before sending, {stats.refused} refused, {stats.failures} failed tries")
    for line in report.lines():
        print(line)
    for text in report.exceptions[:3]:
        print(text, file=sys.stderr)
    return 1 if report.exceptions or report.replay_mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
