"""Hostile workspace work against the live service (issue 12): each test runs a finding's own
program over real HTTP and checks it is contained: a clear result, never a 500, and
``/healthz`` answered meanwhile.

"Answered meanwhile" is measured, not assumed: another process polls ``/healthz`` for as long
as the hostile request runs and the slowest answer must stay under ``STALL_BOUND_S``. The
issue asks for 50 ms; the bound allows for a loaded 2-core machine shared with other test
runs (load 11 seen: one answer took 0.6 s, medians stay near 2 ms), and each hostile program
is one that, unfixed, held the event loop for hours (exponential in its size), so the bound
still tells the two apart.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from live_server import ServerThread
from sandbox.engine import CompiledGuest
from sandbox.service import Settings, create_app
from sandbox.service.settings import QUOTA_VARIABLES, ConfigError, quotas_from_env
from workspace import Quotas
from workspace.entries import MAX_DIR_DEPTH
from workspace.snapshot import default_materialise_root

STALL_BOUND_S = 2.0


@pytest.fixture(scope="module")
def client(compiled_guest: CompiledGuest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), workers=2, guest=compiled_guest)
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url, timeout=120) as http:
        yield http


# The probe runs in a process of its own: the service runs in a thread of the test's process,
# and Python's re held the GIL, which froze a probe thread together with the service (its
# timer too), hiding the very stall it was there to see.
_PROBE = """
import json, sys, time, httpx
latencies, failures = [], []
with httpx.Client(base_url=sys.argv[1], timeout=120) as http:
    print("ready", flush=True)
    while True:
        started = time.perf_counter()
        try:
            status = http.get("/healthz").status_code
        except httpx.HTTPError as exc:
            failures.append(repr(exc))
            break
        latencies.append(time.perf_counter() - started)
        if status != 200:
            failures.append(status)
        if open(sys.argv[2]).read():
            break
        time.sleep(0.01)
print(json.dumps({"latencies": latencies, "failures": failures}), flush=True)
"""


@dataclass
class ProbeReport:
    latencies: list[float]
    failures: list[Any]

    @property
    def slowest(self) -> float:
        return max(self.latencies)


def while_probing(client: httpx.Client, hostile: Callable[[], httpx.Response],
                  tmp_path: Path) -> tuple[httpx.Response, ProbeReport]:
    """Run ``hostile`` while another process polls ``/healthz``; the response and the poll."""
    stop = tmp_path / f"stop-{time.monotonic_ns()}"
    stop.write_text("")
    probe = subprocess.Popen([sys.executable, "-c", _PROBE, str(client.base_url), str(stop)],
                             stdout=subprocess.PIPE, text=True)
    assert probe.stdout is not None and probe.stdout.readline().strip() == "ready"
    time.sleep(0.1)  # the probe is polling before the hostile request starts
    try:
        response = hostile()
    finally:
        time.sleep(0.05)
        stop.write_text("stop")
        out, _ = probe.communicate(timeout=120)
    report = ProbeReport(**json.loads(out.strip().splitlines()[-1]))
    assert not report.failures, report.failures
    assert len(report.latencies) >= 2, report.latencies
    return response, report


def execute(client: httpx.Client, code: str, **extra: Any) -> httpx.Response:
    return client.post("/v1/execute", json={"code": code, "workspace": "hostile", **extra})


def test_catastrophic_regex_in_state_search_text_does_not_stall_the_service(client: httpx.Client, tmp_path: Path) -> None:
    # Unfixed, Python's re took 4.4 s at 26 characters, doubling per character: 40 is hours.
    code = ('state.write_file("/r.txt", "a" * 40 + "!")\n'
            'state.search_text("(a+)+$", regex=True)')
    response, probe = while_probing(client, lambda: execute(client, code), tmp_path)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "completed" and body["result"] == [], body
    assert probe.slowest < STALL_BOUND_S, probe.latencies


def test_catastrophic_regex_in_replace_in_files_and_grep_does_not_stall_the_service(client: httpx.Client, tmp_path: Path) -> None:
    code = ('state.write_file("/r.txt", "a" * 40 + "!")\n'
            'state.replace_in_files("(a+)+$", "x", regex=True)["total_files"]')
    response, probe = while_probing(client, lambda: execute(client, code), tmp_path)
    assert response.json()["result"] == 0, response.json()
    assert probe.slowest < STALL_BOUND_S, probe.latencies
    response, probe = while_probing(client, lambda: client.post(
        "/v1/workspaces/hostile/tools/grep", json={"query": "(a+)+$", "case_sensitive": True}), tmp_path)
    assert response.status_code == 200 and response.json()["total_matches"] == 0, response.json()
    assert probe.slowest < STALL_BOUND_S, probe.latencies


def test_glob_of_many_double_stars_over_a_deep_path_does_not_stall_the_service(client: httpx.Client, tmp_path: Path) -> None:
    # Ten '**' (the most a glob may have) over a 60-deep path: C(60, 10) ways to split it,
    # each tried by a backtracking matcher; RE2 walks the path once. The file's name ends
    # like the glob ("x"), so the SQL suffix filter lets it through to the matcher.
    deep = "/".join(["d"] * 60)
    code = (f'state.write_file("/{deep}/ax", "x")\n'
            'state.glob("/" + "**/" * 10 + "b*x")')
    response, probe = while_probing(client, lambda: execute(client, code), tmp_path)
    body = response.json()
    assert body["status"] == "completed" and body["result"] == [], body
    assert probe.slowest < STALL_BOUND_S, probe.latencies


def test_a_glob_past_the_double_star_bound_is_a_clear_error(client: httpx.Client) -> None:
    body = execute(client, 'state.glob("/" + "**/" * 11 + "x")').json()
    assert body["status"] == "error" and body["error"]["name"] == "OSError"
    assert "EFBIG: the glob has 11 '**' segments; the limit is 10" in body["error"]["message"]


def owned_trees() -> set[str]:
    """This process's materialised trees (the service runs in it); other runs' are not ours."""
    root = Path(default_materialise_root() or tempfile.gettempdir())
    return {p.name for p in root.glob(f"workspace-{os.getpid()}-*")}


def test_a_1200_deep_directory_from_bash_is_refused_and_its_tree_removed(client: httpx.Client) -> None:
    # Unfixed: cleanup's shutil.rmtree raised RecursionError, a 500, and the tree (20 MB in
    # /dev/shm) stayed for ever.
    before = owned_trees()
    script = 'mkdir -p $(printf "a/%.0s" {1..1200}); yes | head -c 20000000 > /tmp/big'
    response = client.post("/v1/bash", json={"script": script, "workspace": "deep"})
    assert response.status_code == 200, response.text
    body = response.json()
    # Refused while it runs when the tree watch sees it first (the script is stopped), else
    # refused at write-back: either way nothing that deep reaches the workspace.
    stopped = body["stderr"] == f"bash: directories nested deeper than {MAX_DIR_DEPTH} levels are refused; the script was stopped\n"
    refused = f"Refused directory nested deeper than {MAX_DIR_DEPTH} levels: /{'a/' * 39}a..." in body["errors"]
    assert stopped or refused, body
    assert owned_trees() == before
    info = client.get("/v1/workspaces/deep").json()
    assert info.get("directory_count", 1) <= MAX_DIR_DEPTH + 1


def test_service_start_up_sweeps_trees_of_dead_processes(
        compiled_guest: CompiledGuest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trees = tmp_path / "trees"
    trees.mkdir()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    left = trees / f"workspace-{child.pid}-abcd1234"
    (left / "a" / "b").mkdir(parents=True)
    (left / "a" / "b" / "big").write_bytes(b"y" * 1000)
    live = trees / f"workspace-{os.getpid()}-abcd1234"
    live.mkdir()
    monkeypatch.setenv("WORKSPACE_MATERIALISE_ROOT", str(trees))
    settings = Settings(data_dir=tmp_path / "data", workers=1, guest=compiled_guest)
    with ServerThread(create_app(settings)):
        assert sorted(p.name for p in trees.iterdir()) == [live.name]


def test_state_cp_past_the_call_quota_is_an_edquot_oserror_and_keeps_the_workspace(client: httpx.Client) -> None:
    # The finding: 16 state.cp of a 14 MB file grew a workspace to 230 MB in one execution.
    # (A host call's arguments are journaled, at most 1,000,000 characters: the 14 MB file is
    # appended in 500 KB pieces.)
    code = ('for _ in range(28):\n'
            '    state.append_file("/y", "y" * 500_000)\n'
            'done = 0\n'
            'try:\n'
            '    for i in range(16):\n'
            '        state.cp("/y", f"/y{i}")\n'
            '        done += 1\n'
            'except OSError as e:\n'
            '    error = str(e)\n'
            '[done, error]')
    body = execute(client, code, workspace="cp-quota").json()
    assert body["status"] == "completed", body
    done, error = body["result"]
    assert done == 3  # 14 MB written, then 3 copies: 56 MB; a 4th would be 70 MB > 64 MiB
    assert error.startswith("EDQUOT: quota exceeded: 70000000 bytes written by one call is over the limit of 67108864")
    info = client.get("/v1/workspaces/cp-quota").json()
    assert info["file_count"] == 4 and info["total_bytes"] == 56_000_000


def test_quotas_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.from_env().quotas == Quotas.default
    for env_name, _ in QUOTA_VARIABLES:
        monkeypatch.setenv(env_name, "7")
    assert Settings.from_env().quotas == Quotas(7, 7, 7, 7, 7)
    monkeypatch.setenv("SANDBOX_MAX_CALL_FILES", "0")
    assert quotas_from_env().call_files == 0
    for bad in ("-1", "lots", "1.5"):
        monkeypatch.setenv("SANDBOX_MAX_WORKSPACE_BYTES", bad)
        with pytest.raises(ConfigError, match="SANDBOX_MAX_WORKSPACE_BYTES"):
            quotas_from_env()


def test_a_file_put_past_the_quota_is_a_413_edquot_and_writes_nothing(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", workers=1, guest=compiled_guest, quotas=Quotas(call_bytes=10))
    with ServerThread(create_app(settings)) as live, httpx.Client(base_url=live.url) as http:
        assert http.put("/v1/workspaces/q/files/ok", content=b"x" * 10).status_code == 201
        response = http.put("/v1/workspaces/q/files/over", content=b"x" * 11)
        assert response.status_code == 413 and response.json()["error"]["code"] == "EDQUOT"
        assert http.get("/v1/workspaces/q/files/over").status_code == 404


_WRITE_BACK_RSS = """
import asyncio, json, pathlib, sys, tempfile
from sandbox import AsyncSandbox
from sandbox.engine import ensure_compiled
from sandbox.service import BashOptions, run_bash
from workspace import Quotas, WorkspaceStore

def rss_mb():
    return next(int(l.split()[1]) / 1024 for l in open("/proc/self/status") if l.startswith("VmRSS:"))

async def main():
    data = pathlib.Path(sys.argv[1])
    big = 4 * 1024 ** 3
    store = await WorkspaceStore.open(data / "db", data / "blobs",
                                      quotas=Quotas(call_bytes=big, workspace_bytes=big, tree_growth_bytes=big))
    async with AsyncSandbox(workers=1, guest=ensure_compiled()) as box:
        await run_bash(box, store.workspace("w"), "echo warm")
        before, samples = rss_mb(), []
        async def sample():
            while True:
                samples.append(rss_mb())
                await asyncio.sleep(0.01)
        sampler = asyncio.ensure_future(sample())
        result = await run_bash(box, store.workspace("w"), sys.argv[2], BashOptions(timeout_ms=300_000))
        sampler.cancel()
        info = await store.workspace("w").info()
    await store.close()
    print(json.dumps({"growth_mb": max(samples) - before, "bytes": info["total_bytes"], "errors": result["errors"]}))

asyncio.run(main())
"""


@pytest.mark.slow
def test_a_500_mb_write_back_streams_file_by_file(tmp_path: Path) -> None:
    # Unfixed, write-back read every file before writing any: 900 MB took the service from
    # 71 to 929 MB resident. Streaming holds one 50 MB file (and its blob write) at a time.
    script = "yes | head -c 50000000 > y; for i in $(seq 1 9); do cp y y$i; done"
    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _WRITE_BACK_RSS, str(tmp_path), script], capture_output=True,
                         text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(repo)}, check=True)
    measured = json.loads(out.stdout.strip().splitlines()[-1])
    assert measured["bytes"] == 500_000_000 and measured["errors"] == []
    assert measured["growth_mb"] < 250, measured
