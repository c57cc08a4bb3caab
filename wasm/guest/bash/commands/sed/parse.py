"""Parsing of sed scripts into a flat command list (GNU sed 4.x syntax).

Blocks ``{ ... }`` become jumps: a ``{`` whose address does not match jumps past its ``}``.
Branch labels are resolved to indices once the whole script is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .regex import RegexError, compile_posix



def _digit(c: str) -> bool:
    """Whether ``c`` is one ASCII digit: ``str.isdigit`` also takes other scripts' digits
    and signs like U+2463, which ``int`` refuses."""
    return len(c) == 1 and "0" <= c <= "9"

class SedError(Exception):
    """A script error, reported as ``sed: -e expression #1, char N: message``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Regex:
    """A regex as written; ``None`` pattern means "the last regex used" (``//``)."""

    source: str | None
    icase: bool = False
    multiline: bool = False
    compiled: re.Pattern[str] | None = None
    groups: re.Pattern[str] | None = None
    """The same pattern without longest-first reordering (None when identical): it gives
    the groups glibc reports for the span ``compiled`` found."""


@dataclass
class Addr:
    kind: str  # line | last | re | step | zero | plus | mult
    n: int = 0
    step: int = 0
    regex: Regex | None = None


@dataclass
class Repl:
    """A replacement: parts are literal text, a group number, or a case op (``\\U`` ...)."""

    parts: list[tuple[str, str | int]]


@dataclass
class Cmd:
    name: str
    a1: Addr | None = None
    a2: Addr | None = None
    negate: bool = False
    text: str = ""
    label: str = ""
    target: int = 0
    regex: Regex | None = None
    repl: Repl | None = None
    global_: bool = False
    occurrence: int = 1
    print_: int = 0
    wfile: str | None = None
    int_arg: int | None = None
    ymap: dict[int, str] = field(default_factory=dict)
    active: bool = False
    end_line: int = 0


class Parser:
    def __init__(self, script: str, extended: bool) -> None:
        self.s = script
        self.i = 0
        self.extended = extended
        self.cmds: list[Cmd] = []
        self.wfiles: list[str] = []

    def error(self, msg: str) -> SedError:
        return SedError(f"-e expression #1, char {self.i}: {msg}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def number(self) -> int:
        start = self.i
        while self.i < len(self.s) and _digit(self.s[self.i]):
            self.i += 1
        return int(self.s[start : self.i])

    def delimited(self, delim: str, regex: bool) -> str:
        """Read up to an unescaped ``delim``; ``\\delim`` becomes ``delim``; ``\\n`` newline."""
        out: list[str] = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise SedError("")
            c = s[self.i]
            if c == "\\" and self.i + 1 < len(s):
                d = s[self.i + 1]
                self.i += 2
                if d == delim:
                    out.append(d)
                elif d == "\n":
                    out.append("\n")
                else:
                    out.append("\\" + d)
                continue
            if c == "\n" and regex:
                raise SedError("")
            self.i += 1
            if c == delim:
                return "".join(out)
            out.append(c)

    def make_regex(self, source: str, flags: str) -> Regex:
        rx = Regex(source or None, "I" in flags, "M" in flags)
        if rx.source is not None:
            try:
                rx.compiled = compile_posix(rx.source, self.extended, icase=rx.icase, multiline=rx.multiline)
                plain = compile_posix(rx.source, self.extended, icase=rx.icase, multiline=rx.multiline,
                                      longest=False)
                rx.groups = plain if plain.pattern != rx.compiled.pattern else None
            except RegexError as exc:
                raise self.error(str(exc)) from None
        return rx

    def address(self) -> Addr | None:
        c = self.peek()
        if _digit(c):
            n = self.number()
            if self.peek() == "~":
                self.i += 1
                step = self.number() if _digit(self.peek()) else 0
                if n == 0 and step == 0:
                    return Addr("zero")
                return Addr("step", n=n, step=step)
            return Addr("zero" if n == 0 else "line", n=n)
        if c == "$":
            self.i += 1
            return Addr("last")
        if c == "/" or c == "\\":
            if c == "\\":
                self.i += 1
                c = self.peek()
                if not c or c == "\n":
                    raise self.error("unexpected `,'")
            self.i += 1
            try:
                source = self.delimited(c, True)
            except SedError:
                raise self.error("unterminated address regex") from None
            flags = ""
            while self.peek() in ("I", "M"):
                flags += self.peek()
                self.i += 1
            return Addr("re", regex=self.make_regex(source, flags))
        return None

    def read_label(self) -> str:
        self.skip_ws()
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in ";\n":
            self.i += 1
        return self.s[start : self.i].rstrip(" \t")

    def read_filename(self) -> str:
        self.skip_ws()
        start = self.i
        while self.i < len(self.s) and self.s[self.i] != "\n":
            self.i += 1
        return self.s[start : self.i]

    def read_text(self) -> str:
        """Text of ``a i c``: one-liner or ``a\\`` + newline form, with continuation lines."""
        self.skip_ws()
        s = self.s
        if self.peek() == "\\":
            self.i += 1
            if self.peek() == "\n":
                self.i += 1
        out: list[str] = []
        consumed = False
        while self.i < len(s):
            consumed = True
            c = s[self.i]
            if c == "\\":
                if self.i + 1 < len(s):
                    d = s[self.i + 1]
                    out.append({"n": "\n", "t": "\t", "a": "\a", "f": "\f", "v": "\v", "r": "\r"}.get(d, d))
                    self.i += 2
                else:
                    self.i += 1
                continue
            if c == "\n":
                self.i += 1
                break
            out.append(c)
            self.i += 1
        # The text carries its own newline; "a\" at the very end of the script adds nothing.
        return "".join(out) + "\n" if consumed else ""

    def end_of_command(self) -> None:
        self.skip_ws()
        c = self.peek()
        if c in ("", "\n", ";"):
            if c:
                self.i += 1
            return
        if c == "}" or c == "#":
            return
        raise self.error(f"extra characters after command")

    def replacement(self, text: str) -> Repl:
        parts: list[tuple[str, str | int]] = []
        lit: list[str] = []

        def flush() -> None:
            if lit:
                parts.append(("lit", "".join(lit)))
                lit.clear()

        i = 0
        while i < len(text):
            c = text[i]
            if c == "&":
                flush()
                parts.append(("grp", 0))
            elif c == "\\" and i + 1 < len(text):
                i += 1
                d = text[i]
                if _digit(d):
                    flush()
                    parts.append(("grp", int(d)))
                elif d in "LUluE":
                    flush()
                    parts.append(("case", d))
                elif d == "n":
                    lit.append("\n")
                elif d == "t":
                    lit.append("\t")
                elif d == "r":
                    lit.append("\r")
                elif d == "f":
                    lit.append("\f")
                elif d == "v":
                    lit.append("\v")
                elif d == "a":
                    lit.append("\a")
                elif d == "c" and i + 1 < len(text):
                    i += 1
                    lit.append(chr(ord(text[i].upper()) ^ 0x40))
                elif d in "xod":
                    base, width, digits = {"d": (10, 3, "0123456789"), "o": (8, 3, "01234567"),
                                           "x": (16, 2, "0123456789abcdefABCDEF")}[d]
                    j = i + 1
                    while j < len(text) and j < i + 1 + width and text[j] in digits:
                        j += 1
                    if j == i + 1:
                        lit.append(d)
                    else:
                        lit.append(chr(int(text[i + 1 : j], base) & 0xFF))
                        i = j - 1
                else:
                    lit.append(d)
            else:
                lit.append(c)
            i += 1
        flush()
        return Repl(parts)

    def parse(self) -> list[Cmd]:
        s = self.s
        blocks: list[int] = []
        while True:
            while self.i < len(s) and s[self.i] in " \t\n;":
                self.i += 1
            if self.i >= len(s):
                break
            if s[self.i] == "#":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
                continue
            cmd = Cmd("")
            cmd.a1 = self.address()
            if cmd.a1 is not None:
                self.skip_ws()
                if self.peek() == ",":
                    self.i += 1
                    self.skip_ws()
                    c = self.peek()
                    if c == "+" or c == "~":
                        self.i += 1
                        if not _digit(self.peek()):
                            raise self.error("expected newer version of sed")
                        cmd.a2 = Addr("plus" if c == "+" else "mult", n=self.number())
                    else:
                        cmd.a2 = self.address()
                        if cmd.a2 is None:
                            raise self.error("unexpected `,'")
                        if cmd.a2.kind == "zero":
                            # As an end address, 0 is just a line number already passed.
                            cmd.a2 = Addr("line", n=0)
                        if cmd.a2.kind == "step":
                            cmd.a2 = Addr("line", n=cmd.a2.n)
                if cmd.a1.kind == "zero" and (cmd.a2 is None or cmd.a2.kind != "re"):
                    raise self.error("invalid usage of line address 0")
            self.skip_ws()
            while self.peek() == "!":
                cmd.negate = True
                self.i += 1
                self.skip_ws()
            if self.i >= len(s):
                raise self.error("missing command")
            name = s[self.i]
            self.i += 1
            cmd.name = name
            if name == "{":
                blocks.append(len(self.cmds))
                self.cmds.append(cmd)
                continue
            if name == "}":
                if cmd.a1 is not None:
                    raise self.error("} doesn't want any addresses")
                if not blocks:
                    raise self.error("unexpected `}'")
                self.cmds[blocks.pop()].target = len(self.cmds) + 1
                self.cmds.append(cmd)
                self.end_of_command()
                continue
            if name in "aic":
                cmd.text = self.read_text()
            elif name == ":":
                if cmd.a1 is not None:
                    raise self.error(": doesn't want any addresses")
                cmd.label = self.read_label()
                if not cmd.label:
                    raise self.error("\":\" lacks a label")
                if self.peek() == ";":
                    self.i += 1
            elif name in "btT":
                cmd.label = self.read_label()
                if self.peek() == ";":
                    self.i += 1
            elif name in "rRwW":
                cmd.wfile = self.read_filename()
                if not cmd.wfile:
                    raise self.error(f"missing filename in r/R/w/W commands")
                if name in "wW":
                    self.wfiles.append(cmd.wfile)
            elif name in "qQlL":
                self.skip_ws()
                if _digit(self.peek()):
                    cmd.int_arg = self.number()
                self.end_of_command()
            elif name in "=dDgGhHnNpPxzF":
                self.end_of_command()
            elif name == "s":
                self.parse_s(cmd)
            elif name == "y":
                self.parse_y(cmd)
            elif name == "e":
                raise self.error("the e command is not supported in this sandbox")
            else:
                self.i -= 1
                raise self.error(f"unknown command: `{name}'")
            self.cmds.append(cmd)
        if blocks:
            self.i = len(s)
            raise self.error("unmatched `{'")
        labels: dict[str, int] = {}
        for idx, cmd in enumerate(self.cmds):
            if cmd.name == ":":
                if cmd.label in labels:
                    raise SedError(f"-e expression #1, char 0: duplicate label `{cmd.label}'")
                labels[cmd.label] = idx
        for cmd in self.cmds:
            if cmd.name in "btT":
                if cmd.label == "":
                    cmd.target = len(self.cmds)
                elif cmd.label in labels:
                    cmd.target = labels[cmd.label]
                else:
                    raise SedError(f"can't find label for jump to `{cmd.label}'", 4)
        return self.cmds

    def parse_s(self, cmd: Cmd) -> None:
        delim = self.peek()
        if not delim or delim in "\n\\":
            raise self.error("unterminated `s' command")
        self.i += 1
        try:
            pattern = self.delimited(delim, True)
            start = self.i
            repl_text = self.raw_until(delim)
        except SedError:
            raise self.error("unterminated `s' command") from None
        del start
        flags = ""
        while True:
            c = self.peek()
            if not c:
                break
            if c == "g":
                if cmd.global_:
                    self.i += 1
                    raise self.error("multiple `g' options to `s' command")
                cmd.global_ = True
            elif c == "p":
                if cmd.print_:
                    self.i += 1
                    raise self.error("multiple `p' options to `s' command")
                cmd.print_ += 1
            elif c in "iI":
                flags += "I"
            elif c in "mM":
                flags += "M"
            elif _digit(c):
                n = self.number()
                if n == 0:
                    raise self.error("number option to `s' command may not be zero")
                cmd.occurrence = n
                continue
            elif c == "w":
                self.i += 1
                cmd.wfile = self.read_filename()
                self.wfiles.append(cmd.wfile)
                break
            elif c == "e":
                raise self.error("the e flag is not supported in this sandbox")
            else:
                break
            self.i += 1
        cmd.regex = self.make_regex(pattern, flags)
        cmd.repl = self.replacement(repl_text)
        refs = [int(v) for kind, v in cmd.repl.parts if kind == "grp"]
        if cmd.regex.compiled is not None and refs and max(refs) > cmd.regex.compiled.groups:
            raise self.error(f"invalid reference \\{max(refs)} on `s' command's RHS")
        if cmd.wfile is None:
            c = self.peek()
            if c and c not in " \t\n;}#":
                raise self.error("unknown option to `s'")
            self.end_of_command()

    def raw_until(self, delim: str) -> str:
        """The replacement text: keeps backslash escapes for ``replacement`` to interpret."""
        out: list[str] = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise SedError("")
            c = s[self.i]
            if c == "\\" and self.i + 1 < len(s):
                d = s[self.i + 1]
                self.i += 2
                if d == delim and d != "&":
                    out.append(d)
                elif d == "\n":
                    out.append("\n")
                else:
                    out.append("\\" + d)
                continue
            self.i += 1
            if c == delim:
                return "".join(out)
            out.append(c)

    def parse_y(self, cmd: Cmd) -> None:
        delim = self.peek()
        self.i += 1
        try:
            src = self.y_part(self.delimited(delim, False), delim)
            dst = self.y_part(self.delimited(delim, False), delim)
        except SedError:
            raise self.error("unterminated `y' command") from None
        if len(src) != len(dst):
            raise self.error("strings for `y' command are different lengths")
        cmd.ymap = {ord(a): b for a, b in zip(src, dst)}
        self.end_of_command()

    @staticmethod
    def y_part(text: str, delim: str) -> str:
        out: list[str] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                d = text[i + 1]
                out.append({"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(d, "\\" + d if d != delim else d))
                i += 2
                continue
            out.append(c)
            i += 1
        return "".join(out)
