"""The Code Mode runtime: run an execution, answer every host call it makes, record it all.

``CodeModeHandler`` is the ``HostCallHandler`` the isolate sees. For each call it:
1. validates a tool's arguments against its input schema (invalid: a typed error in the
   guest, nothing recorded, nothing sent);
2. appends a journal entry ``(execution_id, seq)`` in state ``executing``;
3. runs the call: an in-process callable, a signed HTTP POST to the tool's ``url``, a
   workspace operation (``state.*``), or a ``codemode.*`` helper;
4. settles the entry ``applied`` with its result (or ``error``) and answers the guest.

Values over the durable limit (1,000,000 characters) stop the execution: they cannot be
recorded, so they cannot be replayed. ``run_execution`` drives one whole execution and
returns its outcome as a value; it never raises into routes.
"""

from __future__ import annotations

import inspect
import json
import time
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, Sequence

import httpx

from sandbox import AsyncSandbox, HostAbort, HostCallError, Limits, ToolSpec
from workspace import Workspace, WorkspaceError
from workspace import edits as workspace_edits

from .declarations import render_namespace
from .errors import CodeModeError, DurableSizeError, ToolDefinitionError, ToolError
from .normalise import check_durable_text
from .journal import make_entry
from .records import RUNTIME_VERSION, ExecutionRecord, JournalEntry, decode_value
from .search import CodeIndex, SnippetInfo
from .store import CodeModeStore
from .tooldefs import ToolDef, Toolset, bind_arguments, validate_arguments

STEP_NAMESPACE = "__step"

_OS_ERROR_FOR_CODE = {
    "ENOENT": "FileNotFoundError", "EISDIR": "IsADirectoryError", "ENOTDIR": "NotADirectoryError",
    "EEXIST": "FileExistsError", "EPERM": "PermissionError",
}


def _stat_json(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, list):
        return [_stat_json(v) for v in value]
    return value


StateOperation = Callable[..., Awaitable[Any]]

_WORKSPACE_METHODS: tuple[str, ...] = (
    "read_file", "write_file", "read_bytes", "write_bytes", "append_file", "exists", "is_file",
    "is_dir", "stat", "lstat", "list_dir", "mkdir", "rm", "delete_file", "cp", "mv", "glob",
    "symlink", "readlink", "info")
"""``state.<name>`` that is the workspace's own method of that name."""

_EDIT_FUNCTIONS: dict[str, Callable[..., Awaitable[Any]]] = {
    "search_text": workspace_edits.search_text,
    "replace_in_files": workspace_edits.replace_in_files,
    "plan_edits": workspace_edits.plan_edits,
    "apply_edits": workspace_edits.apply_edits,
    "read_json": workspace_edits.read_json,
    "write_json": workspace_edits.write_json,
    "diff": workspace_edits.diff,
}
"""``state.<name>`` served by an edit helper taking the workspace first."""

STATE_METHODS: tuple[str, ...] = tuple(sorted((*_WORKSPACE_METHODS, *_EDIT_FUNCTIONS)))


def _state_operations(ws: Workspace) -> dict[str, StateOperation]:
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


@dataclass
class ToolBinding:
    """A tool as one execution sees it: its definition, namespace and signing secret."""

    tool: ToolDef
    namespace: str
    secret: str


@dataclass
class ExecutionPlan:
    """Everything one execution can reach, resolved before it starts."""

    namespaces: dict[str, list[ToolDef]]
    bindings: dict[tuple[str, str], ToolBinding]
    toolset_names: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, toolsets: Sequence[Toolset], inline: Sequence[ToolDef] = (),
              inline_secret: str = "") -> "ExecutionPlan":
        namespaces: dict[str, list[ToolDef]] = {}
        bindings: dict[tuple[str, str], ToolBinding] = {}

        def add(namespace: str, tools: Sequence[ToolDef], secret: str) -> None:
            if namespace in namespaces:
                raise ToolDefinitionError("execution", [f"namespace {namespace!r} is given twice"])
            namespaces[namespace] = list(tools)
            for tool in tools:
                bindings[(namespace, tool.identifier)] = ToolBinding(tool, namespace, secret)

        if inline:
            add("tools", inline, inline_secret)
        for toolset in toolsets:
            add(toolset.namespace, toolset.tools, toolset.secret)
        return cls(namespaces, bindings, [t.name for t in toolsets])

    def guest_specs(self) -> dict[str, list[ToolSpec]]:
        return {ns: [ToolSpec(t.identifier, t.description, keyword_only=t.func is None)
                     for t in tools] for ns, tools in self.namespaces.items()}

    def guest_docs(self) -> dict[str, str]:
        docs = {ns: render_namespace(ns, tools, include_unimplemented=True)
                for ns, tools in self.namespaces.items()}
        docs["state"] = STATE_DOC
        return docs


class CodeModeHandler:
    """Answers one execution's host calls and journals each of them."""

    def __init__(self, *, execution_id: str, plan: ExecutionPlan, workspace: Workspace,
                 store: CodeModeStore, http: httpx.AsyncClient) -> None:
        self.execution_id = execution_id
        self.plan = plan
        self.workspace = workspace
        self.store = store
        self.http = http
        self.seq = 0
        self.calls: list[dict[str, Any]] = []
        self._state = _state_operations(workspace)

    async def __call__(self, name: str, payload: Any) -> Any:
        if not isinstance(payload, dict):
            raise HostCallError("TypeError", "host call payload must be an object")
        if name == "tool":
            return await self._tool(payload)
        if name == "state":
            return await self._state_call(payload)
        if name == "codemode":
            return await self._codemode(payload)
        raise HostCallError("ToolError", f"unknown host call {name!r}")

    async def _record(self, namespace: str, method: str, args: Any,
                      run: Callable[[int], Awaitable[Any]], *, ephemeral: bool = False,
                      side_effects: bool = True) -> Any:
        """Journal one call around ``run``.

        A call with side effects is written ``executing`` before it runs and settled after,
        so a crash in between leaves evidence; a call without (a read) is written once,
        complete, after it ran: one database write instead of two.
        """
        seq = self.seq
        try:
            entry = make_entry(self.execution_id, seq, namespace, method, args, ephemeral=ephemeral)
        except CodeModeError as exc:  # too large or not serialisable: cannot be recorded
            raise HostAbort("error", str(exc)) from exc
        self.seq += 1
        if not side_effects:
            return await self._record_read(entry, run)
        await self.store.append_entry(entry)
        summary: dict[str, Any] = {"seq": seq, "namespace": namespace, "method": method,
                                   "args": json.loads(entry.args)}
        self.calls.append(summary)
        try:
            result = await run(seq)
        except HostCallError as failure:
            error = {"name": failure.name, "message": failure.message}
            await self.store.settle_entry(self.execution_id, seq, state="error", error=error)
            summary.update(state="error", error=error)
            raise
        try:
            await self.store.settle_entry(self.execution_id, seq, state="applied", result=result)
        except CodeModeError as exc:  # the result cannot be recorded, so it cannot be replayed
            error = {"name": type(exc).__name__, "message": str(exc)}
            await self.store.settle_entry(self.execution_id, seq, state="error", error=error)
            summary.update(state="error", error=error)
            raise HostAbort("error", str(exc)) from exc
        summary["state"] = "applied"
        return result

    async def _record_read(self, entry: JournalEntry, run: Callable[[int], Awaitable[Any]]) -> Any:
        summary: dict[str, Any] = {"seq": entry.seq, "namespace": entry.namespace,
                                   "method": entry.method, "args": json.loads(entry.args)}
        self.calls.append(summary)
        try:
            result = await run(entry.seq)
        except HostCallError as failure:
            error = {"name": failure.name, "message": failure.message}
            await self.store.append_entry(replace(entry, state="error", error=error))
            summary.update(state="error", error=error)
            raise
        try:
            await self.store.append_entry(replace(entry, state="applied", result=result))
        except CodeModeError as exc:
            error = {"name": type(exc).__name__, "message": str(exc)}
            await self.store.append_entry(replace(entry, state="error", error=error))
            summary.update(state="error", error=error)
            raise HostAbort("error", str(exc)) from exc
        summary["state"] = "applied"
        return result

    async def _tool(self, payload: dict[str, Any]) -> Any:
        namespace, name = str(payload.get("namespace")), str(payload.get("tool"))
        binding = self.plan.bindings.get((namespace, name))
        if binding is None:
            raise HostCallError("AttributeError", f"{namespace} has no tool {name!r}")
        if payload.get("args") and binding.tool.func is None:
            raise HostCallError("TypeError", f"{namespace}.{name}() takes keyword arguments only")
        args = payload.get("kwargs") or {}
        tool = binding.tool
        try:
            validate_arguments(tool, args)
        except CodeModeError as exc:
            raise HostCallError(type(exc).__name__, str(exc), name) from exc

        async def run(seq: int) -> Any:
            try:
                if tool.func is not None:
                    value = tool.func(*(payload.get("args") or []), **bind_arguments(tool, args))
                    return await value if inspect.isawaitable(value) else value
                if tool.url is not None:
                    from .remote import call_remote_tool

                    return await call_remote_tool(tool, args, secret=binding.secret,
                                                  execution_id=self.execution_id, seq=seq,
                                                  client=self.http, validate=False)
            except ToolError as exc:
                raise HostCallError(exc.name, exc.message, name) from exc
            except CodeModeError as exc:
                raise HostCallError(type(exc).__name__, str(exc), name) from exc
            except HostAbort:
                raise
            except Exception as exc:  # an in-process tool's own failure
                raise HostCallError(type(exc).__name__, str(exc), name) from exc
            raise HostCallError("ToolError", f"tool {namespace}.{name} has no implementation "
                                             "here (no url and no callable)", name)

        return await self._record(namespace, name, args, run)

    async def _state_call(self, payload: dict[str, Any]) -> Any:
        method = str(payload.get("method"))
        operation = self._state.get(method)
        if operation is None:
            raise HostCallError("AttributeError", f"state has no method {method!r}")
        # The guest sends bytes as {"$bytes": base64}; the workspace wants real bytes.
        args = decode_value(payload.get("args") or [])
        kwargs = decode_value(payload.get("kwargs") or {})

        async def run(_seq: int) -> Any:
            try:
                return _stat_json(await operation(*args, **kwargs))
            except WorkspaceError as exc:
                code = getattr(exc, "code", "")
                raise HostCallError(_OS_ERROR_FOR_CODE.get(code, "OSError"), str(exc)) from exc
            except TypeError as exc:
                raise HostCallError("TypeError", f"state.{method}: {exc}") from exc

        return await self._record("state", method, {"args": args, "kwargs": kwargs}, run,
                                  side_effects=method not in READ_ONLY_STATE_METHODS)

    async def _codemode(self, payload: dict[str, Any]) -> Any:
        method = payload.get("method")
        if method == "step_lookup":
            return {"recorded": False}
        if method == "step":
            value = payload.get("value")

            async def recorded(_seq: int) -> Any:
                return value

            return await self._record(STEP_NAMESPACE, str(payload.get("name")), {}, recorded,
                                      side_effects=False)
        if method in ("search", "describe"):
            index = await self._index()
            if method == "search":
                return index.search(str(payload.get("query", "")))
            return index.describe(str(payload.get("target", "")))
        if method == "snippet":
            return await self._snippet(str(payload.get("name", "")))
        raise HostCallError("AttributeError", f"codemode has no method {method!r}")

    async def _index(self) -> CodeIndex:
        snippets = [SnippetInfo(name=s.name, description=s.description or None,
                                input_schema=s.input_schema)
                    for s in await self.store.list_snippets()]
        return CodeIndex(self.plan.namespaces, snippets)

    async def _snippet(self, name: str) -> Any:
        snippet = await self.store.get_snippet(name)
        if snippet is None:
            return {"error": f'Snippet "{name}" not found.'}
        missing = sorted(ns for ns in snippet.namespaces
                         if ns not in self.plan.namespaces and ns not in ("state", "codemode"))
        if missing:
            return {"error": f'Snippet "{name}" needs {", ".join(missing)}, which this execution '
                             "does not have."}
        return {"code": snippet.code}


@dataclass
class ExecuteOptions:
    """One execute request, resolved."""

    code: str
    workspace: str = "default"
    toolsets: Sequence[str] = ()
    tools: Sequence[ToolDef] = ()
    limits: Limits | None = None
    keep_executions: int = 50


async def run_execution(sandbox: AsyncSandbox, store: CodeModeStore, workspace: Workspace,
                        options: ExecuteOptions, http: httpx.AsyncClient,
                        plan: ExecutionPlan) -> dict[str, Any]:
    """Run one execution end to end; the outcome (completed or error) as a value."""
    from sandbox.api import new_execution_id

    execution_id = new_execution_id()
    now = time.time()
    try:
        check_durable_text("The code", options.code)
    except (DurableSizeError, CodeModeError) as exc:
        return {"execution_id": execution_id, "status": "error", "result": None, "logs": [],
                "error": {"name": "DurableSizeError", "message": str(exc), "traceback": ""},
                "trap": {"kind": "code_size", "message": str(exc)}, "calls": [], "duration_ms": 0.0}
    await store.create_execution(ExecutionRecord(
        id=execution_id, workspace=options.workspace, code=options.code, status="running",
        result=None, error=None, logs=[], namespaces={ns: [t.identifier for t in tools]
                                                      for ns, tools in plan.namespaces.items()},
        toolsets=list(plan.toolset_names), created_at=now, updated_at=now,
        runtime_version=RUNTIME_VERSION, journal=[]))
    handler = CodeModeHandler(execution_id=execution_id, plan=plan, workspace=workspace,
                              store=store, http=http)
    outcome = await sandbox.execute(
        options.code, limits=options.limits, handler=handler, namespaces=plan.guest_specs(),
        execution_id=execution_id,
        guest_options={"state_methods": list(STATE_METHODS), "codemode": True,
                       "docs": plan.guest_docs()})
    error = outcome.error
    if outcome.trap is not None and error is not None and outcome.trap["kind"] == "error":
        error = {"name": "ExecutionError", "message": outcome.trap["message"], "traceback": ""}
    await store.finish_execution(execution_id, status=outcome.status, result=outcome.result,
                                 error=error, logs=outcome.logs)
    await store.prune_executions(options.workspace, keep=options.keep_executions)
    response: dict[str, Any] = {
        "execution_id": execution_id, "status": outcome.status, "result": outcome.result,
        "logs": outcome.logs, "calls": handler.calls, "duration_ms": outcome.duration_ms,
    }
    if error is not None:
        response["error"] = error
    if outcome.trap is not None and outcome.trap["kind"] != "error":
        response["trap"] = outcome.trap
    return response



__all__ = ["STATE_DOC", "STATE_METHODS", "CodeModeHandler", "ExecuteOptions", "ExecutionPlan",
           "ToolBinding", "run_execution"]
