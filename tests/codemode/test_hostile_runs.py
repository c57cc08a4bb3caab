"""A run the guest sabotages ends as ``error`` in the driver: never ``running``, never a
crash of the request, and the sweep never runs the same code again (issue 12, findings 3
and 4). Real isolates through ``CodeMode``; the sweep is asked as if hours had passed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from codemode import CodeMode
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app

from live_server import ServerThread

FORGED_ENVELOPE = "import sys\nsys.modules['pyexec']._encode = lambda outcome: 'not json'\n1"
FORGED_LOGS = ("import sys\nsys.modules['pyexec']._encode = lambda outcome: "
               "'{\"status\": \"completed\", \"result\": 1, \"logs\": [\"' + 'x' * 5_000_000 + '\"]}'\n1")
NESTED_CALL = "from wit_world.imports import host\nhost.call('tool', '[' * 100000)"
DEEP_STATE_CALL = "x = []\nfor _ in range(500):\n    x = [x]\nstate.write_json('/deep.json', x)"


async def _ends_as_error_and_stays_ended(cm: CodeMode, outcome: dict[str, Any]) -> None:
    assert outcome["status"] == "error", outcome
    record = await cm.executions.store.get_execution(outcome["execution_id"], with_journal=False)
    assert record is not None and record.status == "error"
    swept = await cm.executions.sweep(at=time.time() + 10 * 24 * 3600)
    await cm.executions.wait_background()
    assert outcome["execution_id"] not in swept["recovered"] + swept["dead_letter"]
    again = await cm.executions.store.get_execution(outcome["execution_id"], with_journal=False)
    assert again is not None and (again.status, again.attempts) == ("error", record.attempts)


async def test_replacing_json_dumps_cannot_touch_the_envelope(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    # The finding's own program: it gave a 500 and left the execution running.
    code = "import json\njson.dumps = lambda *a, **k: 'not json'\nprint('hi')\n7"
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(code)
        assert (outcome["status"], outcome["result"], outcome["logs"]) == ("completed", 7, ["hi"])
        record = await cm.executions.store.get_execution(outcome["execution_id"], with_journal=False)
        assert record is not None and record.status == "completed"


@pytest.mark.parametrize("code, kind", [(FORGED_ENVELOPE, "protocol"), (FORGED_LOGS, "output")])
async def test_a_forged_envelope_ends_the_execution_as_error(
        compiled_guest: CompiledGuest, tmp_path: Path, code: str, kind: str) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(code, limits=cm.limits.replace(output_bytes=100))
        assert outcome["trap"]["kind"] == kind
        assert sum(len(line) for line in outcome["logs"]) <= 100
        await _ends_as_error_and_stays_ended(cm, outcome)
        assert (await cm.execute("1 + 1"))["result"] == 2


async def test_a_deeply_nested_host_call_ends_as_the_guests_error(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(NESTED_CALL)
        assert "deeper than" in outcome["error"]["message"]
        assert outcome["calls"] == []
        await _ends_as_error_and_stays_ended(cm, outcome)


async def test_a_too_deep_state_argument_is_a_value_error_in_the_guest(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(DEEP_STATE_CALL)
        assert outcome["error"]["name"] == "ValueError", outcome
        await _ends_as_error_and_stays_ended(cm, outcome)


@pytest.mark.parametrize("payload", [
    '{"method": "write_file", "args": [{"$bytes": "!!!"}, "x"], "kwargs": {}}',
    '{"method": "write_file", "args": [{"$bytes": "\u00e9"}, "x"], "kwargs": {}}',
])
async def test_bytes_that_are_not_base64_are_the_guests_value_error(
        compiled_guest: CompiledGuest, tmp_path: Path, payload: str,
        caplog: pytest.LogCaptureFixture) -> None:
    code = ("from wit_world.imports import host\nfrom componentize_py_types import Err\n"
            f"try:\n    host.call('state', {payload!r})\nexcept Err as err:\n    answer = err.value\n"
            "answer")
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute(code)
        assert outcome["status"] == "completed", outcome
        assert '"ValueError"' in outcome["result"] and "not base64" in outcome["result"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # a typed answer, no handler bug


async def test_a_run_that_fails_inside_the_service_is_not_left_running(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RecursionError("maximum recursion depth exceeded")

        monkeypatch.setattr(cm.executions.sandbox, "execute", broken)
        outcome = await cm.execute("1 + 1")
        assert outcome["trap"]["kind"] == "crash" and "RecursionError" in outcome["error"]["message"]
        monkeypatch.undo()
        await _ends_as_error_and_stays_ended(cm, outcome)


# --- over HTTP: the findings as reported (a 500 and a `running` execution) ------------------

@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("hostile"), workers=1,
                        guest=compiled_guest, sweep_interval_s=0)
    with ServerThread(create_app(settings)) as live, \
            httpx.Client(base_url=live.url, timeout=120) as http:
        yield http


@pytest.mark.parametrize("code, max_output_bytes", [
    ("import json\njson.dumps = lambda *a, **k: 'not json'\n1", 1_000_000),
    (FORGED_ENVELOPE, 1_000_000),
    (FORGED_LOGS, 100),
    (NESTED_CALL, 1_000_000),
])
def test_a_hostile_run_over_http_is_an_answer_and_a_finished_execution(
        client: httpx.Client, code: str, max_output_bytes: int) -> None:
    response = client.post("/v1/execute", json={"code": code, "max_output_bytes": max_output_bytes})
    assert response.status_code == 200, response.text
    body = response.json()
    assert sum(len(line) for line in body["logs"]) <= max_output_bytes
    record = client.get(f"/v1/executions/{body['execution_id']}").json()
    assert record["status"] == body["status"] and record["status"] in ("completed", "error")
    swept = client.post("/v1/executions/sweep", json={"recover_running": True}).json()
    assert body["execution_id"] not in swept["recovered"] + swept["dead_letter"]
