"""rg (ripgrep): grep's matching and output, with ripgrep's defaults and file walk.

``rg`` follows ripgrep's output when stdout is not a terminal (always the case here):
``path:text`` lines, no headings, no colour, line numbers only with ``-n``; a single file
operand or stdin prints bare ``text``. It searches ``.`` recursively (or stdin when stdin
carries data), skips hidden files and directories unless ``--hidden``, and visits files in
sorted order. Differences from ripgrep: ``.gitignore``/``.ignore`` files are not read, binary
files are searched like grep does, and patterns use Python's regex syntax (close to Rust's).
``-t``/``-T`` select by ripgrep's globs for the common types in ``TYPES`` (a file a ``-t``
keeps is searched even when hidden; named files are never filtered); ``-u`` lowers the
filtering a level at a time (ignore files, none read here; then hidden; then binary, already
searched); multiline search (``-U``) is refused as an unknown option.
"""

from __future__ import annotations

import fnmatch
import itertools
from dataclasses import dataclass, field

from ..base import CommandContext, CommandResult
from ...flagspec import FlagSpec, UsageError, parse_flags
from .common import open_input
from .grep import GrepOptions, Matcher, _GrepFile, _Shared, _Target, _walk
from .regex import RegexError
from ... import fs


RG_SPEC = FlagSpec(
    "e:FiIsSvwxcloqnNA:B:C:m:g:Ht:T:u.",
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
        "type-not": "T=",
        "unrestricted": "u",
        "no-ignore": "no-ignore",
    },
)

TYPES: dict[str, tuple[str, ...]] = {
    "c": ("*.[chH]", "*.[chH].in", "*.cats"),
    "cpp": ("*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl", "*.[ChH].in", "*.cc.in",
            "*.[ch]pp.in", "*.[ch]xx.in", "*.hh.in"),
    "css": ("*.css", "*.scss"),
    "csv": ("*.csv",),
    "go": ("*.go",),
    "h": ("*.h", "*.hh", "*.hpp"),
    "html": ("*.htm", "*.html", "*.ejs"),
    "java": ("*.java", "*.jsp", "*.jspx", "*.properties"),
    "js": ("*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"),
    "json": ("*.json", "composer.lock"),
    "jsonl": ("*.jsonl",),
    "log": ("*.log",),
    "make": ("[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Gg][Nn][Uu]makefile.am", "[Mm]akefile.am",
             "[Gg][Nn][Uu]makefile.in", "[Mm]akefile.in", "*.mk", "*.mak"),
    "markdown": ("*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn"),
    "py": ("*.py",),
    "ruby": ("config.ru", "Gemfile", ".irbrc", "Rakefile", "*.gemspec", "*.rb", "*.rbw"),
    "rust": ("*.rs",),
    "sh": (".login", ".logout", ".profile", "profile", ".bash_login", "bash_login", ".bash_logout",
           "bash_logout", ".bash_profile", "bash_profile", ".bashrc", "bashrc", "*.bashrc",
           ".cshrc", "*.cshrc", ".kshrc", "*.kshrc", ".tcshrc", ".zshenv", "zshenv", ".zlogin",
           "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc",
           "*.bash", "*.csh", "*.ksh", "*.sh", "*.tcsh", "*.zsh"),
    "sql": ("*.sql", "*.psql"),
    "toml": ("*.toml", "Cargo.lock"),
    "ts": ("*.ts", "*.tsx", "*.cts", "*.mts"),
    "txt": ("*.txt",),
    "xml": ("*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch",
            "*.xhtml"),
    "yaml": ("*.yaml", "*.yml"),
}
"""ripgrep's own globs (its ``--type-list``) for the common types; others are unknown here."""
TYPES["md"] = TYPES["markdown"]


@dataclass
class _RgFlags:
    """What rg's options decide beside the grep options they set."""

    line_numbers: bool | None = None
    hidden: bool = False
    smart: bool = False
    list_only: bool = False
    have_patterns: bool = False
    types: list[tuple[str, bool]] = field(default_factory=list)
    """-t (True) and -T (False) selections in command-line order."""


def _type_says(name: str, types: list[tuple[str, bool]]) -> bool | None:
    """ripgrep's type matcher on a file name: the last selection whose globs match decides
    (-t keeps the file, -T drops it); with any -t and none matching, the file is dropped."""
    decision: bool | None = None
    for kind, keep in types:
        if any(fnmatch.fnmatchcase(name, glob) for glob in TYPES[kind]):
            decision = keep
    if decision is None and any(keep for _, keep in types):
        return False
    return decision


def _rg_options(opts: list[tuple[str, str | None]], o: GrepOptions) -> _RgFlags:
    flags = _RgFlags()
    unrestricted = 0
    for key, value in opts:
        v = value or ""
        if key in ("t", "T"):
            if v not in TYPES:
                raise UsageError(f"unrecognized file type: {v}")
            flags.types.append((v, key == "t"))
        elif key == "u":
            # -u: no ignore files (none are read here), -uu: hidden too, -uuu: binary too
            # (binary files are already searched).
            unrestricted += 1
            flags.hidden = flags.hidden or unrestricted >= 2
        elif key == "e":
            o.patterns.append(v)
            flags.have_patterns = True
        elif key == "F":
            o.mode = "F"
        elif key == "i":
            o.ignore_case = True
        elif key == "s":
            o.ignore_case = flags.smart = False
        elif key == "S":
            flags.smart = True
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
            flags.line_numbers = True
        elif key == "N":
            flags.line_numbers = False
        elif key in "ABC" and len(key) == 1:
            amount = int(v) if (v.isascii() and v.isdigit()) else 0
            o.context_given = True
            if key in "AC":
                o.after = amount
            if key in "BC":
                o.before = amount
        elif key == "m":
            o.max_count = int(v) if (v.isascii() and v.isdigit()) else -1
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
            flags.hidden = True
        elif key == "files":
            flags.list_only = True
    return flags


def rg(ctx: CommandContext, argv: list[str]) -> CommandResult:
    o = GrepOptions(mode="P")
    try:
        opts, operands = parse_flags(RG_SPEC, argv[1:])
        flags = _rg_options(opts, o)
    except UsageError as err:
        ctx.error(f"rg: {err.message}")
        return 2
    line_numbers, smart = flags.line_numbers, flags.smart
    list_only, have_patterns = flags.list_only, flags.have_patterns
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
    targets = [_Target("<stdin>", "-")] if searching_stdin else _rg_targets(ctx, o, operands, flags, errors)
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


def _rg_targets(ctx: CommandContext, o: GrepOptions, operands: list[str], flags: _RgFlags,
                errors: list[bool]) -> list[_Target]:
    """The files rg searches: operands, and directories walked in order, skipping hidden
    names (unless ``--hidden``; a file kept by -t is kept even so) and files -t/-T drop; a
    missing operand is reported and sets ``errors[0]``."""
    targets: list[_Target] = []
    for name in operands:
        host = ctx.host_path(name)
        if fs.isdir(host):
            for found in _walk(ctx, o, name, "" if name == "." else name, "rg", errors, ordered=True):
                parts = found.display.split("/")
                says = _type_says(parts[-1], flags.types)
                if says is False:
                    continue
                hidden = [p.startswith(".") and p not in (".", "..") for p in parts]
                if not flags.hidden and (any(hidden[:-1]) or (hidden[-1] and not says)):
                    continue
                targets.append(_Target(found.display, found.name))
        elif fs.exists(host):
            targets.append(_Target(name, name))
        else:
            ctx.error(f"rg: {name}: No such file or directory (os error 2)")
            errors[0] = True
    return targets


COMMANDS = {"rg": rg}
