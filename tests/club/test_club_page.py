"""The club page over HTTP (no browser): the pages from real uploaded matches, names escaped, public
pages read only, the replay's frames, the archive's filter, the languages, and the director (password
set by ``python -m club admin``, login locked after failures, CSRF on every form, kiosk tokens)."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from club_page_support import played_match
from fastapi.testclient import TestClient

from club.app import create_app
from club.web import auth
from club.web.lang import choose

ROOT = Path(__file__).resolve().parents[2]
EVIL = "<script>alert(1)</script>"


class FakeClock:
    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def site(dsn: str, journals) -> Iterator[tuple[TestClient, FakeClock, str]]:
    """A hub with table-1's real matches (Ann renamed to a script tag) and table-2's, and a fake clock."""
    clock = FakeClock()
    with TestClient(create_app(dsn, pool_size=4, clock=clock)) as client:
        with psycopg.connect(dsn) as conn:
            from club.tokens import add_kiosk

            t1 = add_kiosk(conn, "table-1")[1]
            t2 = add_kiosk(conn, "table-2")[1]
        body = copy.deepcopy(journals["table-1"])
        for p in body["players"]:
            if p["name"] == "Ann":
                p["name"] = EVIL
        for token, upload in ((t1, body), (t2, journals["table-2"])):
            assert client.post("/api/v1/uploads", json=upload, headers={"Authorization": f"Bearer {token}"}).status_code == 200
        yield client, clock, t1


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the form carries no CSRF token"
    return found.group(1)


def test_every_public_page_renders_and_a_name_like_a_script_tag_shows_as_text(site) -> None:
    client, _, token = site
    for step in played_match(5, names=(EVIL, "Bo"), limit=12):
        client.post("/api/v1/live", json=step.body, headers={"Authorization": f"Bearer {token}"})
    key = client.get("/api/v1/live").json()[0]["key"]
    ladder = client.get("/api/v1/leaderboard").json()
    evil = next(p for p in ladder if p["name"] == EVIL)
    match = client.get("/api/v1/matches").json()[0]["uuid"]
    pages = ["/", f"/tables/{key}", "/ladder", f"/players/{evil['uuid']}", "/archive", f"/archive/{match}", "/tv"]
    for path in pages:
        got = client.get(path)
        assert got.status_code == 200, path
        assert EVIL not in got.text, path
        assert "script-src 'self'" in got.headers["content-security-policy"]
        assert re.findall(r"<script[^>]*>", got.text) in ([], ['<script src="/static/live.js" defer>'],
                                                           ['<script src="/static/replay.js" defer>'],
                                                           ['<script src="/static/live.js" defer>',
                                                            '<script src="/static/events_tv.js" defer>']), path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get("/ladder").text
    assert "&lt;script&gt;" in client.get(f"/tables/{key}").text


def test_public_pages_are_read_only_and_every_write_needs_a_session_or_a_token(site) -> None:
    client, _, _ = site
    for path in ("/", "/ladder", "/archive", "/tv", "/api/v1/leaderboard"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert client.request(method, path).status_code == 405, (method, path)
    assert client.post("/api/v1/live", json={}).status_code == 401
    assert client.post("/api/v1/uploads", json={}).status_code == 401
    for path in ("/director/kiosks", "/director/logout", "/director/kiosks/0f0e0d0c-0b0a-4000-8000-000000000000/revoke"):
        got = client.post(path, data={"name": "sneaky", "csrf": "x"})
        assert got.status_code == 403, path
    assert client.get("/director", follow_redirects=False).headers["location"] == "/director/login"
    with psycopg.connect(client.app.state.pool.conninfo) as conn:
        assert conn.execute("SELECT count(*) FROM kiosks").fetchone() == (2,)


def test_the_ladder_shows_provisional_marks_games_and_recent_form(site) -> None:
    client, _, _ = site
    html = client.get("/ladder").text
    assert html.count('class="provisional"') >= 1
    form = re.findall(r'<span class="(won|lost)">', html)
    assert form and set(form) <= {"won", "lost"}
    assert "Di" in html and "Ed" in html


def test_a_players_page_has_history_a_rating_graph_and_head_to_head(site) -> None:
    client, _, _ = site
    bo = next(p for p in client.get("/api/v1/leaderboard").json() if p["name"] == "Bo")
    html = client.get(f"/players/{bo['uuid']}").text
    assert "<polyline points=" in html
    points = re.search(r'<polyline points="([^"]+)"', html).group(1).split()  # type: ignore[union-attr]
    assert len(points) == bo["games"] + 1
    assert 'class="rivals"' in html and "&lt;script&gt;" in html
    assert client.get("/players/not-a-uuid").status_code == 404
    assert client.get("/players/0f0e0d0c-0b0a-4000-8000-000000000000").status_code == 404


def test_the_archive_filters_by_player_and_date(site) -> None:
    client, _, _ = site
    every = client.get("/archive").text.count('href="/archive/')
    assert every == 8
    assert client.get("/archive", params={"player": "di"}).text.count('href="/archive/') == 3
    day = client.get("/api/v1/matches").json()[0]["ended_wall"]
    import datetime as dt

    date = dt.datetime.fromtimestamp(day, dt.UTC).date().isoformat()
    assert client.get("/archive", params={"date": date}).text.count('href="/archive/') >= 1
    assert client.get("/archive", params={"date": "1999-01-01"}).text.count('href="/archive/') == 0
    bad = client.get("/archive", params={"date": "yesterday"})
    assert bad.status_code == 422 and "YYYY-MM-DD" in bad.text


def test_the_replay_steps_through_every_stored_row_as_the_engine_replays_it(site) -> None:
    client, _, _ = site
    match = client.get("/api/v1/matches", params={"status": "verified"}).json()[0]
    html = client.get(f"/archive/{match['uuid']}").text
    total = int(re.search(r'data-total="(\d+)"', html).group(1))  # type: ignore[union-attr]
    with psycopg.connect(client.app.state.pool.conninfo) as conn:
        rows = conn.execute("SELECT count(*) FROM match_rows WHERE match = %s", (match["uuid"],)).fetchone()
    assert rows is not None and total == rows[0]
    first = client.get(f"/archive/{match['uuid']}/frames/0").json()
    last = client.get(f"/archive/{match['uuid']}/frames/{total}").json()
    assert first["n"] == 0 and "data-tile" not in first["html"]
    assert "data-tile" in last["html"] or "Match over" in last["html"]
    assert "Match over" in last["html"]
    assert client.get(f"/archive/{match['uuid']}/frames/{total + 1}").status_code == 404
    assert client.get(f"/archive/{match['uuid']}", params={"step": 3}).text.count("Step 3 of") == 1


def test_the_languages_follow_the_chooser_then_accept_language() -> None:
    assert choose(None, "ko-KR,ko;q=0.9,en;q=0.5") == "ko"
    assert choose(None, "fr, uk;q=0.4, id;q=0.8") == "id"
    assert choose("uk", "ko") == "uk"
    assert choose("xx", None) == "en"
    assert choose(None, "en;q=abc, id") == "id"


def test_the_chooser_sets_a_cookie_and_only_redirects_inside_the_site(site) -> None:
    client, _, _ = site
    got = client.get("/language/uk", params={"next": "/ladder"}, follow_redirects=False)
    assert got.status_code == 303 and got.headers["location"] == "/ladder" and "sb_lang=uk" in got.headers["set-cookie"]
    assert client.get("/language/ko", params={"next": "//evil.example"}, follow_redirects=False).headers["location"] == "/"
    page = client.get("/ladder", cookies={"sb_lang": "uk"}).text
    assert '<html lang="uk">' in page and "Рейтинг" in page
    client.cookies.clear()  # the chooser's cookie above would win over the header
    for language, word in (("ko", "순위표"), ("id", "Peringkat"), ("uk", "Рейтинг"), ("en", "Ladder")):
        got = client.get("/ladder", headers={"Accept-Language": f"{language};q=0.9, fr"}).text
        assert f'<html lang="{language}">' in got and f"<h1>{word}</h1>" in got
    korean = client.get("/archive", headers={"Accept-Language": "ko"}).text
    assert "다시 보기" in korean and "Replay" not in korean


def _admin(dsn: str, password: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "club", "admin", "--database", dsn], input=password + "\n",
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_python_m_club_admin_sets_a_hashed_password_and_refuses_a_short_one(dsn: str) -> None:
    short = _admin(dsn, "short")
    assert short.returncode == 2 and "at least 10" in short.stderr
    done = _admin(dsn, "correct horse battery")
    assert done.returncode == 0, done.stderr
    with psycopg.connect(dsn) as conn:
        stored = conn.execute("SELECT password_hash FROM director").fetchone()
    assert stored is not None and stored[0].startswith("scrypt$") and "correct horse" not in stored[0]
    assert auth.password_matches("correct horse battery", stored[0])
    assert not auth.password_matches("correct horse batterz", stored[0])


def test_the_login_locks_after_repeated_failures_and_the_forms_carry_csrf(site, dsn: str) -> None:
    client, clock, _ = site
    with psycopg.connect(dsn) as conn:
        auth.set_password(conn, "correct horse battery")
    login = client.get("/director/login")
    csrf = _csrf(login.text)
    assert client.post("/director/login", data={"password": "correct horse battery"}).status_code == 403  # no CSRF
    for _ in range(auth.MAX_FAILURES - 1):
        wrong = client.post("/director/login", data={"password": "wrong", "csrf": csrf})
        assert wrong.status_code == 401
        csrf = _csrf(wrong.text)  # each answer's form has a fresh token
    locked = client.post("/director/login", data={"password": "wrong", "csrf": csrf})
    assert locked.status_code == 429 and "locked" in locked.text
    right = client.post("/director/login", data={"password": "correct horse battery", "csrf": _csrf(locked.text)},
                        follow_redirects=False)
    assert right.status_code == 429  # locked: even the right password
    clock.t += auth.LOCK_S + 1
    csrf = _csrf(client.get("/director/login").text)
    ok = client.post("/director/login", data={"password": "correct horse battery", "csrf": csrf},
                     follow_redirects=False)
    assert ok.status_code == 303 and "HttpOnly" in ok.headers["set-cookie"] and "SameSite=strict" in ok.headers["set-cookie"]
    overview = client.get("/director")
    assert overview.status_code == 200 and "Rejected matches" in overview.text and 'id="renames"' in overview.text
    session_csrf = _csrf(overview.text)
    assert client.post("/director/kiosks", data={"name": "table-3"}).status_code == 403
    assert client.post("/director/kiosks", data={"name": "table-3", "csrf": "forged"}).status_code == 403
    added = client.post("/director/kiosks", data={"name": "table-3", "csrf": session_csrf})
    token = re.search(r'<p class="token">([^<]+)</p>', added.text).group(1)  # type: ignore[union-attr]
    body = next(played_match(1)).body
    assert client.post("/api/v1/live", json=body, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    kiosk = re.search(r'data-kiosk="([0-9a-f-]+)"><td>table-3<', added.text).group(1)  # type: ignore[union-attr]
    revoked = client.post(f"/director/kiosks/{kiosk}/revoke", data={"csrf": session_csrf}, follow_redirects=False)
    assert revoked.status_code == 303
    assert client.post("/api/v1/live", json=dict(body, seq=5), headers={"Authorization": f"Bearer {token}"}).status_code == 401
    clock.t += auth.SESSION_S + 1
    assert client.get("/director", follow_redirects=False).status_code == 303  # the session expired


def test_the_club_page_and_the_live_sender_import_no_pygame() -> None:
    modules = sorted(f"club.web.{p.stem}" for p in (ROOT / "club" / "web").glob("*.py") if p.stem != "__init__")
    modules += ["club.web", "engine.public", "kiosk.club.live", "kiosk.i18n"]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "bad = [m for m in sys.modules if m == 'pygame' or m.startswith('pygame.')]\nassert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "club.web.board" in modules and "club.web.director" in modules
