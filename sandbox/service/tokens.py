"""Tenants and bearer tokens, stored in the service's database (component ``identity``).

``identity_tenants``
    one row per tenant; ``default`` always exists.
``identity_tokens``
    one row per token: a public id, the SHA-256 of the secret (never the secret), tenant,
    name, scopes, created / expires / revoked times. A name is unique among a tenant's live
    tokens, so the name the audit log records names one token at a time (rotate by revoking
    the old one).

:class:`IdentityStore` owns its own database handle (``storage``: the SQLite file, or
PostgreSQL), so the command line (``sandbox tenants``, ``sandbox tokens``) can bootstrap a
data directory or a database before the service runs, and a token made there is valid at
once in every running service on the same database. Each change is one statement, so it
needs no transaction around it.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import storage
from workspace import WorkspaceError, check_tenant

from .errors import HTTPError
from .identity import SCOPES, Principal, hash_token, new_token

__all__ = ["IdentityStore", "TOKEN_NAME", "TokenInfo", "check_scopes"]

TOKEN_NAME = r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$"
"""A token's name: the principal the audit log and decisions record."""
_TOKEN_NAME = re.compile(TOKEN_NAME.replace("$", r"\Z"))

def _v1(d: storage.Dialect) -> tuple[str, ...]:
    return (
        f"""
        CREATE TABLE identity_tenants (
            name       {d.key_text} PRIMARY KEY,
            created_at {d.real} NOT NULL
        )
        """,
        "INSERT INTO identity_tenants (name, created_at) VALUES ('default', 0)",
        f"""
        CREATE TABLE identity_tokens (
            id         TEXT PRIMARY KEY,
            hash       TEXT NOT NULL UNIQUE,
            tenant     {d.key_text} NOT NULL REFERENCES identity_tenants(name),
            name       {d.key_text} NOT NULL,
            scopes     TEXT NOT NULL,
            created_at {d.real} NOT NULL,
            expires_at {d.real},
            revoked_at {d.real}
        )
        """,
        "CREATE UNIQUE INDEX identity_tokens_live_name ON identity_tokens (tenant, name)"
        " WHERE revoked_at IS NULL",
    )


# Append new versions; never edit a released one.
IDENTITY_MIGRATIONS: Sequence[storage.Migration] = (
    storage.Migration(1, _v1(storage.SQLITE), _v1(storage.POSTGRESQL)),
)


@dataclass(frozen=True)
class TokenInfo:
    """A stored token as it may be shown: everything but the secret."""

    id: str
    tenant: str
    name: str
    scopes: tuple[str, ...]
    created_at: float
    expires_at: float | None
    revoked_at: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "tenant": self.tenant, "name": self.name,
                "scopes": list(self.scopes), "created_at": self.created_at,
                "expires_at": self.expires_at, "revoked_at": self.revoked_at}


def check_scopes(scopes: Sequence[str]) -> tuple[str, ...]:
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown or not scopes:
        raise HTTPError(422, "invalid_request",
                        f"scopes must be one or more of {', '.join(SCOPES)}"
                        + (f"; unknown: {', '.join(unknown)}" if unknown else ""))
    return tuple(s for s in SCOPES if s in set(scopes))


def _check_token_name(name: str) -> str:
    if not isinstance(name, str) or not _TOKEN_NAME.match(name):
        raise HTTPError(422, "invalid_request",
                        "token names are 1-128 characters of letters, digits, '.', '_', '@' or "
                        "'-', starting with a letter or digit")
    return name


def _tenant(name: str) -> str:
    try:
        return check_tenant(name)
    except WorkspaceError as exc:
        raise HTTPError(422, "invalid_request", str(exc)) from exc


_COLUMNS = "id, tenant, name, scopes, created_at, expires_at, revoked_at"


def _info(row: Any) -> TokenInfo:
    return TokenInfo(id=row[0], tenant=row[1], name=row[2], scopes=tuple(json.loads(row[3])),
                     created_at=float(row[4]),
                     expires_at=None if row[5] is None else float(row[5]),
                     revoked_at=None if row[6] is None else float(row[6]))


class IdentityStore:
    """Tenants and tokens in one database (a SQLite file's path or a ``postgresql://`` URL)."""

    LIVE_TOKENS_TTL_S = 1.0
    """How long an answer of :meth:`has_live_tokens` is reused. A token created or revoked
    through this store takes effect at once; one created by another process (``sandbox
    tokens create`` while the service runs, or another service on the same PostgreSQL)
    within this long."""

    def __init__(self, db: storage.Database) -> None:
        self._db = db
        # (monotonic time checked, answer): every request without a token asks, and a
        # query per request was 0.15 ms of a 1+1 execute.
        self._live: tuple[float, bool] | None = None

    @classmethod
    async def open(cls, database: str | os.PathLike[str] | storage.Database) -> IdentityStore:
        db = await storage.open_database(database)
        try:
            await storage.apply_migrations(db, "identity", IDENTITY_MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> IdentityStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._db.session() as conn:
            return await conn.fetchall(sql, params)

    async def _change(self, sql: str, params: Sequence[Any]) -> int:
        async with self._db.session() as conn:
            return await conn.execute(sql, params)

    # --- tenants ------------------------------------------------------------------------

    async def create_tenant(self, name: str) -> dict[str, Any]:
        stamp = time.time()
        try:
            await self._change("INSERT INTO identity_tenants (name, created_at) VALUES (?, ?)",
                               (_tenant(name), stamp))
        except storage.IntegrityError as exc:
            raise HTTPError(409, "conflict", f"tenant {name!r} already exists") from exc
        return {"name": name, "created_at": stamp}

    async def list_tenants(self) -> list[dict[str, Any]]:
        rows = await self._rows("SELECT name, created_at FROM identity_tenants ORDER BY name")
        return [{"name": r[0], "created_at": float(r[1])} for r in rows]

    async def has_tenant(self, name: str) -> bool:
        return bool(await self._rows("SELECT 1 FROM identity_tenants WHERE name = ?", (name,)))

    # --- tokens -------------------------------------------------------------------------

    async def create_token(self, *, tenant: str, name: str, scopes: Sequence[str],
                           expires_at: float | None = None) -> tuple[str, TokenInfo]:
        """A new token of ``tenant``: ``(the secret, shown this once; its stored info)``."""
        if not await self.has_tenant(_tenant(tenant)):
            raise HTTPError(404, "not_found", f"tenant {tenant!r} not found")
        token, token_id, digest = new_token()
        info = TokenInfo(id=token_id, tenant=tenant, name=_check_token_name(name),
                         scopes=check_scopes(scopes), created_at=time.time(),
                         expires_at=expires_at, revoked_at=None)
        try:
            await self._change(
                f"INSERT INTO identity_tokens ({_COLUMNS}, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (info.id, info.tenant, info.name, json.dumps(list(info.scopes)),
                 info.created_at, info.expires_at, None, digest))
        except storage.IntegrityError as exc:
            raise HTTPError(409, "conflict", f"tenant {tenant!r} already has a live token named "
                            f"{name!r}; revoke it first") from exc
        self._live = None
        return token, info

    async def list_tokens(self, tenant: str | None = None) -> list[TokenInfo]:
        where, params = ("WHERE tenant = ?", (tenant,)) if tenant is not None else ("", ())
        rows = await self._rows(
            f"SELECT {_COLUMNS} FROM identity_tokens {where} ORDER BY tenant, created_at, id", params)
        return [_info(r) for r in rows]

    async def get_token(self, token_id: str) -> TokenInfo | None:
        rows = await self._rows(f"SELECT {_COLUMNS} FROM identity_tokens WHERE id = ?", (token_id,))
        return _info(rows[0]) if rows else None

    async def revoke_token(self, token_id: str, tenant: str | None = None) -> TokenInfo | None:
        """Revoke a live token (of ``tenant``, when given); its info, or None if none was live."""
        guard, params = ("AND tenant = ?", (tenant,)) if tenant is not None else ("", ())
        changed = await self._change(
            f"UPDATE identity_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL {guard}",
            (time.time(), token_id, *params))
        self._live = None
        return await self.get_token(token_id) if changed else None

    async def has_live_tokens(self, at: float | None = None) -> bool:
        """Whether any token is live (so requests must bring one); ``at`` asks afresh."""
        if at is None and self._live is not None \
                and time.monotonic() - self._live[0] < self.LIVE_TOKENS_TTL_S:
            return self._live[1]
        stamp = time.time() if at is None else at
        checked = time.monotonic()
        live = bool(await self._rows(
            "SELECT 1 FROM identity_tokens WHERE revoked_at IS NULL"
            " AND (expires_at IS NULL OR expires_at > ?) LIMIT 1", (stamp,)))
        if at is None:
            self._live = (checked, live)
        return live

    async def authenticate(self, token: str, at: float | None = None) -> Principal | str:
        """The principal of ``token``, or why not: ``unknown``, ``revoked`` or ``expired``."""
        return await self.authenticate_hash(hash_token(token), at)

    async def authenticate_hash(self, digest: str, at: float | None = None) -> Principal | str:
        """:meth:`authenticate` by the token's SHA-256 (what a console session keeps)."""
        rows = await self._rows(f"SELECT {_COLUMNS} FROM identity_tokens WHERE hash = ?",
                                (digest,))
        if not rows:
            return "unknown"
        info = _info(rows[0])
        if info.revoked_at is not None:
            return "revoked"
        if info.expires_at is not None and info.expires_at <= (time.time() if at is None else at):
            return "expired"
        return Principal(tenant=info.tenant, name=info.name, scopes=frozenset(info.scopes),
                         token_id=info.id)

