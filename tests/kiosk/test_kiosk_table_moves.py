"""After a move: forced passes without a reveal, the last placement, the hand-over recap, quick bids
(real engine matches, through the session and the controller; no pygame)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from kiosk_support import playing

from engine import (
    ALL_TILES,
    NS_PER_S,
    Bid,
    Deal,
    Decline,
    Draw,
    Match,
    MatchConfig,
    Pass,
    Phase,
    Play,
    Point,
    Reveal,
    Start,
    Tile,
    Transfer,
    TransferReason,
)
from kiosk.config import KioskConfig, MatchSettings
from kiosk.i18n import translator
from kiosk.store.journal import Journal
from kiosk.store.recorder import RecordingMatch
from kiosk.table import intents as do
from kiosk.table.controller import Controller
from kiosk.table.recap import recap_text
from kiosk.table.session import GameSession, Message
from kiosk.timesource import FakeClock

S = NS_PER_S
CHAIN = Deal.from_names(
    [["1|4", "4|4", "1|2", "5|5", "1|3", "2|6", "0|6"], ["1|1", "3|4", "1|5", "0|5", "2|3", "6|6", "0|0"]],
    ["0|1", "0|2", "0|3", "0|4", "1|6", "2|2", "2|4", "2|5", "3|3", "3|5", "3|6", "4|5", "4|6", "5|6"],
)


def position(hands: list[list[str]], layout: list[list[object]], boneyard: list[str], to_act: int,
             handover: bool = True) -> tuple[GameSession, list[tuple[object, int]]]:
    """A session whose match is in play at ``to_act``'s turn (clock running since 0), as given; and the
    actions the match reports to its listener (the journal's hook), with their arrivals."""
    s = GameSession(MatchSettings(handover=handover), random.Random(4))
    m = Match(MatchConfig(jockey=0, handover=handover))
    m.apply(Start(None, CHAIN), 0)
    if handover:
        m.apply(Reveal(1), 0)
    m.apply(Decline(1), 0)
    if handover:
        m.apply(Reveal(0), 0)
    data = m.to_dict()
    data.update(layout=layout, boneyard=boneyard, hands=hands, to_act=to_act, opening_tile=None, last_actor=1 - to_act,
                clock={**data["clock"], "running": to_act, "started_ns": 0})
    match = RecordingMatch.from_dict(data)
    assert isinstance(match, RecordingMatch)
    heard: list[tuple[object, int]] = []
    match.listener = lambda _m, action, now: heard.append((action, now))
    s.match = match
    return s, heard


LINE = "0|0 0|6 6|6 5|6 5|5 4|5 4|6 1|6 1|5 3|5 3|4 4|4 2|4 2|5 0|5 0|4 1|4 1|3 3|3 0|3 0|2 2|2 1|2 1|1"
"""One line of 24 tiles from [0|0]; its ends: [0|0] lineA (0) and [1|1] lineB (1)."""


def everything_but(*names: str) -> list[str]:
    return [str(t) for t in ALL_TILES if str(t) not in names]


def test_a_forced_pass_on_a_shared_screen_asks_for_no_reveal() -> None:
    s, heard = position([everything_but("1|4", "2|3"), ["2|3"]], [["1|4", None]], [], 0)
    assert s.command(Play(0, Tile.parse("0|1"), Point.parse("1|4", "low")), 3 * S)
    # player 2 holds only [2|3] (nothing fits, nothing to draw): revealed, passed, and player 1 goes on
    assert [a for a, _ in heard] == [Play(0, Tile.parse("0|1"), Point.parse("1|4", "low")), Reveal(1), Pass(1),
                                     Reveal(0)]
    assert {t for _, t in heard} == {3 * S}  # every step at the play's arrival: no time charged to anyone
    m = s.match
    assert m.phase is Phase.PLAY and m.to_act == 0 and m.clock_running == 0
    assert m.decision_started_ns() == 3 * S
    said = [x for x in s.live_messages(3 * S) if x.text == "Player 2 cannot play and passes"]
    assert len(said) == 1 and said[0].player is None  # for both players


def test_a_forced_pass_of_both_players_ends_the_round_blocked_without_a_reveal() -> None:
    from engine import Layout

    names = LINE.split(" ")

    layout, end = Layout(), None
    rows: list[list[object]] = []
    for name in names:
        tile = Tile.parse(name)
        layout.place(tile, end)
        rows.append([name, None if end is None else [str(end.tile), end.slot.value]])
        end = next(p for p, _ in layout.open_points() if p.tile == tile and p.slot.value in ("high", "low", "lineB"))
    s, heard = position([["0|1", "2|3"], ["2|6", "3|6"]], rows, [], 0)
    assert s.command(Play(0, Tile.parse("0|1"), Point.parse("1|1", "lineB")), 2 * S)
    assert [type(a).__name__ for a, _ in heard] == ["Play", "Reveal", "Pass", "Reveal", "Pass"]
    assert s.match.phase is Phase.READY and s.match.round == 1  # the settlement: nobody was asked to reveal
    assert [x.text for x in s.messages if "cannot play" in x.text] == ["Player 2 cannot play and passes",
                                                                         "Player 1 cannot play and passes"]


def test_a_match_resumed_at_a_forced_pass_passes_at_the_next_tick() -> None:
    s, _ = position([everything_but("1|4", "0|1", "2|3"), ["2|3"]], [["1|4", None], ["0|1", ["1|4", "low"]]], [], 1)
    data = s.match.to_dict()
    data.update(phase="handover", after_reveal="play", clock={**data["clock"], "running": None, "started_ns": None},
                last_actor=0, last_ns=5 * S)
    s.match = Match.from_dict(data)
    assert s.forced_pass_due()
    s.tick(6 * S)
    assert s.match.phase is Phase.PLAY and s.match.to_act == 0 and not s.forced_pass_due()


def test_no_forced_pass_while_a_tile_fits_or_the_boneyard_has_tiles() -> None:
    s, _ = position([everything_but("1|4", "2|3", "5|6"), ["2|3"]], [["1|4", None]], ["5|6"], 0)
    s.command(Play(0, Tile.parse("0|1"), Point.parse("1|4", "low")), 1 * S)
    assert s.match.phase is Phase.HANDOVER and s.match.to_act == 1  # player 2 may draw: the hand-over stays
    assert not s.forced_pass_due()


def test_the_last_placement_and_its_score_until_the_next_one() -> None:
    s, _ = position([everything_but("1|4", "2|3"), ["2|3"]], [["1|4", None]], [], 0, handover=False)
    assert s.last_placement is None
    assert s.command(Play(0, Tile.parse("1|6"), Point.parse("1|4", "low")), 1 * S)  # ends 6 + 4 = 10
    last = s.last_placement
    assert last is not None and (last.player, last.tile, last.score) == (0, Tile.parse("1|6"), 10)
    assert s.match.layout.placements[last.index].tile == Tile.parse("1|6") and last.at == Point.parse("1|4", "low")
    paid = [e for e in s.events if isinstance(e, Transfer) and e.reason is TransferReason.SCORE]
    assert paid[-1].points == last.score
    s.command(Play(0, Tile.parse("0|4"), Point.parse("1|4", "high")), 2 * S)  # player 2 passed: player 1 again
    assert s.last_placement is not None and s.last_placement.tile == Tile.parse("0|4") and s.last_placement.score == 0


def test_the_recap_tells_the_returning_player_the_draws_the_play_and_its_score() -> None:
    s, _ = position([everything_but("1|4", "2|3", "5|6", "1|6"), ["2|3"]], [["1|4", None]], ["5|6", "1|6"], 1)
    assert s.command(Draw(1), 1 * S) and s.command(Draw(1), 2 * S)
    assert s.match.drawn_tile == Tile.parse("1|6")
    assert s.command(Play(1, Tile.parse("1|6"), Point.parse("1|4", "low")), 3 * S)
    assert s.match.phase is Phase.HANDOVER and s.match.to_act == 0
    seen = s.recap.for_player(0)
    en = recap_text(translator("en"), "Player 2", seen)
    assert en == "Player 2 since your last turn: drew 2 tiles, played [1|6] (+10)"
    assert s.recap.for_player(1) == ()  # the mover saw their own moves
    s.command(Reveal(0), 4 * S)
    assert s.recap.for_player(0) == ()  # told: gone once player 1 has the board
    assert recap_text(translator("en"), "Player 2", ()) == ""


def test_a_new_round_forgets_the_last_placement_and_the_recap() -> None:
    s, _ = position([everything_but("1|4", "2|3"), ["2|3"]], [["1|4", None]], [], 0, handover=False)
    s.command(Play(0, Tile.parse("1|6"), Point.parse("1|4", "low")), 1 * S)
    data = s.match.to_dict()
    data.update(phase="ready", to_act=None, clock={**data["clock"], "running": None, "started_ns": None})
    s.match = Match.from_dict(data)
    s.command(Start(0), 2 * S)
    assert s.last_placement is None and s.recap.for_player(1) == ()


def controller(journal: Journal | None = None, **match: object) -> tuple[Controller, FakeClock]:
    config = replace(KioskConfig(), match=replace(MatchSettings(handover=True), **match))  # type: ignore[arg-type]
    clock = FakeClock(10 * S)
    return Controller(config, clock, rng=random.Random(11), journal=journal, boot_id="boot-1"), clock


def act(c: Controller, clock: FakeClock) -> None:
    """The player to act makes their first legal move by the controller's intents (a tap each)."""
    s = playing(c)
    assert s is not None
    m = s.match
    clock.advance(0.5)
    now = clock.now()
    player = m.to_act
    c.touched(now)
    if m.phase is Phase.READY:
        c.handle(do.Start(0), now)
    elif m.phase is Phase.HANDOVER:
        c.handle(do.Reveal(player), now)
    elif m.phase is Phase.AUCTION:
        c.handle(do.Decline(player) if m.auction().bid is None else do.Accept(player), now)
    else:
        legal = m.legal_actions()
        play = next((a for a in legal if isinstance(a, Play)), None)
        if play is None:
            c.handle(do.DrawTile(player), now)
        else:
            c.handle(do.TapTile(play.player, play.tile), now)
            if s.selected == play.tile and play.at is not None:
                c.handle(do.TapPoint(play.at), now)
    c.update(clock.now())


def test_through_the_controller_a_forced_pass_is_journalled_with_its_reveals_at_one_time(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    try:
        c, clock = controller(journal)
        c.new_match()
        passes = 0
        for _ in range(3000):  # real matches, dealt by the seeded kiosk, until a forced pass happens
            act(c, clock)
            s = playing(c)
            assert s is not None
            passes = sum("cannot play and passes" in x.text for x in s.messages)
            if passes or s.match.is_over:
                break
        assert passes, "no forced pass in this match"
        match_id = journal.matches()[0].id
        steps = [e.step for e in journal.commands(match_id)]
        at = next(i for i, step in enumerate(steps) if step["do"] == "pass")
        passer = steps[at]["player"]
        assert steps[at - 1] == {"t": steps[at]["t"], "player": passer, "do": "reveal"}
        assert steps[at - 2]["do"] == "play" and steps[at - 2]["t"] == steps[at]["t"]
        assert steps[at + 1]["do"] in ("reveal", "pass") and steps[at + 1]["t"] == steps[at]["t"]
        assert playing(c).match.phase is not Phase.HANDOVER or playing(c).match.to_act != passer
    finally:
        journal.close()


def test_quick_bids_plus_25_and_all_i_can_afford() -> None:
    c, clock = controller(handover=False, balances=60)
    c.new_match()
    s = playing(c)
    assert s is not None
    s.match = Match(MatchConfig(balances=(60, 60), jockey=0))
    c.handle(do.Start(0), clock.now())
    assert s.match.phase is Phase.AUCTION and s.match.to_act == 1 and s.bid_draft == 15
    c.handle(do.StepBid(5), clock.now())  # +25
    assert s.bid_draft == 40
    c.handle(do.MaxBid(), clock.now())
    most = max(a.amount for a in s.match.legal_actions() if isinstance(a, Bid))
    assert most == 60 and s.bid_draft == 55  # the most that keeps the player in the match, not the whole balance
    c.handle(do.StepBid(5), clock.now())
    assert s.bid_draft == most  # +5 reaches the whole balance, and never past it
    c.handle(do.StepBid(5), clock.now())
    assert s.bid_draft == most
    clock.advance(1)
    c.handle(do.PlaceBid(1), clock.now())  # the whole balance: asked first, not placed
    assert s.all_in == most and s.match.auction().bid is None and s.match.to_act == 1
    c.handle(do.CancelAllIn(1), clock.now())  # No: back to the most that keeps the player in
    assert s.all_in is None and s.bid_draft == 55 and s.match.auction().bid is None
    c.handle(do.StepBid(1), clock.now())
    c.handle(do.PlaceBid(1), clock.now())
    c.handle(do.ConfirmAllIn(1), clock.now())  # Yes: placed
    assert not [x.text for x in s.messages if x.kind == "refused"]
    assert s.match.auction().bid == most and s.match.to_act == 0 and s.all_in is None
    c.handle(do.MaxBid(), clock.now())  # the jockey: 15 of credit on their own bid
    assert max(a.amount for a in s.match.legal_actions() if isinstance(a, Bid)) == 75
    assert s.bid_draft == 70  # costs 55 of their 60


def test_the_delay_display_is_explained_once_when_the_first_clock_runs() -> None:
    c, clock = controller(handover=True)
    c.new_match()
    s = playing(c)
    assert s is not None

    def explained() -> list[Message]:
        return [x for x in s.messages if x.text == "+10s beside a running clock: free seconds before the bank is used"]

    act(c, clock)  # Start: a hand-over, no clock runs yet
    assert s.match.phase is Phase.HANDOVER and not explained()
    act(c, clock)  # the reveal starts the first clock: said then, to both players
    first = explained()
    assert s.match.clock_running is not None and len(first) == 1 and first[0].player is None
    assert first[0].until_ns == s.match.decision_started_ns() + 4 * S
    for _ in range(12):
        act(c, clock)
    assert all(x is first[0] for x in explained())  # never said again
    c2, _ = controller(handover=False, delay_seconds=0)
    c2.new_match()
    act(c2, clock)
    assert c2.session is not None and c2.session.match.clock_running is not None
    assert not [x for x in c2.session.messages if "beside a running clock" in x.text]  # no delay, nothing to explain
