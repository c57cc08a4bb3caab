"""Builtins on any value: ``empty``, ``error``, ``not``, ``length``, ``keys``, ``has``, ``contains``,
``add``, ``type`` and the conversions (``tostring``, ``tonumber``, ``tojson``, ``explode`` ...)."""

from __future__ import annotations

import math
import re
from typing import Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value, describe, truthy
from ..json import dumps, equal, loads, type_name, JSONParseError
from ..formats import tostring
from ..operators import binop, is_number
from .registry import NATIVE_PATHS, each, native, simple


@native("empty")
def _empty(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    return iter(())


NATIVE_PATHS[("empty", 0)] = lambda interp, v, env, base: iter(())


@native("error")
def _error0(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    raise JqError(v)
    yield  # pragma: no cover


@native("error", 1)
def _error1(interp: Interp, v: Value, env: Env, msg: Closure) -> Iterator[Value]:
    for m in each(interp, msg, v):
        raise JqError(m)
    return
    yield  # pragma: no cover


@native("not")
def _not(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield not truthy(v)


@simple("length")
def _length(v: Value) -> Value:
    if v is None:
        return 0.0
    if v is True or v is False:
        raise JqError(f"boolean ({'true' if v else 'false'}) has no length")
    if is_number(v):
        return float(abs(v))
    return float(len(v))


@simple("utf8bytelength")
def _utf8bytelength(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} only strings have UTF-8 byte length")
    return float(len(v.encode("utf-8", "surrogatepass")))


@simple("keys")
def _keys(v: Value) -> Value:
    if isinstance(v, dict):
        return sorted(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{describe(v)} has no keys")


@simple("keys_unsorted")
def _keys_unsorted(v: Value) -> Value:
    if isinstance(v, dict):
        return list(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{describe(v)} has no keys")


@native("has", 1)
def _has(interp: Interp, v: Value, env: Env, key: Closure) -> Iterator[Value]:
    for k in each(interp, key, v):
        if isinstance(v, dict) and isinstance(k, str):
            yield k in v
        elif isinstance(v, list) and is_number(k):
            yield 0 <= k < len(v)
        else:
            raise JqError(f"Cannot check whether {type_name(v)} has a {type_name(k)} key")


@native("contains", 1)
def _contains(interp: Interp, v: Value, env: Env, other: Closure) -> Iterator[Value]:
    for b in each(interp, other, v):
        yield contains(v, b)


def contains(a: Value, b: Value) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and contains(a[k], bv) for k, bv in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    if type_name(a) == type_name(b):
        return equal(a, b)
    raise JqError(f"{describe(a)} and {describe(b)} cannot have their containment checked")


@simple("add")
def _add(v: Value) -> Value:
    if isinstance(v, dict):
        v = list(v.values())
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {describe(v)}")
    acc: Value = None
    for x in v:
        acc = binop("+", acc, x)
    return acc


@simple("type")
def _type(v: Value) -> Value:
    return type_name(v)


@simple("tostring")
def _tostring(v: Value) -> Value:
    return tostring(v)


@simple("tonumber")
def _tonumber(v: Value) -> Value:
    if is_number(v):
        return float(v)
    if isinstance(v, str):
        text = v.strip()
        try:
            if text in ("nan", "-nan"):
                return math.nan
            if re.fullmatch(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", text) is None:
                raise ValueError
            return float(text)
        except ValueError:
            raise JqError(f"Cannot parse '{v}' as JSON") from None
    raise JqError(f"{describe(v)} cannot be parsed as a number")


@simple("tojson")
def _tojson(v: Value) -> Value:
    return dumps(v)


@simple("fromjson")
def _fromjson(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} only strings can be parsed")
    try:
        return loads(v)
    except (JSONParseError, ValueError) as exc:
        raise JqError(f"{exc} (while parsing '{v}')") from None


@simple("ascii_downcase")
def _ascii_downcase(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError("ascii_downcase input must be a string")
    return v.translate({i: i + 32 for i in range(65, 91)})


@simple("ascii_upcase")
def _ascii_upcase(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError("ascii_upcase input must be a string")
    return v.translate({i: i - 32 for i in range(97, 123)})


@simple("explode")
def _explode(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError("explode input must be a string")
    return [float(ord(c)) for c in v]


@simple("implode")
def _implode(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError("implode input must be an array")
    out = []
    for c in v:
        if not is_number(c):
            raise JqError("Unicode codepoint must be numeric")
        code = int(c)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or code < 0:
            code = 0xFFFD
        out.append(chr(code))
    return "".join(out)
