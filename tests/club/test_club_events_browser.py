"""The club nights' pages in a real browser (Chromium through Playwright) against a hub served on
127.0.0.1: a Swiss in its second round with results in and tables playing, the director's screen
used with the mouse (an override with its reason, logged), the TV's standings slide, and every page
photographed at 1920x1080 and 390x844 (into ``$PAGE_SHOTS`` when set) with nothing wider than the screen.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import psycopg
import pytest
from club_events_support import NAMES, FakeClock, SimTable, free_port, match_pools, serve_at, stop_served
from test_club_page_browser import PASSWORD, SIZES

from club import eventstore, joincode
from club.app import create_app
from club.cli import main as club_main
from club.tokens import add_kiosk
from club.web import auth

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _cli(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert club_main(list(args)) == 0
    return out.getvalue().strip()


@pytest.fixture
def night(dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A hub with a Swiss of 12 in round 2 (four tables: results in, boards at tables, boards waiting)
    and an arena open for entries."""
    pools = match_pools(tmp_path_factory.mktemp("pools"), count=2)
    clock = FakeClock()
    port = free_port()
    served = serve_at(create_app(dsn, pool_size=4, clock=clock), port)
    base = served.base
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, f"table {i}")[1] for i in range(1, 5)]
        auth.set_password(conn, PASSWORD)
    rng = random.Random(5)
    players = [{"uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "name": n} for n in NAMES]
    assert httpx.post(base + "/api/v1/uploads", json={"players": players, "matches": []},
                      headers={"Authorization": f"Bearer {tokens[0]}"}).status_code == 200
    swiss = _cli("events", "create", "--database", dsn, "--name", "Friday Swiss", "--format", "swiss", "--rounds", "5")
    _cli("events", "join", swiss, *[p["uuid"] for p in players], "--database", dsn)
    arena = _cli("events", "create", "--database", dsn, "--name", "Saturday arena", "--format", "arena", "--minutes",
                 "30", "--berserk")
    _cli("events", "join", arena, *[p["uuid"] for p in players[:5]], "--database", dsn)
    with psycopg.connect(dsn) as conn:
        eventstore.start(conn, swiss, clock.t)
    tables = [SimTable(f"table {i + 1}", t, lambda: base, pools, random.Random(i)) for i, t in enumerate(tokens)]
    state: dict[str, Any] = {}
    while True:  # play until round 2 has results in and boards still at tables
        clock.t += 5
        for table in tables:
            table.step(clock.t)
        with psycopg.connect(dsn) as conn:
            state = eventstore.event_detail(conn, swiss)
        if state["round"] == 2 and sum(p["state"] == "played" for p in state["pairings"] if p["round"] == 2) >= 2:
            break
    try:
        yield {"base": base, "swiss": swiss, "arena": arena, "clock": clock, "dsn": dsn}
    finally:
        stop_served(served)


def _page(browser: Browser, size: str) -> Page:
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, locale="en")
    return context.new_page()


def _log_in(page: Page, base: str) -> None:
    page.goto(base + "/director/login")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/director")


def test_the_club_nights_pages_in_a_browser(browser: Browser, night: dict[str, Any], tmp_path: Path) -> None:
    folder = Path(os.environ.get("PAGE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    base, swiss = night["base"], night["swiss"]
    shots = []
    for size in SIZES:
        page = _page(browser, size)
        for name, path in (("events", "/events"), ("event-standings", f"/events/{swiss}")):
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            assert "Lior &lt;b&gt;" in page.content() or name == "events"
            page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
            shots.append((name, size, page.evaluate("document.documentElement.scrollWidth - innerWidth")))
        page.goto(base + "/tv?every=120")
        page.wait_for_selector(".standings-slot:not([hidden]) table.event-standings", timeout=10_000)
        assert page.locator(".standings-slot:not([hidden]) td.name").count() == 12
        page.screenshot(path=str(folder / f"tv-standings-{size}.png"))
        _log_in(page, base)
        page.goto(base + "/director/events")
        page.screenshot(path=str(folder / f"director-events-{size}.png"), full_page=True)
        shots.append(("director-events", size, page.evaluate("document.documentElement.scrollWidth - innerWidth")))
        page.goto(base + f"/director/events/{swiss}")
        assert page.locator("table.by-table tr[data-pairing]").count() == 6
        assert page.locator("table.by-name tr[data-player]").count() == 12
        page.screenshot(path=str(folder / f"director-event-{size}.png"), full_page=True)
        shots.append(("director-event", size, page.evaluate("document.documentElement.scrollWidth - innerWidth")))
        page.context.close()
    assert all(overflow <= 1 for *_, overflow in shots), shots


def test_the_director_overrides_a_round_with_a_reason_in_the_browser(browser: Browser, night: dict[str, Any]) -> None:
    base, swiss = night["base"], night["swiss"]
    page = _page(browser, "wide")
    _log_in(page, base)
    page.goto(base + f"/director/events/{swiss}")
    form = page.locator("form.override")
    assert "Override: start round 3 now" in form.inner_text()
    form.locator("input[name=why]").fill("two boards <stuck>, the hall closes")
    form.locator("button").click()
    page.wait_for_load_state("networkidle")
    assert "Round 3 of 5" in page.locator(".facts").inner_text()
    assert "two boards <stuck>, the hall closes" in page.locator("table.event-log").inner_text()
    # a table's pairing re-paired by hand, with its reason
    row = page.locator("tr.actions").first
    row.locator("summary").click()
    row.locator("form").first.locator("input[name=why]").fill("Anna asked to change seats")
    row.locator("form").first.locator("button").click()
    page.wait_for_load_state("networkidle")
    assert "Anna asked to change seats" in page.locator("table.event-log").inner_text()
    page.context.close()


def test_the_director_scores_a_forfeit_and_gives_a_bye_on_a_phone(browser: Browser, night: dict[str, Any]) -> None:
    base, swiss = night["base"], night["swiss"]
    page = _page(browser, "phone")
    _log_in(page, base)
    page.goto(base + f"/director/events/{swiss}")
    row = page.locator("tr.actions").first
    row.locator("summary").click()
    form = row.locator("form.forfeit")
    form.locator("select[name=winner]").select_option(index=1)
    winner = form.locator("select[name=winner] option").nth(1).inner_text()
    form.locator("input[name=why]").fill("the opponent <left> at the break")
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    if os.environ.get("PAGE_SHOTS"):
        row.screenshot(path=str(Path(os.environ["PAGE_SHOTS"]) / "director-forfeit-phone.png"))
    form.locator("button").click()
    page.wait_for_load_state("networkidle")
    assert "the opponent <left> at the break" in page.locator("table.event-log").inner_text()
    assert f"{winner} wins by forfeit" in page.locator("table.by-table").inner_text()
    bye = page.locator("form.bye")
    bye.locator("select[name=player]").select_option(index=2)
    asked = bye.locator("select[name=player] option").nth(2).inner_text()
    bye.locator("input[name=why]").fill("a wedding")
    bye.locator("button").click()
    page.wait_for_load_state("networkidle")
    assert f"{asked}: round 3" in page.locator("ul.bye-requests").inner_text()
    if os.environ.get("PAGE_SHOTS"):
        page.locator("ul.bye-requests").screenshot(path=str(Path(os.environ["PAGE_SHOTS"]) / "director-byes-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    page.context.close()


def test_a_player_joins_the_arena_from_a_phone_with_the_code_on_the_tv(browser: Browser, night: dict[str, Any]) -> None:
    base, arena = night["base"], night["arena"]
    with psycopg.connect(night["dsn"]) as conn:
        code = joincode.new_code(conn, arena, night["clock"].t)
    tv = _page(browser, "wide")
    tv.goto(base + "/tv?every=2")
    tv.wait_for_selector(f'.standings-slot:not([hidden]) section[data-event="{arena}"] .join-code', timeout=20_000)
    shown = tv.locator(f'section[data-event="{arena}"] .join-code').inner_text()
    assert code in shown and base + "/join" in shown
    if os.environ.get("PAGE_SHOTS"):
        tv.screenshot(path=str(Path(os.environ["PAGE_SHOTS"]) / "tv-join-code-wide.png"))
    tv.context.close()
    phone = _page(browser, "phone")
    phone.goto(base + "/join")
    form = phone.locator(f'section[data-event="{arena}"] form')
    form.locator("select[name=player]").select_option(label="Lior <b>")
    form.locator("input[name=code]").fill(code)
    assert phone.evaluate("document.documentElement.scrollWidth - innerWidth") <= 1
    if os.environ.get("PAGE_SHOTS"):
        phone.screenshot(path=str(Path(os.environ["PAGE_SHOTS"]) / "join-phone.png"), full_page=True)
    form.locator("button").click()
    phone.wait_for_url(f"**/events/{arena}?joined=1")
    assert "You are entered" in phone.locator("main").inner_text()
    assert phone.locator('td.name:text-is("Lior <b>")').count() == 1
    phone.context.close()
