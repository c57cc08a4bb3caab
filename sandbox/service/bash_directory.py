"""The bash tool's other way to run: over a materialised directory, for very large trees.

``bash_tool`` runs a script over an in-memory tree in the guest and takes back one change
list; that list (every file written, in base64) and the tree live in memory, the guest's
and then the host's. When the snapshot plus what the script may add
(``tree_growth_bytes``) could exceed ``bash_tool.MEMORY_TREE_MAX_BYTES``, the call runs
here instead: the snapshot materialised on ``/dev/shm``, preopened as the guest's ``/``, the
tree measured every ``TREE_CHECK_INTERVAL_S`` while the script runs (past
``tree_growth_bytes``, or a directory deeper than ``MAX_DIR_DEPTH``, the run is stopped
and nothing written back), then written back file by file from the directory, so the host
holds one file at a time whatever the script wrote.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from workspace import (MAX_DIR_DEPTH, LimitExceeded, QuotaExceeded, Snapshot, TreeSize, Workspace, materialise,
                       materialised_size, measure_tree, remove_small_tree)

from .. import AsyncSandbox, DeadlineExceeded, Limits, SandboxError, WorkerCrashed, tracing

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


async def run_in_directory(sandbox: AsyncSandbox, ws: Workspace, snap: Snapshot, request: dict[str, Any],
                           limits: Limits, timeout_ms: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run ``request`` over ``snap`` materialised; the guest's body and the write-back report."""
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
            body = {"stdout": "", "stderr": f"bash: script timed out after {timeout_ms} ms\n",
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
    return body, report


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
