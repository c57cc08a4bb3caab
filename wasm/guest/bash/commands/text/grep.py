"""grep, egrep and fgrep: line selection by regular expression (``rg`` builds on it).

GNU grep 3.x behaviour in the C locale: BRE/ERE via ``regex`` (``-P`` uses Python's
``re`` directly as an approximation of PCRE), context groups separated by ``--``, binary
files reported as "binary file matches" on stderr, exit 0 (selected) / 1 (none) / 2 (error,
unless ``-q`` found a match). Recursive search visits directory entries in on-disk
(readdir) order like GNU's fts walk, so the order matches GNU on the same filesystem.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..base import CommandContext, CommandResult
from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    Batcher,
    arg_latin,
    UNTERMINATED,
    describe_oserror,
    give_back_stdin,
    line_batches,
    open_input,
)
from .regex import RegexError, longest_match, python_error, translate
from ... import fs

GREP_SPEC = FlagSpec(
    "EFGPiyvclLnhHoqsrRwxA:B:C:m:e:f:abzZUTI",
    {
        "extended-regexp": "E",
        "fixed-strings": "F",
        "basic-regexp": "G",
        "perl-regexp": "P",
        "ignore-case": "i",
        "no-ignore-case": "no-ignore-case",
        "invert-match": "v",
        "count": "c",
        "files-with-matches": "l",
        "files-without-match": "L",
        "line-number": "n",
        "no-filename": "h",
        "with-filename": "H",
        "only-matching": "o",
        "quiet": "q",
        "silent": "q",
        "no-messages": "s",
        "recursive": "r",
        "dereference-recursive": "R",
        "word-regexp": "w",
        "line-regexp": "x",
        "after-context": "A=",
        "before-context": "B=",
        "context": "C=",
        "max-count": "m=",
        "regexp": "e=",
        "file": "f=",
        "include": "include=",
        "exclude": "exclude=",
        "exclude-dir": "exclude-dir=",
        "color": "color?",
        "colour": "color?",
        "text": "a",
        "byte-offset": "b",
        "null-data": "z",
        "null": "Z",
        "label": "label=",
        "line-buffered": "line-buffered",
        "binary-files": "binary-files=",
        "initial-tab": "T",
        "binary": "U",
    },
)


@dataclass
class GrepOptions:
    mode: str = "G"
    ignore_case: bool = False
    invert: bool = False
    count: bool = False
    list_files: str = ""
    line_numbers: bool = False
    with_filename: bool | None = None
    only_matching: bool = False
    quiet: bool = False
    no_messages: bool = False
    recursive: bool = False
    word: bool = False
    line: bool = False
    after: int = 0
    before: int = 0
    max_count: int = -1
    patterns: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    exclude_dir: list[str] = field(default_factory=list)
    text: bool = False
    binary_without_match: bool = False
    byte_offset: bool = False
    null_data: bool = False
    null_after_name: bool = False
    label: str = "(standard input)"
    initial_tab: bool = False
    context_given: bool = False
    color: bool = False


def _context_number(value: str, what: str) -> int:
    if not re.fullmatch(r"\d+", value):
        raise UsageError(f"{value}: invalid context length argument", hint=False)
    return int(value)


def _parse_grep(ctx: CommandContext, argv: list[str], default_mode: str) -> tuple[GrepOptions, list[str]]:
    opts, operands = parse_flags(GREP_SPEC, argv[1:], numeric_short=True)
    o = GrepOptions(mode=default_mode)
    have_patterns = False
    # Explicit -A/-B win over -C whatever their order, as in GNU.
    after: int | None = None
    before: int | None = None
    default_context = 0
    matchers = {default_mode} if default_mode != "G" else set()
    for key, value in opts:
        v = value or ""
        if key in "EFGP" and len(key) == 1:
            matchers.add(key)
            if len(matchers) > 1:
                raise UsageError("conflicting matchers specified", hint=False)
            o.mode = key
        elif key in ("i", "y"):
            o.ignore_case = True
        elif key == "no-ignore-case":
            o.ignore_case = False
        elif key == "v":
            o.invert = True
        elif key == "c":
            o.count = True
        elif key in ("l", "L"):
            o.list_files = key
        elif key == "n":
            o.line_numbers = True
        elif key == "h":
            o.with_filename = False
        elif key == "H":
            o.with_filename = True
        elif key == "o":
            o.only_matching = True
        elif key == "q":
            o.quiet = True
        elif key == "s":
            o.no_messages = True
        elif key in ("r", "R"):
            o.recursive = True
        elif key == "w":
            o.word = True
        elif key == "x":
            o.line = True
        elif key == "A":
            after = _context_number(v, "A")
            o.context_given = True
        elif key == "B":
            before = _context_number(v, "B")
            o.context_given = True
        elif key in ("C", "#"):
            default_context = _context_number(v, "C")
            o.context_given = True
        elif key == "m":
            try:
                o.max_count = int(v)
            except ValueError:
                raise UsageError("invalid max count", hint=False) from None
        elif key == "e":
            o.patterns.extend(arg_latin(v).split("\n"))
            have_patterns = True
        elif key == "f":
            try:
                data = b"".join(open_input(ctx, v)).decode("latin-1")
            except OSError as err:
                raise UsageError(f"{v}: {describe_oserror(err)}", hint=False) from None
            if data:
                o.patterns.extend(data[:-1].split("\n") if data.endswith("\n") else data.split("\n"))
            have_patterns = True
        elif key == "include":
            o.include.append(v)
        elif key == "exclude":
            o.exclude.append(v)
        elif key == "exclude-dir":
            o.exclude_dir.append(v)
        elif key == "a":
            o.text = True
        elif key == "I":
            o.binary_without_match = True
        elif key == "binary-files":
            if v == "text":
                o.text = True
            elif v == "without-match":
                o.binary_without_match = True
        elif key == "b":
            o.byte_offset = True
        elif key == "z":
            o.null_data = True
        elif key == "Z":
            o.null_after_name = True
        elif key == "label":
            o.label = v
        elif key == "T":
            o.initial_tab = True
        elif key == "color":
            # Output is never a terminal here, so only "always" colours (GNU's default SGR).
            o.color = v in ("always", "yes", "force")
    o.after = after if after is not None else default_context
    o.before = before if before is not None else default_context
    if not have_patterns:
        if not operands:
            raise UsageError("", hint=True)
        o.patterns = arg_latin(operands.pop(0)).split("\n")
    return o, operands


_REGEX_SYNTAX = frozenset("\\.[]*^$+?(){}|")
"""Every character a BRE, an ERE or Python's ``re`` may read as syntax: a pattern with none
of them matches itself."""


class Matcher:
    """Finds matches of the pattern list in one line (text without its terminator)."""

    def __init__(self, o: GrepOptions) -> None:
        self.warnings: list[str] = []
        self.match_all = False
        self.flags = re.ASCII | (re.IGNORECASE if o.ignore_case else 0)
        # Literal patterns select lines by a substring test, with no regex compiled unless a
        # slower path asks for one (compiling cannot fail for them). In a fresh isolate the
        # re module's cache is empty and its compiler is Python: ``grep -c error`` compiled
        # three regexes, 40-140 us each.
        literal = o.mode == "F" or (o.mode in ("G", "E") and not any(_REGEX_SYNTAX.intersection(p) for p in o.patterns))
        sources: list[str] = []
        for pattern in o.patterns:
            if o.mode == "F":
                source = re.escape(pattern)
            elif o.mode == "P":
                source = pattern
            else:
                source = translate(pattern, o.mode == "E", self.warnings)
                if not literal:
                    try:
                        re.compile(source)
                    except re.error as err:
                        raise RegexError(python_error(err)) from None
            if o.word:
                source = r"(?<![A-Za-z0-9_])(?:" + source + r")(?![A-Za-z0-9_])"
            sources.append(source)
        self.sources = sources
        self.line_mode = o.line
        self._compiled: tuple[list[re.Pattern[str]], re.Pattern[str] | None] | None = None
        if literal and not (o.ignore_case or o.line or o.word):
            self.byte_select: Callable[[bytes], bool] | None = _substring_selector(
                [p.encode("latin-1") for p in o.patterns])
            return
        if not literal:
            self._compile()  # a pattern's error surfaces here, before any input is read
        self.byte_select = self._byte_selector(sources, o.ignore_case)

    @property
    def regexes(self) -> list[re.Pattern[str]]:
        return self._compile()[0]

    @property
    def combined(self) -> re.Pattern[str] | None:
        return self._compile()[1]

    def _compile(self) -> tuple[list[re.Pattern[str]], re.Pattern[str] | None]:
        if self._compiled is None:
            sources, flags = self.sources, self.flags
            try:
                self._compiled = ([re.compile(s, flags) for s in sources],
                                  re.compile("|".join("(?:" + s + ")" for s in sources) or "(?!)", flags)
                                  if len(sources) > 1 and not _has_backref(sources) else None)
            except re.error as err:
                raise RegexError(str(err)) from None
        return self._compiled

    def _byte_selector(self, sources: list[str], ignore_case: bool) -> Callable[[bytes], bool] | None:
        """The same selection on raw bytes (no per-line decoding), or None if not expressible.

        Bytes patterns are ASCII-only for ``\\w`` and case folding, exactly like ``re.ASCII``.
        """
        flags = re.IGNORECASE if ignore_case else 0
        try:
            compiled = [re.compile(s.encode("latin-1"), flags) for s in sources]
        except (re.error, UnicodeEncodeError):
            return None
        if self.line_mode:
            return lambda line: any(r.fullmatch(line) for r in compiled)
        if len(compiled) == 1:
            search = compiled[0].search
            return lambda line: search(line) is not None
        if self.combined is not None:
            try:
                joined = re.compile(self.combined.pattern.encode("latin-1"), flags).search
            except re.error:
                return None
            return lambda line: joined(line) is not None
        return lambda line: any(r.search(line) for r in compiled)

    def selects(self, text: str) -> bool:
        if self.line_mode:
            return any(r.fullmatch(text) for r in self.regexes)
        if self.combined is not None:
            return self.combined.search(text) is not None
        return any(r.search(text) for r in self.regexes)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Non-empty matches left to right, each the longest at its start, as ``grep -o``."""
        if self.line_mode:
            if text and any(r.fullmatch(text) for r in self.regexes):
                yield 0, len(text)
            return
        pos = 0
        while pos <= len(text):
            best: tuple[int, int] | None = None
            for regex in self.regexes:
                m = regex.search(text, pos)
                span: tuple[int, int] | None = None
                while m is not None:
                    # An empty leftmost-first match may hide a longer POSIX match there.
                    candidate = longest_match(regex, text, m)
                    if candidate[1] > candidate[0]:
                        span = candidate
                        break
                    if m.start() >= len(text):
                        break
                    m = regex.search(text, m.start() + 1)
                if span is None:
                    continue
                if best is None or span[0] < best[0] or (span[0] == best[0] and span[1] > best[1]):
                    best = span
            if best is None:
                return
            yield best
            pos = best[1]


def _substring_selector(needles: list[bytes]) -> Callable[[bytes], bool]:
    if len(needles) == 1:
        needle = needles[0]
        return lambda line: needle in line
    return lambda line: any(needle in line for needle in needles)


def _has_backref(sources: list[str]) -> bool:
    return any(re.search(r"\\[1-9]", s) for s in sources)


@dataclass
class _Target:
    display: str
    name: str


def _expand_targets(ctx: CommandContext, o: GrepOptions, operands: list[str], prog: str,
                    errors: list[bool]) -> Iterator[_Target]:
    if not operands:
        if o.recursive:
            yield from _walk(ctx, o, ".", "", prog, errors)
        else:
            yield _Target(o.label, "-")
        return
    for name in operands:
        if name == "-":
            yield _Target(o.label, "-")
            continue
        host = ctx.host_path(name)
        if o.recursive and fs.isdir(host):
            if any(fnmatch.fnmatchcase(os.path.basename(name.rstrip("/")) or name, g) for g in o.exclude_dir):
                continue
            yield from _walk(ctx, o, name, name, prog, errors)
            continue
        if not _included(o, name, command_line=True):
            continue
        yield _Target(name, name)


def _included(o: GrepOptions, name: str, command_line: bool = False) -> bool:
    base = os.path.basename(name)
    if o.include and not any(fnmatch.fnmatchcase(base, g) for g in o.include):
        return False
    if any(fnmatch.fnmatchcase(base, g) for g in o.exclude):
        return False
    return True


def _walk(ctx: CommandContext, o: GrepOptions, name: str, shown: str, prog: str,
          errors: list[bool], ordered: bool = False) -> Iterator[_Target]:
    """Files under ``name``; GNU grep visits directory entries in on-disk (readdir) order."""
    host = ctx.host_path(name)
    try:
        entries = fs.listdir(host)
        if ordered:
            entries.sort()
    except OSError as err:
        if not o.no_messages:
            ctx.error(f"{prog}: {name}: {describe_oserror(err)}")
        errors[0] = True
        return
    for entry in entries:
        child = name.rstrip("/") + "/" + entry if name != "." or shown else entry
        child_shown = (shown.rstrip("/") + "/" + entry) if shown else entry
        child_host = os.path.join(host, entry)
        if fs.islink(child_host):
            continue
        if fs.isdir(child_host):
            if any(fnmatch.fnmatchcase(entry, g) for g in o.exclude_dir):
                continue
            yield from _walk(ctx, o, child, child_shown, prog, errors, ordered)
        elif _included(o, entry):
            yield _Target(child_shown, child)


def grep_main(ctx: CommandContext, argv: list[str], prog: str, default_mode: str) -> CommandResult:
    try:
        o, operands = _parse_grep(ctx, argv, default_mode)
    except UsageError as err:
        if err.message:
            ctx.error(f"{prog}: {err.message}")
        else:
            ctx.error(f"Usage: {prog} [OPTION]... PATTERNS [FILE]...")
        if err.hint:
            ctx.error(f"Try '{prog} --help' for more information.")
        return 2
    # GNU returns at once, reading nothing, when no line can be selected.
    nothing_selectable = (not o.patterns and not o.invert) or (o.patterns == [""] and o.invert)
    if o.max_count == 0 or (nothing_selectable and not o.line and not o.word and o.list_files != "L"):
        return 1
    try:
        matcher = Matcher(o)
    except RegexError as err:
        ctx.error(f"{prog}: {err}")
        return 2
    for warning in matcher.warnings:
        ctx.error(f"{prog}: warning: {warning}")
    if o.with_filename is None:
        o.with_filename = len(operands) > 1 or (o.recursive and not (len(operands) == 1 and not fs.isdir(ctx.host_path(operands[0]))))
    errors = [False]
    selected_any = False
    shared = _Shared()
    for target in _expand_targets(ctx, o, operands, prog, errors):
        if target.name != "-" and fs.isdir(ctx.host_path(target.name)):
            if not o.no_messages:
                ctx.error(f"{prog}: {target.name}: Is a directory")
            errors[0] = True
            if o.list_files == "L":
                yield target.display.encode("utf-8", "surrogateescape") + (b"\0" if o.null_after_name else b"\n")
            continue
        try:
            chunks = open_input(ctx, target.name)
            data_iter = _GrepFile(ctx, o, matcher, target, chunks, prog, shared)
            yield from data_iter.run()
        except OSError as err:
            if not o.no_messages:
                ctx.error(f"{prog}: {target.name}: {describe_oserror(err)}")
            errors[0] = True
            continue
        if data_iter.selected:
            selected_any = True
            if o.quiet:
                return 0
    if errors[0] and not (o.quiet and selected_any):
        return 2
    return 0 if selected_any else 1


class _GrepFile:
    def __init__(self, ctx: CommandContext, o: GrepOptions, matcher: Matcher, target: _Target,
                 chunks: Iterator[bytes], prog: str, shared: "_Shared | None" = None) -> None:
        self.shared = shared if shared is not None else _Shared()
        self.ctx = ctx
        self.o = o
        self.matcher = matcher
        self.target = target
        self.chunks = chunks
        self.prog = prog
        self.selected = 0
        self.eol = b"\0" if o.null_data else b"\n"

    def _prefix(self, number: int, offset: int, sep: str) -> bytes:
        parts = []
        separator = _paint(SGR_SEPARATOR, sep.encode()) if self.o.color else sep.encode()
        if self.o.with_filename:
            name = self.target.display.encode("utf-8", "surrogateescape")
            if self.o.color:
                name = _paint(SGR_FILENAME, name)
            parts.append(name + (b"\0" if self.o.null_after_name else separator))
        if self.o.line_numbers:
            number_text = b"%d" % number
            parts.append((_paint(SGR_NUMBER, number_text) if self.o.color else number_text) + separator)
        if self.o.byte_offset:
            offset_text = b"%d" % offset
            parts.append((_paint(SGR_NUMBER, offset_text) if self.o.color else offset_text) + separator)
        return b"".join(parts)

    def _body(self, raw: bytes, text: str, matching: bool) -> bytes:
        """The line itself, with GNU's match highlighting under --color=always."""
        if not (self.o.color and matching):
            return raw
        pieces: list[bytes] = []
        last = 0
        for start, end in self.matcher.spans(text):
            pieces.append(raw[last:start])
            pieces.append(_paint(SGR_MATCH, raw[start:end]))
            last = end
        pieces.append(raw[last:])
        return b"".join(pieces)

    def _lines(self) -> Iterator[tuple[bytes, bool]]:
        # The buffer lives on self so a stop after -m can hand the unread rest back.
        self._pending = b""
        self._next = 0
        for chunk in self.chunks:
            self._pending = self._pending[self._next :] + chunk
            self._next = 0
            while True:
                cut = self._pending.find(self.eol, self._next)
                if cut < 0:
                    break
                line = self._pending[self._next : cut]
                self._next = cut + 1
                yield line, True
        rest = self._pending[self._next :]
        self._pending, self._next = b"", 0
        if rest:
            yield rest, False

    def _unread(self) -> bytes:
        return self._pending[self._next :]

    def _fast_path_applies(self) -> bool:
        o = self.o
        return (
            self.matcher.byte_select is not None
            and not (o.before or o.after or o.context_given or o.only_matching or o.byte_offset)
            and o.max_count < 0
            and not o.null_data
            and not o.color
        )

    def _run_fast(self) -> Iterator[bytes]:
        """Plain line selection a chunk of lines at a time (the common case, made cheap)."""
        o = self.o
        select = self.matcher.byte_select
        assert select is not None
        invert = o.invert
        suppress_output = o.quiet or o.count or bool(o.list_files)
        name = self.target.display.encode("utf-8", "surrogateescape")
        name_prefix = name + (b"\0" if o.null_after_name else b":") if o.with_filename else b""
        binary = False
        number = 0
        for batch in line_batches(self.chunks, self.eol):
            if batch[-1] is UNTERMINATED:
                batch = batch[:-1]
            # one search of the joined batch first: a NUL is rare, and looking line by line
            # in Python cost more than selecting the lines
            if not o.text and not binary and b"\0" in b"".join(batch):
                cut = next((i for i, line in enumerate(batch) if b"\0" in line), -1)
                if cut >= 0:
                    if o.binary_without_match:
                        return
                    yield from self._emit_fast(batch[:cut], number, select, invert, suppress_output, name_prefix)
                    if o.quiet and self.selected:
                        return
                    number += cut
                    batch = batch[cut:]
                    binary = True
            if binary and not suppress_output:
                # Binary input: stop at the first selected line and just report it.
                if any(select(line) != invert for line in batch):
                    self.selected += 1
                    break
                number += len(batch)
                continue
            yield from self._emit_fast(batch, number, select, invert, suppress_output, name_prefix)
            number += len(batch)
            if self.selected and (o.quiet or o.list_files):
                break
        if not o.quiet:
            yield from self._finish(binary)

    def _emit_fast(self, batch: list[bytes], number: int, select: Callable[[bytes], bool], invert: bool,
                   suppress_output: bool, name_prefix: bytes) -> Iterator[bytes]:
        o = self.o
        # select returns a bool: the lines are counted and kept by map and filter, without a
        # Python loop step per line
        if suppress_output:
            selected = sum(map(select, batch))
            self.selected += len(batch) - selected if invert else selected
            return
        eol = self.eol
        if o.line_numbers:
            hits = [
                name_prefix + b"%d:" % index + line
                for index, line in enumerate(batch, number + 1)
                if select(line) != invert
            ]
        elif name_prefix:
            hits = [name_prefix + line for line in batch if select(line) != invert]
        else:
            hits = list(itertools.filterfalse(select, batch) if invert else filter(select, batch))
        if hits:
            self.selected += len(hits)
            self.shared.printed_any = True
            hits.append(b"")
            yield eol.join(hits)

    def _finish(self, binary: bool) -> Iterator[bytes]:
        o = self.o
        name = self.target.display.encode("utf-8", "surrogateescape")
        if o.color:
            name = _paint(SGR_FILENAME, name)
        if o.list_files:
            if (o.list_files == "l") == bool(self.selected):
                terminator = b"\0" if o.null_after_name else b"\n"
                yield name + terminator
        elif o.count:
            prefix = b""
            if o.with_filename:
                colon = _paint(SGR_SEPARATOR, b":") if o.color else b":"
                prefix = name + (b"\0" if o.null_after_name else colon)
            yield prefix + b"%d\n" % self.selected
        if binary and self.selected and not o.count and not o.list_files:
            self.ctx.error(f"{self.prog}: {self.target.display}: binary file matches")

    def run(self) -> Iterator[bytes]:
        if self._fast_path_applies():
            yield from self._run_fast()
            return
        o = self.o
        out = Batcher()
        before: deque[tuple[int, int, bytes]] = deque(maxlen=o.before or None) if o.before else deque(maxlen=0)
        after_left = 0
        last_printed = 0
        binary = False
        checked_binary = o.text or o.null_data
        offset = 0
        suppress_output = o.quiet or o.count or bool(o.list_files)
        number = 0
        since_selected: list[bytes] = []

        def context_line(num: int, off: int, raw: bytes) -> bytes:
            # With -o a context line shows its matches only under -v (GNU treats context lines
            # as "matching" exactly when the selection is inverted); otherwise nothing.
            if o.only_matching:
                if not o.invert:
                    return b""
                text = raw.decode("latin-1")
                return b"".join(
                    self._prefix(num, off + start, "-")
                    + (_paint(SGR_MATCH, raw[start:end]) if o.color else raw[start:end])
                    + self.eol
                    for start, end in self.matcher.spans(text)
                )
            if o.color and o.invert:
                return self._prefix(num, off, "-") + self._body(raw, raw.decode("latin-1"), True) + self.eol
            return self._prefix(num, off, "-") + raw + self.eol

        for raw, terminated in self._lines():
            since_selected.append(raw + self.eol if terminated else raw)
            number += 1
            line_offset = offset
            offset += len(raw) + 1
            if not checked_binary:
                checked_binary = True
                if b"\0" in raw:
                    binary = True
                    if o.binary_without_match:
                        return
            elif not o.text and not binary and b"\0" in raw:
                binary = True
                if o.binary_without_match:
                    return
            if o.max_count >= 0 and self.selected >= o.max_count:
                # GNU prints the trailing context of the last match, matching or not.
                if after_left > 0 and not suppress_output and not binary:
                    ready = out.add(context_line(number, line_offset, raw))
                    after_left -= 1
                    if ready:
                        yield ready
                    continue
                if self.target.name == "-":
                    # Like GNU: a regular-file stdin is left just after the last selected line.
                    give_back_stdin(self.ctx, b"".join(since_selected) + self._unread())
                break
            text = raw.decode("latin-1")
            hit = self.matcher.selects(text) != o.invert
            if not hit:
                if suppress_output or binary:
                    continue
                if after_left > 0:
                    ready = out.add(context_line(number, line_offset, raw))
                    last_printed = number
                    after_left -= 1
                    if ready:
                        yield ready
                elif o.before:
                    before.append((number, line_offset, raw))
                continue
            self.selected += 1
            since_selected = []
            if o.quiet:
                return
            if suppress_output:
                continue
            if binary:
                break
            pieces: list[bytes] = []
            group_start = before[0][0] if before else number
            if o.context_given and self.shared.printed_any and (last_printed == 0 or group_start > last_printed + 1):
                pieces.append((_paint(SGR_SEPARATOR, b"--") if o.color else b"--") + b"\n")
            while before:
                num, off, old = before.popleft()
                pieces.append(context_line(num, off, old))
            if o.only_matching:
                if not o.invert:
                    for start, end in self.matcher.spans(text):
                        match_text = raw[start:end]
                        if o.color:
                            match_text = _paint(SGR_MATCH, match_text)
                        pieces.append(self._prefix(number, line_offset + start, ":") + match_text + self.eol)
            else:
                pieces.append(self._prefix(number, line_offset, ":") + self._body(raw, text, not o.invert) + self.eol)
            last_printed = number
            self.shared.printed_any = True
            after_left = o.after
            ready = out.add(b"".join(pieces))
            if ready:
                yield ready
        if out.parts:
            yield out.take()
        if o.quiet:
            return
        yield from self._finish(binary)


SGR_MATCH = b"01;31"
SGR_FILENAME = b"35"
SGR_NUMBER = b"32"
SGR_SEPARATOR = b"36"


def _paint(sgr: bytes, text: bytes) -> bytes:
    """GNU grep's colouring of one field: SGR on, erase-to-end, text, SGR off."""
    return b"\33[" + sgr + b"m\33[K" + text + b"\33[m\33[K"


@dataclass
class _Shared:
    """State GNU keeps across all files of one grep run."""

    printed_any: bool = False


def grep(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return (yield from grep_main(ctx, argv, "grep", "G"))


def egrep(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return (yield from grep_main(ctx, argv, "grep", "E"))


def fgrep(ctx: CommandContext, argv: list[str]) -> CommandResult:
    return (yield from grep_main(ctx, argv, "grep", "F"))


COMMANDS = {"grep": grep, "egrep": egrep, "fgrep": fgrep}
