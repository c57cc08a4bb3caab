"""The per-call decision: at every host call, replay a recorded result, execute, or park.

``CodeModeHandler`` is the ``HostCallHandler`` one run of an execution sees. For a call at
``seq`` (counting from 0 in call order):

1. the journal of earlier runs is consulted: a recorded step must be the same call with the
   same canonical arguments (else the run stops with a divergence error, see
   :mod:`codemode.replay`), and an ``applied`` or ``error`` outcome is the answer;
2. a tool's arguments are validated against its input schema (invalid: a typed error in
   the guest, nothing recorded, nothing sent);
3. authorization (the tool's ``permissions`` against the execution's grants), then approval:
   a gated call is recorded ``pending`` and the run parks (``durable``), or waits for a
   decision without being charged for it (``inline``);
4. the call runs: a Python callable, a signed POST to the tool's ``url`` (explicit
   idempotency keys through the ledger), a workspace operation (``state.*``), a step; a tool
   with neither url nor callable parks the run until the agent host posts its result;
5. it is journaled: side effects ``executing`` before and settled after, reads once; the
   settled record (a value or an error) commits while the outcome goes back to the code,
   and the next call and the run's end wait for it.

Parking and stopping raise :class:`HostAbort`, which unwinds the isolate from the host
side: code that catches exceptions cannot continue past it. Values over the durable limit
(1,000,000 characters) stop the execution: what cannot be recorded cannot be replayed.
:mod:`codemode.driver` drives whole executions around this handler.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, NoReturn, Sequence

import httpx

from sandbox import HostAbort, HostCallError, JSONText, ToolSpec, tracing, uncharged_wait
from storage import Body
from workspace import DEFAULT_TENANT, Workspace, WorkspaceError, operation_key

from .actions import approval_descriptor, approval_mode, authorize, cap_attachments
from .approvals import DecisionWaiters
from .declarations import render_namespace, tools_note
from .normalise import normalise_output, plain_output_text
from .errors import (
    ActionAuthorizationError,
    ActionKeyConflict,
    ActionKeyError,
    ActionPendingError,
    CodeModeError,
    ExecutionNotRunning,
    ReplayDivergence,
    ToolDefinitionError,
    ToolError,
    error_attributes,
)
from audit import AuditEvent, appending

from . import journal
from .auditing import ExecutionSubject
from .journal import make_entry
from .ledger import (
    DEFAULT_LEASE_MS,
    KeyLocks,
    LedgerKey,
    Replay,
    input_hash,
    ledger_key,
)
from .ledger import claim as ledger_claim
from .ledger import discard as ledger_discard
from .ledger import settle as ledger_settle
from .codec import decode_value
from .connectors import BoundConnector, ConnectorCall, ConnectorReads
from .records import Approval, JournalEntry, new_approval_id, now
from .peer_http import PeerHTTP
from .remote import call_remote_tool_reply
from .replay import check_step, first_unconsumed, replayable
from .search import CodeIndex, SnippetInfo
from .state import (
    READ_ONLY_STATE_METHODS,
    StateOperation,
    STATE_DOC,
    os_error_name,
    stat_json,
    state_operations,
)
from .store import CodeModeStore, StoreTransaction
from .callables import bind_arguments
from .tooldefs import ToolDef, Toolset, requires_approval, validate_arguments

__all__ = [
    "CodeModeHandler",
    "EventSink",
    "ExecutionPlan",
    "RunSettings",
    "ToolBinding",
]

log = logging.getLogger(__name__)
REPORT_WITHIN_S = 0.001
"""The longest a settled call waits to be reported to the watchers (see ``_report_soon``)."""

EventSink = Callable[[str, dict[str, Any]], None]
"""Where a run reports what happens (``tool_call``, ``approval_requested``...) as it happens."""


STEP_NAMESPACE = "__step"

_CALL_KINDS = {"tool": "tool", "state": "state", "codemode": "codemode"}
"""The host-call names a span may carry; any other (the guest's choice) is ``other``."""

@dataclass
class ToolBinding:
    """A tool as one execution sees it: its definition, namespace and signing secret."""

    tool: ToolDef
    namespace: str
    secret: str
    connector: ConnectorCall | None = None
    """How a connector's method is called (MCP, OpenAPI); None for a toolset's tool."""
    reads: ConnectorReads | None = None
    """Which of a connector's calls only read (journaled once, after they ran)."""


@dataclass
class ExecutionPlan:
    """Everything one execution can reach, resolved before it starts."""

    namespaces: dict[str, list[ToolDef]]
    bindings: dict[tuple[str, str], ToolBinding]
    toolset_names: list[str] = field(default_factory=list)
    connector_names: list[str] = field(default_factory=list)
    tenant: str = DEFAULT_TENANT
    """Whose connectors ``connector_names`` are (a resume binds them again)."""

    @classmethod
    def build(cls, toolsets: Sequence[Toolset], inline: Sequence[ToolDef] = (),
              inline_secret: str = "", connectors: Sequence[BoundConnector] = (),
              tenant: str = DEFAULT_TENANT) -> "ExecutionPlan":
        namespaces: dict[str, list[ToolDef]] = {}
        bindings: dict[tuple[str, str], ToolBinding] = {}

        def add(namespace: str, tools: Sequence[ToolDef], secret: str,
                connector: ConnectorCall | None = None,
                reads: ConnectorReads | None = None) -> None:
            if namespace in namespaces:
                raise ToolDefinitionError("execution", [f"namespace {namespace!r} is given twice"])
            namespaces[namespace] = list(tools)
            for tool in tools:
                bindings[(namespace, tool.identifier)] = ToolBinding(tool, namespace, secret,
                                                                     connector, reads)

        if inline:
            add("tools", inline, inline_secret)
        for toolset in toolsets:
            add(toolset.namespace, toolset.tools, toolset.secret)
        for bound in connectors:
            add(bound.namespace, bound.tools, "", bound.call, bound.reads)
        return cls(namespaces, bindings, [t.name for t in toolsets],
                   [c.name for c in connectors], tenant)

    def guest_specs(self) -> dict[str, list[ToolSpec]]:
        return {ns: [ToolSpec(t.identifier, t.description, keyword_only=t.func is None)
                     for t in tools] for ns, tools in self.namespaces.items()}

    def guest_docs(self) -> dict[str, str]:
        docs = {ns: _namespace_doc(ns, tools) for ns, tools in self.namespaces.items()}
        note = tools_note({ns: [t.identifier for t in tools] for ns, tools in self.namespaces.items()})
        if note:
            docs["tools"] = (docs["tools"] + "\n" if "tools" in docs else "") + note
        docs["state"] = STATE_DOC
        return docs


_DOCS_KEPT = 128
_docs: "OrderedDict[tuple[str, tuple[int, ...]], tuple[tuple[ToolDef, ...], str]]" = OrderedDict()
"""Rendered namespaces by the identity of their tools (which the entry holds, so an id is
not reused while it is kept). A bound connector's tools are the same objects from one
execute to the next (``Connectors`` keeps them while its row is unchanged), and rendering
them was a third of the service's own work for an execute naming two connectors."""


def _namespace_doc(namespace: str, tools: Sequence[ToolDef]) -> str:
    key = (namespace, tuple(id(tool) for tool in tools))
    kept = _docs.get(key)
    if kept is not None:
        _docs.move_to_end(key)
        return kept[1]
    text = render_namespace(namespace, tools, include_unimplemented=True)
    _docs[key] = (tuple(tools), text)
    while len(_docs) > _DOCS_KEPT:
        _docs.popitem(last=False)
    return text


@dataclass
class RunSettings:
    """How one run of an execution behaves, resolved from the request and the service."""

    granted_permissions: Sequence[str] | None = None
    """Permissions granted to this execution; ``None`` grants all (the reference default)."""
    approval_wait_s: float = 0.0
    """How long an ``inline`` approval holds the request before it becomes a durable pause."""
    ledger_lease_ms: int | None = DEFAULT_LEASE_MS
    """When another attempt's pending ledger row may be reclaimed (None: never)."""
    always_replay: bool = False
    """Test mode: stop after every fresh call, so the run continues by replaying its journal."""


def _error_of(failure: HostCallError) -> dict[str, Any]:
    """A failed call's journaled error: what a replay raises again, attributes included."""
    error: dict[str, Any] = {"name": failure.name, "message": failure.message}
    if failure.details:
        error["details"] = failure.details
    return error


def _capped_for_code(value: Any) -> Any:
    """A tool's output as the code receives it: capped like the reference caps an output it
    shows (``normalise_output``: 20,000 characters); the journal keeps the whole value, and
    a replay is capped the same way. A value with no plain JSON form (bytes) goes as it is:
    the wire carries it tagged.

    A plain value goes as its JSON text, encoded once here and not again for the wire; only
    ASCII text, which the worker hands to the guest as it is (a lone surrogate, which a
    tool's JSON may carry, could not cross as UTF-8)."""
    text = plain_output_text(value)
    if text is not None and text.isascii():
        return JSONText(text)
    shown = normalise_output(value)
    if isinstance(shown, dict) and shown.get("serialized") is False:
        return value
    return shown


def _retrieved(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()


def _journal_write(execution_id: str, entry: JournalEntry, recorded: JournalEntry | None,
                   state: str, result: Any, error: dict[str, Any] | None,
                   attachments: list[dict[str, Any]] | None,
                   audit: AuditEvent | None) -> Callable[[], Body[None]]:
    """The body of :meth:`CodeModeHandler._write`: the audit entry, then the row's change."""
    def body() -> Body[None]:
        if audit is not None:
            yield from appending([audit], now())
        if recorded is None:
            yield from journal.appending(entry.in_state(state, result, error, attachments),
                                         require_running=True)
        elif recorded.state == "reverted":
            yield from journal.replacing(entry.in_state(state, result, error, attachments))
        else:
            yield from journal.settling(execution_id, entry.seq, state=state, result=result,
                                        error=error, attachments=attachments, path=entry.path)
    return body


class CodeModeHandler:
    """Answers one run's host calls: replay, execute or park; every call journaled.

    ``recorded`` is the journal of the execution's earlier runs. A call whose ``seq`` is
    recorded must match it (:mod:`codemode.replay`) and is answered from it when it has an
    outcome; a pending step runs once approved; anything new is decided fresh. Parking
    (approval, client-resolved tool, rejection, divergence) raises :class:`HostAbort`, which
    unwinds the isolate from the host side, so the code cannot catch it and continue.
    """

    def __init__(self, *, execution_id: str, plan: ExecutionPlan, workspace: Workspace,
                 store: CodeModeStore, http: httpx.AsyncClient, peers: PeerHTTP | None = None,
                 recorded: Sequence[JournalEntry] = (), settings: RunSettings | None = None,
                 waiters: DecisionWaiters | None = None, events: EventSink | None = None,
                 key_locks: KeyLocks | None = None,
                 carried: dict[int, dict[str, Any]] | None = None,
                 subject: ExecutionSubject | None = None,
                 row_written: asyncio.Future[None] | None = None) -> None:
        self.execution_id = execution_id
        self.subject = subject or ExecutionSubject(execution_id, workspace.name)
        """Whose execution this is: what its calls are recorded under in the audit log."""
        self.plan = plan
        self.workspace = workspace
        self.store = store
        self.http = http
        self.peers = peers
        """Where webhook calls go when given (kept-alive connections); else through ``http``."""
        self.settings = settings or RunSettings()
        self.waiters = waiters or DecisionWaiters()
        self.events = events
        self.key_locks = key_locks or KeyLocks()
        self.carried = carried or {}
        """Calls made fresh by earlier runs of this request, reported as first seen."""
        self.recorded = {entry.seq: entry for entry in recorded}
        self.seq = 0
        self.calls: list[dict[str, Any]] = []
        self.stopped: str | None = None
        """Set once the run has been told to stop; any later call is refused unrecorded."""
        self.pending: list[dict[str, Any]] = []
        """What a parked run waits for: approvals or client tool results."""
        self.attachments = [a for e in recorded if e.state == "applied" for a in e.attachments]
        """Attachments of this execution's applied calls, recorded and new, in call order."""
        self._open_step: str | None = None
        """The name of a ``codemode.step`` whose function is running (no host calls then)."""
        self._state_operations: dict[str, StateOperation] | None = None
        self._row_written = row_written
        """Done once the execution's row has committed: no call is answered before."""
        self._settling: asyncio.Task[None] | None = None
        """The last call's settled record, committing while the code goes on (see
        :meth:`_settle_later`); the next call and the run's end wait for it."""
        self._unreported: list[tuple[JournalEntry, dict[str, Any]]] = []
        """Calls whose record has committed and that the watchers have not been told of yet
        (see :meth:`_report_soon`), oldest first."""
        self._report_timer: asyncio.TimerHandle | None = None

    # --- dispatch ---------------------------------------------------------------------

    async def __call__(self, name: str, payload: Any) -> Any:
        await self._recorded()
        if self._row_written is not None:
            await self._row_written
            self._row_written = None
        # The span's namespace and method are set where the call is known to be real
        # (``_note``): ``name`` and the payload are the guest's own, unbounded strings.
        with tracing.span("codemode.host_call", {"codemode.call": _CALL_KINDS.get(name, "other"),
                                                 "sandbox.execution_id": self.execution_id}) as span:
            try:
                return await self._dispatch(name, payload)
            except HostCallError:
                span.set("codemode.outcome", "error")
                raise
            except HostAbort as abort:
                span.set("codemode.outcome", abort.kind)
                raise

    async def _dispatch(self, name: str, payload: Any) -> Any:
        if self.stopped is not None:
            # Only reachable through a bug: the abort already unwound the guest.
            raise HostAbort(self.stopped, f"execution {self.execution_id} is not running")
        if not isinstance(payload, dict):
            raise HostCallError("TypeError", "host call payload must be an object")
        if self._open_step is not None and not (name == "codemode" and payload.get("method") == "step"):
            raise HostCallError(
                "StepError", f"codemode.step({self._open_step!r}, fn): fn must only compute a value; it "
                "cannot call tools, state or codemode (make those calls outside the step)")
        if name == "tool":
            return _capped_for_code(await self._tool(payload))
        if name == "state":
            return await self._state_call(payload)
        if name == "codemode":
            return await self._codemode(payload)
        raise HostCallError("ToolError", f"unknown host call {name!r}")

    # --- journal plumbing -------------------------------------------------------------

    def _next(self, namespace: str, method: str, args: Any, *, decoded: bool = False
              ) -> tuple[JournalEntry, JournalEntry | None]:
        """The entry for the next call and the journal's record of that step, if any
        (``decoded``: ``args`` are as the wire's JSON gave them)."""
        seq = self.seq
        try:
            entry = make_entry(self.execution_id, seq, namespace, method, args, decoded=decoded)
        except CodeModeError as exc:  # too large or not serialisable: cannot be recorded
            self._stop("error")
            raise HostAbort("error", str(exc)) from exc
        self.seq += 1
        recorded = self.recorded.get(seq)
        if recorded is not None:
            try:
                check_step(self.execution_id, recorded, entry)
            except ReplayDivergence as divergence:
                kind = "divergence"
                message = str(divergence)
                if divergence.arguments and recorded.state == "pending" and recorded.requires_approval:
                    # What a human approved is not what would run now: refuse, run nothing.
                    kind = "approval_input"
                    message += (" The input differs from the one that was approved "
                                "(ActionApprovalInputError); nothing ran.")
                self._stop(kind)
                raise HostAbort(kind, message) from divergence
        return entry, recorded

    def _stop(self, kind: str) -> None:
        self.stopped = kind

    def _note(self, entry: JournalEntry, **fields: Any) -> dict[str, Any]:
        self._annotate(entry, fields)
        return self._report(entry, fields)

    def _annotate(self, entry: JournalEntry, fields: dict[str, Any]) -> None:
        if tracing.active:
            replayed = bool(fields.get("replayed"))
            tracing.annotate({"codemode.namespace": entry.namespace, "codemode.method": entry.method,
                              "codemode.seq": entry.seq, "codemode.state": fields.get("state"),
                              "codemode.replayed": replayed,
                              "codemode.outcome": "replayed" if replayed else fields.get("state"),
                              "codemode.arguments": entry.args if tracing.arguments else None})

    def _report(self, entry: JournalEntry, fields: dict[str, Any]) -> dict[str, Any]:
        """The call as the response and the execution's watchers see it (after every call
        settled before it: calls are reported in order)."""
        if self._unreported:
            self._flush_reports()
        carried = self.carried.get(entry.seq) if fields.get("replayed") else None
        if carried is not None:
            # Made fresh by an earlier run of this same request (always-replay mode): report
            # it as that run saw it, so the outcome reads the same in either mode.
            self.calls.append(carried)
            return carried
        summary: dict[str, Any] = {"seq": entry.seq, "namespace": entry.namespace,
                                   "method": entry.method, "args": json.loads(entry.args)}
        summary.update(fields)

        self.calls.append(summary)
        if self.events is not None:
            self.events("tool_call", {k: v for k, v in summary.items() if k != "result"})
        return summary

    def _replay(self, recorded: JournalEntry) -> Any:
        if recorded.state == "error":
            self._note(recorded, state="error", error=recorded.error, replayed=True)
            error = recorded.error or {}
            details = error.get("details")
            raise HostCallError(str(error.get("name", "Error")), str(error.get("message", "")),
                                details=details if isinstance(details, dict) else None)
        self._note(recorded, state="applied", replayed=True)
        return recorded.result

    def _after_fresh(self) -> None:
        """In always-replay mode, stop now: the next run must reach here by replay."""
        if self.settings.always_replay:
            self._stop("replay")
            raise HostAbort("replay", "always-replay test mode: continue from the journal")

    async def _write(self, entry: JournalEntry, recorded: JournalEntry | None, *, state: str,
                     result: Any = None, error: dict[str, Any] | None = None,
                     attachments: list[dict[str, Any]] | None = None,
                     tx: StoreTransaction | None = None, audit: AuditEvent | None = None) -> None:
        """Record ``entry``'s new state: a new row, or the recorded row moved on (with the
        audit event of a settled side effect, in the same transaction).

        Without ``tx`` it is a transaction of its own: the audit entry and the journal write
        as one body, one hop to SQLite's thread (a fresh call's cost is mostly these hops)."""
        body = _journal_write(self.execution_id, entry, recorded, state, result, error,
                              attachments, audit)
        await (self.store.run(body) if tx is None else tx.run(body))

    def _audit_call(self, entry: JournalEntry, outcome: str, *, key: str | None = None,
                    error: dict[str, Any] | None = None) -> AuditEvent:
        return self.subject.call(entry.seq, entry.namespace, entry.method, entry.args,
                                 idempotency_key=key, outcome=outcome, error=error)

    async def _fail(self, entry: JournalEntry, recorded: JournalEntry | None,
                    error: dict[str, Any], tool: str | None = None, *,
                    audited: bool = False, key: str | None = None) -> NoReturn:
        """Record the call as failed with ``error`` and raise it in the guest; ``audited``:
        a call with a side effect, whose failure the audit log records too."""
        audit = self._audit_call(entry, "error", key=key, error=error) if audited else None
        await self._settle_later(entry, lambda: self._write(entry, recorded, state="error",
                                                            error=error, audit=audit),
                                 {"state": "error", "error": error})
        self._after_fresh()
        raise HostCallError(str(error["name"]), str(error["message"]), tool, error.get("details"))

    async def settled(self) -> None:
        """Wait for the last call's settled record to commit and report every settled call;
        raise a failure to commit as the :class:`HostAbort` that stops the run. The driver
        calls it before it ends a run."""
        try:
            await self._recorded()
        finally:
            self._flush_reports()

    async def _recorded(self) -> None:
        """:meth:`settled` without the reports: what a call waits for before it goes on."""
        settling = self._settling
        if settling is None:
            return
        if settling.done():  # committed while the code ran on (the usual case): no shield
            self._settling = None
            settling.result()
            return
        try:
            # Shielded: a run cancelled while it waits must not cut the record's commit short.
            await asyncio.shield(settling)
        finally:
            if settling.done():
                self._settling = None

    async def abandoned(self) -> None:
        """The run was cancelled: wait for the last call's record to finish committing (a
        failure to commit it has been logged; there is no run left to stop)."""
        if self._settling is not None:
            await asyncio.wait([self._settling])
        self._flush_reports()

    def _report_soon(self, entry: JournalEntry, fields: dict[str, Any]) -> None:
        """Report a settled call once the event loop has nothing more urgent to do.

        Reporting (the call's summary and its event) took a quarter of a webhook call's
        settling, which ran on until the guest's next call had arrived and held it up. Now
        the next webhook call reports it while it waits for its own tool's answer, any
        report reports the ones before it first, and the run's end reports what is left;
        failing those, a timer does within a millisecond (code that makes no more calls
        for a while)."""
        self._unreported.append((entry, fields))
        if self._report_timer is None:
            self._report_timer = asyncio.get_running_loop().call_later(
                REPORT_WITHIN_S, self._reports_due)

    def _reports_due(self) -> None:
        self._report_timer = None
        self._flush_reports()

    def _flush_reports(self) -> None:
        # A timer already set stays, and finds nothing left when it fires: cheaper than
        # setting one and cancelling it for every call (this way one is set at most once
        # a millisecond).
        unreported, self._unreported = self._unreported, []
        for entry, fields in unreported:
            self._report(entry, fields)

    async def _settle_later(self, entry: JournalEntry, write: Callable[[], Awaitable[None]],
                            fields: dict[str, Any]) -> None:
        """Record a call's outcome while its value goes back to the code.

        The record is still written before anything the code can do next happens: every
        later call waits for it first (``__call__``), and so does the run's end, so no side
        effect and no result ever follows a call whose record is not committed. What is
        saved is the write's time on the call's path: an execute of ten webhook calls over
        HTTP, two services alternating, went 28.5 -> 24.5 ms p50 (paired -3.1 ms).

        The call is reported to the execution's watchers once its record has committed. A
        write that fails stops the run at its next call or at its end, as it would have
        stopped it at this call. In always-replay mode the run stops after this call and the
        next reads its journal, so the record is written first."""
        self._annotate(entry, fields)

        async def settle() -> None:
            try:
                await self._guarded(write)
            except HostAbort:
                raise
            except Exception as exc:
                log.exception("recording call %s of %s failed", entry.seq, self.execution_id)
                self._stop("error")
                raise HostAbort("error", f"the record of call {entry.seq} ({entry.path}) "
                                         f"could not be written ({type(exc).__name__})") from exc
            self._report_soon(entry, fields)

        if self.settings.always_replay:
            await settle()
        else:
            self._settling = asyncio.ensure_future(settle())
            # Its failure is raised by ``settled``; a run cancelled meanwhile never asks.
            self._settling.add_done_callback(_retrieved)

    async def _guarded(self, write: Callable[[], Awaitable[None]]) -> None:
        """Run a journal write; an execution no longer running stops the run unrecorded."""
        try:
            await write()
        except ExecutionNotRunning as exc:
            self._stop("stopped")
            raise HostAbort("stopped", str(exc)) from exc
        except CodeModeError as exc:  # the value cannot be recorded, so it cannot be replayed
            self._stop("error")
            raise HostAbort("error", str(exc)) from exc

    async def _journaled(self, namespace: str, method: str, args: Any,
                         run: Callable[[int], Awaitable[Any]], *, side_effects: bool = True,
                         committed: Callable[[int], Awaitable[Any]] | None = None) -> Any:
        """Journal a call that needs no approval or ledger (``state.*``, steps).

        A call with side effects is written ``executing`` before it runs and settled after;
        it runs tagged with the key ``<execution_id>:<seq>``, which the workspace records in
        the write's own transaction. So when a crash left the entry ``executing``, a resume
        can tell whether the write committed: if it did, ``committed`` gives its result
        and nothing is written twice; if not, it runs now. A read is written once, after it
        ran.
        """
        entry, recorded = self._next(namespace, method, args)
        if recorded is not None and replayable(recorded):
            return self._replay(recorded)
        key = f"{self.execution_id}:{entry.seq}"
        audited = side_effects  # a write recovered as committed below is still one
        if (committed is not None and recorded is not None and recorded.state == "executing"
                and await self.workspace.store.operation_applied(key)):
            run, side_effects = committed, False
        elif side_effects and (recorded is None or recorded.state == "reverted"):
            await self._guarded(lambda: self._write(entry, recorded, state="executing"))
            recorded = entry.in_state("executing")
        token = operation_key.set(key if side_effects else None)
        try:
            result = await run(entry.seq)
        except HostCallError as failure:
            await self._fail(entry, recorded, _error_of(failure),
                             failure.tool, audited=audited, key=key if audited else None)
        finally:
            operation_key.reset(token)
        audit = self._audit_call(entry, "applied", key=key) if audited else None
        await self._settle_later(entry, lambda: self._write(entry, recorded, state="applied",
                                                            result=result, audit=audit),
                                 {"state": "applied"})
        self._after_fresh()
        return result

    # --- tools ------------------------------------------------------------------------

    async def _tool(self, payload: dict[str, Any]) -> Any:
        namespace, name = str(payload.get("namespace")), str(payload.get("tool"))
        binding = self.plan.bindings.get((namespace, name))
        if binding is None:
            raise HostCallError("AttributeError", f"{namespace} has no tool {name!r}")
        if payload.get("args") and binding.tool.func is None:
            raise HostCallError("TypeError", f"{namespace}.{name}() takes keyword arguments only")
        args = payload.get("kwargs") or {}
        tool = binding.tool
        recorded_here = self.recorded.get(self.seq)
        if recorded_here is None or not replayable(recorded_here):
            # A replayed call has the arguments it was validated with when it was recorded
            # (replay compares them), so only a call that will run is validated.
            try:
                validate_arguments(tool, args)
            except CodeModeError as exc:
                raise HostCallError(type(exc).__name__, str(exc), name) from exc
        entry, recorded = self._next(namespace, name, args, decoded=True)
        if recorded is not None and replayable(recorded):
            return self._replay(recorded)

        try:
            authorize(tool, entry.path, self.settings.granted_permissions)
        except ActionAuthorizationError as denied:
            await self._fail(entry, recorded, {"name": "ActionAuthorizationError",
                                               "message": str(denied),
                                               "permissions": denied.permissions}, name,
                             audited=True)

        if recorded is not None and recorded.state == "pending":
            approval = await self.store.approval_at(self.execution_id, entry.seq)
            if approval is not None and approval.status == "pending":
                await self._await_decision(binding, entry, recorded, approval)
            elif approval is not None and approval.status != "approved":
                self._stop("rejected")
                raise HostAbort("rejected", f"Action {entry.path} was {approval.status}")
        elif recorded is None and requires_approval(tool, args):
            await self._request_approval(binding, entry, args)
            recorded = replace(entry, state="pending", requires_approval=True)
        return await self._execute_tool(binding, entry, recorded, payload, args)

    async def _request_approval(self, binding: ToolBinding, entry: JournalEntry,
                                args: dict[str, Any]) -> None:
        """Record the call ``pending`` with its approval; park or wait, by the tool's mode."""
        tool = binding.tool
        mode = approval_mode(tool)
        approval = Approval(
            id=new_approval_id(), execution_id=self.execution_id, seq=entry.seq,
            workspace=self.workspace.name, namespace=entry.namespace, method=entry.method,
            args=args, mode=mode,
            descriptor=approval_descriptor(tool, binding.namespace, args,
                                           execution_id=self.execution_id, seq=entry.seq))
        pending = replace(entry, state="pending", requires_approval=True)
        park = mode != "inline" or self.settings.approval_wait_s <= 0

        async def write() -> None:
            async with self.store.transaction() as tx:
                await journal.append(tx.connection, pending, require_running=True)
                await tx.add_approval(approval)
                await tx.audit(self.subject.approval_requested(
                    approval.id, entry.seq, entry.namespace, entry.method, entry.args, mode))
                if park:
                    await tx.finish_execution(self.execution_id, status="paused",
                                              only_if=("running",))
        await self._guarded(write)
        tracing.annotate({"codemode.approval_id": approval.id, "codemode.approval.mode": mode})
        self._publish("approval_requested", self._pending_view(approval))
        self._note(entry, state="pending", requires_approval=True, approval_id=approval.id)
        if park:
            self._park_on(approval)
        await self._await_decision(binding, entry, pending, approval)

    def _pending_view(self, approval: Approval) -> dict[str, Any]:
        return {"approval_id": approval.id, "seq": approval.seq, "namespace": approval.namespace,
                "method": approval.method, "args": approval.args,
                "descriptor": approval.descriptor}

    def _park_on(self, approval: Approval) -> NoReturn:
        self.pending = [self._pending_view(approval)]
        self._stop("paused")
        raise HostAbort("paused", f"awaiting approval {approval.id} of "
                                  f"{approval.namespace}.{approval.method}")

    async def _await_decision(self, binding: ToolBinding, entry: JournalEntry,
                              recorded: JournalEntry, approval: Approval) -> None:
        """Wait inline for the decision (time not charged to the deadline); park if none."""
        if approval.mode == "inline" and self.settings.approval_wait_s > 0:
            async def status_of() -> str | None:
                found = await self.store.get_approval(approval.id)
                return None if found is None else found.status

            with tracing.span("codemode.approval.wait", {"codemode.approval_id": approval.id,
                                                         "codemode.seq": entry.seq}) as span:
                async with uncharged_wait():
                    decision = await self.waiters.wait(approval.id, self.settings.approval_wait_s,
                                                       status_of)
                span.set("codemode.decision", decision)
            if decision == "approved":
                return
            if decision != "pending":
                self._stop("rejected")
                raise HostAbort("rejected", f"Action {entry.path} was {decision}")
        # No decision in time: become a durable pause, unless one landed just now.
        async with self.store.transaction() as tx:
            current = await tx.get_approval(approval.id)
            status = current.status if current is not None else "cancelled"
            if status == "pending":
                await tx.finish_execution(self.execution_id, status="paused", only_if=("running",))
        if status == "approved":
            return
        if status != "pending":
            self._stop("rejected")
            raise HostAbort("rejected", f"Action {entry.path} was {status}")
        self._park_on(approval)

    async def _execute_tool(self, binding: ToolBinding, entry: JournalEntry,
                            recorded: JournalEntry | None, payload: dict[str, Any],
                            args: dict[str, Any]) -> Any:
        tool = binding.tool
        if tool.func is None and tool.url is None:
            await self._await_client(entry, recorded)
        try:
            key = ledger_key(tool.name, tool.idempotency_key, args, self.execution_id, entry.seq)
        except ActionKeyError as bad_key:
            await self._fail(entry, recorded, {"name": "ActionKeyError", "message": str(bad_key)},
                             tool.name, audited=True)
        if not key.explicit:
            # A default key is ``execution_id:seq``: the journal row at that step already is
            # its ledger (executing, then applied), so no second row is written for it.
            return await self._run_action(binding, entry, recorded, payload, args, key, None)
        digest = input_hash(args)
        # Concurrent calls with one key in this process take turns: the first executes and
        # settles, the others then find the settled row and replay it (run once).
        async with self.key_locks.hold(key.key):
            return await self._run_action(binding, entry, recorded, payload, args, key, digest)

    async def _run_action(self, binding: ToolBinding, entry: JournalEntry,
                          recorded: JournalEntry | None, payload: dict[str, Any],
                          args: dict[str, Any], key: LedgerKey, digest: str | None) -> Any:
        """Claim the key (explicit keys: the ledger decides), run the tool, settle both."""
        tool = binding.tool
        outcome: dict[str, Any] = {}
        # A connector's read is journaled once, after it ran: after a crash it runs again.
        read = digest is None and binding.reads is not None and binding.reads(tool, args)

        async def claim_and_mark() -> None:
            if digest is None:
                if not read and (recorded is None or recorded.state != "executing"):
                    await self._write(entry, recorded, state="executing")
                return
            async with self.store.transaction() as tx:
                try:
                    claim = await ledger_claim(
                        tx.connection, key, action=tool.name, input_hash=digest,
                        execution_id=self.execution_id, seq=entry.seq,
                        lease_ms=self.settings.ledger_lease_ms)
                except (ActionKeyConflict, ActionPendingError) as refused:
                    error = {"name": type(refused).__name__, "message": str(refused)}
                    await self._write(entry, recorded, state="error", error=error, tx=tx,
                                      audit=self._audit_call(entry, "error", key=key.sent,
                                                             error=error))
                    outcome["error"] = error
                    return
                if isinstance(claim, Replay):
                    await self._write(entry, recorded, state="applied", result=claim.result, tx=tx,
                                      audit=self._audit_call(entry, "replayed", key=key.sent))
                    outcome["replayed"] = claim.result
                    return
                if recorded is None or recorded.state != "executing":
                    await self._write(entry, recorded, state="executing", tx=tx)

        await self._guarded(claim_and_mark)
        if "error" in outcome:
            self._note(entry, state="error", error=outcome["error"])
            self._after_fresh()
            raise HostCallError(outcome["error"]["name"], outcome["error"]["message"], tool.name)
        if "replayed" in outcome:
            self._note(entry, state="applied", ledger_replayed=True)
            self._after_fresh()
            return outcome["replayed"]
        executing = recorded if read else entry.in_state("executing")
        if self._unreported:  # reported while this call waits for its tool
            asyncio.get_running_loop().call_soon(self._flush_reports)
        try:
            output, attachments = await self._invoke(binding, payload, args, entry.seq, key)
        except HostCallError as failure:
            error = _error_of(failure)

            audit = self._audit_call(entry, "error", key=key.sent, error=error)
            if digest is None:
                await self._settle_later(entry, lambda: self._write(
                    entry, executing, state="error", error=error, audit=audit),
                    {"state": "error", "error": error})
                self._after_fresh()
                raise

            async def fail() -> None:
                # Discarded before the key's lock is let go: the next holder may run it anew.
                async with self.store.transaction() as tx:
                    await ledger_discard(tx.connection, key.key)
                    await self._write(entry, executing, state="error", error=error, tx=tx,
                                      audit=audit)
            await self._guarded(fail)
            self._note(entry, state="error", error=error)
            self._after_fresh()
            raise
        kept = cap_attachments(attachments, len(self.attachments))

        if digest is None:
            self.attachments.extend(kept)
            # The audit entry is made inside the write, after the value has gone back.
            await self._settle_later(entry, lambda: self._write(
                entry, executing, state="applied", result=output, attachments=kept,
                audit=self._audit_call(entry, "applied", key=key.sent)), {"state": "applied"})
            self._after_fresh()
            return output

        async def succeed() -> None:
            # Settled before the key's lock is let go: the next holder must find it settled.
            async with self.store.transaction() as tx:
                await self._write(entry, executing, state="applied", result=output,
                                  attachments=kept, tx=tx,
                                  audit=self._audit_call(entry, "applied", key=key.sent))
                await ledger_settle(tx.connection, key.key, output)
        await self._guarded(succeed)
        self.attachments.extend(kept)
        self._note(entry, state="applied")
        self._after_fresh()
        return output

    async def _invoke(self, binding: ToolBinding, payload: dict[str, Any], args: dict[str, Any],
                      seq: int, key: LedgerKey) -> tuple[Any, list[dict[str, Any]]]:
        """Run the tool itself: its Python callable or a signed POST to its url."""
        tool = binding.tool
        try:
            if binding.connector is not None:
                return await binding.connector(tool, args, key.sent), []
            if tool.func is not None:
                value = tool.func(*(payload.get("args") or []), **bind_arguments(tool, args))
                return (await value if inspect.isawaitable(value) else value), []
            reply = await call_remote_tool_reply(
                tool, args, secret=binding.secret, execution_id=self.execution_id, seq=seq,
                idempotency_key=key.sent, client=self.peers or self.http, validate=False)
            return reply.output, list(reply.attachments)
        except ToolError as exc:
            raise HostCallError(exc.name, exc.message, tool.name) from exc
        except CodeModeError as exc:
            raise HostCallError(type(exc).__name__, str(exc), tool.name,
                                error_attributes(exc)) from exc
        except Exception as exc:  # an in-process tool's own failure
            raise HostCallError(type(exc).__name__, str(exc), tool.name) from exc

    async def _await_client(self, entry: JournalEntry, recorded: JournalEntry | None) -> NoReturn:
        """A tool with no url: its result comes from the agent host; park until it does."""
        async def write() -> None:
            async with self.store.transaction() as tx:
                await self._write(entry, recorded, state="pending", tx=tx)
                await tx.finish_execution(self.execution_id, status="awaiting_tool",
                                          only_if=("running",))
        await self._guarded(write)
        view = {"seq": entry.seq, "namespace": entry.namespace, "method": entry.method,
                "args": json.loads(entry.args)}
        self.pending = [view]
        self._note(entry, state="pending")
        self._publish("tool_requested", view)
        self._stop("awaiting_tool")
        raise HostAbort("awaiting_tool", f"awaiting the client's result of {entry.path}")

    def _publish(self, kind: str, data: dict[str, Any]) -> None:
        if self.events is not None:
            self.events(kind, data)

    # --- state.* and codemode.* -------------------------------------------------------

    async def _state_call(self, payload: dict[str, Any]) -> Any:
        method = str(payload.get("method"))
        if self._state_operations is None:  # built on first use: most runs never call state.*
            self._state_operations = state_operations(self.workspace)
        operation = self._state_operations.get(method)
        if operation is None:
            raise HostCallError("AttributeError", f"state has no method {method!r}")
        # The guest sends bytes as {"$bytes": base64}; the workspace wants real bytes.
        try:
            args = decode_value(payload.get("args") or [])
            kwargs = decode_value(payload.get("kwargs") or {})
        except ValueError as exc:  # not base64 (any code can call the host import directly)
            raise HostCallError("ValueError",
                                f"state.{method}: a bytes argument is not base64: {exc}") from None

        async def run(_seq: int) -> Any:
            try:
                return stat_json(await operation(*args, **kwargs))
            except WorkspaceError as exc:
                code = getattr(exc, "code", "")
                raise HostCallError(os_error_name(code), str(exc)) from exc
            except TypeError as exc:
                raise HostCallError("TypeError", f"state.{method}: {exc}") from exc

        async def committed(seq: int) -> Any:
            return await self._result_of_committed(method, args, kwargs, seq)

        return await self._journaled("state", method, {"args": args, "kwargs": kwargs}, run,
                                     side_effects=method not in READ_ONLY_STATE_METHODS,
                                     committed=committed)

    async def _result_of_committed(self, method: str, args: list[Any], kwargs: dict[str, Any],
                                   seq: int) -> Any:
        """The answer for a ``state.*`` write that committed just before a crash lost its
        recorded result: rebuilt where that is exact, an error where it cannot be."""
        if method in ("mkdir", "rm", "cp", "mv", "write_json"):
            return None  # these return nothing
        if method == "delete_file":
            return True  # it committed, so there was something to delete
        if method in ("write_file", "write_bytes", "append_file", "symlink"):
            position = 1 if method == "symlink" else 0  # symlink(target, path)
            path = args[position] if len(args) > position else kwargs.get("path")
            stat = self.workspace.lstat if method == "symlink" else self.workspace.stat
            if isinstance(path, str):
                return stat_json(await stat(path))
        raise HostCallError(
            "InterruptedError", f"state.{method} at step {seq} was applied just before the "
            "service stopped and its result was lost; it was not repeated")

    async def _codemode(self, payload: dict[str, Any]) -> Any:
        method = payload.get("method")
        if method == "step_lookup":
            return self._step_lookup(str(payload.get("name")))
        if method == "step":
            return await self._step(payload)
        if method in ("search", "describe"):
            index = await self._index()
            if method == "search":
                return index.search(str(payload.get("query", "")))
            return index.describe(str(payload.get("target", "")))
        if method == "snippet":
            return await self._snippet(str(payload.get("name", "")))
        raise HostCallError("AttributeError", f"codemode has no method {method!r}")

    def _step_lookup(self, name: str) -> Any:
        """A recorded step answers with its value; a new one reserves its seq until ``step``."""
        recorded = self.recorded.get(self.seq)
        if recorded is not None and replayable(recorded):
            _, recorded = self._next(STEP_NAMESPACE, name, {})
            assert recorded is not None
            return {"recorded": True, "value": self._replay(recorded)}
        self._open_step = name
        return {"recorded": False}

    async def _step(self, payload: dict[str, Any]) -> Any:
        name = str(payload.get("name"))
        if self._open_step != name:
            raise HostCallError("StepError", f"codemode.step({name!r}) was not looked up first")
        self._open_step = None
        failure = payload.get("error")

        async def recorded_value(_seq: int) -> Any:
            if isinstance(failure, dict):
                raise HostCallError(str(failure.get("name", "Error")), str(failure.get("message", "")))
            return payload.get("value")

        try:
            await self._journaled(STEP_NAMESPACE, name, {}, recorded_value, side_effects=False)
        except HostCallError:
            if isinstance(failure, dict):
                return {"recorded": True}  # the guest re-raises its own exception
            raise
        return {"recorded": True}

    async def _index(self) -> CodeIndex:
        snippets = [SnippetInfo(name=s.name, description=s.description or None,
                                input_schema=s.input_schema)
                    for s in await self.store.list_snippets(self.workspace.tenant)]
        return CodeIndex(self.plan.namespaces, snippets)

    async def _snippet(self, name: str) -> Any:
        snippet = await self.store.get_snippet(name, self.workspace.tenant)
        if snippet is None:
            return {"error": f'Snippet "{name}" not found.'}
        missing = sorted(ns for ns in snippet.namespaces
                         if ns not in self.plan.namespaces and ns not in ("state", "codemode"))
        if missing:
            return {"error": f'Snippet "{name}" needs {", ".join(missing)}, which this execution '
                             "does not have."}
        return {"code": snippet.code}

    def unconsumed(self) -> ReplayDivergence | None:
        """The divergence of a run that ended with recorded steps it never reached."""
        return first_unconsumed(self.execution_id, sorted(self.recorded.values(), key=lambda e: e.seq),
                                self.seq)
