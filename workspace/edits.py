"""Edit helpers behind the guest's ``state.*`` namespace: planned, reversible batches of edits.

- ``plan_edits`` computes what a list of instructions would do, writing nothing. Unlike the
  reference, instructions touching one file build on each other (the second replace sees the
  first one's result).
- ``apply_edits`` writes a plan's final content per file, skipping unchanged files; on a
  failure the files already written are restored in reverse order (created ones deleted) and
  an ``EditBatchError`` says what failed and whether the rollback worked.
- ``replace_in_files``, ``search_text``, ``read_json``, ``write_json`` and ``diff`` complete
  the namespace.

Queries and ``include`` globs come from the guest: they are compiled for RE2 and matched in
a thread under a time bound (see ``_patterns``), so no pattern can hold up the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from . import _paths
from ._patterns import ScanBudget, TextPattern
from ._text import decode, looks_like_text, unified_diff
from .errors import (
    Conflict,
    EditBatchError,
    InvalidArgument,
    LimitExceeded,
    NotFound,
    QuotaExceeded,
    WorkspaceError,
)
from .fs import Workspace
from .quotas import Quotas

__all__ = [
    "apply_edits",
    "diff",
    "diff_text",
    "plan_edits",
    "read_json",
    "replace_in_files",
    "search_text",
    "write_json",
]

diff_text = unified_diff


MAX_SEARCH_RESULTS = 10_000
MAX_SEARCH_CONTEXT = 100


def _compile(query: str, *, regex: bool, case_sensitive: bool, whole_word: bool) -> TextPattern:
    return TextPattern(query, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)


def _replace(text: str, search: str, replacement: str, options: dict[str, Any],
             budget: ScanBudget | None = None) -> tuple[str, int]:
    """(new text, replacements); blocking, so callers run it in a thread."""
    if not isinstance(replacement, str):
        raise InvalidArgument("replacement must be a string")
    regex = bool(options.get("regex", False))
    compiled = _compile(
        search,
        regex=regex,
        case_sensitive=bool(options.get("case_sensitive", True)),
        whole_word=bool(options.get("whole_word", False)),
    )
    # Literal mode inserts the replacement verbatim; regex mode expands \1 and \g<name>.
    return compiled.subn(text, replacement, expand=regex, budget=budget or ScanBudget())


def _json_text(value: Any, spaces: Any = 2) -> str:
    if isinstance(spaces, bool) or not isinstance(spaces, int) or not 0 <= spaces <= 10:
        raise InvalidArgument("spaces must be an integer from 0 to 10")
    try:
        return json.dumps(value, indent=spaces, ensure_ascii=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"value is not JSON-serialisable: {exc}") from exc


async def plan_edits(ws: Workspace, instructions: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``instructions`` would change, cumulatively per file; nothing is written."""
    if not isinstance(instructions, list):
        raise InvalidArgument("instructions must be a list")
    pending: dict[str, str | None] = {}
    base_versions: dict[str, int] = {}
    edits: list[dict[str, Any]] = []
    for index, instruction in enumerate(instructions):
        if not isinstance(instruction, dict):
            raise InvalidArgument(f"instruction {index} must be an object")
        kind = instruction.get("kind")
        raw_path = instruction.get("path")
        if not isinstance(raw_path, str):
            raise InvalidArgument(f"instruction {index} needs a string path")
        path = _paths.normalize(raw_path)
        if path not in pending:
            found = await ws.read_with_stat(path)
            pending[path] = decode(found[1]) if found is not None else None
            base_versions[path] = found[0].version if found is not None else 0
        current = pending[path]
        options = instruction.get("options") or {}
        if not isinstance(options, dict):
            raise InvalidArgument(f"instruction {index}: options must be an object")
        entry: dict[str, Any] = {"instruction": instruction, "path": path}
        if kind == "write":
            content = instruction.get("content")
            if not isinstance(content, str):
                raise InvalidArgument(f"instruction {index}: content must be a string")
        elif kind == "replace":
            if current is None:
                raise NotFound("no such file or directory", path)
            replaced: tuple[str, int] = await asyncio.to_thread(
                _replace, current, instruction.get("search", ""), instruction.get("replacement", ""), options)
            content, count = replaced
            entry["replacements"] = count
        elif kind == "write_json":
            content = _json_text(instruction.get("value"), options.get("spaces", 2))
        else:
            raise InvalidArgument(f"instruction {index}: kind must be write, replace or write_json, not {kind!r}")
        entry["changed"] = current is None or content != current
        entry["content"] = content
        try:
            entry["diff"] = unified_diff(current or "", content, path, path)
        except LimitExceeded:
            entry["diff"] = None
            entry["note"] = "diff omitted: over 10,000 lines"
        pending[path] = content
        edits.append(entry)
    return {
        "edits": edits,
        "total_changed": sum(1 for e in edits if e["changed"]),
        "total_instructions": len(instructions),
        # Version each file had when planned (0: absent); apply refuses to clobber a newer one.
        "base_versions": base_versions,
    }


async def apply_edits(
    ws: Workspace,
    plan_or_instructions: dict[str, Any] | list[dict[str, Any]],
    *,
    dry_run: bool = False,
    rollback_on_error: bool = True,
) -> dict[str, Any]:
    """Apply a plan (or plan the instructions first); roll back on failure unless told not to."""
    if isinstance(plan_or_instructions, dict) and isinstance(plan_or_instructions.get("edits"), list):
        plan = plan_or_instructions
    elif isinstance(plan_or_instructions, list):
        plan = await plan_edits(ws, plan_or_instructions)
    else:
        raise InvalidArgument("apply_edits takes a plan from plan_edits or a list of instructions")
    if dry_run:
        return {**plan, "dry_run": True, "applied": []}
    # The last edit of each changed file carries its final content.
    final: dict[str, tuple[int, dict[str, Any]]] = {}
    for index, edit in enumerate(plan["edits"]):
        if edit.get("changed"):
            final[edit["path"]] = (index, edit)
    bases = plan.get("base_versions") or {}
    undo: list[tuple[str, tuple[bytes, str] | None]] = []
    for path, (index, edit) in final.items():
        try:
            before = await ws.read_with_stat(path)
            previous = (before[1], before[0].mime_type) if before is not None else None
            mime = previous[1] if previous is not None else _mime_for(edit)
            # A plan from plan_edits carries the versions it read; None for a hand-made plan.
            expected = bases.get(path)
            if expected is not None and (before[0].version if before is not None else 0) != expected:
                raise Conflict("changed since the edits were planned", path)
            # The write itself is a compare-and-set, closing the gap after the check above.
            await ws.write_bytes(path, str(edit["content"]).encode("utf-8"), mime, if_version=expected)
            undo.append((path, previous))
        except WorkspaceError as exc:
            operation = {"index": index, "kind": edit["instruction"].get("kind"), "path": path}
            rollback_error = await _rollback(ws, undo) if rollback_on_error else None
            raise EditBatchError(
                exc, operation, rolled_back=rollback_on_error and rollback_error is None, rollback_error=rollback_error
            ) from exc
    return {**plan, "dry_run": False, "applied": list(final)}


def _mime_for(edit: dict[str, Any]) -> str:
    return "application/json" if edit["instruction"].get("kind") == "write_json" else "text/plain"


async def _rollback(ws: Workspace, undo: list[tuple[str, tuple[bytes, str] | None]]) -> str | None:
    # Undoing is not charged: a batch refused for its quota must still be able to put back
    # what it wrote, so the undo goes through a handle of its own without quotas.
    ws = ws.store.workspace(ws.name, quotas=Quotas.unlimited, tenant=ws.tenant)
    problems: list[str] = []
    for path, previous in reversed(undo):
        try:
            if previous is None:
                await ws.delete_file(path)
            else:
                await ws.write_bytes(path, previous[0], previous[1])
        except WorkspaceError as exc:
            problems.append(str(exc))
    return "; ".join(problems) or None


SCAN_BATCH_BYTES = 16 * 1024 * 1024
"""Text is read for a search in batches of about this many bytes, so searching a workspace
holds one batch in memory, not the whole workspace (up to its 1 GiB quota)."""


async def _text_batches(ws: Workspace, include: str) -> AsyncIterator[dict[str, str]]:
    """The text files under ``include``, by path, a batch of about ``SCAN_BATCH_BYTES`` at a time."""
    stats = sorted((s for s in await ws.glob(include) if s.type == "file"), key=lambda s: s.path)
    start = 0
    while start < len(stats):
        end, size = start, 0
        while end < len(stats) and (end == start or size + stats[end].size <= SCAN_BATCH_BYTES):
            size += stats[end].size
            end += 1
        contents = await ws.read_many([s.path for s in stats[start:end]])
        yield {p: decode(d) for p, d in sorted(contents.items()) if looks_like_text(d)}
        start = end


async def search_text(
    ws: Workspace,
    query: str,
    *,
    include: str = "**/*",
    regex: bool = False,
    case_sensitive: bool = True,
    whole_word: bool = False,
    context: int = 0,
    max_results: int = 1000,
) -> list[dict[str, Any]]:
    """Matches ``{path, line, column (1-based), match, line_text, before?, after?}``.

    At most ``MAX_SEARCH_RESULTS`` results and ``MAX_SEARCH_CONTEXT`` context lines a side.
    """
    compiled = _compile(query, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)
    if isinstance(context, bool) or not isinstance(context, int) or not 0 <= context <= MAX_SEARCH_CONTEXT:
        raise InvalidArgument(f"context must be an integer from 0 to {MAX_SEARCH_CONTEXT}")
    if isinstance(max_results, bool) or not isinstance(max_results, int) or not 1 <= max_results <= MAX_SEARCH_RESULTS:
        raise InvalidArgument(f"max_results must be an integer from 1 to {MAX_SEARCH_RESULTS}")
    budget = ScanBudget()
    results: list[dict[str, Any]] = []
    async for files in _text_batches(ws, include):
        results += await asyncio.to_thread(_search, files, compiled, context, max_results - len(results), budget)
        if len(results) >= max_results:
            break
    return results


def _search(files: dict[str, str], compiled: TextPattern, context: int, max_results: int,
            budget: ScanBudget) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for path, text in files.items():
        lines = text.split("\n")
        for idx, line in enumerate(lines):
            for hit in compiled.hits(line, budget):
                found: dict[str, Any] = {
                    "path": path, "line": idx + 1, "column": hit.start + 1, "match": hit.text, "line_text": line,
                }  # fmt: skip
                if context:
                    found["before"] = lines[max(0, idx - context) : idx]
                    found["after"] = lines[idx + 1 : idx + 1 + context]
                results.append(found)
                if len(results) >= max_results:
                    return results
    return results


async def replace_in_files(
    ws: Workspace,
    search: str,
    replacement: str,
    *,
    include: str = "**/*",
    regex: bool = False,
    case_sensitive: bool = True,
    whole_word: bool = False,
    dry_run: bool = False,
    rollback_on_error: bool = True,
) -> dict[str, Any]:
    """Replace every match in every text file under ``include``, as one reversible batch."""
    options = {"regex": regex, "case_sensitive": case_sensitive, "whole_word": whole_word}
    compiled = _compile(search, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)
    budget = ScanBudget()
    touched: list[str] = []
    touched_bytes = 0
    async for texts in _text_batches(ws, include):
        found = await asyncio.to_thread(lambda: [p for p, text in texts.items() if compiled.contains(text, budget)])
        touched += found
        touched_bytes += sum(len(texts[p].encode("utf-8", "surrogatepass")) for p in found)
        # The plan holds every touched file in memory, and past what the call may write it
        # could never be applied: refuse before planning (a dry run too, for the memory).
        if touched_bytes > ws.budget.quotas.call_bytes:
            raise QuotaExceeded("call_bytes", ws.budget.quotas.call_bytes, touched_bytes, found[-1])
    instructions = [
        {"kind": "replace", "path": path, "search": search, "replacement": replacement, "options": options}
        for path in touched
    ]
    plan = await plan_edits(ws, instructions)
    result = await apply_edits(ws, plan, dry_run=dry_run, rollback_on_error=rollback_on_error)
    files = [{"path": e["path"], "replacements": e["replacements"], "diff": e["diff"]} for e in plan["edits"]]
    return {
        "files": files,
        "total_files": len(files),
        "total_replacements": sum(f["replacements"] for f in files),
        "dry_run": dry_run,
        "applied": result["applied"],
    }


async def read_json(ws: Workspace, path: str) -> Any:
    text = await ws.read_file(path)
    if text is None:
        raise NotFound("no such file or directory", _paths.normalize(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(f"not valid JSON ({exc})", _paths.normalize(path)) from exc


async def write_json(ws: Workspace, path: str, value: Any, *, spaces: int = 2) -> None:
    """Write ``json.dumps(value, indent=spaces) + "\\n"``."""
    await ws.write_bytes(path, _json_text(value, spaces).encode("utf-8"), "application/json")


async def diff(ws: Workspace, path_a: str, path_b: str) -> str:
    return await ws.diff(path_a, path_b)
