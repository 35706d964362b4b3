"""Named players' names in the in-game texts, with the Korean particles their names take — the real app
headless (real SQLite, fake clock, posted clicks)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from kiosk_support import draw_recorded, open_app, playing, tap

from engine import NS_PER_S, Phase
from kiosk.app import App
from kiosk.i18n import translator
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S
DOUBLE_PARTICLES = ("은(는)", "이(가)", "을(를)", "(으)로", "와(과)")


@pytest.fixture
def kiosk(journal: Journal) -> tuple[App, FakeClock]:
    clock = FakeClock(10 * S)
    app = open_app(journal, clock)
    app.step(wait=False)
    return app, clock


def seat(app: App, players: Players, seat_: int, name: str) -> None:
    player = players.create(name, wall_s=1)
    tap(app, do.OpenPicker(seat_))
    tap(app, do.PickPlayer(seat_, player.id))


def texts(app: App, clock: FakeClock) -> list[str]:
    return [f.text for f in draw_recorded(app, clock)]


def test_the_table_says_the_players_names_with_the_particles_they_take(kiosk: tuple[App, FakeClock],
                                                                       journal: Journal) -> None:
    app, clock = kiosk
    players = Players(journal)
    tap(app, do.HostLanguage("ko"))
    tap(app, do.NewMatch())
    seat(app, players, 0, "김민준")
    seat(app, players, 1, "Anna")
    clock.advance(1)
    tap(app, do.Start(0))
    m = playing(app).match
    assert m.phase is Phase.PLAY and m.to_act is not None
    opener = ("김민준", "Anna")[m.to_act]
    shown = texts(app, clock)
    card = [s for s in shown if "시작" in s and opener in s]
    assert card, shown  # "김민준은 [6|6]으로 시작해야 합니다" / "Anna는 [5|5]로 ..."
    particle = "은" if opener == "김민준" else "는"
    assert card[0].startswith(opener + particle + " "), card
    assert not [s for s in shown if any(d in s for d in DOUBLE_PARTICLES)], shown
    assert not [s for s in shown if "플레이어" in s], shown  # no "Player 1" where a name is known

    resigner = m.to_act
    tap(app, do.Resign(resigner))
    other = ("김민준", "Anna")[1 - resigner]
    confirm = [s for s in texts(app, clock) if s.startswith("예를 누르면")]
    assert confirm == [f"예를 누르면 경기가 끝나고 {other}{'이' if other == '김민준' else '가'} 이깁니다."]


def test_a_guest_is_player_n_and_the_particle_follows_the_numbers_reading(kiosk: tuple[App, FakeClock],
                                                                         journal: Journal) -> None:
    app, clock = kiosk
    tap(app, do.HostLanguage("ko"))
    tap(app, do.NewMatch())
    seat(app, Players(journal), 0, "Олена")
    clock.advance(1)
    tap(app, do.Start(0))
    session = playing(app)
    assert session is not None
    said = [translator("ko")(session.namer(p)) for p in (0, 1)]
    assert said == ["Олена", "플레이어 2"]
    ko = translator("ko")
    assert ko._("{player} must open with [{tile}]", player=session.namer(1), tile="1|4") == \
        "플레이어 2는 [1|4]로 시작해야 합니다"
    assert ko._("{player} must open with [{tile}]", player=session.namer(0), tile="3|6") == \
        "Олена는 [3|6]으로 시작해야 합니다"
    en = [s for s in texts(app, clock)]
    assert not [s for s in en if any(d in s for d in DOUBLE_PARTICLES)], en


def test_the_messages_name_the_player_in_english_too(kiosk: tuple[App, FakeClock], journal: Journal) -> None:
    app, clock = kiosk
    tap(app, do.NewMatch())
    seat(app, Players(journal), 1, "Anna")
    clock.advance(1)
    tap(app, do.Start(1))
    session = playing(app)
    assert session is not None
    assert session.namer(1) == "Anna" and session.namer(0) == "Player 1"
    m = session.match
    opener = ("Player 1", "Anna")[m.to_act or 0]
    assert any(s.startswith(f"{opener} must open with [") or s == f"{opener} opens with any tile"
               for s in texts(app, clock))
