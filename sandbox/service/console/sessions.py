"""Console sessions: a signed-in browser's cookie, mapped server-side to the token it signed in
with, kept in the service's database (the data directory's SQLite file, or the PostgreSQL
database every process shares) so that a restart does not sign anyone out, and a session
made through one process of many is good on all of them.

The cookie carries a random session id and nothing else; the table ``console_sessions``
(component ``console``) keeps only that id's SHA-256, the token's SHA-256 (as the identity
store does), the session's CSRF token and its expiry, so a copy of the database cannot be
turned into a session cookie. Every request through a session looks the token up again, so
revoking or expiring the token ends the session at once. Expired sessions are swept whenever
one is created; past ``max_sessions`` the oldest go first.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable, Literal, cast

import storage

from ..identity import BOOTSTRAP, LOCAL, Principal, hash_token, same_secret
from ..tokens import IdentityStore

__all__ = ["COOKIE", "CSRF_HEADER", "SAFE_METHODS", "SESSION_MIGRATIONS", "Session",
           "SessionStore", "principal_of", "sign_in"]

COOKIE = "sandbox_console"
"""The session cookie's name (HttpOnly, SameSite=Strict, Path=/)."""

CSRF_HEADER = "x-csrf-token"
"""The header a session's state-changing request carries its CSRF token in."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Kind = Literal["token", "bootstrap", "local"]
KINDS: frozenset[str] = frozenset({"token", "bootstrap", "local"})

_TABLE = """
CREATE TABLE console_sessions (
    id_hash    TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    token_hash TEXT,
    csrf       TEXT NOT NULL,
    created_at {real} NOT NULL,
    expires_at {real} NOT NULL
)
"""
_INDEXES = ("CREATE INDEX console_sessions_expiry ON console_sessions (expires_at)",
            "CREATE INDEX console_sessions_age ON console_sessions (created_at)")

SESSION_MIGRATIONS: Sequence[storage.Migration] = (
    storage.Migration(1, sqlite=(_TABLE.format(real="REAL"), *_INDEXES),
                      postgresql=(_TABLE.format(real="DOUBLE PRECISION"), *_INDEXES)),
)
"""The ``console`` component's schema history. Append new versions; never edit one."""

_ALL = 1 << 62
"""A LIMIT meaning no limit (SQLite needs one before OFFSET)."""


@dataclass(frozen=True)
class Session:
    id: str
    """The cookie's value (held by the browser; the database has only its hash)."""
    kind: Kind
    token_hash: str | None
    """The signed-in token's SHA-256; None for the local user."""
    csrf: str
    expires_at: float


def _id_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


class SessionStore:
    """The sessions of one service, in its database (opened on first use, closed with it):
    the data directory's SQLite file, or with PostgreSQL the database every process shares,
    so a session made through one process is valid on all and ended on all by a logout."""

    def __init__(self, database: str | os.PathLike[str] | storage.Database, *,
                 ttl_s: float = 8 * 3600, max_sessions: int = 10_000,
                 clock: Callable[[], float] = time.time) -> None:
        self._target = database
        self.ttl_s = ttl_s
        self.max_sessions = max_sessions
        self._clock = clock
        self._db: storage.Database | None = None
        self._opening = asyncio.Lock()

    async def close(self) -> None:
        async with self._opening:
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    async def _database(self) -> storage.Database:
        if self._db is None:
            async with self._opening:
                if self._db is None:
                    db = await storage.open_database(self._target)
                    try:
                        await storage.apply_migrations(db, "console", SESSION_MIGRATIONS)
                    except BaseException:
                        await db.close()
                        raise
                    self._db = db
        return self._db

    async def create(self, kind: Kind, token_hash: str | None) -> Session:
        now = self._clock()
        session = Session(id=secrets.token_urlsafe(32), kind=kind, token_hash=token_hash,
                          csrf=secrets.token_urlsafe(32), expires_at=now + self.ttl_s)
        db = await self._database()
        # Ties in age go by insertion on SQLite (rowid); PostgreSQL has no such column.
        tie = "rowid" if db.dialect.name == "sqlite" else "id_hash"
        await db.run(_creating, session, now, self.max_sessions, tie, lock="console")
        return session

    async def get(self, session_id: str) -> Session | None:
        """The live session of that id (an expired one is dropped)."""
        if not session_id:
            return None
        db = await self._database()
        # One statement on its own (no BEGIN/COMMIT): one trip to the database, on every
        # console request.
        async with db.transaction(write=False, consistent=False) as conn:
            row = await conn.fetchone(
                "SELECT kind, token_hash, csrf, expires_at FROM console_sessions"
                " WHERE id_hash = ?", (_id_hash(session_id),))
        if row is None or str(row[0]) not in KINDS:
            return None
        if float(row[3]) <= self._clock():
            await self.end(session_id)
            return None
        return Session(id=session_id, kind=cast(Kind, str(row[0])),
                       token_hash=None if row[1] is None else str(row[1]), csrf=str(row[2]),
                       expires_at=float(row[3]))

    async def end(self, session_id: str) -> bool:
        db = await self._database()
        async with db.transaction(write=True, lock="console") as conn:
            return await conn.execute("DELETE FROM console_sessions WHERE id_hash = ?",
                                      (_id_hash(session_id),)) > 0


def _creating(session: Session, now: float, keep: int, tie: str) -> storage.Body[None]:
    """Sweep the expired, add ``session``, and keep only the newest ``keep``."""
    yield storage.Execute("DELETE FROM console_sessions WHERE expires_at <= ?", (now,))
    yield storage.Execute(
        "INSERT INTO console_sessions (id_hash, kind, token_hash, csrf, created_at,"
        " expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        (_id_hash(session.id), session.kind, session.token_hash, session.csrf, now,
         session.expires_at))
    yield storage.Execute(
        "DELETE FROM console_sessions WHERE id_hash IN (SELECT id_hash FROM"
        f" console_sessions ORDER BY created_at DESC, {tie} DESC LIMIT ? OFFSET ?)",
        (_ALL, keep))


async def sign_in(token: str | None, *, bootstrap_token: str | None,
                  identity: IdentityStore | None) -> tuple[Kind, str | None] | str:
    """What a session for ``token`` would be bound to, or why it cannot be made.

    An empty token signs in as the local user, and only while the service has no token at
    all (as the guard itself serves it without one)."""
    if not token:
        if bootstrap_token is None and (identity is None or not await identity.has_live_tokens()):
            return "local", None
        return "enter a token"
    if bootstrap_token is not None and same_secret(token, bootstrap_token):
        return "bootstrap", hash_token(token)
    found = "unknown" if identity is None else await identity.authenticate(token)
    if isinstance(found, str):
        return "wrong token" if found == "unknown" else f"this token is {found}"
    return "token", hash_token(token)


async def principal_of(session: Session, *, bootstrap_token: str | None,
                       identity: IdentityStore | None) -> Principal | str:
    """Who ``session`` acts as now, or why it no longer does (the token was revoked, ...)."""
    if session.kind == "local":
        if bootstrap_token is None and (identity is None or not await identity.has_live_tokens()):
            return LOCAL
        return "tokens now exist: sign in with one"
    if session.kind == "bootstrap":
        if bootstrap_token is not None and session.token_hash is not None and same_secret(
                hash_token(bootstrap_token), session.token_hash):
            return BOOTSTRAP
        return "the bootstrap token changed"
    if identity is None or session.token_hash is None:
        return "unknown token"
    found = await identity.authenticate_hash(session.token_hash)
    if isinstance(found, str):
        return f"this session's token is {found}"
    return found
