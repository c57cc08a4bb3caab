"""jq's ``@formats`` (``@text``, ``@json``, ``@csv``, ``@tsv``, ``@html``, ``@uri``, ``@sh``, ``@base64`` ...)."""

from __future__ import annotations

import base64

from .evaluate import JqError, Value, describe
from .json import dumps
from .operators import is_number


def tostring(v: Value) -> str:
    return v if isinstance(v, str) else dumps(v)


def apply_format(name: str, v: Value) -> str:
    fmt = name[1:]
    if fmt == "text":
        return tostring(v)
    if fmt == "json":
        return dumps(v)
    if fmt == "html":
        s = tostring(v)
        return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;").replace('"', "&quot;"))
    if fmt == "uri":
        s = tostring(v)
        out = []
        for byte in s.encode("utf-8"):
            ch = chr(byte)
            if ch.isascii() and (ch.isalnum() or ch in "-_.!~*'()"):
                out.append(ch)
            else:
                out.append(f"%{byte:02X}")
        return "".join(out)
    if fmt == "csv" or fmt == "tsv":
        if not isinstance(v, list):
            raise JqError(f"{describe(v)} cannot be {fmt}-formatted, only an array can be")
        cells = []
        for x in v:
            if is_number(x):
                cells.append(dumps(x))
            elif x is None:
                cells.append("")
            elif x is True or x is False:
                cells.append("true" if x else "false")
            elif isinstance(x, str):
                if fmt == "csv":
                    cells.append('"' + x.replace('"', '""') + '"')
                else:
                    cells.append(x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
            else:
                raise JqError(f"{describe(x)} is not valid in a csv row")
        return ("," if fmt == "csv" else "\t").join(cells)
    if fmt == "sh":
        items = v if isinstance(v, list) else [v]
        out_items = []
        for x in items:
            if isinstance(x, str):
                out_items.append("'" + x.replace("'", "'\\''") + "'")
            elif isinstance(x, (list, dict)):
                raise JqError(f"{describe(x)} can not be escaped for shell")
            else:
                out_items.append(dumps(x))
        return " ".join(out_items)
    if fmt == "base64":
        return base64.b64encode(tostring(v).encode("utf-8")).decode("ascii")
    if fmt == "base64d":
        raw = tostring(v).encode("utf-8").rstrip(b"=")
        raw += b"=" * (-len(raw) % 4)
        try:
            data = base64.b64decode(raw)
        except Exception:  # noqa: BLE001 - binascii.Error and ValueError alike
            raise JqError(f"{describe(v)} is not valid base64 data") from None
        return data.decode("utf-8", "replace")
    raise JqError(f"{fmt} is not a valid format")
