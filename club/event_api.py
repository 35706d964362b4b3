"""The events' HTTP API: a table's assignment and its acknowledgement, a player's join at a table
(docs/events-protocol.md), and the events' public reads (``GET /api/v1/events``, ``GET /api/v1/events/ID/standings``).

The scheduler (``eventstore.tick``) runs on each assignment poll and after each stored upload, with
the application's clock; there is no background timer: a pairing can only be given to a table that
asks, and a table asks every 5 s, so a poll is exactly when a decision can matter. (An unacknowledged
pairing is moved at the first poll of any table after its deadline; with no table polling there is
no table to move it to.)
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import psycopg
from fastapi import APIRouter, Request
from psycopg_pool import ConnectionPool, PoolTimeout
from starlette.concurrency import run_in_threadpool

from club import eventjoin, eventstore
from club.errors import BadRequest
from club.tokens import Kiosk, authenticate, bearer

log = logging.getLogger("club.events")
LIVE_BUSY_S = 120.0
"""A table that sent a live projection of an unfinished match within this many seconds is busy."""


def _pool(request: Request) -> ConnectionPool:
    held = request.app.state.pool
    assert isinstance(held, ConnectionPool)
    return held


def now_of(request: Request) -> float:
    """The application's wall clock (seconds)."""
    return float(request.app.state.clock())


def busy_tables(request: Request) -> set[uuid.UUID]:
    """Tables playing a live match of their own now (their projection is fresh and not finished)."""
    live = getattr(request.app.state, "live", None)
    if live is None:
        return set()
    now = live.now()
    return {t.kiosk for t in live.tables() if now - t.received < LIVE_BUSY_S and t.state.get("outcome") is None}


def run_scheduler(request: Request) -> None:
    """``eventstore.tick`` on a pooled connection at the application's clock, after an upload: a database
    that fails now is logged, never fails the upload that was stored (the next poll runs it again)."""
    try:
        with _pool(request).connection() as conn:
            eventstore.tick(conn, now_of(request), busy_tables(request))
    except (psycopg.Error, PoolTimeout) as exc:
        log.warning("the events' scheduler did not run after an upload (%s)", type(exc).__name__)


def events_router() -> APIRouter:
    """The routes."""
    router = APIRouter()

    @router.get("/api/v1/kiosk/assignment")
    async def assignment(request: Request) -> dict[str, Any]:
        kiosk = await run_in_threadpool(_kiosk, request)

        def work() -> dict[str, Any]:
            with _pool(request).connection() as conn:
                eventstore.seen(conn, kiosk.uuid, now_of(request))
                eventstore.tick(conn, now_of(request), busy_tables(request))
                return {"pairing": eventstore.assignment(conn, kiosk.uuid), "joinable": eventjoin.joinable(conn)}

        return await run_in_threadpool(work)

    @router.post("/api/v1/kiosk/events/{event}/entrants")
    async def join_at_table(request: Request, event: str) -> dict[str, Any]:
        kiosk = await run_in_threadpool(_kiosk, request)
        try:
            body = await request.json()
        except ValueError:
            raise BadRequest("the body is not JSON") from None
        join = eventjoin.parse_join(body)

        def work() -> dict[str, Any]:
            with _pool(request).connection() as conn:
                return eventjoin.join_at_table(conn, kiosk, event, join, now_of(request))

        return await run_in_threadpool(work)

    @router.post("/api/v1/kiosk/assignment/{key}/ack")
    async def acknowledge(request: Request, key: str) -> dict[str, Any]:
        kiosk = await run_in_threadpool(_kiosk, request)

        def work() -> None:
            with _pool(request).connection() as conn:
                eventstore.acknowledge(conn, kiosk.uuid, key, now_of(request))

        await run_in_threadpool(work)
        return {"acknowledged": True}

    @router.get("/api/v1/events")
    def events(request: Request) -> list[dict[str, Any]]:
        with _pool(request).connection() as conn:
            return eventstore.list_events(conn)

    @router.get("/api/v1/events/{key}/standings")
    def standings(request: Request, key: str) -> dict[str, Any]:
        with _pool(request).connection() as conn:
            return eventstore.standings(conn, key)

    return router


def _kiosk(request: Request) -> Kiosk:
    token = bearer(request.headers.get("authorization"))
    with _pool(request).connection() as conn:
        return authenticate(conn, token)
