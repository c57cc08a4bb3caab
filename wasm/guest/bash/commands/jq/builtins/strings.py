"""String builtins: ``startswith``, ``ltrimstr``, ``trim``, ``split/1``, ``join``, ``indices`` ..."""

from __future__ import annotations

from typing import Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value, describe, indices_of
from ..json import dumps, type_name
from ..operators import is_number, split_string
from .registry import each, native, simple


def _str_arg(name: str, v: Value, arg: Value) -> None:
    if not isinstance(v, str) or not isinstance(arg, str):
        raise JqError(f"{name}() requires string inputs")


@native("startswith", 1)
def _startswith(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for s in each(interp, f, v):
        _str_arg("startswith", v, s)
        yield v.startswith(s)


@native("endswith", 1)
def _endswith(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for s in each(interp, f, v):
        _str_arg("endswith", v, s)
        yield v.endswith(s)


@native("ltrimstr", 1)
def _ltrimstr(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for s in each(interp, f, v):
        if isinstance(v, str) and isinstance(s, str) and v.startswith(s):
            yield v[len(s):]
        else:
            yield v


@native("rtrimstr", 1)
def _rtrimstr(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for s in each(interp, f, v):
        if isinstance(v, str) and isinstance(s, str) and v.endswith(s) and s:
            yield v[: len(v) - len(s)]
        else:
            yield v


@simple("trim")
def _trim(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be trimmed")
    return v.strip(" \t\n\r\f\v")


@simple("ltrim")
def _ltrim(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be trimmed")
    return v.lstrip(" \t\n\r\f\v")


@simple("rtrim")
def _rtrim(v: Value) -> Value:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be trimmed")
    return v.rstrip(" \t\n\r\f\v")


@native("split", 1)
def _split1(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sep in each(interp, f, v):
        if not isinstance(v, str) or not isinstance(sep, str):
            raise JqError("split input and separator must be strings")
        yield split_string(v, sep)


@native("join", 1)
def _join(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sep in each(interp, f, v):
        if not isinstance(v, list):
            raise JqError(f"Cannot iterate over {describe(v)}")
        parts: list[str] = []
        for x in v:
            if x is None:
                parts.append("")
            elif isinstance(x, str):
                parts.append(x)
            elif is_number(x) or x is True or x is False:
                parts.append(dumps(x))
            else:
                raise JqError(f"Cannot join with {type_name(x)}")
        if not isinstance(sep, str):
            if not parts:
                yield ""
                continue
            raise JqError(f"string ({dumps(parts[0])}) and {describe(sep)} cannot be added")
        yield sep.join(parts)


@native("indices", 1)
def _indices(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sub in each(interp, f, v):
        yield indices_of(v, sub)


@native("index", 1)
def _index(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sub in each(interp, f, v):
        r = indices_of(v, sub)
        yield r[0] if r else None


@native("rindex", 1)
def _rindex(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sub in each(interp, f, v):
        r = indices_of(v, sub)
        yield r[-1] if r else None


@native("_strindices", 1)
def _strindices(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sub in each(interp, f, v):
        yield indices_of(v, sub)
