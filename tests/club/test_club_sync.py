"""The kiosk's side of the club sync against a real hub over HTTP on 127.0.0.1: ``python -m kiosk.club sync``,
the outbox, the journal's uuids at the hub, 409s recorded, the roster downloaded into the journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from club_support import play_journal
from club_sync_support import journal_keys, live_hub

from kiosk.club.cli import main
from kiosk.club.client import HubClient, hub_url, read_token
from kiosk.club.errors import SyncSetupError
from kiosk.club.sync import DirectAccess, SyncRound
from kiosk.store.journal import Journal


def _sync(journal: Path, hub: str, token: Path, *extra: str) -> int:
    return main(["sync", "--journal", str(journal), "--hub", hub, "--token-file", str(token), "--timeout", "10",
                 *extra])


def test_sync_uploads_everything_once_with_the_journals_uuids(dsn: str, tmp_path: Path, capsys) -> None:
    journal = tmp_path / "t1.sqlite3"
    play_journal(journal, seed=1, matches=4, guests=1)
    matches, players = journal_keys(journal)
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        assert _sync(journal, hub.url, token) == 0
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) == 1 and out[0].startswith("sync: 5 matches acknowledged (5 verified, 0 rejected), 3 players")
        assert "left unsent: 0 matches, 0 players" in out[0] and "roster version" in out[0]
        held = {str(u): (s, lid) for u, s, lid in hub.rows("SELECT uuid, status, local_id FROM matches")}
        assert held == {u: ("verified", lid) for u, lid in matches.items()}
        assert {str(u): n for u, n in hub.rows("SELECT uuid, name FROM players")} == players
        # a second round sends nothing and changes nothing
        assert _sync(journal, hub.url, token) == 0
        second = capsys.readouterr().out
        assert second.startswith("sync: 0 matches acknowledged") and "in 0 uploads" in second
        assert hub.count("matches") == 5 and hub.count("players") == 3 and hub.count("conflicts") == 0
    conn = sqlite3.connect(journal)
    assert conn.execute("SELECT result, count(*) FROM club_acks GROUP BY result ORDER BY result").fetchall() == [
        ("held", 3), ("verified", 5)]
    conn.close()


def test_a_match_played_after_a_sync_is_sent_in_the_next_round_alone(dsn: str, tmp_path: Path, capsys) -> None:
    from journal_support import new_table

    journal = tmp_path / "t1.sqlite3"
    play_journal(journal, seed=3, matches=2)
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        assert _sync(journal, hub.url, token, "--no-roster") == 0
        with Journal.open(journal) as j:
            table = new_table(j, 77, players=(1, 2), now=9_000 * 10**9)
            while table.step():
                pass
        capsys.readouterr()
        assert _sync(journal, hub.url, token, "--no-roster") == 0
        assert capsys.readouterr().out.startswith("sync: 1 matches acknowledged (1 verified, 0 rejected), 0 players")
        assert hub.count("matches") == 3


def test_clear_messages_and_exit_codes_for_what_cannot_work(dsn: str, tmp_path: Path, capsys) -> None:
    journal = tmp_path / "t1.sqlite3"
    play_journal(journal, seed=4, matches=1)
    token = tmp_path / "token"
    token.write_text("sbk_not_a_real_token\n")
    assert _sync(tmp_path / "missing.sqlite3", "http://127.0.0.1:9", token) == 2
    assert "there is no journal at" in capsys.readouterr().err
    assert _sync(journal, "ftp://hub", token) == 2
    assert "http:// or https://" in capsys.readouterr().err
    assert _sync(journal, "http://127.0.0.1:9", tmp_path / "none") == 2
    assert "token file" in capsys.readouterr().err
    with live_hub(dsn) as hub:
        assert _sync(journal, hub.url, token) == 1  # a token the hub never issued
        captured = capsys.readouterr()
        assert "401" in captured.err and "sbk_not_a_real_token" not in captured.err + captured.out
        assert "left unsent: 1 matches, 3 players" in captured.out
        url = hub.url
    assert _sync(journal, url, token) == 1  # the hub is gone
    assert "the hub did not answer" in capsys.readouterr().err
    with Journal.open(journal):  # the running kiosk holds its journal: the command says so
        assert _sync(journal, url, token) == 2
        assert "in use by another kiosk process" in capsys.readouterr().err


def test_urls_and_token_files_are_checked(tmp_path: Path) -> None:
    assert hub_url("http://hub.local:8022/") == "http://hub.local:8022"
    for bad in ("hub.local", "http://", "http://h:99999", "http://h/?x=1", "file:///etc/passwd"):
        with pytest.raises(SyncSetupError):
            hub_url(bad)
    path = tmp_path / "t"
    path.write_text("two words\n")
    with pytest.raises(SyncSetupError, match="one token"):
        read_token(path)
    path.write_text("  sbk_abc  \n")
    assert read_token(path) == "sbk_abc"
    assert "sbk_abc" not in repr(HubClient("http://h", "sbk_abc"))


def test_a_round_resumes_after_the_hub_went_away_mid_round(dsn: str, tmp_path: Path) -> None:
    """The hub stops between two uploads: what it acknowledged is recorded, the rest is sent next time."""
    journal = tmp_path / "t1.sqlite3"
    play_journal(journal, seed=5, matches=3)
    with live_hub(dsn) as hub, Journal.open(journal) as j:
        token = read_token(hub.kiosk("table-1", tmp_path))
        access = DirectAccess(j.database)
        from kiosk.club import outbox

        limit = outbox.MAX_MATCHES
        outbox.MAX_MATCHES = 1  # one match per upload, so the round has several
        try:
            round_ = SyncRound(access, HubClient(hub.url, token, timeout_s=10))

            def stop_after_first() -> None:
                round_.client = HubClient("http://127.0.0.1:9", token, timeout_s=5)

            round_.between = stop_after_first
            with pytest.raises(Exception, match="did not answer"):
                round_.run()
            assert round_.summary.verified == 1 and round_.summary.left_matches == 2
            again = SyncRound(access, HubClient(hub.url, token, timeout_s=10)).run()
            assert again.complete and again.verified == 2 and again.uploads == 2
        finally:
            outbox.MAX_MATCHES = limit
        assert hub.count("matches") == 3


def test_a_match_larger_than_the_hub_takes_is_refused_once_and_the_rest_goes_on(dsn: str, tmp_path: Path,
                                                                               monkeypatch, capsys) -> None:
    import club.wire
    from kiosk.club import outbox

    journal = tmp_path / "t1.sqlite3"
    play_journal(journal, seed=14, matches=3)
    matches, _ = journal_keys(journal)
    conn = sqlite3.connect(journal)
    sizes = dict(conn.execute("SELECT m.uuid, count(*) FROM matches m JOIN entries e ON e.match_id = m.id "
                              "GROUP BY m.id"))
    conn.close()
    largest = max(sizes, key=lambda u: sizes[u])
    monkeypatch.setattr(club.wire, "MAX_ROWS", sizes[largest] - 1)  # this hub takes fewer rows than that match has
    monkeypatch.setattr(outbox, "MAX_MATCHES", 1)
    with live_hub(dsn) as hub:
        token = hub.kiosk("table-1", tmp_path)
        assert _sync(journal, hub.url, token, "--no-roster") == 1
        captured = capsys.readouterr()
        assert "1 refused in" in captured.out and "left unsent: 0 matches" in captured.out
        assert f"refused match {largest}: too large for the hub" in captured.err
        assert {str(u) for (u,) in hub.rows("SELECT uuid FROM matches")} == set(matches) - {largest}
        assert _sync(journal, hub.url, token, "--no-roster") == 0
        assert "in 0 uploads" in capsys.readouterr().out


@pytest.mark.parametrize(("text", "warned"), [
    ('url = "ftp://hub"', "club.url"), ('url = "hub.local:8022"', "club.url"), ('url = "http://h:99999"', "club.url"),
    ("url = 8022", "club.url"), ('token_file = "club-token"', "club.token_file"), ("bogus = 1", "club.bogus"),
])
def test_wrong_club_settings_are_warnings_and_the_defaults_are_used(text: str, warned: str) -> None:
    from kiosk.config import DEFAULT_CLUB_TOKEN_FILE, parse_config_text

    loaded = parse_config_text(f"[club]\n{text}\n")
    assert [w.key for w in loaded.warnings] == [warned]
    assert (loaded.config.club.url, loaded.config.club.token_file) == ("", DEFAULT_CLUB_TOKEN_FILE)
    good = parse_config_text('[club]\nurl = "https://club.example:8443"\ntoken_file = "/srv/t"\n')
    assert good.warnings == () and (good.config.club.url, good.config.club.token_file) == (
        "https://club.example:8443", "/srv/t")
