"""awk builtin functions (``length``, ``substr``, ``sub``/``gsub``, ``sprintf``, math, time, I/O).

Each ``b_<name>`` compiles a call of that builtin, checking its argument count at compile
time as mawk does.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

from .format import FormatError, awk_format
from .parse import Node
from .value import MAX_INT, d_to_int, to_num
from .expressions import Expressions
from .state import AwkError, Fn
from ...timefmt import c_strftime
from ...tz import Local, wall_seconds, zone_of

_GMT = Local(0, "GMT", False)
"""What glibc's ``gmtime`` names its zone (mawk's ``strftime(fmt, t, 1)`` prints it)."""


class Builtins(Expressions):
    """Compiles calls of the builtin functions."""

    def x_builtin(self, node: Node) -> Fn:
        _, name, args = node
        return getattr(self, "b_" + name)(args)  # type: ignore[no-any-return]

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
            # As mawk 1.3.4 seeds: truncated and clamped to +-MAX_INT, NaN as -MAX_INT
            # (recorded: srand(4294967296) is srand(2147483647), srand(-1) stays -1).
            self.rng.seed(-MAX_INT if seed != seed else d_to_int(seed))
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
            wall = wall_seconds(*nums[:6])
            when = zone_of(self.ctx.env).mktime(wall, -1 if dst < 0 else int(dst > 0), self.mktime_guess)
            self.mktime_guess = wall - when
            return float(when)
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
                if utc:
                    return c_strftime(fmt, time.gmtime(stamp), _GMT)
                return c_strftime(fmt, *zone_of(self.ctx.env).localtime(stamp))
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
