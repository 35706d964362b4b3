"""Storing an upload: idempotent by key, conflicts recorded and refused, ratings kept canonical.

One upload is one transaction, and uploads take turns (an advisory lock), so the ratings are always
those of the canonical order. Per key: a match uuid not seen before is replayed (``verify``) and
stored, verified or rejected; the same uuid with the same content from the same kiosk changes
nothing (a retry); the same uuid with other content, or from another kiosk (a cloned SD card), is a
conflict. Any conflict refuses the whole upload (409): nothing of it is stored except the conflict
rows, which the director lists; the kiosk sends the rest again without the refused keys.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from club.errors import BadRequest, Conflict
from club.eventlink import link_match
from club.ratings import Result, Standing
from club.standings import fold_new, next_version, settle, take_turn
from club.tokens import Kiosk
from club.verify import Verdict, verify
from club.wire import MatchUpload, Upload

log = logging.getLogger("club.ingest")
Conn = psycopg.Connection[tuple[Any, ...]]


@dataclass
class Receipt:
    """What an upload did, per key, and the roster version after it."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    roster_version: int = 0
    recomputed: bool = False
    """True when a late match made the hub recompute every rating from the start (``ingest``: done;
    the app: due once the uploads in flight are stored)."""

    def body(self) -> dict[str, Any]:
        """The JSON answer."""
        return {"matches": self.matches, "players": self.players, "roster_version": self.roster_version,
                "ratings_recomputed": self.recomputed}


@dataclass(frozen=True, slots=True)
class Prepared:
    """An upload checked and replayed, ready to be stored (``commit``)."""

    kiosk: Kiosk
    upload: Upload
    shas: dict[uuid.UUID, str]
    verdicts: dict[uuid.UUID, Verdict]


def ingest(pool: ConnectionPool, kiosk: Kiosk, upload: Upload) -> Receipt:
    """Store ``upload`` from ``kiosk`` and settle the ratings; Conflict (after recording it) when a key
    is held with other content."""
    try:
        receipt = commit(pool, prepare(pool, kiosk, upload))
    finally:
        settled = settle_ratings(pool)
    if settled is not None:
        receipt.roster_version = max(receipt.roster_version, settled)
    return receipt


def settle_ratings(pool: ConnectionPool) -> int | None:
    """``standings.settle`` on a pooled connection: the roster version after a recompute, None when
    nothing was stale. A database that fails now leaves the ratings stale for the next time (logged),
    never fails the upload that was stored."""
    try:
        with pool.connection() as conn:
            version = settle(conn)
    except (psycopg.Error, PoolTimeout) as exc:
        log.warning("the ratings stay stale for now: the database failed (%s)", type(exc).__name__)
        return None
    if version is not None:
        log.info("ratings recomputed after late uploads (roster version %d)", version)
    return version


def prepare(pool: ConnectionPool, kiosk: Kiosk, upload: Upload) -> Prepared:
    """The part of an upload done without its turn: every match not yet held exactly so is replayed."""
    _no_repeats(upload)
    shas = {m.uuid: m.content_sha256() for m in upload.matches}
    with pool.connection() as conn:
        held = _held_matches(conn, list(shas))
    # replay outside the transaction, except what is already stored exactly so (a retry)
    verdicts = {m.uuid: verify(m) for m in upload.matches if held.get(m.uuid) != (kiosk.uuid, shas[m.uuid])}
    return Prepared(kiosk, upload, shas, verdicts)


def commit(pool: ConnectionPool, prepared: Prepared) -> Receipt:
    """Store a prepared upload in one transaction, in its turn; Conflict (recorded) as ``ingest`` says.
    The HTTP app lets one commit at a time take a connection, so waiting uploads hold none."""
    kiosk, upload, shas = prepared.kiosk, prepared.upload, prepared.shas
    with pool.connection() as conn, conn.transaction():
        take_turn(conn)
        conflicts = _conflicts(conn, kiosk, upload, shas)
        if conflicts:
            _record_conflicts(conn, kiosk, conflicts)
        else:
            receipt = _store(conn, kiosk, upload, shas, prepared.verdicts)
    if conflicts:
        log.warning("upload from kiosk %s refused: %d conflicting keys", kiosk.name, len(conflicts))
        raise Conflict(f"{len(conflicts)} keys are already held with other content; nothing of this upload "
                       "was stored, the conflicts are listed for the club's director",
                       conflicts=[{"kind": c.kind, "key": str(c.key), "why": c.why} for c in conflicts])
    stored = [m for m in receipt.matches if m["result"] == "stored"]
    log.info("upload from kiosk %s: %d new matches (%d verified, %d rejected), %d already held, %d new players",
             kiosk.name, len(stored), sum(m["status"] == "verified" for m in stored),
             sum(m["status"] == "rejected" for m in stored), len(receipt.matches) - len(stored),
             sum(p["result"] == "stored" for p in receipt.players))
    return receipt


@dataclass(frozen=True, slots=True)
class _Clash:
    kind: str
    key: uuid.UUID
    sha: str
    why: str
    content: dict[str, Any]


def _no_repeats(upload: Upload) -> None:
    for what, keys in (("match", [m.uuid for m in upload.matches]), ("player", [p.uuid for p in upload.players])):
        if len(set(keys)) != len(keys):
            raise BadRequest(f"a {what} uuid appears more than once in the upload")


def _held_matches(conn: Conn, keys: Sequence[uuid.UUID]) -> dict[uuid.UUID, tuple[uuid.UUID, str]]:
    if not keys:
        return {}
    rows = conn.execute("SELECT uuid, kiosk, content_sha256 FROM matches WHERE uuid = ANY(%s)", (list(keys),))
    return {r[0]: (r[1], r[2]) for r in rows}


def _conflicts(conn: Conn, kiosk: Kiosk, upload: Upload, shas: dict[uuid.UUID, str]) -> list[_Clash]:
    clashes = []
    names = {r[0]: r[1] for r in conn.execute("SELECT uuid, uploaded_name FROM players WHERE uuid = ANY(%s)",
                                              ([p.uuid for p in upload.players],))}
    for p in upload.players:
        if p.uuid in names and names[p.uuid] != p.name:
            clashes.append(_Clash("player", p.uuid, p.content_sha256(),
                                  f"the hub holds this player as {names[p.uuid]!r}, not {p.name!r}",
                                  p.model_dump(mode="json")))
    held = {r[0]: (r[1], r[2], r[3]) for r in conn.execute(
        "SELECT m.uuid, m.kiosk, k.name, m.content_sha256 FROM matches m JOIN kiosks k ON k.uuid = m.kiosk"
        " WHERE m.uuid = ANY(%s)", (list(shas),))}
    for m in upload.matches:
        if m.uuid not in held:
            continue
        owner, owner_name, sha = held[m.uuid]
        if owner != kiosk.uuid:
            why = f"this match was uploaded first by kiosk {owner_name!r}"
        elif sha != shas[m.uuid]:
            why = "this kiosk uploaded this match before with other content"
        else:
            continue
        clashes.append(_Clash("match", m.uuid, shas[m.uuid], why, m.model_dump(mode="json")))
    return clashes


def _record_conflicts(conn: Conn, kiosk: Kiosk, clashes: list[_Clash]) -> None:
    for c in clashes:
        conn.execute(
            "INSERT INTO conflicts (kind, key, kiosk, content_sha256, why, content) VALUES (%s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (kind, key, kiosk, content_sha256)"
            " DO UPDATE SET times = conflicts.times + 1, last_seen = now()",
            (c.kind, c.key, kiosk.uuid, c.sha, c.why, Jsonb(c.content)))


def _store(conn: Conn, kiosk: Kiosk, upload: Upload, shas: dict[uuid.UUID, str],
           verdicts: dict[uuid.UUID, Verdict]) -> Receipt:
    receipt = Receipt()
    version = next_version(conn)
    changed = False
    known = {r[0] for r in conn.execute("SELECT uuid FROM players WHERE uuid = ANY(%s)",
                                        ([p.uuid for p in upload.players],))}
    fresh = Standing()
    for p in upload.players:
        if p.uuid in known:
            receipt.players.append({"uuid": str(p.uuid), "result": "already held"})
            continue
        conn.execute("INSERT INTO players (uuid, name, uploaded_name, kiosk, rating, rd, volatility, version)"
                     " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                     (p.uuid, p.name, p.name, kiosk.uuid, fresh.rating, fresh.rd, fresh.volatility, version))
        receipt.players.append({"uuid": str(p.uuid), "result": "stored"})
        changed = True
    _check_players_known(conn, upload.matches)
    held = set(_held_matches(conn, list(shas)))
    results = []
    for m in upload.matches:
        if m.uuid in held:
            receipt.matches.append({"uuid": str(m.uuid), "result": "already held", **_status(conn, m.uuid)})
            continue
        verdict = verdicts[m.uuid]
        _insert_match(conn, kiosk, m, shas[m.uuid], verdict)
        link_match(conn, kiosk.uuid, m, verdict, shas[m.uuid])
        receipt.matches.append({"uuid": str(m.uuid), "result": "stored",
                                "status": "verified" if verdict.verified else "rejected",
                                "rejection": verdict.rejection})
        if verdict.rated and verdict.winner is not None:
            p0, p1 = m.header.players
            assert p0 is not None and p1 is not None
            results.append(Result(m.header.ended_wall, kiosk.uuid, m.uuid, (p0, p1), verdict.winner))
    if results:
        receipt.recomputed = fold_new(conn, results, version)
        changed = True
    if changed:
        conn.execute("UPDATE roster SET version = %s", (version,))
    final = conn.execute("SELECT version FROM roster").fetchone()
    assert final is not None
    receipt.roster_version = int(final[0])
    return receipt


def _check_players_known(conn: Conn, matches: Sequence[MatchUpload]) -> None:
    named = {p for m in matches for p in m.header.players if p is not None}
    if not named:
        return
    known = {r[0] for r in conn.execute("SELECT uuid FROM players WHERE uuid = ANY(%s)", (list(named),))}
    missing = sorted(str(p) for p in named - known)
    if missing:
        raise BadRequest(f"matches name players the hub does not know (upload them with the match): "
                         f"{', '.join(missing[:5])}", players=missing[:50])


def _status(conn: Conn, key: uuid.UUID) -> dict[str, Any]:
    row = conn.execute("SELECT status, rejection FROM matches WHERE uuid = %s", (key,)).fetchone()
    assert row is not None
    return {"status": row[0], "rejection": row[1]}


def _insert_match(conn: Conn, kiosk: Kiosk, m: MatchUpload, sha: str, verdict: Verdict) -> None:
    h, c = m.header, m.claimed
    conn.execute(
        "INSERT INTO matches (uuid, kiosk, local_id, player0, player1, computer_level, created_wall, ended_wall,"
        " config, claimed_winner, claimed_reason, claimed_balances, status, rejection, winner, reason, balances,"
        " rated, engine_version, content_sha256)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (m.uuid, kiosk.uuid, h.local_id, h.players[0], h.players[1], h.computer_level, h.created_wall,
         h.ended_wall, Jsonb(h.config.model_dump()), c.winner, c.reason, list(c.balances),
         "verified" if verdict.verified else "rejected", verdict.rejection, verdict.winner, verdict.reason,
         None if verdict.balances is None else list(verdict.balances), verdict.rated, verdict.engine_version, sha))
    with conn.cursor() as cur, cur.copy("COPY match_rows (match, seq, step, snapshot, snapshot_sha, arrival_ns,"
                                        " boot_id, wall, checksum) FROM STDIN") as copy:
        for r in m.rows:
            copy.write_row((m.uuid, r.seq, r.step, r.snapshot, r.snapshot_sha, r.arrival_ns, r.boot_id, r.wall,
                            r.checksum))
