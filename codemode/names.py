"""Turning tool, toolset and connector names into Python identifiers the model can call.

The reference sanitises names into JavaScript identifiers; these are the same rules in
Python terms:

- ``-``, ``.`` and whitespace become ``_`` (``get-weather`` -> ``get_weather``);
- every other character that is not ASCII ``[A-Za-z0-9_]`` is dropped
  (``hello@world!`` -> ``helloworld``). Non-ASCII letters are dropped too, although Python
  accepts them: NFKC normalisation would make distinct names collide silently, and models
  type ASCII reliably;
- a leading digit gets a ``_`` prefix (``3drender`` -> ``_3drender``);
- hard keywords get a trailing ``_`` (``class`` -> ``class_``), because they cannot be
  attribute names in source code. Soft keywords (``match``, ``case``, ``type``, ``_``) are
  valid identifiers and stay as they are;
- builtin names (``list``, ``input``, ``print``) stay as they are: the model reaches a tool
  as ``tools.list(...)``, an attribute, which shadows nothing. The declaration renderer
  qualifies annotations where a method name would shadow a builtin inside its class;
- a "dunder" name (``__init__``, ``__class__``) gets a trailing ``_`` too: on the guest's
  namespace objects those names are Python's own machinery, not a tool;
- an empty result is ``_``.

Two different names that sanitise to the same identifier are an error
(:func:`ensure_unique`), never a silent overwrite.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable

from codemode.errors import NameCollisionError

__all__ = ["ensure_unique", "is_identifier", "sanitise_name"]

_SEPARATORS = re.compile(r"[-.\s]")
_NOT_IDENTIFIER_CHAR = re.compile(r"[^A-Za-z0-9_]")


def sanitise_name(name: str) -> str:
    """Map ``name`` to an ASCII Python identifier following the reference's rules."""
    if not name:
        return "_"
    result = _NOT_IDENTIFIER_CHAR.sub("", _SEPARATORS.sub("_", name))
    if not result:
        return "_"
    if result[0].isdigit():
        result = "_" + result
    if keyword.iskeyword(result) or _is_dunder(result):
        result += "_"
    return result


def _is_dunder(name: str) -> bool:
    # Python's own notion (as in enum): one character at least, no third underscore on
    # either side, so that the suffixed name "__init___" is not a dunder again.
    return (
        len(name) > 4
        and name[:2] == name[-2:] == "__"
        and name[2] != "_"
        and name[-3] != "_"
    )


def is_identifier(name: str) -> bool:
    """True when ``name`` can be written as a bare name or keyword argument in Python."""
    return name.isidentifier() and not keyword.iskeyword(name)


def ensure_unique(names: Iterable[str], *, kind: str = "tools") -> dict[str, str]:
    """Map each sanitised name to its original, raising when two originals collide.

    The error names both originals and the identifier they share, e.g. tools "foo-bar" and
    "foo_bar" both map to "foo_bar". A name repeated verbatim is also a collision: two tools
    with one name cannot both be called.
    """
    seen: dict[str, str] = {}
    for original in names:
        sanitised = sanitise_name(original)
        previous = seen.get(sanitised)
        if previous is not None:
            raise NameCollisionError(previous, original, sanitised, kind=kind)
        seen[sanitised] = original
    return seen
