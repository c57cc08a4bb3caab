"""Two real ``sandbox serve`` processes on one PostgreSQL database (``service_processes``):
what one writes the other reads, tokens made through one work on the other, large files
spilled to the shared blob directory are read back whole through either, and two processes
writing the same file at once conflict correctly: one wins, the other gets the structured
412, and the file holds exactly the winner's bytes."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from sandbox.engine import CompiledGuest
from service_processes import services

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SPILLED = 1_600_000
"""Over the workspace's spill threshold: such a file's bytes live in the shared blob directory."""


def _agent_token(operator: httpx.Client) -> str:
    assert operator.post("/v1/admin/tenants", json={"name": "acme"}).status_code == 201
    made = operator.post("/v1/admin/tokens", json={
        "tenant": "acme", "name": "agent", "scopes": ["execute", "workspaces:read", "workspaces:write"]})
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def test_what_one_process_writes_the_other_reads_spilled_files_included(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest  # compiled into the shared cache before the processes start
    with services(2, postgres_url, tmp_path) as (a, b):
        with a.client() as operator:
            token = _agent_token(operator)
        big = bytes(range(256)) * (SPILLED // 256 + 1)
        with a.client(token) as on_a, b.client(token) as on_b:
            assert on_a.put("/v1/workspaces/w/files/small.txt", content=b"from a").status_code == 201
            assert on_a.put("/v1/workspaces/w/files/big.bin", content=big).status_code == 201
            assert on_b.get("/v1/workspaces/w/files/small.txt").content == b"from a"
            assert on_b.get("/v1/workspaces/w/files/big.bin").content == big
            ran = on_b.post("/v1/execute", json={
                "code": "state.write_file('/b.txt', state.read_file('/small.txt') + ' and b')",
                "workspace": "w"}).json()
            assert ran["status"] == "completed", ran
            assert on_a.get("/v1/workspaces/w/files/b.txt").content == b"from a and b"
    assert any((tmp_path / "shared-blobs").rglob("*")), "the big file spilled to the shared directory"


def _put_over(client: httpx.Client, path: str, body: bytes, etag: str) -> httpx.Response:
    return client.put(f"/v1/workspaces/w/files/{path}", content=body, headers={"If-Match": etag})


def test_two_processes_writing_one_file_at_once_one_wins_and_the_other_gets_the_conflict(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest
    with services(2, postgres_url, tmp_path) as (a, b):
        with a.client() as operator:
            token = _agent_token(operator)
        with a.client(token) as on_a, b.client(token) as on_b, ThreadPoolExecutor(2) as pool:
            for round_, size in enumerate([10, 100_000, SPILLED, 10, SPILLED]):
                path = f"f{round_}.bin"
                assert on_a.put(f"/v1/workspaces/w/files/{path}", content=b"first").status_code == 201
                etag = on_b.get(f"/v1/workspaces/w/files/{path}").headers["ETag"]
                bodies = {"a": b"a" * size, "b": b"b" * size}
                futures = {name: pool.submit(_put_over, client, path, bodies[name], etag)
                           for name, client in (("a", on_a), ("b", on_b))}
                answers = {name: future.result() for name, future in futures.items()}
                codes = sorted(r.status_code for r in answers.values())
                assert codes == [200, 412], {n: (r.status_code, r.text) for n, r in answers.items()}
                winner = next(n for n, r in answers.items() if r.status_code == 200)
                loser = answers["b" if winner == "a" else "a"]
                assert loser.json()["error"]["code"] == "ECONFLICT", loser.text
                for client in (on_a, on_b):
                    assert client.get(f"/v1/workspaces/w/files/{path}").content == bodies[winner]
