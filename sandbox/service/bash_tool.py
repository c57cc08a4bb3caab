"""The bash tool: snapshot the workspace, run the script in an isolate, write changes back.

Each call:
1. snapshots the workspace (at most ``max_workspace_files`` files, each at most
   ``max_workspace_file_bytes``; the rest are skipped and protected);
2. sends the snapshot to the guest in the request (its directories and files, base64),
   where the interpreter loads it into an in-memory tree (``bash/memfs.py``) with the
   scratch directories ``/tmp /bin /usr /dev /proc /sys`` beside it: no directory is made on
   the host, nothing is preopened, and the guest's file operations never leave it (each
   WASI call cost about 0.1 ms through wasmtime's thread pool);
3. runs the script there, under the time and output limits;
4. takes back one change list (files written, with their content; files and directories
   removed; directories made; symlinks made, which are refused) and applies it through
   ``workspace`` with the directory write-back's rules (``workspace.changes``: protected
   files kept, scratch paths ignored unless they were part of the workspace, a file changed
   meanwhile by someone else reported as a conflict and kept), in one transaction. The
   list is hostile input: one that does not fit the snapshot is refused whole.
   A conflict is also said on stderr, and turns a 0 exit status into 1: a model reads those,
   not ``conflicts``. The agent host's remedy is to run the script again, on a fresh snapshot.

Quotas (``workspace.Quotas``, from the service's settings through the workspace handle): the
write-back is charged to the handle's call budget and the workspace's totals; over a quota
nothing is written back and the result carries ``quota_exceeded`` (and the reason in
``errors``). While the script runs, the tree itself refuses to hold more than
``tree_growth_bytes`` beyond what the snapshot put there (scratch ``/tmp`` included), or a
directory deeper than ``MAX_DIR_DEPTH``: the script is stopped with a bash error and
nothing is written back, since files may be half-written.

A very large call runs over a materialised directory instead (``bash_directory``): when the
snapshot plus ``tree_growth_bytes`` could pass ``MEMORY_TREE_MAX_BYTES``, since the tree and
its change list are held in memory, the guest's and then the host's, while a directory is
written back one file at a time. The default quotas (256 MiB of growth) take the memory way.

Changes are written back even after the script's own timeout or a non-zero exit, as the
reference does: a script that created ten files and then failed on the eleventh has still
created ten files, and hiding them would make the workspace disagree with what the script
printed. When the isolate itself is lost (the host's deadline killed it, or the worker
crashed) its tree is lost with it, and nothing is written back.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from dataclasses import dataclass
from typing import Any

from workspace import MAX_DIR_DEPTH, SCRATCH_PATHS, InvalidArgument, QuotaExceeded, Snapshot, Workspace

from .. import AsyncSandbox, DeadlineExceeded, Limits, SandboxError, WorkerCrashed, tracing
from .bash_directory import run_in_directory

HOST_GRACE_MS = 2_000
"""The host's deadline is the script's timeout plus this: the guest's own timeout (exit 124
with a message) should fire first; the host's kill is the backstop."""
BASH_MEMORY_BYTES = 1024 * 1024 * 1024
"""The guest's memory beyond what its copy of the snapshot takes (``SNAPSHOT_COPIES``)."""
SNAPSHOT_COPIES = 4
"""How many times its size a snapshot may take in the guest at the peak: the request's
base64 text, the decoded bytes and the tree's own buffers, and the change list going back."""
MEMORY_TREE_MAX_BYTES = 512 * 1024 * 1024
"""The largest tree (snapshot plus allowed growth) run in the guest's memory; a larger one
runs over a materialised directory, whose write-back holds one file at a time."""
PIECES_FROM_BYTES = 1024 * 1024
"""A snapshot of at least this many bytes goes to the guest as pieces (``_request_pieces``)."""
YIELD_EVERY_BYTES = 1024 * 1024
"""How many bytes of files ``_request_pieces`` encodes between two turns of the event loop."""


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
    loaded = sum(f.size for f in snap.files.values())
    growth = ws.budget.quotas.tree_growth_bytes
    request: dict[str, Any] = {
        "script": script, "cwd": options.cwd, "env": options.env or {}, "stdin": options.stdin,
        "limits": {"timeout_ms": options.timeout_ms, "max_output_bytes": options.max_output_bytes},
        "skipped": skipped,
    }
    if loaded + growth > MEMORY_TREE_MAX_BYTES:
        body, report = await run_in_directory(sandbox, ws, snap, request, Limits(
            deadline_s=(options.timeout_ms + HOST_GRACE_MS) / 1000, memory_bytes=BASH_MEMORY_BYTES,
            output_bytes=options.max_output_bytes, max_result_bytes=4 * options.max_output_bytes + 65_536),
            options.timeout_ms)
    else:
        body, report = await _run_in_memory(sandbox, ws, snap, request, options)
    return _result(body, report, skipped, started)


async def _run_in_memory(sandbox: AsyncSandbox, ws: Workspace, snap: Snapshot, request: dict[str, Any],
                         options: BashOptions) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run over the in-memory tree; the guest's body and the write-back report."""
    loaded = sum(f.size for f in snap.files.values())
    growth = ws.budget.quotas.tree_growth_bytes
    payload: dict[str, Any] | list[bytes]
    if loaded < PIECES_FROM_BYTES:
        payload = {**request, "fs": _tree(snap, growth)}
    else:
        payload = await _request_pieces(request, snap, growth)
    limits = Limits(deadline_s=(options.timeout_ms + HOST_GRACE_MS) / 1000,
                    memory_bytes=BASH_MEMORY_BYTES + SNAPSHOT_COPIES * loaded,
                    output_bytes=options.max_output_bytes,
                    # The change list carries every file written, in base64: at most what
                    # the tree may hold, plus a line per entry.
                    max_result_bytes=4 * options.max_output_bytes + 65_536
                    + (loaded + growth) * 4 // 3 + 512 * (len(snap.files) + len(snap.directories)))
    not_written_because = "the sandbox failed internally"
    try:
        body = await sandbox.run_bash(payload, None, limits)
    except DeadlineExceeded:
        not_written_because = "the isolate was stopped at the host's deadline"
        body = {"stdout": "", "stderr": f"bash: script timed out after {options.timeout_ms} ms\n",
                "exit_code": 124, "timed_out": True}
    except WorkerCrashed as error:
        body = {"stdout": "", "stderr": f"bash: internal error: {error}\n", "exit_code": 1}
    except SandboxError as error:
        body = {"stdout": "", "stderr": f"bash: {error}\n", "exit_code": 1}
    return body, await _write_back(ws, snap, body, not_written_because)


def _result(body: dict[str, Any], report: dict[str, Any], skipped: list[dict[str, Any]],
            started: float) -> dict[str, Any]:
    errors = list(report.get("errors", []))
    conflicts = report.get("conflicts") or []
    exit_code = int(body.get("exit_code", 1)) if isinstance(body.get("exit_code", 1), int) else 1
    if conflicts and exit_code == 0:
        exit_code = 1  # what the script did did not all land: say so where a model looks
    if report.get("invalid") and exit_code == 0:
        exit_code = 1
    result: dict[str, Any] = {
        "stdout": _text(body.get("stdout")),
        "stderr": _text(body.get("stderr")) + _lost_writes_note(conflicts),
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


def _tree(snap: Snapshot, growth: int) -> dict[str, Any]:
    """The snapshot as the guest's in-memory tree is loaded from (``bash_entry.py``)."""
    return {**_tree_without_files(snap, growth),
            "files": [_file_entry(f.path, f.content) for f in snap.files.values()]}


def _tree_without_files(snap: Snapshot, growth: int) -> dict[str, Any]:
    scratch = [s for s in SCRATCH_PATHS if s not in snap.occupied_scratch and s not in snap.directories]
    return {"directories": list(snap.directories), "scratch": scratch,
            "max_growth_bytes": growth, "max_depth": MAX_DIR_DEPTH}


async def _request_pieces(request: dict[str, Any], snap: Snapshot, growth: int) -> list[bytes]:
    """The request with its tree, as the UTF-8 pieces of its JSON text, for a large tree.

    The same JSON as ``{**request, "fs": _tree(...)}``, but built a file at a time, with the
    event loop let go every ``YIELD_EVERY_BYTES``, and never serialised as a whole: encoding a
    100 MB tree in one piece (base64, then ``json.dumps`` scanning every character of it)
    held the loop, and every other request, for about a second."""
    rest = {key: value for key, value in request.items() if key != "fs"}
    head = json.dumps({**rest, "fs": _tree_without_files(snap, growth)}, separators=(",", ":"))
    # ``fs`` is the last key and its object the last value: the files go before both close.
    pieces = [head[:-2].encode("utf-8", "surrogatepass"), b',"files":[']
    since_yield = 0
    for n, file in enumerate(snap.files.values()):
        if n:
            pieces.append(b",")
        pieces.append(_entry_json(file.path, file.content))
        since_yield += len(file.content)
        if since_yield >= YIELD_EVERY_BYTES:
            since_yield = 0
            await asyncio.sleep(0)
    pieces.append(b"]}}")
    return pieces


def _entry_json(path: str, content: bytes) -> bytes:
    """``json.dumps(_file_entry(path, content))``, without scanning a base64 text for what
    JSON would escape: it has none of it."""
    entry = _file_entry(path, content)
    if len(entry) == 3:
        return json.dumps(entry, separators=(",", ":")).encode("ascii")
    return b"[" + json.dumps(path).encode("ascii") + b',"' + entry[1].encode("ascii") + b'"]'


_PLAIN = bytes(c for c in range(0x20, 0x80) if c not in b'"\\')
"""The ASCII characters JSON writes as themselves."""
_SHORT = b'"\\\b\f\n\r\t'
"""The ones it writes in two characters (``\\n``); any other control character takes six."""


def _file_entry(path: str, content: bytes) -> list[str]:
    """A file for the guest's tree: ASCII text as it is, when its JSON is no longer than the
    base64 would be (the guest then skips decoding it, about 4 % of a small script's call
    with three files); anything else in base64."""
    if content.isascii():
        escaped = content.translate(None, _PLAIN)
        if len(escaped) + 4 * len(escaped.translate(None, _SHORT)) <= len(content) // 3:
            return [path, content.decode("ascii"), "ascii"]
    return [path, base64.b64encode(content).decode("ascii")]


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _not_written(reason: str) -> dict[str, Any]:
    return {"changed_files": {"created": [], "updated": [], "deleted": [],
                              "directories_created": [], "directories_deleted": []},
            "errors": [f"changes were not written back: {reason}"]}


async def _write_back(ws: Workspace, snap: Snapshot, body: dict[str, Any], not_written_because: str) -> dict[str, Any]:
    """Apply the guest's change list; or say why nothing was written back."""
    stopped = body.get("fs_limit")
    if isinstance(stopped, dict):  # the tree refused to grow: the script was stopped mid-write
        report = _not_written("the script was stopped")
        if stopped.get("quota") == "tree_growth_bytes":
            limit, attempted = stopped.get("limit"), stopped.get("attempted")
            over = QuotaExceeded("tree_growth_bytes", limit if isinstance(limit, int) else 0,
                                 attempted if isinstance(attempted, int) else 0)
            report["quota_exceeded"] = {"quota": over.quota, "limit": over.limit,
                                        "attempted": over.attempted, "message": str(over)}
        return report
    if "changes" not in body:
        return _not_written(not_written_because)
    with tracing.span("workspace.write_back"):
        try:
            return await ws.apply_changes(snap, body["changes"])
        except InvalidArgument as error:  # a guest that sends nonsense gets nothing written
            report = _not_written(error.detail)
            report["invalid"] = True
            return report


def _lost_writes_note(conflicts: list[dict[str, str]]) -> str:
    """Lines for stderr about changes that lost to a concurrent writer: a model reads stderr
    and the exit status, not ``conflicts``; the remedy is to run again on a fresh snapshot."""
    if not conflicts:
        return ""
    lines = [f"bash: {c['path']}: not written back: {c['reason']}\n" for c in conflicts]
    lines.append("bash: the workspace changed while the script ran; run it again to work on "
                 "the current files\n")
    return "".join(lines)
