"""jq's arithmetic and comparison operators (``binop``), with jq 1.6's errors and corner cases."""

from __future__ import annotations

import math

from .evaluate import JqError, Value, describe
from .json import compare, equal


def is_number(v: Value) -> bool:
    """Whether ``v`` is a jq number (a bool is not one, though Python says it is an int)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def binop(op: str, a: Value, b: Value) -> Value:
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if is_number(a) and is_number(b):
            return float(a + b)
        if isinstance(a, str) and isinstance(b, str):
            return a + b
        if isinstance(a, list) and isinstance(b, list):
            return a + b
        if isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            out.update(b)
            return out
        raise JqError(f"{describe(a)} and {describe(b)} cannot be added")
    if op == "-":
        if is_number(a) and is_number(b):
            return float(a - b)
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if not any(equal(x, y) for y in b)]
        raise JqError(f"{describe(a)} and {describe(b)} cannot be subtracted")
    if op == "*":
        if is_number(a) and is_number(b):
            return float(a * b)
        if isinstance(a, str) and is_number(b) or isinstance(b, str) and is_number(a):
            s, n = (a, b) if isinstance(a, str) else (b, a)
            count = int(n) if math.isfinite(n) else 0
            if count <= 0:
                return None
            if len(s) * count > _MAX_STRING:
                raise JqError(f"Repeat string result too long")
            return s * count
        if isinstance(a, dict) and isinstance(b, dict):
            return _deep_merge(a, b)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be multiplied")
    if op == "/":
        if is_number(a) and is_number(b):
            if b == 0:
                raise JqError(f"{describe(a)} and {describe(b)} cannot be divided because the divisor is zero")
            return float(a / b)
        if isinstance(a, str) and isinstance(b, str):
            return split_string(a, b)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be divided")
    if op == "%":
        if is_number(a) and is_number(b):
            ia = _to_intmax(a)
            ib = _to_intmax(b)
            if ib == 0:
                raise JqError(f"{describe(a)} and {describe(b)} cannot be divided because the divisor is zero")
            r = abs(ia) % abs(ib)
            return float(-r if ia < 0 else r)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be divided")
    c = compare(a, b)
    if op == "==":
        return c == 0
    if op == "!=":
        return c != 0
    if op == "<":
        return c < 0
    if op == "<=":
        return c <= 0
    if op == ">":
        return c > 0
    if op == ">=":
        return c >= 0
    raise JqError(f"unknown operator {op}")


_MAX_STRING = 256 * 1024 * 1024


def _to_intmax(x: float) -> int:
    if x != x:
        return 0
    if x >= 9.223372036854776e18:
        return 9223372036854775807
    if x <= -9.223372036854776e18:
        return -9223372036854775808
    return int(x)


def _deep_merge(a: dict[str, Value], b: dict[str, Value]) -> dict[str, Value]:
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def split_string(s: str, sep: str) -> list[str]:
    """``s / sep`` and ``split/1``: no parts for an empty string, characters for an empty separator."""
    if s == "":
        return []
    if sep == "":
        return list(s)
    return s.split(sep)
