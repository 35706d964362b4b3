"""The director's password, sessions and the login's lockout, and the CSRF tokens of every form.

The password is kept only as scrypt (``hashlib.scrypt``, n=2**14, r=8, p=1, a 16-byte random salt)
and compared in constant time. After ``MAX_FAILURES`` wrong passwords in a row the login is locked
for ``LOCK_S`` seconds, also for the right password; a good login clears the count. A session is a
random token in an HttpOnly, SameSite=Strict cookie; the hub keeps its SHA-256, its CSRF token and
its expiry. Times come from the hub's injected clock (wall seconds).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

import psycopg

from club.errors import SetupError

Conn = psycopg.Connection[tuple[Any, ...]]
MAX_FAILURES = 5
"""Wrong passwords in a row before the login locks."""
LOCK_S = 15 * 60
"""How long the login stays locked."""
SESSION_S = 12 * 3600
"""How long a director's session lasts."""
MIN_PASSWORD = 10
"""The shortest password ``python -m club admin`` accepts."""
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` (hex) of ``password``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (constant time in the digest)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=bytes.fromhex(salt), dklen=32,
                             n=int(n), r=int(r), p=int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def set_password(conn: Conn, password: str) -> None:
    """Set (or replace) the director's password; ends every session and clears the lockout."""
    if len(password) < MIN_PASSWORD:
        raise SetupError(f"the director's password needs at least {MIN_PASSWORD} characters")
    with conn.transaction():
        conn.execute("INSERT INTO director (singleton, password_hash) VALUES (true, %s)"
                     " ON CONFLICT (singleton) DO UPDATE SET password_hash = excluded.password_hash, set_at = now()",
                     (hash_password(password),))
        conn.execute("DELETE FROM director_sessions")
        conn.execute("UPDATE director_lockout SET failures = 0, locked_until = 0")


@dataclass(frozen=True, slots=True)
class Login:
    """What a login try gave: a session token (and its CSRF token), or why not."""

    token: str | None = None
    csrf: str | None = None
    refused: str | None = None
    """``wrong``, ``locked`` or ``no_password``."""
    locked_until: float = 0.0


def log_in(conn: Conn, password: str, now: float) -> Login:
    """Check ``password``; a new session, or the refusal (counting failures and locking)."""
    with conn.transaction():
        row = conn.execute("SELECT failures, locked_until FROM director_lockout FOR UPDATE").fetchone()
        assert row is not None
        failures, locked_until = int(row[0]), float(row[1])
        if locked_until > now:
            return Login(refused="locked", locked_until=locked_until)
        stored = conn.execute("SELECT password_hash FROM director").fetchone()
        if stored is None:
            return Login(refused="no_password")
        if not password_matches(password, str(stored[0])):
            failures += 1
            locked_until = now + LOCK_S if failures >= MAX_FAILURES else 0.0
            conn.execute("UPDATE director_lockout SET failures = %s, locked_until = %s",
                         (0 if locked_until else failures, locked_until))
            return Login(refused="locked" if locked_until else "wrong", locked_until=locked_until)
        conn.execute("UPDATE director_lockout SET failures = 0, locked_until = 0")
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        conn.execute("DELETE FROM director_sessions WHERE expires <= %s", (now,))
        conn.execute("INSERT INTO director_sessions (token_sha256, csrf, created, expires) VALUES (%s, %s, %s, %s)",
                     (_digest(token), csrf, now, now + SESSION_S))
        return Login(token=token, csrf=csrf)


def session_csrf(conn: Conn, token: str | None, now: float) -> str | None:
    """The CSRF token of the live session ``token`` names, or None (no session, unknown, expired)."""
    if not token or len(token) > 100:
        return None
    row = conn.execute("SELECT csrf FROM director_sessions WHERE token_sha256 = %s AND expires > %s",
                       (_digest(token), now)).fetchone()
    return None if row is None else str(row[0])


def log_out(conn: Conn, token: str) -> None:
    """End the session ``token`` names."""
    with conn.transaction():
        conn.execute("DELETE FROM director_sessions WHERE token_sha256 = %s", (_digest(token),))


def same_token(sent: str | None, expected: str | None) -> bool:
    """Whether a form's CSRF token is the expected one (constant time; never for a missing one)."""
    return bool(sent) and bool(expected) and hmac.compare_digest(str(sent), str(expected))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
