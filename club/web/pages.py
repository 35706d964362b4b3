"""The public pages (read only): the front page, a live table, the ladder, a player, the archive with
its replay, the TV mode; the live projections' endpoint for kiosks and the Server-Sent Events stream."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from psycopg_pool import ConnectionPool
from starlette.concurrency import run_in_threadpool

from club.errors import TooLarge
from club.tokens import Kiosk, authenticate, bearer, digest
from club.web import data, lang, reviews
from club.web.broker import LiveBoard, LiveTable
from club.web.livewire import MAX_LIVE_BYTES, LiveClosed, parse_live
from club.web.render import SECURITY_HEADERS, language_of, page, table_fragment
from club.web.replay import Frame, ReplayFailed, frames_of

TOKEN_CACHE_S = 60.0
"""How long the live endpoint trusts a kiosk token it checked (a revoke from the director's screen clears it)."""
KEEPALIVE_S = 15.0
"""An SSE comment at least this often, so that a browser notices a dead connection."""
TV_ROTATE_S = 12
"""The TV shows each live table this long (``/tv?every=S`` chooses another, 2 to 120 s)."""


def board(request: Request) -> LiveBoard:
    """The application's live tables."""
    held = request.app.state.live
    assert isinstance(held, LiveBoard)
    return held


def pool(request: Request) -> ConnectionPool:
    """The application's connection pool."""
    held = request.app.state.pool
    assert isinstance(held, ConnectionPool)
    return held


def public_router() -> APIRouter:
    """The public pages and the live endpoints."""
    router = APIRouter()

    @router.post("/api/v1/live")
    async def live(request: Request) -> JSONResponse:
        token = bearer(request.headers.get("authorization"))
        known: dict[str, tuple[Kiosk, float]] = request.app.state.live_tokens
        now = float(request.app.state.clock())
        held = known.get(digest(token))
        if held is not None and held[1] > now:
            kiosk = held[0]
        else:  # a kiosk posts after every command: its token is checked against the database once a minute
            kiosk = await run_in_threadpool(_authenticate, pool(request), token)
            if len(known) > 1000:
                known.clear()
            known[digest(token)] = (kiosk, now + TOKEN_CACHE_S)
        body = await _read_limited(request, MAX_LIVE_BYTES)
        update = parse_live(body)
        if isinstance(update, LiveClosed):
            left = board(request).close(kiosk.uuid, update)
            if left is None:
                return JSONResponse({"result": "stale", "event": board(request).last_event})
            return JSONResponse({"result": "closed", "event": left, "table": kiosk.uuid.hex})
        table = board(request).offer(kiosk.uuid, kiosk.name, update)
        if table is None:
            return JSONResponse({"result": "stale", "event": board(request).last_event})
        return JSONResponse({"result": "published", "event": table.event, "table": table.key})

    @router.get("/api/v1/live")
    def live_tables(request: Request) -> list[dict[str, Any]]:
        return [_table_json(t) for t in board(request).tables()]

    @router.get("/live/events")
    async def events(request: Request, table: str | None = None) -> StreamingResponse:
        live = board(request)
        start = live.event_of(request.headers.get("last-event-id") or request.query_params.get("since") or "")
        stream = _stream(request, live, language_of(request), start, table)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @router.get("/")
    def front(request: Request) -> Response:
        with pool(request).connection() as conn:
            latest = data.archive(conn, limit=10)
        return page(request, "index.html", tables=_slots(request), latest=latest)

    @router.get("/tables/{key}")
    def one_table(request: Request, key: str) -> Response:
        found = [s for s in _slots(request) if s.table.key == key]
        if not found:
            return page(request, "missing.html", status=404, what="table")
        return page(request, "table.html", slot=found[0])

    @router.get("/tv")
    def tv(request: Request, every: int = TV_ROTATE_S) -> Response:
        with pool(request).connection() as conn:
            top = data.ladder(conn)[:8]
        return page(request, "tv.html", tables=_slots(request), every_ms=max(2, min(every, 120)) * 1000, top=top)

    @router.get("/ladder")
    def ladder(request: Request) -> Response:
        with pool(request).connection() as conn:
            rows = data.ladder(conn)
        return page(request, "ladder.html", rows=rows)

    @router.get("/players/{key}")
    def player(request: Request, key: str) -> Response:
        found = None
        player_id = _uuid(key)
        if player_id is not None:
            with pool(request).connection() as conn:
                found = data.player(conn, player_id)
        if found is None or player_id is None:
            return page(request, "missing.html", status=404, what="player")
        with pool(request).connection() as conn:
            reviewed = reviews.player_reviews(conn, player_id)
        return page(request, "player.html", p=found, graph=rating_graph(found["series"]), reviewed=reviewed)

    @router.get("/archive")
    def archive(request: Request, player: str = "", date: str = "", offset: int = 0) -> Response:
        problem = None
        day = None
        if date:
            try:
                day = dt.date.fromisoformat(date)
            except ValueError:
                problem = "date"
        player = player.strip()[:80]
        rows: list[dict[str, Any]] = []
        if problem is None:
            with pool(request).connection() as conn:
                rows = data.archive(conn, player=player, day=day, status=None, limit=50, offset=max(0, offset))
        return page(request, "archive.html", status=422 if problem else 200, rows=rows, player=player,
                    date=date, problem=problem, offset=max(0, offset))

    @router.get("/archive/{key}")
    def replay(request: Request, key: str, step: int = 0) -> Response:
        found = _frames(request, key)
        if found is None:
            return page(request, "missing.html", status=404, what="match")
        summary, frames = found
        review = _review(request, summary, frames)
        if isinstance(frames, str):
            return page(request, "replay.html", m=summary, frames=None, why=frames, n=0, total=0, frame=None,
                        review=review)
        n = max(0, min(step, len(frames) - 1))
        return page(request, "replay.html", m=summary, frames=frames, n=n, total=len(frames) - 1,
                    frame=_frame_table(summary, frames[n]), caption=step_caption(frames[n], summary,
                                                                                 language_of(request)), why=None,
                    review=review)

    @router.get("/archive/{key}/frames/{n}")
    def frame(request: Request, key: str, n: int) -> Response:
        found = _frames(request, key)
        frames = None if found is None or isinstance(found[1], str) else found[1]
        if found is None or frames is None or not 0 <= n < len(frames):
            return JSONResponse({"error": {"code": "not_found", "message": "no such match or step"}}, status_code=404)
        summary = found[0]
        language = language_of(request)
        html = table_fragment(_frame_table(summary, frames[n]), language)
        return JSONResponse({"n": n, "total": len(frames) - 1, "html": str(html),
                             "caption": step_caption(frames[n], summary, language)}, headers=SECURITY_HEADERS)

    @router.get("/language/{code}")
    def choose_language(code: str, next: str = "/") -> Response:
        target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
        response = RedirectResponse(quote(target, safe="/?=&%"), status_code=303)
        if code in dict(lang.languages()):
            response.set_cookie(lang.COOKIE, code, max_age=365 * 86400, samesite="lax", httponly=True)
        return response

    return router


def _authenticate(held: ConnectionPool, token: str) -> Kiosk:
    with held.connection() as conn:
        return authenticate(conn, token)


async def _read_limited(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body has {int(declared)} bytes, more than {limit}", limit=limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the body has more than {limit} bytes", limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


async def _stream(request: Request, live: LiveBoard, language: str, start: int | None,
                  only: str | None) -> AsyncIterator[str]:
    yield "retry: 1000\n\n"
    seen = start
    first = True
    while True:
        news: list[tuple[int, str, LiveTable | None]] = [(t.event, t.key, t) for t in live.since(seen)]
        news += [(number, key, None) for key, number in live.gone_since(seen)]
        seen = live.last_event
        sent = False
        for number, key, table in sorted(news, key=lambda n: n[0]):  # in event order: the last id is the newest
            if only is not None and key != only:
                continue
            if table is None:
                yield f"id: {live.event_id(number)}\nevent: gone\ndata: {json.dumps({'key': key, 'event': number})}\n\n"
            else:
                payload = {"key": key, "name": table.name, "event": number, "match": table.match, "seq": table.seq,
                           "html": str(table_fragment(table, language))}
                yield f"id: {live.event_id(number)}\nevent: table\ndata: {json.dumps(payload)}\n\n"
            sent = True
        if not sent and not first:
            yield ": keepalive\n\n"
        first = False
        if await request.is_disconnected():
            return
        await live.wait(seen, KEEPALIVE_S)


def _slots(request: Request) -> list[SimpleNamespace]:
    """The live tables with their age in milliseconds (for the clocks' first reading)."""
    live = board(request)
    now = live.now()
    return [SimpleNamespace(table=t, age_ms=int(max(0.0, now - t.received) * 1000)) for t in live.tables()]


def _table_json(table: LiveTable) -> dict[str, Any]:
    return {"key": table.key, "name": table.name, "match": table.match, "seq": table.seq,
            "players": list(table.players), "computer_level": table.computer_level, "event": table.event,
            "state": table.state}


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


def _frames(request: Request, key: str) -> tuple[dict[str, Any], tuple[Frame, ...] | str] | None:
    match_id = _uuid(key)
    if match_id is None:
        return None
    with pool(request).connection() as conn:
        summary = data.one_match(conn, match_id)
        stored = data.match_entries(conn, match_id)
    if summary is None or stored is None:
        return None
    try:
        return summary, frames_of(match_id, stored[0], stored[1])
    except ReplayFailed as exc:
        return summary, str(exc)


def _review(request: Request, summary: dict[str, Any], frames: tuple[Frame, ...] | str) -> dict[str, Any] | None:
    """The match's stored review for the replay page: each seat's flagged decisions with the board at the
    decision (the replay's frame before that step: one renderer) and the words for what was played and
    what was better; None while the worker has not taken the match."""
    with pool(request).connection() as conn:
        found = reviews.match_review(conn, uuid.UUID(summary["uuid"]))
    if found is None:
        return None
    language = language_of(request)
    for seat in found["seats"]:
        player = summary["players"][seat["seat"]]
        seat["name"] = player["name"] if player else None
        for d in seat["flagged"]:
            frame = frames[d["step"]] if not isinstance(frames, str) and 0 <= d["step"] < len(frames) else None
            d["state"] = None if frame is None else frame.state
            d["chosen_text"] = reviews.action_text(d["chosen"], language)
            d["best_text"] = reviews.action_text(d["best"], language)
    return found


def _frame_table(summary: dict[str, Any], frame: Frame) -> SimpleNamespace:
    names = tuple(p["name"] if p else None for p in summary["players"])
    return SimpleNamespace(key=None, name=summary["kiosk"], players=names,
                           computer_level=summary["computer_level"], state=frame.state)


def step_caption(frame: Frame, summary: dict[str, Any], language: str) -> str:
    """What a replay step did, in words."""
    t = lang.texts(language)
    step = frame.step
    player = step.get("player")
    who = t._("Seat {seat}", seat=player + 1) if isinstance(player, int) else ""
    if isinstance(player, int) and summary["players"][player]:
        who = summary["players"][player]["name"]
    kind = step.get("do")
    texts = {
        "begin": t._("The match before its first command"),
        "start": t._("Round {round} dealt", round=frame.state["round"]),
        "play": t._("{player} played {tile}", player=who, tile=step.get("tile", "")),
        "draw": t._("{player} drew a tile", player=who),
        "pass": t._("{player} passed", player=who),
        "decline": t._("{player} declined", player=who),
        "bid": t._("{player} bid {amount}", player=who, amount=step.get("amount", "")),
        "accept": t._("{player} accepted", player=who),
        "resign": t._("{player} resigned", player=who),
        "reveal": t._("{player} revealed their hand", player=who),
    }
    return texts.get(str(kind), t._("The table restarted"))


def rating_graph(series: list[float], width: int = 640, height: int = 200) -> dict[str, Any]:
    """A rating series as an SVG polyline's points and its axis labels."""
    if len(series) < 2:
        return {"points": "", "low": None, "high": None, "width": width, "height": height}
    low, high = min(series), max(series)
    span = max(high - low, 1.0)
    pad = 12
    step = (width - 2 * pad) / (len(series) - 1)
    points = " ".join(f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}"
                      for i, v in enumerate(series))
    return {"points": points, "low": round(low), "high": round(high), "width": width, "height": height}

