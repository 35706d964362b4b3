"""The director's players screen: likely duplicates, renames, merges and their undoing (``club.players``).

Every write is a POST with the director's session and its CSRF token (``club.web.director``); a
refusal (a name another player has, two players who met, a merge already in force) is shown on the
page with the hub's reason and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from club import players
from club.errors import BadRequest, Conflict, NotFound
from club.web.director import checked_form, director_session
from club.web.pages import pool
from club.web.render import page

DIRECTOR = "director"
"""Who the records name: the club has one director's login."""


def players_router() -> APIRouter:
    """The routes of the players screen."""
    router = APIRouter(prefix="/director/players")

    @router.get("")
    def screen(request: Request) -> Response:
        csrf = director_session(request)
        if csrf is None:
            return RedirectResponse("/director/login", status_code=303)
        return _page(request, csrf)

    @router.post("/{key}/rename")
    async def rename(request: Request, key: str) -> Response:
        form = await checked_form(request)
        return await _apply(request, form, players.rename, key, form.get("name", ""),
                            director=DIRECTOR, why=form.get("why", ""))

    @router.post("/{key}/merge")
    async def merge(request: Request, key: str) -> Response:
        form = await checked_form(request)
        return await _apply(request, form, players.merge, key, form.get("into", ""),
                            director=DIRECTOR, why=form.get("why", ""))

    @router.post("/{key}/unmerge")
    async def unmerge(request: Request, key: str) -> Response:
        form = await checked_form(request)
        return await _apply(request, form, players.unmerge, key, director=DIRECTOR, why=form.get("why", ""))

    return router


async def _apply(request: Request, form: dict[str, str], operation: Any, *args: Any, **kwargs: Any) -> Response:
    """Run one of ``club.players``' operations; back to the screen, or the screen with the refusal."""
    def run() -> None:
        with pool(request).connection() as conn:
            operation(conn, *args, **kwargs)

    try:
        await run_in_threadpool(run)
    except (BadRequest, Conflict, NotFound) as exc:
        return _page(request, form["csrf"], problem=exc.message, status=exc.status)
    return RedirectResponse("/director/players", status_code=303)


def _page(request: Request, csrf: str, *, problem: str | None = None, status: int = 200) -> Response:
    with pool(request).connection() as conn:
        everyone = players.list_players(conn)
        doubles = players.duplicates(conn)
        history = players.merges(conn)
    names = {p["uuid"]: p["name"] for p in everyone}
    return page(request, "director/players.html", status=status, csrf=csrf, players=everyone, duplicates=doubles,
                merges=history, names=names, problem=problem)
