"""The Code Mode exception tree: every exception class ``codemode`` defines.

One base class, so the service can register a single handler and callers can catch
everything Code Mode means to raise without catching programming errors::

    CodeModeError
    ├── ToolDefinitionError          a tool or toolset definition is invalid
    │   ├── SnippetDefinitionError   a snippet's name or input schema is invalid
    │   └── NameCollisionError       two names sanitise to the same identifier
    ├── ToolArgumentsError           arguments fail the tool's input schema (nothing was sent)
    ├── ToolError                    the tool ran and reported an error {name, message}
    ├── ToolCallError                calling a remote tool failed before it could answer
    │   ├── ToolTimeoutError         no complete answer within timeout_ms
    │   ├── ToolConnectionError      could not connect / the connection broke
    │   ├── ToolHTTPStatusError      the endpoint answered with a non-2xx status
    │   └── ToolResponseError        a 2xx answer that is not a usable tool response
    │       ├── ToolResponseNotJSON        the body is not JSON
    │       ├── ToolResponseShapeError     JSON, but not {"output"} or {"error": {...}}
    │       ├── ToolResponseSchemaError    not what the tool's output schema declares
    │       └── ToolResponseTooLarge       the body exceeds the response size cap
    ├── SignatureError               verify_signature refused a request (agent-host side)
    │   ├── SignatureMismatch        the HMAC does not match the body and timestamp
    │   └── StaleSignature           the timestamp is outside the allowed window (replay)
    ├── DurableSizeError             a value is too large to record durably
    ├── NotSerialisableError         a value cannot be turned into JSON
    ├── ReplayDivergence             a resumed run called something other than the journal holds
    ├── ActionAuthorizationError     the call needs a permission the execution was not granted
    ├── ApprovalRejected             a human rejected a pending call
    ├── ActionKeyError               an idempotency-key template gives no key for this input
    ├── ActionKeyConflict            a ledger key reused for another action or input
    ├── ActionPendingError           an earlier attempt with the key is pending, not reclaimable
    ├── DuplicateEntry               a journal row already exists at (execution_id, seq)
    ├── EntryNotFound                no journal row at (execution_id, seq)
    ├── CorruptEntry                 a stored journal row cannot be read back
    ├── ExecutionNotRunning          a journal write for an execution no longer running
    ├── ExecutionNotFound            no execution with this id is stored
    │   └── ApprovalNotFound         no approval with this id
    ├── ExecutionConflict            the request does not fit the execution's state
    ├── PermissionWidening           an approval asked to grant more than the run had
    ├── MissingConnector             a resume needs a toolset or tool that is gone
    ├── ConnectorNotFound            no connector of that name is stored (for the tenant)
    ├── ConnectorUnavailable         a connector's peer could not be asked for its tools
    ├── ConnectorHostRefused         a connector names a host outside the allowlist
    └── ConnectorSecretError         a connector's headers cannot be opened or resolved

    Exception
    └── SubscriptionClosed           an event subscription is closed and drained (not an
                                     error of the caller's making: the normal end of a stream)

Messages are written for the reader who has to act on them: they name the tool, say what was
wrong and, where there is one, what to do instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

__all__ = [
    "ActionAuthorizationError",
    "ActionKeyConflict",
    "ActionKeyError",
    "ActionPendingError",
    "ApprovalNotFound",
    "ApprovalRejected",
    "CodeModeError",
    "ConnectorHostRefused",
    "ConnectorNotFound",
    "ConnectorSecretError",
    "ConnectorUnavailable",
    "CorruptEntry",
    "DuplicateEntry",
    "DurableSizeError",
    "EntryNotFound",
    "ExecutionConflict",
    "ExecutionNotFound",
    "ExecutionNotRunning",
    "MissingConnector",
    "NameCollisionError",
    "SnippetDefinitionError",
    "NotSerialisableError",
    "PermissionWidening",
    "ReplayDivergence",
    "SignatureError",
    "SignatureMismatch",
    "StaleSignature",
    "SubscriptionClosed",
    "ToolArgumentsError",
    "ToolCallError",
    "ToolConnectionError",
    "ToolDefinitionError",
    "ToolError",
    "ToolHTTPStatusError",
    "ToolResponseError",
    "ToolResponseNotJSON",
    "ToolResponseSchemaError",
    "ToolResponseShapeError",
    "ToolResponseTooLarge",
    "ToolTimeoutError",
    "error_attributes",
    "error_details",
]


class CodeModeError(Exception):
    """Base class of every error Code Mode raises deliberately."""


class ToolDefinitionError(CodeModeError):
    """A tool or toolset definition is invalid; ``problems`` lists every reason."""

    def __init__(self, subject: str, problems: Sequence[str]) -> None:
        self.subject = subject
        self.problems: tuple[str, ...] = tuple(problems)
        joined = "; ".join(self.problems) if self.problems else "invalid definition"
        super().__init__(f"Invalid definition of {subject}: {joined}")


class SnippetDefinitionError(ToolDefinitionError):
    """A snippet's name or input schema is invalid; ``problems`` lists every reason."""


class NameCollisionError(ToolDefinitionError):
    """Two distinct names sanitise to the same identifier, so one would hide the other."""

    def __init__(self, first: str, second: str, sanitised: str, *, kind: str = "tools") -> None:
        self.first = first
        self.second = second
        self.sanitised = sanitised
        problem = (
            f'{kind} "{first}" and "{second}" both map to "{sanitised}"; '
            "rename one of them"
        )
        super().__init__(kind, [problem])


class ToolArgumentsError(CodeModeError):
    """Arguments failed the tool's input schema; ``problems`` holds ``{path, message}`` dicts."""

    def __init__(self, tool: str, problems: Sequence[Mapping[str, str]]) -> None:
        self.tool = tool
        self.problems: tuple[dict[str, str], ...] = tuple(dict(p) for p in problems)
        lines = [
            f"{p['path']}: {p['message']}" if p.get("path") else p["message"]
            for p in self.problems
        ]
        super().__init__(
            f'Invalid arguments for tool "{tool}" (nothing was sent): ' + "; ".join(lines)
        )


class ToolError(CodeModeError):
    """The tool ran and reported a failure as ``{"error": {"name", "message"}}``."""

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        self.message = message
        super().__init__(f"{name}: {message}")

    def to_dict(self) -> dict[str, str]:
        """The ``{name, message}`` shape the reference uses for tool errors."""
        return {"name": self.name, "message": self.message}


class ToolCallError(CodeModeError):
    """Calling a remote tool failed before it produced an answer; ``tool`` names it."""

    def __init__(self, tool: str, message: str) -> None:
        self.tool = tool
        super().__init__(message)


class ToolTimeoutError(ToolCallError):
    """The tool endpoint did not answer completely within the tool's ``timeout_ms``."""

    def __init__(self, tool: str, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        super().__init__(
            tool,
            f'Tool "{tool}" timed out after {timeout_ms} ms; the call may or may not have '
            "taken effect on the agent host",
        )


class ToolConnectionError(ToolCallError):
    """The tool endpoint could not be reached, or the connection failed mid-request."""

    def __init__(self, tool: str, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(tool, f'Could not reach tool "{tool}" at {url}: {reason}')


class ToolHTTPStatusError(ToolCallError):
    """The tool endpoint answered with a status outside 200-299 (``status_code``, ``body``)."""

    # ``body`` is what the code reads as ``e.body``: the answer's JSON when it is JSON and
    # small enough to journal whole, else the start of its text.

    def __init__(self, tool: str, status_code: int, body_preview: str, *,
                 body: Any = None) -> None:
        self.status_code = status_code
        self.body_preview = body_preview
        self.body = body_preview if body is None else body
        detail = f": {body_preview}" if body_preview else ""
        super().__init__(tool, f'Tool "{tool}" endpoint answered HTTP {status_code}{detail}')


class ToolResponseError(ToolCallError):
    """The endpoint answered 2xx but the body is not a usable tool response."""


class ToolResponseNotJSON(ToolResponseError):
    """The response body could not be parsed as JSON."""

    def __init__(self, tool: str, body_preview: str) -> None:
        self.body_preview = body_preview
        super().__init__(
            tool,
            f'Tool "{tool}" answered with a body that is not JSON: {body_preview!r}',
        )


class ToolResponseShapeError(ToolResponseError):
    """The JSON body is neither ``{"output": ...}`` nor ``{"error": {"name", "message"}}``."""

    def __init__(self, tool: str, reason: str) -> None:
        self.reason = reason
        super().__init__(
            tool,
            f'Tool "{tool}" answered with JSON of the wrong shape ({reason}); expected '
            '{"output": <value>} or {"error": {"name": <str>, "message": <str>}}',
        )


class ToolResponseSchemaError(ToolResponseError):
    """The answer does not match the output schema the tool declared (its peer is broken)."""

    def __init__(self, tool: str, reason: str) -> None:
        self.reason = reason
        super().__init__(
            tool, f'Tool "{tool}" answered with a value that does not match its declared '
                  f"output schema: {reason}"
        )


class ToolResponseTooLarge(ToolResponseError):
    """The response body exceeded the configured byte cap and was not read further."""

    def __init__(self, tool: str, limit_bytes: int) -> None:
        self.limit_bytes = limit_bytes
        super().__init__(
            tool, f'Tool "{tool}" answered with more than {limit_bytes} bytes; refused'
        )


class SignatureError(CodeModeError):
    """A signed tool request failed verification; the agent host should answer 401."""


class SignatureMismatch(SignatureError):
    """The signature is missing, malformed, or does not match timestamp and body."""


class StaleSignature(SignatureError):
    """The request's timestamp is outside the allowed window: a replay or a skewed clock."""


class DurableSizeError(CodeModeError):
    """A value is too large to record in the journal or audit trail."""

    def __init__(self, what: str, chars: int, limit: int) -> None:
        self.what = what
        self.chars = chars
        self.limit = limit
        super().__init__(
            f"{what} is too large to record durably ({chars:,} characters; the limit is "
            f"{limit:,}). Write large data to a file or workspace instead."
        )


class NotSerialisableError(CodeModeError):
    """A value has no JSON form (for example bytes, a set, or an arbitrary object)."""

    def __init__(self, what: str, reason: str) -> None:
        self.what = what
        self.reason = reason
        super().__init__(f"{what} cannot be serialised as JSON: {reason}")


class ReplayDivergence(CodeModeError):
    """On resume, the call at ``seq`` differs from the journal's record of that step."""

    # ``kind`` says how: ``call`` (another tool or method), ``arguments`` (same call, other
    # canonical arguments) or ``missing`` (the run ended with recorded steps unconsumed).

    def __init__(self, seq: int, expected: str, actual: str, *, arguments: bool = False,
                 execution_id: str = "", kind: str | None = None, recorded_args: str = "",
                 actual_args: str = "") -> None:
        self.seq = seq
        self.expected = expected
        self.actual = actual
        self.execution_id = execution_id
        self.kind = kind or ("arguments" if arguments else "call")
        self.arguments = self.kind == "arguments"
        where = f"execution {execution_id}: " if execution_id else ""
        if self.kind == "arguments":
            message = (
                f"{where}replay divergence at step {seq}: {actual} was called with different "
                f"arguments than the recorded run (recorded {_short(recorded_args)}, got "
                f"{_short(actual_args)}). Wrap nondeterministic inputs in "
                "codemode.step(name, fn)."
            )
        elif self.kind == "missing":
            message = (
                f"{where}replay divergence at step {seq}: the recorded run called {expected} "
                "here, but this run ended without calling it"
            )
        else:
            message = f"{where}replay divergence at step {seq}: expected {expected}, got {actual}"
        super().__init__(message)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class ActionAuthorizationError(CodeModeError):
    """The call needs permissions this execution was not granted; nothing was run."""

    def __init__(self, action: str, missing: Sequence[str]) -> None:
        self.action = action
        self.permissions = list(missing)
        super().__init__(f"Missing required permission: {', '.join(self.permissions)}")


class ApprovalRejected(CodeModeError):
    """A human rejected the pending call ``connector.method``."""

    def __init__(self, connector: str, method: str, reason: str | None = None) -> None:
        self.connector = connector
        self.method = method
        self.reason = reason
        tail = f": {reason}" if reason else ""
        super().__init__(f"Action {connector}.{method} rejected by user{tail}")


# --- actions and the ledger -------------------------------------------------------------


class ActionKeyError(CodeModeError):
    """The tool's idempotency-key template cannot give a key for this input."""

    name: ClassVar[str] = "ActionKeyError"

    def __init__(self, tool: str, template: object, reason: str) -> None:
        self.tool = tool
        self.template = template
        self.reason = reason
        super().__init__(
            f'Cannot build the idempotency key of action "{tool}" from template '
            f"{template!r}: {reason}"
        )


class ActionKeyConflict(CodeModeError):
    """The key is already in the ledger for another action or another input."""

    name: ClassVar[str] = "ActionKeyConflict"

    def __init__(self, key: str, action: str) -> None:
        self.key = key
        self.action = action
        super().__init__(
            f'Idempotency key "{key}" for action "{action}" was reused with different '
            "input. This is a programming error; do not retry."
        )


class ActionPendingError(CodeModeError):
    """An earlier attempt with this key is pending and may not be reclaimed."""

    name: ClassVar[str] = "ActionPendingError"

    def __init__(self, key: str, action: str) -> None:
        self.key = key
        self.action = action
        super().__init__(
            "A prior attempt of this action is in an unknown state; not re-executed. "
            "Manual reconciliation may be required."
        )


# --- the journal and executions -----------------------------------------------------------


class DuplicateEntry(CodeModeError):
    """A journal row already exists at ``(execution_id, seq)``; rows are never overwritten."""

    def __init__(self, execution_id: str, seq: int) -> None:
        self.execution_id = execution_id
        self.seq = seq
        super().__init__(
            f"execution {execution_id} already has a journal entry at step {seq}; "
            "each step is recorded once"
        )


class EntryNotFound(CodeModeError):
    """No journal row at ``(execution_id, seq)``."""

    def __init__(self, execution_id: str, seq: int) -> None:
        self.execution_id = execution_id
        self.seq = seq
        super().__init__(f"execution {execution_id} has no journal entry at step {seq}")


class ExecutionNotFound(CodeModeError):
    """No execution with this id is stored (it never existed, or was deleted or pruned)."""

    def __init__(self, execution_id: str) -> None:
        self.execution_id = execution_id
        super().__init__(f"execution {execution_id} not found")


class ExecutionNotRunning(CodeModeError):
    """A journal write for an execution that is no longer ``running``: nothing is recorded."""

    # Once an execution is parked, rejected or finished, a call its code still makes (say,
    # after catching an error) must have no effect; this is how the journal enforces it.

    def __init__(self, execution_id: str, status: str) -> None:
        self.execution_id = execution_id
        self.status = status
        super().__init__(f"execution {execution_id} is {status}, not running; nothing recorded")


class CorruptEntry(CodeModeError):
    """A stored journal row cannot be read back (damaged outside the service)."""

    def __init__(self, execution_id: str, seq: int, reason: str) -> None:
        self.execution_id = execution_id
        self.seq = seq
        super().__init__(
            f"execution {execution_id}: the journal entry at step {seq} is unreadable "
            f"({reason}); it cannot be replayed"
        )


class ExecutionConflict(CodeModeError):
    """The request does not fit the execution's state (not paused, already decided...)."""


class PermissionWidening(CodeModeError):
    """An approval asked to grant the resumed run a permission it was not started with."""


class ApprovalNotFound(ExecutionNotFound):
    """No approval with this id (never existed, or its execution was deleted)."""

    def __init__(self, approval_id: str) -> None:
        CodeModeError.__init__(self, f"approval {approval_id} not found")
        self.execution_id = approval_id


class MissingConnector(CodeModeError):
    """A resume needs a toolset or tool that no longer exists; the execution stays parked."""

    @classmethod
    def of(cls, execution_id: str, what: str) -> "MissingConnector":
        return cls(f"execution {execution_id} used {what}, which is no longer registered, so "
                   "the run cannot continue; restore it and decide again (nothing was used up: "
                   "the execution stays parked)")


class ConnectorNotFound(CodeModeError):
    """No connector of that name is stored (for this tenant)."""

    def __init__(self, name: str) -> None:
        self.connector = name
        super().__init__(f'connector "{name}" not found')


class ConnectorUnavailable(CodeModeError):
    """A connector's peer could not be asked for its tools (nothing was stored or changed)."""

    # The MCP server is down or answered wrongly, or the OpenAPI document could not be
    # fetched or is not OpenAPI 3.x.

    def __init__(self, name: str, reason: str) -> None:
        self.connector = name
        self.reason = reason
        super().__init__(f'connector "{name}": {reason}')


class ConnectorHostRefused(CodeModeError):
    """A connector names a host outside the service's connector allowlist (nothing was sent)."""

    def __init__(self, name: str, problems: Sequence[str]) -> None:
        self.connector = name
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__(f'connector "{name}": ' + "; ".join(self.problems))


class ConnectorSecretError(CodeModeError):
    """A connector's headers cannot be opened or an ``env:`` name is unset (never shows a value)."""


# --- events (not a CodeModeError: the normal end of a stream) ----------------------------


class SubscriptionClosed(Exception):
    """The subscription was closed (by its owner or after an overflow) and is drained."""


def error_details(exc: BaseException) -> dict[str, Any]:
    """A JSON-ready ``{name, message}`` for any exception (name defaults to the class)."""
    if isinstance(exc, ToolError):
        return exc.to_dict()
    return {"name": type(exc).__name__, "message": str(exc)}


def error_attributes(exc: BaseException) -> dict[str, Any]:
    """What code in the isolate may read off ``exc`` besides its name and message: an HTTP
    status error's ``status`` and ``body``, a timeout's ``timeout_ms``, invalid arguments'
    ``problems``. JSON values only; never a URL or a header (they may carry a secret)."""
    if isinstance(exc, ToolHTTPStatusError):
        return {"status": exc.status_code, "body": exc.body}
    if isinstance(exc, ToolTimeoutError):
        return {"timeout_ms": exc.timeout_ms}
    if isinstance(exc, ToolArgumentsError):
        return {"problems": [dict(p) for p in exc.problems]}
    if isinstance(exc, ToolResponseTooLarge):
        return {"limit_bytes": exc.limit_bytes}
    return {}
