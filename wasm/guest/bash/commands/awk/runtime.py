"""awk runtime: compiles the tuple AST of ``parse`` to closures and runs the program.

Output is collected in ``self.out`` and handed to the command generator after each input
record, so ``awk`` streams over a pipeline. Input records are read lazily with RS rules
(newline, single character, paragraph mode, regex). Values follow ``value``.
"""

from __future__ import annotations

import math
import os
import re
import time
from typing import Any, Callable, Iterator

from .array import MawkArray
from .format import FormatError, awk_format
from .parse import Node
from .value import UNINIT, Glibc, StrNum, d_to_int, is_numeric, mkfield, num_to_str, to_bool, to_num
from ..sed import RegexError, argv_text, bytes_text, compile_posix
from ..base import CommandContext

Fn = Callable[[], Any]


class AwkError(Exception):
    """A run-time error: ``awk: run time error: ...``; exit status 2."""


class _Next(Exception):
    pass


class _NextFile(Exception):
    pass


class _Exit(Exception):
    pass


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class RecordReader:
    """Splits a stream of byte chunks into records according to RS.

    ``buf[pos:]`` is the unread text; consuming a record only moves ``pos`` (slicing the
    buffer per record would make a single large chunk quadratic to read).
    """

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks
        self.buf = ""
        self.pos = 0
        self.eof = False

    def _fill(self) -> bool:
        if self.eof:
            return False
        for chunk in self.chunks:
            if chunk:
                self.buf = self.buf[self.pos :] + chunk.decode("latin-1")
                self.pos = 0
                return True
        self.eof = True
        return False

    def _take_rest(self) -> str | None:
        if self.pos < len(self.buf):
            record = self.buf[self.pos :]
            self.buf = ""
            self.pos = 0
            return record
        return None

    def read(self, rs: str) -> str | None:
        if len(rs) == 1:
            while True:
                cut = self.buf.find(rs, self.pos)
                if cut >= 0:
                    record = self.buf[self.pos : cut]
                    self.pos = cut + 1
                    return record
                if not self._fill():
                    return self._take_rest()
        if rs == "":
            return self._read_paragraph()
        return self._read_regex(rs)

    def _read_paragraph(self) -> str | None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] == "\n":
                self.pos += 1
            if self.pos < len(self.buf) or not self._fill():
                break
        rx = re.compile(r"\n\n+")
        while True:
            m = rx.search(self.buf, self.pos)
            if m is not None and (m.end() < len(self.buf) or self.eof):
                record = self.buf[self.pos : m.start()]
                self.pos = m.end()
                return record
            if not self._fill():
                rest = self._take_rest()
                return rest.rstrip("\n") if rest is not None else None

    def _read_regex(self, rs: str) -> str | None:
        try:
            rx = compile_posix(rs, True, awk=True)
        except RegexError:
            rx = re.compile(re.escape(rs))
        while True:
            m = rx.search(self.buf, self.pos)
            if m is not None and m.end() > m.start() and (m.end() < len(self.buf) or self.eof):
                record = self.buf[self.pos : m.start()]
                self.pos = m.end()
                return record
            if not self._fill():
                return self._take_rest()


class Runtime:
    def __init__(self, ctx: CommandContext, items: list[Node], functions: dict[str, Node],
                 assigns: list[tuple[str, str]], operands: list[str]) -> None:
        self.ctx = ctx
        self.ticks = 0
        check = ctx.extras.get("check_time")
        self.check_time: Callable[[], None] | None = check if callable(check) else None
        self.out: list[str] = []
        # Output mawk would already have written to fd 1. While a "print | cmd" pipe is
        # open, ``out`` plays the part of mawk's stdio buffer so the command's output lands
        # where it does with the real mawk (after flushed text, before buffered text).
        self.flushed: list[str] = []
        self.g: dict[str, Any] = {
            "FS": " ", "OFS": " ", "ORS": "\n", "RS": "\n", "NR": 0.0, "FNR": 0.0,
            "SUBSEP": "\x1c", "CONVFMT": "%.6g", "OFMT": "%.6g", "FILENAME": "",
            "RSTART": 0.0, "RLENGTH": -1.0,
        }
        env = self.new_array()
        for key, value in ctx.env.items():
            env[bytes_text(key)] = mkfield(bytes_text(value))
        self.g["ENVIRON"] = env
        # mawk fills ARGV by number (its integer table), which shapes for-in order.
        argv = self.new_array()
        argv[0.0] = "awk"
        for i, operand in enumerate(operands, 1):
            argv[float(i)] = mkfield(bytes_text(operand))
        self.g["ARGV"] = argv
        self.g["ARGC"] = float(len(operands) + 1)
        for name, value in assigns:
            self.g[name] = mkfield(bytes_text(value))
        self.record = ""
        self.fields: list[str] = []
        self.nf = 0
        self.split_done = True
        self.frame: dict[str, Any] = {}
        self.depth = 0
        self.regex_cache: dict[str, re.Pattern[str]] = {}
        self.outputs: dict[str, Any] = {}
        self.inputs: dict[str, RecordReader | None] = {}
        self.rng = Glibc(0)
        self.seed: Any = 0.0
        self.exit_status = 0
        self.argind = 0
        self.main_reader: RecordReader | None = None
        self.main_done = False
        self.used_stdin = False
        self.functions_src = functions
        self.functions: dict[str, tuple[list[str], Fn, set[str]]] = {}
        self.array_params = self._array_params(functions)
        for name, (_, _, params, body) in ((k, v) for k, v in functions.items()):
            self.functions[name] = (params, self.noop, self.array_params[name])
        for name, (_, _, params, body) in ((k, v) for k, v in functions.items()):
            self.functions[name] = (params, self.stmt(body), self.array_params[name])
        self.begin: list[Fn] = []
        self.end: list[Fn] = []
        self.rules: list[Fn] = []
        for item in items:
            kind = item[0]
            if kind == "BEGIN":
                self.begin.append(self.stmt(item[1]))
            elif kind == "END":
                self.end.append(self.stmt(item[1]))
            else:
                self.rules.append(self.rule(item))

    @staticmethod
    def noop() -> None:
        return None

    def tick(self) -> None:
        """Called on every loop iteration and function call: lets the shell's timeout fire."""
        self.ticks += 1
        if self.ticks & 1023 == 0 and self.check_time is not None:
            self.check_time()

    # -- static analysis -------------------------------------------------------------
    def _array_params(self, functions: dict[str, Node]) -> dict[str, set[str]]:
        result: dict[str, set[str]] = {name: set() for name in functions}

        def walk(node: Any, fname: str, calls: list[tuple[str, list[Node]]]) -> None:
            if isinstance(node, tuple) and node:
                tag = node[0]
                if tag in ("index", "in", "delete", "forin"):
                    ref = node[1] if tag in ("index", "delete") else node[2]
                    if tag == "forin":
                        ref = node[2]
                    if isinstance(ref, tuple) and ref[0] == "local":
                        result[fname].add(ref[1])
                if tag == "builtin" and node[1] == "split" and len(node[2]) >= 2:
                    arg = node[2][1]
                    if arg[0] == "var" and arg[1][0] == "local":
                        result[fname].add(arg[1][1])
                if tag == "call":
                    calls.append((node[1], node[2]))
                for child in node[1:]:
                    walk(child, fname, calls)
            elif isinstance(node, list):
                for child in node:
                    walk(child, fname, calls)

        all_calls: dict[str, list[tuple[str, list[Node]]]] = {}
        for name, (_, _, params, body) in functions.items():
            calls: list[tuple[str, list[Node]]] = []
            walk(body, name, calls)
            all_calls[name] = calls
        changed = True
        while changed:
            changed = False
            for name, calls in all_calls.items():
                for callee, args in calls:
                    if callee not in functions:
                        continue
                    cparams = functions[callee][2]
                    for i, arg in enumerate(args):
                        if i < len(cparams) and cparams[i] in result[callee]:
                            if arg[0] == "var" and arg[1][0] == "local" and arg[1][1] not in result[name]:
                                result[name].add(arg[1][1])
                                changed = True
        return result

    # -- conversions -----------------------------------------------------------------
    def to_str(self, v: Any) -> str:
        if type(v) is float:
            if v == v and v not in (math.inf, -math.inf) and v == int(v) and -2147483647 <= v <= 2147483647:
                return str(int(v))
            return num_to_str(v, self.convfmt())
        if isinstance(v, str):
            return v
        raise AwkError("can't use array in scalar context")

    def to_out(self, v: Any) -> str:
        if type(v) is float:
            if v == v and v not in (math.inf, -math.inf) and v == int(v) and -2147483647 <= v <= 2147483647:
                return str(int(v))
            return num_to_str(v, self.to_str(self.g.get("OFMT", "%.6g")))
        if isinstance(v, str):
            return v
        raise AwkError("can't use array in scalar context")

    def convfmt(self) -> str:
        value = self.g.get("CONVFMT", "%.6g")
        return value if isinstance(value, str) else "%.6g"

    def regex(self, pattern: str) -> re.Pattern[str]:
        rx = self.regex_cache.get(pattern)
        if rx is None:
            try:
                rx = compile_posix(pattern, True, awk=True)
            except RegexError as exc:
                raise AwkError(f"regular expression compile failed ({exc})\n{pattern}") from None
            if len(self.regex_cache) > 500:
                self.regex_cache.clear()
            self.regex_cache[pattern] = rx
        return rx

    def regex_of(self, node: Node) -> Callable[[], re.Pattern[str]]:
        if node[0] == "regex":
            rx = self.regex(node[1])
            return lambda: rx
        value = self.expr(node)
        return lambda: self.regex(self.to_str(value()))

    # -- fields ----------------------------------------------------------------------
    def set_record(self, text: str) -> None:
        self.record = text
        self.split_done = False

    def split_record(self) -> None:
        self.fields = self.split_text(self.record, self.g.get("FS", " "), raw=True)
        self.nf = len(self.fields)
        self.split_done = True

    def split_text(self, text: str, fs: Any, raw: bool = False) -> list[str]:
        """Split like awk's field splitting; ``raw`` skips the numeric-string check
        (record fields get it lazily, on access)."""
        if isinstance(fs, re.Pattern):
            parts = self._split_groups(fs, text) if text else []
        else:
            fs = self.to_str(fs)
            if fs == " ":
                if "\t" not in text and "\n" not in text:
                    parts = [p for p in text.split(" ") if p]
                else:
                    stripped = text.strip(" \t\n")
                    parts = re.split(r"[ \t\n]+", stripped) if stripped else []
            elif text == "":
                parts = []
            elif fs == "":
                parts = list(text)
            elif len(fs) == 1 and fs != "\\":
                # mawk does not add newline as a separator in paragraph mode here.
                parts = text.split(fs)
            else:
                parts = self._split_groups(self.regex(fs), text)
        if raw:
            return parts
        return [mkfield(p) for p in parts]

    @staticmethod
    def _split_groups(rx: re.Pattern[str], text: str) -> list[str]:
        """Split on non-empty matches only (unlike re.split, which also splits on empty
        matches and returns groups)."""
        if rx.groups == 0 and rx.search("") is None:
            return rx.split(text)
        parts: list[str] = []
        pos = 0
        for m in rx.finditer(text):
            if m.end() == m.start():
                continue
            parts.append(text[pos : m.start()])
            pos = m.end()
        parts.append(text[pos:])
        return parts

    def get_field(self, i: int) -> Any:
        if i == 0:
            return mkfield(self.record) if not isinstance(self.record, StrNum) else self.record
        if i < 0:
            raise AwkError(f"negative field index ${i}")
        if not self.split_done:
            self.split_record()
        if i <= self.nf:
            value = self.fields[i - 1]
            if type(value) is str:
                value = self.fields[i - 1] = mkfield(value)
            return value
        return UNINIT

    def set_field(self, i: int, value: Any) -> None:
        if i == 0:
            self.set_record(self.to_str(value))
            return
        if i < 0:
            raise AwkError(f"negative field index ${i}")
        if not self.split_done:
            self.split_record()
        while self.nf < i:
            self.fields.append(UNINIT)
            self.nf += 1
        self.fields[i - 1] = value
        self.rebuild()

    def rebuild(self) -> None:
        ofs = self.to_str(self.g.get("OFS", " "))
        self.record = ofs.join(self.to_str(f) for f in self.fields[: self.nf])

    def get_nf(self) -> float:
        if not self.split_done:
            self.split_record()
        return float(self.nf)

    def set_nf(self, value: Any) -> None:
        if not self.split_done:
            self.split_record()
        n = d_to_int(to_num(value))
        if n < 0:
            raise AwkError(f"NF set to negative value")
        if n < self.nf:
            del self.fields[n:]
        while len(self.fields) < n:
            self.fields.append(UNINIT)
        self.nf = n
        self.rebuild()

    # -- variables -------------------------------------------------------------------
    def new_array(self) -> MawkArray:
        return MawkArray(self.to_str)

    def get_array(self, ref: Node) -> MawkArray:
        store = self.frame if ref[0] == "local" else self.g
        name = ref[1]
        value = store.get(name)
        if isinstance(value, MawkArray):
            return value
        if value is None or value is UNINIT:
            arr = self.new_array()
            store[name] = arr
            return arr
        raise AwkError(f"can't use scalar {name} as array")

    def subscript(self, subs: list[Node]) -> Fn:
        if len(subs) == 1:
            # The raw value: mawk looks integral numbers up in its integer table.
            return self.expr(subs[0])
        fns = [self.expr(s) for s in subs]
        return lambda: self.to_str(self.g.get("SUBSEP", "\x1c")).join(self.to_str(f()) for f in fns)

    def getter(self, node: Node) -> Fn:
        tag = node[0]
        if tag == "var":
            ref = node[1]
            name = ref[1]
            if ref[0] == "local":
                def get_local() -> Any:
                    v = self.frame.get(name, UNINIT)
                    if isinstance(v, dict):
                        raise AwkError(f"can't use array {name} in scalar context")
                    return v
                return get_local
            if name == "NF":
                return self.get_nf
            g = self.g

            def get_global() -> Any:
                v = g.get(name, UNINIT)
                if isinstance(v, dict):
                    raise AwkError(f"can't use array {name} in scalar context")
                return v
            return get_global
        if tag == "field":
            idx = self.expr(node[1])
            return lambda: self.get_field(d_to_int(to_num(idx())))
        if tag == "index":
            ref = node[1]
            sub = self.subscript(node[2])

            def get_index() -> Any:
                return self.get_array(ref).get(sub())
            return get_index
        raise AssertionError(tag)

    def setter(self, node: Node) -> Callable[[Any], None]:
        tag = node[0]
        if tag == "var":
            ref = node[1]
            name = ref[1]
            if ref[0] == "local":
                def set_local(v: Any) -> None:
                    if isinstance(self.frame.get(name), dict):
                        raise AwkError(f"can't assign to array {name}")
                    self.frame[name] = v
                return set_local
            if name == "NF":
                return self.set_nf
            g = self.g

            def set_global(v: Any) -> None:
                if isinstance(g.get(name), dict):
                    raise AwkError(f"can't assign to array {name}")
                g[name] = v
            return set_global
        if tag == "field":
            idx = self.expr(node[1])
            return lambda v: self.set_field(d_to_int(to_num(idx())), v)
        if tag == "index":
            ref = node[1]
            sub = self.subscript(node[2])

            def set_index(v: Any) -> None:
                self.get_array(ref)[sub()] = v
            return set_index
        raise AssertionError(tag)

    def lvalue_pair(self, node: Node) -> tuple[Fn, Callable[[Any], None]]:
        """Getter and setter that evaluate the subscript/field index only once."""
        tag = node[0]
        if tag == "var":
            return self.getter(node), self.setter(node)
        if tag == "field":
            idx = self.expr(node[1])
            cell: list[int] = [0]

            def get_f() -> Any:
                cell[0] = d_to_int(to_num(idx()))
                return self.get_field(cell[0])
            return get_f, lambda v: self.set_field(cell[0], v)
        ref = node[1]
        sub = self.subscript(node[2])
        key_cell: list[Any] = [None, ""]

        def get_i() -> Any:
            arr = self.get_array(ref)
            key = sub()
            key_cell[0] = arr
            key_cell[1] = key
            return arr.get(key)

        def set_i(v: Any) -> None:
            key_cell[0][key_cell[1]] = v
        return get_i, set_i

    # -- expressions -----------------------------------------------------------------
    def expr(self, node: Node) -> Fn:
        tag = node[0]
        method = getattr(self, "x_" + tag)
        return method(node)  # type: ignore[no-any-return]

    def x_num(self, node: Node) -> Fn:
        value = float(node[1])
        return lambda: value

    def x_str(self, node: Node) -> Fn:
        value = node[1]
        return lambda: value

    def x_regex(self, node: Node) -> Fn:
        rx = self.regex(node[1])
        return lambda: 1.0 if rx.search(self.record) else 0.0

    def x_group(self, node: Node) -> Fn:
        return self.expr(node[1])

    def x_var(self, node: Node) -> Fn:
        return self.getter(node)

    def x_field(self, node: Node) -> Fn:
        inner = node[1]
        if inner[0] == "num":
            i = d_to_int(float(inner[1]))
            return lambda: self.get_field(i)
        return self.getter(node)

    def x_index(self, node: Node) -> Fn:
        return self.getter(node)

    def x_assign(self, node: Node) -> Fn:
        _, op, target, value_node = node
        value = self.expr(value_node)
        if op == "=":
            setter = self.setter(target)

            def assign() -> Any:
                v = value()
                if isinstance(v, dict):
                    raise AwkError("can't assign array")
                setter(v)
                return v
            return assign
        get, put = self.lvalue_pair(target)
        arith = self.arith(op[0])

        def assign_op() -> Any:
            # mawk evaluates the right-hand side before reading the target.
            rhs = to_num(value())
            v = arith(to_num(get()), rhs)
            put(v)
            return v
        return assign_op

    @staticmethod
    def arith(op: str) -> Callable[[float, float], float]:
        if op == "+":
            return lambda a, b: a + b
        if op == "-":
            return lambda a, b: a - b
        if op == "*":
            return lambda a, b: a * b

        def div(a: float, b: float) -> float:
            if b == 0.0:
                if a == 0.0 or a != a:
                    return -math.nan
                return math.copysign(math.inf, a) * math.copysign(1.0, b)
            return a / b

        def mod(a: float, b: float) -> float:
            if b == 0.0 or math.isinf(a):
                return -math.nan
            return math.fmod(a, b)

        def power(a: float, b: float) -> float:
            try:
                return math.pow(a, b)
            except OverflowError:
                return math.inf
            except ValueError:
                return -math.nan
        return {"/": div, "%": mod, "^": power}[op]

    def x_binop(self, node: Node) -> Fn:
        _, op, a, b = node
        fa, fb = self.expr(a), self.expr(b)
        if op == "+":
            return lambda: to_num(fa()) + to_num(fb())
        if op == "-":
            return lambda: to_num(fa()) - to_num(fb())
        if op == "*":
            return lambda: to_num(fa()) * to_num(fb())
        arith = self.arith(op)
        return lambda: arith(to_num(fa()), to_num(fb()))

    def x_neg(self, node: Node) -> Fn:
        f = self.expr(node[1])
        return lambda: -to_num(f())

    def x_pos(self, node: Node) -> Fn:
        f = self.expr(node[1])
        return lambda: to_num(f())

    def x_not(self, node: Node) -> Fn:
        f = self.expr(node[1])
        return lambda: 0.0 if to_bool(f()) else 1.0

    def x_and(self, node: Node) -> Fn:
        a, b = self.expr(node[1]), self.expr(node[2])
        return lambda: 1.0 if to_bool(a()) and to_bool(b()) else 0.0

    def x_or(self, node: Node) -> Fn:
        a, b = self.expr(node[1]), self.expr(node[2])
        return lambda: 1.0 if to_bool(a()) or to_bool(b()) else 0.0

    def x_cond(self, node: Node) -> Fn:
        c, a, b = self.expr(node[1]), self.expr(node[2]), self.expr(node[3])
        return lambda: a() if to_bool(c()) else b()

    def x_concat(self, node: Node) -> Fn:
        parts: list[Node] = []
        n = node
        while n[0] == "concat":
            parts.append(n[2])
            n = n[1]
        parts.append(n)
        parts.reverse()
        fns = [self.expr(p) for p in parts]
        to_str = self.to_str
        if len(fns) == 2:
            f0, f1 = fns
            return lambda: to_str(f0()) + to_str(f1())
        return lambda: "".join([to_str(f()) for f in fns])

    def x_cmp(self, node: Node) -> Fn:
        _, op, a, b = node
        fa, fb = self.expr(a), self.expr(b)
        import operator
        pyop = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
                ">": operator.gt, ">=": operator.ge}[op]
        to_str = self.to_str

        def compare() -> float:
            x, y = fa(), fb()
            if is_numeric(x) and is_numeric(y):
                return 1.0 if pyop(to_num(x), to_num(y)) else 0.0
            return 1.0 if pyop(to_str(x), to_str(y)) else 0.0
        return compare

    def x_match(self, node: Node) -> Fn:
        _, negate, a, b = node
        fa = self.expr(a)
        rx = self.regex_of(b)
        to_str = self.to_str
        if negate:
            return lambda: 0.0 if rx().search(to_str(fa())) else 1.0
        return lambda: 1.0 if rx().search(to_str(fa())) else 0.0

    def x_in(self, node: Node) -> Fn:
        _, subs, ref = node
        sub = self.subscript(subs)
        return lambda: 1.0 if sub() in self.get_array(ref) else 0.0

    def x_preinc(self, node: Node) -> Fn:
        _, op, target = node
        get, put = self.lvalue_pair(target)
        delta = 1.0 if op == "++" else -1.0

        def pre() -> float:
            v = to_num(get()) + delta
            put(v)
            return v
        return pre

    def x_postinc(self, node: Node) -> Fn:
        _, op, target = node
        get, put = self.lvalue_pair(target)
        delta = 1.0 if op == "++" else -1.0

        def post() -> float:
            v = to_num(get())
            put(v + delta)
            return v
        return post

    def x_call(self, node: Node) -> Fn:
        _, name, args = node
        if name not in self.functions_src:
            raise AwkError(f"function {name} never defined")
        params = self.functions_src[name][2]
        if len(args) > len(params):
            raise AwkError(f"too many arguments in call to {name}")
        arrays = self.array_params[name]
        arg_fns: list[tuple[str, Fn | Node]] = []
        for i, arg in enumerate(args):
            pname = params[i]
            if pname in arrays:
                if arg[0] != "var":
                    raise AwkError(f"type error in arg({i + 1}) in call to {name}")
                arg_fns.append(("array", arg[1]))
            elif arg[0] == "var":
                arg_fns.append(("maybe", arg[1]))
            else:
                arg_fns.append(("value", self.expr(arg)))

        def call() -> Any:
            entry = self.functions[name]
            frame: dict[str, Any] = {}
            for i, (kind, item) in enumerate(arg_fns):
                if kind == "array":
                    frame[params[i]] = self.get_array(item)  # type: ignore[arg-type]
                elif kind == "maybe":
                    ref = item
                    store = self.frame if ref[0] == "local" else self.g  # type: ignore[index]
                    v = store.get(ref[1], UNINIT)  # type: ignore[index]
                    if ref[1] == "NF" and ref[0] == "global":  # type: ignore[index]
                        v = self.get_nf()
                    frame[params[i]] = v
                else:
                    frame[params[i]] = item()  # type: ignore[operator]
            saved = self.frame
            self.depth += 1
            self.tick()
            if self.depth > 1000:
                self.depth = 0
                raise AwkError("function call nesting too deep")
            self.frame = frame
            try:
                entry[1]()
            except _Return as ret:
                return ret.value
            finally:
                self.frame = saved
                self.depth -= 1
            return UNINIT
        return call

    def x_getline(self, node: Node) -> Fn:
        target = node[1]
        setter = self.setter(target) if target is not None else None

        def getline() -> float:
            record = self.next_main_record()
            if record is None:
                return 0.0
            self.g["NR"] = to_num(self.g["NR"]) + 1
            self.g["FNR"] = to_num(self.g["FNR"]) + 1
            if setter is None:
                self.set_record(record)
            else:
                setter(mkfield(record))
            return 1.0
        return getline

    def x_getline_file(self, node: Node) -> Fn:
        _, target, source = node
        setter = self.setter(target) if target is not None else None
        src = self.expr(source)

        def getline() -> float:
            name = self.to_str(src())
            reader = self.open_input(name)
            if reader is None:
                return -1.0
            record = reader.read(self.to_str(self.g.get("RS", "\n")))
            if record is None:
                return 0.0
            # mawk counts NR/FNR only for records read from the main input.
            if setter is None:
                self.set_record(record)
            else:
                setter(mkfield(record))
            return 1.0
        return getline

    def x_getline_cmd(self, node: Node) -> Fn:
        _, command, target = node
        setter = self.setter(target) if target is not None else None
        cmd = self.expr(command)

        def getline() -> float:
            name = self.to_str(cmd())
            key = "|" + name
            reader = self.inputs.get(key)
            if key not in self.inputs:
                data = self.run_shell(name, b"")
                reader = RecordReader(iter([data]))
                self.inputs[key] = reader
            if reader is None:
                return -1.0
            record = reader.read(self.to_str(self.g.get("RS", "\n")))
            if record is None:
                return 0.0
            if setter is None:
                self.set_record(record)
            else:
                setter(mkfield(record))
            return 1.0
        return getline

    def x_builtin(self, node: Node) -> Fn:
        _, name, args = node
        return getattr(self, "b_" + name)(args)  # type: ignore[no-any-return]

    # -- builtins --------------------------------------------------------------------
    def _nargs(self, name: str, args: list[Node], low: int, high: int) -> None:
        if not low <= len(args) <= high:
            raise AwkError(f"wrong number of arguments in call to {name}")

    def b_length(self, args: list[Node]) -> Fn:
        self._nargs("length", args, 0, 1)
        if not args:
            return lambda: float(len(self.record))
        arg = args[0]
        if arg[0] == "var":
            ref = arg[1]
            store_name = ref[1]
            fn = self.expr(arg)

            def length_var() -> float:
                store = self.frame if ref[0] == "local" else self.g
                v = store.get(store_name)
                if isinstance(v, dict):
                    return float(len(v))
                return float(len(self.to_str(fn())))
            return length_var
        fn = self.expr(arg)
        return lambda: float(len(self.to_str(fn())))

    def b_substr(self, args: list[Node]) -> Fn:
        self._nargs("substr", args, 2, 3)
        fs = self.expr(args[0])
        fi = self.expr(args[1])
        fn = self.expr(args[2]) if len(args) == 3 else None

        def substr() -> str:
            s = self.to_str(fs())
            length = len(s)
            if length == 0:
                return ""
            n = d_to_int(to_num(fn())) if fn is not None else length
            i = d_to_int(to_num(fi())) - 1
            if i > length:
                n = 0
            if i < 0:
                n -= i + 1
                i = 0
            if n > length - i:
                n = length - i
            if n <= 0:
                return ""
            return s[i : i + n]
        return substr

    def b_index(self, args: list[Node]) -> Fn:
        self._nargs("index", args, 2, 2)
        fa, fb = self.expr(args[0]), self.expr(args[1])

        def index() -> float:
            needle = self.to_str(fb())
            if not needle:
                return 1.0
            return float(self.to_str(fa()).find(needle) + 1)
        return index

    def b_split(self, args: list[Node]) -> Fn:
        self._nargs("split", args, 2, 3)
        fs_text = self.expr(args[0])
        target = args[1]
        if target[0] != "var":
            raise AwkError("type error in arg(2) in call to split")
        ref = target[1]
        sep: Callable[[], Any] | None = None
        if len(args) == 3:
            if args[2][0] == "regex":
                rx = self.regex(args[2][1])
                sep = lambda: rx
            else:
                sep_fn = self.expr(args[2])
                sep = lambda: self.to_str(sep_fn())

        def split() -> float:
            text = self.to_str(fs_text())
            fs = sep() if sep is not None else self.g.get("FS", " ")
            parts = self.split_text(text, fs)
            self.get_array(ref).load(parts)
            return float(len(parts))
        return split

    def _sub(self, args: list[Node], name: str, global_: bool) -> Fn:
        self._nargs(name, args, 2, 3)
        rx_fn = self.regex_of(args[0])
        repl_fn = self.expr(args[1])
        target = args[2] if len(args) == 3 else ("field", ("num", 0.0))
        if target[0] not in ("var", "field", "index"):
            # mawk allows a non-lvalue target: the substitution happens on a temporary.
            tmp_fn = self.expr(target)
            get: Fn = tmp_fn
            put: Callable[[Any], None] = lambda v: None
        else:
            get, put = self.lvalue_pair(target)

        def sub() -> float:
            rx = rx_fn()
            repl = self.to_str(repl_fn())
            text = self.to_str(get())
            pieces: list[str] = []
            pos = 0
            copied = 0
            count = 0
            prev_end = -1
            n = len(text)
            while pos <= n:
                m = rx.search(text, pos)
                if m is None:
                    break
                start, end = m.span()
                if start == end and start == prev_end:
                    pos = start + 1
                    continue
                count += 1
                pieces.append(text[copied:start])
                pieces.append(self.expand_repl(repl, m.group()))
                copied = end
                prev_end = end
                if not global_:
                    break
                pos = end if end > start else end + 1
            if count:
                pieces.append(text[copied:])
                put("".join(pieces))
            return float(count)
        return sub

    @staticmethod
    def expand_repl(repl: str, matched: str) -> str:
        if "&" not in repl and "\\" not in repl:
            return repl
        out: list[str] = []
        i = 0
        n = len(repl)
        while i < n:
            c = repl[i]
            if c == "\\" and i + 1 < n and repl[i + 1] in "&\\":
                out.append(repl[i + 1])
                i += 2
                continue
            if c == "&":
                out.append(matched)
            else:
                out.append(c)
            i += 1
        return "".join(out)

    def b_sub(self, args: list[Node]) -> Fn:
        return self._sub(args, "sub", False)

    def b_gsub(self, args: list[Node]) -> Fn:
        return self._sub(args, "gsub", True)

    def b_match(self, args: list[Node]) -> Fn:
        self._nargs("match", args, 2, 2)
        fs = self.expr(args[0])
        rx_fn = self.regex_of(args[1])

        def match() -> float:
            m = rx_fn().search(self.to_str(fs()))
            if m is None:
                self.g["RSTART"] = 0.0
                self.g["RLENGTH"] = -1.0
                return 0.0
            self.g["RSTART"] = float(m.start() + 1)
            self.g["RLENGTH"] = float(m.end() - m.start())
            return float(m.start() + 1)
        return match

    def b_sprintf(self, args: list[Node]) -> Fn:
        if not args:
            raise AwkError("wrong number of arguments in call to sprintf")
        fns = [self.expr(a) for a in args]

        def sprintf() -> str:
            values = [f() for f in fns]
            try:
                return awk_format(self.to_str(values[0]), values[1:], self.to_str, "sprintf")
            except FormatError as exc:
                raise AwkError(str(exc)) from None
        return sprintf

    def _math1(self, args: list[Node], name: str, fn: Callable[[float], float]) -> Fn:
        self._nargs(name, args, 1, 1)
        arg = self.expr(args[0])

        def call() -> float:
            x = to_num(arg())
            try:
                return fn(x)
            except ValueError:
                return -math.nan
            except OverflowError:
                return math.inf
        return call

    def b_sin(self, args: list[Node]) -> Fn:
        return self._math1(args, "sin", lambda x: math.sin(x) if math.isfinite(x) else -math.nan)

    def b_cos(self, args: list[Node]) -> Fn:
        return self._math1(args, "cos", lambda x: math.cos(x) if math.isfinite(x) else -math.nan)

    def b_exp(self, args: list[Node]) -> Fn:
        return self._math1(args, "exp", math.exp)

    def b_log(self, args: list[Node]) -> Fn:
        def log(x: float) -> float:
            if x == 0:
                return -math.inf
            if x < 0 or x != x:
                return -math.nan
            return math.log(x)
        return self._math1(args, "log", log)

    def b_sqrt(self, args: list[Node]) -> Fn:
        return self._math1(args, "sqrt", lambda x: math.sqrt(x) if x >= 0 else -math.nan)

    def b_int(self, args: list[Node]) -> Fn:
        return self._math1(args, "int", lambda x: float(math.trunc(x)) if math.isfinite(x) else x)

    def b_atan2(self, args: list[Node]) -> Fn:
        self._nargs("atan2", args, 2, 2)
        fa, fb = self.expr(args[0]), self.expr(args[1])
        return lambda: math.atan2(to_num(fa()), to_num(fb()))

    def b_rand(self, args: list[Node]) -> Fn:
        self._nargs("rand", args, 0, 0)
        return lambda: self.rng.random() / 2147483647.0

    def b_srand(self, args: list[Node]) -> Fn:
        self._nargs("srand", args, 0, 1)
        fa = self.expr(args[0]) if args else None

        def srand() -> Any:
            previous = self.seed
            if fa is None:
                value: Any = float(int(time.time()))
            else:
                value = fa()
            self.seed = value
            seed = to_num(value)
            self.rng.seed(int(math.fmod(seed, 4294967295.0)) if math.isfinite(seed) else 0)
            return previous
        return srand

    def b_tolower(self, args: list[Node]) -> Fn:
        self._nargs("tolower", args, 1, 1)
        fa = self.expr(args[0])
        table = {i: i + 32 for i in range(65, 91)}
        return lambda: self.to_str(fa()).translate(table)

    def b_toupper(self, args: list[Node]) -> Fn:
        self._nargs("toupper", args, 1, 1)
        fa = self.expr(args[0])
        table = {i: i - 32 for i in range(97, 123)}
        return lambda: self.to_str(fa()).translate(table)

    def b_system(self, args: list[Node]) -> Fn:
        self._nargs("system", args, 1, 1)
        fa = self.expr(args[0])

        def system() -> float:
            command = self.to_str(fa())
            self.flush_stdout()
            status, data = self.run_shell_status(command, b"")
            self.flushed.append(data.decode("latin-1"))
            return float(status)
        return system

    def b_systime(self, args: list[Node]) -> Fn:
        self._nargs("systime", args, 0, 0)
        return lambda: float(int(time.time()))

    def b_mktime(self, args: list[Node]) -> Fn:
        """mktime("YYYY MM DD HH MM SS [DST]") in local time; -1 when malformed."""
        self._nargs("mktime", args, 1, 1)
        fa = self.expr(args[0])

        def mktime() -> float:
            parts = self.to_str(fa()).split()
            try:
                nums = [int(p) for p in parts[:7]]
            except ValueError:
                return -1.0
            if len(nums) < 6:
                return -1.0
            dst = nums[6] if len(nums) > 6 else -1
            try:
                return float(int(time.mktime((nums[0], nums[1], nums[2], nums[3], nums[4], nums[5], 0, 0, dst))))
            except (OverflowError, ValueError):
                return -1.0
        return mktime

    def b_strftime(self, args: list[Node]) -> Fn:
        """strftime([format [, timestamp [, utc]]]) as mawk: "%c" and now by default."""
        self._nargs("strftime", args, 0, 3)
        fns = [self.expr(a) for a in args]

        def strftime() -> str:
            values = [f() for f in fns]
            fmt = self.to_str(values[0]) if values else ""
            if not fmt:
                fmt = "%c"
            stamp = d_to_int(to_num(values[1])) if len(values) > 1 else int(time.time())
            utc = len(values) > 2 and d_to_int(to_num(values[2])) != 0
            try:
                tm = time.gmtime(stamp) if utc else time.localtime(stamp)
                return time.strftime(fmt, tm)
            except (OverflowError, ValueError, OSError):
                return ""
        return strftime

    def b_close(self, args: list[Node]) -> Fn:
        self._nargs("close", args, 1, 1)
        fa = self.expr(args[0])
        return lambda: float(self.close(self.to_str(fa())))

    def b_fflush(self, args: list[Node]) -> Fn:
        self._nargs("fflush", args, 0, 1)
        fns = [self.expr(a) for a in args]

        def fflush() -> float:
            for f in fns:
                f()
            return 0.0
        return fflush

    # -- statements ------------------------------------------------------------------
    def stmt(self, node: Node) -> Fn:
        return getattr(self, "s_" + node[0])(node)  # type: ignore[no-any-return]

    def s_block(self, node: Node) -> Fn:
        fns = [self.stmt(s) for s in node[1]]
        if not fns:
            return self.noop
        if len(fns) == 1:
            return fns[0]

        def block() -> None:
            for f in fns:
                f()
        return block

    def s_expr(self, node: Node) -> Fn:
        return self.expr(node[1])

    def s_print(self, node: Node) -> Fn:
        _, args, mode, dest = node
        fns = [self.expr(a) for a in args]
        dest_fn = self.expr(dest) if dest is not None else None
        g = self.g
        to_out = self.to_out

        def do_print() -> None:
            if fns:
                if len(fns) == 1:
                    text = to_out(fns[0]())
                else:
                    text = self.to_str(g.get("OFS", " ")).join([to_out(f()) for f in fns])
            else:
                text = self.record
            text += self.to_str(g.get("ORS", "\n"))
            if dest_fn is None:
                self.out.append(text)
            else:
                self.write(mode, self.to_str(dest_fn()), text)
        return do_print

    def s_printf(self, node: Node) -> Fn:
        _, args, mode, dest = node
        fns = [self.expr(a) for a in args]
        dest_fn = self.expr(dest) if dest is not None else None

        def do_printf() -> None:
            values = [f() for f in fns]
            try:
                text = awk_format(self.to_str(values[0]), values[1:], self.to_str)
            except FormatError as exc:
                if dest_fn is None:
                    self.out.append(exc.partial)
                raise AwkError(str(exc)) from None
            if dest_fn is None:
                self.out.append(text)
            else:
                self.write(mode, self.to_str(dest_fn()), text)
        return do_printf

    def s_if(self, node: Node) -> Fn:
        cond = self.expr(node[1])
        then = self.stmt(node[2])
        other = self.stmt(node[3]) if node[3] is not None else None

        def if_() -> None:
            if to_bool(cond()):
                then()
            elif other is not None:
                other()
        return if_

    def s_while(self, node: Node) -> Fn:
        cond = self.expr(node[1])
        body = self.stmt(node[2])

        def while_() -> None:
            while to_bool(cond()):
                self.tick()
                try:
                    body()
                except _Break:
                    break
                except _Continue:
                    continue
        return while_

    def s_do(self, node: Node) -> Fn:
        body = self.stmt(node[1])
        cond = self.expr(node[2])

        def do_() -> None:
            while True:
                self.tick()
                try:
                    body()
                except _Break:
                    break
                except _Continue:
                    pass
                if not to_bool(cond()):
                    break
        return do_

    def s_for(self, node: Node) -> Fn:
        _, init, cond, step, body_node = node
        init_fn = self.stmt(init) if init is not None else self.noop
        cond_fn = self.expr(cond) if cond is not None else (lambda: 1.0)
        step_fn = self.stmt(step) if step is not None else self.noop
        body = self.stmt(body_node)

        def for_() -> None:
            init_fn()
            while to_bool(cond_fn()):
                self.tick()
                try:
                    body()
                except _Break:
                    break
                except _Continue:
                    pass
                step_fn()
        return for_

    def s_forin(self, node: Node) -> Fn:
        _, var, ref, body_node = node
        setter = self.setter(var)
        body = self.stmt(body_node)

        def forin() -> None:
            arr = self.get_array(ref)
            # mawk loops over a snapshot of the keys, as plain strings.
            for key in arr.keys():
                setter(key)
                try:
                    body()
                except _Break:
                    break
                except _Continue:
                    pass
        return forin

    def s_break(self, node: Node) -> Fn:
        def brk() -> None:
            raise _Break
        return brk

    def s_continue(self, node: Node) -> Fn:
        def cont() -> None:
            raise _Continue
        return cont

    def s_next(self, node: Node) -> Fn:
        def nxt() -> None:
            raise _Next
        return nxt

    def s_nextfile(self, node: Node) -> Fn:
        def nxt() -> None:
            raise _NextFile
        return nxt

    def s_exit(self, node: Node) -> Fn:
        value = self.expr(node[1]) if node[1] is not None else None

        def exit_() -> None:
            if value is not None:
                self.exit_status = d_to_int(to_num(value())) & 0xFF
            raise _Exit
        return exit_

    def s_return(self, node: Node) -> Fn:
        value = self.expr(node[1]) if node[1] is not None else None

        def return_() -> None:
            raise _Return(value() if value is not None else UNINIT)
        return return_

    def s_delete(self, node: Node) -> Fn:
        _, ref, subs = node
        if subs is None:
            return lambda: self.get_array(ref).clear()
        sub = self.subscript(subs)

        def delete() -> None:
            self.get_array(ref).pop(sub(), None)
        return delete

    def rule(self, item: Node) -> Fn:
        if item[0] == "range":
            _, p1, p2, body = item
            start = self.expr(p1)
            stop = self.expr(p2)
            action = self.stmt(body) if body is not None else self.print_record
            state = [False]

            def range_rule() -> None:
                if not state[0]:
                    if not to_bool(start()):
                        return
                    state[0] = True
                if to_bool(stop()):
                    state[0] = False
                action()
            return range_rule
        _, pattern, body = item
        action = self.stmt(body) if body is not None else self.print_record
        if pattern is None:
            return action
        cond = self.expr(pattern)

        def pattern_rule() -> None:
            if to_bool(cond()):
                action()
        return pattern_rule

    def print_record(self) -> None:
        self.out.append(self.record + self.to_str(self.g.get("ORS", "\n")))

    # -- I/O ---------------------------------------------------------------------------
    def write(self, mode: str, name: str, text: str) -> None:
        if mode == "|":
            key = "|" + name
            entry = self.outputs.get(key)
            if entry is None:
                # mawk flushes its output before starting a command.
                self.flush_stdout()
                entry = self.outputs[key] = []
            entry.append(text)
            return
        if name in ("/dev/stdout", "-", "/dev/fd/1"):
            self.out.append(text)
            return
        if name in ("/dev/stderr", "/dev/fd/2"):
            self.ctx.stderr.write(text.encode("latin-1"))
            return
        handle = self.outputs.get(name)
        if handle is None:
            try:
                handle = open(self.ctx.host_path(argv_text(name)), "ab" if mode == ">>" else "wb")
            except OSError as exc:
                raise AwkError(f"cannot open \"{name}\" for output") from exc
            self.outputs[name] = handle
        handle.write(text.encode("latin-1"))

    def open_input(self, name: str) -> RecordReader | None:
        if name in self.inputs:
            return self.inputs[name]
        if name in ("-", "/dev/stdin"):
            reader: RecordReader | None = RecordReader(self.ctx.stdin)
        else:
            path = self.ctx.host_path(argv_text(name))
            try:
                if os.path.isdir(path):
                    raise OSError
                handle = open(path, "rb")
            except OSError:
                return None

            def chunks() -> Iterator[bytes]:
                with handle:
                    while True:
                        data = handle.read(65536)
                        if not data:
                            return
                        yield data
            reader = RecordReader(chunks())
        self.inputs[name] = reader
        return reader

    def close(self, name: str) -> int:
        result = -1
        if name in self.outputs:
            handle = self.outputs.pop(name)
            handle.close()
            result = 0
        if "|" + name in self.outputs:
            chunks = self.outputs.pop("|" + name)
            status, data = self.run_shell_status(name, "".join(chunks).encode("latin-1"))
            self.flushed.append(data.decode("latin-1"))
            result = status
        if name in self.inputs:
            del self.inputs[name]
            result = 0
        if "|" + name in self.inputs:
            del self.inputs["|" + name]
            result = 0
        return result

    def flush_stdout(self) -> None:
        self.flushed.extend(self.out)
        self.out.clear()

    def take_output(self, final: bool = False) -> str:
        """The text to hand on now: everything when no command pipe is open (ordering
        cannot be observed), else only what mawk would have flushed (4 KiB buffer)."""
        if final or not any(k.startswith("|") for k in self.outputs) or sum(map(len, self.out)) >= 4096:
            self.flush_stdout()
        text = "".join(self.flushed)
        self.flushed.clear()
        return text

    def flush_pipes(self) -> None:
        for key in [k for k in self.outputs if k.startswith("|")]:
            self.close(key[1:])

    def close_all(self) -> None:
        self.flush_pipes()
        for key in list(self.outputs):
            handle = self.outputs.pop(key)
            handle.close()

    def run_shell(self, command: str, stdin: bytes) -> bytes:
        return self.run_shell_status(command, stdin)[1]

    def run_shell_status(self, command: str, stdin: bytes) -> tuple[int, bytes]:
        """Run ``command`` with ``sh -c`` through the interpreter; returns (status, stdout)."""
        runner = self.ctx.run_command
        if runner is None:
            raise AwkError("cannot run commands here (no shell available)")
        gen = runner(["sh", "-c", command], iter([stdin]))
        chunks: list[bytes] = []
        try:
            while True:
                chunks.append(next(gen))
        except StopIteration as stop:
            status = int(stop.value or 0)
        return status, b"".join(chunks)

    # -- main input --------------------------------------------------------------------
    def next_main_record(self) -> str | None:
        while True:
            if self.main_reader is None:
                if not self.open_next_main():
                    return None
            assert self.main_reader is not None
            record = self.main_reader.read(self.to_str(self.g.get("RS", "\n")))
            if record is not None:
                return record
            self.main_reader = None

    def open_next_main(self) -> bool:
        if self.main_done:
            return False
        argv = self.g["ARGV"]
        while True:
            self.argind += 1
            argc = d_to_int(to_num(self.g.get("ARGC", 1.0)))
            if self.argind >= argc:
                break
            arg = argv.peek(float(self.argind)) if isinstance(argv, MawkArray) else None
            if arg is None:
                continue
            text = self.to_str(arg)
            if text == "":
                continue
            m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)=(.*)\Z", text, re.S)
            if m:
                from .parse import unescape
                self.g[m.group(1)] = mkfield(unescape(m.group(2)))
                continue
            self.used_stdin = True
            self.g["FILENAME"] = text
            self.g["FNR"] = 0.0
            if text == "-" or text == "/dev/stdin":
                self.main_reader = RecordReader(self.ctx.stdin)
                return True
            path = self.ctx.host_path(argv_text(text))
            try:
                if os.path.isdir(path):
                    raise IsADirectoryError
                handle = open(path, "rb")
            except OSError:
                raise AwkError(f"cannot open {text} (No such file or directory)") from None

            def chunks(h: Any = handle) -> Iterator[bytes]:
                with h:
                    while True:
                        data = h.read(65536)
                        if not data:
                            return
                        yield data
            self.main_reader = RecordReader(chunks())
            return True
        self.main_done = True
        if not self.used_stdin:
            self.used_stdin = True
            self.main_reader = RecordReader(self.ctx.stdin)
            self.main_done = False
            self.argind = 1 << 30
            return True
        return False

    def run(self) -> Iterator[str]:
        """Run BEGIN, the main loop and END; yields output text as produced."""
        exiting = False
        try:
            for action in self.begin:
                action()
        except _Exit:
            exiting = True
        except (_Next, _NextFile, _Break, _Continue, _Return):
            raise AwkError("improper use of next") from None
        text = self.take_output()
        if text:
            yield text
        if not exiting and (self.rules or self.end):
            rules = self.rules
            g = self.g
            try:
                while True:
                    record = self.next_main_record()
                    if record is None:
                        break
                    self.tick()
                    g["NR"] = to_num(g["NR"]) + 1.0
                    g["FNR"] = to_num(g["FNR"]) + 1.0
                    self.record = record
                    self.split_done = False
                    try:
                        for rule in rules:
                            rule()
                    except _Next:
                        pass
                    except _NextFile:
                        self.main_reader = None
                    except (_Break, _Continue, _Return):
                        raise AwkError("statement outside of its context") from None
                    if self.out or self.flushed:
                        text = self.take_output()
                        if text:
                            yield text
            except _Exit:
                pass
        try:
            for action in self.end:
                action()
        except _Exit:
            pass
        except (_Next, _NextFile, _Break, _Continue, _Return):
            raise AwkError("improper use of next") from None
        self.close_all()
        text = self.take_output(final=True)
        if text:
            yield text
