"""The identity store (``sandbox.service.tokens``) on each backend: tenants, tokens, their
names, revocation and expiry behave the same on a SQLite file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sandbox.service import HTTPError, IdentityStore
from sandbox.service.identity import Principal


@pytest.fixture
async def identity(database: str) -> AsyncIterator[IdentityStore]:
    async with await IdentityStore.open(database) as store:
        yield store


async def test_the_default_tenant_exists_and_others_are_listed_by_name(identity: IdentityStore) -> None:
    for name in ("zeta", "alpha_1", "alpha-2"):
        await identity.create_tenant(name)
    # Bytewise, as SQLite orders: "-" before "_", whatever the PostgreSQL server's locale.
    assert [t["name"] for t in await identity.list_tenants()] == ["alpha-2", "alpha_1", "default", "zeta"]
    with pytest.raises(HTTPError) as refused:
        await identity.create_tenant("zeta")
    assert (refused.value.status, refused.value.code) == (409, "conflict")


async def test_a_token_authenticates_as_its_tenant_until_revoked(identity: IdentityStore) -> None:
    await identity.create_tenant("acme")
    token, info = await identity.create_token(tenant="acme", name="ci", scopes=["execute"])
    found = await identity.authenticate(token)
    assert isinstance(found, Principal)
    assert (found.tenant, found.name, found.scopes, found.token_id) == ("acme", "ci", frozenset({"execute"}), info.id)
    assert await identity.get_token(info.id) == info
    assert await identity.revoke_token(info.id, tenant="default") is None  # not that tenant's
    revoked = await identity.revoke_token(info.id, tenant="acme")
    assert revoked is not None and revoked.revoked_at is not None
    assert await identity.revoke_token(info.id) is None  # already revoked
    assert await identity.authenticate(token) == "revoked"
    assert await identity.authenticate("sbx_not-a-token") == "unknown"


async def test_a_live_name_is_unique_per_tenant_and_free_again_once_revoked(identity: IdentityStore) -> None:
    _, first = await identity.create_token(tenant="default", name="bot", scopes=["execute"])
    with pytest.raises(HTTPError) as refused:
        await identity.create_token(tenant="default", name="bot", scopes=["execute"])
    assert refused.value.status == 409
    await identity.revoke_token(first.id)
    _, second = await identity.create_token(tenant="default", name="bot", scopes=["execute"])
    listed = {t.id: t.revoked_at is None for t in await identity.list_tokens("default")}
    assert listed == {first.id: False, second.id: True}


async def test_expiry_is_judged_at_the_time_asked(identity: IdentityStore) -> None:
    token, _ = await identity.create_token(tenant="default", name="short", scopes=["execute"],
                                           expires_at=1_000.0)
    assert isinstance(await identity.authenticate(token, at=999.5), Principal)
    assert await identity.authenticate(token, at=1_000.0) == "expired"
    assert await identity.has_live_tokens(at=999.0) is True
    assert await identity.has_live_tokens(at=1_001.0) is False


async def test_a_token_of_an_unknown_tenant_is_refused(identity: IdentityStore) -> None:
    with pytest.raises(HTTPError) as refused:
        await identity.create_token(tenant="nobody", name="x", scopes=["execute"])
    assert refused.value.status == 404


async def test_two_stores_on_one_database_see_each_others_tokens(database: str) -> None:
    async with await IdentityStore.open(database) as one, await IdentityStore.open(database) as two:
        token, _ = await one.create_token(tenant="default", name="shared", scopes=["admin"])
        assert isinstance(await two.authenticate(token), Principal)
