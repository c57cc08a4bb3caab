"""Service settings: where data lives, who may call, how many workers, default limits.

The one source of settings for the service and every command: :class:`Settings` (with
``from_env``), :func:`default_data_dir`, and the durable runtime's knobs from the
environment (:func:`durable_overrides_from_env`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codemode import DurableSettings, HostAllowlist
from storage import is_postgresql
from workspace import Quotas

from .. import CompiledGuest, CompiledScience, Limits


POSTGRESQL_STORES = ("workspaces", "tenants and tokens", "executions, journal, ledger, approvals,"
                     " snippets, toolsets and connectors", "the audit log",
                     "console login sessions")
"""The stores that move to PostgreSQL with a database URL: all of them."""


def _env_path(name: str) -> Path | None:
    raw = os.environ.get(name)
    return Path(raw).expanduser() if raw else None


def default_data_dir() -> Path:
    """``$SANDBOX_DATA_DIR``, else ``$XDG_DATA_HOME/sandbox``, else ``~/.local/share/sandbox``."""
    configured = os.environ.get("SANDBOX_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sandbox"


MIB = 1024 * 1024

TOOLS = ("execute", "bash")
"""The tools the service offers agent hosts; either can be turned off."""

CAP_MEMORY_MB = 1024
CAP_TIMEOUT_MS = 300_000
CAP_OUTPUT_BYTES = 16 * MIB
"""The most a request may ask for, by default; OpenAPI documents these as the maxima."""


@dataclass(frozen=True)
class Caps:
    """The most one request may ask for. A request over a cap is refused (422) naming it. An
    operator may lower the caps (``SANDBOX_MAX_MEMORY_MB``, ``SANDBOX_MAX_TIMEOUT_MS``,
    ``SANDBOX_MAX_OUTPUT_BYTES``), never raise them past the documented defaults."""

    memory_mb: int = CAP_MEMORY_MB
    timeout_ms: int = CAP_TIMEOUT_MS
    output_bytes: int = CAP_OUTPUT_BYTES

    def __post_init__(self) -> None:
        for name, most in (("memory_mb", CAP_MEMORY_MB), ("timeout_ms", CAP_TIMEOUT_MS),
                           ("output_bytes", CAP_OUTPUT_BYTES)):
            value = getattr(self, name)
            if not 1 <= value <= most:
                raise ConfigError(f"the {name} cap must be between 1 and {most}, got {value}")

    @classmethod
    def from_env(cls) -> "Caps":
        """The caps, lowered by the environment where it says so (ConfigError if it is wrong)."""
        found = {name: _env_number(variable, int, minimum=1)
                 for name, variable in (("memory_mb", "SANDBOX_MAX_MEMORY_MB"),
                                        ("timeout_ms", "SANDBOX_MAX_TIMEOUT_MS"),
                                        ("output_bytes", "SANDBOX_MAX_OUTPUT_BYTES"))}
        return cls(**{name: int(value) for name, value in found.items() if value is not None})


@dataclass(frozen=True)
class Settings:
    """Everything the service is started with. ``from_env`` reads the environment."""

    data_dir: Path = field(default_factory=default_data_dir)
    """SQLite database (``sandbox.db``) and blob directory (``blobs/``) live here."""
    database_url: str | None = None
    """A ``postgresql://`` URL (``$SANDBOX_DATABASE_URL``, ``--database``): the stores on the
    storage seam keep their tables there instead of in ``<data_dir>/sandbox.db`` (see
    :data:`POSTGRESQL_STORES`: every one)."""
    database_pool_size: int = 10
    """With PostgreSQL: the most connections this process opens (``$SANDBOX_DATABASE_POOL_SIZE``),
    one pool shared by every store; opened as needed. Event listening holds one more,
    outside the pool. Keep N processes times (this + 1) under the server's ``max_connections``."""
    shared_blob_dir: Path | None = None
    """With PostgreSQL: where large workspace files spill (``$SANDBOX_SHARED_BLOB_DIR``), a
    directory every process on the database mounts. Unset, their bytes stay in the database."""
    token: str | None = None
    """If set, every ``/v1`` request needs ``Authorization: Bearer <token>``."""
    workers: int | None = None
    """Worker processes in the pool (default: CPU count + 1, between 2 and 8)."""
    limits: Limits = Limits.default
    """Defaults for a request that does not set its own limits."""
    cache_dir: Path | None = None
    """Guest build and compile cache (default ``$SANDBOX_CACHE_DIR`` or ``~/.cache/wasm-sandbox``)."""
    max_request_bytes: int = 16 * 1024 * 1024
    """Largest HTTP request body accepted (413 beyond)."""
    inline_tool_secret: str | None = None
    """Signs calls to inline tools' URLs (stored toolsets have their own secrets). Default:
    ``$SANDBOX_INLINE_TOOL_SECRET``, else one generated once and kept in the data directory
    (``inline_tool_secret``, owner-only), so resumed runs are signed the same way."""
    guest: CompiledGuest | None = None
    """A compiled guest to use instead of building one at start-up (tests, embedding)."""
    science: CompiledScience | None = None
    """The science engine's compiled snapshot (tests, embedding); else made on first use."""
    science_workers: int | None = None
    """Worker processes for the science engine, started on its first use (default 2)."""
    durable: DurableSettings = field(default_factory=DurableSettings.from_env)
    """Approval TTL, ledger lease, recovery and the always-replay test mode."""
    sweep_interval_s: float = 60.0
    """How often the service expires old parked executions and recovers abandoned ones
    (also once at start-up); 0 turns the periodic sweep off."""
    events_heartbeat_s: float = 15.0
    """Silence after which an event stream sends a ``: ping`` comment."""
    quotas: Quotas = Quotas.default
    """Bytes and files per call and per workspace, and how much a bash script may add to its
    materialised tree (``from_env`` reads them: :func:`quotas_from_env`)."""
    caps: Caps = field(default_factory=Caps)
    """The most one request may ask for (memory, time, output)."""
    mcp_allowed_hosts: tuple[str, ...] = ()
    """``Host`` values ``/mcp`` answers besides the loopback names (``host`` or ``host:port``,
    ``host:*`` for any port; ``*`` turns the check off), from ``SANDBOX_MCP_ALLOWED_HOSTS``
    (comma-separated). Against DNS rebinding: a web page whose name was pointed at this
    machine sends its own name as the Host, which is refused (421)."""
    mcp_allowed_origins: tuple[str, ...] = ()
    """``Origin`` values ``/mcp`` accepts besides loopback ones (``SANDBOX_MCP_ALLOWED_ORIGINS``);
    a request without an Origin (not from a browser) is not affected. Others get 403."""
    connector_hosts: tuple[str, ...] | None = None
    """The hosts connectors may name and reach (``SANDBOX_CONNECTOR_HOSTS``, comma-separated:
    ``host``, ``host:port``, ``*.domain``; see :class:`codemode.HostAllowlist`). A connector
    outside it is refused when stored (403 ``connector_host_refused``) and its calls are
    refused if the list changed since; None (unset) allows every host."""
    disabled_tools: frozenset[str] = frozenset()
    """Tools this service refuses (``execute``, ``bash``): from ``SANDBOX_DISABLED_TOOLS``
    (comma-separated) or ``serve --disable``. A refused call is a 403 ``tool_disabled``."""
    audit_key_dir: Path | None = None
    """Where the audit log's signing key and checkpoints file live
    (``$SANDBOX_AUDIT_KEY_DIR``; default ``<data_dir>/audit``). Put it somewhere the data
    directory's writers cannot reach: a checkpoint only proves something if the key and
    the exported checkpoints are out of their hands."""
    audit_key_file: Path | None = None
    """The Ed25519 key that signs checkpoints, created 0600 on first use
    (``$SANDBOX_AUDIT_KEY``; default ``<audit_key_dir>/ed25519.key``, its public half
    next to it as ``ed25519.key.pub``)."""
    audit_checkpoints_file: Path | None = None
    """The JSON Lines file every checkpoint is appended to (``$SANDBOX_AUDIT_CHECKPOINTS``;
    default ``<audit_key_dir>/checkpoints.jsonl``)."""
    audit_checkpoint_entries: int = 1000
    """Sign a checkpoint after this many new entries (``$SANDBOX_AUDIT_CHECKPOINT_ENTRIES``;
    0: not by count)."""
    audit_checkpoint_interval_s: float = 600.0
    """Sign a checkpoint this long after the last one when anything is new
    (``$SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S``; 0: not by time). Checked every few seconds."""

    tracing: bool = False
    """Export OpenTelemetry traces (OTLP over HTTP, configured by the standard ``OTEL_*``
    variables). ``from_env`` turns it on when ``OTEL_TRACES_EXPORTER`` (``otlp``, ``console``)
    or an ``OTEL_EXPORTER_OTLP_*ENDPOINT`` is set, unless ``OTEL_SDK_DISABLED=true``."""
    span_exporter: object | None = None
    """An OpenTelemetry ``SpanExporter`` to send spans to instead (tests, embedding): set,
    tracing is on."""
    trace_arguments: bool = False
    """Put each host call's arguments on its span (``SANDBOX_TRACE_ARGUMENTS=1``); off,
    spans carry names, counts and states, never argument values."""
    trace_keep: int = 1000
    """While tracing, keep this many recent traces' spans in memory for the console's trace
    view (``SANDBOX_TRACE_KEEP``; 0: keep none, the view is made from the journal)."""
    metrics: bool = False
    """Serve Prometheus metrics at ``/metrics`` behind the token (``SANDBOX_METRICS=1``)."""
    metrics_address: str | None = None
    """``host:port`` of a separate listener serving only ``/metrics``, no token
    (``SANDBOX_METRICS_ADDR``); metrics are collected when either is set."""

    def __post_init__(self) -> None:
        try:
            HostAllowlist(self.connector_hosts)
        except ValueError as exc:
            raise ConfigError(f"SANDBOX_CONNECTOR_HOSTS: {exc}") from None
        if self.database_url is not None and not is_postgresql(self.database_url):
            raise ConfigError("the database URL must start with postgresql:// (SQLite, the "
                              "default, needs no URL: it lives in the data directory)")
        unknown = set(self.disabled_tools) - set(TOOLS)
        if unknown:
            raise ConfigError(f"unknown tools to disable: {', '.join(sorted(unknown))}; "
                              f"the tools are {', '.join(TOOLS)}")

    @classmethod
    def from_env(cls, **overrides: object) -> "Settings":
        values: dict[str, object] = {
            "token": os.environ.get("SANDBOX_TOKEN") or None,
            "database_url": os.environ.get("SANDBOX_DATABASE_URL") or None,
            "database_pool_size": _env_number("SANDBOX_DATABASE_POOL_SIZE", int, minimum=1),
            "shared_blob_dir": _env_path("SANDBOX_SHARED_BLOB_DIR"),
            "inline_tool_secret": os.environ.get("SANDBOX_INLINE_TOOL_SECRET") or None,
            "caps": Caps.from_env(),
            "quotas": quotas_from_env(),
            "mcp_allowed_hosts": _env_list("SANDBOX_MCP_ALLOWED_HOSTS"),
            "mcp_allowed_origins": _env_list("SANDBOX_MCP_ALLOWED_ORIGINS"),
            "connector_hosts": _env_list("SANDBOX_CONNECTOR_HOSTS") or None,
            "disabled_tools": frozenset(name.strip() for name in
                                        os.environ.get("SANDBOX_DISABLED_TOOLS", "").split(",")
                                        if name.strip()),
            "tracing": tracing_from_env(),
            "trace_arguments": _env_flag("SANDBOX_TRACE_ARGUMENTS"),
            "trace_keep": _env_number("SANDBOX_TRACE_KEEP", int, minimum=0),
            "metrics": _env_flag("SANDBOX_METRICS"),
            "metrics_address": metrics_address_from_env(),
        }
        values.update(audit_from_env())
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**{k: v for k, v in values.items() if v is not None})  # type: ignore[arg-type]

    @property
    def database_path(self) -> Path:
        """The SQLite file: every store's tables without a database URL, the rest's with one."""
        return self.data_dir / "sandbox.db"

    @property
    def database(self) -> str:
        """What the stores of :data:`POSTGRESQL_STORES` open: the URL, else the SQLite file."""
        return self.database_url or str(self.database_path)

    @property
    def workspace_blob_dir(self) -> Path | None:
        """Where the workspace store spills large files (see :attr:`shared_blob_dir`)."""
        return self.shared_blob_dir if self.database_url else self.blob_dir

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"

    @property
    def audit_key_path(self) -> Path:
        return self.audit_key_file or (self.audit_key_dir or self.data_dir / "audit") / "ed25519.key"

    @property
    def audit_checkpoints_path(self) -> Path:
        return self.audit_checkpoints_file or (
            (self.audit_key_dir or self.data_dir / "audit") / "checkpoints.jsonl")

    @property
    def key_dir(self) -> Path:
        """Keys the service keeps (owner-only): ``connectors.key`` seals connector headers."""
        return self.data_dir / "keys"


def _env_list(name: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in os.environ.get(name, "").split(",") if item.strip())


class ConfigError(Exception):
    """An environment variable holds a value the service cannot use."""


def _env_number(name: str, kind: type[float] | type[int], *, minimum: float) -> float | int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = kind(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not {'an integer' if kind is int else 'a number'}") from None
    if value != value or value in (float("inf"), float("-inf")) or value < minimum:
        raise ConfigError(f"{name}={raw!r} must be a finite number >= {minimum:g}")
    return value


def _env_flag(name: str) -> bool | None:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return None
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def durable_overrides_from_env() -> tuple[dict[str, Any], float | None]:
    """The durable runtime's knobs an operator (or a recovery test) sets in the environment.

    Returns overrides for :class:`codemode.DurableSettings` and the sweep interval:
    ``SANDBOX_SWEEP_INTERVAL_S`` (0: sweep only at start-up), ``SANDBOX_PAUSED_TTL_S``,
    ``SANDBOX_RECOVER_RUNNING`` (1/0), ``SANDBOX_LEASE_MARGIN_S``, ``SANDBOX_MAX_ATTEMPTS``,
    ``SANDBOX_LEDGER_LEASE_MS`` (``off`` or 0: a stale pending action is never reclaimed),
    ``SANDBOX_POLL_MS`` (0: the loop never polls for a webhook's answer or a guest's next
    host call, see ``sandbox.polling``).
    Raises :class:`ConfigError` naming the variable for a value it cannot use.
    """
    durable: dict[str, Any] = {}
    numbers: tuple[tuple[str, str, type[float] | type[int], float], ...] = (
        ("SANDBOX_PAUSED_TTL_S", "paused_ttl_s", float, 0.0),
        ("SANDBOX_LEASE_MARGIN_S", "lease_margin_s", float, 0.0),
        ("SANDBOX_MAX_ATTEMPTS", "max_attempts", int, 1),
        ("SANDBOX_POLL_MS", "poll_ms", float, 0.0),
    )
    for env_name, field_name, kind, minimum in numbers:
        value = _env_number(env_name, kind, minimum=minimum)
        if value is not None:
            durable[field_name] = value
    recover = _env_flag("SANDBOX_RECOVER_RUNNING")
    if recover is not None:
        durable["recover_running"] = recover
    lease = os.environ.get("SANDBOX_LEDGER_LEASE_MS", "").strip().lower()
    if lease in ("off", "none"):
        durable["ledger_lease_ms"] = None
    elif lease:
        lease_ms = _env_number("SANDBOX_LEDGER_LEASE_MS", int, minimum=0)
        durable["ledger_lease_ms"] = None if lease_ms == 0 else lease_ms
    interval = _env_number("SANDBOX_SWEEP_INTERVAL_S", float, minimum=0.0)
    return durable, None if interval is None else float(interval)


QUOTA_VARIABLES: tuple[tuple[str, str], ...] = (
    ("SANDBOX_MAX_CALL_WRITE_BYTES", "call_bytes"),
    ("SANDBOX_MAX_CALL_FILES", "call_files"),
    ("SANDBOX_MAX_WORKSPACE_BYTES", "workspace_bytes"),
    ("SANDBOX_MAX_WORKSPACE_FILES", "workspace_files"),
    ("SANDBOX_MAX_TREE_GROWTH_BYTES", "tree_growth_bytes"),
)
"""Each quota's environment variable and :class:`workspace.Quotas` field."""


def quotas_from_env() -> Quotas:
    """:class:`workspace.Quotas` with the ``SANDBOX_MAX_*`` variables set in the environment
    (whole numbers >= 0); the rest keep their defaults. Raises :class:`ConfigError`."""
    chosen: dict[str, int] = {}
    for env_name, field_name in QUOTA_VARIABLES:
        value = _env_number(env_name, int, minimum=0)
        if value is not None:
            chosen[field_name] = int(value)
    return Quotas(**chosen)


def tracing_from_env() -> bool:
    """Whether the standard OpenTelemetry variables ask for traces to be exported."""
    if _env_flag("OTEL_SDK_DISABLED"):
        return False
    exporter = os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter:
        return exporter != "none"
    return any(os.environ.get(name, "").strip() for name in
               ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))


def metrics_address_from_env() -> str | None:
    """``SANDBOX_METRICS_ADDR`` (``host:port``, the port a number), checked (ConfigError)."""
    raw = os.environ.get("SANDBOX_METRICS_ADDR", "").strip()
    if not raw:
        return None
    host, _, port = raw.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"SANDBOX_METRICS_ADDR={raw!r} is not host:port")
    return raw


def audit_from_env() -> dict[str, Any]:
    """The audit log's settings set in the environment: ``SANDBOX_AUDIT_KEY_DIR``,
    ``SANDBOX_AUDIT_KEY``, ``SANDBOX_AUDIT_CHECKPOINTS`` (paths),
    ``SANDBOX_AUDIT_CHECKPOINT_ENTRIES`` (whole number >= 0) and
    ``SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S`` (seconds >= 0). Raises :class:`ConfigError`."""
    found: dict[str, Any] = {}
    for env_name, field_name in (("SANDBOX_AUDIT_KEY_DIR", "audit_key_dir"),
                                 ("SANDBOX_AUDIT_KEY", "audit_key_file"),
                                 ("SANDBOX_AUDIT_CHECKPOINTS", "audit_checkpoints_file")):
        raw = os.environ.get(env_name, "").strip()
        if raw:
            found[field_name] = Path(raw).expanduser()
    entries = _env_number("SANDBOX_AUDIT_CHECKPOINT_ENTRIES", int, minimum=0)
    if entries is not None:
        found["audit_checkpoint_entries"] = int(entries)
    interval = _env_number("SANDBOX_AUDIT_CHECKPOINT_INTERVAL_S", float, minimum=0.0)
    if interval is not None:
        found["audit_checkpoint_interval_s"] = float(interval)
    return found
