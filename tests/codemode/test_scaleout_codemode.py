"""Code Mode across two real ``sandbox serve`` processes on one PostgreSQL database: an
execution parked on one is approved through either, the first decision wins when both are
asked at once, the side effect happens exactly once, and watchers of its event stream on
both processes see it finish (one of them through ``LISTEN/NOTIFY``)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from agent_host import AgentHost, ServerThread
from sandbox.engine import CompiledGuest
from service_processes import OPERATOR, ServiceProcess, services, shared_environment

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

FINAL = {"completed", "error", "rejected", "cancelled", "rolled_back", "dead_letter"}


class Watcher(threading.Thread):
    """Reads one execution's SSE stream from one process until a final outcome."""

    def __init__(self, service: ServiceProcess, execution_id: str) -> None:
        super().__init__(daemon=True)
        self.url = f"{service.url}/v1/executions/{execution_id}/events"
        self.names: list[str] = []
        self.connected = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=60,
                              headers={"Authorization": f"Bearer {OPERATOR}"}) as response:
                for line in response.iter_lines():
                    if not line.startswith("event: "):
                        continue
                    self.names.append(line.removeprefix("event: "))
                    self.connected.set()
                    if self.names[-1] in FINAL:
                        return
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.connected.set()


def test_an_execution_parked_on_one_process_is_approved_on_the_other_and_completes_once(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    del compiled_guest  # compiled into the shared cache before the processes start
    secret = shared_environment(postgres_url, tmp_path)["SANDBOX_INLINE_TOOL_SECRET"]
    host = AgentHost([secret])
    with ServerThread(host) as endpoint, services(2, postgres_url, tmp_path) as (a, b):
        tools = host.tools(endpoint.url, create_item={"approval": {"mode": "durable"}})
        with a.client() as on_a, b.client() as on_b:
            parked = on_a.post("/v1/execute", json={
                "code": "tools.create_item(title='once')", "tools": tools}).json()
            assert parked["status"] == "paused", parked
            execution, approval = parked["execution_id"], parked["pending"][0]["approval_id"]
            assert host.effect_count() == 0
            assert approval in [p["approval_id"] for p in on_b.get("/v1/approvals").json()["approvals"]]

            watchers = [Watcher(a, execution), Watcher(b, execution)]
            for watcher in watchers:
                watcher.start()
                assert watcher.connected.wait(60) and watcher.error is None, watcher.error
            # Both processes are asked at once: the first decision wins, the other is told.
            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda c: c.post(f"/v1/approvals/{approval}/approve", json={}),
                                        (on_b, on_a)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [(r.status_code, r.text) for r in answers]
            won = next(r for r in answers if r.status_code == 200).json()
            assert won["status"] == "completed", won
            for client in (on_a, on_b):
                assert client.get(f"/v1/executions/{execution}").json()["status"] == "completed"
            for watcher in watchers:
                watcher.join(60)
                assert not watcher.is_alive() and watcher.error is None, watcher.error
                assert watcher.names[-1] == "completed", watcher.names
    assert host.effect_count() == 1


def test_one_idempotency_key_called_through_both_processes_at_once_runs_its_action_once(
    postgres_url: str, compiled_guest: CompiledGuest, tmp_path: Path,
) -> None:
    # In one process concurrent calls with a key take turns (KeyLocks); across processes
    # only the ledger row tells them apart: the second claim meets the first one's pending
    # row (ActionPendingError) or, once it is settled, replays its result. Either way the
    # tool endpoint is called once.
    del compiled_guest
    secret = shared_environment(postgres_url, tmp_path)["SANDBOX_INLINE_TOOL_SECRET"]
    host = AgentHost([secret])
    with ServerThread(host) as endpoint, services(2, postgres_url, tmp_path) as (a, b):
        tools = host.tools(endpoint.url, slow={"idempotency_key": "nap-{seconds}"})
        request = {"code": "tools.slow(seconds=1.5)", "tools": tools}
        with a.client() as on_a, b.client() as on_b, ThreadPoolExecutor(2) as pool:
            outcomes = [r.json() for r in pool.map(lambda c: c.post("/v1/execute", json=request),
                                                   (on_a, on_b))]
            again = on_b.post("/v1/execute", json=request).json()
    deliveries = [c for c in host.calls if c.get("tool") == "slow"]
    assert len(deliveries) == 1, deliveries
    done = [o for o in outcomes if o["status"] == "completed"]
    assert done and all(o["result"] == "slept" for o in done), outcomes
    for other in (o for o in outcomes if o["status"] != "completed"):
        assert other["status"] == "error" and other["error"]["name"] == "ActionPendingError", other
    assert again["status"] == "completed" and again["result"] == "slept", again  # replayed
