"""sandbox: run model-written Python and bash in fresh WebAssembly isolates.

The isolate core (``engine``, ``isolate``, ``workers``, ``hostcalls``, ``limits``,
``errors``) knows nothing of tools, journals or workspaces; the service (``app``,
``routes``, ``cli``) wires it to ``codemode`` and ``workspace``.
"""

__version__ = "0.1.0"

from .api import AsyncSandbox, ExecutionResult, Sandbox
from .engine import CompiledGuest
from .errors import (
    CodeTooLarge,
    DeadlineExceeded,
    GuestBuildError,
    GuestTrap,
    HostCallLimitExceeded,
    LimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    SandboxError,
    WorkerCrashed,
)
from .hostcalls import CallableTools, HostAbort, HostCallError, HostCallHandler, ToolSpec, uncharged_wait
from .limits import Limits

__all__ = [
    "AsyncSandbox",
    "CallableTools",
    "CodeTooLarge",
    "CompiledGuest",
    "DeadlineExceeded",
    "ExecutionResult",
    "GuestBuildError",
    "GuestTrap",
    "HostAbort",
    "HostCallError",
    "HostCallHandler",
    "HostCallLimitExceeded",
    "LimitExceeded",
    "Limits",
    "MemoryLimitExceeded",
    "OutputLimitExceeded",
    "Sandbox",
    "SandboxError",
    "ToolSpec",
    "WorkerCrashed",
    "uncharged_wait",
]
