"""Console sessions: a signed-in browser's cookie, mapped server-side to the token it signed in
with.

A session keeps only the token's SHA-256 (as the identity store does), a CSRF token and its
expiry; the cookie carries a random session id and nothing else. Every request through a
session looks the token up again, so revoking or expiring the token ends the session at once.
Sessions live in the service's memory: a restart signs everyone out, which is the safe
direction.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Literal

from ..identity import BOOTSTRAP, LOCAL, Principal, hash_token, same_secret
from ..tokens import IdentityStore

__all__ = ["COOKIE", "CSRF_HEADER", "SAFE_METHODS", "Session", "SessionStore", "principal_of", "sign_in"]

COOKIE = "sandbox_console"
"""The session cookie's name (HttpOnly, SameSite=Strict, Path=/)."""

CSRF_HEADER = "x-csrf-token"
"""The header a session's state-changing request carries its CSRF token in."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Kind = Literal["token", "bootstrap", "local"]


@dataclass(frozen=True)
class Session:
    id: str
    kind: Kind
    token_hash: str | None
    """The signed-in token's SHA-256; None for the local user."""
    csrf: str
    expires_at: float


class SessionStore:
    """The live sessions of one service (bounded: the oldest go first past ``max_sessions``)."""

    def __init__(self, *, ttl_s: float = 8 * 3600, max_sessions: int = 10_000,
                 clock: Callable[[], float] = time.time) -> None:
        self.ttl_s = ttl_s
        self.max_sessions = max_sessions
        self._clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, kind: Kind, token_hash: str | None) -> Session:
        session = Session(id=secrets.token_urlsafe(32), kind=kind, token_hash=token_hash,
                          csrf=secrets.token_urlsafe(32), expires_at=self._clock() + self.ttl_s)
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        return session

    def get(self, session_id: str) -> Session | None:
        """The live session of that id (an expired one is dropped)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None and session.expires_at <= self._clock():
                del self._sessions[session_id]
                return None
            return session

    def end(self, session_id: str) -> bool:
        with self._lock:
            return self._sessions.pop(session_id, None) is not None


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
