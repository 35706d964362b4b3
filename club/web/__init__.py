"""The club page: server-rendered pages over the hub's data, the live tables, the TV mode and the
director's screens (docs/club-page.md). No pygame, no front-end build chain: Jinja2 templates, a
little plain JavaScript and CSS from ``club/web/static``."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from club.web.broker import LiveBoard
from club.web.director import director_router
from club.web.director_players import players_router
from club.web.events_pages import events_router
from club.web.pages import public_router
from club.web.reviews import reviews_router


def mount(app: FastAPI, *, clock: Callable[[], float] = time.time) -> None:
    """Add the pages, the live endpoints and the static files to the hub's ``app``; ``clock`` (wall seconds)
    ages the live tables and times the director's sessions and lockouts."""
    app.state.live = LiveBoard(clock=clock)
    app.state.clock = clock
    app.state.live_tokens = {}
    app.include_router(public_router())
    app.include_router(director_router())
    app.include_router(players_router())
    app.include_router(events_router())
    app.include_router(reviews_router())
    static = resources.files("club.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    fonts = resources.files("kiosk").joinpath("assets", "fonts")  # the kiosk's own fonts: Hangul and Cyrillic too
    app.mount("/fonts", StaticFiles(directory=str(fonts)), name="fonts")
