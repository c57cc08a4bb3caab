"""Math builtins: ``floor``, ``sqrt``, the libm functions, ``infinite``, ``nan``, ``isnan`` ..."""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value, describe
from ..operators import is_number
from .registry import NATIVES, each, native, simple


@simple("floor")
def _floor(v: Value) -> Value:
    return _math(v, "floor", math.floor)


@simple("ceil")
def _ceil(v: Value) -> Value:
    return _math(v, "ceil", math.ceil)


@simple("round")
def _round(v: Value) -> Value:
    return _math(v, "round", lambda x: math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5))


@simple("sqrt")
def _sqrt(v: Value) -> Value:
    return _math(v, "sqrt", lambda x: math.sqrt(x) if x >= 0 else math.nan)


@simple("fabs")
def _fabs(v: Value) -> Value:
    return _math(v, "fabs", abs)


@simple("abs")
def _abs(v: Value) -> Value:
    return _math(v, "abs", abs)


for _name, _fn in (("exp", math.exp), ("exp2", lambda x: 2.0 ** x), ("exp10", lambda x: 10.0 ** x),
                   ("log", lambda x: math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)),
                   ("log2", lambda x: math.log2(x) if x > 0 else (-math.inf if x == 0 else math.nan)),
                   ("log10", lambda x: math.log10(x) if x > 0 else (-math.inf if x == 0 else math.nan)),
                   ("sin", math.sin), ("cos", math.cos), ("tan", math.tan), ("asin", math.asin),
                   ("acos", math.acos), ("atan", math.atan), ("sinh", math.sinh), ("cosh", math.cosh),
                   ("tanh", math.tanh), ("cbrt", lambda x: math.copysign(abs(x) ** (1 / 3), x)),
                   ("trunc", math.trunc), ("significand", lambda x: math.frexp(x)[0] * 2 if x else 0.0),
                   ("logb", lambda x: float(math.frexp(x)[1] - 1) if x else -math.inf),
                   ("gamma", math.lgamma), ("lgamma", math.lgamma), ("tgamma", math.gamma),
                   ("expm1", math.expm1), ("log1p", math.log1p), ("rint", lambda x: float(round(x))),
                   ("nearbyint", lambda x: float(round(x)))):
    def _make(name: str, fn: Callable[[float], float]) -> None:
        def gen(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
            yield _math(v, name, fn)
        NATIVES[(name, 0)] = gen
    _make(_name, _fn)


def _math(v: Value, name: str, fn: Callable[[float], Any]) -> float:
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    try:
        return float(fn(v))
    except (ValueError, ZeroDivisionError):
        return math.nan
    except OverflowError:
        return math.inf


for _name2, _fn2 in (("pow", math.pow), ("atan2", math.atan2), ("fmod", math.fmod),
                     ("ldexp", lambda a, b: math.ldexp(a, int(b))), ("scalb", lambda a, b: a * 2.0 ** b),
                     ("fmin", min), ("fmax", max), ("copysign", math.copysign), ("hypot", math.hypot)):
    def _make2(name: str, fn: Callable[[float, float], float]) -> None:
        def gen(interp: Interp, v: Value, env: Env, a: Closure, b: Closure) -> Iterator[Value]:
            for y in each(interp, b, v):
                for x in each(interp, a, v):
                    if not is_number(x) or not is_number(y):
                        raise JqError(f"{describe(x)} number required")
                    try:
                        yield float(fn(x, y))
                    except (ValueError, ZeroDivisionError):
                        yield math.nan
                    except OverflowError:
                        yield math.inf
        NATIVES[(name, 2)] = gen
    _make2(_name2, _fn2)


@native("infinite")
def _infinite(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield math.inf


@native("nan")
def _nan(interp: Interp, v: Value, env: Env) -> Iterator[Value]:
    yield math.nan


@simple("isinfinite")
def _isinfinite(v: Value) -> Value:
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    return math.isinf(v)


@simple("isnan")
def _isnan(v: Value) -> Value:
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    return math.isnan(v)


@simple("isnormal")
def _isnormal(v: Value) -> Value:
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    return math.isfinite(v) and v != 0 and abs(v) >= 2.2250738585072014e-308
