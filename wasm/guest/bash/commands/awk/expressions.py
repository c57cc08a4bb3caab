"""awk expressions: each AST node compiled to a closure (``x_<tag>`` per node kind).

Function calls, ``getline`` in its three forms, assignments, comparisons and arithmetic;
builtin functions are the next layer (``builtins``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .parse import Node
from .value import UNINIT, d_to_int, is_numeric, mkfield, to_bool, to_num
from .io import IO
from .records import RecordReader
from .state import AwkError, Fn, Return


class Expressions(IO):
    """Compiles expressions; ``expr(node)`` dispatches on the node's tag."""

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
            except Return as ret:
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
