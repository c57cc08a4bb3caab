"""Making tool outputs fit for the model, and values fit for the journal.

Two different budgets live here:

- What the **model** sees of one tool output (reference section 4): strings are cut at
  20,000 characters with ``\\n\\n[truncated N chars]``; other values are serialised safely
  (a cycle becomes ``"[Circular]"``), and if their JSON is over 20,000 characters the model
  gets ``{"truncated": true, "chars": N, "preview": <first 20,000 characters>}``; a value
  with no JSON form becomes ``{"serialized": false, "error": "..."}``. The full value is
  kept by the caller, not here.
- What is **recorded durably** (reference section 5): code, arguments and results up to
  1,000,000 characters; bigger ones raise :class:`~codemode.errors.DurableSizeError`.
  An over-large *final* result is still returned, but the record keeps a note instead
  (:func:`durable_result_or_note`); console logs over 1 MB are trimmed with a note; the
  final result text shown to the model is capped near 24,000 characters.

Python values are mapped to JSON the way ``JSON.stringify`` maps JavaScript ones where the
two languages overlap: tuples become lists, non-finite floats become ``null``, dict keys
that are numbers, booleans or None become their JSON text. Anything else (bytes, sets,
arbitrary objects) has no JSON form.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from codemode.errors import DurableSizeError, NotSerialisableError

__all__ = [
    "DURABLE_LIMIT",
    "LOG_LIMIT_BYTES",
    "MODEL_RESULT_CAP",
    "OUTPUT_CAP",
    "canonical_json",
    "cap_model_text",
    "check_durable_text",
    "durable_json",
    "durable_result_or_note",
    "normalise_output",
    "to_json_safe",
    "trim_logs",
]

OUTPUT_CAP = 20_000
DURABLE_LIMIT = 1_000_000
MODEL_RESULT_CAP = 24_000
LOG_LIMIT_BYTES = 1_000_000
CIRCULAR = "[Circular]"
TRUNCATED_MARKER = "--- TRUNCATED ---"
# Bounds on the walk, so a hostile value (a huge or exponentially shared structure, or one
# nested far deeper than any real result) fails cleanly instead of exhausting the host.
_MAX_NODES = 2_000_000
_MAX_DEPTH = 200


class _Walk:
    def __init__(self) -> None:
        self.nodes = 0
        self.path: set[int] = set()

    def convert(self, value: Any, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > _MAX_NODES:
            raise NotSerialisableError("value", f"more than {_MAX_NODES:,} nodes")
        if depth > _MAX_DEPTH:
            raise NotSerialisableError("value", f"nested deeper than {_MAX_DEPTH} levels")
        if value is None or isinstance(value, (str, bool, int)):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else None
        if isinstance(value, (Mapping, list, tuple)):
            marker = id(value)
            if marker in self.path:
                return CIRCULAR
            self.path.add(marker)
            try:
                if isinstance(value, Mapping):
                    return {
                        _key(k): self.convert(item, depth + 1) for k, item in value.items()
                    }
                return [self.convert(item, depth + 1) for item in value]
            finally:
                self.path.discard(marker)
        raise NotSerialisableError(
            "value", f"Object of type {type(value).__name__} is not JSON serializable"
        )


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key if not isinstance(key, float) or math.isfinite(key) else None)
    raise NotSerialisableError(
        "value", f"keys must be str, int, float, bool or None, not {type(key).__name__}"
    )


def to_json_safe(value: Any) -> Any:
    """A JSON-ready copy of ``value`` with cycles replaced by ``"[Circular]"``.

    Raises :class:`NotSerialisableError` when part of the value has no JSON form.
    """
    try:
        return _Walk().convert(value, 0)
    except RecursionError as exc:  # the caller's own stack was already deep
        raise NotSerialisableError("value", "nested too deeply to serialise") from exc


def _dumps(value: Any, *, sort_keys: bool = False) -> str:
    return json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys, allow_nan=False
    )


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
    text = _dumps(safe)
    if len(text) > cap:
        return {"truncated": True, "chars": len(text), "preview": text[:cap]}
    return safe


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys: equal values give equal text (journal comparisons)."""
    return _dumps(to_json_safe(value), sort_keys=True)


def check_durable_text(what: str, text: str, limit: int = DURABLE_LIMIT) -> None:
    """Refuse raw text (such as submitted code) longer than ``limit`` characters."""
    if len(text) > limit:
        raise DurableSizeError(what, len(text), limit)


def durable_json(what: str, value: Any, limit: int = DURABLE_LIMIT) -> str:
    """The canonical JSON to record for ``value``; refuses unserialisable or over-large ones.

    ``what`` starts the error message, e.g. ``"The arguments of tools.search"``.
    """
    try:
        text = canonical_json(value)
    except NotSerialisableError as exc:
        raise NotSerialisableError(what, exc.reason) from exc
    check_durable_text(what, text, limit)
    return text


def durable_result_or_note(value: Any, limit: int = DURABLE_LIMIT) -> Any:
    """The final result as the audit trail keeps it: itself, or a note when it cannot be kept."""
    try:
        text = canonical_json(value)
    except NotSerialisableError as exc:
        return {"note": f"The result was not recorded: it cannot be serialised ({exc.reason})."}
    if len(text) > limit:
        return {
            "note": (
                f"The result was returned but not recorded: {len(text):,} characters is "
                f"over the {limit:,}-character limit for durable values."
            )
        }
    return to_json_safe(value)


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
