"""A bash run's written files on their way back: decoded in the worker, not the service.

The guest's bash export answers with its change list inside its JSON response, each file
the script wrote in base64 (``wasm/guest/bash_entry.py``). Parsing that JSON and decoding
that base64 costs CPU in proportion to what the script wrote (up to the write-back's quota,
64 MiB a call): done on the service's event loop, it held every other request for as long
(a 50 MB file: 0.4 s). The worker, a process of its own, does it instead. ``take_files``
takes each large file's contents out of the response and decodes them; they travel as raw
parts of the ``done`` frame (``sandbox._wire``); ``put_files`` puts them back, as bytes,
into the response the service parsed, and the write-back (``workspace.changes``) takes
bytes as contents already decoded.

What the guest sent is checked as before: a response this module cannot read, or a content
that is not base64, is left as it is for the service to refuse with its own error.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .envelope import MAX_RESULT_DEPTH, bounded_loads
from .errors import GuestProtocolError

__all__ = ["MIN_CONTENT_CHARS", "SPLIT_FROM_CHARS", "put_files", "take_files"]

SPLIT_FROM_CHARS = 64 * 1024
"""A smaller response goes as it is: parsing it twice would cost more than it saves."""
MIN_CONTENT_CHARS = 4096
"""A smaller file's base64 stays in the response."""


def take_files(response: str) -> tuple[str, dict[str, bytes]]:
    """``response`` without its large written files' contents, and those contents decoded,
    by path; ``(response, {})`` when there is nothing worth taking out."""
    if len(response) < SPLIT_FROM_CHARS:
        return response, {}
    try:
        body = bounded_loads(response, max_depth=MAX_RESULT_DEPTH, what="the guest's bash response")
    except GuestProtocolError:
        return response, {}
    changes = body.get("changes") if isinstance(body, dict) else None
    written = changes.get("files") if isinstance(changes, dict) else None
    if not isinstance(written, dict):
        return response, {}
    taken: dict[str, bytes] = {}
    for path, value in written.items():
        if isinstance(value, str) and len(value) >= MIN_CONTENT_CHARS:
            try:
                taken[path] = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                continue
    if not taken:
        return response, {}
    for path in taken:
        del written[path]
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")), taken


def put_files(result: Any, files: dict[str, bytes]) -> None:
    """Put the contents ``take_files`` took out back into the parsed ``result``."""
    changes = result.get("changes") if isinstance(result, dict) else None
    written = changes.get("files") if isinstance(changes, dict) else None
    if not isinstance(written, dict) or any(path in written for path in files):
        raise GuestProtocolError("the worker sent file contents the bash response has no place for")
    written.update(files)
