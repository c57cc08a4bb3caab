"""``/v1/audit``, against a real AuditLog mounted in a small app: filters, paging by seq,
refusals in the one error shape, and verify reporting tampering as an answer."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from audit import AuditEvent, AuditLog
from route_helpers import error_of, route_client
from sandbox.service.routes import audit


@pytest.fixture
async def log(tmp_path: Path) -> AsyncIterator[AuditLog]:
    opened = await AuditLog.open(tmp_path / "sandbox.db", key_file=tmp_path / "keys" / "k",
                                 checkpoints_file=tmp_path / "keys" / "cp.jsonl")
    yield opened
    await opened.close()


@pytest.fixture
async def client(log: AuditLog) -> AsyncIterator[httpx.AsyncClient]:
    async with route_client(audit.router, audit=log) as c:
        yield c


async def _fill(log: AuditLog) -> None:
    await log.record([AuditEvent("acme", "alice", "execution.started", {"execution_id": "e1"}),
                      AuditEvent("globex", "bob", "execution.started", {"execution_id": "e2"}),
                      AuditEvent("acme", "alice", "execution.finished", {"execution_id": "e1"},
                                 {"status": "completed"}),
                      AuditEvent("acme", "carol", "toolset.put", {"toolset": "crm"})], at=100.0)


async def test_entries_filter_and_page_by_seq(client: httpx.AsyncClient, log: AuditLog) -> None:
    await _fill(log)
    body = (await client.get("/v1/audit", params={"tenant": "acme", "limit": 2})).json()
    assert [e["seq"] for e in body["entries"]] == [1, 3] and body["next_after_seq"] == 3
    body = (await client.get("/v1/audit", params={"tenant": "acme", "after_seq": 3})).json()
    assert [e["seq"] for e in body["entries"]] == [4] and body["next_after_seq"] is None
    body = (await client.get("/v1/audit", params={"event": "execution.",
                                                  "subject": "execution_id=e1"})).json()
    assert [(e["seq"], e["event"]) for e in body["entries"]] == [
        (1, "execution.started"), (3, "execution.finished")]
    assert body["entries"][1]["body"] == {"status": "completed"}
    assert set(body["entries"][0]) == {"seq", "time", "tenant", "principal", "event", "subject",
                                       "body", "prev_hash", "row_hash"}


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 5000}, {"after_seq": -1},
                                    {"event": "Bad Name"}, {"subject": "no-equals"},
                                    {"since": "soon"}])
async def test_bad_filters_are_422_in_the_one_error_shape(client: httpx.AsyncClient,
                                                         params: dict[str, object]) -> None:
    r = await client.get("/v1/audit", params=params)
    assert r.status_code == 422 and error_of(r)["code"] == "invalid_request"


async def test_verify_reports_ok_then_the_first_bad_seq(client: httpx.AsyncClient,
                                                        log: AuditLog) -> None:
    await _fill(log)
    body = (await client.get("/v1/audit/verify")).json()
    assert body["ok"] is True and body["count"] == 4 and body["first_bad_seq"] is None
    conn = sqlite3.connect(log.path)
    conn.execute("DROP TRIGGER audit_log_no_update")
    conn.execute("UPDATE audit_log SET principal = 'mallory' WHERE seq = 2")
    conn.commit()
    conn.close()
    body = (await client.get("/v1/audit/verify")).json()
    assert body["ok"] is False and body["first_bad_seq"] == 2
    assert body["reason"].startswith("edited row")


async def test_without_an_audit_log_the_routes_are_503() -> None:
    async with route_client(audit.router) as c:
        r = await c.get("/v1/audit")
    assert r.status_code == 503 and error_of(r)["code"] == "unavailable"
