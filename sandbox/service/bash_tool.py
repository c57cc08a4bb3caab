"""The bash tool: snapshot the workspace, run the script in an isolate, write changes back.

Each call:
1. snapshots the workspace (at most ``max_workspace_files`` files, each at most
   ``max_workspace_file_bytes``; the rest are skipped and protected);
2. materialises the snapshot into a private directory, preopened as the guest's ``/``
   (the guest's interpreter sees nothing else; WASI grants no network);
3. runs the script with the interpreter inside the guest, under the time and output limits;
4. writes the changes back through ``workspace`` (protected files kept, scratch paths
   ``/tmp /bin /usr /dev /proc /sys`` ignored unless they were part of the workspace, a file
   changed meanwhile by someone else reported as a conflict and kept), in one transaction.
   A conflict is also said on stderr, and turns a 0 exit status into 1: a model reads those,
   not ``conflicts``. The agent host's remedy is to run the script again, on a fresh snapshot.

Quotas (``workspace.Quotas``, from the service's settings through the workspace handle): the
write-back is charged to the handle's call budget and the workspace's totals; over a quota
nothing is written back and the result carries ``quota_exceeded`` (and the reason in
``errors``). While the script runs, its materialised tree (scratch ``/tmp`` included, in RAM
on ``/dev/shm``) is measured every ``TREE_CHECK_INTERVAL_S`` or so; once it holds more than
``tree_growth_bytes`` beyond what materialising put there, or a directory deeper than
``MAX_DIR_DEPTH``, the run is stopped (its worker is killed and replaced) and nothing is
written back, since files may be half-written.

Changes are written back even after a timeout or a non-zero exit, as the reference does:
a script that created ten files and then failed on the eleventh has still created ten
files, and hiding them would make the workspace disagree with what the script printed.
Only an internal failure of the sandbox itself (the worker crashed) skips write-back,
because then the directory may hold a half-finished write.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from workspace import (MAX_DIR_DEPTH, LimitExceeded, QuotaExceeded, Snapshot, TreeSize, Workspace, materialise,
                       materialised_size, measure_tree, remove_small_tree)

from .. import AsyncSandbox, DeadlineExceeded, Limits, SandboxError, WorkerCrashed, tracing

HOST_GRACE_MS = 2_000
"""The host's deadline is the script's timeout plus this: the guest's own timeout (exit 124
with a message) should fire first; the host's kill is the backstop."""
BASH_MEMORY_BYTES = 1024 * 1024 * 1024
TREE_CHECK_INTERVAL_S = 0.1
"""How often the materialised tree is measured while a script runs (at least; a slow walk
of a big tree spaces the checks out to twice its own time)."""
INLINE_TREE_FILES = 64
INLINE_TREE_BYTES = 256 * 1024
"""A snapshot at most this big is materialised and measured on the event loop itself: a
handful of small files on tmpfs take less time than the hops to a worker thread and back
that larger trees are worth (0.05-0.3 ms each quiet, 0.5 ms and more under load)."""
INLINE_TREE_ENTRIES = 2 * INLINE_TREE_FILES
"""After the script, a tree of at most this many entries is compared for write-back and
removed on the event loop too; a larger one (a script may create thousands) in a thread."""


@dataclass(frozen=True)
class BashOptions:
    """Per-call options of the bash tool (reference section 3 defaults)."""

    cwd: str = "/"
    timeout_ms: int = 30_000
    max_output_bytes: int = 64_000
    max_workspace_files: int = 1_000
    max_workspace_file_bytes: int = 1_000_000
    env: dict[str, str] | None = None
    stdin: str = ""


async def run_bash(sandbox: AsyncSandbox, ws: Workspace, script: str,
                   options: BashOptions = BashOptions()) -> dict[str, Any]:
    """Run ``script`` over ``ws`` and return the tool's result (see the module docstring)."""
    with tracing.span("sandbox.bash", {"codemode.workspace": ws.name}) as span:
        result = await _run_bash(sandbox, ws, script, options)
        span.update({"sandbox.exit_code": result["exit_code"],
                     "sandbox.timed_out": result["timed_out"],
                     "sandbox.quota": (result.get("quota_exceeded") or {}).get("quota")})
        return result


async def _run_bash(sandbox: AsyncSandbox, ws: Workspace, script: str,
                    options: BashOptions) -> dict[str, Any]:
    started = time.perf_counter()
    with tracing.span("workspace.snapshot") as span:
        snap = await ws.snapshot(max_files=options.max_workspace_files,
                                 max_file_bytes=options.max_workspace_file_bytes)
        span.set("workspace.files", len(snap.files))
    skipped = [{"path": s.path, "reason": s.reason, "size": s.size} for s in snap.skipped]
    request = {
        "script": script, "cwd": options.cwd, "env": options.env or {}, "stdin": options.stdin,
        "limits": {"timeout_ms": options.timeout_ms, "max_output_bytes": options.max_output_bytes},
        "skipped": skipped,
    }
    limits = Limits(deadline_s=(options.timeout_ms + HOST_GRACE_MS) / 1000,
                    memory_bytes=BASH_MEMORY_BYTES, output_bytes=options.max_output_bytes,
                    max_result_bytes=4 * options.max_output_bytes + 65_536)
    write_back = True
    not_written_because = "the sandbox failed internally"
    over_quota: QuotaExceeded | None = None
    async with _materialised(snap) as (host_dir, materialised):
        allowed = materialised.bytes + ws.budget.quotas.tree_growth_bytes
        try:
            body = await _run_watched(sandbox.run_bash(request, host_dir, limits), host_dir, allowed)
        except LimitExceeded as error:  # the tree grew past its quota, or too deep
            write_back, not_written_because = False, "the script was stopped"
            over_quota = error if isinstance(error, QuotaExceeded) else None
            body = {"stdout": "", "stderr": f"bash: {error.detail}; the script was stopped\n", "exit_code": 1}
        except DeadlineExceeded:
            body = {"stdout": "", "stderr": f"bash: script timed out after {options.timeout_ms} ms\n",
                    "exit_code": 124, "timed_out": True}
        except WorkerCrashed as error:
            write_back = False
            body = {"stdout": "", "stderr": f"bash: internal error: {error}\n", "exit_code": 1}
        except SandboxError as error:
            body = {"stdout": "", "stderr": f"bash: {error}\n", "exit_code": 1}
        if write_back:
            with tracing.span("workspace.write_back"):
                report = await ws.write_back(snap, host_dir, inline_entries=INLINE_TREE_ENTRIES)
        else:
            report = {"changed_files": {"created": [], "updated": [], "deleted": [],
                                        "directories_created": [], "directories_deleted": []},
                      "errors": [f"changes were not written back: {not_written_because}"]}
            if over_quota is not None:
                report["quota_exceeded"] = {"quota": over_quota.quota, "limit": over_quota.limit,
                                            "attempted": over_quota.attempted, "message": str(over_quota)}
    errors = list(report.get("errors", []))
    conflicts = report.get("conflicts") or []
    exit_code = int(body.get("exit_code", 1))
    if conflicts and exit_code == 0:
        exit_code = 1  # what the script did did not all land: say so where a model looks
    result: dict[str, Any] = {
        "stdout": body.get("stdout", ""),
        "stderr": body.get("stderr", "") + _lost_writes_note(conflicts),
        "exit_code": exit_code,
        "changed_files": report["changed_files"],
        "skipped_files": sorted(s["path"] for s in skipped),
        "skipped": sorted(skipped, key=lambda s: s["path"]),
        "errors": errors,
        "truncated": bool(body.get("stdout_truncated") or body.get("stderr_truncated")),
        "timed_out": bool(body.get("timed_out")),
        "duration_ms": round((time.perf_counter() - started) * 1000, 3),
    }
    if conflicts:
        result["conflicts"] = conflicts
    if "quota_exceeded" in report:
        result["quota_exceeded"] = report["quota_exceeded"]
    return result


@asynccontextmanager
async def _materialised(snap: Snapshot) -> AsyncIterator[tuple[str, TreeSize]]:
    """The snapshot materialised (``workspace.materialise``) and what its tree measures, in
    one step: on the event loop for a small snapshot, else in one worker thread; the tree
    is removed afterwards whatever happened."""
    manager = materialise(snap)

    def enter() -> tuple[str, TreeSize]:
        host_dir = manager.__enter__()
        try:
            return host_dir, materialised_size(host_dir) or measure_tree(host_dir)
        except BaseException as error:
            manager.__exit__(type(error), error, error.__traceback__)
            raise

    def leave() -> None:
        manager.__exit__(None, None, None)

    small = len(snap.files) <= INLINE_TREE_FILES and \
        sum(f.size for f in snap.files.values()) <= INLINE_TREE_BYTES
    entered = enter() if small else await asyncio.to_thread(enter)
    try:
        yield entered
    finally:
        # Removal walks whatever the script left, which may be far more than it was given:
        # only a small tree is removed here, the rest in a thread.
        if remove_small_tree(entered[0], INLINE_TREE_ENTRIES):
            leave()
        else:
            await asyncio.to_thread(leave)


def _lost_writes_note(conflicts: list[dict[str, str]]) -> str:
    """Lines for stderr about changes that lost to a concurrent writer: a model reads stderr
    and the exit status, not ``conflicts``; the remedy is to run again on a fresh snapshot."""
    if not conflicts:
        return ""
    lines = [f"bash: {c['path']}: not written back: {c['reason']}\n" for c in conflicts]
    lines.append("bash: the workspace changed while the script ran; run it again to work on "
                 "the current files\n")
    return "".join(lines)


async def _run_watched(run: Any, host_dir: str, allowed_bytes: int) -> dict[str, Any]:
    """Await the isolate's ``run`` while measuring ``host_dir``; past ``allowed_bytes`` the run
    is cancelled (the pool kills and replaces a worker whose run is cancelled) and
    ``QuotaExceeded("tree_growth_bytes")`` raised; a directory deeper than ``MAX_DIR_DEPTH``
    stops it the same way, with ``LimitExceeded``."""
    task: asyncio.Future[dict[str, Any]] = asyncio.ensure_future(run)
    interval = TREE_CHECK_INTERVAL_S
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=interval)
            if done:
                return task.result()
            measured = time.perf_counter()
            size = await asyncio.to_thread(measure_tree, host_dir, stop_above=allowed_bytes)
            interval = max(TREE_CHECK_INTERVAL_S, 2 * (time.perf_counter() - measured))
            if size.bytes > allowed_bytes:
                raise QuotaExceeded("tree_growth_bytes", allowed_bytes, size.bytes)
            if size.too_deep:
                # Refused while it runs: nothing that deep is ever written back, and the walk
                # (hence the quota above) never has to follow a script further down.
                raise LimitExceeded(f"directories nested deeper than {MAX_DIR_DEPTH} levels are refused")
    finally:
        if not task.done():
            task.cancel()
            await asyncio.wait({task})
