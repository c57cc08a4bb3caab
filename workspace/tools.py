"""The model-facing workspace tools: read, write, edit, list, find, grep, delete.

Each tool takes JSON arguments and returns a plain JSON-able dict. Failures a model can act
on come back as ``{"error": "<message>"}`` values, never exceptions; only malformed
arguments (wrong types, unknown tool) raise, as ``InvalidArgument`` / ``NotFound``, because
that is the caller's bug rather than the model's. Messages and limits follow reference
section 2.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Awaitable, Callable
from typing import Any

import jsonschema

from . import _paths
from ._patterns import ScanBudget, TextPattern
from ._text import decode, looks_like_text
from .errors import InvalidArgument, IsDirectory, NotFound, WorkspaceError
from .entries import Stat
from .fs import Workspace

__all__ = [
    "GREP_MAX_FILE_BYTES",
    "READ_MAX_BYTES",
    "TOOL_DEFINITIONS",
    "TOOL_NAMES",
    "call_tool",
    "format_size",
    "sniff_media_type",
]

READ_MAX_BYTES = int(3.5 * 1024 * 1024)
READ_MAX_LINES = 2000
READ_MAX_LINE_CHARS = 2000
FIND_MAX_RESULTS = 200
GREP_MAX_MATCHES = 200
GREP_MAX_FILE_BYTES = 1_048_576
OCTET = "application/octet-stream"

ToolResult = dict[str, Any]


def sniff_media_type(data: bytes) -> str | None:
    """Media type from magic bytes (PNG, JPEG, GIF, WebP, PDF, SVG), else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    if b"<svg" in data[:512]:
        return "image/svg+xml"
    return None


def format_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def _split_lines(text: str) -> list[str]:
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


async def _read(ws: Workspace, path: str, offset: int | None = None, limit: int | None = None) -> ToolResult:
    p = _paths.normalize(path)
    stat = await ws.stat(p)
    if stat is None:
        return {"error": f"File not found: {path}"}
    if stat.type == "directory":
        return {"error": f"{path} is a directory, not a file"}
    if stat.size > READ_MAX_BYTES:
        return {"error": f"File too large to read: {path} is {format_size(stat.size)}; the limit is 3.5 MB"}
    data = await ws.read_bytes(p)
    if data is None:
        return {"error": f"File not found: {path}"}
    media = stat.mime_type if stat.mime_type and stat.mime_type != OCTET else None
    media = media or sniff_media_type(data) or ("text/plain" if looks_like_text(data) else OCTET)
    name = _paths.basename(stat.path)
    if media.startswith("image/"):
        return {
            "kind": "image", "path": p, "name": name, "media_type": media, "size_bytes": len(data),
            "data": base64.b64encode(data).decode("ascii"),
        }  # fmt: skip
    if media == "application/pdf":
        return {
            "kind": "file", "path": p, "name": name, "media_type": media, "size_bytes": len(data),
            "data": base64.b64encode(data).decode("ascii"),
        }  # fmt: skip
    if not (media.startswith("text/") or looks_like_text(data)):
        return {"kind": "binary", "path": p, "name": name, "media_type": media, "size_bytes": len(data),
                "unsupported": True}  # fmt: skip
    lines = _split_lines(decode(data))
    start = (offset or 1) - 1
    if lines and start >= len(lines):
        return {"error": f"offset {offset} is past the end of {path} ({len(lines)} lines)"}
    window = lines[start : start + limit] if limit is not None else lines[start:]
    shown = window[:READ_MAX_LINES]
    rendered = [
        f"{start + i + 1}\t{line[:READ_MAX_LINE_CHARS]}... (truncated)"
        if len(line) > READ_MAX_LINE_CHARS
        else f"{start + i + 1}\t{line}"
        for i, line in enumerate(shown)
    ]
    content = "\n".join(rendered)
    if len(window) > len(shown):
        content += f"\n... ({len(window) - len(shown)} more lines truncated)"
    out: ToolResult = {"path": p, "content": content, "total_lines": len(lines)}
    if offset is not None or limit is not None:
        out["from_line"] = start + 1
        out["to_line"] = start + len(shown)
    return out


async def _write(ws: Workspace, path: str, content: str) -> ToolResult:
    stat = await ws.write_file(path, content)
    return {"path": stat.path, "bytes_written": len(content.encode("utf-8")), "lines": len(_split_lines(content))}


def _count_overlapping(haystack: str, needle: str) -> list[int]:
    found: list[int] = []
    idx = haystack.find(needle)
    while idx != -1:
        found.append(idx)
        idx = haystack.find(needle, idx + 1)
    return found


def _normalise_ws(text: str) -> tuple[str, list[tuple[int, int]]]:
    """CRLF -> LF and runs of spaces/tabs -> one space, with each output char's source span."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t":
            j = i
            while j < n and text[j] in " \t":
                j += 1
            out.append(" ")
            spans.append((i, j))
            i = j
        elif ch == "\r" and i + 1 < n and text[i + 1] == "\n":
            out.append("\n")
            spans.append((i, i + 2))
            i += 2
        else:
            out.append(ch)
            spans.append((i, i + 1))
            i += 1
    return "".join(out), spans


async def _edit(ws: Workspace, path: str, old_string: str, new_string: str) -> ToolResult:
    p = _paths.normalize(path)
    if old_string == "":
        if await ws.exists(p):
            return {"error": "File already exists. Provide old_string to edit, or use the write tool to overwrite."}
        stat = await ws.write_file(p, new_string)
        return {"path": stat.path, "created": True, "lines": len(_split_lines(new_string))}
    try:
        found = await ws.read_with_stat(p)
    except IsDirectory:
        return {"error": f"{path} is a directory, not a file"}
    if found is None:
        return {"error": f"File not found: {path}"}
    stat, data = found
    if not looks_like_text(data):
        return {"error": f"{path} is a binary file; edit works on text files only"}
    text = decode(data)
    hits = _count_overlapping(text, old_string)
    if len(hits) > 1:
        return {"error": f"old_string appears {len(hits)} times in the file. "
                         "Include more surrounding context to make it unique."}  # fmt: skip
    fuzzy = False
    if len(hits) == 1:
        start, end = hits[0], hits[0] + len(old_string)
    else:
        norm_text, spans = _normalise_ws(text)
        norm_old, _ = _normalise_ws(old_string)
        norm_hits = _count_overlapping(norm_text, norm_old) if norm_old else []
        if len(norm_hits) > 1:
            return {"error": "old_string matches multiple locations after whitespace normalization. "
                             "Include more surrounding context to make it unique."}  # fmt: skip
        if not norm_hits:
            return {"error": "old_string not found in file. Make sure it matches exactly, including "
                             "whitespace and indentation. Read the file first to verify."}  # fmt: skip
        start = spans[norm_hits[0]][0]
        end = spans[norm_hits[0] + len(norm_old) - 1][1]
        fuzzy = True
    # Spliced verbatim: no "$&" or "\1" expansion (the reference's flaw).
    updated = text[:start] + new_string + text[end:]
    await ws.write_bytes(stat.path, updated.encode("utf-8"), stat.mime_type)
    out: ToolResult = {"path": stat.path, "replaced": True, "lines": len(_split_lines(updated))}
    if fuzzy:
        out["fuzzy_match"] = True
    return out


async def _list(ws: Workspace, path: str = "/", limit: int = 200, offset: int = 0) -> ToolResult:
    p = _paths.normalize(path)
    stat = await ws.stat(p)
    if stat is None:
        return {"error": f"Directory not found: {path}"}
    if stat.type != "directory":
        return {"error": f"{path} is not a directory"}
    entries = await ws.list_dir(p, limit=limit, offset=offset)
    return {"path": p, "count": len(entries), "entries": [_list_entry(e) for e in entries]}


def _list_entry(e: Stat) -> str:
    if e.type == "directory":
        return e.name + "/"
    if e.type == "file":
        return f"{e.name} ({format_size(e.size)})"
    return e.name


async def _find(ws: Workspace, pattern: str) -> ToolResult:
    matches = await ws.glob(pattern)
    files = [m.path + "/" if m.type == "directory" else m.path for m in matches]
    out: ToolResult = {"pattern": pattern, "count": len(files), "files": files[:FIND_MAX_RESULTS]}
    if len(files) > FIND_MAX_RESULTS:
        out["truncated"] = True
        out["showing"] = FIND_MAX_RESULTS
    return out


async def _grep(
    ws: Workspace,
    query: str,
    include: str = "**/*",
    fixed_string: bool = False,
    case_sensitive: bool = False,
    context_lines: int = 0,
) -> ToolResult:
    try:
        regex = TextPattern(query, regex=not fixed_string, case_sensitive=case_sensitive, whole_word=False)
    except InvalidArgument as exc:
        # The reference's message, then why (RE2 refuses lookaround and backreferences too).
        return {"error": f"Invalid regex: {query[:200]} ({exc.detail.split(': ', 1)[-1]})"}
    candidates = await ws.glob_files_with_content(include, GREP_MAX_FILE_BYTES)
    # RE2 is linear and releases the GIL; the scan still runs in a thread, under a time bound.
    return await asyncio.to_thread(_grep_scan, query, regex, candidates, context_lines, ScanBudget())


def _grep_scan(query: str, regex: TextPattern, candidates: list[tuple[Stat, bytes | None]],
               context_lines: int, budget: ScanBudget) -> ToolResult:
    skipped = sum(1 for _, data in candidates if data is None)
    matches: list[Any] = []
    searched = with_matches = total = 0
    for stat, data in candidates:
        path = stat.path
        if data is None or not looks_like_text(data):
            continue
        searched += 1
        lines = _split_lines(decode(data))
        hit_here = False
        for idx, line in enumerate(lines):
            if not regex.contains(line, budget):
                continue
            hit_here = True
            total += 1
            if len(matches) >= GREP_MAX_MATCHES:
                continue
            if context_lines:
                lo, hi = max(0, idx - context_lines), min(len(lines), idx + context_lines + 1)
                block = [f"{'>' if j == idx else ' '} {j + 1}\t{lines[j]}" for j in range(lo, hi)]
                matches.append({"file": path, "line": idx + 1, "context": "\n".join(block)})
            else:
                matches.append(f"{path}:{idx + 1}: {line}")
        with_matches += hit_here
    out: ToolResult = {
        "query": query,
        "matches": matches,
        "files_searched": searched,
        "files_with_matches": with_matches,
        "total_matches": total,
    }
    if total > GREP_MAX_MATCHES:
        out["truncated"] = True
    if skipped:
        out["files_skipped"] = skipped
        out["note"] = f"{skipped} file(s) skipped (larger than 1 MB)"
    return out


async def _delete(ws: Workspace, path: str, recursive: bool = False) -> ToolResult:
    p = _paths.normalize(path)
    await ws.rm(p, recursive=recursive, force=True)
    return {"deleted": p}


_PATH = {"type": "string", "minLength": 1, "maxLength": _paths.MAX_PATH}


def _schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


TOOL_DEFINITIONS: dict[str, dict[str, Any]] = {
    "read": {
        "description": "Read a file. Text comes back as numbered lines; images and PDFs as data.",
        "input_schema": _schema(
            {"path": _PATH, "offset": {"type": "integer", "minimum": 1}, "limit": {"type": "integer", "minimum": 1}},
            ["path"],
        ),
    },
    "write": {
        "description": "Create or overwrite a text file; parent directories are created.",
        "input_schema": _schema({"path": _PATH, "content": {"type": "string"}}, ["path", "content"]),
    },
    "edit": {
        "description": "Replace one unique occurrence of old_string with new_string (empty old_string creates).",
        "input_schema": _schema(
            {"path": _PATH, "old_string": {"type": "string"}, "new_string": {"type": "string"}},
            ["path", "old_string", "new_string"],
        ),
    },
    "list": {
        "description": "List a directory: directories, then files with sizes, then symlinks.",
        "input_schema": _schema(
            {
                "path": _PATH,
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
                "offset": {"type": "integer", "minimum": 0},
            },
            [],
        ),
    },
    "find": {
        "description": "Find paths matching a glob (**, *, ?, [...], {a,b}); directories end in /.",
        "input_schema": _schema({"pattern": {"type": "string", "minLength": 1}}, ["pattern"]),
    },
    "grep": {
        "description": "Search file contents by regex (or fixed string); case-insensitive by default.",
        "input_schema": _schema(
            {
                "query": {"type": "string", "minLength": 1},
                "include": {"type": "string", "minLength": 1},
                "fixed_string": {"type": "boolean"},
                "case_sensitive": {"type": "boolean"},
                "context_lines": {"type": "integer", "minimum": 0, "maximum": 10},
            },
            ["query"],
        ),
    },
    "delete": {
        "description": "Delete a file or directory (recursive for non-empty directories). Missing is fine.",
        "input_schema": _schema({"path": _PATH, "recursive": {"type": "boolean"}}, ["path"]),
    },
}

_IMPLEMENTATIONS: dict[str, Callable[..., Awaitable[ToolResult]]] = {
    "read": _read,
    "write": _write,
    "edit": _edit,
    "list": _list,
    "find": _find,
    "grep": _grep,
    "delete": _delete,
}
TOOL_NAMES = tuple(TOOL_DEFINITIONS)
_VALIDATORS = {name: jsonschema.Draft202012Validator(d["input_schema"]) for name, d in TOOL_DEFINITIONS.items()}


def _integral(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema counts ``1.0`` as an integer; the tools index with it, so make it ``1``."""
    properties = schema.get("properties", {})
    return {key: int(value) if isinstance(value, float)
            and properties.get(key, {}).get("type") == "integer" else value
            for key, value in arguments.items()}


async def call_tool(ws: Workspace, name: str, arguments: Any) -> ToolResult:
    """Run tool ``name`` with JSON ``arguments``; operational failures come back as ``{"error"}``.

    Raises ``NotFound`` for an unknown tool and ``InvalidArgument`` for arguments that do not
    match the tool's schema.
    """
    validator = _VALIDATORS.get(name)
    if validator is None:
        raise NotFound(f"unknown tool {name!r}; the tools are {', '.join(TOOL_NAMES)}")
    if not isinstance(arguments, dict):
        raise InvalidArgument(f"arguments for {name} must be a JSON object")
    error = next(iter(sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "arguments"
        raise InvalidArgument(f"invalid arguments for {name}: {where}: {error.message}")
    try:
        return await _IMPLEMENTATIONS[name](ws, **_integral(validator.schema, arguments))
    except WorkspaceError as exc:
        return {"error": str(exc)}
