"""``find``: GNU findutils expressions over the workspace.

GNU find lists a directory in readdir order, which no filesystem promises; here entries are
visited in byte order of their names so output is deterministic. ``-exec`` runs commands
through ``ctx.run_command`` (the interpreter's dispatcher); without one it is an error.
``-execdir`` runs in the current directory (the dispatcher has no per-command directory)
and so names a file deeper down by its path, not ``./name``.
"""

from __future__ import annotations

import os
import stat as st
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .common import (
    OWNER_ID,
    OWNER_NAME,
    c_sort_key,
    effective_mode,
    host,
    link_count,
    mode_string,
    quote_locale,
    shown_size,
    strerror,
    usage_blocks,
)
from .findfmt import render_printf, type_char
from .glob import find_regex, glob_regex
from ..base import CommandContext, CommandResult
from ... import fs
from ...tz import UTC, Zone, zone_of


class FindError(Exception):
    """A bad expression; reported as ``find: <message>`` with status 1."""


@dataclass
class _Item:
    path: str  # as printed
    real: str
    depth: int
    start: str
    stat_info: os.stat_result | None
    """None until asked for (``info``): a walk whose expression needs only names and types
    takes the type from the directory listing and never stats (see ``_STAT_FREE``)."""
    listed_type: int = 0
    """The file type bits (``S_IFMT``) the directory listing gave, when ``stat_info`` is None."""
    prune: bool = False

    @property
    def info(self) -> os.stat_result:
        if self.stat_info is None:
            self.stat_info = fs.lstat(self.real)
        return self.stat_info

    @property
    def file_type(self) -> int:
        return self.listed_type if self.stat_info is None else st.S_IFMT(self.stat_info.st_mode)


@dataclass
class _State:
    ctx: CommandContext
    now: float
    follow: bool
    zone: Zone = UTC
    """Where times are shown (the ``TZ`` find runs with)."""
    out: list[bytes] = field(default_factory=list)
    status: int = 0
    quit: bool = False
    stat_free: bool = False
    """The expression needs only names and types (``_STAT_FREE``), so a listed entry whose
    type the listing gives is not stat'ed: each stat is one WASI call, about 0.1 ms."""
    batches: dict[int, list[str]] = field(default_factory=dict)
    pending: int = 0
    """Bytes in ``out``, kept as they are added: summing them at every entry was a tenth of
    a 1,000-file walk."""

    def emit(self, data: bytes) -> None:
        self.out.append(data)
        self.pending += len(data)


Pred = Callable[[_State, _Item], bool]


@dataclass
class _Node:
    kind: str  # "and", "or", "not", "comma", "pred"
    children: list["_Node"] = field(default_factory=list)
    pred: Pred | None = None
    action: bool = False
    name: str = ""

    def eval(self, state: _State, item: _Item) -> bool:
        if self.kind == "pred":
            assert self.pred is not None
            return self.pred(state, item)
        if self.kind == "not":
            return not self.children[0].eval(state, item)
        if self.kind == "and":
            return self.children[0].eval(state, item) and not state.quit and self.children[1].eval(state, item)
        if self.kind == "or":
            return self.children[0].eval(state, item) or (not state.quit and self.children[1].eval(state, item))
        self.children[0].eval(state, item)
        return self.children[1].eval(state, item)


_GLOBAL = {"-maxdepth", "-mindepth", "-depth", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race",
           "-daystart", "-follow", "-regextype", "-nowarn", "-warn"}
_STAT_FREE = _GLOBAL | {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                        "-iregex", "-type", "-true", "-false", "-print", "-print0", "-prune", "-quit"}
"""Primaries that read nothing of an entry but its name and type (as GNU find, which then
skips the stat too); ``-follow`` is here, and a walk that follows links stats anyway."""


@dataclass
class _Options:
    maxdepth: int | None = None
    mindepth: int = 0
    depth_first: bool = False
    follow: bool = False
    follow_starts: bool = False
    regextype: str = "emacs"
    daystart: bool = False


class _Parser:
    def __init__(self, tokens: list[str], opts: _Options, ctx: CommandContext, now: float):
        self.tokens = tokens
        self.pos = 0
        self.opts = opts
        self.ctx = ctx
        self.now = now
        self.has_action = False
        self.stat_free = True
        self.exec_ids = 0
        self.batch_words: dict[int, list[str]] = {}

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        if self.pos >= len(self.tokens):
            raise FindError("invalid expression")
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def arg(self, name: str) -> str:
        if self.pos >= len(self.tokens):
            raise FindError(f"missing argument to `{name}'")
        return self.take()

    def parse(self) -> _Node | None:
        if self.peek() is None:
            return None
        node = self.comma()
        if self.peek() is not None:
            tok = self.peek()
            if tok == ")":
                raise FindError("you have too many ')'")
            raise FindError(f"paths must precede expression: `{tok}'")
        return node

    def comma(self) -> _Node:
        left = self.or_()
        while self.peek() == ",":
            self.take()
            left = _Node("comma", [left, self.or_()])
        return left

    def or_(self) -> _Node:
        left = self.and_()
        while self.peek() in ("-o", "-or"):
            op = self.take()
            if self.peek() is None:
                raise FindError(f"expected an expression after '{op}'")
            left = _Node("or", [left, self.and_()])
        return left

    def and_(self) -> _Node:
        left = self.unary()
        while True:
            tok = self.peek()
            if tok in ("-a", "-and"):
                self.take()
                if self.peek() is None:
                    raise FindError(f"expected an expression after '{tok}'")
                left = _Node("and", [left, self.unary()])
            elif tok is not None and tok not in ("-o", "-or", ")", ","):
                left = _Node("and", [left, self.unary()])
            else:
                return left

    def unary(self) -> _Node:
        tok = self.peek()
        if tok in ("!", "-not"):
            self.take()
            if self.peek() is None:
                raise FindError(f"expected an expression after '{tok}'")
            return _Node("not", [self.unary()])
        if tok == "(":
            self.take()
            if self.peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            if self.peek() is None:
                raise FindError("invalid expression; expected to find a ')' but didn't see one. "
                                "Perhaps you need an extra predicate after '('")
            inner = self.comma()
            if self.peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.take()
            return inner
        if tok in ("-o", "-or", "-a", "-and"):
            raise FindError(f"invalid expression; you have used a binary operator '{tok}' "
                            "with nothing before it.")
        return self.primary()

    def primary(self) -> _Node:
        tok = self.take()
        if tok not in _STAT_FREE:
            self.stat_free = False
        if tok in _GLOBAL:
            self.global_option(tok)
            return _Node("pred", pred=lambda s, i: True, name=tok)
        maker = _PRIMARIES.get(tok)
        if maker is None:
            if tok.startswith("-"):
                raise FindError(f"unknown predicate `{tok}'")
            raise FindError(f"paths must precede expression: `{tok}'")
        return maker(self, tok)

    def global_option(self, tok: str) -> None:
        if tok in ("-maxdepth", "-mindepth"):
            value = self.arg(tok)
            if not (value.isascii() and value.isdigit()):
                raise FindError(f"Expected a positive decimal integer argument to {tok}, "
                                f"but got {quote_locale(self.ctx, value)}")
            if tok == "-maxdepth":
                self.opts.maxdepth = int(value)
            else:
                self.opts.mindepth = int(value)
        elif tok == "-depth":
            self.opts.depth_first = True
        elif tok == "-follow":
            self.opts.follow = True
        elif tok == "-daystart":
            self.opts.daystart = True
        elif tok == "-regextype":
            value = self.arg(tok)
            types = ["findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk",
                     "posix-basic", "posix-egrep", "egrep", "posix-extended",
                     "posix-minimal-basic", "sed"]
            if value not in types:
                listing = ", ".join(quote_locale(self.ctx, t) for t in types)
                raise FindError(f"Unknown regular expression type {quote_locale(self.ctx, value)}; "
                                f"valid types are {listing}.")
            self.opts.regextype = value


# --- primaries ---------------------------------------------------------------------------


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _basename(path: str) -> str:
    stripped = path.rstrip("/")
    if not stripped:
        return "/"
    return stripped.rsplit("/", 1)[-1]


def _p_name(p: _Parser, tok: str) -> _Node:
    pattern = p.arg(tok)
    rx = glob_regex(pattern, ignore_case=tok == "-iname")
    return _Node("pred", pred=lambda s, i: bool(rx.match(_basename(i.path))), name=tok)


def _p_path(p: _Parser, tok: str) -> _Node:
    pattern = p.arg(tok)
    rx = glob_regex(pattern, ignore_case=tok in ("-ipath", "-iwholename"))
    return _Node("pred", pred=lambda s, i: bool(rx.match(i.path)), name=tok)


def _p_regex(p: _Parser, tok: str) -> _Node:
    try:
        rx = find_regex(p.arg(tok), p.opts.regextype, tok == "-iregex")
    except ValueError as exc:
        raise FindError(str(exc)) from None
    return _Node("pred", pred=lambda s, i: bool(rx.match(i.path)), name=tok)


def _p_type(p: _Parser, tok: str) -> _Node:
    value = p.arg(tok)
    kinds = value.split(",")
    for kind in kinds:
        if len(kind) != 1 or kind not in "fdlpscbD":
            if len(kind) != 1:
                raise FindError(f"Must separate multiple arguments to {tok} using: ','")
            raise FindError(f"Unknown argument to {tok}: {kind}")
    wanted = set(kinds)

    def test(s: _State, i: _Item) -> bool:
        if tok != "-xtype":
            return type_char(i.file_type) in wanted
        try:
            info = fs.lstat(i.real) if s.follow else fs.stat(i.real)
        except OSError:
            info = i.info
        return type_char(info.st_mode) in wanted

    return _Node("pred", pred=test, name=tok)


def _numeric(text: str, tok: str) -> tuple[str, int]:
    sign = text[:1] if text[:1] in "+-" else ""
    digits = text[len(sign):]
    if not (digits.isascii() and digits.isdigit()):
        raise FindError(f"invalid argument `{text}' to `{tok}'")
    return sign, int(digits)


def _compare(sign: str, value: int, target: int) -> bool:
    if sign == "+":
        return value > target
    if sign == "-":
        return value < target
    return value == target


_SIZE_UNITS = {"c": 1, "w": 2, "b": 512, "k": 1024, "M": 1024**2, "G": 1024**3}


def _p_size(p: _Parser, tok: str) -> _Node:
    text = p.arg(tok)
    unit = "b"
    if text and text[-1] in _SIZE_UNITS:
        unit = text[-1]
        body = text[:-1]
    else:
        body = text
    try:
        sign, target = _numeric(body, tok)
    except FindError:
        raise FindError(f"invalid -size type `{text[-1:]}'" if text and not (text[-1].isascii() and text[-1].isdigit())
                        else f"invalid argument `{text}' to `{tok}'") from None
    scale = _SIZE_UNITS[unit]

    def test(s: _State, i: _Item) -> bool:
        size = shown_size(i.info) if not st.S_ISLNK(i.info.st_mode) else i.info.st_size
        return _compare(sign, -(-size // scale), target)

    return _Node("pred", pred=test, name=tok)


def _p_time(p: _Parser, tok: str) -> _Node:
    text = p.arg(tok)
    sign, target = _numeric(text, tok)
    per = 60 if tok.endswith("min") else 86400
    field_name = {"m": "st_mtime", "a": "st_atime", "c": "st_ctime"}[tok[1]]
    base = p.now
    if p.opts.daystart:
        # GNU's: a day on, then back to that local day's midnight (the start of tomorrow)
        ahead = int(base) + 86400
        tm, _ = zone_of(p.ctx.env).localtime(ahead)
        base = float(ahead - (tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec))

    def test(s: _State, i: _Item) -> bool:
        age = base - getattr(i.info, field_name)
        if per == 60:
            # GNU rounds minutes up for -mmin comparisons.
            units = -(-int(age) // 60) if age > 0 else int(age // 60)
        else:
            units = int(age // per)
        return _compare(sign, units, target)

    return _Node("pred", pred=test, name=tok)


def _p_newer(p: _Parser, tok: str) -> _Node:
    ref = p.arg(tok)
    try:
        ref_info = fs.stat(host(p.ctx, ref))
    except OSError as exc:
        raise FindError(f"{quote_locale(p.ctx, ref)}: {strerror(exc)}") from None
    ref_ns = ref_info.st_mtime_ns
    return _Node("pred", pred=lambda s, i: i.info.st_mtime_ns > ref_ns, name=tok)


def _p_newer_xy(p: _Parser, tok: str) -> _Node:
    """-newerXY: X's time of the file against Y's time of a reference (Y=t: a date)."""
    from .dates import DateError, parse_date

    mine, theirs = tok[6], tok[7]
    ref = p.arg(tok)
    if theirs == "t":
        try:
            ref_ns = int(parse_date(ref, p.now, zone_of(p.ctx.env)) * 1_000_000_000)
        except DateError:
            raise FindError(f"I cannot figure out how to interpret {quote_locale(p.ctx, ref)} as a date or time") from None
    else:
        try:
            ref_info = fs.stat(host(p.ctx, ref))
        except OSError as exc:
            raise FindError(f"{quote_locale(p.ctx, ref)}: {strerror(exc)}") from None
        ref_ns = getattr(ref_info, _TIME_FIELDS[theirs])
    field_name = _TIME_FIELDS[mine]
    return _Node("pred", pred=lambda s, i: getattr(i.info, field_name) > ref_ns, name=tok)


_TIME_FIELDS = {"a": "st_atime_ns", "m": "st_mtime_ns", "c": "st_ctime_ns", "B": "st_ctime_ns"}


def _p_empty(p: _Parser, tok: str) -> _Node:
    def test(s: _State, i: _Item) -> bool:
        if st.S_ISDIR(i.info.st_mode):
            try:
                with fs.scandir(i.real) as it:
                    return next(it, None) is None
            except OSError:
                return False
        return st.S_ISREG(i.info.st_mode) and i.info.st_size == 0

    return _Node("pred", pred=test, name=tok)


def _p_const(value: bool) -> Callable[[_Parser, str], _Node]:
    return lambda p, tok: _Node("pred", pred=lambda s, i: value, name=tok)


def _p_perm(p: _Parser, tok: str) -> _Node:
    from .chmod import parse_mode

    text = p.arg(tok)
    kind = text[:1] if text[:1] in "-/" else ""
    bits = parse_mode(text[len(kind):], 0, False, masked=False)
    if bits is None:
        raise FindError(f"invalid mode `{text}'")

    def test(s: _State, i: _Item) -> bool:
        mode = st.S_IMODE(effective_mode(s.ctx, i.real, i.info))
        if kind == "-":
            return mode & bits == bits
        if kind == "/":
            return bits == 0 or bool(mode & bits)
        return mode == bits

    return _Node("pred", pred=test, name=tok)


def _p_access(p: _Parser, tok: str) -> _Node:
    flag = {"-readable": 0o444, "-writable": 0o222, "-executable": 0o111}[tok]

    def test(s: _State, i: _Item) -> bool:
        return bool(effective_mode(s.ctx, i.real, i.info) & flag & 0o700)

    return _Node("pred", pred=test, name=tok)


def _p_owner(p: _Parser, tok: str) -> _Node:
    value = p.arg(tok)
    ok = value in (OWNER_NAME, str(OWNER_ID))
    return _Node("pred", pred=lambda s, i: ok, name=tok)


def _p_links(p: _Parser, tok: str) -> _Node:
    sign, target = _numeric(p.arg(tok), tok)
    return _Node("pred", pred=lambda s, i: _compare(sign, link_count(i.real, i.info), target),
                 name=tok)


def _p_print(p: _Parser, tok: str) -> _Node:
    p.has_action = True
    end = b"\0" if tok == "-print0" else b"\n"

    def act(s: _State, i: _Item) -> bool:
        s.emit(_b(i.path) + end)
        return True

    return _Node("pred", pred=act, action=True, name=tok)


def _p_printf(p: _Parser, tok: str) -> _Node:
    p.has_action = True
    fmt = p.arg(tok)

    def act(s: _State, i: _Item) -> bool:
        s.emit(_b(render_printf(s, fmt, i)))
        return True

    return _Node("pred", pred=act, action=True, name=tok)


def _p_ls(p: _Parser, tok: str) -> _Node:
    p.has_action = True

    def act(s: _State, i: _Item) -> bool:
        mode = effective_mode(s.ctx, i.real, i.info)
        size = shown_size(i.info) if not st.S_ISLNK(i.info.st_mode) else i.info.st_size
        when, _ = s.zone.localtime(i.info.st_mtime_ns // 1_000_000_000)
        recent = s.now - 15778476 < i.info.st_mtime <= s.now + 1
        stamp = time.strftime("%b %e %H:%M" if recent else "%b %e  %Y", when)
        line = (f"{i.info.st_ino:>9} {usage_blocks(i.info):>6} {mode_string(mode)} "
                f"{link_count(i.real, i.info):>3} {OWNER_NAME:<8} {OWNER_NAME:<8} "
                f"{size:>8} {stamp} {i.path}")
        if st.S_ISLNK(i.info.st_mode):
            line += " -> " + fs.readlink(i.real)
        s.emit(_b(line) + b"\n")
        return True

    return _Node("pred", pred=act, action=True, name=tok)


def _p_delete(p: _Parser, tok: str) -> _Node:
    p.has_action = True
    p.opts.depth_first = True

    def act(s: _State, i: _Item) -> bool:
        if i.path in (".",):
            return True
        try:
            if st.S_ISDIR(i.info.st_mode):
                fs.rmdir(i.real)
            else:
                fs.unlink(i.real)
        except OSError as exc:
            s.ctx.error(f"find: cannot delete {quote_locale(s.ctx, i.path)}: {strerror(exc)}")
            s.status = 1
            return False
        return True

    return _Node("pred", pred=act, action=True, name=tok)


def _p_prune(p: _Parser, tok: str) -> _Node:
    def act(s: _State, i: _Item) -> bool:
        i.prune = True
        return True

    return _Node("pred", pred=act, name=tok)


def _p_quit(p: _Parser, tok: str) -> _Node:
    def act(s: _State, i: _Item) -> bool:
        s.quit = True
        return True

    return _Node("pred", pred=act, name=tok)


def _p_exec(p: _Parser, tok: str) -> _Node:
    p.has_action = True
    words: list[str] = []
    while True:
        if p.peek() is None:
            raise FindError(f"missing argument to `{tok}'")
        word = p.take()
        if word == ";":
            batch = False
            break
        if word == "+" and words and words[-1] == "{}":
            batch = True
            break
        words.append(word)
    if not words:
        raise FindError(f"missing argument to `{tok}'")
    if batch and tok in ("-ok", "-okdir"):
        raise FindError(f"missing argument to `{tok}'")
    in_dir = tok in ("-execdir", "-okdir")
    p.exec_ids += 1
    ident = p.exec_ids
    if batch:
        p.batch_words[ident] = words[:-1]

    def act(s: _State, i: _Item) -> bool:
        # -execdir cannot change the interpreter's directory for one command, so the file is
        # named by its path from here; "./name" only when it already lies in this directory.
        target = i.path
        if in_dir and "/" not in i.path.rstrip("/").removeprefix("./"):
            target = "./" + _basename(i.path)
        if batch:
            s.batches.setdefault(ident, []).append(target)
            return True
        argv = [w.replace("{}", target) for w in words]
        return _run(s, argv) == 0

    node = _Node("pred", pred=act, action=True, name=tok)
    return node


def _run(s: _State, argv: list[str]) -> int:
    runner = s.ctx.run_command
    if runner is None:
        s.ctx.error("find: -exec is not supported here: no command runner is available")
        s.status = 1
        return 1
    gen = runner(argv, iter(()))
    while True:
        try:
            s.emit(next(gen))
        except StopIteration as stop:
            return int(stop.value or 0)


_PRIMARIES: dict[str, Callable[[_Parser, str], _Node]] = {
    "-name": _p_name, "-iname": _p_name, "-path": _p_path, "-ipath": _p_path,
    "-wholename": _p_path, "-iwholename": _p_path, "-regex": _p_regex, "-iregex": _p_regex,
    "-type": _p_type, "-xtype": _p_type, "-size": _p_size, "-mtime": _p_time,
    "-mmin": _p_time, "-atime": _p_time, "-amin": _p_time, "-ctime": _p_time,
    "-cmin": _p_time, "-newer": _p_newer, "-empty": _p_empty, "-true": _p_const(True),
    "-false": _p_const(False), "-perm": _p_perm, "-readable": _p_access,
    "-writable": _p_access, "-executable": _p_access, "-user": _p_owner, "-group": _p_owner,
    "-uid": _p_owner, "-gid": _p_owner, "-links": _p_links, "-print": _p_print,
    "-print0": _p_print, "-printf": _p_printf, "-ls": _p_ls, "-delete": _p_delete,
    "-prune": _p_prune, "-quit": _p_quit, "-exec": _p_exec, "-execdir": _p_exec,
    "-nouser": _p_const(False), "-nogroup": _p_const(False),
}
for _x in "amc":
    for _y in "amct":
        _PRIMARIES[f"-newer{_x}{_y}"] = _p_newer_xy


# --- traversal ---------------------------------------------------------------------------


def run(ctx: CommandContext, argv: list[str]) -> CommandResult:
    args = argv[1:]
    opts = _Options()
    while args and args[0] in ("-H", "-L", "-P"):
        opts.follow = args[0] == "-L"
        opts.follow_starts = args[0] in ("-H", "-L")
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    starts: list[str] = []
    while args and not (args[0].startswith("-") and len(args[0]) > 1) and args[0] not in ("(", "!", ")", ","):
        starts.append(args.pop(0))
    now = time.time()
    parser = _Parser(args, opts, ctx, now)
    try:
        expr = parser.parse()
    except FindError as err:
        ctx.error(f"find: {err}")
        return 1
    if expr is None:
        expr = _p_print(parser, "-print")
    elif not parser.has_action:
        expr = _Node("and", [expr, _p_print(parser, "-print")])
    state = _State(ctx, now, opts.follow, zone_of(ctx.env), stat_free=parser.stat_free and not opts.follow)
    for start in starts or ["."]:
        if state.quit:
            break
        yield from _walk_start(state, opts, expr, start)
    yield from _drain(state, force=True)
    for ident, targets in state.batches.items():
        if _run(state, parser.batch_words[ident] + targets) != 0:
            state.status = 1
        yield from _drain(state)
    return state.status


DRAIN_BYTES = 4096
"""A walk whose expression only names and prints (``stat_free``) hands its output on in
chunks of about this much, as GNU find's buffered stdout does, not a chunk per entry: each
chunk climbs the whole pipeline of generators, which was a third of a 1,000-file walk."""


def _drain(state: _State, force: bool = False) -> Iterator[bytes]:
    if _due(state, force):
        yield _taken(state)


def _due(state: _State, force: bool = False) -> bool:
    return bool(state.out) and (force or not state.stat_free or state.pending >= DRAIN_BYTES)


def _taken(state: _State) -> bytes:
    chunk = b"".join(state.out)
    state.out.clear()
    state.pending = 0
    return chunk


def _walk_start(state: _State, opts: _Options, expr: _Node, start: str) -> Iterator[bytes]:
    real = host(state.ctx, start, follow=opts.follow_starts)
    try:
        if opts.follow_starts:
            try:
                info = fs.stat(real)
            except OSError:
                info = fs.lstat(real)
        else:
            info = fs.lstat(real.rstrip("/") if not real.endswith("/") else real)
    except OSError as exc:
        yield from _drain(state, force=True)  # what earlier starts printed comes first
        state.ctx.error(f"find: {quote_locale(state.ctx, start)}: {strerror(exc)}")
        state.status = 1
        return
    if start.endswith("/") and not st.S_ISDIR(info.st_mode) and not st.S_ISLNK(info.st_mode):
        yield from _drain(state, force=True)
        state.ctx.error(f"find: {quote_locale(state.ctx, start)}: Not a directory")
        state.status = 1
        return
    item = _Item(start, real.rstrip("/") or "/", 0, start, info)
    yield from _visit(state, opts, expr, item, ((info.st_dev, info.st_ino, start),))


def _visit(
    state: _State, opts: _Options, expr: _Node, item: _Item,
    ancestors: tuple[tuple[int, int, str], ...],
) -> Iterator[bytes]:
    in_range = item.depth >= opts.mindepth
    if not opts.depth_first and in_range:
        expr.eval(state, item)
        yield from _drain(state)
        if state.quit:
            return
    descend = st.S_ISDIR(item.file_type) and not item.prune
    if descend and (opts.maxdepth is None or item.depth < opts.maxdepth):
        try:
            with fs.scandir(item.real) as it:
                listed = [(e.name, _listed_type(e) if state.stat_free else 0) for e in it]
        except OSError as exc:
            yield from _drain(state, force=True)  # the names before it come first
            state.ctx.error(f"find: {quote_locale(state.ctx, item.path)}: {strerror(exc)}")
            state.status = 1
            listed = []
        listed.sort(key=lambda entry: c_sort_key(entry[0]))
        path_prefix = item.path if item.path.endswith("/") else item.path + "/"
        real_prefix = item.real if item.real.endswith("/") else item.real + "/"
        leaf_in_range = item.depth + 1 >= opts.mindepth
        for name, listed_type in listed:
            child_path = path_prefix + name
            child_real = real_prefix + name
            if listed_type:
                child = _Item(child_path, child_real, item.depth + 1, item.start, None, listed_type)
                if listed_type != st.S_IFDIR:
                    # A leaf, visited here: most entries are files, and a generator per
                    # file was a fifth of a 1,000-file walk.
                    if leaf_in_range:
                        expr.eval(state, child)
                        if _due(state):
                            yield _taken(state)
                else:
                    yield from _visit(state, opts, expr, child, ancestors)
                if state.quit:
                    return
                continue
            try:
                info = fs.stat(child_real) if opts.follow else fs.lstat(child_real)
            except OSError:
                try:
                    info = fs.lstat(child_real)
                except OSError as exc:
                    state.ctx.error(f"find: {quote_locale(state.ctx, child_path)}: {strerror(exc)}")
                    state.status = 1
                    continue
            child = _Item(child_path, child_real, item.depth + 1, item.start, info)
            if opts.follow and st.S_ISDIR(info.st_mode):
                loop = next((a for a in ancestors if a[:2] == (info.st_dev, info.st_ino)), None)
                if loop is not None:
                    state.ctx.error(f"find: File system loop detected; {quote_locale(state.ctx, child_path)} "
                                    f"is part of the same file system loop as {quote_locale(state.ctx, loop[2])}.")
                    state.status = 1
                    continue
            inner = ancestors + ((info.st_dev, info.st_ino, child_path),)
            yield from _visit(state, opts, expr, child, inner)
            if state.quit:
                return
    if opts.depth_first and in_range:
        expr.eval(state, item)
        yield from _drain(state)


def _listed_type(entry: fs.DirEntry) -> int:
    """The entry's type as its directory listing says (no stat when the listing has it);
    0 for a type only a stat can tell."""
    try:
        if entry.is_symlink():
            return st.S_IFLNK
        if entry.is_dir(follow_symlinks=False):
            return st.S_IFDIR
        if entry.is_file(follow_symlinks=False):
            return st.S_IFREG
    except OSError:
        pass
    return 0


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {"find": run}
