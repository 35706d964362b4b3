"""The live table in a real browser against a real hub process: a match played by the kiosk's soak
(the real app, headless, its live feed and sender as a kiosk has them) followed by the front page and
the table's page within one second of each command; and a page that loses its event stream (the
connection cut, the hub process restarted on the same port) reconnects and catches up.

The hub is ``python -m club serve`` (``club.hubproc``), so the soak's frame loop and the hub do not
share an interpreter. Each page records, in the page, the wall time at which each projection
(match, seq) reached its HTML (a MutationObserver on ``data-seq``); the test records when the kiosk
offered each projection (right after the command was accepted, on the frame thread) and when its
POST started.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import psycopg
import pytest
from club_page_support import played_match
from club_sync_support import CuttingProxy
from test_club_page_browser import SIZES

from club.hubproc import HubProcess
from club.tokens import add_kiosk
from kiosk.club.live import LiveSender, urllib_post
from kiosk.club.live_feed import LiveFeed
from kiosk.devtools.soak import SoakReport, soak

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RECORD_SEQ = """
window.__shown = {};
new MutationObserver(function (changes) {
  changes.forEach(function (c) {
    if (c.attributeName !== "data-seq") { return; }
    var key = c.target.getAttribute("data-match") + ":" + c.target.getAttribute("data-seq");
    if (!(key in window.__shown)) { window.__shown[key] = performance.timeOrigin + performance.now(); }
  });
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-seq"]});
"""
"""Records in the page the wall time (ms) at which each projection ``match:seq`` reached a table's HTML."""
ONE_SECOND_MS = 1000.0


@pytest.fixture
def hub_process(dsn: str, tmp_path: Path) -> Iterator[HubProcess]:
    hub = HubProcess(dsn, tmp_path / "hub.log", log_level="warning")
    hub.start()
    try:
        yield hub
    finally:
        hub.stop()


def _kiosk(dsn: str, name: str, folder: Path | None = None) -> tuple[str, str]:
    """Register a kiosk: its table key and its token (also written to ``folder/name.token``)."""
    with psycopg.connect(dsn) as conn:
        kiosk, token = add_kiosk(conn, name)
    if folder is not None:
        path = folder / f"{name}.token"
        path.write_text(token + "\n")
        path.chmod(0o600)
    return kiosk.uuid.hex, token


def _page(chromium: Browser, url: str, size: str = "wide") -> Page:
    w, h = SIZES[size]
    context = chromium.new_context(viewport={"width": w, "height": h}, locale="en", bypass_csp=True,
                                  extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.add_init_script(RECORD_SEQ)
    page.goto(url)
    return page


class Recorder:
    """Between the kiosk's live feed and its sender: when each projection was offered and when its POST began."""

    def __init__(self, hub_url: str, token: str) -> None:
        self.offered: dict[tuple[str, int], float] = {}
        self.posted: dict[tuple[str, int], float] = {}
        self.statuses: list[int] = []
        self.closed: set[tuple[str, int]] = set()
        """The kiosk's word that it left a match unfinished (a table gone home): a page removes the table."""
        self.sender = LiveSender(hub_url, token, post=self._post)

    def offer(self, body: dict[str, Any]) -> None:
        if body.get("closed"):
            self.closed.add((body["match"], body["seq"]))
        else:
            self.offered[(body["match"], body["seq"])] = time.time() * 1000
        self.sender.offer(body)

    def _post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        sent = json.loads(body)
        if not sent.get("closed"):
            self.posted[(sent["match"], sent["seq"])] = time.time() * 1000
        status = urllib_post(url, body, headers, timeout_s)
        self.statuses.append(status)
        return status


def _lags(shown: dict[str, float], since: dict[tuple[str, int], float], after_ms: float,
          last_sent: dict[str, int]) -> tuple[list[float], list[tuple[str, int]]]:
    """For each projection in ``since`` (from ``after_ms`` on, up to the match's last one sent): the time
    until the page showed it or a newer one of its match; and those it never showed."""
    by_match: dict[str, list[tuple[int, float]]] = {}
    for key, t in shown.items():
        shown_match, _, shown_seq = key.rpartition(":")
        by_match.setdefault(shown_match, []).append((int(shown_seq), t))
    lags: list[float] = []
    missing: list[tuple[str, int]] = []
    for (match, seq), t in since.items():
        if t < after_ms or seq > last_sent.get(match, 0):
            continue
        times = [shown_t for s, shown_t in by_match.get(match, []) if s >= seq]
        if times:
            lags.append(min(times) - t)
        else:
            missing.append((match, seq))
    return sorted(lags), missing


def _quantiles(lags: list[float]) -> str:
    return (f"median {statistics.median(lags):.0f} ms, p99 {lags[min(len(lags) - 1, int(len(lags) * 0.99))]:.0f} ms, "
            f"max {lags[-1]:.0f} ms")


def _follow_a_soak(chromium: Browser, hub: HubProcess, dsn: str, folder: Path, minutes: float, seed: int) -> None:
    key, token = _kiosk(dsn, "soak table", folder)
    recorder = Recorder(hub.url, token)
    recorder.sender.start()
    feed = LiveFeed(recorder)
    front = _page(chromium, hub.url + "/")
    front_from = time.time() * 1000
    reports: list[SoakReport] = []
    errors: list[BaseException] = []

    def play() -> None:
        try:
            reports.append(soak(minutes, seed=seed, log=False, live=feed))
        except BaseException as exc:  # reported by the test below
            errors.append(exc)

    player = threading.Thread(target=play, name="soak", daemon=True)
    player.start()
    deadline = time.monotonic() + 120
    while not httpx.get(hub.url + "/api/v1/live", timeout=10).json():  # the soak's first projection
        assert player.is_alive() and time.monotonic() < deadline, "the soak sent no projection"
        time.sleep(0.1)  # polling for the kiosk's first command, not for time to pass
    table = _page(chromium, f"{hub.url}/tables/{key}", size="phone")
    table.wait_for_function("Object.keys(window.__shown).length > 0", timeout=10_000)
    table_from = time.time() * 1000
    player.join(minutes * 60 + 180)
    assert not player.is_alive() and not errors, errors
    recorder.sender.close()
    report = reports[0]
    assert not report.exceptions, report.exceptions[:1]
    time_to_show = 2.0  # the last projection's way to the pages: waited for below, not slept
    for page in (front, table):
        last = max(recorder.posted, key=lambda k: recorder.posted[k])
        page.wait_for_function(f"'{last[0]}:{last[1]}' in window.__shown", timeout=time_to_show * 1000)
    last_sent: dict[str, int] = {}
    for match, seq in recorder.posted:
        last_sent[match] = max(last_sent.get(match, 0), seq)
    results = []
    for name, page, start in (("front page", front, front_from), ("table page (phone)", table, table_from)):
        shown = page.evaluate("window.__shown")
        from_offer, missing = _lags(shown, recorder.offered, start, last_sent)
        from_post, missing_posts = _lags(shown, recorder.posted, start, last_sent)
        assert not missing and not missing_posts, (name, missing[:5], missing_posts[:5])
        results.append((name, from_offer, from_post))
        print(f"{name}: {len(from_offer)} commands offered, {len(from_post)} POSTs: command → page "
              f"{_quantiles(from_offer)}; POST → page {_quantiles(from_post)}")
    print(f"soak: {report.matches} matches finished, {report.decisions} decisions; live: {len(recorder.offered)} "
          f"projections offered, {recorder.sender.stats.sent} sent, {recorder.sender.stats.dropped} replaced before "
          f"sending, statuses {sorted(set(recorder.statuses))}")
    assert set(recorder.statuses) == {200}
    for name, from_offer, from_post in results:
        assert len(from_offer) >= 20, name
        assert from_offer[-1] < ONE_SECOND_MS and from_post[-1] < ONE_SECOND_MS, name
    front.context.close()
    table.context.close()


def test_a_live_table_follows_a_soak_played_by_the_kiosk_within_one_second(browser: Browser,
                                                                            hub_process: HubProcess, dsn: str,
                                                                            tmp_path: Path) -> None:
    _follow_a_soak(browser, hub_process, dsn, tmp_path, minutes=0.4, seed=3)


@pytest.mark.slow
def test_a_live_table_follows_a_longer_soak_within_one_second(browser: Browser,
                                                              hub_process: HubProcess, dsn: str,
                                                              tmp_path: Path) -> None:
    _follow_a_soak(browser, hub_process, dsn, tmp_path, minutes=3.0, seed=4)


def _post(url: str, token: str, body: dict[str, Any]) -> None:
    got = httpx.post(url + "/api/v1/live", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert got.status_code == 200 and got.json()["result"] == "published", got.text


def _shows(page: Page, match: str, seq: int, timeout_ms: float = 10_000) -> None:
    page.wait_for_function(f"'{match}:{seq}' in window.__shown", timeout=timeout_ms)


def _offline(page: Page) -> None:
    page.wait_for_function("document.body.classList.contains('offline')", timeout=10_000)


def test_a_page_whose_stream_is_cut_reconnects_and_catches_up(browser: Browser, hub_process: HubProcess,
                                                                dsn: str) -> None:
    key, token = _kiosk(dsn, "table 1")
    steps = list(played_match(8, match_id="a", limit=12))
    for step in steps[:5]:
        _post(hub_process.url, token, step.body)
    proxy = CuttingProxy(hub_process.port)  # the browser reaches the hub through it; the kiosk does not
    try:
        page = _page(browser, f"{proxy.url}/tables/{key}")
        page.evaluate("window.__sameDocument = true")
        _post(hub_process.url, token, steps[5].body)
        _shows(page, "a", 6)
        proxy.hold = True  # the browser's next connections are taken and never answered
        proxy.arm(1, answer_side=True)  # the next byte the hub sends the browser cuts the stream
        _post(hub_process.url, token, steps[6].body)
        _offline(page)
        for step in steps[7:11]:  # while the page is away
            _post(hub_process.url, token, step.body)
        assert not page.evaluate("['a:7', 'a:8', 'a:9', 'a:10', 'a:11'].some(k => k in window.__shown)")
        proxy.release()
        _shows(page, "a", 11)
        page.wait_for_function("!document.body.classList.contains('offline')", timeout=10_000)
        assert page.evaluate("window.__sameDocument") is True  # caught up in place, not reloaded
        state = steps[10].body["state"]
        assert page.locator(".seat .balance").all_inner_texts() == [str(b) for b in state["balances"]]
        assert page.locator("svg.board g.tile").count() == len(state["layout"])
        assert proxy.cuts == 1
        _post(hub_process.url, token, steps[11].body)  # and it follows again
        _shows(page, "a", 12)
        page.context.close()
    finally:
        proxy.close()


def test_a_page_reconnects_to_a_restarted_hub_and_catches_up(browser: Browser, dsn: str,
                                                             tmp_path: Path) -> None:
    """The hub is killed and started again on the same port; its event numbers start again at 1. Table B
    changes in the new hub's first event, table A in the ten after it (past the number the page last saw):
    the page that comes back shows both."""
    key_a, token_a = _kiosk(dsn, "table A")
    key_b, token_b = _kiosk(dsn, "table B")
    a = list(played_match(9, match_id="a", limit=24))
    b = list(played_match(10, match_id="b", names=("Di", "Ed"), limit=3))
    hub = HubProcess(dsn, tmp_path / "hub.log", log_level="warning")
    hub.start()
    proxy = CuttingProxy(hub.port)
    try:
        for step in a[:8]:
            _post(hub.url, token_a, step.body)
        _post(hub.url, token_b, b[0].body)
        page = _page(browser, proxy.url + "/")
        page.evaluate("window.__sameDocument = true")
        _post(hub.url, token_a, a[8].body)
        _shows(page, "a", 9)
        proxy.hold = True
        hub.kill()  # SIGKILL: the stream is cut, the live tables in memory are gone
        _offline(page)
        hub.start()  # the same port
        _post(hub.url, token_b, b[1].body)  # the new hub's event 1
        for step in a[9:20]:  # events 2 to 12: past the 10 the page last saw from the old hub
            _post(hub.url, token_a, step.body)
        assert not page.evaluate("'b:2' in window.__shown || 'a:20' in window.__shown")
        proxy.release()
        _shows(page, "b", 2)
        _shows(page, "a", 20)
        page.wait_for_function("!document.body.classList.contains('offline')", timeout=10_000)
        assert page.evaluate("window.__sameDocument") is True
        for key, step in ((key_a, a[19]), (key_b, b[1])):
            slot = page.locator(f'.slot[data-key="{key}"]')
            balances = slot.locator(".seat .balance").all_inner_texts()
            assert balances == [str(x) for x in step.body["state"]["balances"]]
        page.context.close()
    finally:
        proxy.close()
        hub.stop()
