"""The club page in a real browser: Playwright driving Debian's Chromium against a hub on 127.0.0.1.

A live table follows a real engine match (one projection per accepted command) within one second of
each command; the replay steps forward and back and plays on its own; the TV mode rotates; the
director's login locks after failures; the review's flagged decisions show their boards; every page
is photographed at 1920x1080 and 390x844, the screen as it opens (into ``$PAGE_SHOTS`` when set, else
the test's temporary folder; ``PAGE_SHOTS=docs/screens/club`` renews the documentation's).
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import psycopg
import pytest
from club_page_support import Served, played_match, serve, stop

from club.app import create_app
from club.review_worker import run as review_all
from club.tokens import add_kiosk
from club.web import auth

PASSWORD = "correct horse battery"
SIZES = {"wide": (1920, 1080), "phone": (390, 844)}

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture
def club(dsn: str, journals) -> Iterator[dict[str, Any]]:
    """A hub on 127.0.0.1 holding real matches, two kiosks and the director's password."""
    served = serve(create_app(dsn, pool_size=4))
    with psycopg.connect(dsn) as conn:
        tokens = [add_kiosk(conn, name)[1] for name in ("table-1", "table-2")]
        auth.set_password(conn, PASSWORD)
    for token, upload in zip(tokens, (journals["table-1"], journals["table-2"]), strict=True):
        got = httpx.post(served.base + "/api/v1/uploads", json=copy.deepcopy(upload),
                         headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert got.status_code == 200
    try:
        yield {"served": served, "tokens": tokens, "base": served.base}
    finally:
        stop(served)


def _post(served: Served, token: str, body: dict[str, Any]) -> dict[str, Any]:
    got = httpx.post(served.base + "/api/v1/live", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert got.status_code == 200, got.text
    answer: dict[str, Any] = got.json()
    return answer


def _page(browser: Browser, size: str = "wide", language: str = "en") -> Page:
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, locale=language, bypass_csp=True,
                                  extra_http_headers={"Accept-Language": language})
    return context.new_page()


RECORD_SHOWN = """
window.__shown = {};
new MutationObserver(function (changes) {
  changes.forEach(function (c) {
    var value = c.target.getAttribute("data-event");
    if (c.attributeName === "data-event" && !(value in window.__shown)) {
      window.__shown[value] = performance.timeOrigin + performance.now();
    }
  });
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-event"]});
"""
"""Records in the page the wall time (ms) at which each event number reached the table's HTML."""


def test_a_live_table_follows_a_match_within_one_second_of_each_command(browser: Browser, club) -> None:
    served, token = club["served"], club["tokens"][0]
    steps = played_match(11, balances=(150, 150), limit=100)
    first = next(steps)
    key = _post(served, token, first.body)["table"]
    page = _page(browser)
    page.add_init_script(RECORD_SHOWN)
    page.goto(f"{served.base}/tables/{key}")
    front = _page(browser)
    front.add_init_script(RECORD_SHOWN)
    front.goto(served.base + "/")
    lags: list[float] = []
    count = 0
    for step in steps:
        sent_ms = time.time() * 1000
        event = _post(served, token, step.body)["event"]
        for watcher in (page, front):
            watcher.wait_for_function(
                f"document.querySelector('.slot[data-key=\"{key}\"]')?.getAttribute('data-event') === '{event}'",
                timeout=2000, polling=100)
            lags.append(watcher.evaluate(f"window.__shown['{event}']") - sent_ms)
        state = step.body["state"]
        if count % 5 == 0 or step.match.is_over:  # what the page shows (not every step: the browser's own load)
            balances = page.locator(".seat .balance").all_inner_texts()
            assert balances == [str(b) for b in state["balances"]]
            assert page.locator("svg.board g.tile").count() == len(state["layout"])
        count += 1
    lags.sort()
    print(f"{count} commands on 2 pages: from the kiosk's POST to the page, median {lags[len(lags) // 2]:.0f} ms,"
          f" p99 {lags[int(len(lags) * 0.99)]:.0f} ms, max {lags[-1]:.0f} ms")
    assert count > 20 and lags[-1] < 1000
    page.context.close()
    front.context.close()


def test_the_clock_counts_down_between_updates(browser: Browser, club) -> None:
    served, token = club["served"], club["tokens"][0]
    step = next(s for s in played_match(11, limit=50) if s.match.clock_running is not None)
    key = _post(served, token, step.body)["table"]
    page = _page(browser)
    page.goto(f"{served.base}/tables/{key}")
    delay = page.locator('.clock[data-running="1"] .delay')
    before = int(delay.inner_text().lstrip("+"))
    page.wait_for_function(
        f"parseInt(document.querySelector('.clock[data-running=\"1\"] .delay').textContent.slice(1)) < {before}",
        timeout=3000)
    page.context.close()


def test_the_replay_steps_forward_and_back_and_plays_on_its_own(browser: Browser, club) -> None:
    base = club["base"]
    match = httpx.get(base + "/api/v1/matches", params={"status": "verified"}).json()[0]["uuid"]
    page = _page(browser)
    page.goto(f"{base}/archive/{match}")
    assert page.locator("#position").inner_text().startswith("Step 0 of")
    for n in (1, 2, 3, 4, 5, 6):
        page.click("#forward")
        page.wait_for_function(f"document.getElementById('replay').getAttribute('data-step') === '{n}'", timeout=3000)
    tiles_at_6 = page.locator("#frame svg.board g.tile").count()
    caption = page.locator("#caption").inner_text()
    page.click("#back")
    page.wait_for_function("document.getElementById('replay').getAttribute('data-step') === '5'", timeout=3000)
    assert page.locator("#position").inner_text().startswith("Step 5 of")
    assert page.locator("#frame svg.board g.tile").count() <= tiles_at_6
    assert page.locator("#caption").inner_text() != caption or tiles_at_6 == 0
    assert page.url.endswith("?step=5")
    page.click("#autoplay")
    page.wait_for_function("parseInt(document.getElementById('replay').getAttribute('data-step')) >= 7",
                           timeout=5000)
    page.click("#autoplay")  # pause
    page.context.close()


def test_tv_mode_rotates_through_the_live_tables(browser: Browser, club) -> None:
    served = club["served"]
    keys = []
    for token, seed in zip(club["tokens"], (21, 22), strict=True):
        body = next(played_match(seed, names=(f"P{seed}", "Q")))
        keys.append(_post(served, token, body.body)["table"])
    page = _page(browser)
    page.goto(served.base + "/tv?every=2")
    visible = "Array.from(document.querySelectorAll('.slot')).filter(s => !s.hidden).map(s => s.dataset.key)"
    first = page.evaluate(visible)
    assert len(first) == 1 and first[0] in keys
    page.wait_for_function(f"JSON.stringify({visible}) !== JSON.stringify({first!r})".replace("'", '"'),
                           timeout=5000)
    second = page.evaluate(visible)
    assert len(second) == 1 and second[0] in keys and second != first
    page.wait_for_function(f"JSON.stringify({visible}) === JSON.stringify({first!r})".replace("'", '"'),
                           timeout=5000)
    page.context.close()


def test_a_table_closed_by_its_kiosk_leaves_the_front_page_and_the_tv(browser: Browser, club) -> None:
    """A kiosk whose players went home from a match not over says so (``closed``): the open pages drop the
    table at once (the SSE event ``gone``); the TV shows the next table, and with none left the idle screen."""
    served = club["served"]
    bodies = [next(played_match(seed, names=(f"P{seed}", "Q"))).body for seed in (31, 32)]
    keys = [_post(served, token, body)["table"] for token, body in zip(club["tokens"], bodies, strict=True)]
    front, tv = _page(browser), _page(browser)
    front.goto(served.base + "/")
    tv.goto(served.base + "/tv?every=120")
    assert front.locator("#tables .slot").count() == 2 and front.locator("#no-tables").is_hidden()
    shown = tv.evaluate("document.querySelector('.slot:not([hidden])').dataset.key")
    order = [shown, *[k for k in keys if k != shown]]
    for gone, token in sorted(zip(keys, club["tokens"], strict=True), key=lambda kt: order.index(kt[0])):
        body = bodies[keys.index(gone)]
        answer = _post(served, token, {"match": body["match"], "seq": body["seq"] + 1, "closed": True})
        assert answer["result"] == "closed" and answer["table"] == gone
        for page in (front, tv):
            page.wait_for_selector(f'.slot[data-key="{gone}"]', state="detached", timeout=5000)
        order = [k for k in order if k != gone]
        if order:  # the TV shows the table that is left at once, not after its rotation
            assert tv.evaluate("document.querySelector('.slot:not([hidden])').dataset.key") == order[0]
    assert front.locator("#no-tables").is_visible() and tv.locator("#no-tables").is_visible()
    for page in (front, tv):
        page.context.close()


def test_the_directors_login_locks_after_failures(browser: Browser, club) -> None:
    page = _page(browser)
    page.goto(club["base"] + "/director")
    assert page.url.endswith("/director/login")
    for _ in range(auth.MAX_FAILURES - 1):
        page.fill("input[name=password]", "not the password")
        page.click("button[type=submit]")
        assert "not right" in page.locator("#refused").inner_text()
    page.fill("input[name=password]", "not the password")
    page.click("button[type=submit]")
    assert "locked" in page.locator("#refused").inner_text()
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    assert "locked" in page.locator("#refused").inner_text()
    assert page.url.endswith("/director/login")
    page.context.close()


REVIEW_SAMPLES = 6
"""Worlds per decision in the browser tests' reviews (the plumbing, not the method, is tested here)."""


def _reviewed_match(dsn: str) -> tuple[str, int, int]:
    """A reviewed match with a named seat 0 and a flagged decision: its uuid, that seat and the decision's step."""
    assert review_all(dsn, samples=REVIEW_SAMPLES, once=True) > 0
    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT s.match, s.seat, s.flagged -> 0 -> 'step' FROM seat_reviews s"
                           " JOIN matches m ON m.uuid = s.match WHERE m.player0 IS NOT NULL"
                           " AND jsonb_array_length(s.flagged) > 0 ORDER BY m.ended_wall DESC, s.seat LIMIT 1").fetchone()
    assert row is not None
    return str(row[0]), int(row[1]), int(row[2])


def test_the_review_shows_each_flagged_decision_on_its_board_and_leads_into_the_replay(browser: Browser, club,
                                                                                      dsn: str) -> None:
    match, seat, step = _reviewed_match(dsn)
    for size in SIZES:
        page = _page(browser, size)
        page.goto(f"{club['base']}/archive/{match}#review-{seat}")
        section = page.locator(f"#review-{seat}")
        assert section.is_visible()
        first = section.locator("li.decision").first
        assert first.get_attribute("data-step") == str(step)
        assert first.locator("svg.board").is_visible() and first.locator("svg.hand g.tile").count() > 0
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
        first.locator(f'a[href="?step={step}"]').click()
        page.wait_for_url(f"**/archive/{match}?step={step}")
        assert page.locator("#replay").get_attribute("data-step") == str(step)
        page.context.close()
    assert httpx.get(club["base"] + f"/api/v1/matches/{match}/review").json()["status"] == "done"


def test_screenshots_of_every_page_at_a_wide_screen_and_a_phone(browser: Browser, club, dsn: str,
                                                                tmp_path: Path) -> None:
    folder = Path(os.environ.get("PAGE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    served = club["served"]
    base = club["base"]
    reviewed, reviewed_seat, _ = _reviewed_match(dsn)
    keys = []
    for token, seed in zip(club["tokens"], (31, 32), strict=True):
        last = None
        for step in played_match(seed, names=("Ann", "Bo") if seed == 31 else ("Di", "Ed"), balances=(150, 150),
                                 limit=40 if seed == 31 else 25):
            last = _post(served, token, step.body)
        assert last is not None
        keys.append(last["table"])
    players = httpx.get(base + "/api/v1/leaderboard").json()
    match = httpx.get(base + "/api/v1/matches", params={"status": "verified"}).json()[0]["uuid"]
    pages = {"front": "/", "table": f"/tables/{keys[0]}", "ladder": "/ladder", "player": f"/players/{players[0]['uuid']}",
             "archive": "/archive", "replay": f"/archive/{match}?step=40", "tv": "/tv?every=120",
             "login": "/director/login", "review": f"/archive/{reviewed}#review-{reviewed_seat}"}
    shots = []
    for size in SIZES:
        for name, path in pages.items():
            page = _page(browser, size)
            page.goto(base + path)
            page.wait_for_load_state("networkidle") if name not in ("front", "table", "tv") else None
            target = folder / f"{name}-{size}.png"
            page.screenshot(path=str(target))  # the screen as the page opens (docs/screens/club/)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1, (name, size, overflow)  # nothing wider than the screen
            shots.append(target)
            page.context.close()
        page = _page(browser, size)
        page.goto(base + "/director/login")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url("**/director")
        page.screenshot(path=str(folder / f"director-{size}.png"))
        page.goto(base + "/director/kiosks")
        page.screenshot(path=str(folder / f"kiosks-{size}.png"))
        page.goto(base + "/director/players")
        page.screenshot(path=str(folder / f"director-players-{size}.png"))
        for path in ("/director", "/director/kiosks", "/director/players"):  # nothing wider than the screen
            page.goto(base + path)
            assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1, path
        shots += [folder / f"director-{size}.png", folder / f"kiosks-{size}.png", folder / f"director-players-{size}.png"]
        page.context.close()
    assert all(s.stat().st_size > 5000 for s in shots)
