"""Runs one piece of model-written Python inside the isolate and describes what happened.

Request (JSON): ``{"code", "max_output_bytes", "namespaces": {"tools": [{"name", "doc"?}]}}``.
Response (JSON): ``{"status": "completed" | "error", "result", "logs", "error"?,
"output_truncated"}``, where ``error`` is ``{"name", "message", "traceback"}`` and the
traceback shows only frames of the user's code.

Code is normalised the way the reference normalises JavaScript, in Python terms: a markdown
fence around the whole input is stripped; the value of a trailing expression is the result;
a ``return`` at top level ends the run with its value; empty code returns ``None``.
"""

from __future__ import annotations

import ast
import builtins
import json
import linecache
import re
import sys
import traceback
import warnings
from typing import Any, Callable

from hostcall import CodeModeNamespace, HostChannel, Namespace, StateNamespace, ToolError
from tojson import to_json

USER_FILENAME = "<code>"
_FENCE = re.compile(r"\A\s*```[A-Za-z0-9_+-]*[ \t]*\r?\n(.*?)\r?\n?```\s*\Z", re.DOTALL)


class OutputLimitExceeded(BaseException):
    """The code printed more than its output budget. Derives from BaseException on purpose."""


class _TopLevelReturn(BaseException):
    def __init__(self, value: Any) -> None:
        self.value = value


def strip_fence(code: str) -> str:
    match = _FENCE.match(code)
    return match.group(1) if match else code


class _ReturnRewriter(ast.NodeTransformer):
    """Turns top-level ``return x`` into ``raise __sandbox_return__(x)``; leaves defs alone."""

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def visit_Return(self, node: ast.Return) -> ast.AST:
        value = node.value if node.value is not None else ast.Constant(value=None)
        call = ast.Call(func=ast.Name(id="__sandbox_return__", ctx=ast.Load()), args=[value],
                        keywords=[])
        return ast.copy_location(ast.Raise(exc=call, cause=None), node)


def compile_code(code: str) -> tuple[Any, Any]:
    """Compile into (body, trailing expression or None)."""
    tree = ast.parse(code, filename=USER_FILENAME, mode="exec")
    tree = _ReturnRewriter().visit(tree)
    trailing = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop()
        trailing = compile(ast.Expression(body=last.value), USER_FILENAME, "eval")
    ast.fix_missing_locations(tree)
    return compile(tree, USER_FILENAME, "exec"), trailing


class LogCapture:
    """Collects printed lines (stderr lines prefixed ``[error] ``) under a byte budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.truncated = False
        self.lines: list[str] = []
        self._partial: dict[str, str] = {"": "", "[error] ": "", "[warn] ": ""}

    def write(self, prefix: str, text: str) -> int:
        if self.truncated:
            raise OutputLimitExceeded("output limit exceeded")
        size = len(text.encode("utf-8", "surrogatepass"))
        if self.used + size > self.budget:
            room = self.budget - self.used
            text = text.encode("utf-8", "surrogatepass")[:max(room, 0)].decode("utf-8", "ignore")
            self._append(prefix, text)
            self.used = self.budget
            self.truncated = True
            raise OutputLimitExceeded(f"output exceeded {self.budget} bytes")
        self.used += size
        self._append(prefix, text)
        return len(text)

    def _append(self, prefix: str, text: str) -> None:
        pending = self._partial[prefix] + text
        *complete, rest = pending.split("\n")
        self.lines.extend(prefix + line for line in complete)
        self._partial[prefix] = rest

    def finish(self) -> list[str]:
        for prefix, rest in self._partial.items():
            if rest:
                self.lines.append(prefix + rest)
            self._partial[prefix] = ""
        return self.lines


class _Stream:
    def __init__(self, capture: LogCapture, prefix: str) -> None:
        self._capture = capture
        self._prefix = prefix

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return self._capture.write(self._prefix, text)

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return "utf-8"


def _user_traceback(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == USER_FILENAME]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def _error(exc: BaseException, user_globals: dict[str, Any]) -> dict[str, Any]:
    name = exc.name if isinstance(exc, ToolError) else type(exc).__name__
    message = str(exc)
    if isinstance(exc, NameError) and not isinstance(exc, ToolError):
        visible = sorted(k for k in user_globals if not k.startswith("__") and k != "help")
        message += (". Available globals: " + (", ".join(visible) or "none")
                    + " (plus Python's builtins)")
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        message = f"{exc.msg} (line {exc.lineno}, column {exc.offset or 0})"
    return {"name": name, "message": message, "traceback": _user_traceback(exc)}


def _help(obj: Any = None) -> None:
    """Show what an object is: for namespaces and tools, their typed declarations."""
    if obj is None:
        print("help(namespace) or help(namespace.tool) shows its declaration.")
        return
    print(getattr(obj, "__doc__", None) or repr(obj))


def run_code(code: str, user_globals: dict[str, Any]) -> Any:
    """Compile and run normalised code in ``user_globals``; return its result value."""
    body, trailing = compile_code(code)
    try:
        exec(body, user_globals)
        return eval(trailing, user_globals) if trailing is not None else None
    except _TopLevelReturn as ret:
        return ret.value


def _base_globals() -> dict[str, Any]:
    return {"__name__": "__main__", "__builtins__": builtins, "__sandbox_return__": _TopLevelReturn,
            "ToolError": ToolError, "help": _help}


def run(request_json: str, raw_call: Callable[[str, str], str], err_type: type[BaseException]) -> str:
    request = json.loads(request_json)
    capture = LogCapture(int(request.get("max_output_bytes", 1_000_000)))
    channel = HostChannel(raw_call, err_type)
    user_globals = _base_globals()
    namespaces: dict[str, Any] = {}
    docs = request.get("docs", {})
    for label, tools in request.get("namespaces", {}).items():
        namespaces[label] = Namespace(label, channel, tools, docs.get(label, ""))
    if "state_methods" in request:
        namespaces["state"] = StateNamespace(channel, request["state_methods"], docs.get("state", ""))
    if request.get("codemode"):
        def run_snippet(snippet_code: str, snippet_input: Any) -> Any:
            snippet_globals = _base_globals()
            snippet_globals.update(namespaces)
            snippet_globals["input"] = snippet_input
            return run_code(strip_fence(snippet_code), snippet_globals)

        namespaces["codemode"] = CodeModeNamespace(channel, run_snippet)
    user_globals.update(namespaces)
    code = strip_fence(request.get("code", ""))
    linecache.cache[USER_FILENAME] = (len(code), None, code.splitlines(True), USER_FILENAME)
    saved = sys.stdout, sys.stderr, warnings.showwarning
    sys.stdout, sys.stderr = _Stream(capture, ""), _Stream(capture, "[error] ")

    def show_warning(message: Any, category: Any, filename: str, lineno: int,
                     file: Any = None, line: Any = None) -> None:
        capture.write("[warn] ", f"{category.__name__}: {message}\n")

    warnings.showwarning = show_warning
    outcome: dict[str, Any] = {"status": "completed", "result": None}
    try:
        outcome["result"] = to_json(run_code(code, user_globals))
    except OutputLimitExceeded as exc:
        outcome = {"status": "error", "result": None,
                   "error": {"name": "OutputLimitExceeded", "message": str(exc), "traceback": ""}}
    except SystemExit as exc:
        if exc.code not in (None, 0):
            outcome = {"status": "error", "result": None, "error": _error(exc, user_globals)}
    except BaseException as exc:  # the user's error is the result, whatever its type
        outcome = {"status": "error", "result": None, "error": _error(exc, user_globals)}
    finally:
        sys.stdout, sys.stderr, warnings.showwarning = saved
    if capture.truncated and outcome["status"] == "completed":
        outcome = {"status": "error", "result": None,
                   "error": {"name": "OutputLimitExceeded",
                             "message": f"output exceeded {capture.budget} bytes", "traceback": ""}}
    outcome["logs"] = capture.finish()
    outcome["output_truncated"] = capture.truncated
    return json.dumps(outcome, allow_nan=False)
