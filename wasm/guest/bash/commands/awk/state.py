"""awk run-time state: variables, the record and its fields, conversions, regexes, lvalues.

``State`` is the bottom layer of the runtime (``io`` -> ``expressions`` -> ``builtins`` ->
``runtime``): everything the compiled closures read and write, and the control-flow
exceptions that ``next``, ``exit``, ``break``, ``continue`` and ``return`` raise. Values
follow ``value``.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from .array import MawkArray
from .parse import Node
from .value import UNINIT, Glibc, StrNum, d_to_int, mkfield, num_to_str, to_num
from ..sed import RegexError, bytes_text, compile_posix
from ..base import CommandContext
from .records import RecordReader

Fn = Callable[[], Any]
"""A compiled expression or statement: called with no arguments, reads and writes the state."""


class AwkError(Exception):
    """A run-time error: ``awk: run time error: ...``; exit status 2."""


class Next(Exception):
    """``next``: stop this record's rules, read the next record."""


class NextFile(Exception):
    """``nextfile``: stop reading the current input file."""


class Exit(Exception):
    """``exit``: run the END rules (from BEGIN or the main loop), then stop."""


class Break(Exception):
    """``break`` out of the innermost loop."""


class Continue(Exception):
    """``continue`` with the innermost loop's next iteration."""


class Return(Exception):
    """``return`` from a user function, carrying its value."""

    def __init__(self, value: Any) -> None:
        self.value = value


class State:
    """The state of one awk run; the layers above compile the AST into closures over it."""

    def __init__(self, ctx: CommandContext, functions: dict[str, Node],
                 assigns: list[tuple[str, str]], operands: list[str]) -> None:
        self.ctx = ctx
        self.ticks = 0
        # the offset glibc's mktime remembers from its last call (see tz.Zone.mktime)
        self.mktime_guess = 0
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

    def expr(self, node: Node) -> Fn:
        """Compile an expression (defined by ``expressions.Expressions``)."""
        raise NotImplementedError

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
        fs = self.g.get("FS", " ")
        record = self.record
        if fs == " " and "\t" not in record and "\n" not in record:
            # split_text's first case, inline: this runs for every record a rule reads
            self.fields = [p for p in record.split(" ") if p]
        else:
            self.fields = self.split_text(record, fs, raw=True)
        self.nf = len(self.fields)
        self.split_done = True

    def split_text(self, text: str, fs: Any, raw: bool = False) -> list[str]:
        """Split like awk's field splitting; ``raw`` skips the numeric-string check
        (record fields get it lazily, on access)."""
        if isinstance(fs, re.Pattern):
            parts = self._split_groups(fs, text) if text else []
        else:
            if type(fs) is not str:
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
