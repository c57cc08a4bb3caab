"""rg (ripgrep): grep's matching and output, with ripgrep's defaults and file walk.

``rg`` follows ripgrep's output when stdout is not a terminal (always the case here):
``path:text`` lines, no headings, no colour, line numbers only with ``-n``; a single file
operand or stdin prints bare ``text``. It searches ``.`` recursively (or stdin when stdin
carries data), skips hidden files and directories unless ``--hidden``, and visits files in
sorted order. Differences from ripgrep: ``.gitignore``/``.ignore`` files are not read, binary
files are searched like grep does, and patterns use Python's regex syntax (close to Rust's).
"""

from __future__ import annotations

import itertools

from ..base import CommandContext, CommandResult
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import open_input
from .grep import GrepOptions, Matcher, _GrepFile, _Shared, _Target, _walk
from .regex import RegexError
from ... import fs


RG_SPEC = FlagSpec(
    "e:FiIsSvwxcloqnNA:B:C:m:g:HtuU.",
    {
        "regexp": "e=",
        "fixed-strings": "F",
        "ignore-case": "i",
        "case-sensitive": "s",
        "smart-case": "S",
        "invert-match": "v",
        "word-regexp": "w",
        "line-regexp": "x",
        "count": "c",
        "files-with-matches": "l",
        "files-without-match": "files-without-match",
        "only-matching": "o",
        "quiet": "q",
        "line-number": "n",
        "no-line-number": "N",
        "after-context": "A=",
        "before-context": "B=",
        "context": "C=",
        "max-count": "m=",
        "glob": "g=",
        "with-filename": "H",
        "no-filename": "I",
        "hidden": ".",
        "no-heading": "no-heading",
        "heading": "heading",
        "color": "color=",
        "files": "files",
        "type": "t=",
    },
)


def rg(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        opts, operands = parse_flags(RG_SPEC, argv[1:])
    except UsageError as err:
        ctx.error(f"rg: {err.message}")
        return 2
    o = GrepOptions(mode="P")
    line_numbers: bool | None = None
    hidden = False
    smart = False
    list_only = False
    have_patterns = False
    for key, value in opts:
        v = value or ""
        if key == "e":
            o.patterns.append(v)
            have_patterns = True
        elif key == "F":
            o.mode = "F"
        elif key == "i":
            o.ignore_case = True
        elif key == "s":
            o.ignore_case = smart = False
        elif key == "S":
            smart = True
        elif key == "v":
            o.invert = True
        elif key == "w":
            o.word = True
        elif key == "x":
            o.line = True
        elif key == "c":
            o.count = True
        elif key == "l":
            o.list_files = "l"
        elif key == "files-without-match":
            o.list_files = "L"
        elif key == "o":
            o.only_matching = True
        elif key == "q":
            o.quiet = True
        elif key == "n":
            line_numbers = True
        elif key == "N":
            line_numbers = False
        elif key in "ABC" and len(key) == 1:
            amount = int(v) if v.isdigit() else 0
            o.context_given = True
            if key in "AC":
                o.after = amount
            if key in "BC":
                o.before = amount
        elif key == "m":
            o.max_count = int(v) if v.isdigit() else -1
        elif key == "g":
            if v.startswith("!"):
                o.exclude.append(v[1:])
            else:
                o.include.append(v)
        elif key == "H":
            o.with_filename = True
        elif key == "I":
            o.with_filename = False
        elif key == ".":
            hidden = True
        elif key == "files":
            list_only = True
    if not have_patterns and not list_only:
        if not operands:
            ctx.error("rg: no pattern given")
            return 2
        o.patterns = [operands.pop(0)]
    if smart and o.patterns and not any(c.isupper() for p in o.patterns for c in p):
        o.ignore_case = True
    searching_stdin = False
    if not operands:
        # ripgrep searches stdin when it is a pipe or file; here, when stdin carries data.
        stdin = iter(ctx.stdin)
        first = next(stdin, None)
        if first is None:
            operands = ["."]
        else:
            searching_stdin = True
            ctx.stdin = itertools.chain([first], stdin)
    o.recursive = True
    if o.with_filename is None:
        o.with_filename = not searching_stdin and (len(operands) > 1 or fs.isdir(ctx.host_path(operands[0])))
    # ripgrep numbers lines by default only when stdout is a terminal, which it never is here.
    o.line_numbers = bool(line_numbers)
    try:
        matcher = Matcher(o)
    except RegexError as err:
        ctx.error(f"rg: regex parse error:\n    {err}")
        return 2
    errors = [False]
    targets = [_Target("<stdin>", "-")] if searching_stdin else _rg_targets(ctx, o, operands, hidden, errors)
    if list_only:
        for target in targets:
            yield target.display.encode("utf-8", "surrogateescape") + b"\n"
        return 0 if targets else 1
    selected_any = False
    shared = _Shared()
    for target in targets:
        worker = _GrepFile(ctx, o, matcher, target, open_input(ctx, target.name), "rg", shared)
        yield from worker.run()
        if worker.selected:
            selected_any = True
            if o.quiet:
                return 0
    if errors[0]:
        return 2
    return 0 if selected_any else 1


def _rg_targets(ctx: CommandContext, o: GrepOptions, operands: list[str], hidden: bool,
                errors: list[bool]) -> list[_Target]:
    """The files rg searches: operands, and directories walked in order (hidden names only
    with ``hidden``); a missing operand is reported and sets ``errors[0]``."""
    targets: list[_Target] = []
    for name in operands:
        host = ctx.host_path(name)
        if fs.isdir(host):
            for found in _walk(ctx, o, name, "" if name == "." else name, "rg", errors, ordered=True):
                parts = found.display.split("/")
                if not hidden and any(p.startswith(".") and p not in (".", "..") for p in parts):
                    continue
                targets.append(_Target(found.display, found.name))
        elif fs.exists(host):
            targets.append(_Target(name, name))
        else:
            ctx.error(f"rg: {name}: No such file or directory (os error 2)")
            errors[0] = True
    return targets


COMMANDS = {"rg": rg}
