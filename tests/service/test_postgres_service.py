"""The service on PostgreSQL (``--database`` / ``SANDBOX_DATABASE_URL``): two service
instances, each with a data directory of its own, share one database, so a token made
through one is valid on the other and a workspace written through one is read through the
other (and by code executed there). What has not moved yet stays per data directory."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import httpx
import pytest

from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import ConfigError, Settings, create_app

OPERATOR = "operator-secret-for-the-postgres-test"


def _settings(data: Path, url: str, guest: CompiledGuest) -> Settings:
    return Settings(data_dir=data, database_url=url, workers=1, guest=guest, token=OPERATOR)


async def test_two_services_on_one_database_share_tokens_and_workspaces(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path
) -> None:
    one = ServerThread(create_app(_settings(tmp_path / "one", postgres_url, compiled_guest)))
    two = ServerThread(create_app(_settings(tmp_path / "two", postgres_url, compiled_guest)))
    with one, two:
        with httpx.Client(base_url=one.url, headers={"Authorization": f"Bearer {OPERATOR}"}) as op:
            assert op.post("/v1/admin/tenants", json={"name": "acme"}).status_code == 201
            made = op.post("/v1/admin/tokens", json={"tenant": "acme", "name": "agent",
                                                     "scopes": ["execute", "workspaces:read",
                                                                "workspaces:write"]})
            assert made.status_code == 201, made.text
        auth = {"Authorization": f"Bearer {made.json()['token']}"}
        with httpx.Client(base_url=one.url, headers=auth) as first, \
                httpx.Client(base_url=two.url, headers=auth, timeout=60) as second:
            put = first.put("/v1/workspaces/shared/files/notes/a.txt", content=b"written on one")
            assert put.status_code == 201, put.text
            got = second.get("/v1/workspaces/shared/files/notes/a.txt")
            assert (got.status_code, got.content) == (200, b"written on one")
            ran = second.post("/v1/execute", json={
                "code": "state.write_file('/b.txt', state.read_file('/notes/a.txt') + ' and two')",
                "workspace": "shared"}).json()
            assert ran["status"] == "completed", ran
            assert first.get("/v1/workspaces/shared/files/b.txt").content == b"written on one and two"
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch("SELECT path FROM workspace_entries ORDER BY path")
        tokens = await conn.fetch("SELECT tenant, name FROM identity_tokens")
    finally:
        await conn.close()
    assert [r["path"] for r in rows] == ["/", "/b.txt", "/notes", "/notes/a.txt"]
    assert [tuple(r) for r in tokens] == [("acme", "agent")]
    # The SQLite files of the data directories hold no workspace at all.
    for data in (tmp_path / "one", tmp_path / "two"):
        assert not (data / "blobs").exists()


def test_a_database_url_that_is_not_postgresql_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="postgresql://"):
        Settings(data_dir=tmp_path, database_url="mysql://somewhere/db")


def test_without_a_url_everything_stays_in_the_data_directory(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert settings.database == str(tmp_path / "sandbox.db")
    assert settings.workspace_blob_dir == tmp_path / "blobs"
    shared = Settings(data_dir=tmp_path, database_url="postgresql://db/x", shared_blob_dir=tmp_path / "s")
    assert (shared.database, shared.workspace_blob_dir) == ("postgresql://db/x", tmp_path / "s")



async def test_executions_and_the_audit_chain_live_in_postgresql_for_both_services(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path
) -> None:
    one = ServerThread(create_app(_settings(tmp_path / "one", postgres_url, compiled_guest)))
    two = ServerThread(create_app(_settings(tmp_path / "two", postgres_url, compiled_guest)))
    auth = {"Authorization": f"Bearer {OPERATOR}"}
    with one, two, httpx.Client(base_url=one.url, headers=auth, timeout=60) as first, \
            httpx.Client(base_url=two.url, headers=auth, timeout=60) as second:
        ids = []
        for client in (first, second, first):
            ran = client.post("/v1/execute", json={"code": "state.write_file('/n.txt', 'x')\n6 * 7",
                                                   "workspace": "w"}).json()
            assert ran["status"] == "completed" and ran["result"] == 42, ran
            ids.append(ran["execution_id"])
        # An execution run by one is read, with its journal, through the other.
        seen = second.get(f"/v1/executions/{ids[0]}").json()
        assert seen["status"] == "completed" and [e["method"] for e in seen["journal"]] == ["write_file"]
        listed = {e["id"] for e in first.get("/v1/executions", params={"workspace": "w"}).json()["executions"]}
        assert listed == set(ids)
        # Both appended to one gap-free chain, which either verifies.
        for client in (first, second):
            report = client.get("/v1/audit/verify").json()
            assert report["ok"] and report["count"] >= 6, report
    conn = await asyncpg.connect(postgres_url)
    try:
        executions = await conn.fetchval("SELECT count(*) FROM codemode_executions")
        seqs = [r["seq"] for r in await conn.fetch("SELECT seq FROM audit_log ORDER BY seq")]
    finally:
        await conn.close()
    assert executions == 3 and seqs == list(range(1, len(seqs) + 1))
