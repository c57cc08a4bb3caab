"""``Database.notify`` and ``Database.listen`` on both backends: what is sent reaches every
listener on the channel (on PostgreSQL, through another connection of the database as
another process would have), payloads are size-checked, and on PostgreSQL a listener whose
connection the server ends listens again and says it may have missed something (``None``).
Every test has a hard deadline: a missed notification fails, it never hangs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

import storage

DEADLINE_S = 30


@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[storage.Database, storage.Database]]:
    """Two handles on one database, as two processes would hold (SQLite: in-process only)."""
    first = await storage.open_database(database)
    second = await storage.open_database(database)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_a_notification_reaches_every_listener_on_its_channel_only(
    two: tuple[storage.Database, storage.Database],
) -> None:
    sender, receiver = two
    async with asyncio.timeout(DEADLINE_S):
        async with receiver.listen("events") as one, receiver.listen("events") as again, \
                sender.listen("other") as elsewhere:
            await sender.notify("events", "1,2,3")
            await sender.notify("other", "x")
            assert await anext(one) == "1,2,3"
            assert await anext(again) == "1,2,3"
            assert await anext(elsewhere) == "x"
            await sender.notify("events", "4")
            assert await anext(one) == "4"


async def test_payloads_over_the_limit_and_bad_channel_names_are_refused(
    two: tuple[storage.Database, storage.Database],
) -> None:
    sender, _ = two
    await sender.notify("events", "9" * 7999)
    with pytest.raises(ValueError, match="send ids"):
        await sender.notify("events", "9" * 8000)
    for bad in ("", "Events", "a;b", "x" * 41, "1abc"):
        with pytest.raises(ValueError, match="channel"):
            await sender.notify(bad, "1")


async def test_nothing_sent_before_listening_is_received(
    two: tuple[storage.Database, storage.Database],
) -> None:
    sender, receiver = two
    async with asyncio.timeout(DEADLINE_S):
        await sender.notify("events", "early")
        async with receiver.listen("events") as inbox:
            await sender.notify("events", "late")
            assert await anext(inbox) == "late"


async def test_two_schemas_of_one_database_never_hear_each_other(
    postgres_url: str, postgres_cluster: object,
) -> None:
    from pg_cluster import Cluster, new_schema_name

    assert isinstance(postgres_cluster, Cluster)
    schema = new_schema_name()
    admin = await asyncpg.connect(postgres_cluster.url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        here = await storage.open_database(postgres_url)
        there = await storage.open_database(postgres_cluster.schema_url(schema))
        try:
            async with asyncio.timeout(DEADLINE_S):
                async with here.listen("events") as inbox:
                    await there.notify("events", "not for you")
                    await here.notify("events", "yours")
                    assert await anext(inbox) == "yours"
        finally:
            await here.close()
            await there.close()
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def test_a_listener_cut_off_by_the_server_listens_again_and_says_it_may_have_missed_some(
    postgres_url: str,
) -> None:
    db = await storage.open_database(postgres_url)
    admin = await asyncpg.connect(postgres_url)
    try:
        async with asyncio.timeout(DEADLINE_S):
            async with db.listen("events") as inbox:
                await db.notify("events", "before")
                assert await anext(inbox) == "before"
                ended = await admin.fetch(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'sandbox-listen' AND datname = current_database()")
                assert ended
                # Sent while it is down (lost) or already back (received, before or after
                # the gap is announced).
                await db.notify("events", "meanwhile")
                got = await anext(inbox)
                while got == "meanwhile":
                    got = await anext(inbox)
                assert got is None  # listening again; the gap is announced
                await db.notify("events", "after")
                got = await anext(inbox)
                if got == "meanwhile":
                    got = await anext(inbox)
                assert got == "after"
    finally:
        await admin.close()
        await db.close()
