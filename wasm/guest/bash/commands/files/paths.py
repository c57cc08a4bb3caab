"""Path commands: readlink, realpath, basename, dirname, mktemp.

``mktemp`` creates under the sandbox's ``/tmp`` (made on demand; the tool never writes
``/tmp`` back to the workspace).
"""

from __future__ import annotations

import random
import string
from typing import Callable

from ...flagspec import FlagSpec, UsageError, parse_flags, usage_error
from .common import (
    canonicalize,
    host,
    quote_always,
    quote_locale,
    quote_if_needed,
    strerror,
)
from ..base import CommandContext, CommandResult
from ... import fs

q = quote_always


def _missing(ctx: CommandContext, name: str) -> int:
    ctx.error(f"{name}: missing operand")
    ctx.error(f"Try '{name} --help' for more information.")
    return 1


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- readlink ----------------------------------------------------------------------------


def readlink(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "femnqsvz",
        {"canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
         "no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z"},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "readlink", err)
        return 1
    mode = ""
    no_newline = zero = verbose = False
    for key, _ in opts:
        if key in "fem":
            mode = key
        elif key == "n":
            no_newline = True
        elif key == "z":
            zero = True
        elif key == "v":
            verbose = True
        elif key in "qs":
            verbose = False
    if not names:
        return _missing(ctx, "readlink")
    if no_newline and len(names) > 1:
        ctx.error("readlink: ignoring --no-newline with multiple arguments")
        no_newline = False
    end = b"\0" if zero else (b"" if no_newline else b"\n")
    status = 0
    for name in names:
        if mode:
            result = canonicalize(ctx, name, mode)
        else:
            try:
                result = fs.readlink(host(ctx, name, follow=False).rstrip("/"))
            except OSError as exc:
                result = None
                if verbose:
                    ctx.error(f"readlink: {quote_if_needed(name)}: {strerror(exc)}")
        if result is None:
            if verbose and mode:
                ctx.error(f"readlink: {quote_if_needed(name)}: No such file or directory")
            status = 1
            continue
        yield _b(result) + end
    return status


# --- realpath ----------------------------------------------------------------------------


def realpath(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "emsLPqz",
        {"canonicalize-existing": "e", "canonicalize-missing": "m", "no-symlinks": "s",
         "strip": "s", "logical": "L", "physical": "P", "quiet": "q", "zero": "z",
         "relative-to": "relative-to=", "relative-base": "relative-base="},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "realpath", err)
        return 1
    mode = "f"
    lexical = logical = quiet = zero = False
    relative_to: str | None = None
    relative_base: str | None = None
    for key, value in opts:
        if key in ("e", "m"):
            mode = key
        elif key == "s":
            lexical = True
        elif key in ("L", "P"):
            logical = key == "L"  # the last of the two wins
        elif key == "q":
            quiet = True
        elif key == "z":
            zero = True
        elif key == "relative-to":
            relative_to = value
        elif key == "relative-base":
            relative_base = value
    if not names:
        return _missing(ctx, "realpath")

    def resolve(name: str) -> str | None:
        if lexical or logical:
            path = _without_links(ctx, name, mode)[0]
            # -L: each ".." has taken away the name before it; the links are resolved after.
            return path if lexical or path is None else canonicalize(ctx, path, mode)
        return canonicalize(ctx, name, mode)

    base_dirs: list[str] = []
    for extra in (relative_to, relative_base):
        if extra is None:
            continue
        resolved = resolve(extra)
        if resolved is None:
            ctx.error(f"realpath: {quote_if_needed(extra)}: No such file or directory")
            return 1
        base_dirs.append(resolved)
    rel_to = base_dirs[0] if relative_to is not None else None
    rel_base = base_dirs[-1] if relative_base is not None else None
    if rel_to is not None and rel_base is not None and not _under(rel_to, rel_base):
        rel_to = rel_base = None
    elif rel_base is not None and rel_to is None:
        rel_to = rel_base
    status = 0
    for name in names:
        result = resolve(name)
        if result is None:
            if not quiet:
                reason = _failure_reason(ctx, name)
                ctx.error(f"realpath: {quote_if_needed(name)}: {reason}")
            status = 1
            continue
        if rel_to is not None and (rel_base is None or _under(result, rel_base)):
            result = _relative(result, rel_to)
        yield _b(result) + (b"\0" if zero else b"\n")
    return status


def _failure_reason(ctx: CommandContext, name: str) -> str:
    """Why resolving ``name`` failed: a file used as a directory, or something missing."""
    return _without_links(ctx, name, "f")[1] or "No such file or directory"


def _without_links(ctx: CommandContext, name: str, mode: str) -> tuple[str | None, str]:
    """``name`` made absolute without resolving a link, as gnulib does for ``-s`` and for
    ``-L``'s first pass: a ``..`` takes away the name before it, but each name is checked
    as it is reached. One that more names follow must be a directory (through its link)
    and, unless ``mode`` is ``m``, exist; the last must exist with ``e``. The path, or None
    and why not."""
    path = name if name.startswith("/") else ctx.cwd.rstrip("/") + "/" + name
    parts = [part for part in path.split("/") if part]
    kept: list[str] = []
    for index, part in enumerate(parts):
        if part in (".", ".."):
            if part == ".." and kept:
                kept.pop()
            continue
        kept.append(part)
        if mode == "m":
            continue
        more = index < len(parts) - 1
        real = host(ctx, "/" + "/".join(kept))
        if not fs.exists(real):
            if more or mode == "e":
                return None, "No such file or directory"
        elif more and not fs.isdir(real):
            return None, "Not a directory"
    return "/" + "/".join(kept), ""


def _under(path: str, base: str) -> bool:
    return base == "/" or path == base or path.startswith(base + "/")


def _relative(path: str, start: str) -> str:
    a = [p for p in path.split("/") if p]
    b = [p for p in start.split("/") if p]
    common = 0
    while common < len(a) and common < len(b) and a[common] == b[common]:
        common += 1
    parts = [".."] * (len(b) - common) + a[common:]
    return "/".join(parts) or "."


# --- basename / dirname ------------------------------------------------------------------


def base_name(path: str) -> str:
    if path == "":
        return ""
    stripped = path.rstrip("/")
    if stripped == "":
        return "/"
    return stripped.rsplit("/", 1)[-1]


def dir_name(path: str) -> str:
    stripped = path.rstrip("/")
    if stripped == "":
        return "/" if path.startswith("/") else "."
    if "/" not in stripped:
        return "."
    parent = stripped.rsplit("/", 1)[0].rstrip("/")
    return parent or "/"


def basename(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec("as:z", {"multiple": "a", "suffix": "s=", "zero": "z"})
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "basename", err)
        return 1
    multiple = zero = False
    suffix = ""
    for key, value in opts:
        if key == "a":
            multiple = True
        elif key == "s":
            multiple = True
            suffix = value or ""
        elif key == "z":
            zero = True
    if not names:
        return _missing(ctx, "basename")
    if not multiple:
        if len(names) > 2:
            ctx.error(f"basename: extra operand {q(names[2])}")
            ctx.error("Try 'basename --help' for more information.")
            return 1
        if len(names) == 2:
            suffix = names[1]
        names = names[:1]
    end = b"\0" if zero else b"\n"
    for name in names:
        result = base_name(name)
        if suffix and result != suffix and result.endswith(suffix) and result != "/":
            result = result[: -len(suffix)]
        yield _b(result) + end
    return 0


def dirname(ctx: CommandContext, argv: list[str]) -> CommandResult:
    try:
        opts, names = parse_flags(FlagSpec("z", {"zero": "z"}), argv[1:])
    except UsageError as err:
        usage_error(ctx, "dirname", err)
        return 1
    if not names:
        return _missing(ctx, "dirname")
    end = b"\0" if opts else b"\n"
    for name in names:
        yield _b(dir_name(name)) + end
    return 0


# --- mktemp ------------------------------------------------------------------------------

_ALPHABET = string.ascii_letters + string.digits


def mktemp(ctx: CommandContext, argv: list[str]) -> CommandResult:
    spec = FlagSpec(
        "dup:tq",
        {"directory": "d", "dry-run": "u", "tmpdir": "p?", "quiet": "q", "suffix": "suffix="},
    )
    try:
        opts, names = parse_flags(spec, argv[1:])
    except UsageError as err:
        usage_error(ctx, "mktemp", err)
        return 1
    make_dir = dry = under_tmp = quiet = False
    parent: str | None = None
    suffix = ""
    for key, value in opts:
        if key == "d":
            make_dir = True
        elif key == "u":
            dry = True
        elif key == "p":
            parent = value or ctx.env.get("TMPDIR") or "/tmp"
        elif key == "t":
            under_tmp = True
        elif key == "q":
            quiet = True
        elif key == "suffix":
            suffix = value or ""
    if len(names) > 1:
        ctx.error("mktemp: too many templates")
        ctx.error("Try 'mktemp --help' for more information.")
        return 1
    template = names[0] if names else "tmp.XXXXXXXXXX"
    if names and not template.endswith("X") and not suffix:
        tail = template.rsplit("X", 1)
        if len(tail) == 2 and "/" not in tail[1] and template.count("X") >= 3:
            template, suffix = tail[0] + "X", tail[1]
    if not names or under_tmp:
        parent = parent or ctx.env.get("TMPDIR") or "/tmp"
        if under_tmp and "/" in template:
            ctx.error(f"mktemp: invalid template, {quote_locale(ctx, template)}, contains directory separator")
            return 1
    given = template
    if parent is not None:
        if template.startswith("/"):
            ctx.error(f"mktemp: invalid template, {quote_locale(ctx, template)}; with --tmpdir, it may not be absolute")
            return 1
        template = parent.rstrip("/") + "/" + template
    xs = len(template) - len(template.rstrip("X"))
    if xs < 3:
        if not quiet:
            ctx.error(f"mktemp: too few X's in template {quote_locale(ctx, given + suffix)}")
        return 1
    if parent == "/tmp" or template.startswith("/tmp/"):
        fs.makedirs(host(ctx, "/tmp"), exist_ok=True)
    stem = template[:-xs]
    rng = random.SystemRandom() if hasattr(random, "SystemRandom") else random.Random()
    for _attempt in range(100):
        name = stem + "".join(rng.choice(_ALPHABET) for _ in range(xs)) + suffix
        real = host(ctx, name)
        if fs.lexists(real):
            continue
        if dry:
            yield _b(name) + b"\n"
            return 0
        try:
            if make_dir:
                fs.mkdir(real, 0o700)
            else:
                fs.create_exclusive(real, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            if not quiet:
                what = "directory" if make_dir else "file"
                ctx.error(f"mktemp: failed to create {what} via template "
                          f"{quote_locale(ctx, template + suffix)}: {strerror(exc)}")
            return 1
        yield _b(name) + b"\n"
        return 0
    ctx.error(f"mktemp: failed to create file via template {quote_locale(ctx, template + suffix)}: File exists")
    return 1


COMMANDS: dict[str, Callable[[CommandContext, list[str]], CommandResult]] = {
    "readlink": readlink, "realpath": realpath, "basename": basename, "dirname": dirname,
    "mktemp": mktemp,
}
