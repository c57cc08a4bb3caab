"""Array and object builtins: ``sort``, ``unique``, ``min``/``max``, the ``*_by`` forms, entries."""

from __future__ import annotations

from typing import Iterator

from ..evaluate import Closure, Env, Interp, JqError, Value, describe, index_value
from ..json import SortKey, compare, equal, type_name
from .registry import each, native, simple


@simple("sort")
def _sort(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError(f"{describe(v)} cannot be sorted, as it is not an array")
    return sorted(v, key=SortKey)


@simple("reverse")
def _reverse(v: Value) -> Value:
    if isinstance(v, str):
        return v[::-1]
    if v is None:
        return []
    if not isinstance(v, list):
        raise JqError(f"Cannot index {type_name(v)} with number")
    return v[::-1]


@simple("unique")
def _unique(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError(f"{describe(v)} cannot be sorted, as it is not an array")
    out: list[Value] = []
    for x in sorted(v, key=SortKey):
        if not out or not equal(out[-1], x):
            out.append(x)
    return out


@simple("min")
def _min(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError(f"Cannot index {type_name(v)} with number")
    return min(v, key=SortKey) if v else None


@simple("max")
def _max(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError(f"Cannot index {type_name(v)} with number")
    best: Value = None
    for i, x in enumerate(v):
        if i == 0 or compare(x, best) >= 0:
            best = x
    return best


def _keyed(interp: Interp, v: Value, f: Closure, what: str) -> list[tuple[list[Value], Value]]:
    if not isinstance(v, list):
        raise JqError(f"Cannot index {type_name(v)} with number" if what != "sort" else
                      f"{describe(v)} cannot be sorted, as it is not an array")
    return [(list(each(interp, f, x)), x) for x in v]


@native("sort_by", 1)
def _sort_by(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    pairs = _keyed(interp, v, f, "sort")
    yield [x for _, x in sorted(pairs, key=lambda p: SortKey(p[0]))]


@native("group_by", 1)
def _group_by(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    pairs = sorted(_keyed(interp, v, f, "sort"), key=lambda p: SortKey(p[0]))
    groups: list[list[Value]] = []
    last: Value = None
    for i, (k, x) in enumerate(pairs):
        if i == 0 or not equal(k, last):
            groups.append([])
            last = k
        groups[-1].append(x)
    yield groups


@native("unique_by", 1)
def _unique_by(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    pairs = sorted(_keyed(interp, v, f, "sort"), key=lambda p: SortKey(p[0]))
    out: list[Value] = []
    last: Value = None
    for i, (k, x) in enumerate(pairs):
        if i == 0 or not equal(k, last):
            out.append(x)
            last = k
    yield out


@native("min_by", 1)
def _min_by(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    pairs = _keyed(interp, v, f, "min")
    best: tuple[list[Value], Value] | None = None
    for p in pairs:
        if best is None or compare(p[0], best[0]) < 0:
            best = p
    yield best[1] if best else None


@native("max_by", 1)
def _max_by(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    pairs = _keyed(interp, v, f, "max")
    best: tuple[list[Value], Value] | None = None
    for p in pairs:
        if best is None or compare(p[0], best[0]) >= 0:
            best = p
    yield best[1] if best else None


@simple("to_entries")
def _to_entries(v: Value) -> Value:
    if isinstance(v, dict):
        return [{"key": k, "value": x} for k, x in v.items()]
    if isinstance(v, list):
        return [{"key": float(i), "value": x} for i, x in enumerate(v)]
    raise JqError(f"{describe(v)} has no keys")


@simple("from_entries")
def _from_entries(v: Value) -> Value:
    # jq 1.6: map({(.key): .value}) | add + {} // {}
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {describe(v)}")
    out: dict[str, Value] = {}
    for e in v:
        key = index_value(e, "key")
        value = index_value(e, "value")
        if not isinstance(key, str):
            raise JqError(f"Cannot use {describe(key)} as object key")
        out[key] = value
    return out
