"""Regular expression builtins (``test``, ``match``, ``capture``, ``scan``, ``splits``, ``sub``,
``gsub``): Oniguruma syntax, mostly shared with Python's ``re``."""

from __future__ import annotations

import re
from typing import Callable, Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value, describe
from ..json import dumps
from .registry import NATIVES, each, native


def _regex(pattern: Value, flags: Value) -> tuple[re.Pattern[str], bool]:
    if not isinstance(pattern, str):
        raise JqError(f"{describe(pattern)} cannot be matched, as it is not a string")
    if flags is not None and not isinstance(flags, str):
        raise JqError(f"{describe(flags)} is not a string")
    pyflags = 0
    global_ = False
    for ch in flags or "":
        if ch == "g":
            global_ = True
        elif ch == "i":
            pyflags |= re.IGNORECASE
        elif ch == "x":
            pyflags |= re.VERBOSE
        elif ch == "s":
            pyflags |= re.DOTALL
        elif ch == "n":
            pass
        elif ch in "pl":
            pyflags |= re.DOTALL if ch == "p" else 0
        else:
            raise JqError(f"{flags} is not a valid modifier string")
    translated = re.sub(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>", r"(?P<\1>", pattern)
    translated = translated.replace("\\h", "[0-9a-fA-F]").replace("\\H", "[^0-9a-fA-F]")
    try:
        return re.compile(translated, pyflags), global_
    except re.error as exc:
        raise JqError(f"{pattern} (at offset {exc.pos or 0}) is not a valid regex: {exc.msg}") from None


def _match_object(m: re.Match[str], s: str) -> dict[str, Value]:
    def offset(i: int) -> float:
        return float(i)
    names = {idx: name for name, idx in m.re.groupindex.items()}
    captures = []
    for g in range(1, (m.re.groups or 0) + 1):
        start = m.start(g)
        text = m.group(g)
        captures.append({"offset": offset(start) if start >= 0 else -1.0,
                         "length": float(len(text)) if text is not None else 0.0,
                         "string": text, "name": names.get(g)})
    return {"offset": offset(m.start()), "length": float(m.end() - m.start()), "string": m.group(),
            "captures": captures}


def match_all(v: Value, pattern: Value, flags: Value, test: bool = False) -> Iterator[dict[str, Value]]:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
    rx, global_ = _regex(pattern, flags)
    if not global_:
        m = rx.search(v)
        if m is not None:
            yield _match_object(m, v)
        return
    # jq 1.6 stops a global search once it reaches the end of the string.
    pos = 0
    while True:
        m = rx.search(v, pos)
        if m is None:
            break
        yield _match_object(m, v)
        pos = m.end() if m.end() > m.start() else m.end() + 1
        if pos >= len(v):
            break


def _regex_args(interp: Interp, v: Value, re_c: Closure, flags_c: Closure | None) -> Iterator[tuple[Value, Value]]:
    for flags in (each(interp, flags_c, v) if flags_c is not None else [None]):
        for pattern in each(interp, re_c, v):
            yield pattern, flags


def _reg(name: str, fn: Callable[[Value, Value, Value], Iterator[Value]]) -> None:
    def one(interp: Interp, v: Value, env: Env, r: Closure) -> Iterator[Value]:
        for pattern, flags in _regex_args(interp, v, r, None):
            if isinstance(pattern, list):
                pattern, flags = (pattern + [None, None])[:2]
            yield from fn(v, pattern, flags)

    def two(interp: Interp, v: Value, env: Env, r: Closure, fl: Closure) -> Iterator[Value]:
        for pattern, flags in _regex_args(interp, v, r, fl):
            yield from fn(v, pattern, flags)
    NATIVES[(name, 1)] = one
    NATIVES[(name, 2)] = two


def _test(v: Value, p: Value, f: Value) -> Iterator[Value]:
    for _ in match_all(v, p, (f or "").replace("g", "")):
        yield True
        return
    yield False


def _match(v: Value, p: Value, f: Value) -> Iterator[Value]:
    yield from match_all(v, p, f)


def _capture(v: Value, p: Value, f: Value) -> Iterator[Value]:
    for m in match_all(v, p, f):
        yield {c["name"]: c["string"] for c in m["captures"] if c["name"] is not None}


def _scan(v: Value, p: Value, f: Value) -> Iterator[Value]:
    for m in match_all(v, p, "g" + (f or "")):
        if m["captures"]:
            yield [c["string"] for c in m["captures"]]
        else:
            yield m["string"]


def _splits(v: Value, p: Value, f: Value) -> Iterator[Value]:
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
    prev = 0
    for m in match_all(v, p, "g" + (f or "")):
        start = int(m["offset"])
        yield v[prev:start]
        prev = start + int(m["length"])
    yield v[prev:]


_reg("test", _test)
_reg("match", _match)
_reg("capture", _capture)
_reg("scan", _scan)
_reg("splits", _splits)


@native("split", 2)
def _split2(interp: Interp, v: Value, env: Env, r: Closure, fl: Closure) -> Iterator[Value]:
    for pattern, flags in _regex_args(interp, v, r, fl):
        yield list(_splits(v, pattern, flags))


def _sub_impl(interp: Interp, v: Value, r: Closure, repl: Closure, fl: Closure | None, global_: bool) -> Iterator[Value]:
    for pattern, flags in _regex_args(interp, v, r, fl):
        flags = (flags or "") + ("g" if global_ else "")
        if not isinstance(v, str):
            raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
        matches = list(match_all(v, pattern, flags))
        # Each replacement may produce several outputs: build the cartesian product.
        results = [("", 0)]
        for m in matches:
            capture = {c["name"]: c["string"] for c in m["captures"] if c["name"] is not None}
            new_results = []
            for prefix, pos in results:
                start = int(m["offset"])
                for text in each(interp, repl, capture):
                    if not isinstance(text, str):
                        raise JqError(f"string ({dumps(prefix + v[pos:start])[:11]}) and {describe(text)} cannot be added")
                    new_results.append((prefix + v[pos:start] + text, start + int(m["length"])))
            results = new_results
        for prefix, pos in results:
            yield prefix + v[pos:]


@native("sub", 2)
def _sub2(interp: Interp, v: Value, env: Env, r: Closure, s: Closure) -> Iterator[Value]:
    yield from _sub_impl(interp, v, r, s, None, False)


@native("sub", 3)
def _sub3(interp: Interp, v: Value, env: Env, r: Closure, s: Closure, f: Closure) -> Iterator[Value]:
    yield from _sub_impl(interp, v, r, s, f, False)


@native("gsub", 2)
def _gsub2(interp: Interp, v: Value, env: Env, r: Closure, s: Closure) -> Iterator[Value]:
    yield from _sub_impl(interp, v, r, s, None, True)


@native("gsub", 3)
def _gsub3(interp: Interp, v: Value, env: Env, r: Closure, s: Closure, f: Closure) -> Iterator[Value]:
    yield from _sub_impl(interp, v, r, s, f, True)
