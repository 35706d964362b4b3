"""The stored reviews on the club page (docs/review.md, "On the hub"): what the pages and the read API
show of the review worker's results (``club.review_worker``). A match's review is public once the
match is verified: the summary and luck of each reviewed seat, and each flagged decision with what
was played, what was better, the loss and the seat's own hand at that moment (never the other
player's hand or the boneyard)."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from club.web import lang

Conn = psycopg.Connection[tuple[Any, ...]]
_SEAT_COLUMNS = ("SELECT s.match, s.seat, s.player, s.decisions, s.mean_loss, s.good, s.inaccuracy, s.mistake,"
                 " s.blunder, s.result, s.luck, s.adjusted, s.flagged FROM seat_reviews s")


def _seat(r: tuple[Any, ...]) -> dict[str, Any]:
    return {"seat": r[1], "player": None if r[2] is None else str(r[2]), "decisions": r[3],
            "mean_loss": r[4], "good": r[5], "inaccuracy": r[6], "mistake": r[7], "blunder": r[8],
            "luck": None if r[10] is None else {"result": r[9], "luck": r[10], "adjusted": r[11]},
            "flagged": list(r[12])}


def match_review(conn: Conn, key: uuid.UUID) -> dict[str, Any] | None:
    """A match's review: ``status`` (running, done or failed), samples, seed, engine version, CPU seconds,
    the failure's reason and each reviewed seat; None when the worker has not taken the match yet."""
    head = conn.execute("SELECT status, samples, seed, engine_version, cpu_seconds, error FROM reviews"
                        " WHERE match = %s", (key,)).fetchone()
    if head is None:
        return None
    seats = [_seat(r) for r in conn.execute(_SEAT_COLUMNS + " WHERE s.match = %s ORDER BY s.seat", (key,))]
    return {"match": str(key), "status": head[0], "samples": head[1], "seed": head[2], "engine_version": head[3],
            "cpu_seconds": head[4], "error": head[5], "seats": seats if head[0] == "done" else []}


def player_reviews(conn: Conn, player: uuid.UUID) -> dict[str, dict[str, Any]]:
    """The player's reviewed seats by match uuid (summary and luck; the flagged decisions' count)."""
    found = {}
    for r in conn.execute(_SEAT_COLUMNS + " WHERE s.player = %s", (player,)):
        seat = _seat(r)
        seat["flagged_count"] = len(seat.pop("flagged"))
        found[str(r[0])] = seat
    return found


def action_text(action: dict[str, Any], language: str) -> str:
    """A reviewed action in words (``chosen`` or ``best`` of a decision)."""
    t = lang.texts(language)
    kind = action.get("do")
    if kind == "play":
        tile = "[" + str(action.get("tile", "")) + "]"  # as the kiosk writes a tile: [1|4]
        return t._("play {tile}", tile=tile)
    if kind == "bid":
        return t._("bid {amount}", amount=action.get("amount", ""))
    return {"accept": t._("accept"), "decline": t._("decline"), "draw": t._("draw a tile"),
            "pass": t._("pass")}.get(str(kind), str(kind))


def reviews_router() -> APIRouter:
    """``GET /api/v1/matches/UUID/review``: the stored review as JSON (404 while there is none)."""
    router = APIRouter()

    @router.get("/api/v1/matches/{key}/review")
    def review(request: Request, key: str) -> JSONResponse:
        try:
            match_id = uuid.UUID(key)
        except ValueError:
            match_id = None
        found = None
        if match_id is not None:
            with request.app.state.pool.connection() as conn:
                found = match_review(conn, match_id)
        if found is None:
            return JSONResponse({"error": {"code": "not_found", "message": "no review of this match (yet)"}},
                                status_code=404)
        return JSONResponse(found)

    return router
