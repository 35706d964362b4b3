"""Rendering: the Jinja2 environment (autoescaped), the page context, and a live table's fragment."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from club.web import lang
from club.web.board import board_svg, hand_svg

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
                               " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
"""Sent with every page: no inline script can run, even if some text escaped the templates."""


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The templates of ``club/web/templates``, HTML-escaped."""
    folder = resources.files("club.web").joinpath("templates")
    env = Environment(loader=FileSystemLoader(str(folder)), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["board_svg"] = board_svg
    env.globals["hand_svg"] = hand_svg
    env.filters["clock"] = clock_text
    return env


def clock_text(ns: int) -> str:
    """A bank as m:ss (rounded up to the second, as the kiosk's clock)."""
    s = max(0, -(-int(ns) // 1_000_000_000))
    return f"{s // 60}:{s % 60:02d}"


def language_of(request: Request) -> str:
    """The language the request's page is in."""
    return lang.choose(request.cookies.get(lang.COOKIE), request.headers.get("accept-language"))


def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """``template`` rendered in the request's language, with the security headers."""
    language = language_of(request)
    t = lang.texts(language)
    html = environment().get_template(template).render(
        _=t._, n_=t.n_, language=language, languages=lang.languages(), path=request.url.path,
        query=request.url.query, table_fragment=lambda table: table_fragment(table, language), **context)
    return HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)


_FRAGMENTS: dict[tuple[object, ...], str] = {}
"""Rendered live fragments by (kiosk, match, seq, event number, language)."""


def table_fragment(table: Any, language: str) -> Markup:
    """A table's HTML: a live table (cached per projection and language, so 500 browsers cost one
    rendering) or a replay's frame (an object without ``event``)."""
    event = getattr(table, "event", None)
    if event is not None:
        event = (table.kiosk, table.match, table.seq, event, language)
    cached = None if event is None else _FRAGMENTS.get(event)
    if cached is None:
        t = lang.texts(language)
        cached = environment().get_template("_table.html").render(_=t._, n_=t.n_, table=table)
        if event is not None:
            if len(_FRAGMENTS) > 4096:
                _FRAGMENTS.clear()
            _FRAGMENTS[event] = cached
    return Markup(cached)
