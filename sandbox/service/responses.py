"""The service's JSON response class: compact, and safe for any text the guest produced."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse

from .. import JSONText, ascii_string_json, plain_strings_json

__all__ = ["SPLICED_CHARS", "SPLICED_LIST_ITEMS", "SafeJSONResponse"]

SPLICED_LIST_ITEMS = 1024
SPLICED_CHARS = 64 * 1024
"""A top-level list of strings this long, or holding this many characters (a run's logs), is
written by ``plain_strings_json``, and a top-level string this long (a bash run's stdout)
by ``ascii_string_json``, not the encoder; a smaller one costs too little to be worth it."""


class SafeJSONResponse(JSONResponse):
    """JSON that never fails on lone surrogates (recorded code, logs and results may hold
    them): such text is sent \\u-escaped, which any JSON parser reads back exactly.

    A top-level field carried as its JSON text already (a large execute result:
    ``sandbox.json_text``), and a long top-level list of plain strings (a large run's logs)
    or a long ASCII string (a bash run's stdout), are written after the other fields, the
    first as that text, unparsed, the others by ``plain_strings_json`` and
    ``ascii_string_json``: the same JSON, a fraction of the encoder's time."""

    def render(self, content: Any) -> bytes:
        spliced = _spliced_fields(content) if isinstance(content, dict) else {}
        if not spliced:
            return _rendered(content)
        head = _rendered({key: value for key, value in content.items() if key not in spliced})
        parts = [head[:-1]]
        for key, pieces in spliced.items():
            parts += [b"," if len(parts) > 1 or len(head) > 2 else b"", _rendered(key), b":", *pieces]
        parts.append(b"}")
        return b"".join(parts)


def _spliced_fields(content: dict[str, Any]) -> dict[str, list[bytes]]:
    """The top-level fields written as pieces of JSON text, by name."""
    spliced: dict[str, list[bytes]] = {}
    for key, value in content.items():
        if isinstance(value, JSONText):
            spliced[key] = [value.text.encode("utf-8")]
        elif isinstance(value, list) and _large(value):
            pieces = plain_strings_json(value)
            if pieces is not None:
                spliced[key] = pieces
        elif isinstance(value, str) and len(value) >= SPLICED_CHARS:
            pieces = ascii_string_json(value)
            if pieces is not None:
                spliced[key] = pieces
    return spliced


def _large(items: list[Any]) -> bool:
    if len(items) >= SPLICED_LIST_ITEMS:
        return True
    try:
        return sum(map(len, items)) >= SPLICED_CHARS
    except TypeError:  # an item with no length: not a list of strings
        return False


def _rendered(content: Any) -> bytes:
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(content, ensure_ascii=True, allow_nan=False,
                          separators=(",", ":")).encode("ascii")
