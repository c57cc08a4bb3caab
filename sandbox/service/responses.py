"""The service's JSON response class: compact, and safe for any text the guest produced."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse

__all__ = ["SafeJSONResponse"]


class SafeJSONResponse(JSONResponse):
    """JSON that never fails on lone surrogates (recorded code, logs and results may hold
    them): such text is sent \\u-escaped, which any JSON parser reads back exactly."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False,
                              separators=(",", ":")).encode("ascii")
