"""Recovery of durable executions after ``kill -9`` of a real service process.

Every test runs ``sandbox serve`` as a process of its own (forked from one that has imported
the service already: ``forked_serve``, which saves each start about 1-2 s) on a temporary data
directory (the compiled guest comes from the shared ``SANDBOX_CACHE_DIR``), talks to it over
HTTP, kills it with SIGKILL at a chosen moment, checks the SQLite file with
``PRAGMA integrity_check`` while nothing has it open, and restarts it on the same directory.
Side effects go to a real signed tool endpoint (:class:`GatedHost`, an
:class:`~agent_host.AgentHost` that can hold one call open) that counts effects per
idempotency key, so "exactly once" is measured where the effect happens.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from storage import is_postgresql
from storage.postgres import positional

from live_server import read_body
from agent_host import AgentHost, ServerThread, free_port
from forked_serve import ForkedProcess, start_serve

pytestmark = pytest.mark.slow

SECRET = "recovery-test-inline-secret"
REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0


# --- the tool endpoint ------------------------------------------------------------------


class GatedHost(AgentHost):
    """The agent host, able to hold one ``create_item`` call (chosen by title) open.

    ``hold(title, when)``:
    - ``"after"``: the effect happens, then the reply is withheld (the service dies before
      it can record the result);
    - ``"drop"``: the call is withheld before anything happens and, once released, answered
      503 with no effect (the service died while the endpoint had not acted yet);
    - ``"delay"``: withheld, then handled normally once released.

    ``arrivals[title]`` counts every ``create_item`` request that reached the endpoint.
    """

    def __init__(self) -> None:
        super().__init__([SECRET])
        self.arrivals: dict[str, int] = {}
        self.held = threading.Event()
        self.release = threading.Event()
        self.held_call: dict[str, Any] = {}
        self._holds: dict[str, str] = {}

    def hold(self, title: str, when: str) -> None:
        assert when in ("after", "drop", "delay")
        self.held.clear()
        self.release.clear()
        self._holds[title] = when

    def wait_held(self, timeout: float = 30.0) -> dict[str, Any]:
        assert self.held.wait(timeout), "the held tool call never arrived"
        return self.held_call

    async def _until_released(self) -> None:
        deadline = time.monotonic() + 60
        while not self.release.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        body = await read_body(receive)
        sent_body = False

        async def replay_receive() -> dict[str, Any]:
            nonlocal sent_body
            if sent_body:
                return {"type": "http.disconnect"}
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            call = json.loads(body)
        except ValueError:
            call = {}
        when = None
        if call.get("tool") == "create_item" and call.get("action") != "revert":
            title = str(call.get("input", {}).get("title"))
            with self._lock:
                self.arrivals[title] = self.arrivals.get(title, 0) + 1
                when = self._holds.pop(title, None)
        if when in ("drop", "delay"):
            self.held_call = call
            self.held.set()
            await self._until_released()
            if when == "drop":
                await _try_send(send, 503, {"error": {"name": "Unavailable", "message": "gone"}})
                return
        if when == "after":
            forward = send

            async def held_send(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    self.held_call = call
                    self.held.set()
                    await self._until_released()
                try:
                    await forward(message)
                except Exception:  # the service that asked is dead; nobody reads this
                    pass

            send = held_send
        await super().__call__(scope, replay_receive, send)

    def key_effects(self, key: str) -> int:
        return self.effects.get(key, 0)


async def _try_send(send: Any, status: int, payload: dict[str, Any]) -> None:
    data = json.dumps(payload).encode()
    try:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})
    except Exception:  # the caller was killed; the reply has nowhere to go
        pass


@pytest.fixture(scope="module")
def host_server() -> Iterator[tuple[GatedHost, str]]:
    host = GatedHost()
    with ServerThread(host) as live:
        yield host, live.url
    host.release.set()


@pytest.fixture
def host(host_server: tuple[GatedHost, str]) -> Iterator[GatedHost]:
    gated, _ = host_server
    gated.release.set()
    gated.arrivals.clear()
    yield gated
    gated.release.set()  # never leave a held call (and its test's thread) hanging


@pytest.fixture
def host_url(host_server: tuple[GatedHost, str]) -> str:
    return host_server[1]


# --- the service as a real process ------------------------------------------------------


Target = Path | str
"""Where a service keeps its tables: its SQLite file, or a PostgreSQL URL."""


def integrity_check(db: Target) -> str:
    """``PRAGMA integrity_check`` of a SQLite file nobody else has open, read-only (a
    PostgreSQL server keeps its own pages whole through a client's kill: nothing to check)."""
    if isinstance(db, str):
        return "ok"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def _on_postgresql(url: str, sql: str, params: tuple[Any, ...]) -> tuple[list[Any], int]:
    async def run() -> tuple[list[Any], int]:
        conn = await asyncpg.connect(url)
        try:
            if sql.lstrip().upper().startswith("SELECT"):
                return [tuple(r) for r in await conn.fetch(positional(sql), *params)], 0
            status = await conn.execute(positional(sql), *params)
            return [], int(status.rpartition(" ")[2])
        finally:
            await conn.close()
    return asyncio.run(run())


def query(db: Target, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(db, str):
        return _on_postgresql(db, sql, params)[0]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql, params).fetchall())
    finally:
        conn.close()


def _write(db: Target, sql: str, params: tuple[Any, ...]) -> int:
    """One write to the database of a stopped service (to stand for a kill in a window)."""
    if isinstance(db, str):
        return _on_postgresql(db, sql, params)[1]
    conn = sqlite3.connect(db)
    try:
        with conn:
            return int(conn.execute(sql, params).rowcount)
    finally:
        conn.close()


class Service:
    """``sandbox serve`` in its own process group on a free port, over one data dir."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None,
                 database_url: str | None = None) -> None:
        self.data_dir = data_dir
        self.database_url = database_url
        self.extra_env = dict(env or {})
        if database_url is not None:
            self.extra_env["SANDBOX_DATABASE_URL"] = database_url
        self.process: ForkedProcess | None = None
        self.port = 0
        self.client: httpx.Client | None = None
        self.log_path = data_dir.parent / f"{data_dir.name}-service-{id(self)}.log"

    @property
    def db(self) -> Target:
        return self.database_url or self.data_dir / "sandbox.db"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def launch(self) -> None:
        """Start the process without waiting for it (two services may start together)."""
        assert self.process is None or self.process.poll() is not None
        self.port = free_port()
        env = {**os.environ, "SANDBOX_INLINE_TOOL_SECRET": SECRET,
               "SANDBOX_DATA_DIR": str(self.data_dir), **self.extra_env}
        env.pop("SANDBOX_TOKEN", None)
        self.process = start_serve(["--data-dir", str(self.data_dir), "--port", str(self.port),
                                    "--workers", "2", "--log-level", "warning"], env, self.log_path)

    def wait_ready(self) -> "Service":
        deadline = time.monotonic() + START_TIMEOUT_S
        url = f"http://127.0.0.1:{self.port}"
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"service exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"service did not start:\n{self.log()}")
            time.sleep(0.05)
        self.client = httpx.Client(base_url=url, timeout=60)
        return self

    def start(self) -> "Service":
        self.launch()
        return self.wait_ready()

    @property
    def http(self) -> httpx.Client:
        assert self.client is not None, "service not started"
        return self.client

    def kill(self) -> None:
        """SIGKILL the service (its workers die with it), then check the database."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reap_group()
        if self.client is not None:
            self.client.close()
            self.client = None
        assert integrity_check(self.db) == "ok"

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self._reap_group()

    def _reap_group(self) -> None:
        # Workers die with their parent (PDEATHSIG); this makes sure of it, for this group only.
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return "(no log)"

    # --- requests -------------------------------------------------------------------

    def execute(self, code: str, tools: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        response = self.http.post("/v1/execute", json={"code": code, "tools": tools, **extra})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def execute_in_background(self, code: str, tools: list[dict[str, Any]] | None = None,
                              **extra: Any) -> threading.Thread:
        """POST an execution whose request will die with the service."""
        return self.post_in_background("/v1/execute",
                                       {"code": code, "tools": tools or [], **extra})

    def post_in_background(self, path: str, body: dict[str, Any]) -> threading.Thread:
        url = f"http://127.0.0.1:{self.port}{path}"

        def post() -> None:
            try:
                httpx.post(url, json=body, timeout=60)
            except httpx.TransportError:
                pass  # the service was killed under it: expected

        thread = threading.Thread(target=post, daemon=True)
        thread.start()
        return thread

    def execution(self, execution_id: str) -> dict[str, Any]:
        response = self.http.get(f"/v1/executions/{execution_id}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def wait_status(self, execution_id: str, statuses: tuple[str, ...],
                    timeout: float = 30.0, between: Callable[[], None] | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            record = self.execution(execution_id)
            if record["status"] in statuses:
                return record
            if time.monotonic() > deadline:
                raise AssertionError(f"execution {execution_id} stayed {record['status']}: "
                                     f"{record.get('error')}\n{self.log()}")
            if between is not None:
                between()
            time.sleep(0.05)


@pytest.fixture
def services(tmp_path: Path, database: str) -> Iterator[Callable[..., Service]]:
    """Services on one data directory (or one of their own), on each backend in turn."""
    started: list[Service] = []
    url = database if is_postgresql(database) else None

    def make(data_dir: Path | None = None, **env: str) -> Service:
        service = Service(data_dir or tmp_path / "data", env, url)
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()


def journal_states(db: Target, execution_id: str) -> list[tuple[int, str, str]]:
    return [(int(seq), str(method), str(state)) for seq, method, state in query(
        db, "SELECT seq, method, state FROM codemode_journal WHERE execution_id = ? ORDER BY seq",
        (execution_id,))]


def execution_row(db: Target, execution_id: str) -> tuple[str, str | None, int]:
    rows = query(db, "SELECT status, owner, attempts FROM codemode_executions WHERE id = ?",
                 (execution_id,))
    assert rows, f"execution {execution_id} is not in the database"
    status, owner, attempts = rows[0]
    return str(status), owner, int(attempts)


# --- kill -9 around a tool's side effect --------------------------------------------------


@pytest.mark.parametrize("template", [None, "item:{title}"], ids=["step-key", "explicit-key"])
def test_kill_after_the_side_effect_before_its_commit_replays_it_exactly_once(
        services: Callable[..., Service], host: GatedHost, host_url: str,
        template: str | None) -> None:
    service = services().start()
    title = "alpha" if template is None else "alpha-explicit"
    tools = host.tools(host_url, **({} if template is None else
                                    {"create_item": {"idempotency_key": template}}))
    host.hold(title, "after")
    service.execute_in_background(
        f"item = tools.create_item(title='{title}')\n[item, tools.list_items()]", tools)
    call = host.wait_held()
    execution_id = call["execution_id"]
    key = call["idempotency_key"]
    assert key == (f"{execution_id}:0" if template is None else f"item:{title}")
    assert host.key_effects(key) == 1  # the effect happened; the service has no result yet

    service.kill()
    host.release.set()
    assert journal_states(service.db, execution_id) == [(0, "create_item", "executing")]
    status, owner, _ = execution_row(service.db, execution_id)
    assert status == "running" and owner is not None and f":{service.pid}:" in owner
    # A step key's ledger is its journal row (executing, above); an explicit key has a row.
    ledger = [("pending",)] if template else []
    assert query(service.db, "SELECT status FROM codemode_ledger WHERE key = ?",
                 (f"action:create_item:{key}",)) == ledger

    service.start()  # the start-up sweep finds the running execution of a dead process
    record = service.wait_status(execution_id, ("completed", "error", "dead_letter"))
    assert record["status"] == "completed", record.get("error")
    assert record["result"][0]["title"] == title and title in record["result"][1]
    assert host.key_effects(key) == 1
    resent = [c for c in host.calls if c.get("tool") == "create_item"
              and c["execution_id"] == execution_id]
    assert [c["idempotency_key"] for c in resent] == [key, key]  # same key on the retry
    assert [e["state"] for e in record["journal"]] == ["applied", "applied"]
    assert query(service.db, "SELECT status FROM codemode_ledger WHERE key = ?",
                 (f"action:create_item:{key}",)) == ([("settled",)] if template else [])


@pytest.mark.parametrize("mode", ["stored-toolset", "always-replay"])
def test_kill_between_two_calls_replays_the_first_and_runs_the_second_once(
        services: Callable[..., Service], host: GatedHost, host_url: str, mode: str) -> None:
    service = services(SANDBOX_ALWAYS_REPLAY="1" if mode == "always-replay" else "0").start()
    namespace = "tools"
    request: dict[str, Any] = {"tools": host.tools(host_url)}
    if mode == "stored-toolset":  # signed with the toolset's stored secret, before and after
        created = service.http.put("/v1/toolsets/items", json={"tools": host.tools(host_url)})
        assert created.status_code == 201, created.text
        host.secrets.append(created.json()["secret"])
        namespace, request = "items", {"tools": [], "toolsets": ["items"]}
    host.hold("second", "drop")
    service.execute_in_background(
        f"a = {namespace}.create_item(title='first')\n"
        f"b = {namespace}.create_item(title='second')\n[a['title'], b['title']]", **request)
    call = host.wait_held()
    execution_id = call["execution_id"]
    assert journal_states(service.db, execution_id) == [
        (0, "create_item", "applied"), (1, "create_item", "executing")]

    service.kill()
    host.release.set()
    assert journal_states(service.db, execution_id) == [
        (0, "create_item", "applied"), (1, "create_item", "executing")]

    service.start()
    record = service.wait_status(execution_id, ("completed", "error", "dead_letter"))
    assert record["status"] == "completed", record.get("error")
    assert record["result"] == ["first", "second"]
    assert host.arrivals["first"] == 1  # replayed from the journal, never sent again
    assert host.arrivals["second"] == 2  # the dropped attempt, then the recovered one
    assert host.key_effects(f"{execution_id}:0") == 1
    assert host.key_effects(f"{execution_id}:1") == 1


# --- parked executions and decisions across a kill ----------------------------------------


def _gated_tools(host: GatedHost, url: str) -> list[dict[str, Any]]:
    return host.tools(url, create_item={"approval": {"mode": "durable", "risk": "medium"}})


def test_a_hundred_paused_executions_survive_a_kill_and_each_completes_once_approved(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    tools = _gated_tools(host, host_url)

    def pause(n: int) -> str:
        body = service.execute(f"tools.create_item(title='paused-{n}')['title']", tools)
        assert body["status"] == "paused", body
        return str(body["execution_id"])

    with ThreadPoolExecutor(max_workers=4) as pool:
        paused = set(pool.map(pause, range(100)))
    assert len(paused) == 100
    assert not any(title.startswith("paused-") for title in host.arrivals)

    service.kill()
    service.start()
    listed = service.http.get("/v1/approvals").json()["approvals"]
    by_execution = {a["execution_id"]: a for a in listed}
    assert set(by_execution) == paused and len(listed) == 100
    assert all(a["status"] == "pending" and a["method"] == "create_item" for a in listed)

    def approve(approval: dict[str, Any]) -> dict[str, Any]:
        response = service.http.post(f"/v1/approvals/{approval['approval_id']}/approve",
                                     json={"by": "operator"})
        assert response.status_code == 200, response.text
        return dict(response.json())

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(approve, listed))
    assert [o["status"] for o in outcomes] == ["completed"] * 100
    assert sorted(o["result"] for o in outcomes) == sorted(
        a["args"]["title"] for a in listed)
    keys = [f"{execution_id}:0" for execution_id in paused]
    assert [host.key_effects(key) for key in keys] == [1] * 100
    assert len(set(keys)) == 100
    assert all(host.arrivals[f"paused-{n}"] == 1 for n in range(100))
    assert service.http.get("/v1/approvals").json()["approvals"] == []


def test_an_execution_awaiting_a_client_tool_survives_a_kill_and_resumes_with_its_result(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    tools = [*host.tools(host_url),
             {"name": "ask_user", "description": "Answered by the agent host.",
              "input_schema": {"type": "object", "properties": {"question": {"type": "string"}},
                               "required": ["question"]}}]
    body = service.execute("colour = tools.ask_user(question='colour?')\n"
                           "tools.create_item(title='client-' + colour)['title']", tools)
    assert body["status"] == "awaiting_tool", body
    assert body["pending"][0]["seq"] == 0 and body["pending"][0]["args"] == {"question": "colour?"}
    execution_id = body["execution_id"]

    service.kill()
    service.start()
    assert service.execution(execution_id)["status"] == "awaiting_tool"
    resumed = service.http.post(f"/v1/executions/{execution_id}/calls/0/result",
                                json={"output": "blue"})
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["status"] == "completed" and resumed.json()["result"] == "client-blue"
    assert host.key_effects(f"{execution_id}:1") == 1
    again = service.http.post(f"/v1/executions/{execution_id}/calls/0/result",
                              json={"output": "red"})
    assert again.status_code == 409 and host.arrivals["client-blue"] == 1


def test_a_kill_while_a_request_waits_inline_for_approval_keeps_the_approval_answerable(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    tools = host.tools(host_url, create_item={"approval": {"mode": "inline"}})
    service.execute_in_background("tools.create_item(title='inline-wait')['title']", tools,
                                  approval_wait_ms=60_000)
    deadline = time.monotonic() + 20
    while not (listed := service.http.get("/v1/approvals").json()["approvals"]):
        assert time.monotonic() < deadline, "the inline approval was never requested"
        time.sleep(0.05)
    [approval] = listed
    execution_id = approval["execution_id"]
    assert execution_row(service.db, execution_id)[0] == "running"  # held, not parked

    service.kill()
    assert journal_states(service.db, execution_id) == [(0, "create_item", "pending")]
    service.start()
    listed = service.http.get("/v1/approvals").json()["approvals"]
    assert [a["approval_id"] for a in listed] == [approval["approval_id"]]
    decided = service.http.post(f"/v1/approvals/{approval['approval_id']}/approve",
                                json={"by": "operator"})
    assert decided.status_code == 200, decided.text
    record = service.wait_status(execution_id, ("completed", "error", "rejected", "dead_letter"))
    assert record["status"] == "completed" and record["result"] == "inline-wait", record
    assert host.arrivals["inline-wait"] == 1 and host.key_effects(f"{execution_id}:0") == 1


def test_a_kill_while_an_approved_call_runs_finishes_it_once_after_restart(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    body = service.execute("tools.create_item(title='approved-then-killed')['title']",
                           _gated_tools(host, host_url))
    assert body["status"] == "paused", body
    execution_id, approval_id = body["execution_id"], body["pending"][0]["approval_id"]
    host.hold("approved-then-killed", "after")
    service.post_in_background(f"/v1/approvals/{approval_id}/approve", {"by": "operator"})
    host.wait_held()
    service.kill()
    host.release.set()

    service.start()
    record = service.wait_status(execution_id, ("completed", "error", "rejected", "dead_letter"))
    assert record["status"] == "completed" and record["result"] == "approved-then-killed"
    assert host.arrivals["approved-then-killed"] == 2  # the killed call and its retry, one key
    assert host.key_effects(f"{execution_id}:0") == 1
    approved = service.http.get("/v1/approvals", params={"status": "approved"}).json()
    assert [(a["decided_by"], a["reason"]) for a in approved["approvals"]
            if a["approval_id"] == approval_id] == [("local", "by operator")]


def test_an_approval_that_expired_across_a_restart_is_refused_and_audited(
        services: Callable[..., Service], host: GatedHost, host_url: str,
        tmp_path: Path) -> None:
    service = services().start()
    body = service.execute("tools.create_item(title='too-late')['title']",
                           _gated_tools(host, host_url))
    assert body["status"] == "paused", body
    execution_id, approval_id = body["execution_id"], body["pending"][0]["approval_id"]
    service.kill()

    service = services(tmp_path / "data", SANDBOX_PAUSED_TTL_S="0").start()
    record = service.wait_status(execution_id, ("rejected", "completed", "error"))
    assert record["status"] == "rejected"
    assert record["error"]["message"] == "Expired awaiting approval"
    late = service.http.post(f"/v1/approvals/{approval_id}/approve", json={"by": "operator"})
    assert late.status_code == 409 and "expired" in late.json()["error"]["message"]
    expired = service.http.get("/v1/approvals", params={"status": "expired"}).json()
    [audit] = [a for a in expired["approvals"] if a["approval_id"] == approval_id]
    assert audit["decided_by"] == "sweep" and audit["decided_at"] is not None
    assert "too-late" not in host.arrivals


def test_a_decision_committed_just_before_a_kill_still_resumes_its_execution(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    paused = service.execute("tools.create_item(title='decided-then-killed')['title']",
                             _gated_tools(host, host_url))
    assert paused["status"] == "paused", paused
    approval_id = paused["pending"][0]["approval_id"]
    tools = [*host.tools(host_url),
             {"name": "ask_user", "description": "Answered by the agent host.",
              "input_schema": {"type": "object"}}]
    waiting = service.execute("tools.create_item(title='told-' + tools.ask_user())['title']",
                              tools)
    assert waiting["status"] == "awaiting_tool", waiting
    service.kill()
    assert _write(service.db, "UPDATE codemode_approvals SET status = 'approved', "
                  "decided_by = 'operator', decided_at = ? WHERE id = ?",
                  (time.time(), approval_id)) == 1
    assert _write(service.db, "UPDATE codemode_journal SET state = 'applied', result = ? "
                  "WHERE execution_id = ? AND seq = 0",
                  ('"then-killed"', waiting["execution_id"])) == 1

    service.start()
    service.http.post("/v1/executions/sweep")
    if service.execution(paused["execution_id"])["status"] == "paused":
        service.http.post(f"/v1/approvals/{approval_id}/approve", json={"by": "operator"})
    if service.execution(waiting["execution_id"])["status"] == "awaiting_tool":
        service.http.post(f"/v1/executions/{waiting['execution_id']}/calls/0/result",
                          json={"output": "then-killed"})
    for body, result, seq in ((paused, "decided-then-killed", 0),
                              (waiting, "told-then-killed", 1)):
        record = service.wait_status(body["execution_id"], ("completed", "rejected", "error"),
                                     timeout=3)
        assert record["status"] == "completed" and record["result"] == result
        assert host.key_effects(f"{body['execution_id']}:{seq}") == 1


# --- racing decisions ---------------------------------------------------------------------


def test_of_twenty_racing_decisions_exactly_one_wins_and_only_an_approval_acts(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    tools = _gated_tools(host, host_url)
    winners = []
    # A reject does less work before its compare-and-set than an approve, so released
    # together the rejecters nearly always win; a head start lets the ten approvers race
    # each other (a decision delivered many times at once) and win.
    head_starts = {"together": (0.0, 0.0), "approvers first": (0.0, 0.3),
                   "rejecters first": (0.3, 0.0)}
    for round_, (approve_delay, reject_delay) in enumerate(head_starts.values()):
        body = service.execute(f"tools.create_item(title='race-{round_}')['title']", tools)
        assert body["status"] == "paused", body
        execution_id, approval_id = body["execution_id"], body["pending"][0]["approval_id"]
        barrier = threading.Barrier(20)

        def decide(n: int) -> tuple[str, int, dict[str, Any]]:
            approving = n % 2 == 0
            verb, who = ("approve", f"approver-{n}") if approving else ("reject", f"rejecter-{n}")
            with httpx.Client(base_url=str(service.http.base_url), timeout=60) as client:
                barrier.wait(timeout=30)
                time.sleep(approve_delay if approving else reject_delay)
                response = client.post(f"/v1/approvals/{approval_id}/{verb}", json={"by": who})
            return who, response.status_code, dict(response.json())

        with ThreadPoolExecutor(max_workers=20) as pool:
            results = list(pool.map(decide, range(20)))
        won = [(who, payload) for who, code, payload in results if code == 200]
        assert len(won) == 1, results
        assert sorted(code for _, code, _ in results) == [200] + [409] * 19, results
        winner, outcome = won[0]
        approved = winner.startswith("approver")
        winners.append("approve" if approved else "reject")
        assert all(payload["error"]["code"] == "conflict" for _, code, payload in results
                   if code == 409)

        status = "approved" if approved else "rejected"
        decided = [a for a in service.http.get("/v1/approvals", params={"status": status})
                   .json()["approvals"] if a["approval_id"] == approval_id]
        # Each racer's "by" is a note; the identity is the (local) token holder's.
        assert len(decided) == 1 and decided[0]["decided_by"] == "local"
        assert decided[0]["reason"] == f"by {winner}"
        record = service.execution(execution_id)
        assert record["status"] == ("completed" if approved else "rejected")
        assert outcome["status"] == record["status"]
        assert host.key_effects(f"{execution_id}:0") == (1 if approved else 0)
        assert host.arrivals.get(f"race-{round_}", 0) == (1 if approved else 0)
    assert set(winners) == {"approve", "reject"}, dict(zip(head_starts, winners))


# --- kills in the middle of many SQLite writes --------------------------------------------


def test_a_kill_during_a_storm_of_journal_writes_leaves_sqlite_intact_and_every_run_finishes(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    code = ("for i in range(150):\n"
            "    state.write_file(f'/run{n}/{i}.txt', str(i) * 50)\n"
            "len(state.list_dir(f'/run{n}'))")
    for n in range(3):
        service.execute_in_background(f"n = {n}\n{code}", host.tools(host_url))
    deadline = time.monotonic() + 20
    while len(query(service.db, "SELECT 1 FROM codemode_executions")) < 3 or \
            len(query(service.db, "SELECT 1 FROM codemode_journal")) < 60:
        assert time.monotonic() < deadline, "the executions never started writing"
        time.sleep(0.02)

    service.kill()  # checks PRAGMA integrity_check
    rows = query(service.db, "SELECT id, status FROM codemode_executions")
    assert len(rows) == 3 and any(status == "running" for _, status in rows)
    for execution_id, _ in rows:  # no half-written entry: every row has a known state
        states = {state for _, _, state in journal_states(service.db, execution_id)}
        assert states <= {"applied", "executing"}, states

    service.start()
    for execution_id, _ in rows:
        record = service.wait_status(execution_id, ("completed", "error", "dead_letter"))
        assert record["status"] == "completed", record.get("error")
        assert record["result"] == 150


def test_repeated_kills_during_workspace_appends_never_repeat_or_lose_an_append(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    service = services().start()
    appends = 200
    for n in range(3):
        service.execute_in_background(
            f"for i in range({appends}):\n    state.append_file('/log{n}.txt', f'{{i}},')\n"
            f"state.read_file('/log{n}.txt')", host.tools(host_url))
    deadline = time.monotonic() + 20
    while len(query(service.db, "SELECT 1 FROM codemode_executions")) < 3:
        assert time.monotonic() < deadline, "the executions were never recorded"
        time.sleep(0.02)
    written = 0
    for _ in range(4):  # kill while running, and again while recovering, and again...
        written += 45
        deadline = time.monotonic() + 30
        while len(query(service.db, "SELECT 1 FROM codemode_journal")) < written:
            assert time.monotonic() < deadline, f"the appends stalled\n{service.log()}"
            time.sleep(0.01)
        service.kill()
        service.start()
    expected = "".join(f"{i}," for i in range(appends))
    rows = query(service.db, "SELECT id FROM codemode_executions")
    assert len(rows) == 3
    for (execution_id,) in rows:
        record = service.wait_status(execution_id, ("completed", "error", "dead_letter"))
        assert record["status"] == "completed", record.get("error")
        assert record["result"] == expected, (len(record["result"]), len(expected))


# --- a poison execution -------------------------------------------------------------------


@dataclass
class Poisoned:
    service: Service
    execution_id: str
    tool_arrivals: int
    """Requests for the step after the unreadable one, counted once it was dead-lettered."""


@pytest.fixture(scope="module")
def poisoned(module_database_url: str | None, host_server: tuple[GatedHost, str],
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Poisoned]:
    """An execution whose recorded step 0 was made unreadable while the service was down,
    swept until it is dead-lettered (periodic sweeps off: only ``POST .../sweep`` retries),
    on each backend in turn."""
    host, url = host_server
    service = Service(tmp_path_factory.mktemp("poison") / "data", {"SANDBOX_SWEEP_INTERVAL_S": "0"},
                      module_database_url)
    try:
        service.start()
        host.release.set()
        host.arrivals.clear()  # the host serves the module: the other backend's run counted too
        host.hold("poison-2", "drop")
        service.execute_in_background(
            "tools.create_item(title='poison-1')\ntools.create_item(title='poison-2')",
            host.tools(url))
        execution_id = host.wait_held()["execution_id"]
        service.kill()
        host.release.set()
        # Every resume now fails reading the journal.
        assert _write(service.db, "UPDATE codemode_journal SET result = '{not json' "
                      "WHERE execution_id = ? AND seq = 0", (execution_id,)) == 1
        assert execution_row(service.db, execution_id)[0] == "running"

        service.start()
        sweeps = 0
        while execution_row(service.db, execution_id)[0] == "running":
            assert sweeps < 100, f"never dead-lettered: {execution_row(service.db, execution_id)}"
            response = service.http.post("/v1/executions/sweep")
            assert response.status_code == 200, response.text
            sweeps += 1
            time.sleep(0.05)
        yield Poisoned(service, execution_id, host.arrivals["poison-2"])
    finally:
        service.stop()


def test_an_execution_that_fails_every_recovery_is_dead_lettered_and_the_service_stays_up(
        poisoned: Poisoned) -> None:
    service, execution_id = poisoned.service, poisoned.execution_id
    status, _, attempts = execution_row(service.db, execution_id)
    assert status == "dead_letter" and attempts == 5
    listed = service.http.get("/v1/executions", params={"status": "dead_letter"})
    assert listed.status_code == 200, listed.text
    [record] = [e for e in listed.json()["executions"] if e["id"] == execution_id]
    assert record["error"]["name"] == "DeadLetter" and "5 attempts" in record["error"]["message"]
    assert poisoned.tool_arrivals == 1  # no resume got far enough to call the tool again
    health = service.http.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert service.execute("6 * 7", [])["result"] == 42
    more = service.http.post("/v1/executions/sweep").json()  # a dead letter stays put
    assert execution_id not in more["recovered"] + more["dead_letter"]


def test_a_dead_lettered_execution_can_still_be_inspected(poisoned: Poisoned) -> None:
    base = str(poisoned.service.http.base_url)
    with httpx.Client(base_url=base, timeout=30) as client:  # a 500 drops the connection
        response = client.get(f"/v1/executions/{poisoned.execution_id}")
    assert response.status_code < 500, response.text
    body = response.json()
    if response.status_code == 200:
        assert body["status"] == "dead_letter"
    else:
        assert body["error"]["message"]


# --- two processes, one abandoned execution -----------------------------------------------


def test_two_services_recovering_one_abandoned_execution_run_it_once(
        services: Callable[..., Service], host: GatedHost, host_url: str) -> None:
    first = services().start()
    host.hold("twin", "drop")
    first.execute_in_background("tools.create_item(title='twin')['title']", host.tools(host_url))
    execution_id = host.wait_held()["execution_id"]
    first.kill()
    host.release.set()

    host.hold("twin", "delay")  # the recovered call waits, so both processes look at it
    left, right = services(), services()
    left.launch()
    right.launch()
    left.wait_ready()
    right.wait_ready()
    host.wait_held()
    status, owner, attempts = execution_row(left.db, execution_id)
    assert status == "running" and attempts == 2  # the start and exactly one recovery
    assert owner is not None and sum(f":{s.pid}:" in owner for s in (left, right)) == 1

    def sweep(service: Service) -> list[str]:
        body = service.http.post("/v1/executions/sweep").json()
        return list(body["recovered"]) + list(body["dead_letter"]) + list(body["expired_running"])

    with ThreadPoolExecutor(max_workers=4) as pool:
        taken = list(pool.map(sweep, [left, right] * 5))
    assert taken == [[]] * 10  # a live owner's execution is never taken over
    host.release.set()

    record = left.wait_status(execution_id, ("completed", "error", "dead_letter"))
    assert record["status"] == "completed" and record["result"] == "twin"
    assert host.arrivals["twin"] == 2  # the dropped attempt and exactly one recovery
    assert host.key_effects(f"{execution_id}:0") == 1
    assert [e["state"] for e in record["journal"]] == ["applied"]


# --- a stale pending ledger row -----------------------------------------------------------


def test_a_stale_pending_ledger_row_survives_kill_and_restart_and_is_reclaimed_once(
        services: Callable[..., Service], host: GatedHost, host_url: str,
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    tools = host.tools(host_url, create_item={"idempotency_key": "item:{title}"})
    key = "action:create_item:item:leased"

    def ledger_row() -> list[tuple[Any, ...]]:
        return query(service.db,
                     "SELECT status, execution_id FROM codemode_ledger WHERE key = ?", (key,))

    no_lease = {"SANDBOX_RECOVER_RUNNING": "0", "SANDBOX_LEDGER_LEASE_MS": "off"}
    service = services(data, **no_lease).start()
    host.hold("leased", "drop")
    service.execute_in_background("tools.create_item(title='leased')", tools)
    abandoned = host.wait_held()["execution_id"]
    service.kill()
    host.release.set()
    assert ledger_row() == [("pending", abandoned)]

    service = services(data, **no_lease).start()  # not recovered: reported by the sweep
    record = service.wait_status(abandoned, ("error",))
    assert record["error"]["message"] == "Expired while running"
    assert ledger_row() == [("pending", abandoned)]
    attempt = ("try:\n    r = tools.create_item(title='leased')\n"
               "except ToolError as e:\n    r = e.name\nr")
    blocked = service.execute(attempt, tools)
    assert blocked["result"] == "ActionPendingError"  # no lease: never reclaimed
    assert host.arrivals["leased"] == 1
    service.kill()
    assert ledger_row() == [("pending", abandoned)]

    service = services(data, SANDBOX_RECOVER_RUNNING="0", SANDBOX_LEDGER_LEASE_MS="1").start()
    reclaimed = service.execute(attempt, tools)
    assert reclaimed["status"] == "completed" and reclaimed["result"]["title"] == "leased"
    assert host.arrivals["leased"] == 2 and host.key_effects("item:leased") == 1
    assert ledger_row() == [("settled", reclaimed["execution_id"])]
    again = service.execute(attempt, tools)  # settled: replayed, the tool is not called
    assert again["result"] == reclaimed["result"] and host.arrivals["leased"] == 2


# --- the knobs these tests turn -----------------------------------------------------------


def test_serve_reads_the_durable_knobs_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sandbox.cli.serve import serve_settings
    from sandbox.cli import build_parser
    from sandbox.service import durable_overrides_from_env

    knobs = {"SANDBOX_PAUSED_TTL_S": "90", "SANDBOX_LEASE_MARGIN_S": "0.5",
             "SANDBOX_MAX_ATTEMPTS": "3", "SANDBOX_RECOVER_RUNNING": "off",
             "SANDBOX_LEDGER_LEASE_MS": "1500", "SANDBOX_SWEEP_INTERVAL_S": "0",
             "SANDBOX_ALWAYS_REPLAY": "1", "SANDBOX_POLL_MS": "0"}
    for name, value in knobs.items():
        monkeypatch.setenv(name, value)
    settings = serve_settings(build_parser().parse_args(
        ["serve", "--data-dir", str(tmp_path), "--workers", "2"]))
    durable = settings.durable
    assert (durable.paused_ttl_s, durable.lease_margin_s, durable.max_attempts) == (90.0, 0.5, 3)
    assert (durable.recover_running, durable.ledger_lease_ms) == (False, 1500)
    assert durable.always_replay is True and settings.sweep_interval_s == 0.0
    assert durable.poll_ms == 0.0
    assert settings.data_dir == tmp_path and settings.workers == 2
    monkeypatch.setenv("SANDBOX_LEDGER_LEASE_MS", "off")
    assert durable_overrides_from_env()[0]["ledger_lease_ms"] is None
    for name in knobs:
        monkeypatch.delenv(name)
    assert durable_overrides_from_env() == ({}, None)
    defaults = serve_settings(build_parser().parse_args(["serve", "--data-dir", str(tmp_path)]))
    assert defaults.sweep_interval_s == 60.0 and defaults.durable.max_attempts == 5
    assert defaults.durable.poll_ms == 1.0


@pytest.mark.parametrize("name, value", [
    ("SANDBOX_MAX_ATTEMPTS", "many"), ("SANDBOX_MAX_ATTEMPTS", "0"),
    ("SANDBOX_SWEEP_INTERVAL_S", "-1"), ("SANDBOX_PAUSED_TTL_S", "nan"),
    ("SANDBOX_RECOVER_RUNNING", "maybe"), ("SANDBOX_LEDGER_LEASE_MS", "1.5"),
    ("SANDBOX_POLL_MS", "-1")])
def test_a_bad_durable_knob_is_named_in_a_clear_error(
        monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    from sandbox.service import ConfigError, durable_overrides_from_env

    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=name):
        durable_overrides_from_env()


def test_serve_refuses_to_start_with_a_bad_knob(tmp_path: Path) -> None:
    env = {**os.environ, "SANDBOX_MAX_ATTEMPTS": "lots"}
    done = subprocess.run(
        [sys.executable, "-m", "sandbox.cli", "serve", "--data-dir", str(tmp_path),
         "--port", str(free_port())], cwd=REPO, env=env, capture_output=True, text=True,
        timeout=60)
    assert done.returncode == 2
    assert "SANDBOX_MAX_ATTEMPTS='lots' is not an integer" in done.stderr
