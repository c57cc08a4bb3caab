"""Canonical JSON, the one text form the audit log hashes and signs.

Canonical here means: object keys sorted (by code point), no whitespace (``,`` and ``:``
separators), strings as UTF-8 with only what JSON requires escaped (no ``\\uXXXX`` for
non-ASCII), floats as Python's shortest round-tripping ``repr``, and no NaN or infinity
(they have no JSON form; they are refused, not written as ``NaN``). Two equal values
always give the same bytes, so a hash over them is a hash over the value.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import AuditValueError

__all__ = ["canonical_json", "canonical_row", "json_string"]

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)
json_string = json.encoder.encode_basestring
"""A string's canonical JSON form (the C encoder without ASCII escaping)."""


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON; :class:`AuditValueError` if it has no JSON form."""
    try:
        text: str = _ENCODER.encode(value)
        # A lone surrogate (JSON allows "\\ud800") has no UTF-8 form, so no hash.
        text.encode()
    except (TypeError, ValueError, RecursionError) as exc:
        raise AuditValueError(f"the value has no canonical JSON form: {exc}") from exc
    return text


def canonical_row(seq: int, at: float, tenant: str, principal: str, event: str,
                  subject: str, body: str) -> str:
    """The canonical JSON of one entry, built from its stored (already canonical) parts.

    Equal to ``canonical_json({"body", "event", "principal", "seq", "subject", "tenant",
    "time"})`` of the decoded entry, without decoding anything: this is what lets verify
    stream. ``subject`` and ``body`` are the stored canonical texts.
    """
    return (f'{{"body":{body},"event":{json_string(event)},"principal":{json_string(principal)},'
            f'"seq":{seq},"subject":{subject},"tenant":{json_string(tenant)},'
            f'"time":{float(at)!r}}}')
