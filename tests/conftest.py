"""Shared fixtures: one compiled guest and one pooled sandbox for the whole test session; one
throwaway PostgreSQL cluster, started on first use, with a fresh schema per test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Iterator

import asyncpg
import pytest

from pg_cluster import Cluster, new_schema_name, start_cluster

from sandbox import Sandbox
from sandbox.engine import CompiledGuest, ensure_compiled


def _add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def _fail(message: str = "boom") -> None:
    raise ValueError(message)


def _echo(**kwargs: object) -> object:
    return kwargs


TEST_TOOLS = {"add": _add, "fail": _fail, "echo": _echo}


@pytest.fixture(scope="session")
def compiled_guest() -> CompiledGuest:
    return ensure_compiled()


@pytest.fixture(scope="session")
def sandbox(compiled_guest: CompiledGuest) -> Iterator[Sandbox]:
    with Sandbox(tools=TEST_TOOLS, workers=2, guest=compiled_guest) as box:
        yield box


@pytest.fixture
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent




@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """The machine's PostgreSQL, initialised in a temporary directory (never skipped: a
    missing PostgreSQL fails the tests that need it; ``scripts/install`` installs it)."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def postgres_url(postgres_cluster: Cluster) -> AsyncIterator[str]:
    """The URL of an empty schema of its own on the session's cluster."""
    schema = new_schema_name()
    conn = await asyncpg.connect(postgres_cluster.url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    yield postgres_cluster.schema_url(schema)
    conn = await asyncpg.connect(postgres_cluster.url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store keeps its tables, on each backend in turn: a SQLite file, or a
    PostgreSQL schema of the test's own."""
    if request.param == "sqlite":
        return str(tmp_path / "sandbox.db")
    return str(request.getfixturevalue("postgres_url"))


async def _run_on(url: str, statement: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def module_database_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """For a module's one service: None (everything in its data directory's SQLite file),
    then the URL of a PostgreSQL schema of the module's own (``Settings.database_url``)."""
    if request.param == "sqlite":
        yield None
        return
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    schema = new_schema_name()
    asyncio.run(_run_on(cluster.url, f"CREATE SCHEMA {schema}"))
    yield cluster.schema_url(schema)
    asyncio.run(_run_on(cluster.url, f"DROP SCHEMA {schema} CASCADE"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Marked so ``-m "not postgres"`` can leave them out while developing; CI runs them all.
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and "postgresql" in (
            callspec.params.get("database"), callspec.params.get("module_database_url"))
        if on_postgres or "postgres_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
