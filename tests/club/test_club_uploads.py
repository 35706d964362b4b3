"""POST /api/v1/uploads: idempotent, conflicts refused and listed, only what replays believed, bad
input a clear 4xx with nothing stored, and no token in any log line."""

from __future__ import annotations

import copy
import json
import logging

import pytest
from club_support import tampered

from club.wire import MAX_BODY_BYTES, MAX_ROWS


def _one(journals, table="table-1", index=0):
    body = journals[table]
    match = body["matches"][index]
    named = {p for p in match["header"]["players"] if p}
    return copy.deepcopy({"players": [p for p in body["players"] if p["uuid"] in named], "matches": [match]})


def test_an_upload_is_stored_verified_and_the_same_rows_twice_change_nothing(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = copy.deepcopy(journals["table-1"])
    first = hub.upload(token, body)
    assert first.status_code == 200, first.text
    assert {m["result"] for m in first.json()["matches"]} == {"stored"}
    assert {m["status"] for m in first.json()["matches"]} == {"verified"}
    stored = hub.counts()
    assert stored["matches"] == 5 and stored["players"] == 3
    assert stored["match_rows"] == sum(len(m["rows"]) for m in body["matches"])
    board = hub.client.get("/api/v1/leaderboard").json()
    again = hub.upload(token, body)
    assert again.status_code == 200
    assert {m["result"] for m in again.json()["matches"]} == {"already held"}
    assert {p["result"] for p in again.json()["players"]} == {"already held"}
    assert hub.counts() == stored
    assert hub.client.get("/api/v1/leaderboard").json() == board
    assert again.json()["roster_version"] == first.json()["roster_version"]


def test_the_same_key_with_other_content_is_refused_409_listed_and_never_overwritten(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    assert hub.upload(token, body).status_code == 200
    before = hub.client.get("/api/v1/matches").json()
    other = copy.deepcopy(body)
    other["matches"][0]["header"]["ended_wall"] += 60.0
    other["players"].append({"uuid": "5b1d0000-0000-4000-8000-0000000000ff", "name": "New"})
    for _ in range(2):
        refused = hub.upload(token, other)
        assert refused.status_code == 409
        error = refused.json()["error"]
        assert error["code"] == "conflict" and error["conflicts"][0]["key"] == body["matches"][0]["uuid"]
    assert hub.client.get("/api/v1/matches").json() == before
    assert hub.count("players") == 2  # the new player of the refused upload was not stored either
    listed = hub.client.get("/api/v1/conflicts").json()
    assert len(listed) == 1 and listed[0]["times"] == 2 and listed[0]["kiosk"] == "table-1"
    assert "other content" in listed[0]["why"]


def test_the_same_journal_from_a_second_kiosk_a_cloned_card_is_refused_and_listed(hub, journals) -> None:
    first, clone = hub.kiosk("table-1"), hub.kiosk("table-3")
    body = _one(journals)
    assert hub.upload(first, body).status_code == 200
    refused = hub.upload(clone, body)
    assert refused.status_code == 409
    listed = hub.client.get("/api/v1/conflicts").json()
    assert [(c["kiosk"], c["kind"]) for c in listed] == [("table-3", "match")]
    assert "uploaded first by kiosk 'table-1'" in listed[0]["why"]
    assert hub.count("matches") == 1


def test_a_player_uuid_with_another_name_is_a_conflict(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    assert hub.upload(token, body).status_code == 200
    renamed = copy.deepcopy(body)
    renamed["players"][0]["name"] = "Someone Else"
    assert hub.upload(token, renamed).status_code == 409
    assert hub.client.get("/api/v1/conflicts").json()[0]["kind"] == "player"


@pytest.mark.parametrize("claim, said", [
    ({"winner": "flip"}, "winner seat"),
    ({"reason": "resign"}, "reason"),
    ({"balances": "bump"}, "balances"),
])
def test_a_tampered_claimed_result_is_stored_rejected_with_its_reason(hub, journals, claim, said) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    real = body["matches"][0]["claimed"]
    if claim.get("winner") == "flip":
        claim = {"winner": 1 - real["winner"]}
    if claim.get("balances") == "bump":
        claim = {"balances": [real["balances"][0] + 5, real["balances"][1]]}
    if claim.get("reason") == real["reason"]:
        claim = {"reason": "time"}
    body["matches"] = [tampered(body["matches"][0], **claim)]
    answer = hub.upload(token, body)
    assert answer.status_code == 200
    (listed,) = hub.client.get("/api/v1/matches").json()
    assert listed["status"] == "rejected"
    assert "does not reproduce the claimed result" in listed["rejection"] and said in listed["rejection"]
    assert listed["rated"] is False
    assert all(p["games"] == 0 for p in hub.client.get("/api/v1/leaderboard").json())


def test_a_row_changed_in_transit_fails_its_checksum_and_is_rejected(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    row = body["matches"][0]["rows"][3]
    row["step"] = row["step"].replace('"player":0', '"player":1') if '"player":0' in row["step"] else row["step"] + " "
    assert hub.upload(token, body).status_code == 200
    (listed,) = hub.client.get("/api/v1/matches").json()
    assert listed["status"] == "rejected" and "row 4 fails its checksum" in listed["rejection"]


def test_rows_with_a_consistent_checksum_but_an_illegal_step_are_rejected_on_replay(hub, journals) -> None:
    from kiosk.store.records import checksum

    token = hub.kiosk("table-1")
    body = _one(journals)
    match = body["matches"][0]
    for row in match["rows"]:
        step = json.loads(row["step"])
        if step.get("do") == "play":
            step["tile"] = "6|6" if step["tile"] != "6|6" else "0|0"
            row["step"] = json.dumps(step, sort_keys=True, separators=(",", ":"))
            row["checksum"] = checksum(match["header"]["local_id"], row["seq"], row["step"], row["snapshot_sha"],
                                       row["arrival_ns"], row["boot_id"], row["wall"])
            break
    assert hub.upload(token, body).status_code == 200
    (listed,) = hub.client.get("/api/v1/matches").json()
    assert listed["status"] == "rejected"
    assert "is refused on replay" in listed["rejection"], listed["rejection"]


def _nothing_stored(hub) -> None:
    assert hub.counts() == {"players": 0, "matches": 0, "match_rows": 0, "conflicts": 0}


def test_missing_and_bad_tokens_are_401_and_store_nothing(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    for headers in ({}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "},
                    {"Authorization": "Bearer nonsense"}, {"Authorization": f"Bearer {token[:-1]}x"},
                    {"Authorization": f"Bearer {token}extra"}):
        answer = hub.client.post("/api/v1/uploads", json=body, headers=headers)
        assert answer.status_code == 401, (headers, answer.text)
        assert answer.json()["error"]["code"] == "not_authorized"
    _nothing_stored(hub)


@pytest.mark.parametrize("content", [
    b"not json at all", b"[1, 2, 3]", b'{"matches": "many"}', b'{"matches": [{"uuid": "not-a-uuid"}]}',
    b'{"players": [{"uuid": "5b1d0000-0000-4000-8000-000000000001", "name": "a\\u0000b"}]}',
    b'{"players": [], "extra": 1}', b"{" * 100_000,
])
def test_malformed_bodies_are_422_with_a_reason_and_store_nothing(hub, content) -> None:
    token = hub.kiosk("table-1")
    answer = hub.client.post("/api/v1/uploads", content=content,
                             headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "malformed" and answer.json()["error"]["message"]
    _nothing_stored(hub)


def test_a_match_naming_an_unknown_player_is_422_and_stores_nothing(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    body["players"] = body["players"][:1]
    answer = hub.upload(token, body)
    assert answer.status_code == 422 and "does not know" in answer.json()["error"]["message"]
    _nothing_stored(hub)


def test_an_oversized_body_is_413_and_stores_nothing(hub) -> None:
    token = hub.kiosk("table-1")
    big = b'{"players": [], "pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    answer = hub.client.post("/api/v1/uploads", content=big, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"

    def chunks():  # no Content-Length: the limit holds while reading
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    answer = hub.client.post("/api/v1/uploads", content=chunks(), headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 413
    _nothing_stored(hub)


def test_ten_thousand_rows_in_one_request_are_413_and_store_nothing(hub, journals) -> None:
    token = hub.kiosk("table-1")
    body = _one(journals)
    row = body["matches"][0]["rows"][1]  # a play: a small row
    body["matches"][0]["rows"] = [dict(row, seq=i + 1) for i in range(10_000)]
    assert len(json.dumps(body)) < MAX_BODY_BYTES  # the row limit refuses it, not the size limit
    answer = hub.upload(token, body)
    assert answer.status_code == 413
    assert f"at most {MAX_ROWS}" in answer.json()["error"]["message"]
    _nothing_stored(hub)


def test_a_token_never_appears_in_a_log_line(hub, journals, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    token = hub.kiosk("table-1")
    body = _one(journals)
    hub.upload(token, body)
    hub.upload(token, body)
    hub.upload(token + "x", body)
    other = copy.deepcopy(body)
    other["matches"][0]["header"]["ended_wall"] += 1
    hub.upload(token, other)
    hub.client.post("/api/v1/uploads", content=b"{", headers={"Authorization": f"Bearer {token}"})
    secret = token.rsplit("_", 1)[1]
    assert caplog.records, "the hub logged nothing: the test would prove nothing"
    assert any("table-1" in r.getMessage() for r in caplog.records)
    for record in caplog.records:
        text = record.getMessage() + repr(record.args) + (record.exc_text or "")
        assert secret not in text and token not in text
