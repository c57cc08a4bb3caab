"""codemode: the execute tool - model-written Python run in a sandbox against tools, durably.

The package root is the only way in: other packages (the HTTP service, the CLI) import from
``codemode``, never from its modules.

Modules, one noun each:

- tool definitions: ``tooldefs`` (ToolDef, Toolset, schema checks), ``callables`` (tools
  from Python callables), ``docstrings``, ``names``; ``remote`` (signed calls to a tool's
  ``url``); ``declarations``, ``description`` and ``search`` (what the model is shown).
- values: ``codec`` (the one value codec: canonical, surrogate-safe, tagged JSON and the
  durable size limit), ``normalise`` (what the model sees of outputs and logs).
- the durable core: ``records`` (executions, entries, approvals, snippets as values),
  ``journal`` (entries under ``(execution_id, seq)``: its table, append and read, no
  policy), ``replay`` (does a step match its record?), ``calls`` (the per-call decision:
  replay, execute or park one host call), ``driver`` (drives whole executions: start,
  resume, decide, roll back, sweep, recover), ``state`` (the guest's ``state.*`` namespace
  over the workspace), ``store`` (the SQLite connection, executions, approvals, toolsets,
  snippets), ``approvals`` (waiting for a decision inside a request), ``actions`` and
  ``ledger`` (authorization and at-most-once side effects); ``events`` (what watchers see),
  ``event_relay`` (the same events for watchers on other processes of one database).
- connectors: ``connectors`` (MCP servers and OpenAPI services stored by name, bound to
  executions as namespaces), ``connector_mcp`` and ``connector_openapi`` (calling each
  kind), ``connector_secrets`` (header values at rest), ``connector_store`` (their table).
- ``local`` (``CodeMode``, the in-process API); ``errors`` (every exception, one tree).

``calls`` and ``driver`` are named for their roles, as Temporal keeps the code under replay
apart from the worker that drives it: ``calls.CodeModeHandler`` decides, runs and journals
the host calls of one run (parking the execution when a call must wait), and
``driver.Executions`` starts, resumes, decides and ends whole executions without ever
deciding a single call.

Glossary (the durable vocabulary, used the same way everywhere):
    execution     one run of model-written code, with an id, a status and a journal; it
                  may take several runs (isolates) to finish
    host call     one call the guest makes through a namespace (``tools.x(...)``,
                  ``state.read_file(...)``, ``codemode.step(...)``)
    step          a host call or ``codemode.step(name, fn)`` as the journal counts it
    seq           a step's position in call order, from 0; with the execution id, the key
                  of its entry
    journal       the execution's entries in seq order: append and read only
    entry         the journal record of one step: name, canonical arguments, state
                  (executing, applied, pending, reverted, error), result or error
    replay        answering a recorded step from its entry instead of running it again
    divergence    a replayed run asked for something other than the entry at that seq
                  (another call, other arguments, or fewer steps): it stops with
                  ``ReplayDivergence`` naming the execution, the step, what was recorded
                  and what came
    park          stop an execution at a step that needs someone outside it, durably:
                  ``paused`` (an approval) or ``awaiting_tool`` (a client-resolved tool);
                  the isolate is released
    approval      the record of a parked call waiting on a human
    decision      approve or reject (or expire, cancel) an approval; the first committed
                  decision wins (compare-and-set)
    resume        re-run the code in a fresh isolate, replaying the journal, after a
                  decision or a tool result
    recovery      taking over a running execution whose process died (its lease ran
                  out), by resuming it; dead-lettered after too many attempts
    lease         until when the owning process holds a running execution
    rollback      undo an execution's applied calls, newest first, through each tool's
                  ``revert_url``
    action        a tool call with side effects, authorized by permissions and run at
                  most once through the ledger
    ledger        idempotency keys of actions and their settled results, across executions
    always-replay the test mode that stops a run after every fresh call and continues it
                  from the journal
"""

from .errors import (
    ActionAuthorizationError,
    ActionKeyConflict,
    ActionKeyError,
    ActionPendingError,
    ApprovalNotFound,
    ApprovalRejected,
    CodeModeError,
    ConnectorHostRefused,
    ConnectorNotFound,
    ConnectorSecretError,
    ConnectorUnavailable,
    CorruptEntry,
    DuplicateEntry,
    DurableSizeError,
    EntryNotFound,
    ExecutionConflict,
    ExecutionNotFound,
    ExecutionNotRunning,
    MissingConnector,
    NameCollisionError,
    NotSerialisableError,
    PermissionWidening,
    ReplayDivergence,
    SignatureError,
    SignatureMismatch,
    SnippetDefinitionError,
    StaleSignature,
    SubscriptionClosed,
    ToolArgumentsError,
    ToolCallError,
    ToolConnectionError,
    ToolDefinitionError,
    ToolError,
    ToolHTTPStatusError,
    ToolResponseError,
    ToolResponseNotJSON,
    ToolResponseSchemaError,
    ToolResponseShapeError,
    ToolResponseTooLarge,
    ToolTimeoutError,
    error_details,
)
from .codec import (
    DURABLE_LIMIT,
    canonical_json,
    check_durable_text,
    decode_value,
    durable_json,
    durable_result_or_note,
    encode_value,
    to_json_safe,
)
from .names import (
    ensure_unique,
    is_identifier,
    sanitise_name,
)
from .docstrings import (
    ParsedDocstring,
    parse_docstring,
)
from .tooldefs import (
    DEFAULT_TIMEOUT_MS,
    ToolDef,
    Toolset,
    inline_tool,
    new_toolset_secret,
    requires_approval,
    schema_problems,
    validate_arguments,
)
from .callables import (
    bind_arguments,
    tool_from_callable,
)
from .declarations import (
    render_declarations,
    render_namespace,
    render_schema,
    render_tool,
)
from .search import (
    CodeIndex,
    SEARCH_RESULT_LIMIT,
    SnippetInfo,
    normalise_search_text,
    tokenise,
)
from .remote import (
    MAX_RESPONSE_BYTES,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    call_remote_tool,
    default_idempotency_key,
    request_body,
    sign,
    verify_signature,
)
from .normalise import (
    LOG_LIMIT_BYTES,
    MODEL_RESULT_CAP,
    OUTPUT_CAP,
    cap_model_text,
    normalise_output,
    trim_log_lines,
    trim_logs,
)
from .records import (
    APPROVAL_STATES,
    Approval,
    ENTRY_STATES,
    EXECUTION_STATES,
    ExecutionRecord,
    JournalEntry,
    PARKED_STATES,
    RUNTIME_VERSION,
    Snippet,
    TERMINAL_STATES,
    new_execution_id,
    now,
    tools_called,
    valid_snippet_name,
)
from .auditing import (
    ExecutionSubject,
)
from .store import (
    CODEMODE_MIGRATIONS,
    CodeModeStore,
    DEFAULT_KEEP,
    RunEnd,
    StoreTransaction,
)
from .state import (
    STATE_DOC,
    STATE_METHODS,
)
from .calls import (
    CodeModeHandler,
    ExecutionPlan,
    RunSettings,
    ToolBinding,
)
from .driver import (
    DurableSettings,
    ExecuteOptions,
    Executions,
    plain_outcome,
)
from .event_relay import EventRelay
from .events import (
    EVENT_TYPES,
    EventBus,
    ExecutionEvent,
    FINAL_STATUSES,
    PARKED_STATUSES,
    Subscription,
    completed_data,
    event_data,
    history_events,
    sse_stream,
    tool_call_data,
)
from .description import (
    CODEMODE_DOC,
    execute_description,
)
from .connector_hosts import HostAllowlist
from .connectors import (
    CONNECTOR_TYPES,
    BoundConnector,
    Connectors,
)
from .local import (
    CodeMode,
)

__all__ = [
    # the audit log's view of an execution
    "ExecutionSubject",
    # tool definitions
    "DEFAULT_TIMEOUT_MS",
    "ParsedDocstring",
    "ToolDef",
    "Toolset",
    "bind_arguments",
    "ensure_unique",
    "inline_tool",
    "is_identifier",
    "new_toolset_secret",
    "parse_docstring",
    "requires_approval",
    "sanitise_name",
    "schema_problems",
    "tool_from_callable",
    "validate_arguments",
    # remote tools
    "MAX_RESPONSE_BYTES",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "call_remote_tool",
    "default_idempotency_key",
    "request_body",
    "sign",
    "verify_signature",
    # declarations, description and search
    "CODEMODE_DOC",
    "CodeIndex",
    "SEARCH_RESULT_LIMIT",
    "SnippetInfo",
    "execute_description",
    "normalise_search_text",
    "render_declarations",
    "render_namespace",
    "render_schema",
    "render_tool",
    "tokenise",
    # connectors (MCP servers and OpenAPI services as namespaces)
    "BoundConnector",
    "CONNECTOR_TYPES",
    "Connectors",
    "HostAllowlist",
    # the in-process API
    "CodeMode",
    # durable executions: the driver and the per-call decision
    "CodeModeHandler",
    "DurableSettings",
    "ExecuteOptions",
    "ExecutionPlan",
    "Executions",
    "RunSettings",
    "STATE_DOC",
    "STATE_METHODS",
    "ToolBinding",
    "plain_outcome",
    # journal, records and the store
    "APPROVAL_STATES",
    "Approval",
    "CODEMODE_MIGRATIONS",
    "CodeModeStore",
    "DEFAULT_KEEP",
    "ENTRY_STATES",
    "EXECUTION_STATES",
    "ExecutionRecord",
    "JournalEntry",
    "PARKED_STATES",
    "RUNTIME_VERSION",
    "RunEnd",
    "Snippet",
    "StoreTransaction",
    "TERMINAL_STATES",
    "new_execution_id",
    "now",
    "tools_called",
    "valid_snippet_name",
    # values: the codec and what the model sees
    "DURABLE_LIMIT",
    "LOG_LIMIT_BYTES",
    "MODEL_RESULT_CAP",
    "OUTPUT_CAP",
    "canonical_json",
    "cap_model_text",
    "check_durable_text",
    "decode_value",
    "durable_json",
    "durable_result_or_note",
    "encode_value",
    "normalise_output",
    "to_json_safe",
    "trim_log_lines",
    "trim_logs",
    # events
    "EVENT_TYPES",
    "EventBus",
    "EventRelay",
    "ExecutionEvent",
    "FINAL_STATUSES",
    "PARKED_STATUSES",
    "Subscription",
    "completed_data",
    "event_data",
    "history_events",
    "sse_stream",
    "tool_call_data",
    # errors
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
    "NotSerialisableError",
    "PermissionWidening",
    "ReplayDivergence",
    "SignatureError",
    "SignatureMismatch",
    "SnippetDefinitionError",
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
    "error_details",
]
