"""The club director's operations on players: list them, find likely duplicates, rename, merge, unmerge.

Two players made at two tables with the same name are never merged by the hub itself: it lists them
as likely duplicates (the same name up to case and Unicode form, different uuids) and the director
renames one of them or merges them. History is never rewritten: matches keep the player uuids they
were uploaded with. A merge maps an alias uuid to a canonical one; the ratings are recomputed under
the merges in force, in the canonical order, and the roster version advances so kiosks fetch the
change (the roster names the canonical uuid of each alias). Every rename and merge is recorded with
who did it, when and why; a merge is undone by ``unmerge`` (recorded too), never deleted.

Each function takes a psycopg connection, runs in its own transaction (taking turns with uploads)
and raises only ``ClubError``s: ``NotFound``, ``BadRequest`` (input that cannot work), ``Conflict``
(an operation the players' state does not allow).
"""

from __future__ import annotations

import unicodedata
import uuid
from typing import Any

import psycopg

from club.errors import BadRequest, Conflict, NotFound
from club.standings import next_version, recompute, take_turn
from kiosk.store.errors import PlayerNameError
from kiosk.store.players import clean_name, name_key

Conn = psycopg.Connection[tuple[Any, ...]]
DIRECTOR_MAX = 80
WHY_MAX = 500


def list_players(conn: Conn) -> list[dict[str, Any]]:
    """Every player the hub holds (merged ones too), by name: uuid, name, uploaded_name, kiosk (where
    made), games, rating, rd, merged_into (the canonical uuid, or None), received_at."""
    rows = conn.execute(
        "SELECT p.uuid, p.name, p.uploaded_name, k.name, p.games, p.rating, p.rd, p.merged_into, p.received_at"
        " FROM players p JOIN kiosks k ON k.uuid = p.kiosk ORDER BY p.name, p.received_at, p.uuid")
    return [{"uuid": str(r[0]), "name": r[1], "uploaded_name": r[2], "kiosk": r[3], "games": r[4], "rating": r[5],
             "rd": r[6], "merged_into": None if r[7] is None else str(r[7]), "received_at": r[8].isoformat()}
            for r in rows]


def duplicates(conn: Conn) -> list[dict[str, Any]]:
    """The likely duplicates: players not merged into another whose names are the same up to case and
    Unicode form (the kiosk's rule for one table), in groups of two or more: ``{"name", "players"}``."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in list_players(conn):
        if p["merged_into"] is None:
            groups.setdefault(name_key(p["name"]), []).append(p)
    found = [{"name": members[0]["name"], "players": members} for members in groups.values() if len(members) > 1]
    return sorted(found, key=lambda g: (name_key(g["name"]), g["name"]))


def rename(conn: Conn, player: uuid.UUID | str, new_name: str, *, director: str, why: str) -> dict[str, Any]:
    """Give ``player`` the name ``new_name`` (the kiosk's rules for a name); the recorded rename."""
    key, director, why = _uuid(player), _director(director), _why(why)
    try:
        name = clean_name(new_name)
    except PlayerNameError as exc:
        raise BadRequest(f"{new_name!r} cannot be a player's name: {exc}") from exc
    with conn.transaction():
        take_turn(conn)
        old = _player(conn, key)["name"]
        if name == old:
            raise BadRequest(f"the player is already called {name!r}")
        for other, other_name in conn.execute(
                "SELECT uuid, name FROM players WHERE uuid <> %s AND merged_into IS NULL", (key,)):
            if name_key(other_name) == name_key(name):
                raise Conflict(f"another player is called {other_name!r} ({other}): merge the two, or choose "
                               "another name", player=str(other))
        version = next_version(conn)
        conn.execute("UPDATE players SET name = %s, version = %s WHERE uuid = %s", (name, version, key))
        conn.execute("UPDATE roster SET version = %s", (version,))
        row = conn.execute("INSERT INTO renames (player, old_name, new_name, director, why) VALUES (%s, %s, %s, %s, %s)"
                           " RETURNING id, renamed_at", (key, old, name, director, why)).fetchone()
        assert row is not None
    return {"id": row[0], "player": str(key), "old_name": old, "new_name": name, "director": director, "why": why,
            "renamed_at": row[1].isoformat(), "roster_version": version}


def merge(conn: Conn, alias: uuid.UUID | str, canonical: uuid.UUID | str, *, director: str,
          why: str) -> dict[str, Any]:
    """Count ``alias`` as ``canonical`` from now on (its matches, its rating); the recorded merge.

    Refused when they are one uuid, when either is already merged into another, when others are merged
    into ``alias``, or when the two played each other (then they are two people)."""
    a, c, director, why = _uuid(alias), _uuid(canonical), _director(director), _why(why)
    if a == c:
        raise BadRequest("a player cannot be merged into itself")
    with conn.transaction():
        take_turn(conn)
        pa, pc = _player(conn, a), _player(conn, c)
        if pa["merged_into"] is not None:
            raise Conflict(f"{pa['name']!r} ({a}) is already merged into {pa['merged_into']}: unmerge it first")
        if pc["merged_into"] is not None:
            raise Conflict(f"{pc['name']!r} ({c}) is itself merged into {pc['merged_into']}: merge into that "
                           "player instead")
        under = [str(r[0]) for r in conn.execute("SELECT uuid FROM players WHERE merged_into = %s ORDER BY uuid", (a,))]
        if under:
            raise Conflict(f"other players are merged into {pa['name']!r} ({a}): unmerge them first, or merge them "
                           f"into {c} directly", merged=under)
        met = _matches_between(conn, a, c)
        if met:
            raise Conflict(f"{pa['name']!r} and {pc['name']!r} played each other in {met} matches: they are two "
                           "people (rename one of them instead)", matches=met)
        version = next_version(conn)
        conn.execute("UPDATE players SET merged_into = %s, version = %s WHERE uuid = %s", (c, version, a))
        row = conn.execute("INSERT INTO merges (alias, canonical, director, why) VALUES (%s, %s, %s, %s)"
                           " RETURNING id", (a, c, director, why)).fetchone()
        assert row is not None
        _rerate(conn, version, {a, c})
    return _merge_record(conn, int(row[0])) | {"roster_version": version}


def unmerge(conn: Conn, alias: uuid.UUID | str, *, director: str, why: str) -> dict[str, Any]:
    """Undo the merge in force of ``alias`` (recorded, never deleted); the merge record, now undone."""
    a, director, why = _uuid(alias), _director(director), _why(why)
    with conn.transaction():
        take_turn(conn)
        pa = _player(conn, a)
        row = conn.execute("SELECT id, canonical FROM merges WHERE alias = %s AND undone_at IS NULL", (a,)).fetchone()
        if row is None:
            raise Conflict(f"{pa['name']!r} ({a}) is not merged into anyone")
        version = next_version(conn)
        conn.execute("UPDATE merges SET undone_by = %s, undone_why = %s, undone_at = now() WHERE id = %s",
                     (director, why, row[0]))
        conn.execute("UPDATE players SET merged_into = NULL, version = %s WHERE uuid = %s", (version, a))
        _rerate(conn, version, {a, row[1]})
    return _merge_record(conn, int(row[0])) | {"roster_version": version}


def merges(conn: Conn) -> list[dict[str, Any]]:
    """Every merge ever made, newest first, undone ones too: who, when, why, and who undid it."""
    return [_merge_row(r) for r in conn.execute(_MERGES + " ORDER BY m.merged_at DESC, m.id DESC")]


_MERGES = ("SELECT m.id, m.alias, pa.name, m.canonical, pc.name, m.director, m.why, m.merged_at, m.undone_by,"
           " m.undone_why, m.undone_at FROM merges m JOIN players pa ON pa.uuid = m.alias"
           " JOIN players pc ON pc.uuid = m.canonical")


def _merge_record(conn: Conn, merge_id: int) -> dict[str, Any]:
    row = conn.execute(_MERGES + " WHERE m.id = %s", (merge_id,)).fetchone()
    assert row is not None
    return _merge_row(row)


def _merge_row(r: tuple[Any, ...]) -> dict[str, Any]:
    return {"id": r[0], "alias": {"uuid": str(r[1]), "name": r[2]}, "canonical": {"uuid": str(r[3]), "name": r[4]},
            "director": r[5], "why": r[6], "merged_at": r[7].isoformat(), "undone_by": r[8], "undone_why": r[9],
            "undone_at": None if r[10] is None else r[10].isoformat(), "in_force": r[10] is None}


def _rerate(conn: Conn, version: int, touched: set[uuid.UUID]) -> None:
    """Recompute every rating under the merges now in force; the touched players and the roster get ``version``."""
    recompute(conn, version)
    conn.execute("UPDATE players SET version = %s WHERE uuid = ANY(%s)", (version, list(touched)))
    conn.execute("UPDATE roster SET version = %s", (version,))


def _matches_between(conn: Conn, alias: uuid.UUID, canonical: uuid.UUID) -> int:
    """How many matches the alias and the canonical player played against each other (as uploaded, or
    through others already merged into the canonical player)."""
    group = {canonical, *(r[0] for r in conn.execute("SELECT uuid FROM players WHERE merged_into = %s", (canonical,)))}
    row = conn.execute("SELECT count(*) FROM matches WHERE (player0 = %(a)s AND player1 = ANY(%(g)s))"
                       " OR (player1 = %(a)s AND player0 = ANY(%(g)s))", {"a": alias, "g": list(group)}).fetchone()
    assert row is not None
    return int(row[0])


def _player(conn: Conn, key: uuid.UUID) -> dict[str, Any]:
    row = conn.execute("SELECT name, merged_into FROM players WHERE uuid = %s", (key,)).fetchone()
    if row is None:
        raise NotFound(f"the hub holds no player {key}")
    return {"name": row[0], "merged_into": None if row[1] is None else str(row[1])}


def _uuid(value: uuid.UUID | str) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value).strip())
    except ValueError as exc:
        raise BadRequest(f"{value!r} is not a player's uuid") from exc


def _director(text: str) -> str:
    clean = " ".join(str(text).split())
    if not clean or len(clean) > DIRECTOR_MAX or not _printable(clean):
        raise BadRequest(f"who does this is named by 1 to {DIRECTOR_MAX} printable characters")
    return clean


def _why(text: str) -> str:
    clean = " ".join(str(text).split())
    if not clean or len(clean) > WHY_MAX or not _printable(clean):
        raise BadRequest(f"say why in 1 to {WHY_MAX} printable characters")
    return clean


def _printable(text: str) -> bool:
    return not any(unicodedata.category(c).startswith("C") for c in text)
