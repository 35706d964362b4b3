"""The screenshots' club-event scenes (issue 25): the home screen offering a pairing, the ready screen
of a Swiss pairing, and an arena's ready screen with berserk (Player 2 chose it)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.app import App
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

    return {"home-pairing": home_pairing, "ready-event": ready_event, "ready-berserk": ready_berserk}
