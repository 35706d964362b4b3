"""The screenshots' club-event scenes (issue 25): the home screen offering a pairing, the ready screen
of a Swiss pairing, and an arena's ready screen with berserk (Player 2 chose it); joining at the
table: the home screen offering a Swiss to join, the picker for it and its keyboard for a new name, and a
join waiting for the club, joined, and refused."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.app import App
from kiosk.club.joins import Join, JoinableEvent
from kiosk.club.pairing import EventPlayer, Pairing
from kiosk.club.table_pairing import PairingBox
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

SWISS = "0192cccc-0000-7000-8000-000000000003"
ARENA = "0192cccc-0000-7000-8000-000000000004"


def _offer(app: App, key: str, fmt: str, name: str, round_: int | None, berserk: bool) -> Pairing:
    """A fresh box on the app offering a pairing of Anna and Bogdan (the demonstration journal's)."""
    journal = app.controller.journal
    assert journal is not None
    with journal.database.read() as conn:
        seats = [conn.execute("SELECT id, uuid, name FROM players WHERE name = ?", (n,)).fetchone()
                 for n in ("Anna", "Bogdan")]
    pairing = Pairing(uuid=key, event_uuid="0192cccc-0000-7000-8000-000000000001", event_name=name,
                      event_format=fmt, round=round_,
                      players=(EventPlayer(str(seats[0][1]), str(seats[0][2])),
                               EventPlayer(str(seats[1][1]), str(seats[1][2]))),
                      bank_seconds=120, delay_seconds=10, balances=150, berserk=berserk, acknowledge_by=0.0,
                      local_ids=(int(seats[0][0]), int(seats[1][0])), acked=True)
    app.controller.go_home()
    box = PairingBox()
    box.show(pairing)
    app.controller.events.box = box
    app.controller.changed()
    return pairing


JOINABLE = JoinableEvent("0192cccc-0000-7000-8000-000000000005", "Friday Swiss", "swiss", 2)


def _joinable(app: App, *joins: Join, reachable: bool = True) -> PairingBox:
    """A fresh box on the app offering the Friday Swiss to join, with ``joins`` kept."""
    app.controller.go_home()
    box = PairingBox()
    box.joins.show((JOINABLE,), list(joins), reachable)
    app.controller.events.box = box
    app.controller.changed()
    return box


def _join(seat: int, name: str, result: str | None = None, reason: str | None = None, round_: int | None = None,
          message: str = "") -> Join:
    return Join(f"0192dddd-0000-7000-8000-00000000000{seat}", JOINABLE, None, "0192eeee-0000-7000-8000-000000000001",
                name, seat, 0.0, result, reason, message, round_, None if result is None else 1.0)


def join_scenes(app: App, clock: FakeClock) -> dict[str, Callable[[], None]]:
    """Joining at the table: offered, the picker (Player 2's half) and its keyboard, waiting, joined and refused."""

    def home_join() -> None:
        _joinable(app)

    def picker_join() -> None:
        _joinable(app)
        app.do(do.JoinEvent(1, JOINABLE.uuid), clock.now())

    def keyboard_join() -> None:  # a walk-in names themselves in the join's picker (Player 2's half)
        picker_join()
        app.do(do.NewPlayer(1), clock.now())
        for ch in "CLEO":
            app.do(do.Key(ch), clock.now())

    def home_join_waiting() -> None:
        _joinable(app, _join(0, "Anna"), _join(1, "Bogdan"), reachable=False)

    def home_joined() -> None:
        _joinable(app, _join(0, "Anna", "joined", round_=3), _join(1, "Bogdan", "already-joined"))

    def home_join_refused() -> None:
        _joinable(app, _join(0, "Anna", "refused", "withdrawn"), _join(1, "Bogdan", "refused", "closed"))

    def home_pairing_joined() -> None:  # a pairing came meanwhile: the notices under the buttons
        box = _joinable(app, _join(0, "Chloe", "joined", round_=3), _join(1, "Dae-jung"))
        box.show(_offer(app, SWISS, "swiss", "Friday Swiss", 3, False))
        app.controller.events.box = box

    return {"home-join": home_join, "picker-join": picker_join, "keyboard-join": keyboard_join,
            "home-join-waiting": home_join_waiting,
            "home-joined": home_joined, "home-join-refused": home_join_refused,
            "home-pairing-joined": home_pairing_joined}


def event_scenes(app: App, clock: FakeClock) -> dict[str, Callable[[], None]]:
    """Each event scene as a function that puts the app in that state (after it, no box: no pairing)."""

    def home_pairing() -> None:
        _offer(app, SWISS, "swiss", "Friday Swiss", 3, False)

    def ready_event() -> None:
        pairing = _offer(app, SWISS, "swiss", "Friday Swiss", 3, False)
        app.do(do.StartPairing(pairing.uuid), clock.now())

    def ready_berserk() -> None:
        pairing = _offer(app, ARENA, "arena", "Arena night", None, True)
        app.do(do.StartPairing(pairing.uuid), clock.now())
        app.do(do.Berserk(1), clock.now())

    return {"home-pairing": home_pairing, "ready-event": ready_event, "ready-berserk": ready_berserk,
            **join_scenes(app, clock)}
