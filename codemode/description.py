"""The execute tool's description: the text an agent host hands its model.

It says how to write the code, what comes back, which namespaces exist (with their typed
declarations) and the limits, so a model can write a correct program on its first try.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from sandbox import guest_modules_summary

from .declarations import render_declarations
from .tooldefs import ToolDef

CODEMODE_DOC = '''class codemode(Protocol):
    """Helpers for the code itself."""

    @staticmethod
    def search(query: str) -> dict[str, Any]:
        """Find tools and saved snippets: {"results": [{path, description, kind, score}], "total", "truncated"}."""

    @staticmethod
    def describe(target: str) -> dict[str, Any]:
        """The typed declaration of a namespace, "namespace.method" or snippet."""

    @staticmethod
    def step(name: str, fn: Callable[[], T]) -> T:
        """Run fn once and record its value. Wrap time, random and uuid values in it."""

    @staticmethod
    def run(name: str, input: Any = None) -> Any:
        """Run a saved snippet with `input`; its tool calls join this execution."""
'''


def execute_description(namespaces: Mapping[str, Sequence[ToolDef]], *, state_doc: str,
                        timeout_ms: int, memory_mb: int, max_output_bytes: int,
                        max_host_calls: int) -> str:
    """The complete description of the execute tool for these namespaces and limits."""
    declarations = render_declarations(namespaces) if namespaces else ""
    names = ", ".join([*(f"`{n}`" for n in {"tools": None, **dict.fromkeys(namespaces)}), "`state`",
                       "`codemode`"])
    return f"""Run Python code in a fresh, isolated sandbox. Use it to call several tools in one
step: loop, filter, combine results, and return only what matters.

How to write the code:
- Plain Python 3.14, in one thread, with no network and no processes. `/tmp` is an empty
  scratch directory for this run only (64 MiB); files that must persist go through `state`.
  {guest_modules_summary()}
- The value of the last expression is the result; a top-level `return value` also works,
  and code that only defines one function (`def main(): ...`) has it called. Return
  JSON-friendly values (dict, list, str, numbers, bool, None). `sys.exit(n)` ends the run
  with `exit_code` n.
- `print(...)` output comes back as logs; keep it short.
- Namespaces available as globals: {names}; `tools` holds every tool of every namespace
  (a name two namespaces define only through them). Call tools with keyword arguments, e.g.
  `tools.get_weather(city="Paris")`; an output over 20,000 characters arrives cut. A
  failing tool raises `ToolError` (with `.name` and `.message`; an HTTP answer outside 2xx
  is `ToolHTTPStatusError` with `.status` and `.body` too); invalid arguments are
  rejected before the tool runs.
- Files persist in the workspace through `state` (a virtual filesystem).

What comes back: {{"status": "completed" | "error", "result", "logs", "error"?: {{name, message,
traceback}}, "calls": [the tool calls made, in order]}}.

Limits: {timeout_ms} ms wall-clock, {memory_mb} MiB of memory, {max_output_bytes} bytes of
printed output, {max_host_calls} tool calls per run; values over 1,000,000 characters cannot
be recorded (write large data to the workspace instead).

Declarations:

```python
{declarations.rstrip()}

{CODEMODE_DOC.rstrip()}
```

`state`:
{state_doc}
"""


__all__ = ["CODEMODE_DOC", "execute_description"]
