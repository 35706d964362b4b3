"""Named players, their results and Glicko-2 ratings, stored in the kiosk's database.

Guests are not stored (a match's player id is None). A match is rated only when both players are
named and it ended normally (a winner by balance, time or resignation); an aborted match and any
match with a guest are never rated. ``rate_finished`` runs inside the journal's finishing
transaction, so a match is never finished without its rating nor rated without being finished.
"""

from __future__ import annotations

import builtins
import sqlite3
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import EndReason, Outcome
from kiosk.i18n import T
from kiosk.store.database import Database, HasDatabase, database_of
from kiosk.store.errors import PlayerNameError, StoreUsageError, internal
from kiosk.store.identity import new_player_uuid
from kiosk.store.ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, Rating, rate_match

__all__ = ["NAME_MAX", "HistoryRow", "Player", "PlayerNameError", "Players", "Standing", "clean_name", "is_rated",
           "name_key", "rate_finished"]

NAME_MAX = 20
"""The longest name the on-screen keyboard accepts (characters)."""
PROVISIONAL_RD = 110.0
"""A rating whose deviation is above this is provisional, shown "1500?" (lichess's rule: RD > 110)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A named player and their current rating."""

    id: int
    name: str
    rating: float
    rd: float
    volatility: float
    games: int
    """Rated matches played."""
    created_wall: float

    @property
    def glicko(self) -> Rating:
        """The rating as ``ratings.Rating``."""
        return Rating(self.rating, self.rd, self.volatility)

    @property
    def provisional(self) -> bool:
        """Too few rated matches to trust the rating yet (RD above ``PROVISIONAL_RD``)."""
        return self.rd > PROVISIONAL_RD

    @property
    def rating_text(self) -> str:
        """The rating as shown: "1623", or "1500?" while provisional."""
        return f"{self.rating:.0f}?" if self.provisional else f"{self.rating:.0f}"


@dataclass(frozen=True, slots=True)
class Standing(Player):
    """A player on the leaderboard, with their rated wins and losses."""

    wins: int
    losses: int


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One match in a player's history, as the history screen lists it."""

    match_id: int
    date_wall: float
    """When the match began (wall time, seconds)."""
    seat: int
    """0: Player 1 (bottom), 1: Player 2 (top)."""
    opponent_id: int | None
    opponent: str
    """The opponent's name, or "Guest"."""
    result: str
    """"win", "loss", "aborted" or "unfinished"."""
    reason: str | None
    """balance, time, resign, aborted (EndReason values), or None while unfinished."""
    detail: str | None
    rated: bool
    rating_change: float | None
    """Rating after minus before, None when the match was not rated."""
    rating_after: float | None
    entries: int = 0
    """Journal rows stored for the match (0: entered but never begun)."""


def clean_name(name: str) -> str:
    """``name`` normalised (NFC, inner spaces collapsed, trimmed); PlayerNameError when unusable.

    Letters of any script are welcome (Latin, Cyrillic, Hangul syllables and jamo); a name typed
    on the kiosk's keyboard and the same name pasted with combining marks or conjoining jamo are
    stored alike."""
    text = " ".join(unicodedata.normalize("NFC", str(name)).split())
    if not text:
        raise PlayerNameError(T("Type a name first."))
    if len(text) > NAME_MAX:
        raise PlayerNameError(T("A name has at most {n} characters.", n=NAME_MAX))
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise PlayerNameError(T("A name cannot contain control characters."))
    if text.casefold() == "guest":
        raise PlayerNameError(T('"Guest" is reserved for players without a name.'))
    return text


def name_key(name: str) -> str:
    """What names are compared by: canonical caseless matching (Unicode D145) of the cleaned name, so
    "Анна", "АННА" and "анна" are one name, and "Straße" is "STRASSE"."""
    text = " ".join(str(name).split())
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).casefold())


def _holder(conn: sqlite3.Connection, text: str) -> int | None:
    """The id of the player whose name is ``text`` up to case and normalisation, or None."""
    row = conn.execute("SELECT id FROM players WHERE name = ?", (text,)).fetchone()
    if row is not None:
        return int(row[0])
    key = name_key(text)
    for player_id, name in conn.execute("SELECT id, name FROM players"):
        if name_key(name) == key:
            return int(player_id)
    return None


_PLAYER_COLUMNS = "id, name, rating, rd, volatility, games, created_wall"


def _player(row: Sequence[Any]) -> Player:
    return Player(int(row[0]), str(row[1]), float(row[2]), float(row[3]), float(row[4]), int(row[5]), float(row[6]))


def _standing(row: Sequence[Any]) -> Standing:
    return Standing(int(row[0]), str(row[1]), float(row[2]), float(row[3]), float(row[4]), int(row[5]),
                    float(row[6]), int(row[7]), int(row[8]))


def _no_player(player_id: int) -> StoreUsageError:
    return StoreUsageError(internal("there is no player with id {player}", player=player_id))


class Players:
    """The named players: create, list, rename, leaderboard and history."""

    def __init__(self, store: Database | HasDatabase, *, wall_clock: Callable[[], float] = time.time) -> None:
        """``store``: the database, or anything stored in it (a ``Journal``); ``wall_clock``: for
        players created without an explicit ``wall_s``."""
        self.database = database_of(store)
        self.wall_clock = wall_clock

    def create(self, name: str, *, wall_s: float | None = None) -> Player:
        """A new player with the default rating (1500, RD 350); PlayerNameError if the name is taken
        (``name_key``: whatever the case)."""
        text = clean_name(name)
        wall = float(self.wall_clock()) if wall_s is None else float(wall_s)
        with self.database.transaction() as conn:
            if _holder(conn, text) is not None:
                raise PlayerNameError(T('The name "{name}" is taken: pick it from the list or choose another.',
                                        name=text))
            cursor = conn.execute(
                "INSERT INTO players (name, created_wall, rating, rd, volatility, uuid) VALUES (?, ?, ?, ?, ?, ?)",
                (text, wall, DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, new_player_uuid()),
            )
            player_id = int(cursor.lastrowid or 0)
        return self.get(player_id)

    def get(self, player_id: int) -> Player:
        """The player with ``player_id``; StoreUsageError when there is none."""
        with self.database.read() as conn:
            row = conn.execute(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None:
            raise _no_player(player_id)
        return _player(row)

    def find(self, name: str) -> Player | None:
        """The player called ``name`` (whatever the case and normalisation, ``name_key``), or None."""
        text = " ".join(unicodedata.normalize("NFC", str(name)).split())
        with self.database.read() as conn:
            player_id = _holder(conn, text)
            row = None if player_id is None else conn.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else _player(row)

    def list(self) -> list[Player]:
        """Every named player in name order (for the pick-a-name list)."""
        with self.database.read() as conn:
            rows = conn.execute(f"SELECT {_PLAYER_COLUMNS} FROM players ORDER BY name COLLATE NOCASE, id").fetchall()
        return [_player(r) for r in rows]

    def rename(self, player_id: int, name: str) -> Player:
        """Give a player a new name (their history and rating stay); PlayerNameError if taken."""
        text = clean_name(name)
        with self.database.transaction() as conn:
            if conn.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise _no_player(player_id)
            other = _holder(conn, text)
            if other is not None and other != player_id:
                raise PlayerNameError(T('The name "{name}" is taken.', name=text))
            conn.execute("UPDATE players SET name = ? WHERE id = ?", (text, player_id))
        return self.get(player_id)

    def delete(self, player_id: int) -> int:
        """Remove a player. Their matches stay (results, replays, the opponent's history), with their seat
        a guest's; a match against a guest is not rated, so every rating is recomputed from the rated
        matches that remain. Returns how many matches the player had."""
        with self.database.transaction() as conn:
            if conn.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise _no_player(player_id)
            count = _match_count(conn, player_id)
            conn.execute("DELETE FROM rating_changes")
            conn.execute("UPDATE matches SET player0 = NULL WHERE player0 = ?", (player_id,))
            conn.execute("UPDATE matches SET player1 = NULL WHERE player1 = ?", (player_id,))
            conn.execute("DELETE FROM players WHERE id = ?", (player_id,))
            _recompute(conn)
        return count

    def merge(self, source_id: int, target_id: int) -> Player:
        """Make ``source_id``'s matches ``target_id``'s (one person entered twice) and remove ``source_id``;
        every rating is recomputed in match order. A match the two played against each other is kept with
        the source's seat a guest's (one person cannot play themselves), so it is no longer rated."""
        if source_id == target_id:
            raise StoreUsageError(internal("a player cannot be merged into themselves ({player})", player=source_id))
        with self.database.transaction() as conn:
            for pid in (source_id, target_id):
                if conn.execute("SELECT 1 FROM players WHERE id = ?", (pid,)).fetchone() is None:
                    raise _no_player(pid)
            conn.execute("DELETE FROM rating_changes")
            conn.execute("UPDATE matches SET player0 = NULL WHERE player0 = ? AND player1 = ?", (source_id, target_id))
            conn.execute("UPDATE matches SET player1 = NULL WHERE player1 = ? AND player0 = ?", (source_id, target_id))
            conn.execute("UPDATE matches SET player0 = ? WHERE player0 = ?", (target_id, source_id))
            conn.execute("UPDATE matches SET player1 = ? WHERE player1 = ?", (target_id, source_id))
            conn.execute("DELETE FROM players WHERE id = ?", (source_id,))
            _recompute(conn)
        return self.get(target_id)

    def recompute(self) -> None:
        """Every rating again from the default, through the rated matches in the order they were played."""
        with self.database.transaction() as conn:
            conn.execute("DELETE FROM rating_changes")
            _recompute(conn)

    def leaderboard(self, *, min_games: int = 0, limit: int | None = None) -> builtins.list[Standing]:
        """Players by rating (highest first), then rated games (most first), then name; one query."""
        sql = (
            "SELECT p.id, p.name, p.rating, p.rd, p.volatility, p.games, p.created_wall, "
            "COALESCE(SUM(rc.score = 1.0), 0), COALESCE(SUM(rc.score = 0.0), 0) "
            "FROM players p LEFT JOIN rating_changes rc ON rc.player_id = p.id "
            "WHERE p.games >= ? GROUP BY p.id "
            "ORDER BY p.rating DESC, p.games DESC, p.name COLLATE NOCASE, p.id"
        )
        args: list[Any] = [min_games]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self.database.read() as conn:
            rows = conn.execute(sql, args).fetchall()
        return [_standing(r) for r in rows]

    def history(self, player_id: int, *, limit: int | None = None) -> builtins.list[HistoryRow]:
        """The player's matches, newest first: date, opponent, result, reason, rating change."""
        sql = (
            "SELECT m.id, m.created_wall, m.player0, m.player1, m.finished, m.winner, m.reason, m.detail, "
            "o.name, rc.rating_before, rc.rating_after, "
            "(SELECT COUNT(*) FROM entries e WHERE e.match_id = m.id) "
            "FROM matches m "
            "LEFT JOIN players o ON o.id = CASE WHEN m.player0 = ? THEN m.player1 ELSE m.player0 END "
            "LEFT JOIN rating_changes rc ON rc.match_id = m.id AND rc.player_id = ? "
            "WHERE m.player0 = ? OR m.player1 = ? ORDER BY m.id DESC"
        )
        args: list[Any] = [player_id, player_id, player_id, player_id]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        with self.database.read() as conn:
            if conn.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise _no_player(player_id)
            rows = conn.execute(sql, args).fetchall()
        return [_history_row(player_id, row) for row in rows]


def _history_row(player_id: int, row: Sequence[Any]) -> HistoryRow:
    match_id, created, p0, p1, finished, winner, reason, detail, opp_name, before, after, entries = row
    seat = 0 if p0 == player_id else 1
    opponent_id = p1 if seat == 0 else p0
    if not finished:
        result = "unfinished"
    elif winner is None:
        result = "aborted"
    else:
        result = "win" if winner == seat else "loss"
    return HistoryRow(
        match_id=int(match_id),
        date_wall=float(created),
        seat=seat,
        opponent_id=opponent_id,
        opponent=opp_name if opponent_id is not None else "Guest",
        result=result,
        reason=reason,
        detail=detail or None,
        rated=before is not None,
        rating_change=None if before is None else float(after) - float(before),
        rating_after=None if after is None else float(after),
        entries=int(entries),
    )


def _match_count(conn: sqlite3.Connection, player_id: int) -> int:
    row = conn.execute("SELECT COUNT(*) FROM matches WHERE player0 = ? OR player1 = ?", (player_id, player_id)).fetchone()
    return int(row[0])


def _recompute(conn: sqlite3.Connection) -> None:
    """Inside a transaction, with ``rating_changes`` empty: every player back to the default rating, then each
    finished rated match between two different named players rated again, in match order."""
    conn.execute("UPDATE players SET rating = ?, rd = ?, volatility = ?, games = 0",
                 (DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY))
    rated = conn.execute(
        "SELECT id, player0, player1, winner FROM matches WHERE finished = 1 AND rated = 1 AND winner IN (0, 1) "
        "AND reason IS NOT NULL AND reason != 'aborted' AND player0 IS NOT NULL AND player1 IS NOT NULL "
        "AND player0 != player1 ORDER BY id").fetchall()
    for match_id, p0, p1, winner in rated:
        _rate(conn, int(match_id), int(p0), int(p1), int(winner))


def is_rated(players: tuple[int | None, int | None], outcome: Outcome) -> bool:
    """Whether a finished match counts for ratings: two named players and a normal end."""
    p0, p1 = players
    return (
        p0 is not None
        and p1 is not None
        and p0 != p1
        and outcome.rated
        and outcome.reason is not EndReason.ABORTED
        and outcome.winner in (0, 1)
    )


def rate_finished(conn: sqlite3.Connection, match_id: int, players: tuple[int | None, int | None],
                  outcome: Outcome) -> bool:
    """Inside the finishing transaction: update both ratings if the match counts; True if it did."""
    if not is_rated(players, outcome):
        return False
    p0, p1 = players
    assert p0 is not None and p1 is not None and outcome.winner is not None
    _rate(conn, match_id, p0, p1, outcome.winner)
    return True


def _rate(conn: sqlite3.Connection, match_id: int, p0: int, p1: int, winner: int) -> None:
    """Rate one match between ``p0`` and ``p1`` won by seat ``winner``: both players and ``rating_changes``."""
    rows = {
        row[0]: row[1:]
        for row in conn.execute("SELECT id, rating, rd, volatility FROM players WHERE id IN (?, ?)", (p0, p1))
    }
    before = (Rating(*rows[p0]), Rating(*rows[p1]))
    after = rate_match(before[0], before[1], 1.0 if winner == 0 else 0.0)
    for seat, (pid, oid) in enumerate(((p0, p1), (p1, p0))):
        b, a = before[seat], after[seat]
        conn.execute(
            "UPDATE players SET rating = ?, rd = ?, volatility = ?, games = games + 1 WHERE id = ?",
            (a.rating, a.rd, a.volatility, pid),
        )
        conn.execute(
            "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, pid, oid, 1.0 if winner == seat else 0.0,
             b.rating, b.rd, b.volatility, a.rating, a.rd, a.volatility),
        )
