"""The director's screens behind the login: conflicts and rejected matches, kiosk tokens (add, revoke).

Every write is a POST with the session cookie and the session's CSRF token in the form; the login
form itself carries a CSRF token bound to a cookie (double submit). Forms are read as
``application/x-www-form-urlencoded`` with a small size limit. Renames and merges of players:
``club.web.director_players``.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from club import players, queries
from club.errors import ClubError, SetupError
from club.tokens import add_kiosk
from club.web import auth, data
from club.web.pages import pool
from club.web.render import page

SESSION_COOKIE = "sb_director"
LOGIN_CSRF_COOKIE = "sb_login_csrf"
MAX_FORM_BYTES = 4096


class Forbidden(ClubError):
    """A write without the director's session or without the form's CSRF token."""

    status = 403
    code = "forbidden"


def _now(request: Request) -> float:
    return float(request.app.state.clock())


async def _form(request: Request) -> dict[str, str]:
    """The urlencoded form (first value of each field); Forbidden when it is not one or too large."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise Forbidden("a director's form is sent as application/x-www-form-urlencoded")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise Forbidden("the form is too large")
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        raise Forbidden("the form is not readable") from None
    return {k: v[0] for k, v in fields.items()}


def director_session(request: Request) -> str | None:
    """The session's CSRF token when the request carries a live director's session."""
    token = request.cookies.get(SESSION_COOKIE)
    with pool(request).connection() as conn:
        return auth.session_csrf(conn, token, _now(request))


async def checked_form(request: Request) -> dict[str, str]:
    """The form of a director's write: Forbidden without a live session and its CSRF token."""
    csrf = await run_in_threadpool(director_session, request)
    if csrf is None:
        raise Forbidden("this needs the director's session: log in first")
    form = await _form(request)
    if not auth.same_token(form.get("csrf"), csrf):
        raise Forbidden("the form's CSRF token is missing or wrong; reload the page")
    return form


def director_router() -> APIRouter:
    """The director's routes."""
    router = APIRouter(prefix="/director")

    @router.get("/login")
    def login_form(request: Request) -> Response:
        if director_session(request) is not None:
            return RedirectResponse("/director", status_code=303)
        return _login_page(request, None)

    @router.post("/login")
    async def login(request: Request) -> Response:
        form = await _form(request)
        if not auth.same_token(form.get("csrf"), request.cookies.get(LOGIN_CSRF_COOKIE)):
            raise Forbidden("the form's CSRF token is missing or wrong; reload the page")
        result = await run_in_threadpool(_log_in, request, form.get("password", ""))
        if result.token is None:
            status = {"locked": 429, "no_password": 503}.get(result.refused or "", 401)
            minutes = max(1, round((result.locked_until - _now(request)) / 60)) if result.locked_until else 0
            return _login_page(request, result.refused, status=status, minutes=minutes)
        response = RedirectResponse("/director", status_code=303)
        response.set_cookie(SESSION_COOKIE, result.token, max_age=auth.SESSION_S, httponly=True, samesite="strict",
                            path="/director")
        response.delete_cookie(LOGIN_CSRF_COOKIE, path="/director")
        return response

    @router.post("/logout")
    async def logout(request: Request) -> Response:
        await checked_form(request)
        token = request.cookies.get(SESSION_COOKIE, "")
        await run_in_threadpool(_log_out, request, token)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/director")
        return response

    @router.get("")
    def overview(request: Request) -> Response:
        csrf = director_session(request)
        if csrf is None:
            return RedirectResponse("/director/login", status_code=303)
        with pool(request).connection() as conn:
            conflicts = queries.conflicts(conn)
            rejected = data.rejected(conn)
            duplicates = len(players.duplicates(conn))
        return page(request, "director/overview.html", csrf=csrf, conflicts=conflicts, rejected=rejected,
                    duplicates=duplicates)

    @router.get("/kiosks")
    def kiosks(request: Request) -> Response:
        csrf = director_session(request)
        if csrf is None:
            return RedirectResponse("/director/login", status_code=303)
        return _kiosks_page(request, csrf)

    @router.post("/kiosks")
    async def add(request: Request) -> Response:
        form = await checked_form(request)
        csrf = form["csrf"]
        try:
            kiosk, token = await run_in_threadpool(_add_kiosk, request, form.get("name", ""))
        except SetupError as exc:
            return _kiosks_page(request, csrf, problem=exc.message, status=422)
        return _kiosks_page(request, csrf, added=(kiosk.name, token))

    @router.post("/kiosks/{key}/revoke")
    async def revoke(request: Request, key: str) -> Response:
        await checked_form(request)
        try:
            kiosk_id = uuid.UUID(key)
        except ValueError:
            raise Forbidden("no such kiosk") from None
        await run_in_threadpool(_revoke, request, kiosk_id)
        request.app.state.live_tokens.clear()  # the live endpoint checks every token again
        return RedirectResponse("/director/kiosks", status_code=303)

    return router


def _login_page(request: Request, refused: str | None, *, status: int = 200, minutes: int = 0) -> Response:
    csrf = secrets.token_urlsafe(32)
    response = page(request, "director/login.html", status=status, csrf=csrf, refused=refused, minutes=minutes)
    response.set_cookie(LOGIN_CSRF_COOKIE, csrf, httponly=True, samesite="strict", path="/director")
    return response


def _kiosks_page(request: Request, csrf: str, *, added: tuple[str, str] | None = None, problem: str | None = None,
                 status: int = 200) -> Response:
    with pool(request).connection() as conn:
        rows = conn.execute("SELECT uuid, name, created_at, revoked_at FROM kiosks ORDER BY name").fetchall()
    kiosks: list[dict[str, Any]] = [{"uuid": str(r[0]), "name": r[1], "created": r[2], "revoked": r[3]} for r in rows]
    return page(request, "director/kiosks.html", status=status, csrf=csrf, kiosks=kiosks, added=added,
                problem=problem)


def _log_in(request: Request, password: str) -> auth.Login:
    with pool(request).connection() as conn:
        return auth.log_in(conn, password, _now(request))


def _log_out(request: Request, token: str) -> None:
    with pool(request).connection() as conn:
        auth.log_out(conn, token)


def _add_kiosk(request: Request, name: str) -> Any:
    with pool(request).connection() as conn:
        return add_kiosk(conn, name)


def _revoke(request: Request, kiosk: uuid.UUID) -> None:
    with pool(request).connection() as conn, conn.transaction():
        conn.execute("UPDATE kiosks SET revoked_at = now() WHERE uuid = %s AND revoked_at IS NULL", (kiosk,))
