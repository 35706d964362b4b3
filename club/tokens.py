"""Kiosk tokens: made once, shown once, kept by the hub only as a SHA-256 digest.

A token is ``sbk_<kiosk uuid, 32 hex>_<secret>`` (the secret: 32 random bytes, URL-safe base64).
The kiosk part says which row to read; the digest of the whole token is compared with the stored
one in constant time (``hmac.compare_digest``), also when no kiosk has that uuid (against a dummy),
so a wrong token costs the same time whatever part of it is wrong.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass

import psycopg

from club.errors import NotAuthorized, SetupError

_FORMAT = re.compile(r"^sbk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$")
_DUMMY = hashlib.sha256(b"no kiosk has this token").hexdigest()


@dataclass(frozen=True, slots=True)
class Kiosk:
    """A registered kiosk (a table)."""

    uuid: uuid.UUID
    name: str


def digest(token: str) -> str:
    """SHA-256 (hex) of a token: what the hub stores."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token(kiosk: uuid.UUID) -> str:
    """A fresh token for ``kiosk``."""
    return f"sbk_{kiosk.hex}_{secrets.token_urlsafe(32)}"


def add_kiosk(conn: psycopg.Connection[tuple[object, ...]], name: str) -> tuple[Kiosk, str]:
    """Register a kiosk called ``name``; returns it and its token (stored only as a digest)."""
    clean = " ".join(name.split())
    if not clean or len(clean) > 60 or any(not c.isprintable() for c in clean):
        raise SetupError("a kiosk's name is 1 to 60 printable characters")
    kiosk = Kiosk(uuid.uuid4(), clean)
    token = new_token(kiosk.uuid)
    try:
        with conn.transaction():
            conn.execute("INSERT INTO kiosks (uuid, name, token_sha256) VALUES (%s, %s, %s)",
                         (kiosk.uuid, kiosk.name, digest(token)))
    except psycopg.errors.UniqueViolation as exc:
        raise SetupError(f"there is already a kiosk called {clean!r}") from exc
    return kiosk, token


def bearer(header: str | None) -> str:
    """The token of an ``Authorization: Bearer ...`` header; NotAuthorized when there is none."""
    if not header:
        raise NotAuthorized("this needs a kiosk token: Authorization: Bearer <token>")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise NotAuthorized("the Authorization header is not 'Bearer <token>'")
    return value.strip()


def authenticate(conn: psycopg.Connection[tuple[object, ...]], token: str) -> Kiosk:
    """The kiosk whose token this is; NotAuthorized (naming nothing of the token) otherwise."""
    m = _FORMAT.match(token)
    row = None
    if m:
        row = conn.execute("SELECT uuid, name, token_sha256 FROM kiosks WHERE uuid = %s AND revoked_at IS NULL",
                           (uuid.UUID(m.group(1)),)).fetchone()
    stored = str(row[2]) if row is not None else _DUMMY
    if not hmac.compare_digest(stored.encode(), digest(token).encode()) or row is None:
        raise NotAuthorized("the kiosk token is not one this hub issued")
    kiosk_id = row[0]
    assert isinstance(kiosk_id, uuid.UUID)
    return Kiosk(kiosk_id, str(row[1]))
