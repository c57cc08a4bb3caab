"""The ``jq`` command line: options, filter compilation, and the loop over the inputs.

Inputs are parsed lazily, so
``jq`` streams over a pipeline. Exit statuses follow jq: 2 usage/IO, 3 compile error,
5 runtime error (jq carries on with the next input), 1/4 under ``-e``.
"""

from __future__ import annotations

from typing import Any, Iterator

from .builtins import KNOWN_FUNCTIONS, make_interp
from .evaluate import BreakOut, Env, Halt, JqError
from .json import JSONParseError, StreamPosition, dumps, dumps_color, iter_values, loads, sort_keys_deep
from .parse import JqCompileError, Parser, check
from ..base import Command, CommandContext, CommandResult
from ... import fs

USAGE = ("Usage:\tjq [OPTIONS] FILTER [FILES...]\n\tjq [OPTIONS] --args FILTER [ARGUMENTS...]\n"
         "\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]\n\n"
         "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq")


PREDEFINED_VARIABLES = frozenset({"ENV", "__loc__", "ARGS"})
"""The variables every program may name without binding them: ``$ENV`` and ``$ARGS`` are
bound below for each run, ``$__loc__`` by the parser."""


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape") if _is_escaped(text) else text.encode("utf-8", "replace")


def _is_escaped(text: str) -> bool:
    try:
        text.encode("utf-8", "surrogateescape")
        return True
    except UnicodeEncodeError:
        return False


class _Options:
    def __init__(self) -> None:
        self.raw = False
        self.join = False
        self.compact = False
        self.slurp = False
        self.null_input = False
        self.raw_input = False
        self.exit_status = False
        self.ascii = False
        self.sort_keys = False
        self.tab = False
        self.indent = 2
        self.seq = False
        self.stream = False
        self.color = False
        self.mono = False
        self.raw0 = False
        self.filter: str | None = None
        self.files: list[str] = []
        self.named: dict[str, Any] = {}
        self.positional: list[Any] = []


# Flags that only switch options on: the ``_Options`` attributes each one sets.
_LONG_FLAGS: dict[str, tuple[str, ...]] = {
    "raw-output": ("raw",), "raw-output0": ("raw", "raw0"), "join-output": ("raw", "join"),
    "compact-output": ("compact",), "slurp": ("slurp",), "null-input": ("null_input",),
    "raw-input": ("raw_input",), "exit-status": ("exit_status",), "ascii-output": ("ascii",),
    "sort-keys": ("sort_keys",), "tab": ("tab",), "seq": ("seq",), "stream": ("stream",),
    "color-output": ("color",), "monochrome-output": ("mono",), "unbuffered": (),
    "stream-errors": (),
}
_SHORT_FLAGS: dict[str, tuple[str, ...]] = {
    "r": ("raw",), "j": ("raw", "join"), "c": ("compact",), "s": ("slurp",),
    "n": ("null_input",), "R": ("raw_input",), "e": ("exit_status",), "a": ("ascii",),
    "S": ("sort_keys",), "C": ("color",), "M": ("mono",),
}


class _Stop(Exception):
    """The command line ends the run with this status (-1: print the version)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _ArgParser:
    """jq 1.6's own command line (not getopt): short flags cluster, ``--arg name value`` and
    friends take two words, and the first operand is the program unless ``-f`` gave one."""

    def __init__(self, ctx: CommandContext, args: list[str]) -> None:
        self.ctx = ctx
        self.args = args
        self.i = 0
        self.o = _Options()
        self.rest_mode: str | None = None  # "args" or "jsonargs": remaining positionals are values
        self.filter_from_file: str | None = None
        self.positionals: list[str] = []

    def usage(self, message: str) -> _Stop:
        self.ctx.error(message)
        self.ctx.error(USAGE)
        return _Stop(2)

    def need(self, count: int, opt: str) -> list[str]:
        """The ``count`` words after the option at ``i``."""
        i, args = self.i, self.args
        if i + count >= len(args):
            raise self.usage(f"jq: error: {opt} takes {'two parameters' if count == 2 else 'a parameter'} (e.g. {opt} varname value)"
                             if count == 2 else f"jq: error: {opt} takes a parameter")
        return args[i + 1 : i + 1 + count]

    def read_file(self, name: str) -> str:
        try:
            with fs.open(self.ctx.host_path(name), "rb") as handle:
                return handle.read().decode("utf-8", "replace")
        except OSError as exc:
            self.ctx.error(f"jq: error: Could not open {name}: {exc.strerror}")
            raise _Stop(2) from None

    def parse(self) -> _Options:
        args = self.args
        while self.i < len(args):
            arg = args[self.i]
            if arg == "--":
                self.positionals.extend(args[self.i + 1 :])
                break
            if arg.startswith("--") and len(arg) > 2:
                self.long_option(arg)
            elif arg.startswith("-") and len(arg) > 1 and ((arg[1].isascii() and arg[1].isdigit()) or " " in arg):
                # Not an option: a program such as "-1 - -2".
                self.positionals.append(arg)
            elif arg.startswith("-") and len(arg) > 1:
                self.short_options(arg)
            else:
                self.positionals.append(arg)
            self.i += 1
        return self.finish()

    def long_option(self, arg: str) -> None:
        o, name = self.o, arg[2:]
        if name in _LONG_FLAGS:
            for attr in _LONG_FLAGS[name]:
                setattr(o, attr, True)
        elif name == "indent":
            (value,) = self.need(1, "--indent")
            try:
                n = int(value)
            except ValueError:
                self.ctx.error("jq: --indent takes a number")
                raise _Stop(2) from None
            if n > 7:
                raise self.usage("jq: Cannot indent more than 7 characters")
            o.indent = max(n, 0)
            self.i += 1
        elif name in ("arg", "argjson", "slurpfile", "rawfile"):
            self.named_value(name)
            self.i += 2
        elif name in ("args", "jsonargs"):
            self.rest_mode = name
        elif name == "from-file":
            self.filter_from_file = self.need(1, "--from-file")[0]
            self.i += 1
        elif name == "help":
            self.ctx.error(USAGE)
            raise _Stop(0)
        elif name == "version":
            raise _Stop(-1)
        else:
            raise self.usage(f"jq: Unknown option: {arg}")

    def named_value(self, name: str) -> None:
        """``--arg``, ``--argjson``, ``--slurpfile`` or ``--rawfile`` NAME VALUE."""
        key, value = self.need(2, "--" + name)
        named = self.o.named
        if name == "arg":
            named[key] = value
        elif name == "argjson":
            try:
                named[key] = loads(value)
            except (JSONParseError, ValueError):
                raise self.usage("jq: Invalid JSON text passed to --argjson") from None
        else:
            text = self.read_file(value)
            if name == "rawfile":
                named[key] = text
            else:
                try:
                    named[key] = list(iter_values(iter([text])))
                except (JSONParseError, ValueError) as exc:
                    self.ctx.error(f"jq: Bad JSON in --slurpfile {key} {value}: {exc}")
                    raise _Stop(2) from None

    def short_options(self, arg: str) -> None:
        for c in arg[1:]:
            if c in _SHORT_FLAGS:
                for attr in _SHORT_FLAGS[c]:
                    setattr(self.o, attr, True)
            elif c == "f":
                self.filter_from_file = self.need(1, "-f")[0]
                self.i += 1
            elif c == "L":
                self.i += 1
            elif c == "h":
                self.ctx.error(USAGE)
                raise _Stop(0)
            else:
                raise self.usage(f"jq: Unknown option: {arg}")

    def finish(self) -> _Options:
        """The program, then what the remaining operands are (files, or ``$ARGS`` values)."""
        o, positionals = self.o, self.positionals
        if self.filter_from_file is not None:
            o.filter = self.read_file(self.filter_from_file)
        elif positionals:
            o.filter = positionals.pop(0)
        if o.filter is None:
            # jq runs "." when given no program.
            o.filter = "."
        if self.rest_mode == "args":
            o.positional = list(positionals)
        elif self.rest_mode == "jsonargs":
            for p in positionals:
                try:
                    o.positional.append(loads(p))
                except (JSONParseError, ValueError):
                    raise self.usage("jq: Invalid JSON text passed to --jsonargs") from None
        else:
            o.files = positionals
        return o


def _parse_args(ctx: CommandContext, argv: list[str]) -> _Options | int:
    try:
        return _ArgParser(ctx, argv[1:]).parse()
    except _Stop as stop:
        return stop.status


def _decode_utf8(chunks: Iterator[bytes]) -> Iterator[str]:
    """Decode UTF-8 across chunk boundaries (a character may be split between chunks)."""
    pending = b""
    for chunk in chunks:
        data = pending + chunk
        cut = len(data)
        # Hold back an incomplete multi-byte sequence at the end for the next chunk.
        for back in range(1, min(4, len(data)) + 1):
            byte = data[-back]
            if byte & 0xC0 == 0x80:
                continue
            need = 2 if byte & 0xE0 == 0xC0 else 3 if byte & 0xF0 == 0xE0 else 4 if byte & 0xF8 == 0xF0 else 1
            if need > back:
                cut = len(data) - back
            break
        pending = data[cut:]
        if cut:
            yield data[:cut].decode("utf-8", "replace")
    if pending:
        yield pending.decode("utf-8", "replace")


def _events(value: Any, path: list[Any], top: bool) -> Iterator[Any]:
    """jq --stream events for one value: [path, leaf] for each leaf, [path] after the last
    element of each non-empty container."""
    if isinstance(value, (list, dict)) and value:
        items = list(enumerate(value)) if isinstance(value, list) else list(value.items())
        last: list[Any] = path
        for key, item in items:
            k = float(key) if isinstance(value, list) else key
            last = path + [k]
            yield from _events(item, last, False)
        yield [last]
    else:
        yield [path, value]


def _stream_events(values: Iterator[Any], slurp: bool) -> Iterator[Any]:
    if slurp:
        # --stream --slurp: all events of all inputs in one array.
        for batch in values:
            yield [e for v in (batch if isinstance(batch, list) else [batch]) for e in _events(v, [], True)]
        return
    for value in values:
        yield from _events(value, [], True)


class _Inputs:
    """The input values: from files or stdin, parsed lazily (or raw lines with -R)."""

    def __init__(self, ctx: CommandContext, o: _Options, interp: Any) -> None:
        self.ctx = ctx
        self.o = o
        self.interp = interp
        self.status = 0
        self.parse_error: str | None = None
        self.where = StreamPosition()

    def _chunks(self) -> Iterator[str]:
        return _decode_utf8(self._byte_chunks())

    def _byte_chunks(self) -> Iterator[bytes]:
        if not self.o.files:
            self.interp.current_filename = "<stdin>"
            yield from self.ctx.stdin
            return
        for name in self.o.files:
            if name == "-":
                self.interp.current_filename = "<stdin>"
                yield from self.ctx.stdin
                continue
            try:
                with fs.open(self.ctx.host_path(name), "rb") as handle:
                    self.interp.current_filename = name
                    while True:
                        data = handle.read(65536)
                        if not data:
                            break
                        yield data
            except IsADirectoryError:
                self.ctx.error(f"jq: error: Could not open {name}: Is a directory")
                self.status = 2
            except OSError as exc:
                self.ctx.error(f"jq: error: Could not open {name}: {exc.strerror}")
                self.status = 2

    def location(self) -> str:
        if not self.where.parsed:
            return "<unknown>"
        name = self.interp.current_filename
        return f"{name if isinstance(name, str) else '<stdin>'}:{self.where.line}"

    def values(self) -> Iterator[Any]:
        if self.o.raw_input:
            if self.o.slurp:
                yield "".join(self._chunks())
                return
            pending = ""
            for chunk in self._chunks():
                pending += chunk
                while True:
                    cut = pending.find("\n")
                    if cut < 0:
                        break
                    yield pending[:cut]
                    pending = pending[cut + 1 :]
            if pending:
                yield pending
            return
        try:
            if self.o.slurp:
                yield list(iter_values(self._chunks(), self.where))
                return
            yield from iter_values(self._chunks(), self.where)
        except JSONParseError as exc:
            self.parse_error = str(exc)


def jq(ctx: CommandContext, argv: list[str]) -> CommandResult:
    parsed = _parse_args(ctx, argv)
    if parsed == -1:
        yield b"jq-1.6\n"
        return 0
    if isinstance(parsed, int):
        return parsed
    o = parsed
    assert o.filter is not None
    try:
        ast = Parser(o.filter).parse()
    except JqCompileError as exc:
        ctx.error(f"jq: error: {exc}")
        ctx.error("jq: 1 compile error")
        return 3
    except RecursionError:
        ctx.error("jq: error: filter nesting too deep")
        ctx.error("jq: 1 compile error")
        return 3
    interp = make_interp()
    try:
        check(ast, KNOWN_FUNCTIONS, PREDEFINED_VARIABLES | frozenset(o.named), o.filter)
    except JqCompileError as exc:
        ctx.error(f"jq: error: {exc}")
        ctx.error("jq: 1 compile error")
        return 3
    interp.env_vars = dict(ctx.env)
    timeout_hook = ctx.extras.get("check_time")
    interp.check_time = timeout_hook if callable(timeout_hook) else None
    interp.stderr = ctx.stderr.write
    env = Env(interp.root_env)
    named = dict(o.named)
    for key, value in named.items():
        env.vars[key] = value
    env.vars["ENV"] = dict(ctx.env)
    env.vars["__prog_args"] = None
    env.vars["ARGS"] = {"positional": list(o.positional), "named": named}
    source = _Inputs(ctx, o, interp)
    interp.line_number = lambda: source.where.line
    values = source.values()
    if o.stream:
        values = _stream_events(values, o.slurp)
    interp.inputs = values
    indent: int | str = 0 if o.compact else ("\t" if o.tab else o.indent)
    # jq 1.6 keeps the status of the last input processed: 0 after output, 5 after an
    # uncaught error, and "no output" (4 under -e, else 0) when nothing was printed.
    status = _NO_OUTPUT
    inputs: Iterator[Any] = iter([None]) if o.null_input else values
    processed = False
    for value in inputs:
        processed = True
        out: list[bytes] = []
        status = _NO_OUTPUT
        try:
            for result in interp.eval(ast, value, env):
                status = 1 if o.exit_status and (result is None or result is False) else 0
                if o.seq:
                    out.append(b"\x1e")
                if o.raw and isinstance(result, str) and not o.ascii:
                    text = result
                elif o.color and not o.mono:
                    text = dumps_color(sort_keys_deep(result) if o.sort_keys else result, indent)
                else:
                    text = dumps(sort_keys_deep(result) if o.sort_keys else result, indent, False, o.ascii)
                out.append(_encode(text))
                if o.raw0:
                    out.append(b"\0")
                elif not o.join:
                    out.append(b"\n")
                if len(out) > 64:
                    yield b"".join(out)
                    out.clear()
        except JqError as err:
            if out:
                yield b"".join(out)
                out.clear()
            if err.value is None:
                # jq 1.6 ends this input silently for error(null).
                continue
            ctx.error(f"jq: error (at {source.location()}): {err.message()}")
            status = 5
        except BreakOut:
            if out:
                yield b"".join(out)
                out.clear()
            ctx.error("jq: error (at <unknown>): break")
            status = 5
        except Halt as halt:
            if out:
                yield b"".join(out)
            if halt.has_message and halt.message is not None:
                msg = halt.message
                if isinstance(msg, str):
                    ctx.stderr.write(_encode(msg))
                else:
                    ctx.stderr.write(_encode(dumps(msg) + "\n"))
            return halt.status
        except RecursionError:
            ctx.error("jq: error: stack overflow (recursion too deep)")
            return 5
        except (ValueError, TypeError, OverflowError, KeyError, IndexError, AttributeError) as exc:
            # A builtin met input it does not expect: report it like a jq error, never crash.
            if out:
                yield b"".join(out)
                out.clear()
            ctx.error(f"jq: error (at {source.location()}): {exc}")
            status = 5
        if out:
            yield b"".join(out)
    if source.parse_error is not None:
        ctx.error(f"parse error: {source.parse_error} at line {source.where.line + 1}")
        return 2 if source.status else 4
    if source.status:
        return source.status
    if status == _NO_OUTPUT:
        return 4 if o.exit_status and processed else 0
    return status


_NO_OUTPUT = -1


COMMANDS: dict[str, Command] = {"jq": jq}
