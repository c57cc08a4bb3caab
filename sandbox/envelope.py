"""What may cross from the guest to the host, checked on the host: host-call payloads and
the execute envelope.

Everything here treats its input as hostile. The guest's Python builds its envelope and its
host-call payloads, and model-written code runs in that same interpreter: it can replace
``json.dumps``, rewrite the log buffers or call the WIT import itself with any string. So
the host parses with bounds (``bounded_loads``: size, then depth, a ``RecursionError``
included) and checks the envelope's shape and sizes (``read_envelope``): ``status`` one of
two words, ``logs`` a list of strings within the run's output budget, ``error`` three
strings each cut to ``MAX_ERROR_CHARS`` with a marker, ``result`` any JSON value no deeper
than ``MAX_RESULT_DEPTH``. A failed check raises ``GuestProtocolError``, which ends the run
as an error (kind ``protocol``), never as a crash of whoever asked.

What the host takes from a well-formed envelope is only what the guest may say about
itself: its result, its logs, its exception, and (from the science guest) the images it made,
each checked to be the PNG it claims (``attachments``), and a readable table of its result
(``result_text``, cut like an error text). Trap kinds are the host's: ``output`` when the
host counted the logs up to the budget, ``memory`` when the guest runtime (not the user's
exception's name) attests an allocation failure (``"limit": "memory"``; see ``pyexec.py``).
wasmtime's C API tells the host nothing of a refused ``memory.grow`` (no limiter callback),
so that attestation is the one thing the host cannot check; a forged one can only mislabel
the forger's own failed run.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from typing import Any

from .errors import GuestProtocolError

__all__ = [
    "ENVELOPE_DEPTH",
    "MAX_ATTACHMENTS",
    "MAX_ERROR_CHARS",
    "MAX_PAYLOAD_CHARS",
    "MAX_PAYLOAD_DEPTH",
    "MAX_RESULT_DEPTH",
    "Envelope",
    "bounded_loads",
    "depth_exceeds",
    "read_envelope",
    "truncate_text",
]

MAX_PAYLOAD_DEPTH = 128
"""Deepest nesting of a host-call payload (the guest's arguments sit two levels down)."""
MAX_PAYLOAD_CHARS = 64 * 1024 * 1024
"""Longest host-call payload: parsing it runs on the service's event loop, so it is bounded
well below the pipe's frame limit (Code Mode refuses to journal arguments over 1 MB anyway)."""
MAX_RESULT_DEPTH = 101
"""Deepest nesting of a result: the guest's ``to_json`` stops at 100 containers."""
MAX_ERROR_CHARS = 65_536
"""Longest error name, message or traceback kept; the guest cuts to the same length."""
MAX_ATTACHMENTS = 16
"""Most attachments (figures) one run hands back; the science guest keeps as many."""
ENVELOPE_DEPTH = MAX_RESULT_DEPTH + 2
"""Deepest nesting of the whole execute envelope (its result sits one level down)."""
_FIELDS = frozenset({"status", "result", "logs", "error", "output_truncated", "limit", "exit_code",
                     "attachments", "result_text"})
_EXIT_CODES = range(-(2**31), 2**31)
"""An exit status the guest may state (``sys.exit(n)``, ``os._exit(n)``): a 32-bit int."""
_IMAGE_TYPES = {"image/png": b"\x89PNG\r\n\x1a\n"}
"""Media types an attachment may claim, with the signature its bytes must start with."""
_ERROR_FIELDS = ("name", "message", "traceback")
_LOG_PREFIXES = ("[error] ", "[warn] ")
_PARTIAL_STREAMS = 3
"""Streams whose last line may end without a newline (stdout, stderr, warnings)."""
_UTF8_SLACK = 3
"""Bytes the guest may drop when it cuts a multi-byte character at the budget."""


def truncate_text(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``text``, or its first ``limit`` characters and a marker saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [truncated: {len(text) - limit} more characters]"


def depth_exceeds(value: Any, max_depth: int) -> bool:
    """Whether ``value`` nests containers deeper than ``max_depth``: level by level, one list
    of the next level's containers at a time (neither recursion, which a deep value must not
    reach, nor a stack entry per container: for a result of 200,000 dicts that walk held the
    event loop for a quarter of a second)."""
    level = [value] if isinstance(value, (dict, list)) else []
    for _ in range(max_depth):
        if not level:
            return False
        level = [child for item in level for child in _children(item)
                 if isinstance(child, (dict, list))]
    return bool(level)


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
_LONG_CONTAINER = 64


def _children(container: dict[Any, Any] | list[Any]) -> Any:
    """A container's values, or none when a long one holds only scalars (a run's many log
    lines): the types are gathered in C, far quicker than an ``isinstance`` each."""
    children = container.values() if isinstance(container, dict) else container
    if len(children) >= _LONG_CONTAINER and set(map(type, children)) <= _SCALAR_TYPES:
        return ()
    return children


def bounded_loads(text: str, *, max_depth: int, max_chars: int | None = None,
                  what: str = "guest data") -> Any:
    """Parse JSON from the guest within bounds, or raise ``GuestProtocolError``."""
    if max_chars is not None and len(text) > max_chars:
        raise GuestProtocolError(f"{what} is {len(text)} characters; the limit is {max_chars}")
    try:
        value = json.loads(text)
    except RecursionError:
        raise GuestProtocolError(f"{what} nests deeper than {max_depth} levels") from None
    except ValueError as exc:
        raise GuestProtocolError(f"{what} is not JSON: {exc}") from None
    # Nesting n levels takes at least 2n characters: a short text needs no walk (most do).
    if len(text) > 2 * max_depth and depth_exceeds(value, max_depth):
        raise GuestProtocolError(f"{what} nests deeper than {max_depth} levels")
    return value


@dataclass
class Envelope:
    """The guest's account of one execute, as checked and capped by the host."""

    status: str
    result: Any = None
    logs: list[str] = field(default_factory=list)
    error: dict[str, str] | None = None
    trap: dict[str, str] | None = None
    """Set by the host: ``output`` (logs counted up to the budget) or ``memory``."""
    exit_code: int | None = None
    """The status the code exited with (``sys.exit``, ``os._exit``), when it exited."""
    attachments: list[dict[str, str]] = field(default_factory=list)
    """Images the run made (the science guest's figures), each checked to be what it says."""
    result_text: str | None = None
    """A readable rendering of the result (a DataFrame's table), for model-facing text."""


def _checked_attachments(attachments: Any) -> list[dict[str, str]]:
    """``{"type": "image", "media_type", "data": base64}`` items whose bytes are of that type."""
    if attachments is None:
        return []
    if not isinstance(attachments, list) or len(attachments) > MAX_ATTACHMENTS:
        raise GuestProtocolError(f"the guest's attachments are not a list of at most {MAX_ATTACHMENTS}")
    checked = []
    for item in attachments:
        if not isinstance(item, dict) or set(item) != {"type", "media_type", "data"} \
                or item["type"] != "image" or item["media_type"] not in _IMAGE_TYPES \
                or not isinstance(item["data"], str):
            raise GuestProtocolError("a guest attachment is not {type: image, media_type, data}")
        try:
            raw = base64.b64decode(item["data"], validate=True)
        except (binascii.Error, ValueError):
            raise GuestProtocolError("a guest attachment's data is not base64") from None
        if not raw.startswith(_IMAGE_TYPES[item["media_type"]]):
            raise GuestProtocolError(f"a guest attachment is not the {item['media_type']} it claims")
        checked.append({"type": "image", "media_type": item["media_type"], "data": item["data"]})
    return checked


def _split_prefix(line: str) -> tuple[str, bytes]:
    """A log line's stream prefix and its text as UTF-8 (what the budget counted)."""
    prefix = next((p for p in _LOG_PREFIXES if line.startswith(p)), "")
    return prefix, line[len(prefix):].encode("utf-8", "surrogatepass")


def _capped_logs(logs: Any, budget: int) -> tuple[list[str], bool, bool]:
    """(the logs within ``budget``, whether they reached it, whether they went past it)."""
    try:
        if not isinstance(logs, list):
            raise TypeError
        total = _total_cost(logs)
    except TypeError:  # from joining them, when one is not a string
        raise GuestProtocolError("the guest's logs are not a list of strings") from None
    if total is not None and total <= budget + _PARTIAL_STREAMS:
        return logs, total >= budget - _UTF8_SLACK, False
    return _capped_line_by_line(logs, budget)


def _total_cost(logs: list[str]) -> int | None:
    """What :func:`_capped_line_by_line` counts for all of ``logs``, from their joined text
    (a line at a time in Python, 150,000 lines took 0.1 s on the service's event loop);
    None when a line holds a newline, which would blur where the next one starts."""
    if not logs:
        return 0
    joined = "\n".join(logs)
    if joined.count("\n") != len(logs) - 1:
        return None
    prefixed = 0
    # Both prefixes begin with "[": most logs hold none (one byte looked for, the quickest scan).
    if "[" in joined and ("\n[" in joined or joined.startswith("[")):
        prefixed = sum(len(p) * (joined.count("\n" + p) + joined.startswith(p)) for p in _LOG_PREFIXES)
    size = len(joined) if joined.isascii() else len(joined.encode("utf-8", "surrogatepass"))
    return size + 1 - prefixed


def _capped_line_by_line(logs: list[str], budget: int) -> tuple[list[str], bool, bool]:
    allowed = budget + _PARTIAL_STREAMS
    used = 0
    for index, line in enumerate(logs):
        prefix, text = _split_prefix(line)
        cost = len(text) + 1  # its newline counted too
        if used + cost > allowed:
            cut = text[:max(budget - used, 0)].decode("utf-8", "ignore")
            return logs[:index] + ([prefix + cut] if cut else []), True, True
        used += cost
    return logs, used >= budget - _UTF8_SLACK, False


def _checked_error(error: Any) -> dict[str, str] | None:
    if error is None:
        return None
    if not isinstance(error, dict) or set(error) - set(_ERROR_FIELDS) \
            or not all(isinstance(error.get(k, ""), str) for k in _ERROR_FIELDS):
        raise GuestProtocolError("the guest's error is not {name, message, traceback} strings")
    checked = {k: truncate_text(error.get(k, "")) for k in _ERROR_FIELDS}
    checked["name"] = checked["name"] or "Error"
    return checked


def read_envelope(response: str, *, output_bytes: int, max_chars: int | None = None) -> Envelope:
    """Check the guest's execute response; raise ``GuestProtocolError`` when it is not one."""
    body = bounded_loads(response, max_depth=ENVELOPE_DEPTH, max_chars=max_chars,
                         what="the guest's response")
    if not isinstance(body, dict) or set(body) - _FIELDS:
        raise GuestProtocolError("the guest's response is not an execute envelope")
    status = body.get("status")
    if status not in ("completed", "error"):
        raise GuestProtocolError(f"the guest's response has no valid status ({str(status)[:40]!r})")
    if "result" in body and depth_exceeds(body["result"], MAX_RESULT_DEPTH):
        raise GuestProtocolError(f"the guest's result nests deeper than {MAX_RESULT_DEPTH} levels")
    if not isinstance(body.get("output_truncated", False), bool) \
            or body.get("limit") not in (None, "memory"):
        raise GuestProtocolError("the guest's response has a malformed field")
    exit_code = body.get("exit_code")
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)
                                  or exit_code not in _EXIT_CODES
                                  or (exit_code != 0) != (status == "error")):
        raise GuestProtocolError("the guest's response has a malformed exit_code")
    logs, filled, overran = _capped_logs(body.get("logs", []), output_bytes)
    error = _checked_error(body.get("error"))
    if status == "error" and error is None:
        raise GuestProtocolError("the guest reported an error without describing it")
    text = body.get("result_text")
    if text is not None and not isinstance(text, str):
        raise GuestProtocolError("the guest's result text is not a string")
    envelope = Envelope(status=status, result=body.get("result") if status == "completed" else None,
                        logs=logs, error=error if status == "error" else None,
                        exit_code=exit_code,
                        attachments=_checked_attachments(body.get("attachments")),
                        result_text=truncate_text(text) if text and status == "completed" else None)
    if overran:
        # Past the budget, which the guest's own capture never does: the host's count stands.
        message = f"output exceeded {output_bytes} bytes (cut by the host)"
        envelope.status, envelope.result, envelope.result_text = "error", None, None
        envelope.error = {"name": "OutputLimitExceeded", "message": message, "traceback": ""}
        envelope.trap = {"kind": "output", "message": message}
    elif error is not None and error["name"] == "OutputLimitExceeded" and filled:
        envelope.trap = {"kind": "output", "message": error["message"]}
    elif error is not None and body.get("limit") == "memory":
        detail = f": {error['message']}" if error["message"] else ""
        if error["name"] == "OverflowError":
            detail += " (an object larger than the guest can address)"
        envelope.trap = {"kind": "memory", "message": f"{error['name']} inside the guest{detail}"}
    return envelope
