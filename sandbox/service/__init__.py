"""The HTTP service: the FastAPI app over the isolate core, Code Mode and the workspaces.

- :mod:`.app`: ``create_app(settings)``, start-up and shutdown, the ``/v1`` guard;
- :mod:`.errors`: the one error map and the one error shape;
- :mod:`.settings`: what the service is started with, from arguments and the environment;
- :mod:`.state`: typed access to what the running app holds;
- :mod:`.bash_tool`: the bash tool (snapshot, run, write back);
- :mod:`.mcp` and :mod:`.mcp_server`: the MCP server (``/mcp`` over Streamable HTTP, started
  by its first request, and stdio for ``sandbox mcp``);
- :mod:`.routes`: one module per resource.
"""

from __future__ import annotations

from .app import create_app
from .bash_tool import BashOptions, run_bash
from .errors import HTTPError
from .identity import SCOPES
from .logs import log_config
from .mcp import serve_mcp_stdio
from .tokens import IdentityStore
from .settings import (
    TOOLS,
    Caps,
    ConfigError,
    Settings,
    default_data_dir,
    durable_overrides_from_env,
)

__all__ = [
    "TOOLS",
    "BashOptions",
    "Caps",
    "ConfigError",
    "HTTPError",
    "IdentityStore",
    "SCOPES",
    "Settings",
    "create_app",
    "default_data_dir",
    "durable_overrides_from_env",
    "log_config",
    "run_bash",
    "serve_mcp_stdio",
]
