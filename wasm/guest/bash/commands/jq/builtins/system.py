"""Builtins that reach outside the filter: ``input``/``inputs``, ``debug``, ``stderr``, ``env``,
``builtins``, ``now``, ``halt``, ``halt_error``."""

from __future__ import annotations

import time
from typing import Iterator

from ..evaluate import Closure, Env, Halt, Interp, JqError, Value
from ..json import dumps
from ..operators import is_number
from .registry import each, native


@native("input")
def _input(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    try:
        yield next(interp.inputs)
    except StopIteration:
        raise JqError("No more inputs") from None


@native("inputs")
def _inputs(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield from interp.inputs


@native("debug")
def _debug(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    interp.stderr(('["DEBUG:",' + dumps(v) + "]\n").encode("utf-8", "replace"))
    yield v


@native("stderr")
def _stderr(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    interp.stderr(dumps(v).encode("utf-8", "replace"))
    yield v


@native("input_filename")
def _input_filename(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield interp.current_filename


@native("input_line_number")
def _input_line_number(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield float(interp.line_number())


@native("env")
def _env(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield dict(interp.env_vars)


@native("builtins")
def _builtins(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield sorted({f"{n}/{a}" for (n, a) in interp.natives if not n.startswith("_")})


@native("now")
def _now(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield time.time()


@native("halt")
def _halt(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    raise Halt(0)
    yield  # pragma: no cover


@native("halt_error")
def _halt_error0(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    raise Halt(5, v, True)
    yield  # pragma: no cover


@native("halt_error", 1)
def _halt_error1(interp: Interp, v: Value, env: Env, code: Closure) -> Iterator[Value]:
    for c in each(interp, code, v):
        if not is_number(c):
            raise JqError("halt_error/1: number required")
        raise Halt(int(c), v, True)
    return
    yield  # pragma: no cover
