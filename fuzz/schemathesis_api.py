"""Target ``schemathesis``: the real service (``sandbox serve`` on a temporary data directory,
with ``SANDBOX_TOKEN`` set) fuzzed from its own OpenAPI document by schemathesis, every
operation, authenticated, ``--checks all`` (no server error; documented statuses, content
types and bodies; schema-valid data accepted, schema-violating data refused), for a time
budget; first, every ``/v1`` operation (and ``/mcp``) is sent once without the token and must
answer 401.

A finding: any failed check. The report (with schemathesis's ``curl`` reproductions) is
saved as ``schemathesis-<seed>.txt`` in the crashes directory; ``--replay`` on that file
runs schemathesis again with the same seed against a fresh service.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator
from contextlib import contextmanager

import httpx

from ._harness import ROOT

CONFIG = ROOT / "tests" / "service" / "schemathesis.toml"
BIN = Path(sys.executable).parent
START_S = 180.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def service(token: str) -> Iterator[str]:
    """The real service on a free port with a fresh data directory; yields its URL."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="fuzz-service-") as data:
        env = dict(os.environ, SANDBOX_TOKEN=token)
        process = subprocess.Popen(
            [str(BIN / "sandbox"), "serve", "--port", str(port), "--data-dir", data,
             "--workers", "2", "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_S
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"fuzz schemathesis: the service did not start ({url})")
                try:
                    if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


GUARDED_OUTSIDE_SCHEMA = (("post", "/mcp"), ("get", "/mcp"))
"""Routes behind the token that the OpenAPI document does not list (the MCP server)."""


def unauthenticated_problems(url: str) -> list[str]:
    """Every ``/v1`` operation of the OpenAPI document (and ``/mcp``), sent without the
    token: each answer that is not a 401."""
    document = httpx.get(f"{url}/openapi.json", timeout=30).json()
    operations = [(method, path) for path, methods in document["paths"].items()
                  if path.startswith("/v1") for method in methods]
    problems = []
    for method, path in [*operations, *GUARDED_OUTSIDE_SCHEMA]:
        concrete = re.sub(r"\{[^}]+\}", "x", path)
        answer = httpx.request(method.upper(), url + concrete, json={}, timeout=60)
        if answer.status_code != 401:
            problems.append(f"{method.upper()} {path} without a token: {answer.status_code}")
    return problems


def _schemathesis(url: str, token: str, seconds: int, seed: int) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "st"), "--no-color", "--config-file", str(CONFIG), "run",
               f"{url}/openapi.json", "--checks", "all", "--max-time", str(seconds),
               "--seed", str(seed), "--workers", "1", "--request-timeout", "60",
               "-H", f"Authorization: Bearer {token}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=seconds + 600)


def _fuzz(seconds: int, seed: int) -> tuple[bool, str]:
    token = secrets.token_hex(16)
    with service(token) as url:
        problems = unauthenticated_problems(url)
        done = _schemathesis(url, token, seconds, seed)
    report = done.stdout.replace(token, "<token>") + done.stderr.replace(token, "<token>")
    if "API Operations" not in done.stdout:
        problems.append("schemathesis did not run")
    ok = done.returncode == 0 and not problems
    return ok, f"seed: {seed}\n" + "".join(p + "\n" for p in problems) + report


def run(seconds: int, crashes: Path, seed: int | None = None) -> int:
    """Fuzz the service for ``seconds``; 0 when every check passed, 1 with a saved report."""
    seed = seed if seed is not None else secrets.randbelow(2**31)
    ok, report = _fuzz(seconds, seed)
    print(report[-6000:])
    if ok:
        return 0
    crashes.mkdir(parents=True, exist_ok=True)
    saved = crashes / f"schemathesis-{seed}.txt"
    saved.write_text(report, encoding="utf-8")
    print(f"fuzz schemathesis: findings saved to {saved}", file=sys.stderr)
    return 1


def rerun(path: Path, seconds: int) -> int:
    """Run schemathesis again with the seed of a saved report."""
    match = re.match(r"seed: (\d+)", path.read_text(encoding="utf-8"))
    if match is None:
        raise SystemExit(f"{path} is not a saved schemathesis report")
    ok, report = _fuzz(seconds, int(match.group(1)))
    print(report[-6000:])
    return 0 if ok else 1
