"""jq evaluation: generators over the tuple AST of ``parse``, plus path expressions.

``Interp.eval(node, value, env)`` yields the outputs of ``node`` applied to ``value``;
``Interp.paths(node, value, env)`` yields ``(path, value)`` pairs for path expressions
(used by ``path``, assignment operators, ``del``, ``paths`` ...). Native builtins live in
the ``builtins`` package; builtins defined in jq itself in ``builtins.prelude``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .json import compare, dumps, equal, type_name
from .parse import Node

Value = Any
Path = list[Any]


class JqError(Exception):
    """A jq runtime error; ``value`` is the error value (usually a message string)."""

    def __init__(self, value: Value) -> None:
        super().__init__(value)
        self.value = value

    def message(self) -> str:
        v = self.value
        if isinstance(v, str):
            return v
        return dumps(v) + " (not a string)"


class BreakOut(Exception):
    def __init__(self, label: object) -> None:
        super().__init__()
        self.label = label


class Halt(Exception):
    def __init__(self, status: int, message: Value = None, has_message: bool = False) -> None:
        super().__init__()
        self.status = status
        self.message = message
        self.has_message = has_message


@dataclass
class Closure:
    """A filter argument: the AST and the environment it was written in."""

    node: Node
    env: "Env"


@dataclass
class Function:
    params: list[str]
    body: Node
    env: "Env | None" = None
    native: Callable[..., Iterator[Value]] | None = None
    native_paths: Callable[..., Iterator[tuple[Path, Value]]] | None = None


@dataclass
class Env:
    parent: "Env | None" = None
    vars: dict[str, Value] = field(default_factory=dict)
    funcs: dict[tuple[str, int], "Function | Closure"] = field(default_factory=dict)
    labels: dict[str, object] = field(default_factory=dict)

    def lookup_var(self, name: str) -> Value:
        env: Env | None = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        raise KeyError(name)

    def lookup_func(self, key: tuple[str, int]) -> "Function | Closure | None":
        env: Env | None = self
        while env is not None:
            f = env.funcs.get(key)
            if f is not None:
                return f
            env = env.parent
        return None

    def lookup_label(self, name: str) -> object:
        env: Env | None = self
        while env is not None:
            if name in env.labels:
                return env.labels[name]
            env = env.parent
        raise KeyError(name)


def trunc_dump(v: Value, bufsize: int = 15) -> str:
    """jq's jv_dump_string_trunc: at most bufsize-1 characters, the last three "..."."""
    text = dumps(v)
    if len(text) > bufsize - 1:
        return text[: bufsize - 4] + "..."
    return text


def describe(v: Value) -> str:
    return f"{type_name(v)} ({trunc_dump(v)})"


def truthy(v: Value) -> bool:
    return v is not None and v is not False


def _num(v: Value) -> bool:
    return isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool))


def index_value(v: Value, key: Value) -> Value:
    if isinstance(key, str):
        if isinstance(v, dict):
            return v.get(key)
        if v is None:
            return None
        raise JqError(f"Cannot index {type_name(v)} with string \"{key}\"")
    if _num(key):
        if isinstance(v, list):
            if key != key or key != math.floor(key):
                return None
            i = int(key)
            if i < 0:
                i += len(v)
            if 0 <= i < len(v):
                return v[i]
            return None
        if v is None:
            return None
        raise JqError(f"Cannot index {type_name(v)} with number")
    if isinstance(key, dict) and (isinstance(v, (list, str)) or v is None):
        if v is None:
            return None
        return slice_value(v, key.get("start"), key.get("end"))
    if isinstance(key, list) and isinstance(v, list):
        return indices_of(v, key)
    if v is None and key is None:
        return None
    raise JqError(f"Cannot index {type_name(v)} with {type_name(key)}")


def indices_of(v: Value, sub: Value) -> Value:
    if isinstance(v, str) and isinstance(sub, str):
        if not sub:
            return None
        data = v.encode("utf-8")
        needle = sub.encode("utf-8")
        out: list[float] = []
        start = data.find(needle)
        while start >= 0:
            out.append(float(start))
            start = data.find(needle, start + 1)
        return out
    if isinstance(v, list):
        if not isinstance(sub, list):
            sub = [sub]
        if not sub:
            return None
        out = []
        for i in range(len(v) - len(sub) + 1):
            if all(equal(v[i + j], sub[j]) for j in range(len(sub))):
                out.append(float(i))
        return out
    if v is None:
        return None
    raise JqError(f"Cannot determine indices in {type_name(v)}")


def _clamp_slice(length: int, start: Value, end: Value) -> tuple[int, int]:
    """jq 1.6 parse_slice: negative from the end, clamp, start truncated, end rounded up."""
    for x in (start, end):
        if x is not None and not _num(x):
            raise JqError("Start and end indices of an array slice must be numbers")
    s = 0.0 if start is None else float(start)
    e = float(length) if end is None else float(end)
    if s != s:
        s = 0.0
    if e != e:
        e = float(length)
    if s < 0:
        s += length
    if e < 0:
        e += length
    s = min(max(s, 0.0), float(length))
    e = min(e, float(length))
    if e < s:
        e = s
    si = int(s)
    ei = int(e) + 1 if e > int(e) else int(e)
    return si, ei


def slice_value(v: Value, start: Value, end: Value) -> Value:
    if v is None:
        return None
    if isinstance(v, (list, str)):
        s, e = _clamp_slice(len(v), start, end)
        return v[s:e]
    raise JqError(f"Cannot index {type_name(v)} with object")


def getpath(v: Value, path: Path) -> Value:
    for key in path:
        if v is None:
            return None
        v = index_value(v, key)
    return v


def setpath(v: Value, path: Path, new: Value) -> Value:
    if not path:
        return new
    key = path[0]
    rest = path[1:]
    if isinstance(key, str):
        if v is None:
            v = {}
        if not isinstance(v, dict):
            raise JqError(f"Cannot index {type_name(v)} with \"{key}\"")
        out = dict(v)
        out[key] = setpath(v.get(key), rest, new)
        return out
    if _num(key):
        if v is None:
            v = []
        if not isinstance(v, list):
            raise JqError(f"Cannot index {type_name(v)} with number")
        i = int(math.floor(key))
        if i < 0:
            i += len(v)
            if i < 0:
                raise JqError("Out of bounds negative array index")
        out_list = list(v)
        if i >= len(out_list):
            out_list.extend([None] * (i - len(out_list) + 1))
        out_list[i] = setpath(out_list[i], rest, new)
        return out_list
    if isinstance(key, dict):
        if v is None:
            v = []
        if not isinstance(v, list):
            raise JqError(f"Cannot update field at object index of {type_name(v)}")
        s, e = _clamp_slice(len(v), key.get("start"), key.get("end"))
        replacement = setpath(v[s:e], rest, new)
        if not isinstance(replacement, list):
            raise JqError("A slice of an array can only be assigned another array")
        return v[:s] + replacement + v[e:]
    raise JqError(f"Invalid path component {type_name(key)}" if not isinstance(key, list) else "Cannot update field at object index of array")


def delpaths(v: Value, paths: list[Path]) -> Value:
    for path in sorted(paths, key=_PathKey, reverse=True):
        v = _delpath(v, path)
    return v


class _PathKey:
    def __init__(self, p: Path) -> None:
        self.p = p

    def __lt__(self, other: "_PathKey") -> bool:
        return compare(self.p, other.p) < 0


def _delpath(v: Value, path: Path) -> Value:
    if not path:
        return None
    if v is None:
        return None
    key = path[0]
    if len(path) == 1:
        if isinstance(key, str):
            if not isinstance(v, dict):
                raise JqError(f"Cannot delete field at object index of {type_name(v)}")
            out = dict(v)
            out.pop(key, None)
            return out
        if _num(key):
            if not isinstance(v, list):
                raise JqError(f"Cannot delete field at index of {type_name(v)}")
            i = int(math.floor(key))
            if i < 0:
                i += len(v)
            if 0 <= i < len(v):
                return v[:i] + v[i + 1 :]
            return v
        if isinstance(key, dict):
            if not isinstance(v, list):
                raise JqError(f"Cannot delete slice of {type_name(v)}")
            s, e = _clamp_slice(len(v), key.get("start"), key.get("end"))
            return v[:s] + v[e:]
        raise JqError("Invalid path component")
    child = index_value(v, key)
    if child is None:
        return v
    return setpath(v, [key], _delpath(child, path[1:]))


class Interp:
    def __init__(self) -> None:
        self.natives: dict[tuple[str, int], Function] = {}
        self.root_env = Env()
        self.inputs: Iterator[Value] = iter(())
        self.env_vars: dict[str, str] = {}
        self.stderr: Callable[[bytes], object] = lambda b: None
        self.current_filename: Value = None
        self.label_counter = 0
        self.ticks = 0
        self.check_time: Callable[[], None] | None = None
        # Bound once here: operators and formats import this module, so they cannot be
        # imported at module level, and importing inside eval would run on every evaluation.
        from .formats import apply_format
        from .operators import binop
        self.binop: Callable[[str, Value, Value], Value] = binop
        self.apply_format: Callable[[str, Value], str] = apply_format
        self.line_number: Callable[[], int] = lambda: 0

    # -- evaluation --------------------------------------------------------------------
    def eval(self, node: Node, v: Value, env: Env) -> Iterator[Value]:
        tag = node[0]
        if tag == "identity":
            yield v
        elif tag == "literal":
            yield node[1]
        elif tag == "index":
            opt = node[-1] == "opt"
            for target in self.eval(node[1], v, env):
                for key in self.eval(node[2], v, env):
                    if opt:
                        try:
                            item = index_value(target, key)
                        except JqError:
                            continue
                        yield item
                    else:
                        yield index_value(target, key)
        elif tag == "pipe":
            right = node[2]
            for x in self.eval(node[1], v, env):
                yield from self.eval(right, x, env)
        elif tag == "comma":
            yield from self.eval(node[1], v, env)
            yield from self.eval(node[2], v, env)
        elif tag == "iterate":
            for target in self.eval(node[1], v, env):
                if isinstance(target, list):
                    yield from target
                elif isinstance(target, dict):
                    yield from list(target.values())
                elif node[-1] == "opt":
                    continue
                else:
                    raise JqError(f"Cannot iterate over {describe(target) if target is not None else 'null'}")
        elif tag == "slice":
            for target in self.eval(node[1], v, env):
                for end in (self.eval(node[3], v, env) if node[3] is not None else [None]):
                    for start in (self.eval(node[2], v, env) if node[2] is not None else [None]):
                        try:
                            item = slice_value(target, start, end)
                        except JqError:
                            if node[-1] == "opt":
                                continue
                            raise
                        yield item
        elif tag == "call":
            yield from self.call(node, v, env)
        elif tag == "string":
            yield from self.eval_string(node[1], node[2], v, env)
        elif tag == "format":
            yield self.apply_format(node[1], v)
        elif tag == "array":
            if node[1] is None:
                yield []
            else:
                # a comprehension, not list(): CPython runs its loop over the generator in
                # this frame; list() resumed it from C, a deeper wasm stack per level
                yield [x for x in self.eval(node[1], v, env)]
        elif tag == "object":
            yield from self.eval_object(node[1], 0, {}, v, env)
        elif tag == "neg":
            for x in self.eval(node[1], v, env):
                if not _num(x):
                    raise JqError(f"{describe(x)} cannot be negated")
                yield -x
        elif tag == "binop":
            op = node[1]
            binop = self.binop
            for b in self.eval(node[3], v, env):
                for a in self.eval(node[2], v, env):
                    yield binop(op, a, b)
        elif tag == "and":
            for a in self.eval(node[1], v, env):
                if not truthy(a):
                    yield False
                    continue
                for b in self.eval(node[2], v, env):
                    yield truthy(b)
        elif tag == "or":
            for a in self.eval(node[1], v, env):
                if truthy(a):
                    yield True
                    continue
                for b in self.eval(node[2], v, env):
                    yield truthy(b)
        elif tag == "alt":
            # jq 1.6 does not swallow errors raised on the left of //.
            any_ok = False
            for x in self.eval(node[1], v, env):
                if truthy(x):
                    any_ok = True
                    yield x
            if not any_ok:
                yield from self.eval(node[2], v, env)
        elif tag == "if":
            for c in self.eval(node[1], v, env):
                if truthy(c):
                    yield from self.eval(node[2], v, env)
                elif node[3] is None:
                    yield v
                else:
                    yield from self.eval(node[3], v, env)
        elif tag == "try":
            yield from self.eval_try(node, v, env)
        else:
            yield from self.eval_binding(node, v, env)

    def eval_binding(self, node: Node, v: Value, env: Env) -> Iterator[Value]:
        """The forms that bind or jump: ``$var``, ``as``, ``reduce``, ``foreach``, ``def``,
        ``label`` and ``break``."""
        tag = node[0]
        if tag == "var":
            name = node[1]
            if name == "ENV":
                try:
                    yield env.lookup_var(name)
                except KeyError:
                    yield dict(self.env_vars)
                return
            try:
                yield env.lookup_var(name)
            except KeyError:
                raise JqError(f"${name} is not defined") from None
        elif tag == "as":
            for x in self.eval(node[1], v, env):
                yield from self.bind_patterns(node[2], x, env, lambda e: self.eval(node[3], v, e))
        elif tag == "reduce":
            _, source, pattern, init, update = node
            for acc in self.eval(init, v, env):
                state: list[Value] = [acc]
                for x in self.eval(source, v, env):
                    for bound in self.bind(pattern, x, env):
                        outs = list(self.eval(update, state[0], bound))
                        state[0] = outs[-1] if outs else None
                yield state[0]
        elif tag == "foreach":
            _, source, pattern, init, update, extract = node
            for acc in self.eval(init, v, env):
                cur = acc
                for x in self.eval(source, v, env):
                    for bound in self.bind(pattern, x, env):
                        for new in self.eval(update, cur, bound):
                            cur = new
                            if extract is None:
                                yield new
                            else:
                                yield from self.eval(extract, new, bound)
        elif tag == "def":
            _, name, params, body, rest = node
            new_env = Env(env)
            new_env.funcs[(name, len(params))] = Function(params, body, new_env)
            yield from self.eval(rest, v, new_env)
        elif tag == "assign":
            yield from self.eval_assign(node, v, env)
        elif tag == "label":
            self.label_counter += 1
            token = object()
            new_env = Env(env)
            new_env.labels[node[1]] = token
            try:
                yield from self.eval(node[2], v, new_env)
            except BreakOut as brk:
                if brk.label is not token:
                    raise
        elif tag == "break":
            try:
                token = env.lookup_label(node[1])
            except KeyError:
                raise JqError("$*label-" + node[1] + " is not defined") from None
            raise BreakOut(token)
        else:
            raise JqError(f"unsupported expression {tag}")

    def eval_try(self, node: Node, v: Value, env: Env) -> Iterator[Value]:
        gen = self.eval(node[1], v, env)
        while True:
            try:
                x = next(gen)
            except StopIteration:
                return
            except JqError as err:
                # error(null) behaves like backtracking in jq 1.6: nothing reaches catch.
                if node[2] is not None and err.value is not None:
                    yield from self.eval(node[2], err.value, env)
                return
            yield x

    def eval_string(self, parts: list[Any], fmt: str | None, v: Value, env: Env) -> Iterator[Value]:
        apply_format = self.apply_format

        def rec(i: int, prefix: str) -> Iterator[str]:
            if i == len(parts):
                yield prefix
                return
            part = parts[i]
            if isinstance(part, str):
                yield from rec(i + 1, prefix + part)
                return
            for x in self.eval(part, v, env):
                if fmt is None:
                    text = x if isinstance(x, str) else dumps(x)
                else:
                    text = apply_format(fmt, x)
                yield from rec(i + 1, prefix + text)
        yield from rec(0, "")

    def eval_object(self, entries: list[tuple[Node, Node | None]], i: int, acc: dict[str, Value],
                    v: Value, env: Env) -> Iterator[Value]:
        if i == len(entries):
            yield dict(acc)
            return
        key_node, value_node = entries[i]
        for key in self.eval(key_node, v, env):
            if value_node is None:
                if key_node[0] == "var":
                    values: Iterator[Value] = self.eval(key_node, v, env)
                    key = key_node[1]
                else:
                    if not isinstance(key, str):
                        raise JqError(f"Cannot index {type_name(v)} with {type_name(key)}")
                    values = iter([index_value(v, key)])
            else:
                values = self.eval(value_node, v, env)
            if not isinstance(key, str):
                if key_node[0] == "var":
                    pass
                else:
                    raise JqError(f"Object keys must be strings")
            for val in values:
                nxt = dict(acc)
                nxt[key] = val
                yield from self.eval_object(entries, i + 1, nxt, v, env)

    # -- variables and patterns --------------------------------------------------------
    def bind(self, pattern: Node, value: Value, env: Env) -> Iterator[Env]:
        new_env = Env(env)
        for _ in self._bind(pattern, value, new_env, env):
            yield new_env

    def _bind(self, pattern: Node, value: Value, target: Env, env: Env) -> Iterator[None]:
        tag = pattern[0]
        if tag == "pvar":
            target.vars[pattern[1]] = value
            yield None
            return
        if tag == "parray":
            if value is not None and not isinstance(value, list):
                raise JqError(f"Cannot index {type_name(value)} with number")
            items = pattern[1]

            def rec(i: int) -> Iterator[None]:
                if i == len(items):
                    yield None
                    return
                elem = index_value(value, float(i))
                for _ in self._bind(items[i], elem, target, env):
                    yield from rec(i + 1)
            yield from rec(0)
            return
        if tag == "pobject":
            entries = pattern[1]

            def rec_obj(i: int) -> Iterator[None]:
                if i == len(entries):
                    yield None
                    return
                key_node, sub = entries[i]
                if key_node[0] == "bindkey":
                    name = key_node[1]
                    elem = index_value(value, name)
                    target.vars[name] = elem
                    for _ in self._bind(sub, elem, target, env):
                        yield from rec_obj(i + 1)
                    return
                for key in self.eval(key_node, value, target):
                    if not isinstance(key, str):
                        raise JqError(f"Cannot index {type_name(value)} with {type_name(key)}")
                    elem = index_value(value, key)
                    for _ in self._bind(sub, elem, target, env):
                        yield from rec_obj(i + 1)
            yield from rec_obj(0)
            return
        raise JqError("bad pattern")

    def bind_patterns(self, patterns: list[Node], value: Value, env: Env,
                      body: Callable[[Env], Iterator[Value]]) -> Iterator[Value]:
        if len(patterns) == 1:
            for bound in self.bind(patterns[0], value, env):
                yield from body(bound)
            return
        # ?// destructuring alternatives: all variables of all patterns exist (null).
        names: list[str] = []

        def collect(p: Node) -> None:
            if p[0] == "pvar":
                names.append(p[1])
            elif p[0] == "parray":
                for q in p[1]:
                    collect(q)
            elif p[0] == "pobject":
                for k, q in p[1]:
                    if k[0] == "bindkey":
                        names.append(k[1])
                    if q is not None:
                        collect(q)
        for p in patterns:
            collect(p)
        for i, pattern in enumerate(patterns):
            base = Env(env, {n: None for n in names})
            try:
                results: list[Value] = []
                for bound in self.bind(pattern, value, base):
                    results.extend(body(bound))
                yield from results
                return
            except JqError:
                if i == len(patterns) - 1:
                    raise

    # -- function calls ----------------------------------------------------------------
    def tick(self) -> None:
        """Called on every function call: lets the shell's timeout fire in endless filters."""
        self.ticks += 1
        if self.ticks & 63 == 0 and self.check_time is not None:
            self.check_time()

    def call(self, node: Node, v: Value, env: Env) -> Iterator[Value]:
        self.tick()
        name, args = node[1], node[2]
        key = (name, len(args))
        f = env.lookup_func(key)
        if f is None:
            f = self.natives.get(key)
            if f is None:
                raise JqError(f"{name}/{len(args)} is not defined")
        if isinstance(f, Closure):
            yield from self.eval(f.node, v, f.env)
            return
        if f.native is not None:
            yield from f.native(self, v, env, *[Closure(a, env) for a in args])
            return
        yield from self.call_function(f, args, v, env)

    def call_function(self, f: Function, args: list[Node], v: Value, env: Env) -> Iterator[Value]:
        assert f.env is not None
        value_params = [i for i, p in enumerate(f.params) if p.startswith("$")]
        if not value_params:
            call_env = Env(f.env)
            for p, a in zip(f.params, args):
                call_env.funcs[(p, 0)] = Closure(a, env)
            yield from self.eval(f.body, v, call_env)
            return

        def rec(i: int, bindings: dict[str, Value]) -> Iterator[Value]:
            if i == len(value_params):
                call_env = Env(f.env)
                for j, (p, a) in enumerate(zip(f.params, args)):
                    if p.startswith("$"):
                        call_env.vars[p[1:]] = bindings[p[1:]]
                        call_env.funcs[(p[1:], 0)] = Closure(("literal", bindings[p[1:]]), env)
                    else:
                        call_env.funcs[(p, 0)] = Closure(a, env)
                yield from self.eval(f.body, v, call_env)
                return
            idx = value_params[i]
            for x in self.eval(args[idx], v, env):
                b = dict(bindings)
                b[f.params[idx][1:]] = x
                yield from rec(i + 1, b)
        yield from rec(0, {})

    # -- paths ---------------------------------------------------------------------------
    def paths(self, node: Node, v: Value, env: Env, base: Path | None = None) -> Iterator[tuple[Path, Value]]:
        """Yield (path, value) for each output of a path expression applied to ``v``."""
        base = base or []
        tag = node[0]
        if tag == "identity":
            yield base, v
        elif tag == "index":
            for p, target in self.paths(node[1], v, env, base):
                for key in self.eval(node[2], v, env):
                    try:
                        if isinstance(key, dict) and "start" in key:
                            item = slice_value(target, key.get("start"), key.get("end"))
                        else:
                            item = index_value(target, key)
                    except JqError:
                        if node[-1] == "opt":
                            continue
                        raise
                    yield p + [key], item
        elif tag == "slice":
            for p, target in self.paths(node[1], v, env, base):
                for end in (self.eval(node[3], v, env) if node[3] is not None else [None]):
                    for start in (self.eval(node[2], v, env) if node[2] is not None else [None]):
                        yield p + [{"start": start, "end": end}], slice_value(target, start, end)
        elif tag == "iterate":
            for p, target in self.paths(node[1], v, env, base):
                if isinstance(target, list):
                    for i, x in enumerate(target):
                        yield p + [float(i)], x
                elif isinstance(target, dict):
                    for k, x in list(target.items()):
                        yield p + [k], x
                elif target is None or node[-1] == "opt":
                    continue
                else:
                    raise JqError(f"Cannot iterate over {describe(target)}")
        elif tag == "pipe":
            for p, x in self.paths(node[1], v, env, base):
                yield from self.paths(node[2], x, env, p)
        elif tag == "comma":
            yield from self.paths(node[1], v, env, base)
            yield from self.paths(node[2], v, env, base)
        elif tag == "if":
            for c in self.eval(node[1], v, env):
                if truthy(c):
                    yield from self.paths(node[2], v, env, base)
                elif node[3] is None:
                    yield base, v
                else:
                    yield from self.paths(node[3], v, env, base)
        elif tag == "alt":
            found = False
            for p, x in self.paths(node[1], v, env, base):
                if truthy(x):
                    found = True
                    yield p, x
            if not found:
                yield from self.paths(node[2], v, env, base)
        elif tag == "try":
            gen = self.paths(node[1], v, env, base)
            while True:
                try:
                    item = next(gen)
                except StopIteration:
                    return
                except JqError as err:
                    if node[2] is not None:
                        for _ in self.eval(node[2], err.value, env):
                            raise JqError("Invalid path expression")
                    return
                yield item
        elif tag == "call":
            yield from self.call_paths(node, v, env, base)
        elif tag == "as":
            for x in self.eval(node[1], v, env):
                for bound in self.bind(node[2][0], x, env):
                    yield from self.paths(node[3], v, bound, base)
        elif tag == "def":
            _, name, params, body, rest = node
            new_env = Env(env)
            new_env.funcs[(name, len(params))] = Function(params, body, new_env)
            yield from self.paths(rest, v, new_env, base)
        elif tag == "reduce":
            _, source, pattern, init, update = node
            for acc_p, acc in self.paths(init, v, env, base):
                state = (acc_p, acc)
                for x in self.eval(source, v, env):
                    for bound in self.bind(pattern, x, env):
                        outs = list(self.paths(update, state[1], bound, state[0]))
                        state = outs[-1] if outs else (state[0], None)
                yield state
        elif tag == "foreach":
            _, source, pattern, init, update, extract = node
            for acc_p, acc in self.paths(init, v, env, base):
                cur = (acc_p, acc)
                for x in self.eval(source, v, env):
                    for bound in self.bind(pattern, x, env):
                        for new in self.paths(update, cur[1], bound, cur[0]):
                            cur = new
                            if extract is None:
                                yield new
                            else:
                                yield from self.paths(extract, new[1], bound, new[0])
        elif tag == "label":
            token = object()
            new_env = Env(env)
            new_env.labels[node[1]] = token
            try:
                yield from self.paths(node[2], v, new_env, base)
            except BreakOut as brk:
                if brk.label is not token:
                    raise
        elif tag == "break":
            yield from self.eval(node, v, env)
        elif tag == "literal" and node[1] is None:
            yield base, None
        else:
            for x in self.eval(node, v, env):
                raise JqError(f"Invalid path expression with result {trunc_dump(x)}")

    def call_paths(self, node: Node, v: Value, env: Env, base: Path) -> Iterator[tuple[Path, Value]]:
        name, args = node[1], node[2]
        key = (name, len(args))
        f = env.lookup_func(key)
        if f is None:
            f = self.natives.get(key)
            if f is None:
                raise JqError(f"{name}/{len(args)} is not defined")
        if isinstance(f, Closure):
            yield from self.paths(f.node, v, f.env, base)
            return
        if f.native is not None:
            if f.native_paths is None:
                for x in f.native(self, v, env, *[Closure(a, env) for a in args]):
                    raise JqError(f"Invalid path expression with result {trunc_dump(x)}")
                return
            yield from f.native_paths(self, v, env, base, *[Closure(a, env) for a in args])
            return
        assert f.env is not None
        value_params = [i for i, p in enumerate(f.params) if p.startswith("$")]

        def rec(i: int, bindings: dict[str, Value]) -> Iterator[tuple[Path, Value]]:
            if i == len(value_params):
                call_env = Env(f.env)
                for p, a in zip(f.params, args):
                    if p.startswith("$"):
                        call_env.vars[p[1:]] = bindings[p[1:]]
                        call_env.funcs[(p[1:], 0)] = Closure(("literal", bindings[p[1:]]), env)
                    else:
                        call_env.funcs[(p, 0)] = Closure(a, env)
                yield from self.paths(f.body, v, call_env, base)
                return
            idx = value_params[i]
            for x in self.eval(args[idx], v, env):
                b = dict(bindings)
                b[f.params[idx][1:]] = x
                yield from rec(i + 1, b)
        yield from rec(0, {})

    # -- assignment --------------------------------------------------------------------
    def eval_assign(self, node: Node, v: Value, env: Env) -> Iterator[Value]:
        _, op, lhs, rhs = node
        if op == "|=":
            yield self.modify(lhs, v, env, lambda old: self.first_or_none(rhs, old, env))
            return
        if op == "=":
            for value in self.eval(rhs, v, env):
                out = v
                for p, _ in list(self.paths(lhs, v, env)):
                    out = setpath(out, p, value)
                yield out
            return
        binop = self.binop
        for rvalue in self.eval(rhs, v, env):
            if op == "//=":
                yield self.modify(lhs, v, env, lambda old: (True, old if truthy(old) else rvalue))
            else:
                arith = op[:-1]
                yield self.modify(lhs, v, env, lambda old: (True, binop(arith, old, rvalue)))

    def first_or_none(self, node: Node, value: Value, env: Env) -> tuple[bool, Value]:
        for x in self.eval(node, value, env):
            return True, x
        return False, None

    def modify(self, lhs: Node, v: Value, env: Env, update: Callable[[Value], tuple[bool, Value]]) -> Value:
        out = v
        for p, _ in list(self.paths(lhs, v, env)):
            ok, new = update(getpath(out, p))
            if ok:
                out = setpath(out, p, new)
            else:
                out = delpaths(out, [p])
        return out
