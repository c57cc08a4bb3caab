"""Making tool outputs, final results and console logs fit for the model that reads them.

What the **model** sees of one tool output (reference section 4): strings are cut at 20,000
characters with ``\\n\\n[truncated N chars]``; other values are serialised safely (a cycle
becomes ``"[Circular]"``), and if their JSON is over 20,000 characters the model gets
``{"truncated": true, "chars": N, "preview": <first 20,000 characters>}``; a value with no
JSON form becomes ``{"serialized": false, "error": "..."}``. The full value is kept by the
caller, not here. The final result text shown to the model is capped near 24,000
characters, and console logs over 1 MB are trimmed with a note.

What is *recorded* (the 1,000,000-character durable limit, the tagged codec) is
:mod:`codemode.codec`'s business, not this module's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from codemode.codec import json_safe_text, to_json_safe
from codemode.errors import NotSerialisableError

__all__ = [
    "LOG_LIMIT_BYTES",
    "MODEL_RESULT_CAP",
    "OUTPUT_CAP",
    "TRUNCATED_MARKER",
    "cap_model_text",
    "normalise_output",
    "plain_output_text",
    "trim_log_lines",
    "trim_logs",
]

OUTPUT_CAP = 20_000
MODEL_RESULT_CAP = 24_000
LOG_LIMIT_BYTES = 1_000_000
TRUNCATED_MARKER = "--- TRUNCATED ---"



def normalise_output(value: Any, cap: int = OUTPUT_CAP) -> Any:
    """What the model sees of one tool output (reference section 4)."""
    if isinstance(value, str):
        if len(value) <= cap:
            return value
        return value[:cap] + f"\n\n[truncated {len(value) - cap} chars]"
    try:
        safe = to_json_safe(value)
    except NotSerialisableError as exc:
        return {"serialized": False, "error": exc.reason}
    text = json.dumps(safe, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if len(text) > cap:
        return {"truncated": True, "chars": len(text), "preview": text[:cap]}
    return safe


def plain_output_text(value: Any, cap: int = OUTPUT_CAP) -> str | None:
    """The compact JSON text of what :func:`normalise_output` gives back for ``value`` when
    that is ``value`` itself, a plain JSON value, or None to take that function's way.

    One encode in C instead of the codec's walk and an encode (a webhook's output is plain
    JSON): :func:`codemode.codec.json_safe_text`, when it is certain, and the text is within
    ``cap``. Strings never come here: they are capped as they are."""
    if isinstance(value, str):
        return None
    text = json_safe_text(value)
    return None if text is None or len(text) > cap else text


def cap_model_text(text: str, cap: int = MODEL_RESULT_CAP) -> str:
    """Cap the final result text shown to the model, saying how much was left out."""
    if len(text) <= cap:
        return text
    return (
        text[:cap]
        + f"\n\n{TRUNCATED_MARKER}\nThe result was {len(text):,} characters; only the first "
        f"{cap:,} are shown. Return less, or write large data to the workspace."
    )


def trim_logs(text: str, limit_bytes: int = LOG_LIMIT_BYTES) -> str:
    """Keep console logs under ``limit_bytes`` of UTF-8, keeping the start and noting the cut."""
    data = text.encode("utf-8")
    if len(data) <= limit_bytes:
        return text
    kept = data[:limit_bytes].decode("utf-8", errors="ignore")
    return kept + f"\n[logs trimmed: {len(data) - len(kept.encode('utf-8')):,} bytes omitted]"


def _utf8_len(text: str) -> int:
    # surrogatepass: a lone surrogate still counts (3 bytes) instead of raising.
    return len(text.encode("utf-8", "surrogatepass"))


def trim_log_lines(logs: Sequence[str], limit_bytes: int = LOG_LIMIT_BYTES) -> list[str]:
    """Keep console lines up to ``limit_bytes`` of UTF-8 (a newline each), then a note.

    The start is kept because that is where the first error usually shows.
    """
    # Counted in C: a line at a time in Python, 150,000 lines took 17 ms of the event loop.
    if all(map(str.isascii, logs)):
        total = sum(map(len, logs)) + len(logs)
    else:  # the joined text, a newline between lines standing for the one each line counts
        total = _utf8_len("\n".join(logs)) + 1 if logs else 0
    if total <= limit_bytes:
        return list(logs)
    kept: list[str] = []
    used = 0
    for line in logs:
        size = _utf8_len(line) + 1
        if used + size > limit_bytes:
            room = limit_bytes - used - 1
            if room > 0:
                cut = line.encode("utf-8", "surrogatepass")[:room]
                part = cut.decode("utf-8", errors="ignore")
                kept.append(part)
                used += _utf8_len(part) + 1
            break
        kept.append(line)
        used += size
    kept.append(f"[logs trimmed: {total - used:,} bytes omitted]")
    return kept
