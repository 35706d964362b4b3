"""The club's roster in the journal: downloaded from the hub, offered by the pickers, shown on the leaderboard.

``GET /api/v1/roster?since=VERSION`` gives the players changed after the version this kiosk last
stored (all of them the first time). Each is kept in ``club_roster`` with the club's numbers, and a
player this table does not know yet is added to its own ``players`` (with the hub's UUID, the default
local rating, and a ``club_acks`` row ``roster`` so it is never uploaded back): a player registered at
table 1 can pick their name at table 3. A club player whose name is already another local player's
(a clash made offline) is not added and not merged: the club's director renames or merges them on
the hub. A player renamed on the hub is renamed here when the new name is free.

The leaderboard (``club_board``) shows a player's club rating when it is current, else the table's
own estimate marked provisional. A verified upload marks its players' roster rows ``stale``
(``kiosk.club.outbox``); the next download clears the marks it found, since the hub answers the
roster after it stored the upload; a rated match not yet acknowledged makes the estimate newer too.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.club.client import HubClient
from kiosk.club.errors import HubUnreachable
from kiosk.club.sync import JournalAccess
from kiosk.store.errors import PlayerNameError
from kiosk.store.players import PROVISIONAL_RD, Standing, clean_name, name_key
from kiosk.store.ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY

VERSION_KEY = "roster_version"


@dataclass(frozen=True, slots=True)
class ClubStanding:
    """A player's club numbers as the roster last gave them."""

    uuid: str
    name: str
    rating: float
    rd: float
    games: int
    provisional: bool
    stale: bool
    """A match of theirs was acknowledged after this download: the hub's number is not theirs yet."""


@dataclass(frozen=True, slots=True)
class BoardStanding(Standing):
    """A leaderboard row where a club roster is kept: the club's rating when it is current, else the
    table's own estimate, always shown provisional."""

    estimate: bool = False
    """The table's own estimate (the hub's number has not arrived since this table's last rated match)."""

    @property
    def provisional(self) -> bool:
        return self.estimate or self.rd > PROVISIONAL_RD


def club_board(conn: sqlite3.Connection, standings: Sequence[Standing]) -> Sequence[Standing]:
    """``standings`` (the table's leaderboard) with the club's ratings where the roster's are current,
    by rating; unchanged when no roster was ever downloaded."""
    if roster_version(conn) == 0:
        return list(standings)
    rows = conn.execute(
        "SELECT p.id, r.rating, r.rd, r.volatility, r.stale, EXISTS (SELECT 1 FROM matches m WHERE m.finished = 1 "
        "AND m.rated = 1 AND p.id IN (m.player0, m.player1) AND NOT EXISTS "
        "(SELECT 1 FROM club_acks a WHERE a.uuid = m.uuid)) FROM players p LEFT JOIN club_roster r ON r.uuid = p.uuid")
    club = {int(pid): (rating, rd, vol) if rating is not None and not stale and not pending else None
            for pid, rating, rd, vol, stale, pending in rows}
    board: list[BoardStanding] = []
    for s in standings:
        numbers = club.get(s.id)
        if numbers is None:
            board.append(BoardStanding(**{f: getattr(s, f) for f in _STANDING_FIELDS}, estimate=True))
        else:
            fields = {f: getattr(s, f) for f in _STANDING_FIELDS}
            fields.update(rating=float(numbers[0]), rd=float(numbers[1]), volatility=float(numbers[2]))
            board.append(BoardStanding(**fields))
    board.sort(key=lambda b: (-b.rating, -b.games, b.name.casefold(), b.id))
    return board


_STANDING_FIELDS = ("id", "name", "rating", "rd", "volatility", "games", "created_wall", "wins", "losses")


def roster_version(conn: sqlite3.Connection) -> int:
    """The roster version this journal holds (0: none yet)."""
    row = conn.execute("SELECT value FROM club_state WHERE key = ?", (VERSION_KEY,)).fetchone()
    return int(row[0]) if row is not None else 0


def club_standings(conn: sqlite3.Connection) -> dict[str, ClubStanding]:
    """The roster as stored, by player UUID (empty when none was downloaded)."""
    return {str(r[0]): ClubStanding(str(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), bool(r[5]), bool(r[6]))
            for r in conn.execute("SELECT uuid, name, rating, rd, games, provisional, stale FROM club_roster")}


def download_roster(access: JournalAccess, client: HubClient, *,
                    wall_clock: Callable[[], float] | None = None) -> int:
    """Fetch the roster's changes and store them; the version now held. HubUnreachable for an answer
    that is not a roster."""
    since, stale = access.read(lambda c: (roster_version(c), _stale(c)))
    answer = client.roster(since)
    players, version = _parse(answer)
    wall = float(wall_clock()) if wall_clock is not None else 0.0
    access.write(lambda c: store_roster(c, players, version, complete=bool(answer.get("complete")),
                                        cleared=stale, wall_s=wall))
    return version


def store_roster(conn: sqlite3.Connection, players: list[dict[str, Any]], version: int, *, complete: bool,
                 cleared: set[str], wall_s: float) -> None:
    """Inside a transaction: the roster's players stored, new ones added to the table's players."""
    if complete:
        conn.execute("DELETE FROM club_roster")
    local = {str(u): (int(i), str(n)) for i, n, u in conn.execute("SELECT id, name, uuid FROM players")}
    names = {name_key(n): str(u) for u, (_, n) in local.items()}
    for p in players:
        conn.execute("INSERT OR REPLACE INTO club_roster (uuid, name, rating, rd, volatility, games, provisional, "
                     "version, stale) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                     (p["uuid"], p["name"], p["rating"], p["rd"], p["volatility"], p["games"], int(p["provisional"]),
                      p["version"]))
        try:
            name = clean_name(p["name"])
        except PlayerNameError:
            continue
        holder = names.get(name_key(name))
        if p["uuid"] in local:
            player_id, old = local[p["uuid"]]
            if old != name and holder is None:  # renamed on the hub, and the new name is free here
                conn.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
                names.pop(name_key(old), None)
                names[name_key(name)] = p["uuid"]
            continue
        if holder is not None:
            continue  # another player of this table has the name: the director decides, never merged here
        conn.execute("INSERT INTO players (name, created_wall, rating, rd, volatility, uuid) VALUES (?, ?, ?, ?, ?, ?)",
                     (name, wall_s, DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, p["uuid"]))
        conn.execute("INSERT OR IGNORE INTO club_acks (uuid, kind, result, detail, wall) VALUES "
                     "(?, 'player', 'roster', NULL, ?)", (p["uuid"], wall_s))
        names[name_key(name)] = p["uuid"]
    if cleared:
        marks = ", ".join("?" * len(cleared))
        conn.execute(f"UPDATE club_roster SET stale = 0 WHERE uuid IN ({marks})", sorted(cleared))
    conn.execute("INSERT OR REPLACE INTO club_state (key, value) VALUES (?, ?)", (VERSION_KEY, str(version)))


def _stale(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT uuid FROM club_roster WHERE stale = 1")}


def _parse(answer: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The roster's players checked field by field; HubUnreachable when the answer is not a roster."""
    version = answer.get("version")
    items = answer.get("players")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0 or not isinstance(items, list):
        raise HubUnreachable("the hub's roster answer has no version or no player list")
    players = []
    for item in items:
        try:
            players.append({
                "uuid": str(uuid.UUID(str(item["uuid"]))), "name": str(item["name"]),
                "rating": float(item["rating"]), "rd": float(item["rd"]), "volatility": float(item["volatility"]),
                "games": int(item["games"]), "provisional": bool(item["provisional"]), "version": int(item["version"]),
            })
        except (KeyError, TypeError, ValueError) as exc:
            raise HubUnreachable(f"the hub's roster answer holds a player that is not one ({exc})") from None
    return players, version
