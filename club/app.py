"""The hub's HTTP API (FastAPI): uploads from kiosks, and the archive, leaderboard and roster.

``create_app(dsn)`` makes the application; its lifespan migrates the database and opens the pool.
Every refusal is a ``ClubError`` answered as ``{"error": {"code", "message", ...}}`` with its
status; a database that does not answer is a 503; nothing a client sends makes the process fail.
No log line holds a request's headers (a token is never logged).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

import psycopg
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import ConnectionPool, PoolTimeout
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from club import players, queries, web
from club.database import SCHEMA_VERSION, open_pool
from club.errors import ClientGone, ClubError, HubUnavailable, TooLarge
from club.event_api import events_router, run_scheduler
from club.ingest import commit, prepare, settle_ratings
from club.standings import SETTLE_EVERY
from club.tokens import Kiosk, authenticate, bearer
from club.verify import engine_version
from club.wire import MAX_BODY_BYTES, parse_upload

log = logging.getLogger("club.app")
REPLAYS_AT_ONCE = 2
"""Uploads parsed and replayed at the same time (CPU-bound: more would only lengthen each)."""


def create_app(dsn: str, *, pool_size: int = 8, clock: Callable[[], float] = time.time) -> FastAPI:
    """The hub on the database at ``dsn`` (migrated and pooled when the application starts), with the
    club page (``club.web``); ``clock`` (wall seconds) times the live tables and the director's sessions."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = await run_in_threadpool(open_pool, dsn, max_size=pool_size)
        app.state.pool = pool
        # uploads replay a few at a time and store one at a time: a waiting upload holds no
        # thread and no database connection, so reads are served meanwhile and nothing times out
        app.state.replaying = asyncio.Semaphore(REPLAYS_AT_ONCE)
        app.state.storing = asyncio.Lock()
        app.state.in_flight = 0
        app.state.since_settled = 0
        await run_in_threadpool(settle_ratings, pool)  # stale after a kill mid-run
        log.info("hub ready: schema version %d, engine %s", SCHEMA_VERSION, engine_version())
        try:
            yield
        finally:
            await run_in_threadpool(pool.close)

    app = FastAPI(title="Spectacular Bid club hub", lifespan=lifespan, docs_url=None, redoc_url=None)
    _handlers(app)
    _routes(app)
    app.include_router(events_router())
    web.mount(app, clock=clock)
    return app


def _pool(request: Request) -> ConnectionPool:
    pool = request.app.state.pool
    assert isinstance(pool, ConnectionPool)
    return pool


def _routes(app: FastAPI) -> None:
    @app.post("/api/v1/uploads")
    async def upload(request: Request) -> JSONResponse:
        pool = _pool(request)
        token = bearer(request.headers.get("authorization"))
        kiosk = await run_in_threadpool(_authenticate, pool, token)
        body = await _read_limited(request)
        state = request.app.state
        state.in_flight += 1
        try:
            async with state.replaying:
                parsed = await run_in_threadpool(parse_upload, body)
                prepared = await run_in_threadpool(prepare, pool, kiosk, parsed)
            async with state.storing:
                receipt = await run_in_threadpool(commit, pool, prepared)
        finally:
            settled = await _finished(state, pool)
        if settled is not None:
            receipt.roster_version = max(receipt.roster_version, settled)
        if any(m["result"] == "stored" for m in receipt.matches):
            await run_in_threadpool(run_scheduler, request)  # a result may free players or complete a round
        return JSONResponse(receipt.body())

    @app.get("/api/v1/matches")
    def list_matches(request: Request, status: Literal["verified", "rejected"] | None = None,
                     limit: Annotated[int, Query(ge=1, le=1000)] = 200,
                     offset: Annotated[int, Query(ge=0)] = 0) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return queries.matches(conn, status=status, limit=limit, offset=offset)

    @app.get("/api/v1/leaderboard")
    def leaderboard(request: Request) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return queries.leaderboard(conn)

    @app.get("/api/v1/roster")
    def roster(request: Request, since: Annotated[int, Query(ge=0, lt=2**63)] = 0) -> dict[str, Any]:
        with _pool(request).connection() as conn:
            return queries.roster(conn, since)

    @app.get("/api/v1/conflicts")
    def conflicts(request: Request) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return queries.conflicts(conn)

    @app.get("/api/v1/players/duplicates")
    def duplicates(request: Request) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return players.duplicates(conn)

    @app.get("/api/v1/merges")
    def merges(request: Request) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return players.merges(conn)

    @app.get("/api/v1/health")
    def health(request: Request) -> dict[str, Any]:
        with _pool(request).connection() as conn:
            conn.execute("SELECT 1")
        return {"ok": True, "schema_version": SCHEMA_VERSION, "engine_version": engine_version()}


async def _finished(state: Any, pool: ConnectionPool) -> int | None:
    """An upload is done (stored or refused): late uploads left the ratings stale, so they are
    recomputed once when no upload is left in flight, or every ``SETTLE_EVERY`` uploads meanwhile;
    the roster version after a recompute, else None."""
    state.in_flight -= 1
    state.since_settled += 1
    if state.in_flight == 0 or state.since_settled >= SETTLE_EVERY:
        state.since_settled = 0
        return await run_in_threadpool(settle_ratings, pool)
    return None


def _authenticate(pool: ConnectionPool, token: str) -> Kiosk:
    with pool.connection() as conn:
        return authenticate(conn, token)


async def _read_limited(request: Request) -> bytes:
    """The body, refused with TooLarge as soon as it passes ``MAX_BODY_BYTES`` (declared or sent)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise TooLarge(f"the body has {int(declared)} bytes, more than {MAX_BODY_BYTES}", limit=MAX_BODY_BYTES)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise TooLarge(f"the body has more than {MAX_BODY_BYTES} bytes", limit=MAX_BODY_BYTES)
            chunks.append(chunk)
    except ClientDisconnect as exc:
        raise ClientGone(f"the connection closed after {size} bytes of the body") from exc
    return b"".join(chunks)


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(ClubError)
    async def club_error(request: Request, exc: ClubError) -> JSONResponse:
        if exc.status >= 500:
            log.error("%s %s: %s", request.method, request.url.path, exc.message)
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_query(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"at": ".".join(str(p) for p in e.get("loc", ())), "problem": str(e.get("msg", ""))}
                    for e in exc.errors()[:10]]
        text = "; ".join(f"{p['at']}: {p['problem']}" for p in problems[:3])
        return JSONResponse({"error": {"code": "malformed", "message": f"the request is not valid: {text}",
                                       "problems": problems}}, status_code=422)

    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(PoolTimeout)
    async def database_down(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s: the database does not answer (%s)", request.method, request.url.path, type(exc).__name__)
        return JSONResponse(HubUnavailable("the hub's database is not answering; try again later").body(),
                            status_code=503)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s: internal error %s", request.method, request.url.path, type(exc).__name__, exc_info=exc)
        return JSONResponse({"error": {"code": "internal", "message": "the hub failed on this request"}},
                            status_code=500)
