"""Service settings: where data lives, who may call, how many workers, default limits."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from codemode import DurableSettings

from .engine import CompiledGuest
from .limits import Limits


def default_data_dir() -> Path:
    configured = os.environ.get("SANDBOX_DATA_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sandbox"


@dataclass(frozen=True)
class Settings:
    """Everything the service is started with. ``from_env`` reads the environment."""

    data_dir: Path = field(default_factory=default_data_dir)
    """SQLite database (``sandbox.db``) and blob directory (``blobs/``) live here."""
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
    durable: DurableSettings = field(default_factory=DurableSettings.from_env)
    """Approval TTL, ledger lease, recovery and the always-replay test mode."""
    sweep_interval_s: float = 60.0
    """How often the service expires old parked executions and recovers abandoned ones
    (also once at start-up); 0 turns the periodic sweep off."""
    events_heartbeat_s: float = 15.0
    """Silence after which an event stream sends a ``: ping`` comment."""

    @classmethod
    def from_env(cls, **overrides: object) -> "Settings":
        values: dict[str, object] = {
            "token": os.environ.get("SANDBOX_TOKEN") or None,
            "inline_tool_secret": os.environ.get("SANDBOX_INLINE_TOOL_SECRET") or None,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]

    @property
    def database_path(self) -> Path:
        return self.data_dir / "sandbox.db"

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"
