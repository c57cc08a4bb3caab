"""The ``sed`` command: options, and the executor that runs a parsed script over the input.

Input is read
lazily with one line of lookahead (needed for ``$``), so ``yes | sed 3q`` ends at once.
Text is handled as latin-1 strings: one character per byte, as in the C locale.
Not supported: the ``e`` command and ``s///e`` (no processes in the sandbox).
"""

from __future__ import annotations

import os
import re
from typing import IO, Callable, Iterator, cast

from ...flagspec import FlagSpec, UsageError, parse_flags
from .parse import Addr, Cmd, Parser, Regex, Repl, SedError
from .regex import argv_text, bytes_text
from ..base import Command, CommandContext, CommandResult
from ... import fs

USAGE = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]..."
OUTPUT_BATCH = 128
"""Output pieces (a line is one or two) handed on at once. A cycle's output handed on at
each cycle sent every line through the pipeline's generators on its own, most of a
``sed s/a/b/`` over 20,000 lines; GNU sed itself holds 4 KiB before it writes to a pipe."""


class _Quit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


class _Input:
    """Lines across all input files with one line of lookahead."""

    def __init__(self, sed: "_Sed", files: list[str]) -> None:
        self.sed = sed
        self.files = files
        self.file_index = -1
        self.current: Iterator[tuple[str, bool]] | None = None
        self.pending: tuple[str, bool] | None = None
        self.pending_file = -1
        self.filename = "-"
        self.line_file = -1

    def _open_next(self) -> bool:
        while self.file_index + 1 < len(self.files):
            self.file_index += 1
            name = self.files[self.file_index]
            it = self.sed.open_input(name)
            if it is not None:
                self.current = it
                return True
        self.current = None
        return False

    def _fill(self, same_file: bool) -> bool:
        if self.pending is not None:
            return True
        while True:
            if self.current is None:
                if same_file or not self._open_next():
                    return False
            assert self.current is not None
            item = next(self.current, None)
            if item is not None:
                self.pending = item
                self.pending_file = self.file_index
                return True
            self.current = None
            if same_file:
                return False

    def has_next(self) -> bool:
        return self._fill(False)

    def is_last(self) -> bool:
        if self.sed.separate:
            if self.pending is not None:
                return self.pending_file != self.line_file
            if self.current is None:
                return True
            return not self._fill(True)
        return not self._fill(False)

    def next(self) -> tuple[str, bool] | None:
        if not self._fill(False):
            return None
        item = self.pending
        self.pending = None
        assert item is not None
        if self.pending_file != self.line_file:
            self.line_file = self.pending_file
            self.sed.start_file(self.pending_file)
        return item


class _Sed:
    def __init__(self, ctx: CommandContext, cmds: list[Cmd], opts: dict[str, object]) -> None:
        self.ctx = ctx
        self.cmds = cmds
        self.quiet = bool(opts["quiet"])
        self.unbuffered = bool(opts.get("unbuffered"))
        self.separate = bool(opts["separate"])
        self.in_place = opts["in_place"]  # None or suffix string
        self.sep = "\0" if opts["null"] else "\n"
        self.line_wrap = int(str(opts["line_length"]))
        self.files: list[str] = list(opts["files"])  # type: ignore[call-overload]
        self.status = 0
        self.lineno = 0
        self.last_regex: tuple[re.Pattern[str], re.Pattern[str] | None] | None = None
        self.append_queue: list[str] = []
        self.out: list[str] = []
        self.wfiles: dict[str, IO[bytes]] = {}
        self.rfiles: dict[str, Iterator[tuple[str, bool]] | None] = {}
        self.input: _Input | None = None
        self.inplace_target: str | None = None
        self.missing_newline = False
        self.templates: dict[tuple[re.Pattern[str], int], str | None] = {}
        self.real_stdout: list[str] = []
        self.ticks = 0
        check = ctx.extras.get("check_time")
        # The shell's timeout hook: a branch loop like ":a;ba" must still time out.
        self.check_time: Callable[[], None] | None = check if callable(check) else None
        for cmd in cmds:
            if cmd.a1 is not None and cmd.a1.kind == "zero":
                cmd.active = True

    # -- files -----------------------------------------------------------------------
    def split_lines(self, chunks: Iterator[bytes]) -> Iterator[tuple[str, bool]]:
        sep = self.sep.encode()
        pending = b""
        for chunk in chunks:
            data = pending + chunk if pending else chunk
            start = 0
            while True:
                cut = data.find(sep, start)
                if cut < 0:
                    break
                yield data[start:cut].decode("latin-1"), True
                start = cut + 1
            pending = data[start:]
        if pending:
            yield pending.decode("latin-1"), False

    def open_input(self, name: str) -> Iterator[tuple[str, bool]] | None:
        if name == "-" and self.in_place is None:
            return self.split_lines(self.ctx.stdin)
        pipe = self.ctx.open_pipe(self.ctx.resolve(name), "r") if self.in_place is None else None
        if pipe is not None:  # <(...)
            return self.split_lines(cast("Iterator[bytes]", pipe))
        path = self.ctx.host_path(name)
        if fs.isdir(path):
            if self.in_place is not None:
                self.ctx.error(f"sed: couldn't edit {name}: not a regular file")
            else:
                self.ctx.error(f"sed: read error on {name}: Is a directory")
            self.status = 2
            return None
        try:
            handle = fs.open(path, "rb")
        except OSError as exc:
            self.ctx.error(f"sed: can't read {name}: {exc.strerror}")
            self.status = 2
            return None

        def chunks() -> Iterator[bytes]:
            with handle:
                while True:
                    data = handle.read(65536)
                    if not data:
                        return
                    yield data

        return self.split_lines(chunks())

    def start_file(self, index: int) -> None:
        """Called when the first line of input file ``index`` is read."""
        if self.separate:
            self.lineno = 0
        if self.in_place is not None:
            self.finish_in_place()
            self.inplace_target = self.files[index]

    def finish_in_place(self) -> None:
        if self.inplace_target is None:
            return
        path = self.ctx.host_path(self.inplace_target)
        suffix = str(self.in_place)
        try:
            mode: int | None = fs.stat(path).st_mode & 0o7777
        except OSError:
            mode = None
        if suffix:
            if "*" in suffix:
                base = os.path.basename(self.inplace_target)
                backup_name = suffix.replace("*", base)
                if "/" not in backup_name:
                    backup_name = os.path.join(os.path.dirname(self.inplace_target) or ".", backup_name)
            else:
                backup_name = self.inplace_target + suffix
            try:
                fs.replace(path, self.ctx.host_path(backup_name))
            except OSError as exc:
                self.ctx.error(f"sed: cannot rename {self.inplace_target}: {exc.strerror}")
                self.status = 4
        data = "".join(self.out).encode("latin-1")
        self.out.clear()
        self.missing_newline = False
        try:
            with fs.open(path, "wb") as handle:
                handle.write(data)
            if mode is not None:
                # The backup took the original inode; the new file keeps its permissions.
                fs.chmod(path, mode)
        except OSError as exc:
            self.ctx.error(f"sed: couldn't open file {self.inplace_target}: {exc.strerror}")
            self.status = 4
        self.inplace_target = None

    def write_file(self, name: str, text: str) -> None:
        if name == "/dev/stdout":
            if self.in_place is not None:
                # With -i the pattern space output goes to the file; "w /dev/stdout"
                # still means the real standard output.
                self.real_stdout.append(text)
            else:
                self.emit(text)
            return
        if name == "/dev/stderr":
            self.ctx.stderr.write(text.encode("latin-1"))
            return
        handle = self.wfiles.get(name)
        if handle is None:
            return
        handle.write(text.encode("latin-1"))

    def open_wfiles(self, names: list[str]) -> bool:
        for name in names:
            if name in ("/dev/stdout", "/dev/stderr") or name in self.wfiles:
                continue
            try:
                self.wfiles[name] = fs.open(self.ctx.host_path(argv_text(name)), "wb")
            except OSError as exc:
                self.ctx.error(f"sed: couldn't open file {name}: {exc.strerror}")
                return False
        return True

    def read_file_text(self, name: str) -> str | None:
        if name == "/dev/stdin":
            return self.ctx.read_all_stdin().decode("latin-1")
        try:
            with fs.open(self.ctx.host_path(argv_text(name)), "rb") as handle:
                return handle.read().decode("latin-1")
        except OSError:
            return None

    def read_file_line(self, name: str) -> str | None:
        if name not in self.rfiles:
            try:
                handle = fs.open(self.ctx.host_path(argv_text(name)), "rb")
            except OSError:
                self.rfiles[name] = None
            else:
                def chunks() -> Iterator[bytes]:
                    with handle:
                        yield handle.read()
                self.rfiles[name] = self.split_lines(chunks())
        it = self.rfiles[name]
        if it is None:
            return None
        item = next(it, None)
        if item is None:
            return None
        return item[0] + self.sep

    # -- matching --------------------------------------------------------------------
    def regex(self, rx: Regex) -> re.Pattern[str]:
        return self.regex_pair(rx)[0]

    def regex_pair(self, rx: Regex) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
        """The pattern to search with and, if different, the one giving glibc's groups."""
        if rx.compiled is None:
            if self.last_regex is None:
                raise SedError("no previous regular expression")
            return self.last_regex
        self.last_regex = (rx.compiled, rx.groups)
        return self.last_regex

    def match_addr(self, addr: Addr, ps: str) -> bool:
        kind = addr.kind
        if kind == "line":
            return self.lineno == addr.n
        if kind == "last":
            assert self.input is not None
            return self.input.is_last()
        if kind == "re":
            assert addr.regex is not None
            return self.regex(addr.regex).search(ps) is not None
        if kind == "step":
            if addr.step <= 0:
                return self.lineno == addr.n
            return self.lineno >= addr.n and (self.lineno - addr.n) % addr.step == 0
        return False

    def selected(self, cmd: Cmd, ps: str) -> bool:
        a1, a2 = cmd.a1, cmd.a2
        if a1 is None:
            return True
        if a2 is None:
            return self.match_addr(a1, ps)
        if cmd.active:
            kind = a2.kind
            if kind == "re":
                if self.match_addr(a2, ps):
                    cmd.active = False
            elif kind == "line":
                if self.lineno >= a2.n:
                    cmd.active = False
                    if self.lineno > a2.n:
                        # The range already ended before this line (GNU checks lazily).
                        return self.match_addr(a1, ps) and self.start_range(cmd, ps)
            elif kind == "plus":
                if self.lineno >= cmd.end_line:
                    cmd.active = False
            elif kind == "mult":
                if a2.n <= 0 or self.lineno % a2.n == 0:
                    cmd.active = False
            elif kind == "last":
                if self.match_addr(a2, ps):
                    cmd.active = False
            return True
        if self.match_addr(a1, ps):
            return self.start_range(cmd, ps)
        return False

    def start_range(self, cmd: Cmd, ps: str) -> bool:
        a2 = cmd.a2
        assert a2 is not None
        cmd.active = True
        if a2.kind == "line":
            if a2.n <= self.lineno:
                cmd.active = False
        elif a2.kind == "plus":
            cmd.end_line = self.lineno + a2.n
            if a2.n == 0:
                cmd.active = False
        elif a2.kind == "mult":
            if a2.n <= 0 or self.lineno % a2.n == 0:
                cmd.active = False
        elif a2.kind == "last":
            if self.match_addr(a2, ps):
                cmd.active = False
        return True

    # -- commands --------------------------------------------------------------------
    def substitute(self, cmd: Cmd, ps: str) -> tuple[str, bool]:
        assert cmd.regex is not None and cmd.repl is not None
        rx, groups_rx = self.regex_pair(cmd.regex)
        if groups_rx is None and cmd.occurrence == 1:
            template = self.fast_template(rx, cmd.repl)
            if template is not None:
                out, made = rx.subn(template, ps, count=0 if cmd.global_ else 1)
                return out, made > 0
        pieces: list[str] = []
        pos = 0
        copied = 0
        count = 0
        prev_end = -1
        done = False
        n = len(ps)
        while pos <= n:
            m = rx.search(ps, pos)
            if m is None:
                break
            start, end = m.span()
            if start == end and start == prev_end:
                # An empty match right after the previous match is not a match (GNU).
                pos = start + 1
                continue
            count += 1
            if count >= cmd.occurrence:
                pieces.append(ps[copied:start])
                if groups_rx is not None:
                    m = groups_rx.fullmatch(ps, start, end) or m
                pieces.append(self.expand(cmd.repl, m))
                copied = end
                done = True
                if not cmd.global_:
                    break
            prev_end = end
            pos = end if end > start else end + 1
        if not done:
            return ps, False
        pieces.append(ps[copied:])
        return "".join(pieces), True

    _MAY_MATCH_EMPTY = ("\\b", "\\B", "(?=", "(?!", "(?<", "^", "$", "\\A", "\\Z")

    def fast_template(self, rx: re.Pattern[str], repl: Repl) -> str | None:
        """A re.sub template equivalent to ``repl``, when re.subn gives GNU's result: the
        regex never matches the empty string (where GNU and Python differ) and the
        replacement has no case conversion. None otherwise."""
        key = (rx, id(repl))
        cached = self.templates.get(key, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        template: str | None = None
        if rx.fullmatch("") is None and not any(t in rx.pattern for t in self._MAY_MATCH_EMPTY) \
                and all(kind != "case" for kind, _ in repl.parts):
            template = "".join(str(v).replace("\\", "\\\\") if kind == "lit" else f"\\g<{v}>"
                               for kind, v in repl.parts)
        self.templates[key] = template
        return template

    @staticmethod
    def expand(repl: Repl, m: re.Match[str]) -> str:
        out: list[str] = []
        mode = ""
        one = ""
        for kind, value in repl.parts:
            if kind == "case":
                if value in ("u", "l"):
                    one = str(value)
                elif value == "E":
                    mode = ""
                    one = ""
                else:
                    mode = str(value)
                    one = ""
                continue
            if kind == "lit":
                text = str(value)
            else:
                assert isinstance(value, int)
                try:
                    text = m.group(value) or ""
                except IndexError:
                    text = ""
            if not text:
                continue
            if mode == "U":
                text = text.upper()
            elif mode == "L":
                text = text.lower()
            if one:
                text = (text[0].upper() if one == "u" else text[0].lower()) + text[1:]
                one = ""
            out.append(text)
        return "".join(out)

    def escape_l(self, ps: str, width: int) -> str:
        pieces: list[str] = []
        for ch in ps:
            code = ord(ch)
            if ch == "\\":
                pieces.append("\\\\")
            elif ch in "\a\b\f\n\r\t\v":
                pieces.append("\\" + "abfnrtv"["\a\b\f\n\r\t\v".index(ch)])
            elif code < 32 or code >= 127:
                pieces.append(f"\\{code:03o}")
            else:
                pieces.append(ch)
        lines: list[str] = []
        current = ""
        for piece in pieces:
            # Width 0 never wraps; otherwise each output line holds at most width-1
            # characters before its "\\" (so width 1 puts every character on its own line).
            if width > 0 and len(current) + len(piece) > width - 1:
                lines.append(current + "\\\n")
                current = ""
            current += piece
        lines.append(current + "$" + self.sep)
        return "".join(lines)

    def emit(self, text: str) -> None:
        if self.missing_newline:
            self.out.append(self.sep)
            self.missing_newline = False
        self.out.append(text)

    def emit_ps(self, text: str, had_nl: bool) -> None:
        """Output pattern-space text; the last input line keeps its missing newline."""
        self.emit(text)
        if had_nl:
            self.out.append(self.sep)
        else:
            self.missing_newline = True

    def flush_appends(self) -> None:
        for text in self.append_queue:
            self.emit(text)
        self.append_queue.clear()

    def run(self) -> Iterator[str]:
        """Run the script over all input; yields its output every ``OUTPUT_BATCH`` pieces
        (every cycle with ``-u``, or when ``w /dev/stdout`` under ``-i`` wrote)."""
        inp = _Input(self, self.files)
        self.input = inp
        cmds = self.cmds
        ncmds = len(cmds)
        quit_status: int | None = None
        ps = ""
        hs = ""
        restart_with: str | None = None
        had_nl = True
        while True:
            if restart_with is None:
                item = inp.next()
                if item is None:
                    break
                ps, had_nl = item
                self.lineno += 1
            else:
                ps = restart_with
                restart_with = None
            subst = False
            autoprint = not self.quiet
            pc = 0
            end_cycle = False
            while pc < ncmds and not end_cycle:
                cmd = cmds[pc]
                pc += 1
                self.ticks += 1
                if self.ticks & 4095 == 0 and self.check_time is not None:
                    self.check_time()
                sel = self.selected(cmd, ps)
                if cmd.negate:
                    sel = not sel
                name = cmd.name
                if not sel:
                    if name == "{":
                        pc = cmd.target
                    continue
                if name in "{}:":
                    continue
                if name == "s":
                    ps, did = self.substitute(cmd, ps)
                    if did:
                        subst = True
                        for _ in range(cmd.print_):
                            self.emit_ps(ps, had_nl)
                        if cmd.wfile is not None:
                            self.write_file(cmd.wfile, ps + self.sep)
                elif name == "d":
                    autoprint = False
                    end_cycle = True
                elif name == "D":
                    cut = ps.find("\n")
                    autoprint = False
                    end_cycle = True
                    if cut >= 0:
                        restart_with = ps[cut + 1 :]
                elif name == "n":
                    if self.quiet and not inp.has_next():
                        # GNU: at end of input ``n`` quits without autoprint under -n.
                        autoprint = False
                        end_cycle = True
                        quit_status = 0
                        continue
                    if not inp.has_next():
                        end_cycle = True
                        quit_status = 0
                        continue
                    if not self.quiet:
                        self.emit_ps(ps, had_nl)
                    ps, had_nl = self.next_line(inp)
                elif name == "N":
                    if not inp.has_next():
                        end_cycle = True
                        quit_status = 0
                        continue
                    line, had_nl = self.next_line(inp)
                    ps = ps + "\n" + line
                elif name == "c":
                    if cmd.a2 is None or cmd.negate or not cmd.active:
                        self.emit(cmd.text)
                    autoprint = False
                    end_cycle = True
                elif name == "q":
                    quit_status = cmd.int_arg or 0
                    end_cycle = True
                elif name == "Q":
                    quit_status = cmd.int_arg or 0
                    autoprint = False
                    self.append_queue.clear()
                    end_cycle = True
                elif name == "b":
                    pc = cmd.target
                elif name == "t":
                    if subst:
                        subst = False
                        pc = cmd.target
                elif name == "T":
                    if not subst:
                        pc = cmd.target
                    else:
                        subst = False
                else:
                    ps, hs = self.plain_command(cmd, ps, hs, had_nl)
            if autoprint:
                self.emit_ps(ps, had_nl)
            self.flush_appends()
            if self.unbuffered or self.real_stdout or len(self.out) >= OUTPUT_BATCH:
                yield from self.cycle_output()
            if quit_status is not None:
                self.status = quit_status if self.status == 0 else self.status
                break
        if self.in_place is not None:
            self.finish_in_place()
        elif self.out:
            yield "".join(self.out)
            self.out.clear()

    def next_line(self, inp: _Input) -> tuple[str, bool]:
        """``n`` and ``N``: the appends queued so far go out, then the next line is read."""
        self.flush_appends()
        item = inp.next()
        assert item is not None
        self.lineno += 1
        return item

    def cycle_output(self) -> Iterator[str]:
        """What the cycle wrote to standard output (held back under ``-i``)."""
        if self.in_place is None and self.out:
            yield "".join(self.out)
            self.out.clear()
        if self.real_stdout:
            yield "".join(self.real_stdout)
            self.real_stdout.clear()

    def plain_command(self, cmd: Cmd, ps: str, hs: str, had_nl: bool) -> tuple[str, str]:
        """Run a command that does not steer the cycle; returns the pattern and hold spaces."""
        name = cmd.name
        if name == "p":
            self.emit_ps(ps, had_nl)
        elif name == "g":
            ps = hs
        elif name == "G":
            ps = ps + "\n" + hs
        elif name == "h":
            hs = ps
        elif name == "H":
            hs = hs + "\n" + ps
        elif name == "x":
            ps, hs = hs, ps
        elif name == "P":
            cut = ps.find("\n")
            self.emit_ps(ps if cut < 0 else ps[:cut], had_nl or cut >= 0)
        elif name == "=":
            self.emit(f"{self.lineno}\n")
        elif name == "a":
            self.append_queue.append(cmd.text)
        elif name == "i":
            self.emit(cmd.text)
        elif name == "y":
            ps = ps.translate(cmd.ymap)
        elif name == "l":
            width = cmd.int_arg if cmd.int_arg is not None else self.line_wrap
            self.emit(self.escape_l(ps, width))
        elif name == "r":
            assert cmd.wfile is not None
            text = self.read_file_text(cmd.wfile)
            if text:
                self.append_queue.append(text)
        elif name == "R":
            assert cmd.wfile is not None
            line = self.read_file_line(cmd.wfile)
            if line is not None:
                self.append_queue.append(line)
        elif name == "w":
            assert cmd.wfile is not None
            self.write_file(cmd.wfile, ps + self.sep)
        elif name == "W":
            assert cmd.wfile is not None
            cut = ps.find("\n")
            self.write_file(cmd.wfile, (ps if cut < 0 else ps[:cut]) + self.sep)
        elif name == "z":
            ps = ""
        elif name == "F":
            inp = self.input
            assert inp is not None
            self.emit(("-" if inp.file_index < 0 or self.files[inp.line_file] == "-" else self.files[inp.line_file]) + "\n")
        return ps, hs

    def close(self) -> None:
        for handle in self.wfiles.values():
            handle.close()


_SPEC = FlagSpec("nrEsuzi::e:f:l:", {
    "quiet": "n", "silent": "n", "expression": "e=", "file": "f=", "in-place": "i?",
    "regexp-extended": "E", "separate": "s", "null-data": "z", "zero-terminated": "z",
    "line-length": "l=", "unbuffered": "u", "posix": "posix", "debug": "debug",
    "sandbox": "sandbox", "follow-symlinks": "follow-symlinks", "help": "help",
    "version": "version",
})


def _read_script_file(ctx: CommandContext, name: str) -> str | None:
    if name == "-":
        return ctx.read_all_stdin().decode("latin-1")
    try:
        with fs.open(ctx.host_path(name), "rb") as handle:
            text = handle.read().decode("latin-1")
    except OSError as exc:
        ctx.error(f"sed: couldn't open file {name}: {exc.strerror}")
        return None
    return text[:-1] if text.endswith("\n") else text


def _parse_args(ctx: CommandContext, argv: list[str]) -> dict[str, object] | int:
    opts: dict[str, object] = {
        "quiet": False, "separate": False, "in_place": None, "null": False, "unbuffered": False,
        "extended": False, "line_length": 70, "files": [],
    }
    scripts: list[str] = []
    have_script = False
    try:
        # GNU getopt permutes: options anywhere count, so whether the first operand is the
        # script is only known once every option has been seen.
        flags, files = parse_flags(_SPEC, argv[1:])
    except UsageError as err:
        ctx.error(f"sed: {err.message}")
        ctx.error(USAGE)
        return 1
    for key, value in flags:
        if key == "n":
            opts["quiet"] = True
        elif key in ("E", "r"):
            opts["extended"] = True
        elif key == "s":
            opts["separate"] = True
        elif key == "u":
            opts["unbuffered"] = True
        elif key == "z":
            opts["null"] = True
        elif key == "i":
            opts["in_place"] = value or ""
            opts["separate"] = True
        elif key == "e" and value is not None:
            scripts.append(bytes_text(value))
            have_script = True
        elif key == "f" and value is not None:
            text = _read_script_file(ctx, value)
            if text is None:
                return 1
            scripts.append(text)
            have_script = True
        elif key == "l" and value is not None:
            try:
                opts["line_length"] = int(value)
            except ValueError:
                ctx.error(f"sed: invalid line length: {value}")
                return 1
        elif key == "help":
            ctx.error(USAGE)
            return 0
        elif key == "version":
            return 0
    if not have_script:
        if not files:
            ctx.error(USAGE)
            return 1
        scripts.append(bytes_text(files.pop(0)))
    script = "\n".join(scripts)
    if script.startswith("#n\n") or script == "#n":
        opts["quiet"] = True
    opts["script"] = script
    if not files:
        if opts["in_place"] is not None:
            ctx.error("sed: no input files")
            return 1
        files = ["-"]
    opts["files"] = files
    return opts


def sed(ctx: CommandContext, argv: list[str]) -> CommandResult:
    parsed = _parse_args(ctx, argv)
    if isinstance(parsed, int):
        return parsed
    try:
        cmds = Parser(str(parsed["script"]), bool(parsed["extended"])).parse()
    except SedError as exc:
        ctx.error(f"sed: {exc}")
        return exc.status
    parser_wfiles = [c.wfile for c in cmds if c.name in "wW" or (c.name == "s" and c.wfile)]
    engine = _Sed(ctx, cmds, parsed)
    if not engine.open_wfiles([w for w in parser_wfiles if w]):
        return 4
    try:
        for text in engine.run():
            if text:
                yield text.encode("latin-1")
    except SedError as exc:
        ctx.error(f"sed: {exc}")
        return 4
    finally:
        engine.close()
    return engine.status


COMMANDS: dict[str, Command] = {"sed": sed}
