"""Code Mode for library users: the execute tool in-process, with Python callables as tools.

    from codemode import CodeMode

    def get_weather(city: str) -> dict:
        '''Current weather for a city.

        Args:
            city: The city's name.
        '''
        return {"city": city, "temp_c": 21}

    async with CodeMode("./data", tools=[get_weather]) as cm:
        outcome = await cm.execute("tools.get_weather(city='Paris')['temp_c']")
        assert outcome["result"] == 21
        print(cm.declarations())   # the typed declarations to show a model

Each callable's input schema comes from its type hints and its docstring; arguments are
validated before it runs, every call is journaled, and ``state.*`` is the workspace in the
data directory (the same database the HTTP service uses).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Callable, Sequence

import httpx

from sandbox import AsyncSandbox, CompiledGuest, Limits
from workspace import WorkspaceStore

from .declarations import render_declarations
from .errors import MissingConnector
from .driver import DurableSettings, ExecuteOptions, Executions, plain_outcome
from .records import ExecutionRecord
from .calls import ExecutionPlan
from .store import CodeModeStore
from .callables import tool_from_callable
from .tooldefs import ToolDef


class CodeMode:
    """An in-process Code Mode runtime over one data directory."""

    def __init__(self, data_dir: str | Path, tools: Sequence[Callable[..., Any] | ToolDef] = (), *,
                 limits: Limits = Limits.default, workers: int | None = None,
                 guest: CompiledGuest | None = None,
                 durable: DurableSettings | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.tools = [t if isinstance(t, ToolDef) else tool_from_callable(t) for t in tools]
        self.limits = limits
        self._workers = workers
        self._guest = guest
        self._secret = secrets.token_urlsafe(32)
        self._sandbox: AsyncSandbox | None = None
        self._workspaces: WorkspaceStore | None = None
        self._store: CodeModeStore | None = None
        self._http: httpx.AsyncClient | None = None
        self._durable = durable or DurableSettings.from_env()
        self._executions: Executions | None = None

    async def __aenter__(self) -> "CodeMode":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        database = self.data_dir / "sandbox.db"
        self._sandbox = AsyncSandbox(limits=self.limits, workers=self._workers, guest=self._guest)
        await self._sandbox.start()
        self._workspaces = await WorkspaceStore.open(database, self.data_dir / "blobs")
        self._store = await CodeModeStore.open(database)
        self._http = httpx.AsyncClient()
        self._executions = Executions(self._sandbox, self._store, self._workspaces, self._http,
                                      settings=self._durable, resolve_plan=self._plan_of,
                                      inline_secret=self._secret)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._executions is not None:
            await self._executions.close()
        if self._http is not None:
            await self._http.aclose()
        if self._store is not None:
            await self._store.close()
        if self._workspaces is not None:
            await self._workspaces.close()
        if self._sandbox is not None:
            await self._sandbox.close()

    def declarations(self) -> str:
        """The typed declarations of ``tools.*`` to show a model."""
        return render_declarations({"tools": self.tools})

    @property
    def executions(self) -> Executions:
        """Approve, reject, submit results, roll back, sweep: see :class:`Executions` (whose
        outcomes may carry a large result as its JSON text: ``plain_outcome`` parses it)."""
        if self._executions is None:
            raise RuntimeError("CodeMode is not started; use 'async with CodeMode(...)'")
        return self._executions

    async def _plan(self, toolsets: Sequence[str]) -> ExecutionPlan:
        assert self._store is not None
        stored = []
        for name in toolsets:
            toolset = await self._store.get_toolset(name)
            if toolset is None:
                raise MissingConnector(f"toolset {name!r} not found")
            stored.append(toolset)
        return ExecutionPlan.build(stored, self.tools, self._secret)

    async def _plan_of(self, record: ExecutionRecord) -> ExecutionPlan:
        return await self._plan(record.toolsets)

    async def execute(self, code: str, *, workspace: str = "default",
                      toolsets: Sequence[str] = (), limits: Limits | None = None,
                      granted_permissions: Sequence[str] | None = None,
                      approval_wait_ms: int = 0) -> dict[str, Any]:
        """Run ``code``; returns ``{execution_id, status, result, logs, error?, calls, ...}``.

        ``status`` may be ``paused`` (a call awaits approval: see ``executions.approve``) or
        ``awaiting_tool``; the execution then continues from its journal when decided.
        """
        plan = await self._plan(toolsets)
        options = ExecuteOptions(code=code, workspace=workspace, limits=limits or self.limits,
                                 granted_permissions=granted_permissions,
                                 approval_wait_ms=approval_wait_ms)
        return plain_outcome(await self.executions.start(options, plan))

    async def approve(self, approval_id: str, *, by: str = "library") -> dict[str, Any]:
        return plain_outcome(await self.executions.approve(approval_id, by=by))

    async def reject(self, approval_id: str, *, by: str = "library",
                     reason: str | None = None) -> dict[str, Any]:
        return plain_outcome(await self.executions.reject(approval_id, by=by, reason=reason))


__all__ = ["CodeMode"]
