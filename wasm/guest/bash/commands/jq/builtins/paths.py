"""Path and generator builtins: ``path``, ``getpath``, ``setpath``, ``delpaths``, ``range``, ``first``,
``limit``, ``select``, ``isempty`` (with their path-expression variants)."""

from __future__ import annotations

from typing import Iterator

from ..evaluate import Closure, Env, Interp, JqError, Path, Value, delpaths, getpath, setpath, truthy
from ..operators import is_number
from .registry import NATIVE_PATHS, each, native


@native("path", 1)
def _path(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for p, _ in interp.paths(f.node, v, f.env):
        yield p


@native("getpath", 1)
def _getpath(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for p in each(interp, f, v):
        if not isinstance(p, list):
            raise JqError("Path must be specified as an array")
        yield getpath(v, p)


def _getpath_paths(interp: Interp, v: Value, env: Env, base: Path, f: Closure) -> Iterator[tuple[Path, Value]]:
    for p in each(interp, f, v):
        if not isinstance(p, list):
            raise JqError("Path must be specified as an array")
        yield base + p, getpath(v, p)


NATIVE_PATHS[("getpath", 1)] = _getpath_paths


@native("setpath", 2)
def _setpath(interp: Interp, v: Value, env: Env, pf: Closure, vf: Closure) -> Iterator[Value]:
    for new in each(interp, vf, v):
        for p in each(interp, pf, v):
            if not isinstance(p, list):
                raise JqError("Path must be specified as an array")
            yield setpath(v, p, new)


@native("delpaths", 1)
def _delpaths(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for ps in each(interp, f, v):
        if not isinstance(ps, list):
            raise JqError("Paths must be specified as an array")
        for p in ps:
            if not isinstance(p, list):
                raise JqError("Path must be specified as an array")
        yield delpaths(v, ps)


@native("range", 1)
def _range1(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for n in each(interp, f, v):
        if not is_number(n):
            raise JqError("Range bounds must be numeric")
        i = 0.0
        while i < n:
            interp.tick()
            yield i
            i += 1


@native("range", 2)
def _range2(interp: Interp, v: Value, env: Env, a: Closure, b: Closure) -> Iterator[Value]:
    for start in each(interp, a, v):
        for end in each(interp, b, v):
            if not is_number(start) or not is_number(end):
                raise JqError("Range bounds must be numeric")
            i = float(start)
            while i < end:
                yield i
                i += 1


@native("range", 3)
def _range3(interp: Interp, v: Value, env: Env, a: Closure, b: Closure, c: Closure) -> Iterator[Value]:
    for start in each(interp, a, v):
        for end in each(interp, b, v):
            for step in each(interp, c, v):
                if not (is_number(start) and is_number(end) and is_number(step)):
                    raise JqError("Range bounds must be numeric")
                i = float(start)
                if step > 0:
                    while i < end:
                        yield i
                        i += step
                elif step < 0:
                    while i > end:
                        yield i
                        i += step
                elif start < end:
                    while True:
                        interp.tick()
                        yield i


@native("first", 1)
def _first(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for x in each(interp, f, v):
        yield x
        return


def _first_paths(interp: Interp, v: Value, env: Env, base: Path, f: Closure) -> Iterator[tuple[Path, Value]]:
    for item in interp.paths(f.node, v, f.env, base):
        yield item
        return


def _limit_paths(interp: Interp, v: Value, env: Env, base: Path, n: Closure, f: Closure) -> Iterator[tuple[Path, Value]]:
    for count in each(interp, n, v):
        i = 0
        for item in interp.paths(f.node, v, f.env, base):
            yield item
            i += 1
            if count >= 0 and i >= count:
                break


NATIVE_PATHS[("first", 1)] = _first_paths
NATIVE_PATHS[("limit", 2)] = _limit_paths


@native("select", 1)
def _select(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    # Native for speed; the same as jq's "def select(f): if f then . else empty end".
    for c in each(interp, f, v):
        if truthy(c):
            yield v


def _select_paths(interp: Interp, v: Value, env: Env, base: Path, f: Closure) -> Iterator[tuple[Path, Value]]:
    for c in each(interp, f, v):
        if truthy(c):
            yield base, v


NATIVE_PATHS[("select", 1)] = _select_paths


@native("isempty", 1)
def _isempty(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for _ in each(interp, f, v):
        yield False
        return
    yield True


@native("limit", 2)
def _limit(interp: Interp, v: Value, env: Env, n: Closure, f: Closure) -> Iterator[Value]:
    # jq 1.6: the first output is always emitted, even for a limit of 0 or less.
    for count in each(interp, n, v):
        i = 0
        for x in each(interp, f, v):
            yield x
            i += 1
            if count >= 0 and i >= count:
                break
