"""The guest's ``state.*`` namespace: which workspace operations it offers, the text that
documents them to the model, which of them change nothing, and how a workspace error
becomes the ``OSError`` the guest raises.

:class:`codemode.calls.CodeModeHandler` journals and runs these calls; this module only
says what ``state.<name>`` is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from workspace import (
    Workspace,
    apply_edits,
    diff,
    plan_edits,
    read_json,
    replace_in_files,
    search_text,
    write_json,
)

__all__ = [
    "READ_ONLY_STATE_METHODS",
    "STATE_DOC",
    "STATE_METHODS",
    "StateOperation",
    "os_error_name",
    "stat_json",
    "state_operations",
]


_OS_ERROR_FOR_CODE = {
    "ENOENT": "FileNotFoundError", "EISDIR": "IsADirectoryError", "ENOTDIR": "NotADirectoryError",
    "EEXIST": "FileExistsError", "EPERM": "PermissionError",
}


def os_error_name(code: str) -> str:
    """The ``OSError`` subclass the guest raises for a workspace error's ``code``."""
    return _OS_ERROR_FOR_CODE.get(code, "OSError")


def stat_json(value: Any) -> Any:
    """A workspace result as JSON: stat records as dicts, lists of them as lists."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, list):
        return [stat_json(v) for v in value]
    return value


StateOperation = Callable[..., Awaitable[Any]]

_WORKSPACE_METHODS: tuple[str, ...] = (
    "read_file", "write_file", "read_bytes", "write_bytes", "append_file", "exists", "is_file",
    "is_dir", "stat", "lstat", "list_dir", "mkdir", "rm", "delete_file", "cp", "mv", "glob",
    "symlink", "readlink", "info")
"""``state.<name>`` that is the workspace's own method of that name."""

_EDIT_FUNCTIONS: dict[str, Callable[..., Awaitable[Any]]] = {
    "search_text": search_text,
    "replace_in_files": replace_in_files,
    "plan_edits": plan_edits,
    "apply_edits": apply_edits,
    "read_json": read_json,
    "write_json": write_json,
    "diff": diff,
}
"""``state.<name>`` served by an edit helper taking the workspace first."""

STATE_METHODS: tuple[str, ...] = tuple(sorted((*_WORKSPACE_METHODS, *_EDIT_FUNCTIONS)))


def state_operations(ws: Workspace) -> dict[str, StateOperation]:
    """``state.<name>`` -> the workspace operation behind it."""
    def bound(function: Callable[..., Awaitable[Any]]) -> StateOperation:
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await function(ws, *args, **kwargs)
        return call

    operations: dict[str, StateOperation] = {name: getattr(ws, name) for name in _WORKSPACE_METHODS}
    operations.update({name: bound(function) for name, function in _EDIT_FUNCTIONS.items()})
    return operations


READ_ONLY_STATE_METHODS = frozenset({
    "read_file", "read_bytes", "exists", "is_file", "is_dir", "stat", "lstat", "list_dir", "glob",
    "readlink", "info", "search_text", "plan_edits", "read_json", "diff"})
"""``state.*`` methods that change nothing: journaled with one write, after they ran."""

STATE_DOC = """Namespace "state": the workspace (a virtual filesystem), e.g.
    state.write_file("/notes/a.txt", "hi"); state.read_file("/notes/a.txt") -> "hi"
Files: read_file(path) -> str | None, read_bytes(path) -> bytes | None,
  write_file(path, text), write_bytes(path, data), append_file(path, text),
  read_json(path), write_json(path, value), delete_file(path) -> bool
Paths: exists(path), is_file(path), is_dir(path), stat(path), lstat(path),
  list_dir(path="/", limit=1000, offset=0), glob(pattern), mkdir(path, recursive=False),
  rm(path, recursive=False, force=False), cp(src, dst, recursive=False), mv(src, dst),
  symlink(target, path), readlink(path), info()
Text: search_text(query, regex=False, case_sensitive=True, whole_word=False, context=0),
  replace_in_files(...), plan_edits(instructions), apply_edits(plan, dry_run=False),
  diff(path_a, path_b)
Errors are raised as FileNotFoundError, IsADirectoryError, FileExistsError... (OSError)."""
