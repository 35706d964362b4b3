"""The kiosk's live feed to the club page (issue 23): a whole match played through the real app,
one projection per accepted command, each one the hub's own check accepts, none naming a tile of a
hand or the boneyard while its round runs; a clock that only counts down sends nothing, and a
failing sender never stops the table."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from kiosk_support import kiosk_app, playing, tap

from club.web.livewire import LiveClosed, parse_live
from engine import ALL_TILES, NS_PER_S, Phase, Play
from kiosk.app import App
from kiosk.club.live_feed import LiveFeed
from kiosk.config import KioskConfig, MatchSettings
from kiosk.table import intents as do
from kiosk.timesource import FakeClock

S = NS_PER_S


class Recorder:
    """Takes what the feed offers (in place of the sender's thread), with the tiles hidden at that moment."""

    def __init__(self, app: list[App]) -> None:
        self.app = app
        self.bodies: list[dict[str, Any]] = []
        self.hidden: list[set[str]] = []

    def offer(self, body: dict[str, Any]) -> None:
        m = playing(self.app[0]).match
        placed = set(m.layout.tiles())
        self.bodies.append(json.loads(json.dumps(body)))
        self.hidden.append({str(t) for t in ALL_TILES if t not in placed})


def open_app(feed_sender: Any) -> tuple[App, FakeClock, LiveFeed]:
    feed = LiveFeed(feed_sender)
    app, clock = kiosk_app(match={"handover": False}, seed=5, live=feed)
    return app, clock, feed


def play_until(app: App, clock: FakeClock, rounds: int) -> None:
    s = playing(app)
    for _ in range(3000):
        m = s.match
        if m.is_over or m.round > rounds:
            return
        clock.advance(1)
        legal = m.legal_actions()
        if m.phase is Phase.READY:
            s.start(0, clock.now())
            app.step(wait=False)
        elif m.phase is Phase.AUCTION:
            s.command(legal[0], clock.now())  # the first legal auction action, as the buttons would
            app.step(wait=False)
        else:
            play = next((a for a in legal if isinstance(a, Play)), None)
            s.command(play or legal[0], clock.now())
            app.step(wait=False)


def test_a_projection_per_accepted_command_valid_for_the_hub_and_no_hidden_tile() -> None:
    holder: list[App] = []
    recorder = Recorder(holder)
    app, clock, feed = open_app(recorder)
    assert feed.offered == 0
    holder.append(app)
    app.step(wait=False)
    tap(app, do.NewMatch())
    assert recorder.bodies, "a new match at the table is shown at once"
    play_until(app, clock, rounds=2)
    s = playing(app)
    assert len(recorder.bodies) >= 20 and feed.offered == len(recorder.bodies)
    seqs = [b["seq"] for b in recorder.bodies]
    assert seqs == list(range(1, len(seqs) + 1)) and len({b["match"] for b in recorder.bodies}) == 1
    revealed = 0
    for body, hidden in zip(recorder.bodies, recorder.hidden, strict=True):
        parse_live(json.dumps(body).encode())  # the hub's own check takes it
        state = body["state"]
        if state["hands"] is not None:  # only at a blocked round's settlement, when the rules compare them
            assert state["phase"] not in ("auction", "play", "handover"), state
            revealed += 1
            continue
        text = json.dumps(state)
        assert not [t for t in hidden if f'"{t}"' in text], state
    # a clock that only counts down sends nothing: the page counts down itself
    before = len(recorder.bodies)
    for _ in range(6):
        clock.advance(S // 2)
        app.step(wait=False)
    assert s.match.clock_running is not None or s.match.is_over
    assert len(recorder.bodies) == before or s.match.is_over


class Broken:
    def offer(self, body: dict[str, Any]) -> None:
        raise OSError("the sender's queue is gone")


def test_a_failing_sender_is_said_once_and_the_table_plays_on(capsys: pytest.CaptureFixture[str]) -> None:
    said: list[str] = []
    config = replace(KioskConfig(), match=MatchSettings(handover=False))
    app, clock = kiosk_app(config, seed=5, live=LiveFeed(Broken(), said.append))
    app.step(wait=False)
    tap(app, do.NewMatch())
    play_until(app, clock, rounds=1)
    assert playing(app).match.round >= 1
    assert len(said) == 1 and "the table plays on" in said[0]


class Bodies:
    """Takes what the feed offers, whatever the table shows."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def offer(self, body: dict[str, Any]) -> None:
        self.bodies.append(json.loads(json.dumps(body)))


def test_home_from_a_match_not_over_says_the_table_closed_it_and_home_after_the_end_says_nothing() -> None:
    bodies = Bodies()
    app, clock, feed = open_app(bodies)
    app.step(wait=False)
    tap(app, do.NewMatch())
    ready = bodies.bodies[-1]
    assert ready["state"]["phase"] == "ready" and ready["state"]["outcome"] is None
    tap(app, do.GoHome)  # back home from the ready screen: the hub would count the table as playing
    assert app.session is None
    closed = bodies.bodies[-1]
    assert closed == {"match": ready["match"], "seq": ready["seq"] + 1, "closed": True}
    assert isinstance(parse_live(json.dumps(closed).encode()), LiveClosed)  # the hub's own check takes it
    app.step(wait=False)
    assert bodies.bodies[-1] == closed and feed.offered == len(bodies.bodies)  # said once
    tap(app, do.NewMatch())
    s = playing(app)
    assert bodies.bodies[-1]["match"] != closed["match"]  # a new match: a new key
    s.start(0, clock.now())
    s.resign(1, clock.now())
    app.step(wait=False)
    assert s.match.is_over and bodies.bodies[-1]["state"]["outcome"] is not None
    count = len(bodies.bodies)
    tap(app, do.GoHome)
    app.step(wait=False)
    assert len(bodies.bodies) == count  # its last projection already says it is over
