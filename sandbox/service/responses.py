"""The service's JSON response class: compact, and safe for any text the guest produced."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse

from .. import JSONText

__all__ = ["SafeJSONResponse"]


class SafeJSONResponse(JSONResponse):
    """JSON that never fails on lone surrogates (recorded code, logs and results may hold
    them): such text is sent \\u-escaped, which any JSON parser reads back exactly.

    A top-level field carried as its JSON text already (a large execute result:
    ``sandbox.json_text``) is written as that text, after the other fields, unparsed."""

    def render(self, content: Any) -> bytes:
        carried = {key: value for key, value in content.items()
                   if isinstance(value, JSONText)} if isinstance(content, dict) else {}
        if not carried:
            return _rendered(content)
        head = _rendered({key: value for key, value in content.items() if key not in carried})
        fields = [_rendered(key) + b":" + value.text.encode("utf-8")
                  for key, value in carried.items()]
        return b"".join([head[:-1], b"," if len(head) > 2 else b"", b",".join(fields), b"}"])


def _rendered(content: Any) -> bytes:
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(content, ensure_ascii=True, allow_nan=False,
                          separators=(",", ":")).encode("ascii")
