"""``split`` and ``tee``: the two commands that write standard input to files.

``tee`` streams: each chunk is written and passed on before the next is read.
"""

from __future__ import annotations

from typing import IO, Callable, Iterator, cast

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    host,
    quote_always,
    quote_locale,
    strerror,
)
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- split -------------------------------------------------------------------------------


def split(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "l:b:C:n:da:x",
        {"lines": "l=", "bytes": "b=", "line-bytes": "C=", "number": "n=", "numeric-suffixes": "d?",
         "suffix-length": "a=", "additional-suffix": "additional-suffix=", "hex-suffixes": "x?",
         "verbose": "verbose"},
    )
    try:
        opts, operands = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "split", err)
        return 1
    mode, amount = "l", 1000
    chunks: tuple[str, int] | None = None
    digits = hexa = verbose = False
    suffix_len = 2
    explicit_len = False
    extra = ""
    for key, value in opts:
        v = value or ""
        if key == "l":
            if not (v.isascii() and v.isdigit()) or int(v) == 0:
                why = ": Numerical result out of range" if (v.isascii() and v.isdigit()) else ""
                ctx.error(f"split: invalid number of lines: {quote_locale(ctx, v)}{why}")
                return 1
            mode, amount = "l", int(v)
        elif key == "b":
            size = _parse_size(v)
            if size is None or size == 0:
                why = ": Numerical result out of range" if size == 0 else ""
                ctx.error(f"split: invalid number of bytes: {quote_locale(ctx, v)}{why}")
                return 1
            mode, amount = "b", size
        elif key == "C":
            size = _parse_size(v)
            if size is None or size == 0:
                why = ": Numerical result out of range" if size == 0 else ""
                ctx.error(f"split: invalid number of bytes: {quote_locale(ctx, v)}{why}")
                return 1
            mode, amount = "C", size
        elif key == "n":
            kind, _, count = v.rpartition("/")
            if kind not in ("", "l") or not (count.isascii() and count.isdigit()) or int(count) == 0:
                ctx.error(f"split: invalid number of chunks: {quote_locale(ctx, count)}")
                return 1
            chunks = (kind or "b", int(count))
        elif key == "d":
            digits = True
        elif key == "x":
            hexa = True
        elif key == "a":
            if not (v.isascii() and v.isdigit()):
                ctx.error(f"split: invalid suffix length: {q(v)}")
                return 1
            suffix_len, explicit_len = int(v), True
        elif key == "additional-suffix":
            if "/" in v:
                ctx.error(f"split: invalid suffix {q(v)}, contains directory separator")
                return 1
            extra = v
        elif key == "verbose":
            verbose = True
    if len(operands) > 2:
        ctx.error(f"split: extra operand {q(operands[2])}")
        ctx.error("Try 'split --help' for more information.")
        return 1
    source = operands[0] if operands else "-"
    prefix = operands[1] if len(operands) > 1 else "x"
    alphabet = "0123456789abcdef" if hexa else ("0123456789" if digits else "abcdefghijklmnopqrstuvwxyz")
    if chunks is not None and not explicit_len:
        while len(alphabet) ** suffix_len < chunks[1]:
            suffix_len += 1
    if source == "-":
        stream: Iterator[bytes] = ctx.stdin
    else:
        real = host(ctx, source)
        try:
            handle = fs.open(real, "rb")
        except OSError as exc:
            ctx.error(f"split: cannot open {q(source)} for reading: {strerror(exc)}")
            return 1
        stream = _read_chunks(handle)
    writer = _SplitWriter(ctx, prefix, alphabet, suffix_len, extra, verbose, auto_widen=chunks is None and not explicit_len and not digits and not hexa)
    try:
        _write_pieces(writer, stream, mode, amount, chunks)
    except _Exhausted:
        ctx.error("split: output file suffixes exhausted")
        writer.close()
        return 1
    except OSError as exc:
        ctx.error(f"split: {q(writer.name)}: {strerror(exc)}")
        writer.close()
        return 1
    writer.close()
    yield from writer.messages
    return 0


def _write_pieces(writer: _SplitWriter, stream: Iterator[bytes], mode: str, amount: int,
                  chunks: tuple[str, int] | None) -> None:
    """Cut ``stream`` into the writer's files: into ``chunks`` (``-n``), else by ``mode``:
    ``l`` lines, ``b`` bytes, ``C`` whole lines up to that many bytes."""
    if chunks is not None:
        data = b"".join(stream)
        n = chunks[1]
        size = len(data) // n
        if chunks[0] == "b":
            for k in range(n):
                end = len(data) if k == n - 1 else (k + 1) * size
                writer.new().write(data[k * size : end])
        else:
            pieces: list[list[bytes]] = [[] for _ in range(n)]
            offset = 0
            for line in data.splitlines(keepends=True):
                pieces[min(n - 1, offset // size if size else n - 1)].append(line)
                offset += len(line)
            for piece in pieces:
                writer.new().write(b"".join(piece))
    elif mode == "C":
        # Whole lines, as many as fit in each file; a longer line is cut into pieces.
        room = 0
        for text_line in _lines(stream):
            while text_line:
                if len(text_line) > room and room < amount:
                    writer.new()
                    room = amount
                if len(text_line) <= room:
                    writer.write(text_line)
                    room -= len(text_line)
                    text_line = b""
                else:
                    writer.write(text_line[:room])
                    text_line = text_line[room:]
                    room = 0
    elif mode == "l":
        in_file = amount
        for text_line in _lines(stream):
            if in_file == amount:
                writer.new()
                in_file = 0
            writer.write(text_line)
            in_file += 1
    else:
        room = 0
        for block in stream:
            while block:
                if room == 0:
                    writer.new()
                    room = amount
                writer.write(block[:room])
                taken = min(room, len(block))
                room -= taken
                block = block[taken:]


class _Exhausted(Exception):
    pass


def _read_chunks(handle: object) -> Iterator[bytes]:
    import io

    assert isinstance(handle, io.BufferedReader)
    with handle:
        while True:
            chunk = handle.read(65536)
            if not chunk:
                return
            yield chunk


def _lines(stream: Iterator[bytes]) -> Iterator[bytes]:
    pending = b""
    for chunk in stream:
        pending += chunk
        while True:
            cut = pending.find(b"\n")
            if cut < 0:
                break
            yield pending[: cut + 1]
            pending = pending[cut + 1 :]
    if pending:
        yield pending


def _parse_size(text: str) -> int | None:
    units = {"": 1, "b": 512, "K": 1024, "k": 1024, "KiB": 1024, "KB": 1000, "M": 1024**2,
             "MiB": 1024**2, "MB": 1000**2, "G": 1024**3, "GiB": 1024**3, "GB": 1000**3}
    i = 0
    while i < len(text) and (text[i].isascii() and text[i].isdigit()):
        i += 1
    if i == 0 or text[i:] not in units:
        return None
    return int(text[:i]) * units[text[i:]]


class _SplitWriter:
    """Opens x-aa, x-ab, ... in turn; GNU widens default alphabetic suffixes on the fly."""

    def __init__(self, ctx: CommandContext, prefix: str, alphabet: str, length: int, extra: str,
                 verbose: bool, auto_widen: bool) -> None:
        self.ctx = ctx
        self.prefix = prefix
        self.alphabet = alphabet
        self.length = length
        self.extra = extra
        self.verbose = verbose
        self.index = 0
        self.handle: object = None
        self.name = ""
        self.messages: list[bytes] = []
        self.auto_widen = auto_widen

    def _suffix(self) -> str:
        base = len(self.alphabet)
        n = self.index
        if n >= base**self.length:
            raise _Exhausted()
        chars = []
        for _ in range(self.length):
            chars.append(self.alphabet[n % base])
            n //= base
        return "".join(reversed(chars))

    def new(self) -> "_SplitWriter":
        self.close()
        base = len(self.alphabet)
        if self.auto_widen and self.index == (base - 1) * base ** (self.length - 1):
            self.prefix += self.alphabet[-1]
            self.length += 1
            self.index = 0
        self.name = self.prefix + self._suffix() + self.extra
        self.index += 1
        self.handle = fs.open(host(self.ctx, self.name), "wb")
        if self.verbose:
            self.messages.append(_b(f"creating file {q(self.name)}\n"))
        return self

    def write(self, data: bytes) -> None:
        import io

        assert isinstance(self.handle, io.BufferedWriter)
        self.handle.write(data)

    def close(self) -> None:
        import io

        if isinstance(self.handle, io.BufferedWriter):
            self.handle.close()
        self.handle = None


# --- tee ---------------------------------------------------------------------------------


def tee(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec("aip", {"append": "a", "ignore-interrupts": "i", "output-error": "p?"})
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "tee", err)
        return 1
    append = any(k == "a" for k, _ in opts)
    status = 0
    handles: list[IO[bytes]] = []
    to_stdout = 0
    to_stderr = 0
    for name in names:
        # The sandbox has no /dev; the usual device names behave as they do on Linux.
        where = ctx.resolve(name)
        if where == "/dev/null":
            continue
        if where == "/dev/stdout":
            to_stdout += 1
            continue
        if where == "/dev/stderr":
            to_stderr += 1
            continue
        pipe = ctx.open_pipe(where, "w")
        if pipe is not None:  # >(...): a process substitution's pipe
            handles.append(cast("IO[bytes]", pipe))
            continue
        # GNU tee writes an operand "-" to a file of that name, not to stdout.
        try:
            handles.append(fs.open(host(ctx, name), "ab" if append else "wb"))
        except OSError as exc:
            ctx.error(f"tee: {name}: {strerror(exc)}")
            status = 1
    try:
        for chunk in ctx.stdin:
            for handle in handles:
                handle.write(chunk)
                handle.flush()
            for _ in range(to_stderr):
                ctx.stderr.write(chunk)
            for _ in range(1 + to_stdout):
                yield chunk
    finally:
        for handle in handles:
            handle.close()
    return status


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"split": split, "tee": tee}
