"""The owner's screens at work (no pygame): the PIN keypad, stopping a match, the settings editor.

- **The keypad** opens when the admin corner (or key) is held long enough (``purpose`` "exit") or at
  the settings screen's Edit ("settings"). The right PIN (``OwnerPin.check``) leaves the kiosk with
  status 10 — after "Stop the kiosk?" when a match is in progress — or opens the settings editor.
  A wrong PIN says so and counts; ``MAX_WRONG`` wrong PINs in a row lock the keypad, for a time
  that doubles after each such round and survives a restart (``kiosk.table.pin_lock``). Without a usable PIN (no PIN file) the keypad says
  the owner screens are locked and how to set the PIN; in simulator mode the admin exit then works
  without a PIN, as before there was one.
- **Stopping** a match in progress aborts it unrated, "stopped by the owner", and has the keeper
  commit that before the kiosk leaves.
- **The settings editor** changes the keys of ``kiosk.owner.EDITABLE`` (steppers and toggles) and
  saves them with ``write_settings`` into the configuration file the kiosk was started with; the
  next match uses the new match settings, the sound its new volume at once; orientation and language
  apply at the kiosk's next start.
  Without a configuration file nothing is written, and the screen says so.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from engine import NS_PER_S, Phase
from kiosk.config import KioskConfig
from kiosk.i18n import LANGUAGES, N_, T, next_language
from kiosk.owner import EDITABLE, SET_PIN_HINT, LoadedPin, OwnerError, write_settings
from kiosk.table import intents as do
from kiosk.table.pin_lock import PinLock, PinLockFile
from kiosk.table.session import GameSession
from kiosk.table.state import OwnerState, UiState

MAX_DIGITS = 8
STOPPED_BY_OWNER = N_("stopped by the owner")
"""The reason of a match the owner stopped (kept as the outcome's message id)."""
ADMIN_EXIT_STATUS = 10
"""Exit status of the deliberate admin exit (the service does not restart after it)."""

STEPS: dict[str, int] = {"match.bank_seconds": 15, "match.delay_seconds": 1, "match.balances": 10, "sound.volume": 10}
"""The stepped settings and their step."""
LIMITS: dict[str, tuple[int, int]] = {"match.bank_seconds": (15, 3600), "match.delay_seconds": (0, 600),
                                      "match.balances": (10, 10_000), "sound.volume": (0, 100)}
ORIENTATIONS = ("table", "upright")


def settings_of(config: KioskConfig) -> dict[str, object]:
    """The values of the editable keys in ``config``."""
    def number(value: float) -> int | float:
        return int(value) if float(value).is_integer() else value

    return {
        "match.bank_seconds": number(config.match.bank_seconds),
        "match.delay_seconds": number(config.match.delay_seconds),
        "match.balances": int(config.match.balances),
        "match.handover": bool(config.match.handover),
        "display.orientation": config.display.orientation,
        "kiosk.language": config.kiosk.language,
        "sound.volume": int(config.sound.volume),
    }


@dataclass(frozen=True, slots=True)
class Decision:
    """What an owner's intent asks of the controller, beyond the owner's state it changed."""

    abort: bool = False
    """Abort the match in progress unrated, "stopped by the owner"."""
    finish: bool = False
    """Hand the match to the keeper a last time (before leaving)."""
    leave: bool = False
    """The kiosk leaves with ``ADMIN_EXIT_STATUS``."""
    manage: bool = False
    """Open the owner's player management."""
    config: KioskConfig | None = None
    """Settings saved: the configuration file as written (its match and sound settings apply from now on)."""


NOTHING = Decision()
LEAVE = Decision(leave=True)


def in_progress(session: GameSession | None) -> bool:
    """A match past its first Start and not over."""
    if session is None or session.match.is_over:
        return False
    return not (session.match.phase is Phase.READY and session.match.round == 0)


class OwnerDesk:
    """What the owner's intents do to the owner's state (``ui.owner``), and what they ask of the controller."""

    def __init__(self, ui: UiState, config: KioskConfig, now: int, *, boot_id: str,
                 pin: LoadedPin | None, config_path: str | None) -> None:
        self.ui = ui
        path = config.kiosk.owner_pin_file
        self.pin = pin if pin is not None else LoadedPin(None, T(
            "no owner PIN is set ({path} is missing), so the owner screens are locked; set one with: {command}",
            path=path, command=SET_PIN_HINT))
        self.config_path = config_path
        self.lock_file = PinLockFile(self.pin.lock_file, boot_id)
        lock = self.lock_file.load(now)
        o = self.state
        o.rounds, o.wrong, o.locked_until_ns = lock.rounds, lock.wrong, lock.until_ns
        self.saved = settings_of(config)
        """The editable values as last read or saved (Save writes only what differs)."""

    @property
    def state(self) -> OwnerState:
        return self.ui.owner

    # -- the keypad ------------------------------------------------------------------------------

    def held(self, source: Hashable, simulator: bool) -> Decision:
        """The admin corner (or key) was held long enough: the keypad, or without a PIN in the
        simulator the exit at once."""
        if self.pin.pin is None and simulator:
            return LEAVE
        self.open_keypad("exit", facing=0)  # the owner's area lies at Player 1's edge (Regions.admin_area)
        return NOTHING

    def open_keypad(self, purpose: str, facing: int | None) -> None:
        o = self.state
        if o.keypad is None and not o.confirm_stop:
            o.keypad, o.facing, o.digits = purpose, facing, ""
            o.error = ""

    def locked_seconds(self, now: int) -> int:
        """Whole seconds the keypad stays locked (0: it takes PINs)."""
        until = self.state.locked_until_ns
        if until is None or now >= until:
            return 0
        return -(-(until - now) // NS_PER_S)

    def digit(self, digit: str, now: int) -> None:
        o = self.state
        if o.keypad is not None and self.locked_seconds(now) == 0 and len(o.digits) < MAX_DIGITS:
            o.digits += digit[:1]
            o.error = ""

    def check(self, now: int, in_progress: bool, stop_match: bool = False) -> Decision:
        """The keypad's OK: the right PIN does what the keypad was opened for; a wrong one counts.
        ``stop_match`` (Stop the match, over a match in progress): the right PIN stops the match
        unrated, "stopped by the owner", and the kiosk stays."""
        o = self.state
        pin = self.pin.pin
        if o.keypad is None or pin is None or self.locked_seconds(now) > 0 or not o.digits:
            return NOTHING
        digits, o.digits = o.digits, ""
        if not pin.check(digits):
            lock = PinLock(o.rounds, o.wrong, o.locked_until_ns).after_wrong(now)
            o.rounds, o.wrong, o.locked_until_ns = lock.rounds, lock.wrong, lock.until_ns
            o.error = T("Wrong PIN") if lock.wrong else ""
            self.lock_file.save(lock)
            return NOTHING
        o.rounds, o.wrong, o.error, o.locked_until_ns = 0, 0, "", None
        self.lock_file.save(PinLock())
        purpose, o.keypad = o.keypad, None
        if stop_match and in_progress:
            return Decision(abort=True)
        if purpose == "settings":
            o.editing = dict(self.saved)
            o.notice = ""
        elif purpose == "players":
            return Decision(manage=True)
        elif in_progress:
            o.confirm_stop = True
        else:
            return LEAVE
        return NOTHING

    def stop(self, in_progress: bool) -> Decision:
        """Yes: abort the match unrated ("stopped by the owner"), commit it, and leave."""
        o = self.state
        if not o.confirm_stop:
            return NOTHING
        o.confirm_stop = False
        return Decision(abort=in_progress, finish=True, leave=True)

    # -- the settings editor -----------------------------------------------------------------------

    def step(self, key: str, steps: int) -> None:
        values = self.state.editing
        if values is None or key not in STEPS:
            return
        low, high = LIMITS[key]
        value = values[key]
        assert isinstance(value, int | float)
        moved = min(high, max(low, value + steps * STEPS[key]))
        values[key] = int(moved) if float(moved).is_integer() else moved

    def next_choice(self, key: str) -> None:
        values = self.state.editing
        if values is None:
            return
        value = values.get(key)
        if key == "match.handover":
            values[key] = not value
        elif key == "display.orientation":
            values[key] = ORIENTATIONS[(ORIENTATIONS.index(str(value)) + 1) % 2] if value in ORIENTATIONS else "table"
        elif key == "kiosk.language":
            values[key] = next_language(str(value)) if value in LANGUAGES else LANGUAGES[0]

    def changes(self) -> dict[str, object]:
        """What the editor changed (in ``EDITABLE``'s order)."""
        values = self.state.editing or {}
        return {key: values[key] for key in EDITABLE if key in values and values[key] != self.saved.get(key)}

    def save(self) -> Decision:
        """Write the changes; the editor closes on success, and the settings screen says what happened."""
        o = self.state
        if o.editing is None:
            return NOTHING
        changes = self.changes()
        if not changes:
            o.editing, o.notice, o.notice_ok = None, T("Nothing was changed."), True
            return NOTHING
        if self.config_path is None:
            o.notice, o.notice_ok = T("The kiosk was started without a configuration file (--config), so there "
                                      "is nowhere to save; nothing was saved."), False
            return NOTHING
        try:
            loaded = write_settings(self.config_path, changes)
        except OwnerError as exc:
            o.notice, o.notice_ok = exc.text, False
            return NOTHING
        self.saved = {**self.saved, **settings_of(loaded.config)}
        o.editing, o.notice_ok = None, True
        later = {"display.orientation", "kiosk.language"} & changes.keys()
        o.notice = (T("Saved. The changes apply from the next match; orientation and language from the next "
                      "start of the kiosk.") if later else T("Saved. The changes apply from the next match."))
        return Decision(config=loaded.config)

    def close(self) -> None:
        """Going home (Home, the idle return): the keypad, the stop confirmation and the editor close
        (the count of wrong PINs and the lock stay)."""
        o = self.state
        o.keypad, o.digits, o.error, o.confirm_stop, o.editing, o.notice = None, "", "", False, None, ""


def _set(**values: object) -> Callable[[OwnerDesk, Any, int, bool], Decision]:
    """An intent that only sets the owner's state."""
    def handler(desk: OwnerDesk, intent: Any, now: int, in_progress: bool) -> Decision:
        for name, value in values.items():
            setattr(desk.state, name, value)
        return NOTHING
    return handler


def _then_nothing(f: Callable[[OwnerDesk, Any, int], object]) -> Callable[[OwnerDesk, Any, int, bool], Decision]:
    def handler(desk: OwnerDesk, intent: Any, now: int, in_progress: bool) -> Decision:
        f(desk, intent, now)
        return NOTHING
    return handler


def _edit_settings(desk: OwnerDesk, intent: Any, now: int) -> None:
    desk.state.notice = ""
    desk.open_keypad("settings", facing=desk.ui.facing)  # the settings' reader


OWNER: dict[type[do.Intent], Callable[[OwnerDesk, Any, int, bool], Decision]] = {
    do.PinDigit: _then_nothing(lambda desk, i, now: desk.digit(i.digit, now)),
    do.PinBackspace: _then_nothing(lambda desk, i, now: setattr(desk.state, "digits", desk.state.digits[:-1])),
    do.PinCancel: _set(keypad=None, digits="", error=""),
    do.PinOk: lambda desk, i, now, in_progress: desk.check(now, in_progress),
    do.PinStopMatch: lambda desk, i, now, in_progress: desk.check(now, in_progress, stop_match=True),
    do.ConfirmStop: lambda desk, i, now, in_progress: desk.stop(in_progress),
    do.CancelStop: _set(confirm_stop=False),
    do.EditSettings: _then_nothing(_edit_settings),
    do.ManagePlayers: _then_nothing(lambda desk, i, now: desk.open_keypad("players", facing=desk.ui.facing)),
    do.StepSetting: _then_nothing(lambda desk, i, now: desk.step(i.key, i.steps)),
    do.NextChoice: _then_nothing(lambda desk, i, now: desk.next_choice(i.key)),
    do.SaveSettings: lambda desk, i, now, in_progress: desk.save(),
    do.CancelSettings: _set(editing=None),
}
"""The owner's intents: each changes the owner's state and returns what it asks of the controller."""
