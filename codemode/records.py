"""The persisted records of Code Mode as values: executions, journal entries, approvals and
snippets, with the states each may be in and how their ids are made.

These dataclasses are what :class:`codemode.store.CodeModeStore` and :mod:`codemode.journal`
hand out and take in; ``to_dict()`` gives the JSON shape the HTTP routes return, values in
the tagged form of :mod:`codemode.codec` (bytes as ``{"$bytes": ...}``).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from workspace import DEFAULT_TENANT

from codemode.codec import encode_value
from codemode.errors import NotSerialisableError

__all__ = [
    "APPROVAL_STATES",
    "ENTRY_STATES",
    "EXECUTION_STATES",
    "PARKED_STATES",
    "RUNTIME_VERSION",
    "TERMINAL_STATES",
    "Approval",
    "ExecutionRecord",
    "JournalEntry",
    "Snippet",
    "new_approval_id",
    "new_execution_id",
    "now",
    "tools_called",
    "valid_snippet_name",
]

RUNTIME_VERSION = 1
"""The rules an execution runs under; stored per execution so a resume keeps them."""

EXECUTION_STATES = frozenset(
    {"running", "paused", "awaiting_tool", "completed", "error", "rejected", "rolled_back",
     "cancelled", "dead_letter"}
)
TERMINAL_STATES = frozenset({"completed", "error", "rejected", "rolled_back", "cancelled"})
"""States retention may prune. ``running``, ``paused`` and ``awaiting_tool`` executions still
have work or a decision ahead of them; ``dead_letter`` ones wait for an operator."""
PARKED_STATES = frozenset({"paused", "awaiting_tool"})
"""An execution waiting on someone outside it: a human's decision or a client's tool result."""
ENTRY_STATES = frozenset({"executing", "applied", "pending", "reverted", "error"})
APPROVAL_STATES = frozenset({"pending", "approved", "rejected", "expired", "cancelled"})

_NOT_TOOLS = frozenset({"__step", "codemode", "state"})
_SNIPPET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,127}\Z")


def now() -> float:
    """Wall-clock seconds since the epoch, the unit of every stored timestamp."""
    return time.time()


def new_execution_id() -> str:
    """``exec_<16-digit ms>_<uuid hex>``: sortable by creation time, unique without a lock."""
    return f"exec_{int(time.time() * 1000):016d}_{uuid.uuid4().hex}"


def valid_snippet_name(name: str) -> bool:
    """Snippet names are identifiers with ``.`` and ``-`` allowed, at most 128 characters."""
    return bool(_SNIPPET_NAME.match(name))


@dataclass
class JournalEntry:
    """One host call or ``codemode.step`` of an execution, keyed ``(execution_id, seq)``."""

    execution_id: str
    seq: int
    """Position in call order, from 0; a resumed run is matched against it by position."""
    namespace: str
    """``tools``, a toolset's namespace, ``state``, or ``__step`` for ``codemode.step``."""
    method: str
    args: str
    """Canonical JSON of the arguments (sorted keys, tagged bytes): compared on replay."""
    state: str = "executing"
    """``executing | applied | pending | reverted | error``."""
    result: Any = None
    """The call's return value, decoded (bytes are bytes again)."""
    error: dict[str, Any] | None = None
    """``{name, message, ...}`` when the call failed."""
    requires_approval: bool = False
    ephemeral: bool = False
    """Re-run on replay instead of answered from the journal (reads that must be fresh)."""
    created_at: float = field(default_factory=now)
    updated_at: float = field(default_factory=now)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    """What the tool attached to its reply beside the output (never seen by the code)."""

    @property
    def path(self) -> str:
        """``namespace.method``, the name divergence messages use."""
        return f"{self.namespace}.{self.method}"

    def in_state(self, state: str, result: Any = None, error: dict[str, Any] | None = None,
                 attachments: list[dict[str, Any]] | None = None) -> "JournalEntry":
        """This entry moved to ``state`` with this outcome: itself when it holds that
        already (a fresh call written ``executing``: a copy per call cost more than the
        row's insert)."""
        if (state == self.state and result is None and self.result is None and error is None
                and self.error is None and not attachments and not self.attachments):
            return self
        return replace(self, state=state, result=result, error=error,
                       attachments=attachments or [])

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the audit trail; ``args`` parsed, bytes in their tagged form."""
        return {
            "execution_id": self.execution_id,
            "seq": self.seq,
            "namespace": self.namespace,
            "method": self.method,
            "args": json.loads(self.args),
            "result": _encoded_or_note(self.result),
            "error": self.error,
            "state": self.state,
            "requires_approval": self.requires_approval,
            "ephemeral": self.ephemeral,
            "attachments": list(self.attachments),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass
class Approval:
    """A human decision an execution waits on: one gated call at ``(execution_id, seq)``.

    ``status`` moves once, from ``pending`` to ``approved``, ``rejected``, ``expired`` or
    ``cancelled``; the store makes that move a compare-and-set, so the first decision wins
    and records who made it and when.
    """

    id: str
    execution_id: str
    seq: int
    workspace: str
    namespace: str
    method: str
    args: Any
    descriptor: dict[str, Any]
    mode: str = "durable"
    """``durable`` (the execution parks) or ``inline`` (a request waits for the decision)."""
    status: str = "pending"
    decided_by: str | None = None
    """The deciding principal's name (a token's name), or the service (``sweep``)."""
    decided_at: float | None = None
    reason: str | None = None
    """The decider's free-text note (a rejection's reason); never the identity."""
    created_at: float = field(default_factory=now)
    tenant: str = DEFAULT_TENANT
    """The tenant of its execution (stored with it, so a listing is scoped by one column)."""
    decided_tenant: str | None = None
    """The tenant of the token that decided (an operator may decide for another tenant)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "approval_id": self.id, "execution_id": self.execution_id, "seq": self.seq,
            "tenant": self.tenant,
            "workspace": self.workspace, "namespace": self.namespace, "method": self.method,
            "args": _encoded_or_note(self.args), "descriptor": _encoded_or_note(self.descriptor),
            "mode": self.mode, "status": self.status, "decided_by": self.decided_by,
            "decided_tenant": self.decided_tenant,
            "decided_at": self.decided_at, "reason": self.reason, "created_at": self.created_at,
        }


def new_approval_id() -> str:
    """``actpause_<uuid hex>``, the reference's prefix for a parked action."""
    return f"actpause_{uuid.uuid4().hex}"


@dataclass
class ExecutionRecord:
    """One execution as persisted: what ran, with what, how it ended, and its journal."""

    id: str
    workspace: str
    code: str
    status: str = "running"
    """``running | paused | completed | error | rejected | rolled_back``."""
    result: Any = None
    """The final result as recorded, or ``{"note": ...}`` when it was too large to keep."""
    error: dict[str, Any] | None = None
    logs: list[str] = field(default_factory=list)
    namespaces: dict[str, list[str]] = field(default_factory=dict)
    """Namespace -> names of the tools the execution could call."""
    toolsets: list[str] = field(default_factory=list)
    """Stored toolsets it named; an approval re-checks that they still exist."""
    created_at: float = field(default_factory=now)
    updated_at: float = field(default_factory=now)
    runtime_version: int = RUNTIME_VERSION
    journal: list[JournalEntry] = field(default_factory=list)
    result_recorded: bool = True
    """False when ``result`` is a note standing in for a result too large to record."""
    options: dict[str, Any] = field(default_factory=dict)
    """What a resume needs to rebuild the run: inline tools, granted permissions, limits."""
    owner: str | None = None
    """The service process running it now (``host:pid:start``), while ``running``."""
    lease_until: float | None = None
    """Until when ``owner`` holds it; after that, recovery may take it over."""
    attempts: int = 0
    """Runs started since it last parked or finished; recovery dead-letters at a cap."""
    tenant: str = DEFAULT_TENANT
    """The tenant it belongs to; its workspace and toolsets are that tenant's."""
    principal: str = ""
    """Who started it (the token's name; empty for a local, token-less service)."""

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL_STATES

    @property
    def attachments(self) -> list[dict[str, Any]]:
        """Every attachment of its applied calls, in call order."""
        return [a for entry in self.journal if entry.state == "applied" for a in entry.attachments]

    def to_dict(self, *, with_journal: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "tenant": self.tenant,
            "principal": self.principal,
            "workspace": self.workspace,
            "code": self.code,
            "status": self.status,
            "result": _encoded_or_note(self.result),
            "result_recorded": self.result_recorded,
            "error": self.error,
            "logs": list(self.logs),
            "namespaces": {k: list(v) for k, v in self.namespaces.items()},
            "toolsets": list(self.toolsets),
            "runtime_version": self.runtime_version,
            "attempts": self.attempts,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }
        if with_journal:
            data["journal"] = [entry.to_dict() for entry in self.journal]
            data["attachments"] = self.attachments
        return data


@dataclass
class Snippet:
    """Saved code from a completed execution, runnable later with ``codemode.run(name)``."""

    name: str
    code: str
    description: str = ""
    input_schema: dict[str, Any] | None = None
    namespaces: dict[str, list[str]] = field(default_factory=dict)
    """Namespace -> tool names the source execution called; a run needs all of them."""
    created_at: float = field(default_factory=now)
    execution_id: str | None = None
    """The execution it was saved from, kept for provenance."""

    @classmethod
    def from_execution(
        cls,
        name: str,
        execution: ExecutionRecord,
        *,
        description: str = "",
        input_schema: dict[str, Any] | None = None,
    ) -> Snippet:
        """A snippet of ``execution``'s code, needing the tools its journal shows it called."""
        return cls(
            name=name,
            code=execution.code,
            description=description,
            input_schema=input_schema,
            namespaces=tools_called(execution.journal),
            execution_id=execution.id,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "code": self.code,
            "description": self.description,
            "input_schema": self.input_schema,
            "namespaces": {k: list(v) for k, v in self.namespaces.items()},
            "created_at": self.created_at,
            "execution_id": self.execution_id,
        }


def tools_called(entries: Iterable[JournalEntry]) -> dict[str, list[str]]:
    """Namespace -> sorted tool names called in ``entries``.

    Steps and ``codemode.*`` calls are not tools, and ``state`` is always available, so
    none of them is something a later run could lack.
    """
    used: dict[str, set[str]] = {}
    for entry in entries:
        if entry.namespace in _NOT_TOOLS:
            continue
        used.setdefault(entry.namespace, set()).add(entry.method)
    return {ns: sorted(methods) for ns, methods in sorted(used.items())}


def _encoded_or_note(value: Any) -> Any:
    # Records are built from stored values, which always encode; a caller-built record with
    # an unserialisable value still renders instead of failing the whole response.
    try:
        return encode_value(value)
    except NotSerialisableError as exc:
        return {"note": f"value cannot be serialised: {exc.reason}"}
