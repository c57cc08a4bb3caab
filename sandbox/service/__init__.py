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

import importlib
import typing

if typing.TYPE_CHECKING:
    from .app import create_app
    from .bash_tool import BashOptions, run_bash
    from .errors import HTTPError
    from .scopes import SCOPES
    from .logs import log_config
    from .mcp import serve_mcp_stdio
    from .settings import (
        TOOLS,
        Caps,
        ConfigError,
        Settings,
        default_data_dir,
        durable_overrides_from_env,
    )
    from .tokens import IdentityStore

_HOMES = {
    "create_app": ".app", "BashOptions": ".bash_tool", "run_bash": ".bash_tool",
    "HTTPError": ".errors", "SCOPES": ".scopes", "log_config": ".logs",
    "serve_mcp_stdio": ".mcp", "IdentityStore": ".tokens", "TOOLS": ".settings",
    "Caps": ".settings", "ConfigError": ".settings", "Settings": ".settings",
    "default_data_dir": ".settings", "durable_overrides_from_env": ".settings",
}
"""Where each public name lives. A name is imported when first asked for (PEP 562), so a
command that needs only the settings (``sandbox ws``, ``sandbox audit``) does not import
FastAPI and the routes: about 1 s of a command's start on this project's 2-core machine."""


if not typing.TYPE_CHECKING:
    # Hidden from the type checker, which reads the imports above instead: a module
    # ``__getattr__`` would make it accept any name imported from here, typos included.

    def __getattr__(name: str) -> typing.Any:
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, __name__), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_HOMES})


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
