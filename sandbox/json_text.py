"""A large execute result carried as its JSON text, from the worker to the response.

An execute's result is a JSON value the guest sent inside its response. Parsing that
response, checking the result's depth, and writing the value out again as JSON for the
execution's record, its ``completed`` event and the HTTP answer each cost CPU in proportion
to the result (up to the output limit, 16 MiB): done on the service's event loop, a result
of 200,000 small dicts (5 MB of JSON) held every other request for most of a second.

So the worker, a process of its own, does the parsing and checking for a large list, dict
or string result (``take_result``): it sends the rest of the response as before and the result
as one raw part of its ``done`` frame (``sandbox._wire``), in its strict compact JSON text.
The service carries that text as a :class:`JSONText` and writes it into what it sends
without reading it again; only a reader that needs the value (the Python API, a record
small enough to keep) parses it, once.

The text is the value's ``json.dumps`` with ``ensure_ascii=False``, ``separators=(",",
":")`` and ``allow_nan=False``, and encodes as UTF-8 (no lone surrogate): a result that is
not so (a NaN, a lone surrogate), or that the envelope's checks would refuse, stays in the
response for the service to treat as before.

The other way, a host-call handler may answer with a :class:`JSONText` (Code Mode does for a
tool's plain output, whose text it has already made to cap it): the reply carries the text
as it is instead of encoding the value again. That text must be ASCII, which the worker
hands to the guest as UTF-8 without a check.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .envelope import ENVELOPE_DEPTH, MAX_RESULT_DEPTH, bounded_loads, depth_exceeds
from .errors import GuestProtocolError

__all__ = ["TAKE_FROM_CHARS", "JSONText", "ascii_string_json", "plain_strings_json", "take_result",
           "value_of", "writes_as_itself"]

TAKE_FROM_CHARS = 64 * 1024
"""A smaller response keeps its result: parsing it twice would cost more than it saves."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class JSONText:
    """A JSON value as its strict compact text (see the module's docstring).

    Deliberately not a dataclass: a serialiser that does not know it (FastAPI's
    ``jsonable_encoder``, pydantic) fails on it rather than writing ``{"text": ...}``."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSONText) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"JSONText({len(self.text)} characters)"

    def value(self) -> Any:
        """The value itself, parsed."""
        return json.loads(self.text)


_ESCAPED_BYTES = bytes(range(0x20)) + b'"\\'
"""The ASCII bytes JSON does not write as themselves."""
_STRINGS_PER_PIECE = 1024


def writes_as_itself(text: str) -> bool:
    """Whether JSON writes ``text`` as itself between quotes: ASCII with no quote, backslash
    or control character."""
    if not text.isascii():
        return False
    data = text.encode("ascii")
    return len(data.translate(None, _ESCAPED_BYTES)) == len(data)


_CONTROL_BYTES = bytes(c for c in range(0x20) if c not in b"\n\r\t")
_SHORT_ESCAPES = ((b"\\", b"\\\\"), (b'"', b'\\"'), (b"\n", b"\\n"), (b"\r", b"\\r"), (b"\t", b"\\t"))
"""What JSON writes in two characters, the backslash first (the others add backslashes)."""


def ascii_string_json(text: str) -> list[bytes] | None:
    """``json.dumps(text, ensure_ascii=False)`` as UTF-8, in pieces to be joined, when
    ``text`` is ASCII with no control character but newline, carriage return and tab; None
    otherwise, for the encoder. A bash run's 15 MB of stdout took the encoder about 50 ms of
    the event loop; a replace per character to escape, about 10."""
    if not text.isascii():
        return None
    data = text.encode("ascii")
    if len(data.translate(None, _CONTROL_BYTES)) != len(data):
        return None
    for char, escaped in _SHORT_ESCAPES:
        if char in data:
            data = data.replace(char, escaped)
    return [b'"', data, b'"']


def plain_strings_json(strings: Sequence[str], item_separator: str = ",") -> list[bytes] | None:
    """``json.dumps(list(strings), ensure_ascii=False, separators=(item_separator, ":"))``
    as UTF-8, in pieces to be joined, when every string is ASCII that JSON writes as itself
    (no quote, backslash or control character); None when one is not, for the encoder.

    Why: a run's logs reach the 16 MB output limit as many short lines, and the encoder's
    work per string held the service's event loop (150,000 lines of 100 characters: 78 ms
    of CPU, against 13 ms to check them and 27 to join them here). The pieces are joined
    once, by the caller, into what it sends: each 15 MB buffer made along the way costs
    about 8 ms more here, in page faults."""
    if not (item_separator.isascii() and item_separator.isprintable()) \
            or '"' in item_separator or "\\" in item_separator:
        raise ValueError(f"item separator {item_separator!r} would need escaping")
    if not strings:
        return [b"[]"]
    joint = '"' + item_separator + '"'
    pieces = [b'["']
    for start in range(0, len(strings), _STRINGS_PER_PIECE):
        chunk = strings[start:start + _STRINGS_PER_PIECE]
        try:
            text = joint.join(chunk)
        except TypeError:  # not all strings
            return None
        if not text.isascii():
            return None
        data = text.encode("ascii")
        # Each joint holds two quotes; any other byte deleted is one to escape.
        if len(data) - len(data.translate(None, _ESCAPED_BYTES)) != 2 * (len(chunk) - 1):
            return None
        if start:
            pieces.append(joint.encode("ascii"))
        pieces.append(data)
    pieces.append(b'"]')
    return pieces


def value_of(value: Any) -> Any:
    """``value``, or the value a :class:`JSONText` holds."""
    return value.value() if isinstance(value, JSONText) else value


def take_result(response: str) -> tuple[str, str | None]:
    """``response`` without its result, and the result's text; ``(response, None)`` when
    the response is small, is not a completed envelope, or its result is not a list, dict or
    string that passes the envelope's checks and has a strict text."""
    if len(response) < TAKE_FROM_CHARS:
        return response, None
    try:
        body = bounded_loads(response, max_depth=ENVELOPE_DEPTH, what="the guest's response")
    except GuestProtocolError:
        return response, None
    if not isinstance(body, dict) or body.get("status") != "completed":
        return response, None
    result = body.get("result")
    if not isinstance(result, (list, dict, str)) or depth_exceeds(result, MAX_RESULT_DEPTH):
        return response, None
    try:
        text = _ENCODER.encode(result)
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return response, None
    del body["result"]
    # The rest as the guest sent it, NaN and all: the service's checks judge it, as before.
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")), text
