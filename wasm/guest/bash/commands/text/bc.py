"""bc: the GNU bc language (variables, arrays, functions, control flow) over ``bcnum``.

Input is read a line at a time in the sense of GNU's grammar: the statements of one line
run together once the line is complete, a syntax error discards that line, and a runtime
error abandons the rest of it. Variables are dynamically scoped as in GNU bc (a function's
``auto`` variables are visible to the functions it calls). ``-l`` loads the math library
(``s c a l e j``), written in bc itself in ``bclib``. Error messages go to stderr with
GNU's wording; the addresses in "Runtime error (func=..., adr=N)" are not GNU's bytecode
offsets. ``read()`` is not supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ...escapes import decode
from ..base import CommandContext, CommandResult
from .bcnum import BcMathError, Num, parse_number
from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import open_input, stdin_chunks

# --- lexer ---------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+|\\\n)
  | (?P<comment>/\*.*?\*/|\#[^\n]*)
  | (?P<nl>\n)
  | (?P<number>[0-9A-F]+\.?[0-9A-F]*|\.[0-9A-F]+)
  | (?P<name>[a-z][a-z0-9_]*)
  | (?P<string>"[^"]*")
  | (?P<op>\+\+|--|\|\||&&|[-+*/%^=!<>]=|[-+*/%^=<>!(){}\[\],;.])
    """,
    re.VERBOSE | re.DOTALL,
)

KEYWORDS = {
    "define", "auto", "return", "if", "else", "while", "for", "break", "continue", "quit", "halt",
    "print", "length", "scale", "sqrt", "ibase", "obase", "last", "read", "limits", "warranty", "void",
}


@dataclass
class Token:
    kind: str
    text: str
    line: int


class BcSyntaxError(Exception):
    def __init__(self, line: int, message: str = "syntax error") -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    line = 1
    pos = 0
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if not m:
            if source.startswith("/*", pos):
                raise BcSyntaxError(line, "comment end not found")
            if source[pos] == '"':
                raise BcSyntaxError(line, "string end not found")
            tokens.append(Token("bad", source[pos], line))
            pos += 1
            continue
        kind = m.lastgroup or ""
        text = m.group()
        if kind == "nl":
            tokens.append(Token("nl", "\n", line))
        elif kind == "name":
            tokens.append(Token("kw" if text in KEYWORDS else "name", text, line))
        elif kind in ("number", "string", "op"):
            tokens.append(Token(kind, text, line))
        line += text.count("\n")
        pos = m.end()
    tokens.append(Token("eof", "", line))
    return tokens


# --- AST -----------------------------------------------------------------------------------

Node = tuple[Any, ...]  # (kind, ...) tuples keep the tree light; kinds are documented in the parser.


@dataclass
class Function:
    name: str
    params: list[tuple[str, bool]]
    autos: list[tuple[str, bool]]
    body: list[Node]


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def at(self, text: str) -> bool:
        return self.tok.text == text and self.tok.kind in ("op", "kw")

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, text: str) -> None:
        if not self.at(text):
            raise BcSyntaxError(self.tok.line)
        self.advance()

    def skip_newlines(self) -> None:
        while self.tok.kind == "nl":
            self.advance()

    # A top-level line: statements separated by ';' up to a newline; or a function definition.
    def line_items(self) -> tuple[list[Node], list[Function], bool]:
        """Parse one input line; returns (statements, functions, quit_seen)."""
        statements: list[Node] = []
        functions: list[Function] = []
        while True:
            if self.tok.kind == "eof":
                return statements, functions, False
            if self.tok.kind == "nl":
                self.advance()
                return statements, functions, False
            if self.at(";"):
                self.advance()
                continue
            if self.at("quit"):
                return statements, functions, True
            if self.at("define"):
                functions.append(self.function())
                continue
            statements.append(self.statement())
            if not (self.at(";") or self.tok.kind in ("nl", "eof") or self.at("}")):
                raise BcSyntaxError(self.tok.line)

    def function(self) -> Function:
        self.expect("define")
        if self.at("void"):
            self.advance()
        if self.tok.kind != "name":
            raise BcSyntaxError(self.tok.line)
        name = self.advance().text
        self.expect("(")
        params = self.name_list(")")
        self.expect(")")
        self.skip_newlines()
        self.expect("{")
        self.skip_newlines()
        autos: list[tuple[str, bool]] = []
        if self.at("auto"):
            self.advance()
            autos = self.name_list(None)
            if self.at(";"):
                self.advance()
        body = self.block_body()
        return Function(name, params, autos, body)

    def name_list(self, closer: str | None) -> list[tuple[str, bool]]:
        names: list[tuple[str, bool]] = []
        if closer and self.at(closer):
            return names
        while True:
            if self.tok.kind != "name":
                raise BcSyntaxError(self.tok.line)
            name = self.advance().text
            is_array = False
            if self.at("["):
                self.advance()
                self.expect("]")
                is_array = True
            names.append((name, is_array))
            if self.at(","):
                self.advance()
                continue
            return names

    def block_body(self) -> list[Node]:
        body: list[Node] = []
        while True:
            while self.tok.kind == "nl" or self.at(";"):
                self.advance()
            if self.at("}"):
                self.advance()
                return body
            if self.tok.kind == "eof":
                raise BcSyntaxError(self.tok.line)
            body.append(self.statement())

    def statement(self) -> Node:
        tok = self.tok
        if tok.kind == "string":
            self.advance()
            return ("string", tok.text[1:-1])
        if self.at("{"):
            self.advance()
            return ("block", self.block_body())
        if self.at("if"):
            self.advance()
            self.expect("(")
            cond = self.expression()
            self.expect(")")
            self.skip_newlines()
            then = self.statement()
            otherwise = None
            save = self.pos
            while self.tok.kind == "nl" or self.at(";"):
                self.advance()
            if self.at("else"):
                self.advance()
                self.skip_newlines()
                otherwise = self.statement()
            else:
                self.pos = save
            return ("if", cond, then, otherwise)
        if self.at("while"):
            self.advance()
            self.expect("(")
            cond = self.expression()
            self.expect(")")
            self.skip_newlines()
            return ("while", cond, self.statement())
        if self.at("for"):
            self.advance()
            self.expect("(")
            init: Node | None = None if self.at(";") else self.expression()
            self.expect(";")
            loop_cond: Node | None = None if self.at(";") else self.expression()
            self.expect(";")
            step: Node | None = None if self.at(")") else self.expression()
            self.expect(")")
            self.skip_newlines()
            return ("for", init, loop_cond, step, self.statement())
        if self.at("break"):
            self.advance()
            return ("break",)
        if self.at("continue"):
            self.advance()
            return ("continue",)
        if self.at("halt"):
            self.advance()
            return ("halt",)
        if self.at("return"):
            self.advance()
            if self.at(";") or self.tok.kind in ("nl", "eof") or self.at("}"):
                return ("return", None)
            return ("return", self.expression())
        if self.at("print"):
            self.advance()
            items: list[Node] = []
            while True:
                if self.tok.kind == "string":
                    items.append(("pstring", self.advance().text[1:-1]))
                else:
                    items.append(self.expression())
                if self.at(","):
                    self.advance()
                    continue
                return ("print", items)
        if self.at("limits") or self.at("warranty"):
            self.advance()
            return ("noop",)
        expr = self.expression()
        return ("expr", expr)

    # Precedence, lowest first: || && ! relational assignment +- */% ^ unary- ++/--
    def expression(self) -> Node:
        left = self.and_expr()
        while self.at("||"):
            self.advance()
            left = ("or", left, self.and_expr())
        return left

    def and_expr(self) -> Node:
        left = self.not_expr()
        while self.at("&&"):
            self.advance()
            left = ("and", left, self.not_expr())
        return left

    def not_expr(self) -> Node:
        if self.at("!"):
            self.advance()
            return ("not", self.not_expr())
        return self.relational()

    def relational(self) -> Node:
        left = self.assignment()
        while self.tok.kind == "op" and self.tok.text in ("<", "<=", ">", ">=", "==", "!="):
            op = self.advance().text
            left = ("rel", op, left, self.assignment())
        return left

    def assignment(self) -> Node:
        start = self.pos
        target = self.lvalue_or_none()
        if target is not None and self.tok.kind == "op" and self.tok.text in ("=", "+=", "-=", "*=", "/=", "%=", "^="):
            op = self.advance().text
            return ("assign", op, target, self.assignment())
        self.pos = start
        return self.additive()

    def lvalue_or_none(self) -> Node | None:
        tok = self.tok
        if tok.kind == "name":
            self.advance()
            if self.at("["):
                self.advance()
                index = self.expression()
                self.expect("]")
                return ("elem", tok.text, index)
            if self.at("("):
                return None
            return ("var", tok.text)
        if tok.kind == "kw" and tok.text in ("scale", "ibase", "obase", "last"):
            self.advance()
            if self.at("("):
                return None
            return ("var", tok.text)
        return None

    def additive(self) -> Node:
        left = self.multiplicative()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.advance().text
            left = ("bin", op, left, self.multiplicative())
        return left

    def multiplicative(self) -> Node:
        left = self.power()
        while self.tok.kind == "op" and self.tok.text in ("*", "/", "%"):
            op = self.advance().text
            left = ("bin", op, left, self.power())
        return left

    def power(self) -> Node:
        base = self.unary()
        if self.at("^"):
            self.advance()
            return ("bin", "^", base, self.power())
        return base

    def unary(self) -> Node:
        if self.at("-"):
            self.advance()
            return ("neg", self.unary())
        if self.at("++") or self.at("--"):
            op = self.advance().text
            target = self.lvalue_or_none()
            if target is None:
                raise BcSyntaxError(self.tok.line)
            return ("pre", op, target)
        return self.postfix()

    def postfix(self) -> Node:
        start = self.pos
        target = self.lvalue_or_none()
        if target is not None:
            if self.at("++") or self.at("--"):
                return ("post", self.advance().text, target)
            return target
        self.pos = start
        return self.primary()

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind == "number":
            self.advance()
            return ("num", tok.text)
        if self.at("("):
            self.advance()
            inner = self.expression()
            self.expect(")")
            return ("paren", inner)
        if self.at("."):
            self.advance()
            return ("var", "last")
        if tok.kind == "kw" and tok.text in ("length", "sqrt", "scale"):
            self.advance()
            self.expect("(")
            arg = self.expression()
            self.expect(")")
            return ("builtin", tok.text, arg)
        if tok.kind == "kw" and tok.text == "read":
            self.advance()
            self.expect("(")
            self.expect(")")
            return ("read",)
        if tok.kind == "name":
            self.advance()
            self.expect("(")
            args: list[Node] = []
            if not self.at(")"):
                while True:
                    if self.tok.kind == "name" and self.tokens[self.pos + 1].text == "[" and self.tokens[self.pos + 2].text == "]":
                        args.append(("arrayref", self.advance().text))
                        self.advance()
                        self.advance()
                    else:
                        args.append(self.expression())
                    if self.at(","):
                        self.advance()
                        continue
                    break
            self.expect(")")
            return ("call", tok.text, args)
        raise BcSyntaxError(tok.line)


# --- interpreter ---------------------------------------------------------------------------


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: Num) -> None:
        self.value = value


class _Halt(Exception):
    pass


class BcRuntimeError(Exception):
    pass


@dataclass
class Interpreter:
    write: Callable[[str], None]
    error: Callable[[str], None]
    scalars: dict[str, list[Num]] = field(default_factory=dict)
    arrays: dict[str, list[dict[int, Num]]] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    scale: int = 0
    ibase: int = 10
    obase: int = 10
    last: Num = field(default_factory=lambda: Num(0))
    column: int = 0
    current_function: str = "(main)"
    tick: Callable[[], None] = lambda: None
    """Called on every loop iteration and function call: the interpreter's deadline check."""

    # Output with GNU's line splitting for numbers: 68 characters, then a backslash.
    def out_number(self, value: Num) -> None:
        text = value.format(self.obase)
        pieces: list[str] = []
        for char in text:
            if self.column == 68:
                pieces.append("\\\n")
                self.column = 0
            pieces.append(char)
            self.column += 1
        self.write("".join(pieces))

    def out_text(self, text: str) -> None:
        self.write(text)
        cut = text.rfind("\n")
        self.column = len(text) - cut - 1 if cut >= 0 else self.column + len(text)

    def get(self, name: str) -> Num:
        if name == "scale":
            return Num(self.scale)
        if name == "ibase":
            return Num(self.ibase)
        if name == "obase":
            return Num(self.obase)
        if name == "last":
            return self.last
        stack = self.scalars.get(name)
        return stack[-1] if stack else Num(0)

    def set(self, name: str, value: Num) -> None:
        if name == "scale":
            number = value.to_int()
            if number < 0:
                raise BcRuntimeError("negative scale, set to 0")
            self.scale = number
            return
        if name == "ibase":
            number = value.to_int()
            if number < 2:
                self.error("Runtime warning (func=(main), adr=0): ibase too small, set to 2")
                number = 2
            elif number > 16:
                self.error("Runtime warning (func=(main), adr=0): ibase too large, set to 16")
                number = 16
            self.ibase = number
            return
        if name == "obase":
            number = value.to_int()
            if number < 2:
                raise BcRuntimeError("obase too small")
            self.obase = number
            return
        if name == "last":
            self.last = value
            return
        stack = self.scalars.setdefault(name, [Num(0)])
        stack[-1] = value

    def array(self, name: str) -> dict[int, Num]:
        stack = self.arrays.setdefault(name, [{}])
        return stack[-1]

    def index(self, node: Node) -> int:
        value = self.eval(node).to_int()
        if value < 0 or value > 16777215:
            raise BcRuntimeError(f"Array {self._array_name} subscript out of bounds.")
        return value

    _array_name = ""

    def run_line(self, statements: list[Node]) -> None:
        try:
            for statement in statements:
                self.execute(statement, top=True)
        except BcRuntimeError as err:
            self.error(f"Runtime error (func={self.current_function}, adr=0): {err}")
            self.current_function = "(main)"
        except BcMathError as err:
            self.error(f"Runtime error (func={self.current_function}, adr=0): {err}")
            self.current_function = "(main)"
        except (_Break, _Continue):
            pass
        except _Return:
            self.error("Return outside of a function.")
        except RecursionError:
            self.error(f"Runtime error (func={self.current_function}, adr=0): function calls nested too deeply")
            self.current_function = "(main)"

    def execute(self, node: Node, top: bool = False) -> None:
        kind = node[0]
        if kind == "expr":
            inner = node[1]
            value = self.eval(inner)
            if inner[0] != "assign":
                self.out_number(value)
                self.out_text("\n")
                self.last = value
        elif kind == "string":
            self.out_text(node[1])
        elif kind == "print":
            for item in node[1]:
                if item[0] == "pstring":
                    self.out_text(_unescape(item[1]))
                else:
                    value = self.eval(item)
                    self.out_number(value)
                    self.last = value
        elif kind == "block":
            for statement in node[1]:
                self.execute(statement)
        elif kind == "if":
            if not self.eval(node[1]).is_zero():
                self.execute(node[2])
            elif node[3] is not None:
                self.execute(node[3])
        elif kind == "while":
            while not self.eval(node[1]).is_zero():
                self.tick()
                try:
                    self.execute(node[2])
                except _Break:
                    break
                except _Continue:
                    continue
        elif kind == "for":
            _, init, cond, step, body = node
            if init is not None:
                self.eval(init)
            while cond is None or not self.eval(cond).is_zero():
                self.tick()
                try:
                    self.execute(body)
                except _Break:
                    break
                except _Continue:
                    pass
                if step is not None:
                    self.eval(step)
        elif kind == "break":
            raise _Break()
        elif kind == "continue":
            raise _Continue()
        elif kind == "halt":
            raise _Halt()
        elif kind == "return":
            raise _Return(Num(0) if node[1] is None else self.eval(node[1]))

    def eval(self, node: Node) -> Num:
        kind = node[0]
        if kind == "num":
            return parse_number(node[1], self.ibase)
        if kind == "var":
            return self.get(node[1])
        if kind == "elem":
            self._array_name = node[1]
            return self.array(node[1]).get(self.index(node[2]), Num(0))
        if kind == "paren":
            return self.eval(node[1])
        if kind == "neg":
            value = self.eval(node[1])
            return Num(-value.n, value.scale)
        if kind == "bin":
            return self.binary(node[1], self.eval(node[2]), self.eval(node[3]))
        if kind == "rel":
            left, right = self.eval(node[2]), self.eval(node[3])
            c = left.compare(right)
            result = {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0, "==": c == 0, "!=": c != 0}[node[1]]
            return Num(1 if result else 0)
        if kind == "and":
            return Num(1 if not self.eval(node[1]).is_zero() and not self.eval(node[2]).is_zero() else 0)
        if kind == "or":
            return Num(1 if not self.eval(node[1]).is_zero() or not self.eval(node[2]).is_zero() else 0)
        if kind == "not":
            return Num(1 if self.eval(node[1]).is_zero() else 0)
        if kind == "assign":
            _, op, target, expr = node
            value = self.eval(expr)
            if op != "=":
                value = self.binary(op[0], self.eval(target), value)
            self.store(target, value)
            return value
        if kind in ("pre", "post"):
            _, op, target = node
            old = self.eval(target)
            new = old.add(Num(1)) if op == "++" else old.sub(Num(1))
            self.store(target, new)
            return new if kind == "pre" else old
        if kind == "builtin":
            value = self.eval(node[2])
            if node[1] == "length":
                return Num(value.length())
            if node[1] == "scale":
                return Num(value.scale)
            return value.sqrt(self.scale)
        if kind == "call":
            return self.call(node[1], node[2])
        if kind == "read":
            raise BcRuntimeError("read() is not supported in this sandbox")
        raise BcRuntimeError(f"bad expression {kind}")

    def binary(self, op: str, left: Num, right: Num) -> Num:
        if op == "+":
            return left.add(right)
        if op == "-":
            return left.sub(right)
        if op == "*":
            return left.mul(right, self.scale)
        if op == "/":
            return left.div(right, self.scale)
        if op == "%":
            return left.mod(right, self.scale)
        if right.scale:
            self.error(f"Runtime warning (func={self.current_function}, adr=0): non-zero scale in exponent")
        return left.power(right, self.scale)

    def store(self, target: Node, value: Num) -> None:
        if target[0] == "var":
            self.set(target[1], value)
        else:
            self._array_name = target[1]
            self.array(target[1])[self.index(target[2])] = value

    def call(self, name: str, args: list[Node]) -> Num:
        self.tick()
        function = self.functions.get(name)
        if function is None:
            raise BcRuntimeError(f"Function {name} not defined.")
        if len(args) != len(function.params):
            raise BcRuntimeError(f"Parameter number mismatch")
        values: list[object] = []
        for (param, is_array), arg in zip(function.params, args):
            if is_array:
                if arg[0] != "arrayref":
                    raise BcRuntimeError("Parameter type mismatch")
                values.append(dict(self.array(arg[1])))
            else:
                if arg[0] == "arrayref":
                    raise BcRuntimeError("Parameter type mismatch")
                values.append(self.eval(arg))
        pushed: list[tuple[str, bool]] = []
        for (param, is_array), value in zip(function.params, values):
            self._push(param, is_array, value)
            pushed.append((param, is_array))
        for auto, is_array in function.autos:
            self._push(auto, is_array, {} if is_array else Num(0))
            pushed.append((auto, is_array))
        caller = self.current_function
        self.current_function = name
        try:
            for statement in function.body:
                self.execute(statement)
            result = Num(0)
        except _Return as ret:
            result = ret.value
        finally:
            for var, is_array in pushed:
                (self.arrays if is_array else self.scalars)[var].pop()
        self.current_function = caller
        return result

    def _push(self, name: str, is_array: bool, value: object) -> None:
        if is_array:
            self.arrays.setdefault(name, [{}]).append(value)  # type: ignore[arg-type]
        else:
            self.scalars.setdefault(name, [Num(0)]).append(value)  # type: ignore[arg-type]


# bc's print-statement escapes (``\\q`` is a quote, ``\\e`` a backslash); any other
# character after a backslash stands for itself, and there are no numeric escapes.
_BC_ESCAPES = {"n": "\n", "t": "\t", "a": "\a", "b": "\b", "f": "\f", "r": "\r", "q": '"',
               "\\": "\\", "e": "\\"}


def _unescape(text: str) -> str:
    return decode(text, simple=_BC_ESCAPES, octal="none", hex_digits=0, unicode=False,
                  unknown="drop").text


def run_program(source: str, interp: Interpreter, name: str) -> bool:
    """Run ``source``; returns False when ``quit``/``halt`` ended the whole bc session."""
    try:
        tokens = tokenize(source)
    except BcSyntaxError as err:
        interp.error(f"({name}) {err.line}: {err.message}")
        return True
    parser = _Parser(tokens)
    while parser.tok.kind != "eof":
        start_line = parser.tok.line
        try:
            statements, functions, quit_seen = parser.line_items()
        except BcSyntaxError as err:
            interp.error(f"({name}) {err.line}: {err.message}")
            # Resynchronise at the next newline, as GNU's yacc error recovery does.
            while parser.tok.kind not in ("nl", "eof"):
                parser.advance()
            if parser.tok.kind == "nl":
                parser.advance()
            continue
        del start_line
        for function in functions:
            interp.functions[function.name] = function
        try:
            interp.run_line(statements)
        except _Halt:
            return False
        if quit_seen:
            return False
    return True


_BC_HELP = b"""usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
"""
_BC_VERSION = (b"bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 "
               b"Free Software Foundation, Inc.\n")

BC_SPEC = FlagSpec(
    "hilqswv",
    {"help": "h", "interactive": "i", "mathlib": "l", "quiet": "q",
     "standard": "s", "warn": "w", "version": "v"},
)


def bc(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        opts, files = parse_flags(BC_SPEC, argv[1:])
    except UsageError as err:
        usage_error(ctx, "bc", err)
        return 1
    flags = {key for key, _ in opts}
    for key, _ in opts:
        # GNU bc acts on the first of --help and --version as it parses them, then exits.
        if key in ("h", "v"):
            yield _BC_HELP if key == "h" else _BC_VERSION
            return 0
    output: list[str] = []
    interp = Interpreter(write=output.append, error=ctx.error)
    check_time = ctx.extras.get("check_time")
    if callable(check_time):
        interp.tick = check_time
    if "l" in flags:
        from .bclib import LIBRARY

        run_program(LIBRARY, interp, "library")
        interp.scale = 20
    sources: list[tuple[str, Iterator[bytes]]] = []
    for name in files:
        try:
            sources.append((name, open_input(ctx, name)))
        except OSError:
            ctx.error(f"File {name} is unavailable.")
            return 1
    sources.append(("standard_in", stdin_chunks(ctx)))
    # bc recursion runs under the shell's recursion limit (bash.RECURSION_LIMIT): raised
    # here to 20,000, a RecursionError came too deep for the guest's wasm stack to unwind
    # (freeing its traceback trapped the guest); under the shell's, a runaway recursion ends
    # as bc's "function calls nested too deeply" and about 900 nested calls still work.
    for name, chunks in sources:
        text = b"".join(chunks).decode("latin-1")
        keep_going = run_program(text, interp, name)
        if output:
            yield "".join(output).encode("latin-1")
            output.clear()
        if not keep_going:
            return 0
    return 0


COMMANDS = {"bc": bc}
