"""The driver of durable executions: start, park, decide, resume by replay, roll back, expire,
recover.

:class:`Executions` is the one place that moves an execution between states::

    running ──▶ completed | error                 (the code finished, or failed)
       │ ├────▶ paused ──approve──▶ running        (a gated call waits for a human)
       │ │        └──reject/expire──▶ rejected
       │ └────▶ awaiting_tool ──result──▶ running  (a tool the agent host resolves)
       └─ owner died ──▶ running again (recovery, by replay) … ▶ dead_letter after N tries

A resume never continues a suspended interpreter: it re-runs the stored code in a fresh
isolate and answers every recorded call from the journal (see :mod:`codemode.calls` and
:mod:`codemode.replay`), so a service restart between two steps loses nothing.

Every decision is a compare-and-set in SQLite (the approval row ``pending`` -> decided, the
execution ``paused`` -> ``running``), so of racing decisions exactly one wins, in this
process or another one on the same database. Outcomes are values (``{"status": ...}``);
refusals are :class:`ExecutionConflict` / :class:`~codemode.errors.ExecutionNotFound`. A
large result stays the JSON text the worker sent (a :class:`~sandbox.json_text.JSONText`),
which the service writes out without parsing it; :func:`plain_outcome` parses it for a
caller that wants the value.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from audit import AuditEvent
from sandbox import (AsyncSandbox, ExecutionResult, HostAbort, JSONText, Limits, ToolSpec, tracing,
                     value_of)
from workspace import DEFAULT_TENANT, WorkspaceStore

from . import journal, ledger
from .approvals import DecisionWaiters
from .auditing import ExecutionSubject
from .errors import (
    PermissionWidening,
    ApprovalNotFound,
    CodeModeError,
    EntryNotFound,
    ExecutionConflict,
    ExecutionNotFound,
    ConnectorNotFound,
    MissingConnector,
    ToolCallError,
    ToolError,
)
from .codec import check_durable_text, decode_value
from .records import (
    PARKED_STATES,
    Approval,
    RUNTIME_VERSION,
    TERMINAL_STATES,
    ExecutionRecord,
    JournalEntry,
    new_execution_id,
    now,
)
from .peer_http import PeerHTTP
from .remote import call_remote_revert
from .calls import CodeModeHandler, ExecutionPlan, RunSettings
from .connectors import BoundConnector, Connectors
from .state import STATE_METHODS
from .leases import LeaseKeeper, renewal_interval
from .store import CLAIM_BATCH, CodeModeStore, RunEnd
from .tooldefs import inline_tool

__all__ = [
    "DurableSettings",
    "ExecuteOptions",
    "Executions",
    "plain_outcome",
]

log = logging.getLogger("codemode.driver")

EventPublisher = Callable[[str, str, dict[str, Any]], object]
"""``publish(execution_id, type, data)``: where lifecycle events go (the SSE bus)."""


@dataclass(frozen=True)
class DurableSettings:
    """The durable runtime's knobs (service-wide)."""

    paused_ttl_s: float = 24 * 3600
    """Parked executions older than this are expired by the sweep."""
    max_approval_wait_ms: int = 300_000
    """Upper bound on a request's ``approval_wait_ms``."""
    ledger_lease_ms: int | None = ledger.DEFAULT_LEASE_MS
    """After this, another attempt may reclaim a pending explicit-key ledger row (None: never)."""
    recover_running: bool = True
    """Resume executions whose process died (True), or mark them "Expired while running"."""
    max_attempts: int = 5
    """Runs an execution may start without parking or finishing before it is dead-lettered."""
    lease_margin_s: float = 30.0
    """Added to a run's deadline for its lease; a live run's lease is never taken over: it is
    renewed every third of this while the run lasts (``codemode.leases``)."""
    keep_executions: int = 50
    """Terminal executions kept per workspace as each run starts (so at most one more
    between runs: the last run's own)."""
    operation_keys_max_age_s: float = 30 * 24 * 3600
    """How long the workspace remembers which tagged ``state.*`` writes committed."""
    always_replay: bool = False
    """Test mode: every run stops after each fresh call and continues by replay."""
    poll_ms: float = 1.0
    """How long the event loop polls, instead of sleeping, for a webhook tool's answer and
    for a guest's next host call, while that is the only wait and the last one ended that
    quickly (0: never; see :mod:`sandbox.polling`). The service's worker pool is given the
    same window."""

    @classmethod
    def from_env(cls, **overrides: Any) -> "DurableSettings":
        values: dict[str, Any] = {}
        if os.environ.get("SANDBOX_ALWAYS_REPLAY", "") not in ("", "0"):
            values["always_replay"] = True
        values.update(overrides)
        return cls(**values)


@dataclass
class ExecuteOptions:
    """One execute request, resolved."""

    code: str
    workspace: str = "default"
    limits: Limits | None = None
    granted_permissions: Sequence[str] | None = None
    approval_wait_ms: int = 0
    tenant: str = DEFAULT_TENANT
    principal: str = ""
    """Who asks (a token's name), recorded with the execution."""
    engine: str = "auto"
    """The interpreter (``auto``, ``standard``, ``science``; see ``sandbox.engines``)."""


@dataclass
class _Live:
    """An execution running in this process: what approvers waiting on it get."""

    outcome: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


PlanResolver = Callable[[ExecutionRecord], Awaitable[ExecutionPlan]]

LOG_EVENTS_PER_TURN = 256
"""How many ``log`` events a run's end publishes between two turns of the event loop: a
run that printed its whole 1 MB of short lines made 20,000 of them, which held every other
request for 0.25 s when published at once."""

async def publish_logs(event: Callable[[dict[str, Any]], None], lines: Sequence[str]) -> None:
    """One ``log`` event per line, in order, letting the event loop go every
    ``LOG_EVENTS_PER_TURN`` of them."""
    for n, line in enumerate(lines, 1):
        event({"line": line})
        if n % LOG_EVENTS_PER_TURN == 0:
            await asyncio.sleep(0)


_DECIDED_BUT_PARKED = (
    "(status = 'paused' AND EXISTS (SELECT 1 FROM codemode_approvals a"
    " JOIN codemode_journal j ON j.execution_id = a.execution_id AND j.seq = a.seq"
    " WHERE a.execution_id = codemode_executions.id AND a.status = 'approved'"
    " AND j.state = 'pending'))"
    " OR (status = 'awaiting_tool' AND NOT EXISTS (SELECT 1 FROM codemode_journal j"
    " WHERE j.execution_id = codemode_executions.id AND j.state = 'pending'))"
)
"""Parked executions whose decision is already recorded (left so by a crash of an older
version, or a failed resume): the sweep resumes them."""


def _owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _check_narrowing(record: ExecutionRecord, granted: Sequence[str] | None) -> None:
    """An approver may take permissions away from the resumed run, never add any."""
    if granted is None:
        return
    started_with = record.options.get("granted_permissions")
    if started_with is None:  # started with everything granted: any list narrows it
        return
    added = sorted(set(granted) - set(started_with))
    if added:
        raise PermissionWidening(
            f"an approval may narrow the permissions the execution started with, not widen "
            f"them: {', '.join(added)} {'was' if len(added) == 1 else 'were'} not granted")


def _owner_dead(owner: str | None) -> bool:
    """Whether ``owner`` was a process on this host that no longer exists."""
    if not owner:
        return True
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Executions:
    """Runs and steers durable executions over one store, sandbox and workspace store."""

    def __init__(self, sandbox: AsyncSandbox, store: CodeModeStore, workspaces: WorkspaceStore,
                 http: httpx.AsyncClient, *, settings: DurableSettings | None = None,
                 resolve_plan: PlanResolver | None = None, inline_secret: str = "",
                 publish: EventPublisher | None = None,
                 connectors: Connectors | None = None,
                 log_events: Callable[[str, int], int] | None = None) -> None:
        self.sandbox = sandbox
        self.connectors = connectors
        self.store = store
        self.workspaces = workspaces
        self.http = http
        self.settings = settings or DurableSettings()
        self.peers = PeerHTTP(poll_s=self.settings.poll_ms / 1000)
        """Kept-alive connections for webhook tools' calls and reverts (see :mod:`codemode.peer_http`)."""
        self.inline_secret = inline_secret
        self._resolve = resolve_plan or self._stored_plan
        self._publish = publish
        self._log_events = log_events
        """How many of a run's last ``n`` log lines to publish as events (the bus's
        ``unwatched_tail``, when every watcher is on that bus); None: all of them."""
        self.owner = _owner_id()
        self.waiters = DecisionWaiters()
        self.key_locks = ledger.KeyLocks()
        self.replays = 0
        """Runs restarted by always-replay mode (a measure that the mode is on)."""
        self._live: dict[str, _Live] = {}
        self._background: set[asyncio.Task[Any]] = set()

    # --- plans ------------------------------------------------------------------------

    async def _stored_plan(self, record: ExecutionRecord, *,
                           with_connectors: bool = True) -> ExecutionPlan:
        """The plan of a stored execution: its toolsets and connectors as stored now, its
        inline tools."""
        toolsets = []
        for name in record.toolsets:
            toolset = await self.store.get_toolset(name, record.tenant)
            if toolset is None:
                raise MissingConnector.of(record.id, f'toolset "{name}"')
            toolsets.append(toolset)
        inline = [inline_tool(t) for t in record.options.get("tools", [])]
        names = record.options.get("connectors") or []
        bound: list[BoundConnector] = []
        if with_connectors and names:
            if self.connectors is None:
                raise MissingConnector.of(record.id, "connectors (this service has none)")
            for name in names:
                try:
                    bound += await self.connectors.bind(record.tenant, [str(name)])
                except ConnectorNotFound:
                    raise MissingConnector.of(record.id, f'connector "{name}"') from None
        return ExecutionPlan.build(toolsets, inline, self.inline_secret, bound, record.tenant)

    async def _entries(self, execution_id: str) -> list[JournalEntry]:
        """The execution's journal, read strictly (a damaged row raises CorruptEntry)."""
        async with self.store.reading() as conn:
            return await journal.read(conn, execution_id)

    async def _plan_for_resume(self, record: ExecutionRecord) -> ExecutionPlan:
        plan = await self._resolve(record)
        for namespace, tools in record.namespaces.items():
            have = {t.identifier for t in plan.namespaces.get(namespace, [])}
            lost = [t for t in tools if t not in have]
            if namespace not in plan.namespaces or lost:
                what = f"{namespace}" if namespace not in plan.namespaces else \
                    ", ".join(f"{namespace}.{t}" for t in lost)
                raise MissingConnector.of(record.id, what)
        return plan

    # --- start ------------------------------------------------------------------------

    async def start(self, options: ExecuteOptions, plan: ExecutionPlan,
                    inline_tools: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
        """Record a new execution and run it; the outcome (possibly parked) as a value."""
        execution_id = new_execution_id()
        limits = options.limits or self.sandbox.limits
        try:
            check_durable_text("The code", options.code)
        except CodeModeError as exc:
            return {"execution_id": execution_id, "status": "error", "result": None, "logs": [],
                    "error": {"name": "DurableSizeError", "message": str(exc), "traceback": ""},
                    "trap": {"kind": "code_size", "message": str(exc)}, "calls": [],
                    "duration_ms": 0.0}
        wait_ms = max(0, min(options.approval_wait_ms, self.settings.max_approval_wait_ms))
        stamp = now()
        record = ExecutionRecord(
            id=execution_id, workspace=options.workspace, code=options.code, status="running",
            namespaces={ns: [t.identifier for t in tools] for ns, tools in plan.namespaces.items()},
            toolsets=list(plan.toolset_names), created_at=stamp, updated_at=stamp,
            runtime_version=RUNTIME_VERSION,
            options={"tools": list(inline_tools), "limits": limits.to_dict(),
                     **({"connectors": list(plan.connector_names)} if plan.connector_names else {}),
                     "granted_permissions": None if options.granted_permissions is None
                     else list(options.granted_permissions),
                     "approval_wait_ms": wait_ms, "engine": options.engine, **_traced_by()},
            owner=self.owner, lease_until=stamp + self._lease_s(limits, wait_ms), attempts=1,
            tenant=options.tenant, principal=options.principal)
        # The run goes to its worker first and the row is written while the isolate starts
        # and runs (about 0.3 ms of each execute's SQLite commit taken off its path). The
        # record stays write-ahead: the handler answers no host call, so nothing the code
        # does happens, before the row has committed (``row_written``), and the run's end is
        # recorded only after it.
        row_written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        run = asyncio.ensure_future(self._drive(record, plan, [], options.granted_permissions,
                                                row_written=row_written))
        await asyncio.sleep(0)  # the run task takes its worker and sends the request
        try:
            await self.store.create_execution(
                record, audit=[ExecutionSubject.of(record).started(record)],
                keep=self.settings.keep_executions)
        except BaseException:
            row_written.cancel()
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            raise
        row_written.set_result(None)
        self._event(execution_id, "status", {"status": "running"})
        return await run

    def _lease_s(self, limits: Limits, wait_ms: int) -> float:
        return limits.deadline_s + wait_ms / 1000 + self.settings.lease_margin_s

    def _limits_of(self, record: ExecutionRecord) -> Limits:
        stored = record.options.get("limits")
        return Limits(**stored) if isinstance(stored, dict) else self.sandbox.limits

    # --- running ----------------------------------------------------------------------

    async def _drive(self, record: ExecutionRecord, plan: ExecutionPlan,
                     recorded: list[JournalEntry], granted: Sequence[str] | None, *,
                     row_written: asyncio.Future[None] | None = None) -> dict[str, Any]:
        """Run ``record`` (replaying ``recorded``) until it finishes or parks; a new
        execution's run waits for ``row_written`` before its first host call and its end."""
        live = self._live.setdefault(record.id, _Live())
        parked_in = record.options.get("traceparent") if recorded else None
        token = tracing.execution_id.set(record.id)
        keeper = LeaseKeeper(self.store, record.id, self.owner, self._lease_for(record),
                             renewal_interval(self.settings.lease_margin_s))
        try:
            with tracing.span("codemode.execution", {
                    "sandbox.execution_id": record.id, "sandbox.tenant": record.tenant,
                    "codemode.workspace": record.workspace,
                    "codemode.resumed": bool(recorded), "codemode.recorded_calls": len(recorded)},
                    links=[parked_in] if isinstance(parked_in, str) else ()) as span:
                outcome = await self._run(record, plan, recorded, granted, row_written)
                span.update({"codemode.status": outcome.get("status"),
                             "sandbox.trap": (outcome.get("trap") or {}).get("kind")})
                if outcome.get("status") in PARKED_STATES:
                    await self._keep_traceparent(record)
        except BaseException as exc:
            if not live.outcome.done():
                live.outcome.set_exception(exc)
                live.outcome.exception()  # retrieved: an approver may never await it
            raise
        finally:
            keeper.stop()
            self._live.pop(record.id, None)
            tracing.execution_id.reset(token)
        if not live.outcome.done():
            live.outcome.set_result(outcome)
        return outcome

    async def _run_once(self, record: ExecutionRecord, handler: CodeModeHandler, limits: Limits,
                        namespaces: dict[str, list[ToolSpec]],
                        guest_options: dict[str, Any]) -> ExecutionResult:
        """One run of the code in an isolate, ended once its last call's record committed."""
        try:
            outcome = await self.sandbox.execute(
                record.code, limits=limits, handler=handler, namespaces=namespaces,
                execution_id=record.id, guest_options=guest_options,
                engine=str(record.options.get("engine", "auto")), result_as_text=True)
        except Exception as exc:
            # The run must end here whatever went wrong: left ``running``, the sweep
            # would run the same (possibly hostile) code again, up to max_attempts.
            log.exception("running execution %s failed", record.id)
            outcome = _failed_run(record.id, exc)
        try:
            await handler.settled()  # the last call's record, before the run's end
        except HostAbort as abort:
            outcome = _aborted_run(outcome, abort)
        return outcome

    async def _keep_traceparent(self, record: ExecutionRecord) -> None:
        """Remember the trace that parked ``record``: its resumption links to it."""
        parked_by = tracing.traceparent()
        if parked_by is not None and parked_by != record.options.get("traceparent"):
            await self.store.set_option(record.id, "traceparent", parked_by)

    async def _run(self, record: ExecutionRecord, plan: ExecutionPlan,
                   recorded: list[JournalEntry], granted: Sequence[str] | None,
                   row_written: asyncio.Future[None] | None = None) -> dict[str, Any]:
        limits = self._limits_of(record)
        wait_ms = int(record.options.get("approval_wait_ms", 0))
        run_settings = RunSettings(granted_permissions=granted, approval_wait_s=wait_ms / 1000,
                                   ledger_lease_ms=self.settings.ledger_lease_ms,
                                   always_replay=self.settings.always_replay)
        workspace = self.workspaces.workspace(record.workspace, tenant=record.tenant)

        def events(kind: str, data: dict[str, Any]) -> None:
            self._event(record.id, kind, data)

        started = time.perf_counter()
        carried: dict[int, dict[str, Any]] = {}
        # The same for every run of this execution (always-replay mode runs it many times).
        namespaces = plan.guest_specs()
        guest_options = {"state_methods": list(STATE_METHODS), "codemode": True,
                         "docs": plan.guest_docs()}
        while True:
            handler = CodeModeHandler(
                execution_id=record.id, plan=plan, workspace=workspace, store=self.store,
                http=self.http, peers=self.peers, recorded=recorded, settings=run_settings,
                waiters=self.waiters,
                events=events, key_locks=self.key_locks, carried=carried,
                subject=ExecutionSubject.of(record), row_written=row_written)
            try:
                outcome = await self._run_once(record, handler, limits, namespaces, guest_options)
            except asyncio.CancelledError:
                # Cancelled (shutdown): the last call's record still finishes committing, so
                # nothing of this run writes after its owner has gone on (the store closed).
                await handler.abandoned()
                raise
            if row_written is not None:
                await row_written  # (done already unless the run made no host call)
            kind = outcome.trap["kind"] if outcome.trap else None
            if kind != "replay":
                break
            self.replays += 1
            carried.update((c["seq"], c) for c in handler.calls if not c.get("replayed"))
            recorded = await self._entries(record.id)
            await self.store.extend_lease(record.id, self.owner,
                                          now() + self._lease_s(limits, wait_ms))
        duration = round((time.perf_counter() - started) * 1000, 3)
        response: dict[str, Any] = {"execution_id": record.id, "calls": handler.calls,
                                    "duration_ms": duration, "engine": outcome.engine}
        if kind in PARKED_STATES:
            response.update(status=kind, pending=handler.pending, logs=outcome.logs, result=None)
            self._event(record.id, "completed", {"status": kind, "pending": handler.pending})
            return response
        if kind == "stopped":
            current = await self.store.get_execution(record.id, with_journal=False)
            status = current.status if current is not None else "error"
            response.update(status=status, result=None, logs=outcome.logs,
                            error=current.error if current is not None else None)
            return response
        status, result, error = outcome.status, outcome.result, outcome.error
        if kind == "rejected":
            status, result = "rejected", None
            error = {"name": "ApprovalRejected", "message": await self._rejection_message(record.id)}
        elif kind in ("divergence", "approval_input"):
            status, result = "error", None
            name = "ReplayDivergence" if kind == "divergence" else "ActionApprovalInputError"
            error = {"name": name, "message": outcome.trap["message"] if outcome.trap else ""}
        elif kind == "error" and error is not None:
            error = {"name": "ExecutionError", "message": outcome.trap["message"] if outcome.trap else "",
                     "traceback": ""}
        elif kind is None or status == "completed":
            divergence = handler.unconsumed()
            if divergence is not None:
                status, result = "error", None
                error = {"name": "ReplayDivergence", "message": str(divergence)}
        finished = await self.store.end_run(RunEnd(
            execution_id=record.id, status=status, result=result, error=error, logs=outcome.logs,
            audit=ExecutionSubject.of(record).finished(status, error, len(handler.calls))))
        if not finished:
            # Someone ended it while it ran (cancelled, expired): that decision stands.
            current = await self.store.get_execution(record.id, with_journal=False)
            if current is not None:
                status, result, error = current.status, None, current.error
        if len(outcome.logs) >= LOG_EVENTS_PER_TURN:
            await asyncio.sleep(0)  # the record of many lines was one stretch of the loop
        lines = outcome.logs
        if self._log_events is not None:
            lines = lines[len(lines) - self._log_events(record.id, len(lines)):]
        await publish_logs(lambda data: self._event(record.id, "log", data), lines)
        response.update(status=status, result=result, logs=outcome.logs)
        if outcome.exit_code is not None:
            response["exit_code"] = outcome.exit_code
        if error is not None:
            response["error"] = error
        if outcome.trap is not None and kind not in ("error", "rejected", "divergence",
                                                     "approval_input"):
            response["trap"] = outcome.trap
        if handler.attachments or outcome.attachments:
            response["attachments"] = handler.attachments + outcome.attachments
        if outcome.result_text is not None and status == "completed":
            response["result_text"] = outcome.result_text
        self._event(record.id, "completed",
                    {k: response.get(k) for k in ("status", "result", "error")})
        return response

    async def _rejection_message(self, execution_id: str) -> str:
        """Why a run waiting inline was stopped: the decision on its approval."""
        for approval in await self.store.list_approvals(execution_id=execution_id, status=None):
            action = f"Action {approval.namespace}.{approval.method}"
            if approval.status == "rejected":
                return f"{action} rejected by user: {approval.reason or 'Rejected by user'}"
            if approval.status in ("expired", "cancelled"):
                tail = f" ({approval.reason})" if approval.reason else ""
                return f"{action}: its approval was {approval.status}{tail}"
        return "rejected"

    def _event(self, execution_id: str, kind: str, data: dict[str, Any]) -> None:
        if self._publish is not None:
            try:
                self._publish(execution_id, kind, data)
            except Exception:  # a watcher's trouble never stops an execution
                log.exception("publishing %s of %s failed", kind, execution_id)

    # --- decisions --------------------------------------------------------------------

    async def approve(self, approval_id: str, *, by: str = "api", tenant: str | None = None,
                      note: str | None = None,
                      granted_permissions: Sequence[str] | None = None) -> dict[str, Any]:
        """Approve a pending call; resume its execution (replay) and return the new outcome.

        ``granted_permissions`` may narrow what the run was started with, never widen it.
        """
        approval = await self.store.get_approval(approval_id)
        if approval is None:
            raise ApprovalNotFound(approval_id)
        record = await self.store.get_execution(approval.execution_id, with_journal=False)
        if record is None:
            raise ExecutionNotFound(approval.execution_id)
        try:
            _check_narrowing(record, granted_permissions)
        except PermissionWidening as refused:
            async with self.store.transaction() as tx:  # refused attempts are on record too
                await tx.audit(ExecutionSubject.of(record).approval_refused(
                    approval_id, "approved", by, approval.status, approval.decided_by, tenant,
                    reason=str(refused)))
            raise
        plan = None
        if record.status == "paused":
            plan = await self._plan_for_resume(record)  # missing connector: nothing consumed
        # The decision and taking the execution over are one transaction: a crash cannot
        # leave an approved call whose execution nobody resumes.
        subject = ExecutionSubject.of(record)
        async with self.store.transaction() as tx:
            decided = await tx.decide_approval(approval_id, status="approved", by=by,
                                               reason=note, tenant=tenant)
            claimed = decided and await tx.status_of(record.id) == "paused" and \
                await tx.claim_execution(record.id, owner=self.owner,
                                         lease_until=now() + self._lease_for(record),
                                         from_status=("paused",))
            current = await tx.get_approval(approval_id)
            await tx.audit(_decision_event(subject, approval_id, "approved", by, note, decided,
                                           current, tenant))
        if not decided:
            raise ExecutionConflict(self._not_pending(approval.execution_id, current))
        _trace_decision(approval, "approved")
        self._event(record.id, "approval_decided",
                    {"approval_id": approval_id, "decision": "approved", "by": by})
        if not claimed and record.status == "running" and record.id not in self._live \
                and _owner_dead(record.owner):
            # It was waiting inline in a process that has since died: continue it here now
            # rather than at the next sweep.
            claimed = await self.store.claim_execution(
                record.id, owner=self.owner, lease_until=now() + self._lease_for(record),
                from_status=("running",), expected_owner=record.owner)
        if claimed:
            return await self._run_claimed(record.id, plan, granted_permissions)
        if self.waiters.notify(approval_id):
            live = self._live.get(record.id)
            if live is not None:
                return dict(await asyncio.shield(live.outcome))
        return {"execution_id": record.id, "status": "running",
                "message": "the execution is running in another request, which continues "
                           "with this decision"}

    def _not_pending(self, execution_id: str, approval: Any) -> str:
        if approval is None:
            return f'Execution "{execution_id}" is not paused - its approval no longer exists.'
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(approval.decided_at or 0))
        return (f'Execution "{execution_id}" is not paused - approval {approval.id} was '
                f"already {approval.status} by {approval.decided_by or 'the service'} at {when}.")

    def _lease_for(self, record: ExecutionRecord) -> float:
        return self._lease_s(self._limits_of(record), int(record.options.get("approval_wait_ms", 0)))

    async def _run_claimed(self, execution_id: str, plan: ExecutionPlan | None,
                           granted: Sequence[str] | None = None) -> dict[str, Any]:
        """Run an execution this process has just claimed (status ``running``, owner us)."""
        record = await self.store.get_execution(execution_id, with_journal=False)
        if record is None:
            raise ExecutionNotFound(execution_id)
        try:
            plan = plan or await self._plan_for_resume(record)
            entries = await self._entries(execution_id)
        except BaseException:
            # Give the lease up at once: the sweep retries it (and counts the attempt).
            async with self.store.transaction() as tx:
                await tx.set_owner(execution_id, None, 0.0)
            raise
        if granted is None:
            stored = record.options.get("granted_permissions")
            granted = None if stored is None else list(stored)
        self._event(execution_id, "status", {"status": "running"})
        return await self._drive(record, plan, entries, granted)

    async def reject(self, approval_id: str, *, by: str = "api", tenant: str | None = None,
                     reason: str | None = None) -> dict[str, Any]:
        """Reject a pending call: the execution ends ``rejected``; nothing it pended runs."""
        approval = await self.store.get_approval(approval_id)
        if approval is None:
            raise ApprovalNotFound(approval_id)
        text = reason or "Rejected by user"
        action = f"{approval.namespace}.{approval.method}"
        async with self.store.transaction() as tx:
            decided = await tx.decide_approval(approval_id, status="rejected", by=by, reason=text,
                                               tenant=tenant)
            subject = await tx.subject_of(approval.execution_id)
            if subject is not None:
                await tx.audit(_decision_event(subject, approval_id, "rejected", by, text,
                                               decided, await tx.get_approval(approval_id),
                                               tenant))
            if decided:
                await journal.settle(tx.connection, approval.execution_id, approval.seq,
                                     state="reverted", only_if=("pending",))
                await tx.finish_execution(
                    approval.execution_id, status="rejected",
                    error={"name": "ApprovalRejected",
                           "message": f"Action {action} rejected by user: {text}"},
                    only_if=("paused",))
            current = await tx.get_approval(approval_id)
        if not decided:
            raise ExecutionConflict(self._not_pending(approval.execution_id, current))
        _trace_decision(approval, "rejected")
        self._event(approval.execution_id, "approval_decided",
                    {"approval_id": approval_id, "decision": "rejected", "by": by, "reason": text})
        self.waiters.notify(approval_id)
        return {"status": "rejected", "execution_id": approval.execution_id,
                "approval_id": approval_id, "action": action, "reason": text}

    async def cancel(self, execution_id: str, *, by: str = "api", tenant: str | None = None,
                     reason: str | None = None) -> dict[str, Any]:
        """End a running or parked execution now: status ``cancelled``, nothing pending runs.

        A parked execution's approvals become ``cancelled`` (a later decision is refused);
        a running one stops at its next host call (its journal refuses further writes).
        """
        text = reason or "Cancelled"
        async with self.store.transaction() as tx:
            cancelled = await tx.finish_execution(
                execution_id, status="cancelled",
                error={"name": "Cancelled", "message": f"Cancelled by {by}: {text}"},
                only_if=("running", "paused", "awaiting_tool"))
            pending = await tx.pending_approvals(execution_id) if cancelled else []
            for approval in pending:
                await tx.decide_approval(approval.id, status="cancelled", by=by, reason=text,
                                         tenant=tenant)
            if cancelled:
                await tx.revert_pending(execution_id)
                subject = await tx.subject_of(execution_id)
                if subject is not None:
                    await tx.audit(subject.cancelled(by, text, [a.id for a in pending]))
            status = await tx.status_of(execution_id)
        if status is None:
            raise ExecutionNotFound(execution_id)
        if not cancelled:
            raise ExecutionConflict(
                f'Execution "{execution_id}" is {status}; only a running or parked execution '
                "can be cancelled.")
        for approval in pending:
            self.waiters.notify(approval.id)
            self._event(execution_id, "approval_decided", {
                "approval_id": approval.id, "decision": "cancelled", "by": by, "reason": text})
        self._event(execution_id, "completed", {"status": "cancelled"})
        return {"execution_id": execution_id, "status": "cancelled", "by": by, "reason": text}

    async def submit_result(self, execution_id: str, seq: int, *, output: Any = None,
                            error: dict[str, Any] | None = None) -> dict[str, Any]:
        """The agent host's result for a client-resolved call; the execution resumes."""
        record = await self.store.get_execution(execution_id, with_journal=False)
        if record is None:
            raise ExecutionNotFound(execution_id)
        if record.status != "awaiting_tool":
            raise ExecutionConflict(
                f'Execution "{execution_id}" is {record.status}, not awaiting a tool result.')
        plan = await self._plan_for_resume(record)
        failure = None if error is None else {"name": str(error.get("name") or "Error"),
                                              "message": str(error.get("message", ""))}
        async with self.store.transaction() as tx:
            try:
                settled = await journal.settle(
                    tx.connection, execution_id, seq, state="applied" if failure is None else "error",
                    result=output if failure is None else None, error=failure,
                    only_if=("pending",))
            except EntryNotFound:
                settled = False
            approval = await tx.approval_at(execution_id, seq)
            if settled and approval is not None and approval.status != "approved":
                raise ExecutionConflict(f"step {seq} still awaits approval")
            if settled:
                await tx.audit(await _client_result_event(tx, record, seq, failure))
            # Recorded and taken over in one transaction (see approve).
            claimed = settled and await tx.claim_execution(
                execution_id, owner=self.owner, lease_until=now() + self._lease_for(record),
                from_status=("awaiting_tool",))
            if settled and not claimed:
                raise ExecutionConflict(
                    f'Execution "{execution_id}" is no longer awaiting a tool result.')
        if not settled:
            raise ExecutionConflict(
                f'Execution "{execution_id}" has no call awaiting a result at step {seq}.')
        return await self._run_claimed(execution_id, plan)

    # --- rollback ---------------------------------------------------------------------

    async def rollback(self, execution_id: str) -> dict[str, Any]:
        """Revert applied calls whose tools declare ``revert_url``, newest first."""
        record = await self.store.get_execution(execution_id, with_journal=False)
        if record is None:
            raise ExecutionNotFound(execution_id)
        if record.status not in TERMINAL_STATES or record.status == "rolled_back":
            raise ExecutionConflict(
                f'Execution "{execution_id}" is {record.status}; only a finished execution '
                "can be rolled back.")
        # Connectors revert nothing, so one deleted since does not stop a rollback.
        plan = await self._stored_plan(record, with_connectors=False) \
            if record.toolsets or record.options.get("tools") or record.options.get("connectors") \
            else await self._resolve(record)
        reverted: list[dict[str, Any]] = []
        # Read strictly: a damaged row must stop a rollback, not be reverted blind.
        entries = await self._entries(execution_id)
        for entry in sorted(entries, key=lambda e: e.seq, reverse=True):
            if entry.state != "applied":
                continue
            binding = plan.bindings.get((entry.namespace, entry.method))
            if binding is None or binding.tool.revert_url is None:
                continue
            key = ledger.ledger_key(binding.tool.name, binding.tool.idempotency_key,
                                    _args_of(entry), execution_id, entry.seq)
            try:
                await call_remote_revert(
                    binding.tool, _args_of(entry), entry.result, secret=binding.secret,
                    execution_id=execution_id, seq=entry.seq, idempotency_key=key.sent,
                    client=self.peers)
            except (ToolError, ToolCallError) as exc:
                return {"execution_id": execution_id, "status": record.status,
                        "reverted": reverted,
                        "error": {"name": type(exc).__name__, "message": str(exc),
                                  "seq": entry.seq}}
            async with self.store.transaction() as tx:
                await journal.settle(tx.connection, execution_id, entry.seq, state="reverted",
                                     result=entry.result, only_if=("applied",))
            reverted.append({"seq": entry.seq, "namespace": entry.namespace,
                             "method": entry.method})
        async with self.store.transaction() as tx:
            await tx.finish_execution(execution_id, status="rolled_back",
                                      result=record.result, error=record.error)
            await tx.audit(ExecutionSubject.of(record).rolled_back(reverted))
        self._event(execution_id, "completed", {"status": "rolled_back"})
        return {"execution_id": execution_id, "status": "rolled_back", "reverted": reverted}

    # --- sweeps and recovery ----------------------------------------------------------

    async def sweep(self, *, at: float | None = None, paused_ttl_s: float | None = None,
                    recover_running: bool | None = None) -> dict[str, Any]:
        """Expire old parked runs, recover (or expire) abandoned ones, apply retention.

        ``paused_ttl_s`` and ``recover_running`` override the settings for this sweep (an
        operator expiring everything parked now passes ``paused_ttl_s=0``).
        """
        stamp = now() if at is None else at
        ttl = self.settings.paused_ttl_s if paused_ttl_s is None else paused_ttl_s
        recover = self.settings.recover_running if recover_running is None else recover_running
        expired = []
        for record in await self.store.executions_where(
                "status IN ('paused', 'awaiting_tool') AND updated_at <= ?", [stamp - ttl]):
            if await self._expire_parked(record):
                expired.append(record.id)
        by_outcome: dict[str, list[str]] = {"recovered": [], "dead_letter": [], "expired": []}
        due: list[tuple[str, list[Any]]] = [(f"({_DECIDED_BUT_PARKED})", [])]
        if recover:
            # Abandoned runs whose lease ran out; those out of attempts, or whose owner is
            # known dead before its lease ends, are handled one by one below.
            due.append(("status = 'running' AND (lease_until IS NULL OR lease_until < ?)"
                        " AND attempts < ?", [stamp, self.settings.max_attempts]))
        for where, params in due:
            for execution_id in await self._claim_all(where, params, stamp):
                self._start_background(execution_id)
                by_outcome["recovered"].append(execution_id)
        for record in await self.store.executions_where("status = 'running'", []):
            if record.id in self._live:
                continue
            stale = record.lease_until is None or record.lease_until < stamp
            if not stale and not (record.owner != self.owner and _owner_dead(record.owner)):
                continue
            outcome = await self._recover(record, stamp, recover)
            if outcome is not None:
                by_outcome[outcome].append(record.id)
        async with self.store.transaction() as tx:
            swept = await ledger.sweep(tx.connection, now=stamp)
        await self.workspaces.forget_operations(self.settings.operation_keys_max_age_s)
        return {"expired_parked": expired, "recovered": by_outcome["recovered"],
                "dead_letter": by_outcome["dead_letter"],
                "expired_running": by_outcome["expired"], "ledger_rows_removed": swept}

    async def _claim_all(self, where: str, params: list[Any], stamp: float) -> list[str]:
        """Take over every execution matching ``where``, a batch per transaction (on
        PostgreSQL with ``FOR UPDATE SKIP LOCKED``: concurrent sweepers split them)."""
        def lease_of(record: ExecutionRecord) -> float:
            return stamp + self._lease_for(record)

        claimed: list[str] = []
        while True:
            batch = await self.store.claim_due(where, params, owner=self.owner, lease_of=lease_of)
            claimed += batch
            if len(batch) < CLAIM_BATCH:
                return claimed

    async def _expire_parked(self, record: ExecutionRecord) -> bool:
        paused = record.status == "paused"
        message = "Expired awaiting approval" if paused else "Expired awaiting tool result"
        async with self.store.transaction() as tx:
            done = await tx.finish_execution(
                record.id, status="rejected" if paused else "error",
                error={"name": "Expired", "message": message}, only_if=(record.status,))
            if done:
                expired = await tx.pending_approvals(record.id)
                for approval in expired:
                    await tx.decide_approval(approval.id, status="expired", by="sweep",
                                             reason=message)
                await tx.revert_pending(record.id)
                await tx.audit(ExecutionSubject.of(record).expired(
                    "rejected" if paused else "error", message, [a.id for a in expired]))
        if done:
            self._event(record.id, "completed", {"status": "rejected" if paused else "error",
                                                 "error": {"name": "Expired", "message": message}})
        return done

    async def _recover(self, record: ExecutionRecord, stamp: float, recover: bool) -> str | None:
        """Take over an abandoned running execution: resume it, or give it up."""
        limits = self._limits_of(record)
        wait_ms = int(record.options.get("approval_wait_ms", 0))
        lease = stamp + self._lease_s(limits, wait_ms)
        if not recover:
            async with self.store.transaction() as tx:
                done = await tx.finish_execution(
                    record.id, status="error",
                    error={"name": "Expired", "message": "Expired while running"},
                    only_if=("running",))
                if done:
                    await tx.revert_pending(record.id)
                    await tx.audit(ExecutionSubject.of(record).expired(
                        "error", "Expired while running", []))
            return "expired" if done else None
        if record.attempts >= self.settings.max_attempts:
            async with self.store.transaction() as tx:
                done = await tx.finish_execution(
                    record.id, status="dead_letter",
                    error={"name": "DeadLetter",
                           "message": f"gave up after {record.attempts} attempts to run it; "
                                      "inspect the journal, then delete or re-run it"},
                    only_if=("running",))
                if done:
                    await tx.audit(ExecutionSubject.of(record).dead_lettered(record.attempts))
            if done:
                self._event(record.id, "completed", {"status": "dead_letter"})
            return "dead_letter" if done else None
        # The stale lease (or dead owner) is part of the compare-and-set: of two processes
        # recovering together, exactly one takes it.
        if not await self.store.claim_execution(
                record.id, owner=self.owner, lease_until=lease, from_status=("running",),
                expected_owner=record.owner):
            return None
        self._start_background(record.id)
        return "recovered"

    def _start_background(self, execution_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._continue(execution_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _continue(self, execution_id: str) -> None:
        try:
            await self._run_claimed(execution_id, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("recovering execution %s failed", execution_id)

    async def wait_background(self) -> None:
        """Wait for recoveries started by :meth:`sweep` (tests, orderly shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*list(self._background), return_exceptions=True)
        await self.peers.aclose()


def _trace_decision(approval: Approval, decision: str) -> None:
    """The wait for a human, from the request to this decision, as a span of the deciding
    request's trace (its length is the decision latency)."""
    tracing.record("codemode.approval.decided", int(approval.created_at * 1e9), time.time_ns(),
                   {"sandbox.execution_id": approval.execution_id,
                    "codemode.approval_id": approval.id, "codemode.decision": decision,
                    "codemode.approval.mode": approval.mode, "codemode.seq": approval.seq,
                    "codemode.namespace": approval.namespace, "codemode.method": approval.method})


def _traced_by() -> dict[str, str]:
    """The trace a new execution starts in, kept in its options (nothing while not tracing)."""
    parent = tracing.traceparent()
    return {} if parent is None else {"traceparent": parent}


def _decision_event(subject: ExecutionSubject, approval_id: str, decision: str, by: str,
                    note: str | None, decided: bool, current: Any,
                    tenant: str | None) -> AuditEvent:
    """The decision as recorded, or the refused attempt (late, duplicate) and what it met;
    ``by`` is the deciding principal's name, ``tenant`` its tenant."""
    if decided:
        return subject.approval_decided(approval_id, decision, by, note, tenant)
    return subject.approval_refused(approval_id, decision, by,
                                    None if current is None else current.status,
                                    None if current is None else current.decided_by, tenant)


async def _client_result_event(tx: Any, record: ExecutionRecord, seq: int,
                               failure: dict[str, Any] | None) -> AuditEvent:
    """The agent host's result of a client-resolved call, as a completed call."""
    entries = await journal.read(tx.connection, record.id, strict=False)
    entry = next((e for e in entries if e.seq == seq), None)
    return ExecutionSubject.of(record).call(
        seq, entry.namespace if entry else "", entry.method if entry else "",
        entry.args if entry else "{}", idempotency_key=None,
        outcome="applied" if failure is None else "error", error=failure)


def _aborted_run(outcome: ExecutionResult, abort: HostAbort) -> ExecutionResult:
    """The run's outcome when its last call's record failed after the code went on: the
    run stops as it would have at that call, keeping what it printed."""
    return ExecutionResult(execution_id=outcome.execution_id, status="error",
                           error={"name": "ExecutionError", "message": abort.message,
                                  "traceback": ""},
                           trap=abort.to_trap(), logs=outcome.logs, engine=outcome.engine)


def plain_outcome(outcome: dict[str, Any]) -> dict[str, Any]:
    """``outcome`` with its result a value, parsed if it was carried as its JSON text."""
    if isinstance(outcome.get("result"), JSONText):
        return {**outcome, "result": value_of(outcome["result"])}
    return outcome


def _failed_run(execution_id: str, exc: Exception) -> ExecutionResult:
    message = f"the run failed inside the service ({type(exc).__name__}); it is not retried"
    return ExecutionResult(execution_id=execution_id, status="error",
                           error={"name": "ExecutionError", "message": message, "traceback": ""},
                           trap={"kind": "crash", "message": message})


def _args_of(entry: JournalEntry) -> dict[str, Any]:
    value = decode_value(json.loads(entry.args))
    return value if isinstance(value, dict) else {}
