"""sandbox: run model-written Python and bash in fresh WebAssembly isolates.

The modules directly in this package are the isolate core (``build``, ``engine``,
``isolate``, ``traps``, ``workers`` + ``worker_main`` + ``_wire``, ``hostcalls``, the science
engine's ``engines`` (which interpreter), ``science_engine`` (its snapshot, made with
``wasm_snapshot``), ``science_isolate``, ``memory_slots`` (both engines' resident memories),
``envelope`` (what the guest sends, checked), ``limits``, ``errors``, ``api``, ``spans``
(the tracing seam, ``tracing``)): they know
nothing of tools, journals or workspaces and import neither. The HTTP
service (:mod:`sandbox.service`) and the command line (:mod:`sandbox.cli`) sit on top and
wire the core to ``codemode`` and ``workspace``.
"""

__version__ = "0.1.0"

from .api import AsyncSandbox, ExecutionResult, Sandbox
from .engine import CompiledGuest, cache_state, ensure_compiled
from .engines import ENGINES, choose_engine
from .envelope import depth_exceeds
from .errors import (
    CodeTooLarge,
    DeadlineExceeded,
    GuestBuildError,
    GuestProtocolError,
    GuestTrap,
    HostCallLimitExceeded,
    LimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    SandboxError,
    WorkerCrashed,
)
from .guest_modules import summary as guest_modules_summary
from .hostcalls import CallableTools, HostAbort, HostCallError, HostCallHandler, ToolSpec, uncharged_wait
from .json_text import JSONText, ascii_string_json, plain_strings_json, value_of, writes_as_itself
from .limits import MAX_DEADLINE_S, MAX_MEMORY_BYTES, Limits
from .polling import POLLER, Poller
from .science_engine import CompiledScience, ensure_science, science_state
from .spans import SpanHandle, tracing

__all__ = [
    "AsyncSandbox",
    "CallableTools",
    "CodeTooLarge",
    "CompiledGuest",
    "CompiledScience",
    "DeadlineExceeded",
    "ENGINES",
    "ExecutionResult",
    "GuestBuildError",
    "GuestProtocolError",
    "GuestTrap",
    "HostAbort",
    "HostCallError",
    "HostCallHandler",
    "HostCallLimitExceeded",
    "JSONText",
    "LimitExceeded",
    "Limits",
    "MAX_DEADLINE_S",
    "MAX_MEMORY_BYTES",
    "MemoryLimitExceeded",
    "OutputLimitExceeded",
    "POLLER",
    "Poller",
    "Sandbox",
    "SandboxError",
    "SpanHandle",
    "ToolSpec",
    "WorkerCrashed",
    "ascii_string_json",
    "cache_state",
    "choose_engine",
    "depth_exceeds",
    "ensure_compiled",
    "ensure_science",
    "guest_modules_summary",
    "plain_strings_json",
    "science_state",
    "tracing",
    "uncharged_wait",
    "value_of",
    "writes_as_itself",
]
