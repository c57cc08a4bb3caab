"""The table of native builtins, the decorators that fill it, and helpers for closure arguments.

Native functions are generators ``fn(interp, input, env, *closures)``; a closure argument
is evaluated with ``interp.eval(c.node, value, c.env)`` (``each``). A builtin usable as a path
expression (``path(first(.a))``) also registers a paths variant in ``NATIVE_PATHS``."""

from __future__ import annotations

from typing import Callable, Iterator

from ..evaluate import Closure, Env, Interp, Path, Value


NativeFn = Callable[..., Iterator[Value]]
NATIVES: dict[tuple[str, int], NativeFn] = {}
NATIVE_PATHS: dict[tuple[str, int], Callable[..., Iterator[tuple[Path, Value]]]] = {}


def native(name: str, arity: int = 0) -> Callable[[NativeFn], NativeFn]:
    def register(fn: NativeFn) -> NativeFn:
        NATIVES[(name, arity)] = fn
        return fn
    return register


def simple(name: str) -> Callable[[Callable[[Value], Value]], Callable[[Value], Value]]:
    """A 0-arity builtin that maps its input to exactly one output."""
    def register(fn: Callable[[Value], Value]) -> Callable[[Value], Value]:
        def gen(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
            yield fn(v)
        NATIVES[(name, 0)] = gen
        return fn
    return register


def each(interp: Interp, c: Closure, v: Value) -> Iterator[Value]:
    return interp.eval(c.node, v, c.env)


def cartesian(interp: Interp, v: Value, closures: tuple[Closure, ...]) -> Iterator[list[Value]]:
    """All combinations of the closures' outputs (last argument varies slowest, like jq)."""
    if not closures:
        yield []
        return
    *head, last = closures
    for x in each(interp, last, v):
        for rest in cartesian(interp, v, tuple(head)):
            yield rest + [x]
