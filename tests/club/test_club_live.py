"""Live tables: the public projection (no hidden tile while a round runs), POST /api/v1/live (a kiosk
token, a strict shape, stale projections dropped), the SSE stream (follows, reconnects and catches up),
a whole match scanned byte by byte, and the kiosk's sender (newest wins, back-off while the hub is away)."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest
from club_page_support import SseReader, hidden_tiles_in, played_match, serve, stop

from club.app import create_app
from club.web.broker import LiveBoard
from club.web.livewire import parse_live
from engine import ALL_TILES, Match, Phase
from engine.public import blocked_settlement, project
from kiosk.club.live import LiveSender, projection_body


class FakeClock:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_the_projection_holds_no_hidden_tile_while_a_round_runs_and_the_hands_only_after_a_blocked_round() -> None:
    blocked = revealed = checked = 0
    for seed in range(12):
        for step in played_match(seed, balances=(150, 150), limit=400):
            text = json.dumps(step.body)
            assert hidden_tiles_in(text, step.hidden) == [], (seed, step.seq)
            state = step.body["state"]
            assert set(state) >= {"balances", "banks_ns", "to_act", "auction", "layout", "open_ends", "end_count",
                                  "hand_counts", "boneyard_count", "last_move"}
            assert state["hand_counts"] == list(step.match.hand_sizes())
            assert state["boneyard_count"] == step.match.boneyard_count
            checked += 1
            if blocked_settlement(step.match):
                blocked += 1
                assert state["hands"] == [[str(t) for t in step.match.hand(p)] for p in (0, 1)]
                revealed += 1
            else:
                assert state["hands"] is None
    assert checked > 500 and blocked == revealed


def test_a_draw_in_the_last_move_never_names_the_drawn_tile() -> None:
    draws = 0
    for seed in range(8):
        for step in played_match(seed, limit=300):
            move = step.body["state"]["last_move"]
            if move and move["kind"] == "draw":
                draws += 1
                assert move["tile"] is None
    assert draws > 0


def test_the_hub_refuses_a_projection_with_a_hand_while_the_round_runs_or_an_impossible_layout() -> None:
    step = next(s for s in played_match(1) if s.match.phase is Phase.PLAY)
    body = json.loads(json.dumps(step.body))
    parse_live(json.dumps(body).encode())
    body["state"]["hands"] = [[str(t) for t in step.match.hand(0)], []]
    with pytest.raises(Exception, match="only after the round's settlement"):
        parse_live(json.dumps(body).encode())
    body = json.loads(json.dumps(step.body))
    body["state"]["end_count"] = 55
    with pytest.raises(Exception, match="end count"):
        parse_live(json.dumps(body).encode())
    body = json.loads(json.dumps(step.body))
    body["state"]["secret"] = ["1|2"]
    with pytest.raises(Exception, match="Extra inputs"):
        parse_live(json.dumps(body).encode())


def test_posting_needs_a_kiosk_token_and_a_valid_body_and_stale_projections_are_dropped(hub) -> None:
    token = hub.kiosk("table 1")
    steps = list(played_match(2, limit=6))
    post = hub.client.post
    assert post("/api/v1/live", json=steps[0].body).status_code == 401
    assert post("/api/v1/live", json=steps[0].body, headers={"Authorization": "Bearer sbk_x"}).status_code == 401
    auth = {"Authorization": f"Bearer {token}"}
    assert post("/api/v1/live", content=b"{not json", headers=auth).status_code == 422
    assert post("/api/v1/live", content=b"x" * 70_000, headers=auth).status_code == 413
    assert hub.client.get("/api/v1/live").json() == []
    assert post("/api/v1/live", json=steps[3].body, headers=auth).json()["result"] == "published"
    assert post("/api/v1/live", json=steps[1].body, headers=auth).json()["result"] == "stale"
    live = hub.client.get("/api/v1/live").json()
    assert len(live) == 1 and live[0]["seq"] == 4 and live[0]["players"] == ["Ann", "Bo"]
    newer = dict(steps[0].body, match="m2")  # a new match on the table starts again from seq 1
    assert post("/api/v1/live", json=newer, headers=auth).json()["result"] == "published"
    assert hub.client.get("/api/v1/live").json()[0]["match"] == "m2"


def test_a_table_that_closes_its_unfinished_match_leaves_the_list_and_the_stream_says_so(served, dsn: str) -> None:
    token = _token(dsn, "table 1")
    steps = list(played_match(2, limit=4))
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=served.base, timeout=10) as client:
        post = client.post
        assert post("/api/v1/live", json=steps[2].body, headers=auth).json()["result"] == "published"
        key = client.get("/api/v1/live").json()[0]["key"]
        reader = SseReader(served.base + "/live/events").start()
        assert reader.wait_for(lambda ev: any(e["event"] == "table" for e in ev))
        match = steps[2].body["match"]
        for bad in ({"match": match, "seq": 9, "closed": False}, {"match": match, "seq": 9, "closed": True, "x": 1},
                    {"match": match, "closed": True}, dict(steps[3].body, closed=True)):
            assert post("/api/v1/live", json=bad, headers=auth).status_code == 422, bad
        for stale in ({"match": match, "seq": 3, "closed": True}, {"match": "other", "seq": 9, "closed": True}):
            assert post("/api/v1/live", json=stale, headers=auth).json()["result"] == "stale"
        assert post("/api/v1/live", json={"match": match, "seq": 3, "closed": True}).status_code == 401
        assert len(client.get("/api/v1/live").json()) == 1  # nothing changed
        closed = post("/api/v1/live", json={"match": match, "seq": 4, "closed": True}, headers=auth).json()
        assert closed["result"] == "closed" and closed["table"] == key
        assert client.get("/api/v1/live").json() == []
        assert post("/api/v1/live", json={"match": match, "seq": 5, "closed": True}, headers=auth).json()["result"] \
            == "stale"  # already gone
        assert reader.wait_for(lambda ev: any(e["event"] == "gone" for e in ev))
        gone = [e for e in reader.events if e["event"] == "gone"]
        assert len(gone) == 1 and json.loads(gone[0]["data"]) == {"key": key, "event": closed["event"]}
        boot, _, number = gone[0]["id"].partition("-")  # BOOT-N: this hub process's mark, then the number
        assert number == str(closed["event"])
        reader.close()
        again = SseReader(served.base + "/live/events", headers={"Last-Event-ID": f"{boot}-1"}).start()  # back later
        assert again.wait_for(lambda ev: any(e["event"] == "gone" for e in ev))
        assert [e["event"] for e in again.events] == ["gone"]
        again.close()
        fresh = SseReader(served.base + "/live/events").start()  # a new browser: no table, nothing gone
        assert key not in client.get("/").text
        fresh.close()
        assert not [e for e in fresh.events if e["event"] == "gone"]
        newer = dict(steps[0].body, match="m2")  # the table's next match is live again
        assert post("/api/v1/live", json=newer, headers=auth).json()["result"] == "published"
        assert [t["key"] for t in client.get("/api/v1/live").json()] == [key]


def test_a_token_revoked_in_the_database_is_refused_once_its_minute_in_the_cache_is_over(dsn: str) -> None:
    import psycopg
    from fastapi.testclient import TestClient

    from club.web.pages import TOKEN_CACHE_S

    clock = FakeClock()
    token = _token(dsn, "table 1")
    steps = [s.body for s in played_match(3, limit=3)]
    auth = {"Authorization": f"Bearer {token}"}
    with TestClient(create_app(dsn, pool_size=2, clock=clock)) as client:
        assert client.post("/api/v1/live", json=steps[0], headers=auth).status_code == 200
        with psycopg.connect(dsn) as conn:
            conn.execute("UPDATE kiosks SET revoked_at = now()")
        assert client.post("/api/v1/live", json=steps[1], headers=auth).status_code == 200  # trusted for a minute
        clock.t += TOKEN_CACHE_S + 1
        assert client.post("/api/v1/live", json=steps[2], headers=auth).status_code == 401


@pytest.fixture
def served(dsn: str):
    running = serve(create_app(dsn, pool_size=4, clock=FakeClock()))
    try:
        yield running
    finally:
        stop(running)


def _token(dsn: str, name: str) -> str:
    import psycopg

    from club.tokens import add_kiosk

    with psycopg.connect(dsn) as conn:
        return add_kiosk(conn, name)[1]


def test_a_whole_match_leaks_no_hidden_tile_in_any_byte_the_hub_sends(served, dsn: str) -> None:
    """Every projection, and every byte of the pages, the JSON and the SSE streams, scanned after every command."""
    token = _token(dsn, "table <1>")
    reader = SseReader(served.base + "/live/events").start()
    table_reader: SseReader | None = None
    scanned = 0
    with httpx.Client(base_url=served.base, timeout=10) as client:
        for step in played_match(7, balances=(150, 150), limit=250):
            assert hidden_tiles_in(json.dumps(step.body), step.hidden) == []
            answer = client.post("/api/v1/live", json=step.body, headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 200
            key = answer.json()["table"]
            if table_reader is None:
                table_reader = SseReader(served.base + f"/live/events?table={key}").start()
            assert reader.wait_for(lambda ev, n=step.seq: any(json.loads(e["data"])["event"] >= n for e in ev))
            for path in ("/", f"/tables/{key}", "/api/v1/live", "/tv"):
                got = client.get(path)
                assert got.status_code == 200
                assert hidden_tiles_in(got.text, step.hidden) == [], (step.seq, path)
                scanned += len(got.content)
            sse_text = b"".join(reader.raw).decode() + b"".join(table_reader.raw).decode()
            # the hidden set changes with the round: scan the events of this step
            latest = [e for e in reader.events if json.loads(e["data"])["event"] == answer.json()["event"]]
            assert latest and hidden_tiles_in(latest[-1]["data"], step.hidden) == []
    reader.close()
    assert table_reader is not None
    table_reader.close()
    assert scanned > 100_000 and len(sse_text) > 10_000


def test_the_stream_reconnects_and_catches_up_from_the_last_event(served, dsn: str) -> None:
    token = _token(dsn, "table 1")
    steps = list(played_match(4, limit=8))
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=served.base, timeout=10) as client:
        first = SseReader(served.base + "/live/events").start()
        for step in steps[:3]:
            client.post("/api/v1/live", json=step.body, headers=auth)
        assert first.wait_for(lambda ev: any(e["id"].endswith("-3") for e in ev))
        last_id = first.events[-1]["id"]
        first.close()
        for step in steps[3:6]:  # while the browser is away
            client.post("/api/v1/live", json=step.body, headers=auth)
        again = SseReader(served.base + "/live/events", headers={"Last-Event-ID": last_id}).start()
        assert again.wait_for(lambda ev: len(ev) >= 1)
        caught_up = json.loads(again.events[0]["data"])
        assert caught_up["event"] == 6 and "Ann" in caught_up["html"]
        client.post("/api/v1/live", json=steps[6].body, headers=auth)
        assert again.wait_for(lambda ev: any(json.loads(e["data"])["event"] == 7 for e in ev))
        again.close()


def test_an_event_id_of_another_hub_process_means_every_table() -> None:
    board, other = LiveBoard(), LiveBoard()
    assert board.boot != other.boot
    assert board.event_of(board.event_id(7)) == 7
    for text in (other.event_id(7), "7", "", "x-1", f"{board.boot}-", f"{board.boot}-1e3", f"{board.boot}-" + "9" * 19):
        assert board.event_of(text) is None, text
    assert board.since(None) == []


def test_the_kiosk_sender_sends_the_newest_and_drops_stale_ones(served, dsn: str) -> None:
    token = _token(dsn, "table 1")
    gate = threading.Event()
    seen: list[int] = []

    def slow_post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        gate.wait(10)
        seen.append(json.loads(body)["seq"])
        return httpx.post(url, content=body, headers=headers, timeout=timeout_s).status_code

    sender = LiveSender(served.base, token, post=slow_post)
    sender.start()
    match = Match()
    for seq in range(1, 6):
        sender.offer(projection_body(match, seq, match_id="m", seq=seq, names=("Ann", None)))
    gate.set()
    reader = SseReader(served.base + "/live/events").start()
    assert reader.wait_for(lambda ev: any(json.loads(e["data"])["event"] >= 1 for e in ev))
    sender.close()
    assert seen[-1] == 5 and len(seen) <= 2 and sender.stats.dropped >= 3
    assert httpx.get(served.base + "/api/v1/live").json()[0]["seq"] == 5
    reader.close()


def test_the_kiosk_sender_backs_off_while_the_hub_is_away_and_then_sends_only_the_newest() -> None:
    tries: list[tuple[int, bool]] = []
    up = threading.Event()
    done = threading.Event()
    failed = threading.Semaphore(0)

    def post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        seq = json.loads(body)["seq"]
        tries.append((seq, up.is_set()))
        if not up.is_set():
            failed.release()
            raise ConnectionRefusedError("the hub is away")
        done.set()
        return 200

    sender = LiveSender("http://127.0.0.1:9", "sbk_token", post=post, backoff_s=(0.05, 0.2))
    sender.start()
    match = Match()
    sender.offer(projection_body(match, 0, match_id="m", seq=1, names=(None, None)))
    assert failed.acquire(timeout=5)
    for seq in range(2, 40):
        sender.offer(projection_body(match, 0, match_id="m", seq=seq, names=(None, None)))
    assert failed.acquire(timeout=5)  # tried again after its back-off, with the newest
    up.set()
    assert done.wait(5)
    sender.close()
    assert sender.stats.failures >= 2 and sender.stats.sent == 1 and sender.stats.dropped >= 37
    assert tries[-1] == (39, True)
    assert len(tries) < 20  # backed off: far fewer tries than offers


def test_projection_of_a_fresh_match_is_plain_data() -> None:
    state: dict[str, Any] = project(Match(), 0)
    assert state["phase"] == "ready" and state["layout"] == [] and state["hands"] is None
    assert json.loads(json.dumps(state)) == state
    assert len(ALL_TILES) == 28
