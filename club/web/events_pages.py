"""The club nights' pages: the public list and standings of events, the standings slides of the TV
mode, and the director's event screen (entries, start, next round or a logged override, pairings by
table and by name, results coming in, re-pairing, cancelling or scoring by forfeit with a reason, byes
and the half-point byes Swiss players ask for, withdrawals, forbidden pairs, the log). Every write is a POST behind the director's session with its CSRF token
(``club.web.director.checked_form``); a refusal is shown with the hub's reason and changes nothing.
Joining is the director's (here or ``python -m club events join``), or a player's own on ``/join`` with
the code the director's screen and the TV show (``club.joincode``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from club import eventhand, eventstore, joincode
from club.errors import BadRequest, ClubError, NotFound
from club.web import lang
from club.web.director import _form, checked_form, director_session
from club.web.pages import pool
from club.web.render import SECURITY_HEADERS, environment, language_of, page

DIRECTOR = "director"
TV_EVENTS = 3
"""The TV shows the standings of at most this many running events."""


def _now(request: Request) -> float:
    return float(request.app.state.clock())


def _detail(request: Request, key: str) -> dict[str, Any] | None:
    try:
        uuid.UUID(key)
    except ValueError:
        return None
    with pool(request).connection() as conn:
        try:
            return eventstore.event_detail(conn, key)
        except NotFound:
            return None


def tv_standings(request: Request) -> list[dict[str, Any]]:
    """The running events' standings for the TV's rotation (the newest first), and the open ones players
    can join by code, each with its join code (or None)."""
    with pool(request).connection() as conn:
        shown = [e for e in eventstore.list_events(conn) if e["state"] == "running"
                 or (e["state"] == "open" and joincode.code_of(conn, e["uuid"]))][:TV_EVENTS]
        return [{**eventstore.event_detail(conn, e["uuid"]), "join_code": joincode.code_of(conn, e["uuid"])}
                for e in shown]


def standings_fragment(event: dict[str, Any], language: str, join_url: str = "") -> str:
    """One event's standings as the TV's slide (with the join code and where to type it, when open)."""
    t = lang.texts(language)
    return environment().get_template("_event_standings.html").render(_=t._, n_=t.n_, event=event, tv=True,
                                                                     join_url=join_url)


def _guard(request: Request) -> joincode.Guard:
    """The app's guard against guessed join codes (made on first use)."""
    guard = getattr(request.app.state, "join_guard", None)
    if guard is None:
        guard = request.app.state.join_guard = joincode.Guard()
    assert isinstance(guard, joincode.Guard)
    return guard


def events_router() -> APIRouter:
    """The public pages and the director's screens of events."""
    router = APIRouter()

    @router.get("/events")
    def events(request: Request) -> Response:
        with pool(request).connection() as conn:
            rows = eventstore.list_events(conn)
        return page(request, "events.html", events=rows)

    @router.get("/events/{key}")
    def event(request: Request, key: str) -> Response:
        found = _detail(request, key)
        if found is None:
            return page(request, "missing.html", status=404, what="event")
        with pool(request).connection() as conn:
            joinable = joincode.code_of(conn, key) is not None
        return page(request, "event.html", event=found, now=_now(request), joinable=joinable)

    @router.get("/join")
    def join_page(request: Request) -> Response:
        return _join_page(request)

    @router.post("/join")
    async def self_join(request: Request) -> Response:
        form = await _form(request)

        def run() -> None:
            with pool(request).connection() as conn:
                joincode.self_join(conn, _guard(request), form.get("event", ""), form.get("player", ""),
                                   form.get("code", ""), _now(request))

        try:
            await run_in_threadpool(run)
        except ClubError as exc:
            return _join_page(request, problem=exc.message, status=exc.status, chosen=form.get("event"))
        return RedirectResponse(f"/events/{form.get('event', '')}?joined=1", status_code=303)

    @router.get("/tv/standings")
    def tv(request: Request) -> JSONResponse:
        language = language_of(request)
        where = str(request.base_url) + "join"
        slides = [{"key": f"event-{e['uuid']}", "html": standings_fragment(e, language, where)}
                  for e in tv_standings(request)]
        return JSONResponse({"slides": slides}, headers=SECURITY_HEADERS)

    @router.get("/director/events")
    def director_events(request: Request) -> Response:
        csrf = director_session(request)
        if csrf is None:
            return RedirectResponse("/director/login", status_code=303)
        return _list_page(request, csrf)

    @router.post("/director/events")
    async def create(request: Request) -> Response:
        form = await checked_form(request)

        def run() -> uuid.UUID:
            with pool(request).connection() as conn:
                return eventstore.create_event(
                    conn, name=form.get("name", ""), format=form.get("format", ""), now=_now(request),
                    rounds=_int(form.get("rounds")), minutes=_int(form.get("minutes")),
                    bank_seconds=_int(form.get("bank")) or 120, delay_seconds=_int(form.get("delay"), 10) or 0,
                    balances=_int(form.get("balances")) or 150, berserk=form.get("berserk") == "on",
                    ack_timeout_s=_int(form.get("ack_timeout")) or 120,
                    auto_advance=form.get("manual_rounds") != "on", actor=DIRECTOR)

        try:
            key = await run_in_threadpool(run)
        except ClubError as exc:
            return _list_page(request, form["csrf"], problem=exc.message, status=exc.status)
        return RedirectResponse(f"/director/events/{key}", status_code=303)

    @router.get("/director/events/{key}")
    def screen(request: Request, key: str) -> Response:
        csrf = director_session(request)
        if csrf is None:
            return RedirectResponse("/director/login", status_code=303)
        return _screen(request, key, csrf)

    def action(name: str, operation: Callable[[Any, str, dict[str, str], float], object]) -> None:
        @router.post(f"/director/events/{{key}}/{name}", name=f"event_{name}")
        async def post(request: Request, key: str) -> Response:
            form = await checked_form(request)

            def run() -> None:
                with pool(request).connection() as conn:
                    operation(conn, key, form, _now(request))

            try:
                await run_in_threadpool(run)
            except ClubError as exc:
                return _screen(request, key, form["csrf"], problem=exc.message, status=exc.status)
            return RedirectResponse(f"/director/events/{key}", status_code=303)

    action("join", lambda c, k, f, now: eventstore.join(c, k, f.get("player", ""), now, DIRECTOR))
    action("withdraw", lambda c, k, f, now: eventstore.withdraw(c, k, f.get("player", ""), now, DIRECTOR,
                                                                f.get("why")))
    action("start", lambda c, k, f, now: eventstore.start(c, k, now, DIRECTOR))
    action("next-round", lambda c, k, f, now: eventstore.next_round(c, k, now, DIRECTOR, f.get("why")))
    action("repair", lambda c, k, f, now: eventstore.repair(
        c, k, f.get("pairing", ""), [p for p in (f.get("seat0", ""), f.get("seat1", "")) if p], now, DIRECTOR,
        f.get("why")))
    action("cancel", lambda c, k, f, now: eventstore.cancel(c, k, f.get("pairing", ""), now, DIRECTOR, f.get("why")))
    action("forfeit", lambda c, k, f, now: eventhand.forfeit(c, k, f.get("pairing", ""), _winner(f), now, DIRECTOR,
                                                             f.get("why")))
    action("bye", lambda c, k, f, now: eventhand.request_bye(c, k, f.get("player", ""), _int(f.get("round"), -1) or -1,
                                                             now, DIRECTOR, f.get("why")))
    action("bye-cancel", lambda c, k, f, now: eventhand.cancel_bye(c, k, f.get("player", ""), now, DIRECTOR,
                                                                   f.get("why")))
    action("join-code", lambda c, k, f, now: joincode.new_code(c, k, now, DIRECTOR))
    action("join-code-close", lambda c, k, f, now: joincode.close(c, k, now, DIRECTOR))
    action("forbid", lambda c, k, f, now: eventstore.forbid(c, k, f.get("a", ""), f.get("b", ""), now, DIRECTOR,
                                                            f.get("why")))
    return router


def _winner(form: dict[str, str]) -> str | None:
    """The forfeit form's winner: a player, or None for "nobody" (a double forfeit); a choice is required."""
    chosen = form.get("winner", "").strip()
    if not chosen:
        raise BadRequest("choose who wins by forfeit, or nobody (a double forfeit)")
    return None if chosen == "none" else chosen


def _int(text: str | None, default: int | None = None) -> int | None:
    text = (text or "").strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        return -1  # refused by the checks with their reason


def _list_page(request: Request, csrf: str, *, problem: str | None = None, status: int = 200) -> Response:
    with pool(request).connection() as conn:
        rows = eventstore.list_events(conn)
    return page(request, "director/events.html", status=status, csrf=csrf, events=rows, problem=problem)


def _screen(request: Request, key: str, csrf: str, *, problem: str | None = None, status: int = 200) -> Response:
    found = _detail(request, key)
    if found is None:
        return page(request, "missing.html", status=404, what="event")
    with pool(request).connection() as conn:
        entered = {e["uuid"] for e in found["entrants"]}
        others = [{"uuid": str(r[0]), "name": r[1]} for r in conn.execute(
            "SELECT uuid, name FROM players WHERE merged_into IS NULL ORDER BY lower(name), uuid")
            if str(r[0]) not in entered]
        code = joincode.code_of(conn, key)
    by_name = []
    open_states = ("waiting", "offered", "acknowledged", "aborted")
    for e in sorted(found["entrants"], key=lambda e: e["name"].lower()):
        mine = [p for p in found["pairings"] if e["uuid"] in [x["uuid"] for x in p["players"]]]
        current = next((p for p in mine if p["state"] in open_states), None)
        if current is None and mine and found["format"] != "arena":
            current = next((p for p in mine if p["round"] == found["round"]), None)
        by_name.append({"entrant": e, "pairing": current})
    if found["format"] == "arena":
        shown = [p for p in found["pairings"] if p["state"] in open_states]
        recent = [p for p in found["pairings"] if p["state"] == "played"][:12]
    else:
        shown = sorted((p for p in found["pairings"] if p["round"] == found["round"]), key=lambda p: p["board"])
        recent = []
    players_of = {p["uuid"]: " – ".join(x["name"] for x in p["players"]) for p in found["pairings"]}
    for entry in found["log"]:
        entry["time"] = dt.datetime.fromtimestamp(entry["at"], dt.UTC).strftime("%H:%M:%S")
        entry["what"] = players_of.get(entry["pairing"]) if entry["pairing"] else None  # whose pairing
    return page(request, "director/event.html", status=status, csrf=csrf, event=found, others=others,
                by_name=by_name, shown=shown, recent=recent, problem=problem, now=_now(request), join_code=code,
                join_url=str(request.base_url) + "join")


def _join_page(request: Request, *, problem: str | None = None, status: int = 200, chosen: str | None = None) -> Response:
    """``/join``: the events players can join by code, each with the names not entered yet."""
    with pool(request).connection() as conn:
        events = []
        for key, name in joincode.open_events(conn):
            names = [{"uuid": str(r[0]), "name": r[1]} for r in conn.execute(
                "SELECT uuid, name FROM players p WHERE merged_into IS NULL AND NOT EXISTS (SELECT 1 FROM"
                " event_entrants e WHERE e.event = %s AND e.player = p.uuid) ORDER BY lower(name), uuid", (key,))]
            events.append({"uuid": str(key), "name": name, "players": names})
    return page(request, "join.html", status=status, events=events, problem=problem, chosen=chosen)
