"""The value codec: how a Python value becomes the JSON text Code Mode records, compares and
shows, and how recorded text becomes the same value again.

Every durable value (journal arguments and results, the ledger's results and input
hashes, execution results, approvals) goes through this one module, so there is one answer
to each of these questions:

- **Which JSON?** :func:`to_json_safe` maps Python values the way ``JSON.stringify`` maps
  JavaScript ones where the two languages overlap: tuples become lists, non-finite floats
  become ``null``, dict keys that are numbers, booleans or None become their JSON text, and
  a reference cycle becomes ``"[Circular]"``. Anything else (bytes, sets, arbitrary
  objects) has no JSON form and raises :class:`~codemode.errors.NotSerialisableError`.
- **Tagged values.** A resumed execution must see exactly the values the first run saw
  (bytes read before a pause are still bytes after replay). Plain JSON has no bytes and no
  non-finite floats, so :func:`encode_value` writes them as ``{"$bytes": "<base64>"}`` and
  ``{"$float": "nan" | "inf" | "-inf"}``; a genuine dict that happens to look like a tag
  (one key, and that key is a tag name) is wrapped as ``{"$dict": {...}}`` so decoding can
  never mistake data for a tag. :func:`decode_value` is the inverse; :func:`display_value`
  is the never-raising form for values that are only shown (events).
- **Canonical text.** :func:`canonical_json` is compact JSON with sorted keys: equal values
  give equal text, which is what replay compares and the ledger hashes. A value given back
  to code on replay (a call's result or error, a step's value) is recorded with its keys in
  their own order instead (``durable_value_json(..., ordered=True)``): Python code sees a
  dict's order, and a resumed run must see the order the first run saw.
- **Surrogate-safe text.** Python strings may hold lone surrogates (JSON ``"\\ud800"``
  decodes to one) but SQLite text must be UTF-8. :func:`sqlite_safe_json` escapes
  non-ASCII only in that rare case (deterministically, so equal values still give equal
  text); :func:`sqlite_text` / :func:`text_from_sqlite` carry raw text such as code as a
  UTF-8 BLOB instead.
- **Durable size.** Code, arguments and results are recorded up to 1,000,000 characters
  (:data:`DURABLE_LIMIT`); :func:`check_durable_text`, :func:`durable_json` and
  :func:`durable_value_json` refuse bigger ones with
  :class:`~codemode.errors.DurableSizeError` before anything is written, and
  :func:`durable_result_or_note` stands a note in for a final result that cannot be kept.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Mapping
from typing import Any

from codemode.errors import DurableSizeError, NotSerialisableError
from sandbox import depth_exceeds

__all__ = [
    "CIRCULAR",
    "DURABLE_LIMIT",
    "canonical_json",
    "check_durable_text",
    "decode_json",
    "decode_value",
    "display_value",
    "durable_json",
    "durable_result_or_note",
    "durable_text_json",
    "durable_value_json",
    "encode_value",
    "json_safe_text",
    "json_text",
    "sqlite_safe_json",
    "sqlite_text",
    "text_bytes",
    "text_from_sqlite",
    "to_json_safe",
]

DURABLE_LIMIT = 1_000_000
"""Longest code, arguments or result (in characters of JSON) that is recorded durably."""
CIRCULAR = "[Circular]"
"""What a reference cycle becomes, in every form."""

_BYTES_TAG = "$bytes"
_FLOAT_TAG = "$float"
_DICT_TAG = "$dict"
_TAGS = frozenset({_BYTES_TAG, _FLOAT_TAG, _DICT_TAG})
# Bounds on the walk, so a hostile value (a huge or exponentially shared structure, or one
# nested far deeper than any real result) fails cleanly instead of exhausting the host.
_MAX_NODES = 2_000_000
_MAX_DEPTH = 200


# --- the walk -----------------------------------------------------------------------------


class _Encoder:
    """Walks a value into JSON-ready form; one walker for all three forms.

    ``tagged`` (the durable codec): bytes and non-finite floats are tagged, tag-like dicts
    wrapped. Plain (``tagged=False``, :func:`to_json_safe`): non-finite floats become None and
    bytes have no form. ``lenient`` (display only): it never raises; what has no form becomes
    a marker string, lone surrogates become U+FFFD, sets become lists.
    """

    def __init__(self, *, tagged: bool = True, lenient: bool = False,
                 max_nodes: int = _MAX_NODES, max_depth: int = _MAX_DEPTH) -> None:
        self.tagged = tagged
        self.lenient = lenient
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.nodes = 0
        self.path: set[int] = set()

    def _refuse(self, marker: str, reason: str) -> str:
        if self.lenient:
            return marker
        raise NotSerialisableError("value", reason)

    def encode(self, value: Any, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            return self._refuse("[Truncated]", f"more than {self.max_nodes:,} nodes")
        if depth > self.max_depth:
            return self._refuse("[Too deep]", f"nested deeper than {self.max_depth} levels")
        if isinstance(value, str):
            return _clean(value) if self.lenient else value
        if value is None or isinstance(value, (bool, int)):
            return value
        if isinstance(value, float):
            if math.isfinite(value):
                return value
            if not self.tagged:
                return None
            return {_FLOAT_TAG: "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
        if self.tagged and isinstance(value, (bytes, bytearray, memoryview)):
            return {_BYTES_TAG: base64.b64encode(bytes(value)).decode("ascii")}
        if isinstance(value, (Mapping, list, tuple)) or (
                self.lenient and isinstance(value, (set, frozenset))):
            return self._container(value, depth)
        return self._refuse(f"<{type(value).__name__}>",
                            f"Object of type {type(value).__name__} is not JSON serializable")

    def _container(self, value: Any, depth: int) -> Any:
        marker = id(value)
        if marker in self.path:
            return CIRCULAR
        self.path.add(marker)
        try:
            if isinstance(value, Mapping):
                out = {self.key(k): self.encode(v, depth + 1) for k, v in value.items()}
                if self.tagged and len(out) == 1 and next(iter(out)) in _TAGS:
                    return {_DICT_TAG: out}
                return out
            return [self.encode(item, depth + 1) for item in value]
        finally:
            self.path.discard(marker)

    def key(self, key: Any) -> str:
        if isinstance(key, str):
            return _clean(key) if self.lenient else key
        try:
            return _key(key)
        except NotSerialisableError:
            if self.lenient:
                return f"<{type(key).__name__}>"
            raise


def _clean(text: str) -> str:
    """``text`` as encodable UTF-8: surrogate pairs joined, lone surrogates replaced."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _key(key: Any) -> str:
    """A non-string dict key as its JSON text, as ``json.dumps`` writes the key."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return "true" if key is True else ("false" if key is False else "null")
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        return repr(key) if math.isfinite(key) else "null"
    raise NotSerialisableError(
        "value", f"keys must be str, int, float, bool or None, not {type(key).__name__}"
    )


def _walk(encoder: _Encoder, value: Any) -> Any:
    try:
        return encoder.encode(value, 0)
    except RecursionError as exc:  # the caller's own stack was already deep
        raise NotSerialisableError("value", "nested too deeply to serialise") from exc


def _encoder(sort_keys: bool) -> json.JSONEncoder:
    return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys,
                            allow_nan=False)


# Made once: json.dumps with any option builds an encoder on every call (1-2 us of the
# few a small value's text costs).
_ENCODERS = {False: _encoder(False), True: _encoder(True)}


def _dumps(value: Any, *, sort_keys: bool = False) -> str:
    return _ENCODERS[sort_keys].encode(value)


# --- the three forms ----------------------------------------------------------------------


def to_json_safe(value: Any) -> Any:
    """A plain JSON-ready copy of ``value`` with cycles replaced by ``"[Circular]"``.

    Raises :class:`NotSerialisableError` when part of the value has no JSON form.
    """
    return _walk(_Encoder(tagged=False), value)


def json_safe_text(value: Any) -> str | None:
    """The compact JSON text of ``to_json_safe(value)``, keys in their own order, written in
    C without the walk when that is certainly it, else None (for the walk).

    Certain when the strict encoder takes ``value`` (no bytes, cycle, NaN or key of another
    type, each of which the walk treats its own way) and the text holds fewer brackets than
    the walk's depth bound and fewer characters than its node bound."""
    try:
        text = _dumps(value)
    except (TypeError, ValueError, RecursionError):
        return None
    if len(text) > _MAX_NODES or text.count("[") + text.count("{") > _MAX_DEPTH:
        return None
    return text


def encode_value(value: Any) -> Any:
    """The JSON-ready, tagged form of ``value`` (see the module docstring).

    Raises :class:`~codemode.errors.NotSerialisableError` for values with no durable form
    (sets, arbitrary objects, non-string-like keys).
    """
    return _walk(_Encoder(), value)


def display_value(value: Any, *, max_nodes: int = _MAX_NODES, max_depth: int = _MAX_DEPTH) -> Any:
    """The same tagged form for a value that is only shown, never replayed: it never raises.

    What has no durable form becomes a marker (``"<TypeName>"``, ``"[Truncated]"``,
    ``"[Too deep]"``), lone surrogates become U+FFFD and sets become lists.
    """
    try:
        return _Encoder(lenient=True, max_nodes=max_nodes, max_depth=max_depth).encode(value, 0)
    except RecursionError:
        return "[Too deep]"


def decode_value(data: Any) -> Any:
    """The inverse of :func:`encode_value`: tags become bytes and floats again."""
    if isinstance(data, list):
        return [decode_value(item) for item in data]
    if isinstance(data, dict):
        if len(data) == 1:
            (key, inner), = data.items()
            if key == _BYTES_TAG and isinstance(inner, str):
                return base64.b64decode(inner.encode("ascii"), validate=True)
            if key == _FLOAT_TAG and inner in ("nan", "inf", "-inf"):
                return float(inner)
            if key == _DICT_TAG and isinstance(inner, dict):
                return {k: decode_value(v) for k, v in inner.items()}
        return {k: decode_value(v) for k, v in data.items()}
    return data


def decode_json(text: str | None) -> Any:
    """The value recorded as tagged JSON ``text`` (None for SQL NULL)."""
    return None if text is None else decode_value(json.loads(text))


# --- text ---------------------------------------------------------------------------------


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys: equal values give equal text (journal comparisons)."""
    return _dumps(to_json_safe(value), sort_keys=True)


def sqlite_safe_json(text: str, *, ordered: bool = False) -> str:
    """``text``, or the same JSON with non-ASCII escaped when it holds lone surrogates.

    Escaping only in that rare case keeps the usual text readable, and is deterministic,
    so equal values still give equal text for replay to compare. ``ordered``: keys stay in
    the text's order (a value given back on replay) instead of being sorted.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(
            json.loads(text), ensure_ascii=True, sort_keys=not ordered, separators=(",", ":")
        )
    return text


def json_text(value: Any) -> str:
    """Plain JSON of an already JSON-ready value (logs, names), as SQLite can hold it."""
    return sqlite_safe_json(json.dumps(value, ensure_ascii=False))


def sqlite_text(text: str) -> str | bytes:
    """Raw text (code) as SQLite can hold it: lone surrogates force a UTF-8 BLOB."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")
    return text


def text_bytes(text: str) -> bytes:
    """Raw text (code) as UTF-8 bytes, lone surrogates kept: how PostgreSQL holds it (a
    ``bytea``, since its text refuses NUL and lone surrogates); read back with
    :func:`text_from_sqlite`."""
    return text.encode("utf-8", "surrogatepass")


def text_from_sqlite(value: str | bytes) -> str:
    """The inverse of :func:`sqlite_text`."""
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value


# --- durable size -------------------------------------------------------------------------


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


def _plain_text(value: Any, limit: int = DURABLE_LIMIT, *, ordered: bool = False,
                decoded: bool = False) -> str | None:
    """``_dumps(encode_value(value), sort_keys=not ordered)`` without the walk, for a value that is
    already plain JSON which the tagged form leaves as it is; None when that is not certain.
    Most durable values are such (a call's arguments and a tool's answer came from JSON), and
    the walk in Python was about a fifth of a webhook call's own journal work.

    Certain when: it serialises as strict JSON (no NaN, no bytes, no sets, no cycles), reads
    back equal (no tuples, no keys that are not strings, which the walk would sort as their
    text), has no ``"$`` anywhere (no dict a tag could be mistaken for) and does not reach
    the walk's depth bound (its node bound is above the longest durable text).

    A strict text over ``limit`` is refused here, walk or no walk: the tagged form is never
    shorter (it only adds tags), and walking a result of megabytes in Python only to learn
    that held the event loop for most of a second."""
    try:
        text = _dumps(value, sort_keys=not ordered)
    except (TypeError, ValueError, RecursionError):
        return None
    if len(text) > limit:
        raise DurableSizeError("value", len(text), limit)
    if '"$' in text or (not decoded and json.loads(text) != value):
        return None
    # Many containers need not be deep ones: a result of 50,000 small lists took the walk
    # (half a second on the event loop) when their count alone decided.
    if text.count("[") + text.count("{") > _MAX_DEPTH and depth_exceeds(value, _MAX_DEPTH):
        return None
    return text


def durable_value_json(what: str, value: Any, limit: int = DURABLE_LIMIT, *,
                       ordered: bool = False, decoded: bool = False) -> str:
    """Canonical JSON of ``value`` in the tagged durable form, as SQLite can hold it;
    refuses over-large values. ``what`` starts the error message.

    ``ordered``: dict keys keep their order instead of being sorted, for a value that is
    given back to code (a call's result or error, a step's value): Python code sees a
    dict's order, so a replay must give the order the first run saw. Only what is compared
    as text (arguments) or hashed needs sorted keys. ``decoded``: ``value`` was read from
    JSON text as it is (a tool call's arguments off the wire), so it holds no tuple and no
    key that is not a string, and the check that its text reads back equal is skipped."""
    try:
        text = _plain_text(value, limit, ordered=ordered, decoded=decoded)
    except DurableSizeError as exc:
        raise DurableSizeError(what, exc.chars, limit) from None
    if text is None:  # the walk, for its tags or its error
        try:
            # The tagged form is already JSON-ready and acyclic: one walk, not canonical_json's
            # second (the same text; a fifth of a short execute's CPU went on the two).
            text = _dumps(encode_value(value), sort_keys=not ordered)
        except NotSerialisableError as exc:
            raise NotSerialisableError(what, exc.reason) from exc
    check_durable_text(what, text, limit)
    return sqlite_safe_json(text, ordered=ordered)


def durable_text_json(what: str, text: str, limit: int = DURABLE_LIMIT) -> str:
    """``durable_value_json(what, json.loads(text))`` for a value given as its strict JSON
    text (a large result: ``sandbox.json_text``), without the check that the value reads
    back equal: read from JSON, it holds no tuple, no key that is not a string, no NaN."""
    check_durable_text(what, text, limit)
    value = json.loads(text)
    if '"$' in text or (text.count("[") + text.count("{") > _MAX_DEPTH
                        and depth_exceeds(value, _MAX_DEPTH)):
        return durable_value_json(what, value, limit)
    return sqlite_safe_json(_dumps(value, sort_keys=True))


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
