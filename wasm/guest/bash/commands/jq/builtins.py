"""jq builtins: arithmetic, @formats, native functions, and the builtins written in jq.

Native functions are generators ``fn(interp, input, env, *closures)``; a closure argument
is evaluated with ``interp.eval(c.node, value, c.env)``. ``PRELUDE`` defines the rest in jq
itself, following jq 1.6's definitions where its behaviour is observable (``limit``,
``_modify`` via ``|=``, ``tostream`` ...).
"""

from __future__ import annotations

import base64
import calendar
import math
import re
import time
from typing import Any, Callable, Iterator

from .evaluate import (Closure, Env, Function, Halt, Interp, JqError, Path, Value, delpaths,
                       describe, getpath, index_value, indices_of, setpath, truthy)
from .json import SortKey, compare, dumps, equal, loads, type_name, JSONParseError
from .parse import Parser


def _num(v: Value) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def binop(op: str, a: Value, b: Value) -> Value:
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if _num(a) and _num(b):
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
        if _num(a) and _num(b):
            return float(a - b)
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if not any(equal(x, y) for y in b)]
        raise JqError(f"{describe(a)} and {describe(b)} cannot be subtracted")
    if op == "*":
        if _num(a) and _num(b):
            return float(a * b)
        if isinstance(a, str) and _num(b) or isinstance(b, str) and _num(a):
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
        if _num(a) and _num(b):
            if b == 0:
                raise JqError(f"{describe(a)} and {describe(b)} cannot be divided because the divisor is zero")
            return float(a / b)
        if isinstance(a, str) and isinstance(b, str):
            return _split(a, b)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be divided")
    if op == "%":
        if _num(a) and _num(b):
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


def _split(s: str, sep: str) -> list[str]:
    if s == "":
        return []
    if sep == "":
        return list(s)
    return s.split(sep)


# -- formats ---------------------------------------------------------------------------

def tostring(v: Value) -> str:
    return v if isinstance(v, str) else dumps(v)


def apply_format(name: str, v: Value) -> str:
    fmt = name[1:]
    if fmt == "text":
        return tostring(v)
    if fmt == "json":
        return dumps(v)
    if fmt == "html":
        s = tostring(v)
        return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;").replace('"', "&quot;"))
    if fmt == "uri":
        s = tostring(v)
        out = []
        for byte in s.encode("utf-8"):
            ch = chr(byte)
            if ch.isascii() and (ch.isalnum() or ch in "-_.!~*'()"):
                out.append(ch)
            else:
                out.append(f"%{byte:02X}")
        return "".join(out)
    if fmt == "csv" or fmt == "tsv":
        if not isinstance(v, list):
            raise JqError(f"{describe(v)} cannot be {fmt}-formatted, only an array can be")
        cells = []
        for x in v:
            if _num(x):
                cells.append(dumps(x))
            elif x is None:
                cells.append("")
            elif x is True or x is False:
                cells.append("true" if x else "false")
            elif isinstance(x, str):
                if fmt == "csv":
                    cells.append('"' + x.replace('"', '""') + '"')
                else:
                    cells.append(x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
            else:
                raise JqError(f"{describe(x)} is not valid in a csv row")
        return ("," if fmt == "csv" else "\t").join(cells)
    if fmt == "sh":
        items = v if isinstance(v, list) else [v]
        out_items = []
        for x in items:
            if isinstance(x, str):
                out_items.append("'" + x.replace("'", "'\\''") + "'")
            elif isinstance(x, (list, dict)):
                raise JqError(f"{describe(x)} can not be escaped for shell")
            else:
                out_items.append(dumps(x))
        return " ".join(out_items)
    if fmt == "base64":
        return base64.b64encode(tostring(v).encode("utf-8")).decode("ascii")
    if fmt == "base64d":
        raw = tostring(v).encode("utf-8").rstrip(b"=")
        raw += b"=" * (-len(raw) % 4)
        try:
            data = base64.b64decode(raw)
        except Exception:  # noqa: BLE001 - binascii.Error and ValueError alike
            raise JqError(f"{describe(v)} is not valid base64 data") from None
        return data.decode("utf-8", "replace")
    raise JqError(f"{fmt} is not a valid format")


# -- native builtins ------------------------------------------------------------------

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
    if _num(v):
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
        elif isinstance(v, list) and _num(k):
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
    if not _num(v):
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
                    if not _num(x) or not _num(y):
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
    if not _num(v):
        raise JqError(f"{describe(v)} number required")
    return math.isinf(v)


@simple("isnan")
def _isnan(v: Value) -> Value:
    if not _num(v):
        raise JqError(f"{describe(v)} number required")
    return math.isnan(v)


@simple("isnormal")
def _isnormal(v: Value) -> Value:
    if not _num(v):
        raise JqError(f"{describe(v)} number required")
    return math.isfinite(v) and v != 0 and abs(v) >= 2.2250738585072014e-308


@simple("type")
def _type(v: Value) -> Value:
    return type_name(v)


@simple("tostring")
def _tostring(v: Value) -> Value:
    return tostring(v)


@simple("tonumber")
def _tonumber(v: Value) -> Value:
    if _num(v):
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
        if not _num(c):
            raise JqError("Unicode codepoint must be numeric")
        code = int(c)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or code < 0:
            code = 0xFFFD
        out.append(chr(code))
    return "".join(out)


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
        yield _split(v, sep)


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
            elif _num(x) or x is True or x is False:
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
        if not _num(n):
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
            if not _num(start) or not _num(end):
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
                if not (_num(start) and _num(end) and _num(step)):
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
        if not _num(c):
            raise JqError("halt_error/1: number required")
        raise Halt(int(c), v, True)
    return
    yield  # pragma: no cover


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


@native("_strindices", 1)
def _strindices(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for sub in each(interp, f, v):
        yield indices_of(v, sub)


# -- regular expressions (Oniguruma syntax, mostly shared with Python) -------------------

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


# -- dates -----------------------------------------------------------------------------

def _broken_down(v: Value) -> list[Value]:
    if not _num(v):
        raise JqError("gmtime() requires a number")
    seconds = math.floor(v)
    frac = v - seconds
    t = time.gmtime(seconds)
    return [float(t.tm_year), float(t.tm_mon - 1), float(t.tm_mday), float(t.tm_hour), float(t.tm_min),
            float(t.tm_sec) + frac, float((t.tm_wday + 1) % 7), float(t.tm_yday - 1)]


def _to_struct(v: Value, name: str) -> time.struct_time:
    if _num(v):
        v = _broken_down(v)
    if not isinstance(v, list) or len(v) < 6 or not all(_num(x) for x in v[:6]):
        raise JqError(f"{name} requires parsed datetime inputs")
    year, mon, mday, hour, minute, sec = (int(x) for x in v[:6])
    wday = int(v[6]) if len(v) > 6 else 0
    yday = int(v[7]) if len(v) > 7 else 0
    return time.struct_time((year, mon + 1, mday, hour, minute, sec, (wday - 1) % 7, yday + 1, 0))


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_DIRECTIVES = {
    "Y": r"(?P<Y>[+-]?\d{1,4})", "m": r"(?P<m>\d{1,2})", "d": r"(?P<d>\d{1,2})", "e": r"\s*(?P<d>\d{1,2})",
    "H": r"(?P<H>\d{1,2})", "M": r"(?P<M>\d{1,2})", "S": r"(?P<S>\d{1,2})", "j": r"(?P<j>\d{1,3})",
    "y": r"(?P<y>\d{2})", "b": r"(?P<b>[A-Za-z]{3,9})", "B": r"(?P<b>[A-Za-z]{3,9})", "h": r"(?P<b>[A-Za-z]{3,9})",
    "a": r"(?P<a>[A-Za-z]{3,9})", "A": r"(?P<a>[A-Za-z]{3,9})", "Z": r"(?P<Z>[A-Za-z]+)",
    "z": r"(?P<z>[+-]\d{2}:?\d{2}|Z)", "p": r"(?P<p>[AaPp][Mm])", "%": "%",
    "T": r"(?P<H>\d{1,2}):(?P<M>\d{1,2}):(?P<S>\d{1,2})", "F": r"(?P<Y>[+-]?\d{1,4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})",
    "D": r"(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{2})", "s": r"(?P<s>-?\d+)",
}


def _parse_time(text: str, fmt: str) -> time.struct_time:
    """strptime for the C locale without the _strptime module (which needs threads).
    Like glibc, fields the format does not mention stay at their defaults."""
    parts: list[str] = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d not in _DIRECTIVES:
                raise ValueError(fmt)
            parts.append(_DIRECTIVES[d])
            i += 2
        elif c.isspace():
            parts.append(r"\s*")
            i += 1
        else:
            parts.append(re.escape(c))
            i += 1
    m = re.fullmatch("".join(parts), text, re.IGNORECASE)
    if m is None:
        raise ValueError(text)
    g = m.groupdict()
    if g.get("s") is not None:
        return time.gmtime(int(g["s"]))
    year = int(g["Y"]) if g.get("Y") else (int(g["y"]) + (2000 if int(g["y"]) < 69 else 1900) if g.get("y") else 1900)
    month = int(g["m"]) if g.get("m") else 1
    if g.get("b"):
        month = _MONTHS.index(g["b"][:3].lower()) + 1
    day = int(g["d"]) if g.get("d") else 1
    hour = int(g["H"]) if g.get("H") else 0
    if g.get("p") and g["p"].lower() == "pm" and hour < 12:
        hour += 12
    minute = int(g["M"]) if g.get("M") else 0
    second = int(g["S"]) if g.get("S") else 0
    if g.get("j"):
        stamp = calendar.timegm((year, 1, 1, hour, minute, second, 0, 0, 0)) + (int(g["j"]) - 1) * 86400
        return time.gmtime(stamp)
    stamp = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    return time.gmtime(stamp)


@simple("gmtime")
def _gmtime(v: Value) -> Value:
    return _broken_down(v)


@simple("localtime")
def _localtime(v: Value) -> Value:
    return _broken_down(v)


@simple("mktime")
def _mktime(v: Value) -> Value:
    if not isinstance(v, list):
        raise JqError("mktime requires array of 6 numbers")
    st = _to_struct(v, "mktime")
    return float(calendar.timegm(st))


@native("strftime", 1)
def _strftime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for fmt in each(interp, f, v):
        if not isinstance(fmt, str):
            raise JqError("strftime/1 requires a string format")
        yield time.strftime(fmt, _to_struct(v, "strftime/1"))


@native("strflocaltime", 1)
def _strflocaltime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    yield from _strftime(interp, v, env, f)


@native("strptime", 1)
def _strptime(interp: Interp, v: Value, env: Env, f: Closure) -> Iterator[Value]:
    for fmt in each(interp, f, v):
        if not isinstance(v, str) or not isinstance(fmt, str):
            raise JqError("strptime/1 requires string inputs and arguments")
        try:
            t = _parse_time(v, fmt)
        except ValueError:
            raise JqError(f"date \"{v}\" does not match format \"{fmt}\"") from None
        seconds = float(calendar.timegm(t))
        if not any(d in fmt for d in ("%d", "%e", "%j", "%F", "%D", "%x", "%c", "%s")):
            # glibc leaves tm_mday at 0 when the format has no day (Python assumes 1).
            seconds -= 86400
        yield _broken_down(seconds)


PRELUDE = r"""
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def recurse: recurse(.[]?);
def recurse_down: recurse;
def map(f): [.[] | f];
def map_values(f): .[] |= f;
def to_array: if type == "array" then . else [.] end;
def toarray: if type == "array" then . else [.] end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def with_entries(f): to_entries | map(f) | from_entries;
def del(f): delpaths([path(f)]);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not)));
def flatten: _flatten(-1);
def flatten($x): if $x < 0 then error("flatten depth must not be negative") else _flatten($x) end;
def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0 then . + ($i | _flatten($x - 1)) else . + [$i] end);
def last(f): reduce f as $x (null; $x);
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def first: .[0];
def last: .[-1];
def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
def repeat(f): . as $in | def _again: ($in | f), _again; _again;
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key ({}; . + { ($key): ($in[$key] | walk(f)) }) | f elif type == "array" then map(walk(f)) | f else f end;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | [range(0; $max) as $j | [range(0; $in | length) as $i | $in[$i][$j]]] end;
def env: $ENV;
def todate: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def ascii(i): [i] | implode;
def todate(f): strftime(f);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def have_literal_numbers: true;
def have_decnum: false;
"""


def make_interp() -> Interp:
    interp = Interp()
    for key, fn in NATIVES.items():
        interp.natives[key] = Function([], ("identity",), None, fn, NATIVE_PATHS.get(key))
    _install_prelude(interp)
    return interp


_PRELUDE_DEFS: list[tuple[str, list[str], Any]] | None = None


def _prelude_defs() -> list[tuple[str, list[str], Any]]:
    global _PRELUDE_DEFS
    if _PRELUDE_DEFS is None:
        defs: list[tuple[str, list[str], Any]] = []
        for line in PRELUDE.strip().splitlines():
            line = line.strip()
            if not line.startswith("def ") or line.startswith("def @") or line.startswith("def $"):
                continue
            node = Parser(line + " .").parse()
            defs.append((node[1], node[2], node[3]))
        _PRELUDE_DEFS = defs
    return _PRELUDE_DEFS


def _install_prelude(interp: Interp) -> None:
    env = interp.root_env
    # All prelude functions share one environment so they can call each other.
    for name, params, body in _prelude_defs():
        env.funcs[(name, len(params))] = Function(params, body, env)


__all__ = ["binop", "apply_format", "make_interp", "tostring", "match_all", "contains",
           "index_value", "getpath", "setpath", "delpaths", "Halt", "JqError"]
