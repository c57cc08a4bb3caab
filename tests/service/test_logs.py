"""The service's logs: ``--log-format json`` writes one JSON object a line, and every line
written while a request is served names that request's id."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from live_server import free_port
from sandbox import CompiledGuest
from sandbox.service.logs import JsonFormatter, RequestIdFilter
from sandbox.service.requests import reset_request_id, set_request_id


def _record(message: str) -> logging.LogRecord:
    record = logging.LogRecord("sandbox.test", logging.WARNING, __file__, 1, message, (), None)
    RequestIdFilter().filter(record)
    return record


def test_a_json_line_has_time_level_logger_message_and_request_id() -> None:
    token = set_request_id("req_abc")
    try:
        line = json.loads(JsonFormatter().format(_record("hello")))
    finally:
        reset_request_id(token)
    assert line["message"] == "hello" and line["request_id"] == "req_abc"
    assert line["level"] == "warning" and line["logger"] == "sandbox.test"
    assert line["time"].endswith("Z")
    outside = json.loads(JsonFormatter().format(_record("idle")))
    assert outside["request_id"] == "-"


def test_serve_with_json_logs_names_each_request(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "SANDBOX_CACHE_DIR": str(compiled_guest.path.parent)}
    server = subprocess.Popen(
        [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir",
         str(tmp_path), "--workers", "1", "--log-format", "json"],
        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{url}/healthz", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.2)
        r = httpx.get(f"{url}/v1/executions/exec_missing", headers={"X-Request-Id": "trace-7"})
        assert r.status_code == 404
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=60)
    lines = [json.loads(line) for line in stderr.splitlines()]  # every line is JSON
    assert lines, stderr
    assert all({"time", "level", "logger", "message", "request_id"} <= set(line) for line in lines)
    mine = [line for line in lines if line["request_id"] == "trace-7"]
    assert any("/v1/executions/exec_missing" in line["message"] for line in mine), lines
